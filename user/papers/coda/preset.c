// SPDX-License-Identifier: GPL-2.0
/*
 * The CODA preset (--system coda): the paper's machine, the common ground
 * of lib/config/presets.c as apply() changes it. Built into the library,
 * which lists it in config/papers.h (NG_PAPERS).
 */
#include "config/preset.h"

static void apply(struct ng_config *c)
{
	/*
	 * Table 1: "4 2GHz SMs" per GPU, "based on the NVIDIA Fermi
	 * architecture": a Fermi SM's 1536 threads, 8 blocks and 48 KB of
	 * shared memory, and GPGPU-Sim's Fermi L1 of 32 MSHRs (the paper
	 * gives none of these).
	 */
	c->sms = 4;
	ng_preset_fermi_sm(c);
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

/* Its suite: the workloads of its experiments, as ngemu builds them. */
static const char *const workloads[] = {
	"spmv", "bfs", "pr", "mm", "km", "sssp", "dc", "bc", "gc", "nn", "cc",
	"tc", "hotspot3d", "ge", "dwt", "nw", "sad", "cfd", "hybridsort",
	"mummergpu", "pr-road", "pr-rmat", NULL,
};

const struct ng_preset ng_preset_coda = {
	.name = "coda",
	.desc = "CODA Table 1: 4 GPUs x 4 SMs at 2 GHz, 1 MB L2, 256 GB/s local, 16 GB/s remote, FGP 128 B; CODA placement (B per structure from a profiling run, chunk min(4 KB, B x N)), affinity scheduling",
	.paper = "CODA (TACO 2018)",
	.missing = NULL,
	.apply = apply,
	.suite = "CODA (TACO 2018): co-locating computation and data",
	.workloads = workloads,
};
