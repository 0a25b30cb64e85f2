// SPDX-License-Identifier: GPL-2.0
/*
 * Presets: the setups of the papers ngemu reproduces. Each preset is the
 * common ground below plus its paper's changes, and says which paper it
 * is and what of that paper is not built yet (`ngemu config --presets`
 * adds which model components the preset turns on).
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "ngemu/config.h"
#include "ngemu/util/err.h"

struct preset {
	const char *name;
	const char *desc;		/* the setup */
	const char *paper;
	const char *missing;		/* NULL: all of the paper is built */
	void (*apply)(struct ng_config *c);
};

/*
 * Common ground: CARVE's machine (Table III), 64 SMs per GPU "that
 * support 64 warps each" (2048 threads), each an emulated SM of its own
 * (sm-scale 1) with its own issue port, L1 and miss entries. What the
 * paper leaves to its Pascal GPU is the GP100's: 32 resident blocks and
 * 64 KB of shared memory per SM; 128 miss entries per SM are GPGPU-Sim's
 * P100 L1 (64 warps x 2 lines), enough for 64 SMs to cover 1 TB/s x
 * 300 ns (Little's law) with room.
 */
static const struct ng_config base = {
	.gpus = 4, .sms = 64, .sm_scale = 1, .mlp = 0, .ipc = 2, .warp_width = 32,
	.blocks_per_sm = 32, .threads_per_sm = 2048,
	.shared_per_sm = 64 << 10, .freq_ghz = 1.0, .line = 128,
	.page = 4096, .mem_per_gpu = 32ULL << 30,
	.l2 = NG_L2_DEFAULTS,
	.local_bw = 1024, .local_latency_ns = 300,
	.link_bw = 64, .link_latency_ns = 250, .flit = 16,
	.host_bw = 32, .host_latency_ns = 500,
	.placement = NG_PLACE_FIRST_TOUCH, .fgp_granularity = 256,
	.sched = NG_SCHED_BATCH, .backend = NG_MEM_AUTO, .interval = 1000,
	.seed = 1, .inject_batch_us = 20, .shared_bytes = 48 << 10,
	.rdc = NG_RDC_DEFAULTS,
	.l1 = NG_L1_DEFAULTS,
	.dir = NG_DIR_DEFAULTS,
	.remote_opt = NG_RO_OFF, .xfer_gran = 4, .mshr_entries = 128,
	.codec = NG_CODEC_DEFAULTS, .rdma = NG_RDMA_DEFAULTS,
	.de = NG_DECISION_DEFAULTS,
	.mig = NG_MIGRATE_DEFAULTS,
	.sg = NG_SCALEGPU_DEFAULTS,
	.host_payload = 128, .msl2 = NG_MSL2_DEFAULTS,
};

static void carve(struct ng_config *c)
{
	c->page = 2 << 20;	/* Table III: 2 MB OS pages */
	/*
	 * Table III: "Inter-GPU interconnect 64 GB/s per link, uni-
	 * directional", NVLink between every pair: a mesh (the default)
	 */
	c->topology = NG_TOPO_MESH;
	/*
	 * Table III: "L1 data cache 128KB per SM, 128B lines, 4 ways" (its
	 * latency is not given: the default's 20 ns)
	 */
	c->l1.size = 128 << 10;
	c->l1.ways = 4;
	/* IV-A: a 2 GB RDC of each GPU's 32 GB, with hardware coherence */
	c->rdc.pct = 6.25;
	c->rdc.coherence = NG_COH_HWC;
	ng_config_resolve(c);
}

/*
 * A GCN3 compute unit as MGPUSim v3.0.0 builds it (timing/cu/
 * computeunit.go): 4 SIMDs of 10 wavefronts (40 x 64 = 2560 threads; no
 * cap on work-groups but that), 64 KB of LDS, and an L1 vector cache of
 * 16 MSHRs that caps its transactions, hits too, at 16 (samples/runner/
 * shaderarray.go; writearound maxNumConcurrentTrans). DualOpt and REC
 * ran 64 of them per GPU.
 */
static void mgpusim_cu(struct ng_config *c)
{
	/*
	 * GCN3 runs 64-lane wavefronts; its 4 SIMD16s retire 64 lanes a
	 * cycle, two of ipc's 32-lane instructions (the base's ipc of 2)
	 */
	c->warp_width = 64;
	c->sms = 64;
	c->sm_scale = 1;
	c->threads_per_sm = 2560;
	c->blocks_per_sm = 40;
	c->shared_per_sm = 64 << 10;
	c->mshr_entries = 16;
}

