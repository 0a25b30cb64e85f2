// SPDX-License-Identifier: GPL-2.0
/*
 * The REC preset (--system rec): the paper's machine, the common ground
 * of lib/config/presets.c as apply() changes it. Built into the library,
 * which lists it in config/papers.h (NG_PAPERS).
 */
#include "config/preset.h"

/*
 * REC Table 2: 16 KB 4-way L1 per CU, 2 MB 16-way L2, 64 B lines, an 8K-
 * entry 8-way directory per GPU with 1 KB ranges, 4 GB HBM at 1 TB/s,
 * 300 GB/s bidirectional links; no RDC. REC ran MGPUSim's unified multi-
 * GPU mode, which the paper does not describe: there the driver owes
 * every CU of the system ceil(work-groups / CUs) of a kernel's work-groups
 * and gives each GPU in turn its CUs' worth as one contiguous range of
 * flattened ids, so a grid of no more work-groups than a GPU has CUs
 * runs on GPU 0 alone (sched mgpusim); it allocates memory a 4 KB page at
 * a time round-robin over the GPUs (cgp; MGPUSim v3.0.0 driver/driver.go
 * distributeWGToGPUs, driver/internal/device.go allocateUnifiedGPUPage).
 */
static void apply(struct ng_config *c)
{
	c->placement = NG_PLACE_CGP;
	c->sched = NG_SCHED_MGPUSIM;
	c->line = 64;
	c->l1.size = 16 << 10;
	c->l2.size = 2 << 20;
	c->mem_per_gpu = 4ULL << 30;
	/*
	 * Table 2: "Inter-GPU bandwidth 300 GB/s, bi-directional" per GPU,
	 * NVLink through a switch (DGX-A100-like; MGPUSim's GPUs sit behind
	 * a switch): one port of 150 GB/s each way
	 */
	c->link_bw = 150;
	c->topology = NG_TOPO_SWITCH;
	c->rdc.size = 0;
	c->rdc.pct = 0;
	c->dir.kind = NG_DIR_REC;
	ng_preset_mgpusim_cu(c);
}

/* Its suite: the workloads of its experiments, as ngemu builds them. */
static const char *const workloads[] = {
	"atax", "c2d", "fir", "gemm", "gemv", "j2d", "lu", "mm2", "mm3", "pr",
	"sc", "st", NULL,
};

const struct ng_preset ng_preset_rec = {
	.name = "rec",
	.desc = "REC Table 2: 4 GPUs, 64 B lines, 16 KB L1 per CU, 2 MB L2, 8K-entry directory of 1 KB ranges, 300 GB/s links (150 each way), 1 TB/s HBM; 4 KB pages round-robin, work-groups in contiguous ranges of ceil(n / CUs) per CU, GPU after GPU (MGPUSim's unified mode)",
	.paper = "REC (JSA 2025)",
	.missing = "the L1 instruction and scalar caches; the L2 caches remote lines only (local data goes to memory)",
	.apply = apply,
	.suite = "REC (JSA 2025): coherence directories for remote data in the L2",
	.workloads = workloads,
};
