// SPDX-License-Identifier: GPL-2.0
/*
 * The model's frame: the component pipeline, SM clocks with bounded
 * memory-level parallelism, bandwidth servers, kernel boundaries and
 * real-time injection. The components themselves live in model_*.c.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "ngemu/model/model.h"
#include "util/util.h"

extern const struct ng_component_ops ng_l2_ops;
extern const struct ng_component_ops ng_link_ops;
extern const struct ng_component_ops ng_mem_ops;
extern const struct ng_component_ops ng_rdc_ops;
extern const struct ng_component_ops ng_rdc_hwc_ops;
extern const struct ng_component_ops ng_repl_ops;

/* Requests' worth of capacity an SM takes from a bin at once. */
#define NG_BATCH	16

static uint64_t cost_fp(double gbs)
{
	/* GB/s = bytes per ns; ticks per byte = 1024 / gbs, in 16.16 */
	return (uint64_t)((double)NG_TICKS_PER_NS / gbs * 65536.0 + 0.5);
}

int ng_model_init(struct ng_model *m, const struct ng_config *cfg,
		  struct ng_space *space, char *err, size_t errlen)
{
	unsigned int n = cfg->gpus;
	double issue_ns;

	memset(m, 0, sizeof(*m));
	m->cfg = cfg;
	m->space = space;
	m->ngpus = n;
	m->mlp = cfg->mlp;
	m->mem_latency = (ng_ticks)(cfg->local_latency_ns * NG_TICKS_PER_NS);
	m->batch = NG_BATCH;
	/* an emulated SM issues for sm_scale real SMs, one request a cycle each */
	issue_ns = 1.0 / cfg->freq_ghz / cfg->sm_scale;
	m->issue_ticks = (ng_ticks)(issue_ns * NG_TICKS_PER_NS + 0.5);
	m->nres = n + n * n + 2 * n;
	m->res = aligned_alloc(64, m->nres * sizeof(*m->res));
	if (!m->res) {
		ng_seterr(err, errlen, "out of memory for the model");
		return -ENOMEM;
	}
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
		if (!r->bins) {
			ng_model_fini(m);
			ng_seterr(err, errlen, "out of memory for the model");
			return -ENOMEM;
		}
		if (shift > m->max_shift)
			m->max_shift = shift;
	}
	/* software replication runs first: it decides where a line is read */
	if (cfg->replicate == NG_REPL_RO)
		m->ops[m->ncomp++] = &ng_repl_ops;
	m->ideal = cfg->replicate == NG_REPL_ALL;
	/* the baseline pipeline: remote lines may hit the L2 first */
	if (cfg->l2_size)
		m->ops[m->ncomp++] = &ng_l2_ops;
	/* CARVE: an L2 miss to a remote line looks in the RDC */
	if (cfg->rdc_size)
		m->ops[m->ncomp++] = cfg->coherence == NG_COH_HWC ?
				     &ng_rdc_hwc_ops : &ng_rdc_ops;
	m->ops[m->ncomp++] = &ng_link_ops;
	m->ops[m->ncomp++] = &ng_mem_ops;
	m->mem_line_dur = ng_cost(m, ng_res_mem(m, 0), cfg->line);
	m->local_inline = true;
	for (unsigned int i = 0; i < m->ncomp; i++)
		if (!m->ops[i]->remote_only && m->ops[i] != &ng_mem_ops)
			m->local_inline = false;
	for (unsigned int i = 0; i < m->ncomp; i++) {
		int ret = m->ops[i]->create ? m->ops[i]->create(m, &m->priv[i],
								err, errlen)
					    : 0;
		if (ret) {
			m->ncomp = i;
			ng_model_fini(m);
			return ret;
		}
	}
	return 0;
}

void ng_model_fini(struct ng_model *m)
{
	for (unsigned int i = 0; i < m->ncomp; i++)
		if (m->ops[i]->destroy)
			m->ops[i]->destroy(m->priv[i]);
	for (unsigned int i = 0; m->res && i < m->nres; i++)
		free((void *)m->res[i].bins);
	free(m->res);
	memset(m, 0, sizeof(*m));
}

