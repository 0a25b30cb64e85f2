// SPDX-License-Identifier: GPL-2.0
/*
 * The worker pool: emulated SMs as coroutines, stepped through short
 * intervals of modeled time so that what an SM sees of the others (their
 * requests to shared caches and bandwidth, the blocks they take) follows
 * modeled time, not the host's scheduling (bound-weave, as ZSim; see
 * Documentation/runtime.rst):
 *
 *  - Every GPU's SMs belong to one host thread, which runs the SM with the
 *    earliest clock until it is a slice (interval/8) ahead of the next
 *    earliest (it pauses at its next model call), and lets the earliest
 *    SM take the next block. So a GPU's blocks, L2 and RDC see its SMs'
 *    accesses in nearly the order of their clocks, the same on every run.
 *  - Host threads (one per CPU of the GPUs' nodes, at most one per GPU)
 *    meet at the end of every interval (interval cycles, 1000 by default),
 *    so that no SM runs more than one interval ahead of another; within an
 *    interval, accesses of SMs on different threads meet in the host's
 *    order. The interval that follows starts at the earliest clock, so
 *    idle stretches cost nothing.
 *  - Deterministic mode steps every SM on the launching thread in the same
 *    way: the reference a threaded run agrees with.
 */
#include <errno.h>
#include <numa.h>
#include <sched.h>
#include <stdlib.h>
#include <string.h>

#include "runtime/coro.h"
#include "runtime/system_impl.h"
#include "ngemu/util/err.h"

/*
 * Slices per interval: how far a thread's SMs may run ahead of each other.
 * 32 gave the same results as 8 (within 1.2%, randaccess 3.4%) at a fifth more
 * host time, spent switching between SMs' working sets.
 */
#define NG_SLICES	8

struct ng_sm_ctx {
	struct ng_coro co;
	struct ng_coro *sched;		/* its host thread's own context */
	struct ng_system *sys;
	struct ng_sm *sm;
	bool done;
};

struct ng_pool_thread {
	struct ng_system *sys;
	pthread_t th;
	int node;
	unsigned int n;			/* its SMs, whole GPUs, in SM order */
	struct ng_sm_ctx **x;
};

static void sm_yield(struct ng_sm *sm)
{
	struct ng_sm_ctx *x = sm->host;

	ng_coro_switch(&x->co, x->sched);
}

static void sm_main(void *arg)
{
	struct ng_sm_ctx *x = arg;

	ng_run_sm(x->sys, x->sm);
	x->done = true;
	ng_coro_exit(&x->co, x->sched);
}

/*
 * The SM with the earliest clock among those with work left (the first
 * such in SM order), and the clock of the next earliest in *second;
 * NULL when none has work left.
 */
static struct ng_sm_ctx *earliest(struct ng_sm_ctx *const *x, unsigned int n,
				  ng_ticks *second)
{
	struct ng_sm_ctx *best = NULL;

	*second = UINT64_MAX;
	for (unsigned int i = 0; i < n; i++) {
		if (x[i]->done)
			continue;
		if (!best || x[i]->sm->now < best->sm->now) {
			if (best)
				*second = best->sm->now;
			best = x[i];
		} else if (x[i]->sm->now < *second) {
			*second = x[i]->sm->now;
		}
	}
	return best;
}

/*
 * Run one GPU's SMs x[0..k) to @end: the SM with the earliest clock runs
 * until it is a slice ahead of the next earliest, and gives way before
 * taking a block while another is more than a slice behind it, so that
 * the GPU's blocks go to its SMs in the order of their clocks (within a
 * slice: a slice's worth of blocks in a row keeps each SM's accesses
 * streaming on the host). Nothing here depends on other
 * GPUs, so a GPU runs the same on any thread.
 */
static ng_ticks run_gpu(struct ng_sm_ctx *const *x, unsigned int k,
			ng_ticks end, ng_ticks q, struct ng_coro *sched)
{
	struct ng_sm_ctx *e;
	ng_ticks second;

	while ((e = earliest(x, k, &second)) && e->sm->now < end) {
		ng_ticks until = second < end - q ? second + q : end;

		e->sm->yield_at = until > e->sm->now ? until : e->sm->now + 1;
		e->sm->block_at = second + q;
		ng_coro_switch(sched, &e->co);
	}
	return e ? e->sm->now : UINT64_MAX;
}

/* The end of an interval: what GPUs did that others must see (model.h). */
static void sync(struct ng_system *sys, struct ng_sm_ctx *const *x,
		 unsigned int n, struct ng_ibarrier *ib)
{
	const unsigned int spg = sys->cfg.sms;

	for (unsigned int i = 0; i < n; i += spg)
		ng_model_sync(&sys->model, 0, x[i]->sm->gpu);
	if (ng_model_sync_phase1(&sys->model)) {
		if (ib)
			(void)ng_ibarrier_min(ib, 0);
		for (unsigned int i = 0; i < n; i += spg)
			ng_model_sync(&sys->model, 1, x[i]->sm->gpu);
	}
	if (ib)
		(void)ng_ibarrier_min(ib, 0);
	for (unsigned int i = 0; i < n; i++)
		ng_sm_resync(x[i]->sm);
}

