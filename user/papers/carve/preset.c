// SPDX-License-Identifier: GPL-2.0
/*
 * The CARVE preset (--system carve): the paper's machine, the common ground
 * of lib/config/presets.c as apply() changes it. Built into the library,
 * which lists it in config/papers.h (NG_PAPERS).
 */
#include "config/preset.h"

static void apply(struct ng_config *c)
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

/* Its suite: the workloads of its experiments, as ngemu builds them. */
static const char *const workloads[] = {
	"stream-triad", "rwshare", "randaccess", "hotspot", "spmv",
	"bfs-road", "xsbench", "alexnet-conv", "hpgmg", "comd", NULL,
};

const struct ng_preset ng_preset_carve = {
	.name = "carve",
	.desc = "CARVE Table III: 4 GPUs, 128 B lines, 2 MB pages, 8 MB L2 each, 64 GB/s links, 1 TB/s HBM; RDC 6.25% of memory (2 GB), HWC",
	.paper = "CARVE (MICRO 2018)",
	.missing = NULL,
	.apply = apply,
	.suite = "CARVE (MICRO 2018): NUMA-GPU baseline, replication, remote data cache",
	.workloads = workloads,
};
