// SPDX-License-Identifier: GPL-2.0
/*
 * First touches inside modeled kernels (see space.h): during an interval
 * a GPU that touches an untouched page takes it as its own and notes its
 * clock (a claim, seen by its own requests only); at the interval's end
 * the claim with the earliest clock wins the page, the lower GPU among
 * equal clocks, as on a machine where the first access in time places it.
 * The host's order of the GPUs' threads never enters.
 *
 * The claims of an interval are read by every GPU while they decide
 * (phase 1 of the interval's end, GPUs at once on their own threads), so
 * each GPU has two sets and uses them in turn: the one it fills next is
 * the one of the interval before, which nobody reads any more.
 */
#include <sched.h>
#include <stddef.h>
#include <stdlib.h>
#include <string.h>

#include "backend/backend.h"
#include "runtime/touch.h"
#include "util/util.h"

/* One GPU's claims of one interval. */
struct ng_claim_set {
	uint64_t *key;		/* index + 1, open addressing; 0: empty */
	size_t cap;		/* slots: a power of two, or 0 */
	uint64_t *pg;		/* the pages, in the order first claimed */
	uint64_t *t;		/* and the earliest clock of each */
	size_t n, pgcap, tcap;
};

struct ng_claims {
	struct ng_claim_set set[2];
	unsigned int cur;	/* the set this interval fills */
	uint64_t *won;		/* pages won, placed at the next interval's end */
	size_t nwon, woncap;
};

static size_t claim_slot(uint64_t pg, size_t cap)
{
	return (size_t)((pg * 0x9e3779b97f4a7c15ULL) >> 32) & (cap - 1);
}

/* The index of @pg's claim in @c, or -1. */
static ptrdiff_t find(const struct ng_claim_set *c, uint64_t pg)
{
	if (!c->cap)
		return -1;
	for (size_t i = claim_slot(pg, c->cap); c->key[i];
	     i = (i + 1) & (c->cap - 1))
		if (c->pg[c->key[i] - 1] == pg)
			return (ptrdiff_t)(c->key[i] - 1);
	return -1;
}

/* Room for one more claim, the keys rehashed into a larger table. */
static bool grow(struct ng_claim_set *c)
{
	size_t cap = c->cap ? 2 * c->cap : 64;
	uint64_t *key;

	if (!ng_grow((void **)&c->pg, &c->pgcap, c->n + 1, sizeof(*c->pg)) ||
	    !ng_grow((void **)&c->t, &c->tcap, c->n + 1, sizeof(*c->t)))
		return false;
	if (2 * (c->n + 1) <= c->cap)
		return true;
	key = calloc(cap, sizeof(*key));
	if (!key)
		return false;
	for (size_t k = 0; k < c->n; k++) {
		size_t i = claim_slot(c->pg[k], cap);

		while (key[i])
			i = (i + 1) & (cap - 1);
		key[i] = k + 1;
	}
	free(c->key);
	c->key = key;
	c->cap = cap;
	return true;
}

/* A claim of page @pg at clock @t; false when out of memory. */
static bool claim(struct ng_claim_set *c, uint64_t pg, uint64_t t)
{
	ptrdiff_t k = find(c, pg);
	size_t i;

	if (k >= 0) {
		if (t < c->t[k])
			c->t[k] = t;
		return true;
	}
	if (!grow(c))
		return false;
	for (i = claim_slot(pg, c->cap); c->key[i]; i = (i + 1) & (c->cap - 1))
		;
	c->key[i] = c->n + 1;
	c->pg[c->n] = pg;
	c->t[c->n++] = t;
	return true;
}

unsigned int ng_space_first_touch_at(struct ng_space *s, uint64_t off,
				     unsigned int gpu, uint64_t t)
{
	uint64_t pg = off >> s->page_shift;
	uint8_t expect = NG_LOC_NONE;

	/* deferred: the page is ours for this interval (see space.h) */
	if (s->defer_touch &&
	    atomic_load_explicit(&s->loc[pg], memory_order_relaxed) ==
	    NG_LOC_NONE &&
	    claim(&s->claims[gpu].set[s->claims[gpu].cur], pg, t))
		return gpu;
	/*
	 * The backend puts the page's memory on our GPU's node (with the
	 * module, the first fault through our GPU's view does) before anyone
	 * else may use it: they wait while it is BUSY.
	 */
	if (atomic_compare_exchange_strong(&s->loc[pg], &expect, NG_LOC_BUSY)) {
		s->ops->touch(s, pg << s->page_shift, 1ULL << s->page_shift, gpu);
		atomic_store(&s->loc[pg], (uint8_t)gpu);
		return gpu;
	}
	while (expect == NG_LOC_BUSY) {
		sched_yield();
		expect = atomic_load(&s->loc[pg]);
	}
	return expect == NG_LOC_FGP ? ng_fgp_gpu(off, s->fgp_shift, s->ngpus)
				    : expect;
}

