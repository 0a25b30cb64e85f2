// SPDX-License-Identifier: GPL-2.0
/*
 * The ScaleGPU preset (--system scalegpu): the paper's machine, the common ground
 * of lib/config/presets.c as apply() changes it. Built into the library,
 * which lists it in config/papers.h (NG_PAPERS).
 */
#include "config/preset.h"

/*
 * ScaleGPU Table 1: one Fermi-class GPU (14 SMs at 1150 MHz, 16 KB L1,
 * 768 KB L2, GDDR5 at 144 GB/s) behind PCIe 2.0 x16 (8 GB/s, 1200 ns
 * round trip, 20 B headers, 128 B payloads), each SM with "Max. 1536
 * threads, ... 48KB shared memory" (ng_preset_fermi_sm()). The data lives in host
 * memory and device memory caches it: 100% of the data by default.
 */
static void apply(struct ng_config *c)
{
	c->gpus = 1;
	c->sms = 14;
	ng_preset_fermi_sm(c);
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

/* Its suite: the workloads of its experiments, as ngemu builds them. */
static const char *const workloads[] = {
	"hotspot", "vectoradd", "histogram", "bank", "sssp", NULL,
};

const struct ng_preset ng_preset_scalegpu = {
	.name = "scalegpu",
	.desc = "ScaleGPU Table 1: 1 GPU, 14 SMs at 1150 MHz, 16 KB L1, 768 KB L2, 144 GB/s GDDR5; data in host memory, device memory caches it (100%, 2 KB per tag, TMH 32/32 in each of 6 partitions); PCIe 2.0 x16 8 GB/s, 1200 ns round trip, 20 B headers, 128 B payloads",
	.paper = "ScaleGPU (CAL 2013)",
	.missing = NULL,
	.apply = apply,
	.suite = "ScaleGPU (CAL 2013): device memory as a cache of host memory",
	.workloads = workloads,
};