/*
 * DualOpt Table 1: 4 GPUs of 64 CUs, 16 KB 4-way L1 per CU, 64 B lines,
 * 4 GB HBM, 64 GB/s links in 16 B flits; the decision engine on, with the
 * 1.5 MB 16-way RDMA cache, 4 B transfers and CoDec packets of 10 (30-
 * cycle timeout). The paper ran MGPUSim's unified multi-GPU mode, as REC
 * did: work-groups in contiguous ranges, GPU after GPU, of the CUs' share
 * rounded up, so small grids leave the last GPUs idle (sched mgpusim, see
 * rec()), and memory a 4 KB page at a time round-robin (cgp). MGPUSim's
 * L2 sits at the memory side and caches the home's lines for every
 * requester: the msl2 component, 0.5 MB beside the RDMA cache (--compare's
 * systems without an RDMA cache have 2 MB); ngemu's l2 component, which
 * caches remote lines at the requester, is off (Documentation/dualopt.rst).
 */
static void dualopt(struct ng_config *c)
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
	mgpusim_cu(c);
	/* Table 1: "MSHR 32 entries" */
	c->mshr_entries = 32;
}

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
static void rec(struct ng_config *c)
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
	mgpusim_cu(c);
}

/*
 * A Fermi SM as GPGPU-Sim 3.1.2's TeslaC2050 config has it (ScaleGPU's
 * Table 1 line for line): 1536 threads, 8 blocks (-gpgpu_shader_cta),
 * 48 KB of shared memory, an L1 of 32 MSHRs.
 */
static void fermi_sm(struct ng_config *c)
{
	c->sm_scale = 1;
	c->threads_per_sm = 1536;
	c->blocks_per_sm = 8;
	c->shared_per_sm = 48 << 10;
	c->mshr_entries = 32;
}

static void coda(struct ng_config *c)
{
	/*
	 * Table 1: "4 2GHz SMs" per GPU, "based on the NVIDIA Fermi
	 * architecture": a Fermi SM's 1536 threads, 8 blocks and 48 KB of
	 * shared memory, and GPGPU-Sim's Fermi L1 of 32 MSHRs (the paper
	 * gives none of these).
	 */
	c->sms = 4;
	fermi_sm(c);
	c->freq_ghz = 2.0;
	c->line = 64;
	/* Table 1: "32KB core-private L1, 8-way, 4-cycle" at 2 GHz */
	c->l1.size = 32 << 10;
	c->l1.ways = 8;
	c->l1.latency_ns = 2;
	c->l2.size = 1 << 20;
	c->l2.latency_ns = 5;
	c->local_bw = 256;
	/*
	 * Table 1: "4 GPUs connected to the CPU with processor-centric
	 * topology", "16GB/s Remote bandwidth": each GPU one link of
	 * 16 GB/s to the CPU, GPU-to-GPU traffic through it (a hub)
	 */
	c->link_bw = 16;
	c->topology = NG_TOPO_HUB;
	c->mem_per_gpu = 8ULL << 30;
	/* CODA: chunks with their blocks (B from a profile), FGP at 128 B */
	c->placement = NG_PLACE_CODA;
	c->fgp_granularity = 128;
	c->sched = NG_SCHED_CODA;
}

/*
 * ScaleGPU Table 1: one Fermi-class GPU (14 SMs at 1150 MHz, 16 KB L1,
 * 768 KB L2, GDDR5 at 144 GB/s) behind PCIe 2.0 x16 (8 GB/s, 1200 ns
 * round trip, 20 B headers, 128 B payloads), each SM with "Max. 1536
 * threads, ... 48KB shared memory" (fermi_sm()). The data lives in host
 * memory and device memory caches it: 100% of the data by default.
 */
static void scalegpu(struct ng_config *c)
{
	c->gpus = 1;
	c->sms = 14;
	fermi_sm(c);
	c->freq_ghz = 1.15;
	c->line = 128;
	c->l1.size = 16 << 10;
	c->l2.size = 768 << 10;
	/*
	 * "Six memory partitions", "two DRAM chips per memory controller",
	 * "GDDR5 timing 750MHz": 6 x 2 x 32 bits at 4 transfers a clock
	 * (GDDR5) x 750 MHz = 144 GB/s
	 */
	c->local_bw = 144;
	c->mem_per_gpu = 3ULL << 30;
	c->host_bw = 8;
	c->host_latency_ns = 600;
	c->host_header = 20;
	c->host_payload = 128;
	c->placement = NG_PLACE_HOST;
	c->sg.device_mem_pct = 100;
	c->sg.tag_bytes = 2048;
	c->sg.tmh_units = 6;	/* six memory partitions */
	c->rdc.size = 0;
	c->rdc.pct = 0;
}