unsigned int ng_space_first_touch(struct ng_space *s, uint64_t off,
				  unsigned int gpu)
{
	return ng_space_first_touch_at(s, off, gpu, UINT64_MAX);
}

/* The pages @gpu won in the interval before: their memory to its node. */
static void place_won(struct ng_space *s, struct ng_claims *c,
		      unsigned int gpu)
{
	for (size_t i = 0; i < c->nwon; i++)
		if (atomic_load_explicit(&s->loc[c->won[i]],
					 memory_order_relaxed) == gpu)
			s->ops->touch(s, c->won[i] << s->page_shift,
				      1ULL << s->page_shift, gpu);
	c->nwon = 0;
}

void ng_space_touch_sync(struct ng_space *s, unsigned int gpu)
{
	if (s->claims)
		place_won(s, &s->claims[gpu], gpu);
}

bool ng_space_touch_pending(const struct ng_space *s)
{
	for (unsigned int g = 0; s->claims && g < s->ngpus; g++)
		if (s->claims[g].set[s->claims[g].cur].n)
			return true;
	return false;
}

/* Whether @gpu's claim of @pg at @t is the earliest of the interval. */
static bool earliest(const struct ng_space *s, unsigned int gpu, uint64_t pg,
		     uint64_t t)
{
	unsigned int cur = s->claims[gpu].cur;

	for (unsigned int g = 0; g < s->ngpus; g++) {
		const struct ng_claim_set *o = &s->claims[g].set[cur];
		ptrdiff_t k;

		if (g == gpu)
			continue;
		k = find(o, pg);
		if (k < 0)
			continue;
		if (o->t[k] < t || (o->t[k] == t && g < gpu))
			return false;
	}
	return true;
}

void ng_space_touch_resolve(struct ng_space *s, unsigned int gpu)
{
	struct ng_claims *c;
	struct ng_claim_set *mine, *next;

	if (!s->claims)
		return;
	c = &s->claims[gpu];
	mine = &c->set[c->cur];
	next = &c->set[!c->cur];
	for (size_t i = 0; i < mine->n; i++) {
		uint8_t expect = NG_LOC_NONE;

		if (!earliest(s, gpu, mine->pg[i], mine->t[i]) ||
		    !atomic_compare_exchange_strong_explicit(
				&s->loc[mine->pg[i]], &expect, (uint8_t)gpu,
				memory_order_relaxed, memory_order_relaxed))
			continue;
		/* on its node at the next interval's end (place_won()) */
		if (ng_grow((void **)&c->won, &c->woncap, c->nwon + 1,
			    sizeof(*c->won)))
			c->won[c->nwon++] = mine->pg[i];
		else
			s->ops->touch(s, mine->pg[i] << s->page_shift,
				      1ULL << s->page_shift, gpu);
	}
	/* the interval before's set: nobody reads it any more */
	if (next->cap)
		memset(next->key, 0, next->cap * sizeof(*next->key));
	next->n = 0;
	c->cur = !c->cur;
}

void ng_space_defer_touch(struct ng_space *s, bool on)
{
	if (on) {
		if (s->backend != NG_MEM_USER)
			return;
		if (!s->claims)
			s->claims = calloc(s->ngpus, sizeof(*s->claims));
		s->defer_touch = s->claims != NULL;
		return;
	}
	if (!s->claims)
		return;
	/* the last interval's end has resolved every claim but its placement */
	for (unsigned int g = 0; g < s->ngpus; g++)
		ng_space_touch_resolve(s, g);
	for (unsigned int g = 0; g < s->ngpus; g++)
		place_won(s, &s->claims[g], g);
	s->defer_touch = false;
}

void ng_claims_free(struct ng_space *s)
{
	for (unsigned int g = 0; s->claims && g < s->ngpus; g++) {
		for (unsigned int k = 0; k < 2; k++) {
			free(s->claims[g].set[k].key);
			free(s->claims[g].set[k].pg);
			free(s->claims[g].set[k].t);
		}
		free(s->claims[g].won);
	}
	free(s->claims);
	s->claims = NULL;
}
