// SPDX-License-Identifier: GPL-2.0
/*
 * CARVE's hardware coherence (CARVE sec. IV-B): GPU-VI, write-
 * through caches and broadcast write-invalidates, filtered by the
 * In-Memory Sharing Tracker, a 2-bit state (uncached, private, read-shared,
 * read-write shared) in the spare ECC bits of every line at its home. Here
 * the home memory's sidecar holds one word per line, the IMST in its low
 * bits (ngemu/model/sidecar.h).
 *
 * It sits between the links and the memory, where a request reaches its
 * home: there the memory controller reads the IMST with the line (a write
 * that brings no copy of it reads it first, one line access at the home)
 * and changes it (a read that changes it writes the ECC back, one more).
 * A writer whose L2 or RDC holds the line decides from the IMST copy kept
 * with it and broadcasts at once, without the home; otherwise the home
 * decides (at once when the line is read-write shared, which a write
 * cannot change but for a local write's reset). An invalidate is one flit
 * to every GPU but the writer and the home, and drops the line from the
 * L2 and the RDC. Atomics count as writes. A local write to a shared line resets it to private with
 * probability imst-reset, after broadcasting.
 *
 * So that the result does not depend on the host's threads, what reaches
 * a home in an interval is applied at the interval's end (ng_model_sync()
 * phase 0, by the home's own thread, in order of arrival time), and the
 * invalidates reach their GPUs' caches in phase 1. Within the interval
 * every GPU reads the IMST as it stood at its start. A reader that fetched
 * a line in the same interval as another GPU wrote it may have seen the
 * line's data in host order rather than modeled order, so it is
 * invalidated as well (hwc.race_invals; no link cost: hardware has no
 * such race).
 *
 * A page first touched in an interval is each toucher's own until the
 * interval ends (space.h): it has no one home then whose books could take
 * the touchers' events in an order of their own. They wait in the
 * toucher's log; in phase 1, when the page has its home, the winner keeps
 * its own for the next interval's end, where they join the home's other
 * events (first, being older), and the other touchers drop theirs (their
 * requests never reached the home, and nobody holds a copy of the page).
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "model/model_impl.h"
#include "ngemu/model/hwc.h"
#include "ngemu/model/model.h"
#include "ngemu/model/sidecar.h"
#include "ngemu/util/err.h"
#include "util/util.h"

/* Lines written in an interval, per GPU: a Bloom filter of one hash. */
#define WRITTEN_BITS	(1u << 17)

struct hwc_ev {
	uint64_t li;		/* line index in the space */
	ng_ticks t;		/* arrival at the home */
	uint32_t seq;		/* per requester, in issue order */
	uint8_t gpu;		/* requester */
	uint8_t op;		/* enum ng_op */
	uint8_t copy;		/* the writer broadcast already */
	uint8_t reset;		/* a local write whose reset draw came up */
};

struct ev_log {
	struct hwc_ev *e;
	size_t n, cap;
};

struct inv_list {
	uint64_t *li;
	size_t n, cap;
};

struct hwc {
	struct ng_model *m;
	unsigned int ngpus, line_shift;
	uintptr_t base;
	uint64_t nlines, sc_bytes;
	_Atomic uint64_t *sc;		/* the home lines' sidecar words */
	uint32_t reset_threshold;	/* rng < this: IMST reset (of 2^32) */
	uint64_t flit;
	struct ev_log log[NG_MAX_GPUS][NG_MAX_GPUS];	/* [requester][home] */
	uint32_t seq[NG_MAX_GPUS];
	struct inv_list inv[NG_MAX_GPUS][NG_MAX_GPUS];	/* [source][target] */
	uint64_t *written[NG_MAX_GPUS];
	bool any_written[NG_MAX_GPUS];
	uint64_t rng[NG_MAX_GPUS];	/* per home: the reset draws */
	uint64_t wrng[NG_MAX_GPUS];	/* per writer: draws decided at once */
	struct ev_log gather[NG_MAX_GPUS];	/* per home, phase 0 */
	/* per GPU: its events on pages it touched first (see the top) */
	struct ev_log unplaced[NG_MAX_GPUS], placed[NG_MAX_GPUS];
};

