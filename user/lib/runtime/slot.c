// SPDX-License-Identifier: GPL-2.0
/*
 * Resident block slots: an SM holds blocks-per-sm blocks at once, each in
 * a slot with a coroutine of its own, and a GPU's slots run in the order
 * of their clocks (a heap), each at most a slice ahead of the next, so
 * that one block's wait is hidden by the others' work as on a GPU (see
 * Documentation/runtime.rst). pool.c steps the GPUs through intervals.
 */
#include <errno.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

#include "runtime/coro.h"
#include "runtime/slot.h"

/*
 * A block slot's stack (virtual: pages are committed as it grows into
 * them). All slots' stacks are one mapping: a papers' machine has
 * thousands of slots (64 SMs x 40 on MGPUSim's GPUs, at 16 GPUs), more
 * than the kernel allows mappings if each had a guard page of its own.
 */
#define NG_SLOT_STACK	(1u << 20)

/*
 * A resident block slot: one of an SM's places for a block, with the
 * coroutine that runs the blocks it holds, one after another. Its clock
 * and its requests' latest completion are kept here while it does not run
 * and are the SM's (ng_sm.now, done_max) while it does.
 *
 * What a switch to it reads (its clock, block, shared memory, SM and saved
 * stack pointer) comes first, in one cache line: a GPU has thousands of
 * slots, and one that runs again has mostly left the host's caches.
 */
struct ng_slot {
	ng_ticks now, done_max;
	uint64_t block;
	void *shared;			/* its block's shared memory */
	struct ng_sm_run *q;		/* its SM's schedule */
	unsigned int cu;
	unsigned int key;		/* the GPU's order: slot-major */
	bool done;
	bool idle;			/* it waits to take a block */
	struct ng_coro co;
	struct ng_system *sys;
	_Alignas(64) unsigned char linebuf[NG_MAX_LINE];
};

#ifndef NG_CORO_UCONTEXT
_Static_assert(offsetof(struct ng_slot, co) + sizeof(void *) <= 64,
	       "a slot's switch reads one cache line");
#endif

/* Earlier clock first; the GPU's slot order breaks ties. */
static bool before(const struct ng_heap_ent *a, const struct ng_heap_ent *b)
{
	return a->now < b->now || (a->now == b->now && a->key < b->key);
}

/* The root of @heap (@n entries) has a new clock and key: its place. */
static void sift_down(struct ng_heap_ent *heap, unsigned int n, ng_ticks now,
		      unsigned int key)
{
	struct ng_heap_ent x = heap[0];
	unsigned int i = 0;

	x.now = now;
	x.key = key;
	for (;;) {
		unsigned int c = 2 * i + 1;

		if (c >= n)
			break;
		if (c + 1 < n && before(&heap[c + 1], &heap[c]))
			c++;
		if (!before(&heap[c], &x))
			break;
		heap[i] = heap[c];
		i = c;
	}
	heap[i] = x;
}

/* The root of @heap is gone: the last entry takes its place. */
static void pop(struct ng_heap_ent *heap, unsigned int *n)
{
	heap[0] = heap[--*n];
	if (*n)
		sift_down(heap, *n, heap[0].now, heap[0].key);
}

/* A new entry in @heap (@n entries, room for one more). */
static void push(struct ng_heap_ent *heap, unsigned int *n, ng_ticks now,
		 unsigned int key, void *x)
{
	struct ng_heap_ent e = { .now = now, .key = key, .x = x };
	unsigned int i = (*n)++;

	while (i) {
		unsigned int p = (i - 1) / 2;

		if (!before(&e, &heap[p]))
			break;
		heap[i] = heap[p];
		i = p;
	}
	heap[i] = e;
}

/* The earliest clock after the root's (UINT64_MAX: none). */
static ng_ticks second_clock(const struct ng_heap_ent *heap, unsigned int n)
{
	ng_ticks t = UINT64_MAX;

	if (n > 1)
		t = heap[1].now;
	if (n > 2 && heap[2].now < t)
		t = heap[2].now;
	return t;
}

/* @t + @q, or UINT64_MAX when that overflows (no other slot). */
static ng_ticks plus(ng_ticks t, ng_ticks q)
{
	return t > UINT64_MAX - q ? UINT64_MAX : t + q;
}

