// SPDX-License-Identifier: GPL-2.0
/*
 * Presets: the setups of the papers ngemu reproduces. Each preset is the
 * common ground below plus its paper's changes, and says which paper it
 * is and what of that paper is not built yet (`ngemu config --presets`
 * adds which model components the preset turns on).
 */
#include <errno.h>
#include <stdio.h>
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
 * Common ground. The papers' GPUs have 64 SMs x 64 warps; ngemu runs one
 * thread per emulated SM, so a preset uses 4 emulated SMs per GPU that
 * each stand for 16 real ones (sm-scale): issue rate and memory-level
 * parallelism scale with it, keeping per-GPU totals. mlp 2048 = 16 SMs x
 * 64 warps x 2 lines in flight, enough to cover 1 TB/s x 300 ns (Little's
 * law) with some room.
 */
static const struct ng_config base = {
	.gpus = 4, .sms = 4, .sm_scale = 16, .mlp = 2048, .ipc = 2,
	.blocks_per_sm = 1, .freq_ghz = 1.0, .line = 128,
	.page = 4096, .mem_per_gpu = 32ULL << 30,
	.l2_size = 8 << 20, .l2_ways = 16, .l2_latency_ns = 120,
	.local_bw = 1024, .local_latency_ns = 300,
	.link_bw = 64, .link_latency_ns = 250, .flit = 16,
	.host_bw = 32, .host_latency_ns = 500,
	.placement = NG_PLACE_FIRST_TOUCH, .fgp_granularity = 256,
	.sched = NG_SCHED_BATCH, .backend = NG_MEM_AUTO, .interval = 1000,
	.seed = 1, .inject_batch_us = 20, .shared_bytes = 48 << 10,
	.coherence = NG_COH_HWC, .imst_reset = 0.01,
	.l1_ways = 4, .l1_latency_ns = 20,
	.directory = NG_DIR_OFF, .dir_entries = 8192, .dir_ways = 8,
	.dir_policy = NG_DIR_LRU, .rec_range = 1024, .dir_addr_bits = 48,
	.remote_opt = NG_RO_OFF, .xfer_gran = 4, .mshr_entries = 32,
	.codec_pack = 10, .codec_timeout = 30, .rdma_size = 1536 << 10,
	.rdma_ways = 16, .rdma_latency_ns = 20, .de_warmup = 2000,
	.de_window = 20000, .remote_thresh = 0.02, .block_thresh = 0.2,
	.hit_thresh = 0.4, .migrate = NG_MIGRATE_OFF,
	.migrate_latency_ns = 20000,
	.tag_bytes = 2048, .tmh_queue = 32, .tmh_scoreboard = 32, .tmh_units = 1,
	.host_payload = 128, .msl2_ways = 16, .msl2_latency_ns = 100,
};

static void carve(struct ng_config *c)
{
	c->page = 2 << 20;	/* Table III: 2 MB OS pages */
	/* IV-A: a 2 GB RDC of each GPU's 32 GB, with hardware coherence */
	c->rdc_pct = 6.25;
	c->coherence = NG_COH_HWC;
	ng_config_resolve(c);
}

/*
 * DualOpt Table 1: 4 GPUs of 64 CUs, 16 KB 4-way L1 per CU, 64 B lines,
 * 4 GB HBM, 64 GB/s links in 16 B flits; the decision engine on, with the
 * 1.5 MB 16-way RDMA cache, 4 B transfers and CoDec packets of 10 (30-
 * cycle timeout). The paper ran MGPUSim's unified multi-GPU mode, as REC
 * did: work-groups in contiguous ranges per GPU (batch) and memory a 4 KB
 * page at a time round-robin (cgp). MGPUSim's L2 sits at the memory side
 * and caches the home's lines for every requester: the msl2 component,
 * 0.5 MB beside the RDMA cache (--compare's systems without an RDMA cache
 * have 2 MB); ngemu's l2 component, which caches remote lines at the
 * requester, is off (Documentation/dualopt.rst).
 */
static void dualopt(struct ng_config *c)
{
	c->line = 64;
	c->l1_size = 16 << 10;
	c->l2_size = 0;
	c->mem_per_gpu = 4ULL << 30;
	c->placement = NG_PLACE_CGP;
	c->rdc_size = 0;
	c->rdc_pct = 0;
	c->remote_opt = NG_RO_AUTO;
	/* MGPUSim's L2 is memory-side: 0.5 MB beside the RDMA cache */
	c->msl2_size = 512 << 10;
	/*
	 * 32 L1 MSHRs x 16 CUs would be 512, which with 64 B lines cannot
	 * cover 1 TB/s x 300 ns; the memory side queues more.
	 */
	c->mlp = 2048;
}

/*
 * REC Table 2: 16 KB 4-way L1 per CU, 2 MB 16-way L2, 64 B lines, an 8K-
 * entry 8-way directory per GPU with 1 KB ranges, 4 GB HBM at 1 TB/s,
 * 300 GB/s bidirectional links; no RDC. REC ran MGPUSim's unified multi-
 * GPU mode, which the paper does not describe: there the driver gives
 * each GPU a contiguous range of a kernel's work-groups (batch) and
 * allocates memory a 4 KB page at a time round-robin over the GPUs (cgp;
 * mgpusim driver.go distributeWGToGPUs, device.go allocateUnifiedGPUPage).
 */