extern const struct ng_component ng_carve_coherence_component;

static void hwc_destroy(void *priv)
{
	struct hwc *h = priv;

	if (!h)
		return;
	for (unsigned int a = 0; a < NG_MAX_GPUS; a++) {
		for (unsigned int b = 0; b < NG_MAX_GPUS; b++) {
			free(h->log[a][b].e);
			free(h->inv[a][b].li);
		}
		free(h->written[a]);
		free(h->gather[a].e);
		free(h->unplaced[a].e);
		free(h->placed[a].e);
	}
	if (h->sc) {
		h->m->home_sc = NULL;
		ng_table_free((void *)h->sc, h->sc_bytes);
	}
	free(h);
}

static int hwc_create(struct ng_model *m, void **priv, char *err, size_t errlen)
{
	const struct ng_config *c = m->cfg;
	struct hwc *h = calloc(1, sizeof(*h));

	if (!h)
		goto nomem;
	h->m = m;
	h->ngpus = c->gpus;
	h->line_shift = (unsigned int)__builtin_ctz(c->line);
	h->base = (uintptr_t)m->space->base;
	h->nlines = m->space->size >> h->line_shift;
	h->reset_threshold = (uint32_t)(c->rdc.imst_reset * 4294967295.0);
	h->flit = c->flit;
	/* zero pages on demand: only lines that are used cost memory */
	h->sc_bytes = h->nlines * sizeof(uint64_t);
	h->sc = ng_table_alloc(h->sc_bytes);
	if (!h->sc)
		goto nomem;
	m->home_sc = h->sc;
	for (unsigned int g = 0; g < h->ngpus; g++) {
		h->written[g] = calloc(WRITTEN_BITS / 64, sizeof(uint64_t));
		if (!h->written[g])
			goto nomem;
		h->rng[g] = (c->seed + 1) * 0x9e3779b97f4a7c15ULL ^ (g + 1);
		h->wrng[g] = (c->seed + 7) * 0xbf58476d1ce4e5b9ULL ^ (g + 1);
	}
	*priv = h;
	return 0;
nomem:
	hwc_destroy(h);
	ng_seterr(err, errlen, "out of memory for the HWC model");
	return -ENOMEM;
}

static uint64_t line_index(const struct hwc *h, uintptr_t line)
{
	return (line - h->base) >> h->line_shift;
}

static unsigned int imst_of(const struct hwc *h, uint64_t li)
{
	return ng_sc_imst(atomic_load_explicit(&h->sc[li], memory_order_relaxed));
}

static bool shared(unsigned int st)
{
	return st == NG_IMST_RSHARED || st == NG_IMST_RWSHARED;
}

static void inv_add(struct inv_list *l, uint64_t li)
{
	if (ng_grow((void **)&l->li, &l->cap, l->n + 1, sizeof(*l->li)))
		l->li[l->n++] = li;
}

static unsigned int written_bit(uint64_t li)
{
	return (unsigned int)((li * 0x9e3779b97f4a7c15ULL) >> 47) &
	       (WRITTEN_BITS - 1);
}

static void log_event(struct hwc *h, const struct ng_req *r, uint64_t li,
		      bool copy, bool reset)
{
	struct ev_log *l = &h->log[r->gpu][r->home];

	/* a page first touched in this interval: see the top */
	if (r->home == r->gpu && ng_space_unplaced(h->m->space, r->line))
		l = &h->unplaced[r->gpu];

	if (!ng_grow((void **)&l->e, &l->cap, l->n + 1, sizeof(*l->e)))
		return;
	l->e[l->n++] = (struct hwc_ev){ .li = li, .t = r->t,
					.seq = h->seq[r->gpu]++,
					.gpu = (uint8_t)r->gpu,
					.op = (uint8_t)r->op, .copy = copy,
					.reset = reset };
}

static uint32_t draw(uint64_t *state)
{
	uint64_t x = *state;

	x ^= x << 13;
	x ^= x >> 7;
	x ^= x << 17;
	*state = x;
	return (uint32_t)(x >> 32);
}