/*
 * Once a slot's coroutine has ended (at every kernel's end): checked then
 * rather than at every switch, where the canary's line would be one more
 * cache miss.
 */
static void check_stack(const struct ng_slot *x)
{
	if (!ng_coro_overflowed(&x->co))
		return;
	/* a neighbour's stack may be corrupt: nothing is safe any more */
	fprintf(stderr, "ngemu: a block on SM %u overflowed its %u KiB stack\n",
		x->q->sm->id, NG_SLOT_STACK >> 10);
	abort();
}

static void *slot_stack(struct ng_system *sys, const struct ng_slot *x)
{
	return (char *)sys->stacks + (size_t)(x - sys->slots) * NG_SLOT_STACK;
}

/* Make @x the block running on its SM; then take back what it did. */
static void slot_enter(struct ng_slot *x)
{
	struct ng_sm *sm = x->q->sm;

	ng_sm_enter(sm, x->now, x->done_max);
	sm->host = x;
	sm->cu = x->cu;
	sm->block = x->block;
	sm->shared = x->shared;
	sm->linebuf = x->linebuf;
}

static void slot_leave(struct ng_slot *x)
{
	struct ng_sm *sm = x->q->sm;

	x->now = sm->now;
	x->done_max = sm->done_max;
	x->cu = sm->cu;
	x->block = sm->block;
}

/*
 * A GPU's slots run to the interval's end h->end: the slot with the
 * earliest clock runs until it passes the next earliest of its SM (where
 * several wait at the SM's port, the first runs on while it issues
 * unhindered: see pick()), or is
 * a slice ahead of any other SM's (it gives way at its next model call;
 * pick() says why an SM's own keep no slice), and gives way before taking
 * a block while another is more than a slice behind it, so that the GPU's
 * blocks go to its slots in the order of their clocks (within a slice: a
 * slice's worth of work in a row keeps each slot's accesses streaming on
 * the host). A slot whose SM's port is busy past its clock cannot issue before
 * the port is free: its clock is the port's, and the slots that wait for
 * the port issue in the GPU's slot order. Nothing here depends on other
 * GPUs, so a GPU runs the same on any thread.
 *
 * The slots are picked SM by SM: once an SM runs, its next earliest slot
 * runs after the one that gave way as long as it is less than a slice
 * ahead of every other SM's, rather than the GPU's earliest slot. No slot
 * runs more than a slice ahead of another either way, but a GPU's SMs
 * hold thousands of blocks, and an SM whose miss entries are all in
 * flight has its blocks give way after every request: switching among one
 * SM's blocks, whose stacks and state stay in the host's caches, costs
 * less than a switch to a block of another SM (a GPU's triad went from
 * 27.7 to 22.6 ms a kernel here). With one block per SM the order is that
 * of one heap of all the GPU's slots.
 *
 * A slot that gives way picks the next one and switches to it directly;
 * only at the interval's end does it go back to its thread's context.
 */

/*
 * An SM's slots whose clocks have reached its port all issue at the port,
 * the first of them in the GPU's order: they are a set (ready, a bit per
 * slot), the others a heap of clocks. Kept apart, a port that moves past
 * many waiting slots costs a bit each, where re-keying them one at a time
 * in one heap cost a sift each, again at every issue.
 */
static void sm_refresh(struct ng_sm_run *r)
{
	ng_ticks port = r->sm->port;

	while (r->n && r->heap[0].now <= port) {
		const struct ng_slot *x = r->heap[0].x;

		r->ready |= 1ULL << (x - r->first);
		pop(r->heap, &r->n);
	}
}

/* The SM's earliest slot (refreshed), its clock in *now. */
static struct ng_slot *sm_first(const struct ng_sm_run *r, ng_ticks *now)
{
	struct ng_slot *x;

	if (r->ready) {
		*now = r->sm->port;
		return r->first + __builtin_ctzll(r->ready);
	}
	x = r->heap[0].x;
	*now = x->now;
	return x;
}

/* The clock of the SM's slot after its first (UINT64_MAX: none). */
static ng_ticks sm_second(const struct ng_sm_run *r)
{
	if (r->ready & (r->ready - 1))
		return r->sm->port;
	if (r->ready)
		return r->n ? r->heap[0].now : UINT64_MAX;
	return second_clock(r->heap, r->n);
}