static const struct preset presets[] = {
	{ "carve", "CARVE Table III: 4 GPUs, 128 B lines, 2 MB pages, 8 MB L2 each, 64 GB/s links, 1 TB/s HBM; RDC 6.25% of memory (2 GB), HWC",
	  "CARVE (MICRO 2018)", NULL, carve },
	{ "dualopt", "DualOpt Table 1: 4 GPUs, 64 B lines, 16 KB L1 per CU, 64 GB/s links in 16 B flits, decision engine (remote_thresh 2%, block_thresh 0.2, hit_thresh 0.4), 1.5 MB RDMA cache beside a 0.5 MB memory-side L2 (2 MB without it), 4 B transfers, CoDec 10 per packet; 4 KB pages round-robin, work-groups in contiguous ranges of ceil(n / CUs) per CU, GPU after GPU (MGPUSim's unified mode)",
	  "DualOpt (locality-aware remote access optimizations)",
	  "the L1 scalar caches",
	  dualopt },
	{ "rec", "REC Table 2: 4 GPUs, 64 B lines, 16 KB L1 per CU, 2 MB L2, 8K-entry directory of 1 KB ranges, 300 GB/s links (150 each way), 1 TB/s HBM; 4 KB pages round-robin, work-groups in contiguous ranges of ceil(n / CUs) per CU, GPU after GPU (MGPUSim's unified mode)",
	  "REC (JSA 2025)",
	  "the L1 instruction and scalar caches; the L2 caches remote lines only (local data goes to memory)",
	  rec },
	{ "coda", "CODA Table 1: 4 GPUs x 4 SMs at 2 GHz, 1 MB L2, 256 GB/s local, 16 GB/s remote, FGP 128 B; CODA placement (B per structure from a profiling run, chunk min(4 KB, B x N)), affinity scheduling",
	  "CODA (TACO 2018)",
	  "bc, gc, cfd, mummergpu and hybrid sort of its Table 2",
	  coda },
	{ "scalegpu", "ScaleGPU Table 1: 1 GPU, 14 SMs at 1150 MHz, 16 KB L1, 768 KB L2, 144 GB/s GDDR5; data in host memory, device memory caches it (100%, 2 KB per tag, TMH 32/32 in each of 6 partitions); PCIe 2.0 x16 8 GB/s, 1200 ns round trip, 20 B headers, 128 B payloads",
	  "ScaleGPU (CAL 2013)",
	  NULL,
	  scalegpu },
};

#define NPRESETS (sizeof(presets) / sizeof(presets[0]))

const char *const ng_config_presets[] = { "carve", "dualopt", "rec", "coda",
					  "scalegpu", NULL };

static const struct preset *find(const char *name)
{
	for (size_t i = 0; name && i < NPRESETS; i++)
		if (!strcmp(presets[i].name, name))
			return &presets[i];
	return NULL;
}

const char *ng_config_preset_desc(const char *name)
{
	const struct preset *p = find(name);

	return p ? p->desc : NULL;
}

const char *ng_config_preset_paper(const char *name)
{
	const struct preset *p = find(name);

	return p ? p->paper : NULL;
}

const char *ng_config_preset_missing(const char *name)
{
	const struct preset *p = find(name);

	return p ? p->missing : NULL;
}

int ng_config_preset(struct ng_config *c, const char *name, char *err,
		     size_t errlen)
{
	const struct preset *p = find(name);
	const char *env;
	char msg[256];

	if (!p) {
		char known[128] = "";

		for (size_t i = 0; i < NPRESETS; i++)
			snprintf(known + strlen(known), sizeof(known) - strlen(known),
				 "%s%s", i ? ", " : "", presets[i].name);
		ng_seterr(err, errlen, "unknown system preset '%s' (known: %s)",
			  name ? name : "", known);
		return -EINVAL;
	}
	*c = base;
	p->apply(c);
	snprintf(c->preset, sizeof(c->preset), "%s", name);
	/* checked mode's default: the test suite's and sanitizers' switch */
	env = getenv("NGEMU_CHECKED");
	if (env && *env && ng_config_set(c, "checked", env, msg, sizeof(msg))) {
		ng_seterr(err, errlen, "NGEMU_CHECKED: %s", msg);
		return -EINVAL;
	}
	return 0;
}
