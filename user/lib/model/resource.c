// SPDX-License-Identifier: GPL-2.0
/*
 * Bandwidth servers (model.h): each GPU's memory, each direction of each
 * inter-GPU link and of each CPU-GPU link, as calendars of capacity bins
 * that SMs reserve from without locks.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "model/frame.h"
#include "ngemu/model/model.h"

/* Requests' worth of capacity an SM takes from a bin at once. */
#define NG_BATCH	16

static uint64_t cost_fp(double gbs)
{
	/* GB/s = bytes per ns; ticks per byte = 1024 / gbs, in 16.16 */
	return (uint64_t)((double)NG_TICKS_PER_NS / gbs * 65536.0 + 0.5);
}

int ng_resources_init(struct ng_model *m)
{
	const struct ng_config *cfg = m->cfg;
	unsigned int n = m->ngpus;

	m->batch = NG_BATCH;
	m->nres = n + n * n + 2 * n;
	m->res = aligned_alloc(64, m->nres * sizeof(*m->res));
	if (!m->res)
		return -ENOMEM;
	memset(m->res, 0, m->nres * sizeof(*m->res));
	for (unsigned int g = 0; g < n; g++) {
		m->res[ng_res_mem(m, g)].cost_fp = cost_fp(cfg->local_bw);
		for (unsigned int h = 0; h < n; h++)
			m->res[ng_res_link(m, g, h)].cost_fp = cost_fp(cfg->link_bw);
		m->res[ng_res_host(m, g, true)].cost_fp = cost_fp(cfg->host_bw);
		m->res[ng_res_host(m, g, false)].cost_fp = cost_fp(cfg->host_bw);
	}
	for (unsigned int i = 0; i < m->nres; i++) {
		struct ng_resource *r = &m->res[i];
		/* a bin holds >= 1024 line transfers: fragments stay < 0.1% */
		uint64_t line = (cfg->line * r->cost_fp) >> 16;
		unsigned int shift = 18;

		while ((1ULL << shift) < 1024 * line &&
		       shift < NG_BIN_USED_BITS - 1)
			shift++;
		r->bin_shift = shift;
		r->bins = calloc(NG_NBINS, sizeof(*r->bins));
		if (!r->bins)
			return -ENOMEM;
		if (shift > m->max_shift)
			m->max_shift = shift;
	}
	return 0;
}

void ng_resources_fini(struct ng_model *m)
{
	for (unsigned int i = 0; m->res && i < m->nres; i++)
		free((void *)m->res[i].bins);
	free(m->res);
	m->res = NULL;
}

#define USED_MASK ((1ULL << NG_BIN_USED_BITS) - 1)

/* Take up to @want ticks of bin @id; *before is what was taken already. */
static ng_ticks bin_take(struct ng_resource *r, uint64_t id, ng_ticks want,
			 ng_ticks *before)
{
	_Atomic uint64_t *b = &r->bins[id % NG_NBINS];
	ng_ticks cap = 1ULL << r->bin_shift;
	uint64_t old = atomic_load_explicit(b, memory_order_relaxed);

	for (;;) {
		uint64_t oid = old >> NG_BIN_USED_BITS, used = old & USED_MASK;
		ng_ticks take;

		if (oid > id)
			return 0;	/* the ring moved on: too far back */
		if (oid < id)
			used = 0;	/* a stale slot is an empty bin */
		if (used >= cap)
			return 0;
		take = want < cap - used ? want : cap - used;
		if (atomic_compare_exchange_weak_explicit(
			    b, &old, (id << NG_BIN_USED_BITS) | (used + take),
			    memory_order_relaxed, memory_order_relaxed)) {
			*before = used;
			return take;
		}
	}
}

static void bin_give_back(struct ng_resource *r, uint64_t id, ng_ticks n)
{
	_Atomic uint64_t *b = &r->bins[id % NG_NBINS];
	uint64_t old = atomic_load_explicit(b, memory_order_relaxed);

	while ((old >> NG_BIN_USED_BITS) == id && (old & USED_MASK) >= n &&
	       !atomic_compare_exchange_weak_explicit(b, &old, old - n,
						      memory_order_relaxed,
						      memory_order_relaxed))
		;
}

ng_ticks ng_reserve_slow(struct ng_sm *sm, unsigned int ri, ng_ticks t,
			 ng_ticks dur)
{
	struct ng_model *m = sm->model;
	struct ng_window *w = &sm->win[ri];
	struct ng_resource *r = &m->res[ri];
	ng_ticks want = dur * m->batch, before, got, s;
	uint64_t id;

	if (w->cap)
		bin_give_back(r, w->bin, w->cap);
	w->cap = 0;
	if (!dur) {
		w->cur = t > w->cur ? t : w->cur;
		return t;
	}
	for (id = (m->time_base + t) >> r->bin_shift;; id++) {
		got = bin_take(r, id, want, &before);
		if (got >= dur)
			break;
		/* a sliver too small for this transfer: leave it to others */
		if (got)
			bin_give_back(r, id, got);
	}
	s = (id << r->bin_shift) + before - m->time_base;
	if (s < t)
		s = t;
	w->bin = id;
	w->cap = got - dur;
	w->cur = s + dur;
	return s;
}
