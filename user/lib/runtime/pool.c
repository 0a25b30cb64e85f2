// SPDX-License-Identifier: GPL-2.0
/*
 * The worker pool: emulated SMs as coroutines, stepped through short
 * intervals of modeled time so that what an SM sees of the others (their
 * requests to shared caches and bandwidth, the blocks they take) follows
 * modeled time, not the host's scheduling (bound-weave, as ZSim; see
 * Documentation/runtime.rst):
 *
 *  - Every GPU's block slots (slot.c) belong to one host thread, which
 *    runs the slot with the earliest clock until it is a slice
 *    (interval/8) ahead of the next earliest (it pauses at its next model
 *    call), and lets the earliest slot take the next block. So a GPU's
 *    blocks, L1s, L2 and RDC see its blocks' accesses in nearly the order
 *    of their clocks, the same on every run.
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
#include "runtime/slot.h"
#include "runtime/system_impl.h"
#include "ngemu/util/err.h"

/*
 * Slices per interval: how far a thread's block slots may run ahead of each
 * other. 32 gave the same results as 8 (within 1.2%, randaccess 3.4%) at a
 * fifth more host time, spent switching between SMs' working sets.
 */
#define NG_SLICES	8

struct ng_pool_thread {
	struct ng_system *sys;
	pthread_t th;
	int node;
	unsigned int ngpu;		/* its GPUs, in order */
	unsigned int gpu[NG_MAX_GPUS];
};

/* The end of an interval: what GPUs did that others must see (pipeline.h). */
static void interval_end(struct ng_system *sys, const unsigned int *gpu,
		 unsigned int ngpu, struct ng_ibarrier *ib)
{
	const unsigned int spg = sys->cfg.sms;

	for (unsigned int i = 0; i < ngpu; i++)
		ng_model_sync(&sys->model, 0, gpu[i]);
	if (ng_model_sync_phase1(&sys->model)) {
		if (ib)
			(void)ng_ibarrier_min(ib, 0);
		for (unsigned int i = 0; i < ngpu; i++)
			ng_model_sync(&sys->model, 1, gpu[i]);
	}
	if (ib)
		(void)ng_ibarrier_min(ib, 0);
	for (unsigned int i = 0; i < ngpu; i++)
		for (unsigned int s = 0; s < spg; s++)
			ng_sm_resync(sys->sms[gpu[i] * spg + s]);
}

/*
 * Run GPUs @gpu[0..ngpu) to the end of the kernel; with @ib, in step with
 * the other threads of the pool. Within an interval the GPUs run one after
 * another: they meet only at its end.
 */
static void step(struct ng_system *sys, const unsigned int *gpu,
		 unsigned int ngpu, struct ng_ibarrier *ib)
{
	struct ng_coro sched = { 0 };
	ng_ticks q = sys->interval / NG_SLICES, lo = 0;

	for (unsigned int i = 0; i < ngpu; i++)
		ng_slots_arm_gpu(sys, gpu[i], &sched);
	for (;;) {
		ng_ticks end = lo + sys->interval, mine = UINT64_MAX, all;

		for (unsigned int i = 0; i < ngpu; i++) {
			ng_ticks t = ng_slots_run_gpu(&sys->run[gpu[i]], end, q, &sched);

			if (t < mine)
				mine = t;
		}
		all = ib ? ng_ibarrier_min(ib, mine) : mine;
		interval_end(sys, gpu, ngpu, ib);
		if (all == UINT64_MAX)
			break;
		lo = all / sys->interval * sys->interval;
	}
	for (unsigned int i = 0; i < ngpu; i++)
		ng_slots_fold_gpu(sys, gpu[i]);
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
		step(sys, t->gpu, t->ngpu, &sys->ib);
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

/*
 * Host threads: per node, one per CPU but no more than the node's GPUs,
 * each taking whole GPUs of its node (as evenly as can be, in GPU order).
 * @want > 0 asks for that many instead (at most one per GPU), whatever the
 * CPUs.
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
			t[nt].ngpu = 0;
			for (unsigned int g = ngpus * i / want;
			     g < ngpus * (i + 1) / want; g++)
				t[nt].gpu[t[nt].ngpu++] = g;
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
			t[nt].ngpu = 0;
			for (unsigned int j = ng * i / k; j < ng * (i + 1) / k; j++)
				t[nt].gpu[t[nt].ngpu++] = list[j];
		}
	}
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
	free(sys->pt);
	sys->pt = NULL;
}

void ng_pool_stop(struct ng_system *sys)
{
	stop_threads(sys, sys->nthreads);
	ng_slots_destroy(sys);
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
	sys->nslots = sys->cfg.blocks_per_sm;
	sys->resident = 1;
	if (ng_slots_create(sys))
		goto nomem;
	for (unsigned int g = 0; g < sys->cfg.gpus; g++)
		sys->all_gpus[g] = g;
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
	ng_seterr(err, errlen,
		  "out of memory for %u SMs x %u block slots (stacks, shared memory)",
		  sys->nsm, sys->nslots);
	return -ENOMEM;
}

void ng_pool_run(struct ng_system *sys, unsigned int resident)
{
	sys->resident = resident < 1 ? 1 : resident > sys->nslots ? sys->nslots
								 : resident;
	if (!sys->nthreads) {
		step(sys, sys->all_gpus, sys->cfg.gpus, NULL);
		return;
	}
	pthread_barrier_wait(&sys->start);
	pthread_barrier_wait(&sys->done);
}
