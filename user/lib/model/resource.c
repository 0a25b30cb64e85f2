// SPDX-License-Identifier: GPL-2.0
/*
 * Bandwidth servers (ngemu/model/resource.h): each GPU's memory, each
 * direction of each inter-GPU link, of each CPU-GPU link and of each
 * GPU's fabric port (a switch or a hub: ng_link_route()), as calendars of
 * capacity bins.
 * During an interval the bins are read-only and each GPU books into its
 * own shadow (a small hash of the bins it touched, used by that GPU's
 * host thread alone); ng_model_sync() merges the shadows.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "model/model_impl.h"
#include "ngemu/model/model.h"

/* Bins one GPU may touch on one server in an interval (a power of two). */
#define SHADOW_SLOTS	1024

struct ng_shadow_ent {
	uint64_t bin;		/* absolute bin number + 1; 0: empty */
	uint32_t used;
};

struct ng_shadow {
	struct ng_shadow_ent *e;	/* allocated on the GPU's first use */
	uint32_t *list;			/* slots in use, in order of use */
	unsigned int n;
};

static uint64_t cost_fp(double gbs)
{
	/* GB/s = bytes per ns; ticks per byte = 1024 / gbs, in 16.16 */
	return (uint64_t)((double)NG_TICKS_PER_NS / gbs * 65536.0 + 0.5);
}

int ng_resources_init(struct ng_model *m)
{
	const struct ng_config *cfg = m->cfg;
	unsigned int n = m->ngpus;

	m->nres = n + n * n + 4 * n;
	m->res = calloc(m->nres, sizeof(*m->res));
	/*
	 * Link use: each GPU's part on host cache lines of its own, so that
	 * the threads of different GPUs never write the same line.
	 */
	m->link_stride = (n * n + m->nres + 7) & ~(size_t)7;
	m->link_use = aligned_alloc(64, n * m->link_stride * sizeof(uint64_t));
	if (!m->res || !m->link_use)
		return -ENOMEM;
	memset(m->link_use, 0, n * m->link_stride * sizeof(uint64_t));
	for (unsigned int g = 0; g < n; g++) {
		m->res[ng_res_mem(m, g)].cost_fp = cost_fp(cfg->local_bw);
		for (unsigned int h = 0; h < n; h++)
			m->res[ng_res_link(m, g, h)].cost_fp = cost_fp(cfg->link_bw);
		m->res[ng_res_host(m, g, true)].cost_fp = cost_fp(cfg->host_bw);
		m->res[ng_res_host(m, g, false)].cost_fp = cost_fp(cfg->host_bw);
		m->res[ng_res_port(m, g, true)].cost_fp = cost_fp(cfg->link_bw);
		m->res[ng_res_port(m, g, false)].cost_fp = cost_fp(cfg->link_bw);
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
		r->sh = calloc(n, sizeof(*r->sh));
		if (!r->bins || !r->sh)
			return -ENOMEM;
		if (shift > m->max_shift)
			m->max_shift = shift;
	}
	/* bin 0 is "none" in a window: kernels start a bin later */
	m->time_base = 1ULL << m->max_shift;
	return 0;
}

void ng_resources_fini(struct ng_model *m)
{
	for (unsigned int i = 0; m->res && i < m->nres; i++) {
		for (unsigned int g = 0; m->res[i].sh && g < m->ngpus; g++) {
			free(m->res[i].sh[g].e);
			free(m->res[i].sh[g].list);
		}
		free(m->res[i].sh);
		free((void *)m->res[i].bins);
	}
	free(m->res);
	m->res = NULL;
	free(m->link_use);
	m->link_use = NULL;
}

#define USED_MASK ((1ULL << NG_BIN_USED_BITS) - 1)

/* Ticks taken in global bin @id; a slot the ring reused for later: full. */
static uint64_t global_used(const struct ng_resource *r, uint64_t id)
{
	uint64_t w = atomic_load_explicit(&r->bins[id % NG_NBINS],
					  memory_order_relaxed);
	uint64_t oid = w >> NG_BIN_USED_BITS;

	if (oid == id)
		return w & USED_MASK;
	return oid < id ? 0 : 1ULL << r->bin_shift;
}

/*
 * Add @add ticks to global bin @id, carrying what does not fit to the
 * bins after it. The result does not depend on the order of additions:
 * each bin ends with min(cap, all it was given), the rest moves on.
 */