/*
 * Run SMs x[0..n) (whole GPUs, in SM order) to the end of the kernel; with
 * @ib, in step with the other threads of the pool. Within an interval the
 * GPUs run one after another: they meet only at its end.
 */
static void step(struct ng_system *sys, struct ng_sm_ctx *const *x,
		 unsigned int n, struct ng_ibarrier *ib)
{
	const unsigned int spg = sys->cfg.sms;
	struct ng_coro sched = { 0 };
	ng_ticks q = sys->interval / NG_SLICES, lo = 0;

	for (unsigned int i = 0; i < n; i++) {
		x[i]->sched = &sched;
		x[i]->done = false;
		ng_coro_start(&x[i]->co, sm_main, x[i]);
	}
	for (;;) {
		ng_ticks end = lo + sys->interval, mine = UINT64_MAX, all;

		for (unsigned int i = 0; i < n; i += spg) {
			ng_ticks t = run_gpu(x + i, spg, end, q, &sched);

			if (t < mine)
				mine = t;
		}
		all = ib ? ng_ibarrier_min(ib, mine) : mine;
		sync(sys, x, n, ib);
		if (all == UINT64_MAX)
			break;
		lo = all / sys->interval * sys->interval;
	}
}

static void *worker(void *p)
{
	struct ng_pool_thread *t = p;
	struct ng_system *sys = t->sys;

	if (numa_available() >= 0)
		numa_run_on_node(t->node);
	for (;;) {
		pthread_barrier_wait(&sys->start);
		if (sys->quit)
			break;
		step(sys, t->x, t->n, &sys->ib);
		pthread_barrier_wait(&sys->done);
	}
	return NULL;
}

/* CPUs this process may run on in @node (at least 1). */
static unsigned int node_cpus(int node)
{
	struct bitmask *bm;
	cpu_set_t mine;
	unsigned int n = 0;

	if (sched_getaffinity(0, sizeof(mine), &mine))
		CPU_ZERO(&mine);
	if (numa_available() < 0)
		return CPU_COUNT(&mine) > 0 ? (unsigned int)CPU_COUNT(&mine) : 1;
	bm = numa_allocate_cpumask();
	if (bm && !numa_node_to_cpus(node, bm))
		for (unsigned int c = 0; c < bm->size && c < CPU_SETSIZE; c++)
			n += numa_bitmask_isbitset(bm, c) && CPU_ISSET(c, &mine);
	if (bm)
		numa_free_cpumask(bm);
	return n ? n : 1;
}

static int by_sm(const void *a, const void *b)
{
	const struct ng_sm_ctx *x = *(struct ng_sm_ctx *const *)a;
	const struct ng_sm_ctx *y = *(struct ng_sm_ctx *const *)b;

	return (x->sm->id > y->sm->id) - (x->sm->id < y->sm->id);
}

/* SM order: a GPU's SMs run in the same order whatever the thread count. */
static void sort_by_sm(struct ng_sm_ctx **x, unsigned int n)
{
	qsort(x, n, sizeof(*x), by_sm);
}

/* Give GPU @g's SMs to thread @t. */
static void take_gpu(struct ng_system *sys, struct ng_pool_thread *t,
		     unsigned int g)
{
	for (unsigned int i = 0; i < sys->cfg.sms; i++)
		t->x[t->n++] = &sys->ctx[g * sys->cfg.sms + i];
}

/*
 * Host threads: per node, one per CPU but no more than the node's GPUs,
 * each taking whole GPUs of its node (as evenly as can be). @want > 0
 * asks for that many instead (at most one per GPU), whatever the CPUs.
 */
static unsigned int plan(struct ng_system *sys, struct ng_pool_thread *t,
			 unsigned int want)
{
	unsigned int nt = 0, ngpus = sys->cfg.gpus;
	bool seen[NG_MAX_GPUS] = { false };

	if (want) {
		if (want > ngpus)
			want = ngpus;
		for (unsigned int i = 0; i < want; i++, nt++) {
			t[nt].sys = sys;
			t[nt].n = 0;
			for (unsigned int g = ngpus * i / want;
			     g < ngpus * (i + 1) / want; g++)
				take_gpu(sys, &t[nt], g);
			t[nt].node = sys->node[ngpus * i / want];
		}
		return nt;
	}
	for (unsigned int g = 0; g < ngpus; g++) {
		unsigned int list[NG_MAX_GPUS], ng = 0, k;
		int node = sys->node[g];

		if (seen[g])
			continue;
		for (unsigned int h = g; h < ngpus; h++)
			if (sys->node[h] == node) {
				list[ng++] = h;
				seen[h] = true;
			}
		k = node_cpus(node);
		if (k > ng)
			k = ng;
		for (unsigned int i = 0; i < k; i++, nt++) {
			t[nt].sys = sys;
			t[nt].node = node;
			t[nt].n = 0;
			for (unsigned int j = ng * i / k; j < ng * (i + 1) / k; j++)
				take_gpu(sys, &t[nt], list[j]);
		}
	}
	for (unsigned int i = 0; i < nt; i++)
		sort_by_sm(t[i].x, t[i].n);
	return nt;
}

