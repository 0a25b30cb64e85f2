// SPDX-License-Identifier: GPL-2.0
/*
 * Memory component: each GPU's memory is one bandwidth server with a fixed
 * access latency; every access moves a whole line (DRAM bursts do not get
 * cheaper for partial masks). It is the end of the pipeline: the data is
 * read from the home's memory itself. Host memory has no server of its
 * own: the CPU-GPU link is its bottleneck and carries its latency.
 */
#include "ngemu/model/model.h"

static bool mem_access(void *priv, struct ng_sm *sm, struct ng_req *r)
{
	(void)priv;
	ng_mem_charge(sm, r);
	return true;
}

const struct ng_component_ops ng_mem_ops = {
	.name = "mem",
	.access = mem_access,
};