int ng_sm_init(struct ng_sm *sm, struct ng_model *m, unsigned int gpu,
	       unsigned int index, unsigned int id)
{
	unsigned int slots = 1;

	while (slots < m->cfg->mlp)
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
	sm->shared = calloc(1, m->cfg->shared_bytes ? m->cfg->shared_bytes : 1);
	if (sm->win)
		sm->own_mem = &sm->win[ng_res_mem(m, gpu)];
	sm->own_mem_shift = m->res[ng_res_mem(m, gpu)].bin_shift;
	sm->line_dur = m->mem_line_dur;
	sm->mem_latency = m->mem_latency;
	sm->issue_ticks = m->issue_ticks;
	sm->mlp = m->mlp;
	sm->line_bytes = m->cfg->line;
	sm->line_words = m->cfg->line / 4;
	sm->local_inline = m->local_inline;
	sm->space_base = (uintptr_t)m->space->base;
	/* kmod: GPU g reaches memory through its own view (space.h) */
	sm->view_delta = (uintptr_t)(gpu * m->space->view_stride);
	sm->loc = m->space->loc;
	sm->page_shift = m->space->page_shift;
	sm->rng = (m->cfg->seed + 1) * 0x9e3779b97f4a7c15ULL ^ (id + 1);
	if (!sm->ring || !sm->win || !sm->shared) {
		ng_sm_fini(sm);
		return -ENOMEM;
	}
	return 0;
}

void ng_sm_fini(struct ng_sm *sm)
{
	free(sm->ring);
	free(sm->win);
	free(sm->shared);
	sm->ring = NULL;
	sm->win = NULL;
	sm->shared = NULL;
}

void ng_model_kernel_begin(struct ng_model *m, struct ng_sm *const *sms,
			   unsigned int nsm)
{
	for (unsigned int s = 0; s < nsm; s++) {
		struct ng_sm *sm = sms[s];

		sm->now = 0;
		sm->done_max = 0;
		sm->time_base = m->time_base;
		sm->ring_pos = 0;
		memset(sm->ring, 0, (sm->ring_mask + 1) * sizeof(*sm->ring));
		memset(sm->win, 0, m->nres * sizeof(*sm->win));
	}
}

ng_ticks ng_model_kernel_end(struct ng_model *m, struct ng_sm *const *sms,
			     unsigned int nsm)
{
	ng_ticks end = 0;

	for (unsigned int s = 0; s < nsm; s++) {
		ng_ticks t = sms[s]->now > sms[s]->done_max ? sms[s]->now
							    : sms[s]->done_max;
		if (t > end)
			end = t;
		if (m->cfg->inject)
			ng_inject_settle(sms[s], true);
	}
	for (unsigned int i = 0; i < m->ncomp; i++)
		if (m->ops[i]->kernel_end)
			m->ops[i]->kernel_end(m->priv[i], sms, nsm);
	/* the next kernel's bins come after every bin this one used */
	m->time_base += ((end >> m->max_shift) + 2) << m->max_shift;
	return end;
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

void ng_model_access_pipeline(struct ng_sm *sm, struct ng_req *r)
{
	struct ng_model *m = sm->model;
	unsigned int slot = sm->ring_pos;
	ng_ticks t = sm->now;
	unsigned int i, n = m->ncomp;
	bool local = r->home == r->gpu;

	/* bounded MLP: wait for the slot of the request mlp requests ago */
	if (sm->ring[slot] > t)
		t = sm->ring[slot];
	r->t = t;
	if (m->repl || m->ideal) {
		ng_repl_redirect(m, sm, r);
		local = r->home == r->gpu;
	}
	sm->ctr.v[r->home == r->gpu ? NG_CTR_LOCAL :
		  r->home == NG_HOME_HOST ? NG_CTR_HOST : NG_CTR_REMOTE]++;
	for (i = 0; i < n; i++) {
		if (local && m->ops[i]->remote_only)
			continue;
		if (m->ops[i]->access(m->priv[i], sm, r))
			break;
	}
	if (i == n)
		i = n - 1;
	for (;; i--) {
		if (m->ops[i]->respond && !(local && m->ops[i]->remote_only))
			m->ops[i]->respond(m->priv[i], sm, r);
		if (!i)
			break;
	}
	sm->ring[slot] = r->t;
	slot = slot + 1 == m->cfg->mlp ? 0 : slot + 1;
	sm->ring_pos = slot;
	sm->now = t + m->issue_ticks;
	if (r->t > sm->done_max)
		sm->done_max = r->t;
}

static double now_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec * 1e9 + (double)ts.tv_nsec;
}

void ng_inject_settle(struct ng_sm *sm, bool force)
{
	double owed = sm->inj_owed_ns, until;

	if (owed <= 0 || (!force && owed < sm->model->cfg->inject_batch_us * 1e3))
		return;
	/* one spin per batch keeps clock reads rare */
	until = now_ns() + owed;
	while (now_ns() < until)
		;
	sm->inj_owed_ns = 0;
	sm->ctr.v[NG_CTR_INJ_NS] += (uint64_t)owed;
	sm->ctr.v[NG_CTR_INJ_SPINS]++;
}