/*
 * Whether a slot of the running SM (the root) with clock @now and key @key
 * comes before every other SM's slots.
 */
static bool first_of_gpu(const struct ng_gpu_run *h, ng_ticks now,
			 unsigned int key)
{
	struct ng_heap_ent x = { .now = now, .key = key };

	return (h->n < 2 || before(&x, &h->heap[1])) &&
	       (h->n < 3 || before(&x, &h->heap[2]));
}

/* The slot to run next, entered on its SM; NULL: the interval is done. */
static struct ng_slot *pick(struct ng_gpu_run *h)
{
	while (h->n) {
		struct ng_sm_run *r = h->heap[0].x;
		ng_ticks now, other, second, limit, until;
		struct ng_slot *e;
		struct ng_sm *sm;
		bool at_port;

		if (!r->n && !r->ready) {
			/* the SM's blocks have all ended */
			pop(h->heap, &h->n);
			h->cur = NULL;
			continue;
		}
		sm_refresh(r);
		e = sm_first(r, &now);
		sm = r->sm;
		other = second_clock(h->heap, h->n);
		limit = h->end;
		if (h->cur == r && plus(other, h->q) < limit)
			limit = other + h->q;
		if (now >= limit || (h->cur == r && e->idle &&
				     !first_of_gpu(h, now, e->key))) {
			/* a fresh root's key is its clock: every SM is done */
			if (h->cur != r)
				return NULL;
			h->cur = NULL;
			sift_down(h->heap, h->n, now, e->key);
			continue;
		}
		h->cur = r;
		/*
		 * Two or more of the SM's slots at its port: the first (in
		 * the GPU's order) runs on as long as it issues unhindered,
		 * for the port it moves is the others' clock. What may come
		 * before it then is its waiting past the port, or the SM's
		 * earliest slot not at the port, once the port passes it.
		 * Giving way and being picked again after each issue did the
		 * same, at a cost (3 of 4 ways given on a GPU of 32 blocks an
		 * SM).
		 */
		at_port = r->ready & (r->ready - 1);
		second = !at_port ? sm_second(r) :
			 r->n ? r->heap[0].now : UINT64_MAX;
		/*
		 * Another SM's slots may be up to a slice behind, this SM's
		 * not: its port and ring are booked in the order of the
		 * bookings, so a block a slice ahead took them from the
		 * blocks behind it (bfs's modeled time followed the interval,
		 * 336.8 us at 250 cycles, 526.8 at 4000).
		 */
		until = plus(other, h->q);
		if (second < until)
			until = second;
		if (h->end < until)
			until = h->end;
		if (at_port)
			second = r->sm->port;
		if (other < second)
			second = other;
		slot_enter(e);
		sm->yield_at = until > sm->now ? until : sm->now + 1;
		sm->wait_slack = at_port ? 0 : UINT64_MAX;
		/* at the port, its clock is the port's: block_at moves with it */
		sm->block_at = plus(at_port ? other : second, h->q);
		sm->block_slack = at_port && second != other ? h->q : UINT64_MAX;
		return e;
	}
	return NULL;
}

/* @x, its SM's first, has given way or ended: its new place there. */
static void put_back(struct ng_slot *x)
{
	struct ng_sm_run *r = x->q;
	uint64_t bit = 1ULL << (x - r->first);

	slot_leave(x);
	if (x->done)
		check_stack(x);
	if (r->ready & bit) {
		if (!x->done && x->now > r->sm->port) {
			r->ready &= ~bit;
			push(r->heap, &r->n, x->now, x->key, x);
		} else if (x->done) {
			r->ready &= ~bit;
		}
		return;
	}
	/* from the heap's root */
	if (x->done || x->now <= r->sm->port) {
		pop(r->heap, &r->n);
		if (!x->done)
			r->ready |= bit;
		return;
	}
	sift_down(r->heap, r->n, x->now, x->key);
}

static void sm_yield(struct ng_sm *sm)
{
	struct ng_slot *x = sm->host, *e;

	put_back(x);
	e = pick(x->q->run);
	if (e != x)
		ng_coro_switch(&x->co, e ? &e->co : x->q->sched);
}

