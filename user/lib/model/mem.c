// SPDX-License-Identifier: GPL-2.0
/*
 * Memory component: each GPU's memory is one bandwidth server with a fixed
 * access latency; every access moves a whole line (DRAM bursts do not get
 * cheaper for partial masks). It is the end of the pipeline: the data is
 * read from the home's memory itself. Host memory has no server of its
 * own: the CPU-GPU link is its bottleneck and carries its latency.
 */
#include "ngemu/model/model.h"

/*
 * A line at its home's memory: one booking of the whole line's duration
 * (precomputed), then the latency; host memory costs nothing here. The
 * baseline's local requests skip the pipeline and do the same inline
 * (ng_model_access()).
 */
static inline void mem_charge(struct ng_sm *sm, struct ng_req *r)
{
	struct ng_model *m = sm->model;
	ng_ticks start;

	r->src = (const void *)(r->line + sm->view_delta);
	if (r->home == NG_HOME_HOST)
		return;
	/* every access moves a whole line: its duration is precomputed */
	start = ng_reserve_dur(sm, ng_res_mem(m, r->home), r->t, m->mem_line_dur);
	r->t = start + m->mem_line_dur + m->mem_latency;
	/* mem.bytes is accesses x line, derived when counters are read */
	sm->ctr.v[NG_CTR_MEM_ACC]++;
}

static bool mem_access(void *priv, struct ng_sm *sm, struct ng_req *r)
{
	(void)priv;
	/* the GPU's L2 held the line or took the store in (l2-local) */
	if (r->flags & NG_REQ_HELD) {
		r->src = (const void *)(r->line + sm->view_delta);
		return true;
	}
	mem_charge(sm, r);
	return true;
}

static const struct ng_key mem_keys[] = {
	NG_KEY_NUM("local-bw", NG_KEY_DOUBLE, local_bw, 0.001, 1e6,
		   "local memory bandwidth per GPU, GB/s"),
	NG_KEY_NUM("local-latency", NG_KEY_DOUBLE, local_latency_ns, 0, 1e6,
		   "local memory latency, ns"),
	{ .name = NULL },
};

const struct ng_component ng_mem_component = {
	.name = "mem",
	.desc = "each GPU's memory: one bandwidth server, fixed latency, whole lines",
	.keys = mem_keys,
	.counters = "mem",
	.terminal = true,
	.access = mem_access,
};