/*
 * A broadcast decided at once from a link's ports (@from: the writer, or
 * the home when the line is read-write shared whatever else the interval
 * brings), booked by the writing SM: to every GPU but the writer and the
 * home.
 */
static void broadcast_now(struct hwc *h, struct ng_sm *sm,
			  const struct ng_req *r, uint64_t li,
			  unsigned int from, ng_ticks t)
{
	for (unsigned int g = 0; g < h->ngpus; g++) {
		if (g == r->gpu || g == r->home)
			continue;
		(void)ng_link_xfer(sm, from, g, t, h->flit, NULL);
		inv_add(&h->inv[r->gpu][g], li);
		sm->ctr.v[NG_CTR_INV_MSGS]++;
		sm->ctr.v[NG_CTR_INV_BYTES] += h->flit;
		sm->ctr.v[NG_CTR_LINK_TX] += h->flit;
	}
}

static bool hwc_access(void *priv, struct ng_sm *sm, struct ng_req *r)
{
	struct hwc *h = priv;
	struct ng_model *m = sm->model;
	bool local = r->home == r->gpu, copy;
	unsigned int st;
	uint64_t li;

	if (r->home >= NG_HOME_HOST)
		return false;
	li = line_index(h, r->line);
	/* the state as the interval found it; changes come at its end */
	st = imst_of(h, li);
	if (r->op == NG_OP_LOAD) {
		/* only a read that can change the state needs the home's books */
		if (local ? st == NG_IMST_UNCACHED
			  : st == NG_IMST_UNCACHED || st == NG_IMST_PRIVATE)
			log_event(h, r, li, false, false);
		return false;
	}
	copy = r->flags & NG_REQ_COPY;
	if (copy && shared((r->flags >> NG_REQ_COPY_SHIFT) & 3u)) {
		/* the writer holds the line: it broadcasts, from its ports */
		broadcast_now(h, sm, r, li, r->gpu, r->t0);
		if (local ? st != NG_IMST_PRIVATE : st != NG_IMST_RWSHARED)
			log_event(h, r, li, true, false);
		goto written;
	}
	if (r->op == NG_OP_STORE && !(r->flags & NG_REQ_L2_HIT)) {
		/*
		 * No copy: the controller reads the line's ECC before it
		 * writes (the write queues behind the read; its latency is
		 * hidden, as a write's is). A local line the home's L2
		 * held came with its IMST (CARVE IV-C): no read.
		 */
		(void)ng_reserve_dur(sm, ng_res_mem(m, r->home), r->t,
				     m->mem_line_dur);
		sm->ctr.v[NG_CTR_IMST_READS]++;
		sm->ctr.v[NG_CTR_MEM_ACC]++;
	}
	if (st == NG_IMST_RWSHARED) {
		/*
		 * Read-write shared stays so (but for a local write's reset):
		 * the home broadcasts whatever else the interval brings.
		 */
		if (local && draw(&h->wrng[r->gpu]) < h->reset_threshold)
			log_event(h, r, li, false, true);
		else
			broadcast_now(h, sm, r, li, r->home, r->t);
	} else if (!(local && st == NG_IMST_PRIVATE)) {
		/* a local write to a private line changes nothing but data */
		log_event(h, r, li, false, false);
	}
written:
	h->written[r->gpu][written_bit(li) / 64] |= 1ULL << (written_bit(li) % 64);
	h->any_written[r->gpu] = true;
	return false;
}

static int ev_cmp(const void *a, const void *b)
{
	const struct hwc_ev *x = a, *y = b;

	if (x->li != y->li)
		return x->li < y->li ? -1 : 1;
	if (x->t != y->t)
		return x->t < y->t ? -1 : 1;
	if (x->gpu != y->gpu)
		return x->gpu < y->gpu ? -1 : 1;
	return (x->seq > y->seq) - (x->seq < y->seq);
}

