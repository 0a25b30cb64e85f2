// SPDX-License-Identifier: GPL-2.0
/*
 * An emulated SM's model state (ngemu/model/sm.h): made from the model's
 * constants, so that the hot path finds them next to the SM's own state,
 * and its windows on the servers dropped when the global bins change.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "ngemu/model/model.h"

static void never_yield(struct ng_sm *sm)
{
	sm->yield_at = UINT64_MAX;
	sm->block_at = UINT64_MAX;
	sm->wait_slack = UINT64_MAX;
	sm->block_slack = UINT64_MAX;
}

int ng_sm_init(struct ng_sm *sm, struct ng_model *m, unsigned int gpu,
	       unsigned int index, unsigned int id)
{
	unsigned int slots = 1;

	while (slots < m->mlp)
		slots <<= 1;
	memset(sm, 0, sizeof(*sm));
	sm->model = m;
	sm->gpu = gpu;
	sm->index = index;
	sm->id = id;
	/* the ring wraps at mlp (ng_model_access); rounding up only pads */
	sm->ring = calloc(slots, sizeof(*sm->ring));
	sm->ring_mask = slots - 1;
	sm->win = calloc(m->nres, sizeof(*sm->win));
	if (sm->win)
		sm->own_mem = &sm->win[ng_res_mem(m, gpu)];
	sm->own_mem_shift = m->res[ng_res_mem(m, gpu)].bin_shift;
	sm->link_bytes = m->link_use + gpu * m->link_stride;
	sm->link_busy = sm->link_bytes + m->ngpus * m->ngpus;
	sm->line_dur = m->mem_line_dur;
	sm->mem_latency = m->mem_latency;
	sm->issue_ticks = m->issue_ticks;
	sm->inst_fp = m->inst_fp;
	sm->mlp = m->mlp;
	sm->line_bytes = m->cfg->line;
	sm->line_words = m->cfg->line / 4;
	/* checked mode: every access through the out-of-line path, which checks */
	sm->local_inline = m->local_inline && !m->cfg->checked;
	sm->space_base = (uintptr_t)m->space->base;
	/* kmod: GPU g reaches memory through its own view (space.h) */
	sm->view_delta = (uintptr_t)(gpu * m->space->view_stride);
	sm->loc = m->space->loc;
	sm->loc_pages = m->space->npages;
	sm->page_shift = m->space->page_shift;
	sm->rng = (m->cfg->seed + 1) * 0x9e3779b97f4a7c15ULL ^ (id + 1);
	sm->linebuf = sm->own_linebuf;
	/* driven by hand (tests): never gives way */
	sm->yield_at = UINT64_MAX;
	sm->block_at = UINT64_MAX;
	sm->wait_slack = UINT64_MAX;
	sm->block_slack = UINT64_MAX;
	sm->yield = never_yield;
	if (!sm->ring || !sm->win) {
		ng_sm_fini(sm);
		return -ENOMEM;
	}
	return 0;
}

void ng_sm_fini(struct ng_sm *sm)
{
	free(sm->ring);
	free(sm->win);
	sm->ring = NULL;
	sm->win = NULL;
}

void ng_sm_resync(struct ng_sm *sm)
{
	/* the global bins changed: windows look again */
	for (unsigned int i = 0; i < sm->model->nres; i++)
		sm->win[i].bin = 0;
}