static void stop_threads(struct ng_system *sys, unsigned int started)
{
	if (!sys->pt)
		return;
	if (started == sys->nthreads && started) {
		sys->quit = true;
		pthread_barrier_wait(&sys->start);
		for (unsigned int i = 0; i < started; i++)
			pthread_join(sys->pt[i].th, NULL);
	}
	if (sys->nthreads) {
		pthread_barrier_destroy(&sys->start);
		pthread_barrier_destroy(&sys->done);
	}
	for (unsigned int i = 0; i < sys->cfg.gpus; i++)
		free(sys->pt[i].x);
	free(sys->pt);
	sys->pt = NULL;
}

void ng_pool_stop(struct ng_system *sys)
{
	stop_threads(sys, sys->nthreads);
	for (unsigned int i = 0; sys->ctx && i < sys->nsm; i++)
		ng_coro_fini(&sys->ctx[i].co);
	free(sys->ctx);
	free(sys->all);
	sys->ctx = NULL;
	sys->all = NULL;
}

int ng_pool_start(struct ng_system *sys, char *err, size_t errlen)
{
	unsigned int started = 0;

	/* at least one tick a slice */
	sys->interval = (ng_ticks)((double)sys->cfg.interval / sys->cfg.freq_ghz *
				   NG_TICKS_PER_NS);
	if (sys->interval < NG_SLICES)
		sys->interval = NG_SLICES;
	sys->interval -= sys->interval % NG_SLICES;
	sys->ctx = calloc(sys->nsm, sizeof(*sys->ctx));
	if (!sys->ctx)
		goto nomem;
	for (unsigned int i = 0; i < sys->nsm; i++) {
		struct ng_sm_ctx *x = &sys->ctx[i];

		if (ng_coro_init(&x->co, 0))
			goto nomem;
		x->sys = sys;
		x->sm = sys->sms[i];
		x->sm->host = x;
		x->sm->yield = sm_yield;
	}
	sys->all = calloc(sys->nsm, sizeof(*sys->all));
	if (!sys->all)
		goto nomem;
	for (unsigned int i = 0; i < sys->nsm; i++)
		sys->all[i] = &sys->ctx[i];
	if (sys->cfg.deterministic)
		return 0;
	/*
	 * libnuma caches each node's CPU mask on first use, without a lock:
	 * fill the cache here so that workers pinning themselves concurrently
	 * only read it.
	 */
	if (numa_available() >= 0) {
		struct bitmask *bm = numa_allocate_cpumask();

		for (unsigned int g = 0; bm && g < sys->cfg.gpus; g++)
			numa_node_to_cpus(sys->node[g], bm);
		if (bm)
			numa_free_cpumask(bm);
	}
	sys->pt = calloc(sys->cfg.gpus, sizeof(*sys->pt));
	if (!sys->pt)
		goto nomem;
	for (unsigned int i = 0; i < sys->cfg.gpus; i++) {
		sys->pt[i].x = calloc(sys->nsm, sizeof(*sys->pt[i].x));
		if (!sys->pt[i].x)
			goto nomem;
	}
	sys->nthreads = plan(sys, sys->pt, sys->cfg.threads);
	ng_ibarrier_init(&sys->ib, sys->nthreads);
	pthread_barrier_init(&sys->start, NULL, sys->nthreads + 1);
	pthread_barrier_init(&sys->done, NULL, sys->nthreads + 1);
	for (; started < sys->nthreads; started++)
		if (pthread_create(&sys->pt[started].th, NULL, worker,
				   &sys->pt[started]))
			break;
	if (started < sys->nthreads) {
		/* the started ones wait at a barrier that cannot fill */
		ng_seterr(err, errlen, "cannot start %u worker threads",
			  sys->nthreads);
		for (unsigned int i = 0; i < started; i++)
			pthread_cancel(sys->pt[i].th);
		for (unsigned int i = 0; i < started; i++)
			pthread_join(sys->pt[i].th, NULL);
		stop_threads(sys, 0);
		sys->nthreads = 0;
		return -EAGAIN;
	}
	return 0;
nomem:
	ng_seterr(err, errlen, "out of memory for the SMs' stacks");
	return -ENOMEM;
}

void ng_pool_run(struct ng_system *sys)
{
	if (!sys->nthreads) {
		step(sys, sys->all, sys->nsm, NULL);
		return;
	}
	pthread_barrier_wait(&sys->start);
	pthread_barrier_wait(&sys->done);
}