/* The home broadcasts: one flit to every GPU but the writer and itself. */
static void home_broadcast(struct hwc *h, unsigned int home, uint64_t li,
			   ng_ticks t, unsigned int writer)
{
	struct ng_model *m = h->m;
	struct ng_counters *c = &m->gctr[home];

	for (unsigned int g = 0; g < h->ngpus; g++) {
		if (g == writer || g == home)
			continue;
		ng_link_charge(m, home, g, t, h->flit);
		inv_add(&h->inv[home][g], li);
		c->v[NG_CTR_INV_MSGS]++;
		c->v[NG_CTR_INV_BYTES] += h->flit;
		c->v[NG_CTR_LINK_TX] += h->flit;
	}
}

/* GPUs whose writes of this interval may have touched @li. */
static unsigned int writers_of(const struct hwc *h, uint64_t li)
{
	unsigned int bit = written_bit(li), mask = 0;

	for (unsigned int g = 0; g < h->ngpus; g++)
		if (h->any_written[g] && (h->written[g][bit / 64] >> (bit % 64) & 1))
			mask |= 1u << g;
	return mask;
}

/* One home line's events of the interval, in arrival order. */
static void apply_line(struct hwc *h, unsigned int home,
		       const struct hwc_ev *e, size_t n)
{
	struct ng_model *m = h->m;
	struct ng_counters *c = &m->gctr[home];
	uint64_t li = e[0].li, w = atomic_load_explicit(&h->sc[li],
							 memory_order_relaxed);
	unsigned int st = ng_sc_imst(w), st0 = st, readers = 0, writers;

	for (size_t i = 0; i < n; i++) {
		bool local = e[i].gpu == home, write = e[i].op != NG_OP_LOAD;
		bool reset = false, bcast;
		unsigned int nst;

		if (e[i].reset)
			reset = true;
		else if (local && write && shared(st))
			reset = draw(&h->rng[home]) < h->reset_threshold;
		nst = ng_imst_next(st, local, write, reset, &bcast);
		if (!write) {
			if (!local)
				readers |= 1u << e[i].gpu;
			/* the controller writes the changed ECC back */
			if (nst != st) {
				ng_resource_charge(m, ng_res_mem(m, home), e[i].t,
						   m->mem_line_dur);
				c->v[NG_CTR_IMST_WRITES]++;
				c->v[NG_CTR_MEM_ACC]++;
			}
		} else if (bcast) {
			if (!e[i].copy)
				home_broadcast(h, home, li, e[i].t, e[i].gpu);
			if (nst == NG_IMST_PRIVATE)
				c->v[NG_CTR_IMST_RESET]++;
		}
		st = nst;
	}
	/* readers of a line written in the same interval: see the top */
	writers = readers ? writers_of(h, li) : 0;
	if (writers) {
		unsigned int targets = readers;

		/* a lone writer's own copy took its write */
		if (!(writers & (writers - 1)))
			targets &= ~writers;
		for (unsigned int g = 0; g < h->ngpus; g++)
			if (targets >> g & 1) {
				inv_add(&h->inv[home][g], li);
				c->v[NG_CTR_INV_SAFE]++;
			}
	}
	if (st != st0)
		atomic_store_explicit(&h->sc[li],
				      (w & ~3ULL) | (uint64_t)st << NG_SC_IMST_SHIFT,
				      memory_order_relaxed);
}

/* Append @n events @e to @l; those that find no memory are dropped. */
static void ev_log_append(struct ev_log *l, const struct hwc_ev *e, size_t n)
{
	if (n && ng_grow((void **)&l->e, &l->cap, l->n + n, sizeof(*l->e))) {
		memcpy(l->e + l->n, e, n * sizeof(*e));
		l->n += n;
	}
}

/*
 * Phase 1: the pages @gpu touched first in the interval have their homes
 * (phase 0 published them, and only phase 0 moves pages): its events on
 * those it won wait for the next phase 0, the others are dropped.
 */
static void keep_won(struct hwc *h, unsigned int gpu)
{
	struct ng_space *sp = h->m->space;
	struct ev_log *l = &h->unplaced[gpu];

	for (size_t i = 0; i < l->n; i++) {
		uintptr_t line = h->base + (l->e[i].li << h->line_shift);

		if (ng_space_peek(sp, line) == gpu)
			ev_log_append(&h->placed[gpu], &l->e[i], 1);
	}
	l->n = 0;
}