static void rec(struct ng_config *c)
{
	c->placement = NG_PLACE_CGP;
	c->line = 64;
	c->l1_size = 16 << 10;
	c->l2_size = 2 << 20;
	c->mem_per_gpu = 4ULL << 30;
	c->link_bw = 150;
	c->rdc_size = 0;
	c->rdc_pct = 0;
	c->directory = NG_DIR_REC;
}

static void coda(struct ng_config *c)
{
	c->sm_scale = 1;	/* CODA really has 4 SMs per GPU */
	c->blocks_per_sm = 8;
	c->mlp = 512;		/* enough for 256 GB/s x 300 ns */
	c->freq_ghz = 2.0;
	c->line = 64;
	c->l2_size = 1 << 20;
	c->l2_latency_ns = 5;
	c->local_bw = 256;
	c->link_bw = 16;
	c->mem_per_gpu = 8ULL << 30;
	/* CODA: chunks with their blocks (B from a profile), FGP at 128 B */
	c->placement = NG_PLACE_CODA;
	c->fgp_granularity = 128;
	c->sched = NG_SCHED_CODA;
}

/*
 * ScaleGPU Table 1: one Fermi-class GPU (14 SMs at 1150 MHz, 16 KB L1,
 * 768 KB L2, GDDR5 at ~177 GB/s) behind PCIe 2.0 x16 (8 GB/s, 1200 ns
 * round trip, 20 B headers, 128 B payloads). 2 emulated SMs stand for 7
 * each; mlp 7 SMs x 48 warps x 2 lines in flight. The data lives in host
 * memory and device memory caches it: 100% of the data by default.
 */
static void scalegpu(struct ng_config *c)
{
	c->gpus = 1;
	c->sms = 2;
	c->sm_scale = 7;
	c->mlp = 672;
	c->freq_ghz = 1.15;
	c->line = 128;
	c->l1_size = 16 << 10;
	c->l2_size = 768 << 10;
	c->local_bw = 177;
	c->mem_per_gpu = 3ULL << 30;
	c->host_bw = 8;
	c->host_latency_ns = 600;
	c->host_header = 20;
	c->host_payload = 128;
	c->placement = NG_PLACE_HOST;
	c->device_mem_pct = 100;
	c->tag_bytes = 2048;
	c->tmh_units = 6;	/* six memory partitions */
	c->rdc_size = 0;
	c->rdc_pct = 0;
}

static const struct preset presets[] = {
	{ "carve", "CARVE Table III: 4 GPUs, 128 B lines, 2 MB pages, 8 MB L2 each, 64 GB/s links, 1 TB/s HBM; RDC 6.25% of memory (2 GB), HWC",
	  "CARVE (MICRO 2018)", NULL, carve },
	{ "dualopt", "DualOpt Table 1: 4 GPUs, 64 B lines, 16 KB L1 per CU, 64 GB/s links in 16 B flits, decision engine (remote_thresh 2%, block_thresh 0.2, hit_thresh 0.4), 1.5 MB RDMA cache beside a 0.5 MB memory-side L2 (2 MB without it), 4 B transfers, CoDec 10 per packet; 4 KB pages round-robin, work-groups in contiguous ranges (MGPUSim's unified mode)",
	  "DualOpt (locality-aware remote access optimizations)",
	  "the L1 scalar caches",
	  dualopt },
	{ "rec", "REC Table 2: 4 GPUs, 64 B lines, 16 KB L1 per CU, 2 MB L2, 8K-entry directory of 1 KB ranges, 300 GB/s links (150 each way), 1 TB/s HBM; 4 KB pages round-robin, work-groups in contiguous ranges (MGPUSim's unified mode)",
	  "REC (JSA 2025)",
	  "the L1 instruction and scalar caches; the L2 caches remote lines only (local data goes to memory)",
	  rec },
	{ "coda", "CODA Table 1: 4 GPUs x 4 SMs at 2 GHz, 1 MB L2, 256 GB/s local, 16 GB/s remote, FGP 128 B; CODA placement (B per structure from a profiling run, chunk min(4 KB, B x N)), affinity scheduling",
	  "CODA (TACO 2018)",
	  "bc, gc, cfd, mummergpu and hybrid sort of its Table 2",
	  coda },
	{ "scalegpu", "ScaleGPU Table 1: 1 GPU, 14 SMs at 1150 MHz, 16 KB L1, 768 KB L2, 177 GB/s GDDR5; data in host memory, device memory caches it (100%, 2 KB per tag, TMH 32/32 in each of 6 partitions); PCIe 2.0 x16 8 GB/s, 1200 ns round trip, 20 B headers, 128 B payloads",
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

	if (!p) {
		ng_seterr(err, errlen,
			  "unknown system preset '%s' (known: carve, dualopt, rec, coda, scalegpu)",
			  name ? name : "");
		return -EINVAL;
	}
	*c = base;
	p->apply(c);
	snprintf(c->preset, sizeof(c->preset), "%s", name);
	return 0;
}