void ng_slot_wait_block(struct ng_sm *sm)
{
	struct ng_slot *x = sm->host;

	x->idle = true;
	sm_yield(sm);
	x->idle = false;
}

static void slot_main(void *arg)
{
	struct ng_slot *x = arg, *e;

	x->idle = false;
	ng_run_sm(x->sys, x->q->sm);
	x->done = true;
	put_back(x);
	e = pick(x->q->run);
	ng_coro_exit(&x->co, e ? &e->co : x->q->sched);
}

ng_ticks ng_slots_run_gpu(struct ng_gpu_run *h, ng_ticks end, ng_ticks q,
			  struct ng_coro *sched)
{
	struct ng_slot *e;

	h->end = end;
	h->q = q;
	e = pick(h);
	if (e)
		ng_coro_switch(sched, &e->co);
	/* pick() gave up on a fresh root: every key is its SM's clock */
	return h->n ? h->heap[0].now : UINT64_MAX;
}

/*
 * GPU @g's slots for this kernel, clocks at zero, in the GPU's order: the
 * first slot of every SM, then the second, ..., as a GPU's block scheduler
 * fills its SMs (a grid smaller than a wave spreads over the SMs). Keys in
 * that order make sorted arrays, which are heaps.
 */
void ng_slots_arm_gpu(struct ng_system *sys, unsigned int g,
		      struct ng_coro *sched)
{
	struct ng_gpu_run *h = &sys->run[g];
	const unsigned int spg = sys->cfg.sms;
	const struct ng_sched *q = &sys->sched;
	uint64_t want = (uint64_t)spg * sys->resident;

	/*
	 * A slot with no block to take would only start and end: only as
	 * many as the GPU has blocks are armed, the first in the GPU's order
	 * (unless blocks may be stolen from other GPUs' queues).
	 */
	if (!q->steal && q->q[g].end - q->q[g].begin < want)
		want = q->q[g].end - q->q[g].begin;
	h->n = 0;
	h->cur = NULL;
	for (unsigned int s = 0; s < spg; s++) {
		struct ng_sm_run *r = &sys->sm_run[g * spg + s];

		r->n = 0;
		r->ready = 0;
		r->run = h;
		r->sched = sched;
		for (unsigned int k = 0; k < sys->resident; k++) {
			struct ng_slot *x = &sys->slots[(g * spg + s) *
							sys->nslots + k];

			x->now = 0;
			x->done_max = 0;
			if ((uint64_t)k * spg + s >= want)
				continue;
			x->block = 0;
			x->cu = 0;
			x->done = false;
			x->idle = true;
			x->key = k * spg + s;
			/* a slot's stack is touched only once it holds blocks */
			if (!x->co.stack)
				ng_coro_init_at(&x->co, slot_stack(sys, x),
						NG_SLOT_STACK);
			ng_coro_start(&x->co, slot_main, x);
			r->heap[r->n++] = (struct ng_heap_ent){
				.now = 0, .key = x->key, .x = x };
		}
		if (r->n)
			h->heap[h->n++] = (struct ng_heap_ent){
				.now = 0, .key = s, .x = r };
	}
}

/* The kernel's end: an SM's clock and completions are its slots' latest. */
void ng_slots_fold_gpu(struct ng_system *sys, unsigned int g)
{
	const unsigned int spg = sys->cfg.sms;

	for (unsigned int s = 0; s < spg; s++) {
		struct ng_sm *sm = sys->sms[g * spg + s];
		struct ng_slot *x = &sys->slots[(g * spg + s) * sys->nslots];

		sm->now = 0;
		sm->done_max = 0;
		for (unsigned int k = 0; k < sys->resident; k++) {
			if (x[k].now > sm->now)
				sm->now = x[k].now;
			if (x[k].done_max > sm->done_max)
				sm->done_max = x[k].done_max;
		}
		sm->linebuf = sm->own_linebuf;
		sm->shared = NULL;
	}
}

/*
 * A slot touches the top of its stack, its canary and what its block uses
 * of its shared memory: a few 4 KB pages. Where transparent huge pages are
 * on for every mapping (a kernel built with THP "always"), each touch
 * would take 2 MB: thousands of slots ran a 2 GB VM out of memory.
 */