/* Apply @all, this GPU's books as a home, line by line in arrival order. */
static void apply_all(struct hwc *h, struct ev_log *all, unsigned int gpu)
{
	if (!all->n)
		return;
	qsort(all->e, all->n, sizeof(*all->e), ev_cmp);
	for (size_t i = 0, j; i < all->n; i = j) {
		for (j = i + 1; j < all->n && all->e[j].li == all->e[i].li; j++)
			;
		apply_line(h, gpu, all->e + i, j - i);
	}
}

static void hwc_sync(void *priv, unsigned int phase, unsigned int gpu)
{
	struct hwc *h = priv;
	struct ev_log *all = &h->gather[gpu];

	if (phase == 1) {
		keep_won(h, gpu);
		/* invalidates for this GPU's caches, from every source */
		for (unsigned int s = 0; s < h->ngpus; s++) {
			struct inv_list *l = &h->inv[s][gpu];

			for (size_t i = 0; i < l->n; i++)
				ng_model_invalidate(h->m, gpu, h->base +
						    (l->li[i] << h->line_shift));
			l->n = 0;
		}
		if (h->any_written[gpu])
			memset(h->written[gpu], 0, WRITTEN_BITS / 8);
		h->any_written[gpu] = false;
		return;
	}
	/* phase 0: this GPU as the home of the lines every GPU reached */
	all->n = 0;
	ev_log_append(all, h->placed[gpu].e, h->placed[gpu].n);
	h->placed[gpu].n = 0;
	for (unsigned int g = 0; g < h->ngpus; g++) {
		struct ev_log *l = &h->log[g][gpu];

		if (!l->n)
			continue;
		if (ng_grow((void **)&all->e, &all->cap, all->n + l->n,
			 sizeof(*all->e))) {
			memcpy(all->e + all->n, l->e, l->n * sizeof(*l->e));
			all->n += l->n;
		}
		l->n = 0;
	}
	apply_all(h, all, gpu);
}

/*
 * The kernel's end: every page has its home (ng_model_kernel_end()), and
 * the events that waited for it are applied.
 */
static void hwc_kernel_end(void *priv, struct ng_sm *const *sms,
			   unsigned int nsm)
{
	struct hwc *h = priv;

	(void)sms;
	(void)nsm;
	for (unsigned int g = 0; g < h->ngpus; g++) {
		struct ev_log *all = &h->gather[g];

		keep_won(h, g);
		all->n = 0;
		ev_log_append(all, h->placed[g].e, h->placed[g].n);
		h->placed[g].n = 0;
		apply_all(h, all, g);
	}
}

int ng_hwc_sidecar(const struct ng_model *m, uintptr_t line, uint64_t *word)
{
	const struct hwc *h = ng_model_priv(m, &ng_carve_coherence_component);

	if (!h)
		return -ENOENT;
	*word = atomic_load_explicit(&h->sc[line_index(h, line)],
				     memory_order_relaxed);
	return 0;
}

int ng_hwc_imst(const struct ng_model *m, uintptr_t line)
{
	uint64_t w;

	if (ng_hwc_sidecar(m, line, &w))
		return -ENOENT;
	return (int)ng_sc_imst(w);
}

static const struct ng_key hwc_keys[] = {
	NG_KEY_NUM("imst-reset", NG_KEY_DOUBLE, rdc.imst_reset, 0, 1,
		   "HWC: probability a local write resets the IMST to private"),
	{ .name = NULL },
};

const struct ng_component ng_carve_coherence_component = {
	.name = "hwc",
	.desc = "CARVE hardware coherence: GPU-VI broadcast invalidates filtered by the home's IMST in its ECC bits",
	.keys = hwc_keys,
	.counters = "hwc",
	.enabled = ng_hwc_enabled,
	.remote_only = false,
	.create = hwc_create,
	.destroy = hwc_destroy,
	.access = hwc_access,
	.kernel_end = hwc_kernel_end,
	.sync = hwc_sync,
	.sync_phases = 2,
};
