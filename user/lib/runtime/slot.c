// SPDX-License-Identifier: GPL-2.0
/*
 * Resident block slots: an SM holds blocks-per-sm blocks at once, each in
 * a slot with a coroutine of its own, and a GPU's slots run in the order
 * of their clocks (a heap), each at most a slice ahead of the next, so
 * that one block's wait is hidden by the others' work as on a GPU (see
 * Documentation/runtime.rst). pool.c steps the GPUs through intervals.
 */
#include <errno.h>
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
 */
struct ng_slot {
	struct ng_coro co;
	struct ng_coro *sched;		/* its host thread's own context */
	struct ng_system *sys;
	struct ng_sm *sm;
	struct ng_gpu_run *run;		/* its GPU's schedule */
	ng_ticks now, done_max;
	uint64_t block;
	unsigned int cu;
	unsigned int key;		/* the GPU's order: slot-major */
	bool done;
	void *shared;			/* its block's shared memory */
	_Alignas(64) unsigned char linebuf[NG_MAX_LINE];
};

/* Earlier clock first; the GPU's slot order breaks ties. */
static bool before(const struct ng_heap_ent *a, const struct ng_heap_ent *b)
{
	return a->now < b->now || (a->now == b->now && a->key < b->key);
}

/* The root's clock has grown to @now: its place again. */
static void sift_down(struct ng_gpu_run *h, ng_ticks now)
{
	struct ng_heap_ent x = h->heap[0];
	unsigned int i = 0;

	x.now = now;
	for (;;) {
		unsigned int c = 2 * i + 1;

		if (c >= h->n)
			break;
		if (c + 1 < h->n && before(&h->heap[c + 1], &h->heap[c]))
			c++;
		if (!before(&h->heap[c], &x))
			break;
		h->heap[i] = h->heap[c];
		i = c;
	}
	h->heap[i] = x;
}

/* The clock of the earliest slot after the first (UINT64_MAX: none). */
static ng_ticks second_clock(const struct ng_gpu_run *h)
{
	ng_ticks t = UINT64_MAX;

	if (h->n > 1)
		t = h->heap[1].now;
	if (h->n > 2 && h->heap[2].now < t)
		t = h->heap[2].now;
	return t;
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
		x->sm->id, NG_SLOT_STACK >> 10);
	abort();
}

static void *slot_stack(struct ng_system *sys, const struct ng_slot *x)
{
	return (char *)sys->stacks + (size_t)(x - sys->slots) * NG_SLOT_STACK;
}

/* Make @x the block running on its SM; then take back what it did. */
static void slot_enter(struct ng_slot *x)
{
	struct ng_sm *sm = x->sm;

	ng_sm_enter(sm, x->now, x->done_max);
	sm->host = x;
	sm->cu = x->cu;
	sm->block = x->block;
	sm->shared = x->shared;
	sm->linebuf = x->linebuf;
}

static void slot_leave(struct ng_slot *x)
{
	struct ng_sm *sm = x->sm;

	x->now = sm->now;
	x->done_max = sm->done_max;
	x->cu = sm->cu;
	x->block = sm->block;
}

/*
 * A GPU's slots run to the interval's end h->end: the slot with the
 * earliest clock runs until it is a slice ahead of the next earliest (it
 * gives way at its next model call), and gives way before taking a block
 * while another is more than a slice behind it, so that the GPU's blocks
 * go to its slots in the order of their clocks (within a slice: a slice's
 * worth of work in a row keeps each slot's accesses streaming on the
 * host). A slot whose SM's port is busy past its clock cannot issue before
 * the port is free: it takes the port's time first and finds its place
 * again. Nothing here depends on other GPUs, so a GPU runs the same on any
 * thread.
 *
 * A slot that gives way picks the next one and switches to it directly;
 * only at the interval's end does it go back to its thread's context.
 */

/* The slot to run next, entered on its SM; NULL: the interval is done. */
static struct ng_slot *pick(struct ng_gpu_run *h)
{
	while (h->n) {
		struct ng_slot *e = h->heap[0].x;
		struct ng_sm *sm = e->sm;
		ng_ticks second, until;

		if (sm->port > e->now) {
			e->now = sm->port;
			sift_down(h, e->now);
			continue;
		}
		if (e->now >= h->end)
			return NULL;
		second = second_clock(h);
		until = second < h->end - h->q ? second + h->q : h->end;
		slot_enter(e);
		sm->yield_at = until > sm->now ? until : sm->now + 1;
		sm->block_at = second + h->q;
		return e;
	}
	return NULL;
}

/* @x, the heap's first, has given way or ended: its new place. */
static void put_back(struct ng_gpu_run *h, struct ng_slot *x)
{
	slot_leave(x);
	if (x->done) {
		check_stack(x);
		h->heap[0] = h->heap[--h->n];
		if (h->n)
			sift_down(h, h->heap[0].x->now);
		return;
	}
	sift_down(h, x->now);
}

static void sm_yield(struct ng_sm *sm)
{
	struct ng_slot *x = sm->host, *e;

	put_back(x->run, x);
	e = pick(x->run);
	if (e != x)
		ng_coro_switch(&x->co, e ? &e->co : x->sched);
}

static void slot_main(void *arg)
{
	struct ng_slot *x = arg, *e;

	ng_run_sm(x->sys, x->sm);
	x->done = true;
	put_back(x->run, x);
	e = pick(x->run);
	ng_coro_exit(&x->co, e ? &e->co : x->sched);
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
	return h->n ? h->heap[0].now : UINT64_MAX;
}

/*
 * GPU @g's slots for this kernel, clocks at zero, in the GPU's order: the
 * first slot of every SM, then the second, ..., as a GPU's block scheduler
 * fills its SMs (a grid smaller than a wave spreads over the SMs).
 */
void ng_slots_arm_gpu(struct ng_system *sys, unsigned int g,
		      struct ng_coro *sched)
{
	struct ng_gpu_run *h = &sys->run[g];
	const unsigned int spg = sys->cfg.sms;

	h->n = 0;
	for (unsigned int k = 0; k < sys->resident; k++)
		for (unsigned int s = 0; s < spg; s++) {
			struct ng_slot *x = &sys->slots[(g * spg + s) *
							sys->nslots + k];

			x->now = 0;
			x->done_max = 0;
			x->block = 0;
			x->cu = 0;
			x->done = false;
			x->run = h;
			x->sched = sched;
			x->key = h->n;
			h->heap[h->n].now = 0;
			h->heap[h->n].key = x->key;
			/* a slot's stack is touched only once it holds blocks */
			if (!x->co.stack)
				ng_coro_init_at(&x->co, slot_stack(sys, x),
						NG_SLOT_STACK);
			ng_coro_start(&x->co, slot_main, x);
			h->heap[h->n++].x = x;
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
	if (!sys->slots)
		return -ENOMEM;
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
		x->sm = sys->sms[i / sys->nslots];
		x->sm->host = x;
		x->sm->yield = sm_yield;
		x->shared = (char *)sys->shared + i * (sh ? sh : 64);
	}
	for (unsigned int g = 0; g < sys->cfg.gpus; g++) {
		sys->run[g].heap = calloc((size_t)spg * sys->nslots,
					  sizeof(*sys->run[g].heap));
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
	for (unsigned int g = 0; g < NG_MAX_GPUS; g++) {
		free(sys->run[g].heap);
		sys->run[g].heap = NULL;
	}
	if (sys->shared)
		munmap(sys->shared, sys->shared_size);
	sys->shared = NULL;
}
