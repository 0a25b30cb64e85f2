/* SPDX-License-Identifier: GPL-2.0 */
/*
 * A request's way through the model (ngemu/model/model.h), as the
 * runtime sends each line request of a warp: the pipeline of components
 * for any request, and inline in front of it the baseline's fast path for
 * a request homed on its own GPU, which is most requests of a well-placed
 * run.
 */
#ifndef NGEMU_MODEL_ACCESS_H
#define NGEMU_MODEL_ACCESS_H

#include <stdint.h>

#include "ngemu/model/pipeline.h"
#include "ngemu/model/request.h"
#include "ngemu/model/resource.h"
#include "ngemu/model/sm.h"
#include "ngemu/model/ticks.h"
#include "ngemu/util/counters.h"

/* The pipeline, for any request (see ng_model_access()). */
void ng_model_access_pipeline(struct ng_sm *sm, struct ng_req *r);

/*
 * Send one request through the model; r->t is its completion after, r->src
 * where its data is. A request homed on its own GPU skips the remote-only
 * components; when only the memory component is left (the baseline), it
 * is handled inline here: that is most requests of a well-placed run.
 */
static inline void ng_model_access(struct ng_sm *sm, struct ng_req *r)
{
	struct ng_model *m = sm->model;
	unsigned int slot;
	ng_ticks t;

	if (r->home != r->gpu || !sm->local_inline) {
		ng_model_access_pipeline(sm, r);
		return;
	}
	slot = sm->ring_pos;
	t = sm->now > sm->ring[slot] ? sm->now : sm->ring[slot];
	r->src = (const void *)(r->line + sm->view_delta);
	{
		/* mem.c's charge, on the SM's own memory, constants at hand */
		struct ng_window *w = sm->own_mem;
		ng_ticks dur = sm->line_dur;
		ng_ticks s = t > w->cur ? t : w->cur;
		uint64_t a;

		if (ng_window_take(w, sm->own_mem_shift, sm->time_base + s, dur,
				   &a)) {
			s = a - sm->time_base;
			w->cur = s + dur;
		} else {
			s = ng_reserve_slow(sm, ng_res_mem(m, r->gpu), t, dur);
		}
		r->t = s + dur + sm->mem_latency;
	}
	sm->ctr.v[NG_CTR_MEM_ACC]++;
	sm->ctr.v[NG_CTR_MEM_TICKS] += r->t - t;
	sm->ring[slot] = r->t;
	sm->ring_pos = slot + 1 == sm->mlp ? 0 : slot + 1;
	/* a full ring holds the block, not the port (the SM's other blocks) */
	sm->port = sm->now + sm->issue_ticks;
	sm->now = t + sm->issue_ticks;
	if (r->t > sm->done_max)
		sm->done_max = r->t;
	/* core.requests is local + remote + host, derived when read */
	sm->ctr.v[NG_CTR_LOCAL]++;
}

#endif /* NGEMU_MODEL_ACCESS_H */