static void global_add(struct ng_resource *r, uint64_t id, uint64_t add)
{
	uint64_t cap = 1ULL << r->bin_shift, last;

	if (!add)
		return;
	while (add) {
		_Atomic uint64_t *b = &r->bins[id % NG_NBINS];
		uint64_t old = atomic_load_explicit(b, memory_order_relaxed);
		uint64_t oid, used, nu;

		for (;;) {
			oid = old >> NG_BIN_USED_BITS;
			if (oid > id)
				return;		/* the ring moved on: too far back */
			used = oid < id ? 0 : old & USED_MASK;
			nu = used + add < cap ? used + add : cap;
			if (atomic_compare_exchange_weak_explicit(
				    b, &old, (id << NG_BIN_USED_BITS) | nu,
				    memory_order_relaxed, memory_order_relaxed))
				break;
		}
		add -= nu - used;
		id++;
	}
	/* the latest bin with a booking: id - 1, unless one later has one */
	last = atomic_load_explicit(&r->last, memory_order_relaxed);
	while (last < id - 1 &&
	       !atomic_compare_exchange_weak_explicit(&r->last, &last, id - 1,
						      memory_order_relaxed,
						      memory_order_relaxed))
		;
}

/* When, in absolute ticks, the last booking of any server may end. */
uint64_t ng_resources_drained(const struct ng_model *m)
{
	uint64_t end = 0;

	for (unsigned int i = 0; i < m->nres; i++) {
		const struct ng_resource *r = &m->res[i];
		uint64_t e = (atomic_load_explicit(&r->last,
						   memory_order_relaxed) + 1)
			     << r->bin_shift;

		if (e > end)
			end = e;
	}
	return end;
}

void ng_resource_charge(struct ng_model *m, unsigned int ri, ng_ticks t,
			ng_ticks dur)
{
	global_add(&m->res[ri], (m->time_base + t) >> m->res[ri].bin_shift, dur);
}

/* The shadow entry of bin @id, added if new; NULL when the table is full. */
static struct ng_shadow_ent *shadow_ent(struct ng_shadow *sh, uint64_t id)
{
	uint64_t key = id + 1;
	unsigned int i = (unsigned int)(key * 0x9e3779b97f4a7c15ULL >> 54) &
			 (SHADOW_SLOTS - 1);

	if (!sh->e) {
		sh->e = calloc(SHADOW_SLOTS, sizeof(*sh->e));
		sh->list = calloc(SHADOW_SLOTS, sizeof(*sh->list));
		if (!sh->e || !sh->list) {
			free(sh->e);
			free(sh->list);
			sh->e = NULL;
			sh->list = NULL;
			return NULL;
		}
	}
	for (;; i = (i + 1) & (SHADOW_SLOTS - 1)) {
		if (sh->e[i].bin == key)
			return &sh->e[i];
		if (!sh->e[i].bin)
			break;
	}
	/* keep probes short; beyond that, the interval books no more bins */
	if (sh->n >= SHADOW_SLOTS * 3 / 4)
		return NULL;
	sh->e[i].bin = key;
	sh->e[i].used = 0;
	sh->list[sh->n++] = i;
	return &sh->e[i];
}

ng_ticks ng_reserve_slow(struct ng_sm *sm, unsigned int ri, ng_ticks t,
			 ng_ticks dur)
{
	struct ng_model *m = sm->model;
	struct ng_window *w = &sm->win[ri];
	struct ng_resource *r = &m->res[ri];
	struct ng_shadow *sh = &r->sh[sm->gpu];
	uint64_t cap = 1ULL << r->bin_shift, abs, id, g, q;
	struct ng_shadow_ent *e;
	ng_ticks s = t > w->cur ? t : w->cur;

	if (!dur) {
		w->cur = s;
		return s;
	}
	abs = m->time_base + s;
	for (id = abs >> r->bin_shift;; id++) {
		e = shadow_ent(sh, id);
		g = global_used(r, id);
		if (!e) {
			/* out of shadow slots: served unbooked (it does not happen) */
			sm->ctr.v[NG_CTR_UNBOOKED]++;
			w->bin = 0;
			w->cur = s + dur;
			return s;
		}
		/* a sliver too small for this transfer is left to others */
		if (g + e->used + dur <= cap)
			break;
	}
	q = (id << r->bin_shift) + g + e->used;
	if (q > abs)
		abs = q;
	e->used += (uint32_t)dur;
	w->bin = id;
	w->gused = g;
	w->used = &e->used;
	s = abs - m->time_base;
	w->cur = s + dur;
	return s;
}

void ng_resources_merge(struct ng_model *m, unsigned int gpu)
{
	for (unsigned int i = 0; i < m->nres; i++) {
		struct ng_resource *r = &m->res[i];
		struct ng_shadow *sh = &r->sh[gpu];

		for (unsigned int k = 0; k < sh->n; k++) {
			struct ng_shadow_ent *e = &sh->e[sh->list[k]];

			global_add(r, e->bin - 1, e->used);
			e->bin = 0;
			e->used = 0;
		}
		sh->n = 0;
	}
}