static void no_huge_pages(void *p, size_t len)
{
#ifdef MADV_NOHUGEPAGE
	(void)madvise(p, len, MADV_NOHUGEPAGE);
#else
	(void)p;
	(void)len;
#endif
}

/*
 * Every SM's block slots: a coroutine each, and shared memory for the block
 * it holds (mapped, not touched: a page costs only when a block uses it).
 */
int ng_slots_create(struct ng_system *sys)
{
	size_t n = (size_t)sys->nsm * sys->nslots;
	size_t sh = (sys->cfg.shared_bytes + 63) & ~(size_t)63;
	const unsigned int spg = sys->cfg.sms;

	sys->slots = aligned_alloc(64, n * sizeof(*sys->slots));
	sys->sm_run = calloc(sys->nsm, sizeof(*sys->sm_run));
	sys->sm_heap = calloc(n, sizeof(*sys->sm_heap));
	if (!sys->slots || !sys->sm_run || !sys->sm_heap)
		return -ENOMEM;
	for (unsigned int i = 0; i < sys->nsm; i++) {
		sys->sm_run[i].heap = &sys->sm_heap[(size_t)i * sys->nslots];
		sys->sm_run[i].first = &sys->slots[(size_t)i * sys->nslots];
	}
	memset(sys->slots, 0, n * sizeof(*sys->slots));
	sys->shared_size = n * (sh ? sh : 64);
	sys->shared = mmap(NULL, sys->shared_size, PROT_READ | PROT_WRITE,
			   MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE, -1, 0);
	if (sys->shared == MAP_FAILED) {
		sys->shared = NULL;
		return -ENOMEM;
	}
	no_huge_pages(sys->shared, sys->shared_size);
	/* a guard page below the lowest stack, the canaries above it */
	sys->page = (size_t)sysconf(_SC_PAGESIZE);
	sys->stacks = mmap(NULL, n * NG_SLOT_STACK + sys->page,
			   PROT_READ | PROT_WRITE,
			   MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE | MAP_STACK,
			   -1, 0);
	if (sys->stacks == MAP_FAILED) {
		sys->stacks = NULL;
		return -ENOMEM;
	}
	if (mprotect(sys->stacks, sys->page, PROT_NONE)) {
		munmap(sys->stacks, n * NG_SLOT_STACK + sys->page);
		sys->stacks = NULL;
		return -ENOMEM;
	}
	sys->stacks = (char *)sys->stacks + sys->page;
	no_huge_pages(sys->stacks, n * NG_SLOT_STACK);
	for (size_t i = 0; i < n; i++) {
		struct ng_slot *x = &sys->slots[i];

		x->sys = sys;
		x->q = &sys->sm_run[i / sys->nslots];
		x->q->sm = sys->sms[i / sys->nslots];
		x->q->sm->host = x;
		x->q->sm->yield = sm_yield;
		x->shared = (char *)sys->shared + i * (sh ? sh : 64);
	}
	for (unsigned int g = 0; g < sys->cfg.gpus; g++) {
		sys->run[g].heap = calloc(spg, sizeof(*sys->run[g].heap));
		if (!sys->run[g].heap)
			return -ENOMEM;
	}
	return 0;
}

void ng_slots_destroy(struct ng_system *sys)
{
	size_t n = (size_t)sys->nsm * sys->nslots;

	for (size_t i = 0; sys->slots && i < n; i++)
		ng_coro_fini(&sys->slots[i].co);
	free(sys->slots);
	sys->slots = NULL;
	if (sys->stacks)
		munmap((char *)sys->stacks - sys->page, n * NG_SLOT_STACK + sys->page);
	sys->stacks = NULL;
	free(sys->sm_run);
	sys->sm_run = NULL;
	free(sys->sm_heap);
	sys->sm_heap = NULL;
	for (unsigned int g = 0; g < NG_MAX_GPUS; g++) {
		free(sys->run[g].heap);
		sys->run[g].heap = NULL;
	}
	if (sys->shared)
		munmap(sys->shared, sys->shared_size);
	sys->shared = NULL;
}
