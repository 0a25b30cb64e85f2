// SPDX-License-Identifier: GPL-2.0
/*
 * The DualOpt preset (--system dualopt): the paper's machine, the common ground
 * of lib/config/presets.c as apply() changes it. Built into the library,
 * which lists it in config/papers.h (NG_PAPERS).
 */
#include "config/preset.h"

/*
 * DualOpt Table 1: 4 GPUs of 64 CUs, 16 KB 4-way L1 per CU, 64 B lines,
 * 4 GB HBM, 64 GB/s links in 16 B flits; the decision engine on, with the
 * 1.5 MB 16-way RDMA cache, 4 B transfers and CoDec packets of 10 (30-
 * cycle timeout). The paper ran MGPUSim's unified multi-GPU mode, as REC
 * did: work-groups in contiguous ranges, GPU after GPU, of the CUs' share
 * rounded up, so small grids leave the last GPUs idle (sched mgpusim, see
 * the rec preset), and memory a 4 KB page at a time round-robin (cgp). MGPUSim's
 * L2 sits at the memory side and caches the home's lines for every
 * requester: the msl2 component, 0.5 MB beside the RDMA cache (--compare's
 * systems without an RDMA cache have 2 MB); ngemu's l2 component, which
 * caches remote lines at the requester, is off (Documentation/dualopt.rst).
 */
static void apply(struct ng_config *c)
{
	c->line = 64;
	c->l1.size = 16 << 10;
	c->l2.size = 0;
	c->mem_per_gpu = 4ULL << 30;
	c->placement = NG_PLACE_CGP;
	c->sched = NG_SCHED_MGPUSIM;
	c->rdc.size = 0;
	c->rdc.pct = 0;
	c->remote_opt = NG_RO_AUTO;
	/* MGPUSim's L2 is memory-side: 0.5 MB beside the RDMA cache */
	c->msl2.size = 512 << 10;
	/*
	 * "The GPUs are interconnected via PCIe-like interconnect (4th
	 * generation)" (section 5), which MGPUSim builds as a switch: each
	 * GPU one port of 64 GB/s each way
	 */
	c->topology = NG_TOPO_SWITCH;
	ng_preset_mgpusim_cu(c);
	/* Table 1: "MSHR 32 entries" */
	c->mshr_entries = 32;
}

/* Its suite: the workloads of its experiments, as ngemu builds them. */
static const char *const workloads[] = {
	"spmv", "bfs-shoc", "atax", "fir", "pr", "sc", "st", "bicg", "mt",
	"mm", "km", "aes", "bs", NULL,
};

const struct ng_preset ng_preset_dualopt = {
	.name = "dualopt",
	.desc = "DualOpt Table 1: 4 GPUs, 64 B lines, 16 KB L1 per CU, 64 GB/s links in 16 B flits, decision engine (remote_thresh 2%, block_thresh 0.2, hit_thresh 0.4), 1.5 MB RDMA cache beside a 0.5 MB memory-side L2 (2 MB without it), 4 B transfers, CoDec 10 per packet; 4 KB pages round-robin, work-groups in contiguous ranges of ceil(n / CUs) per CU, GPU after GPU (MGPUSim's unified mode)",
	.paper = "DualOpt (locality-aware remote access optimizations)",
	.missing = "the L1 scalar caches",
	.apply = apply,
	.suite = "DualOpt: fine-grained remote transfers and remote data caching",
	.workloads = workloads,
};
