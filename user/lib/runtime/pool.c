// SPDX-License-Identifier: GPL-2.0
/*
 * The worker pool: one thread per emulated SM, pinned with libnuma to the
 * CPUs of its GPU's node, each running blocks until its GPU's queue is
 * empty. In deterministic mode there are no workers: the launching thread
 * runs the SMs in turn, one block each, in SM order.
 */
#include <errno.h>
#include <numa.h>
#include <stdlib.h>

#include "runtime/system_impl.h"
#include "ngemu/util/err.h"

struct worker_arg {
	struct ng_system *sys;
	struct ng_sm *sm;
};

static void *worker(void *p)
{
	struct worker_arg *a = p;
	struct ng_system *sys = a->sys;
	struct ng_sm *sm = a->sm;

	free(a);
	if (numa_available() >= 0)
		numa_run_on_node(sys->node[sm->gpu]);
	for (;;) {
		pthread_barrier_wait(&sys->start);
		if (sys->quit)
			break;
		ng_run_sm(sys, sm);
		pthread_barrier_wait(&sys->done);
	}
	return NULL;
}

static void stop_workers(struct ng_system *sys, unsigned int started)
{
	if (!sys->threads)
		return;
	if (started == sys->nthreads) {
		sys->quit = true;
		pthread_barrier_wait(&sys->start);
		for (unsigned int i = 0; i < started; i++)
			pthread_join(sys->threads[i], NULL);
	}
	pthread_barrier_destroy(&sys->start);
	pthread_barrier_destroy(&sys->done);
	free(sys->threads);
	sys->threads = NULL;
}

void ng_pool_stop(struct ng_system *sys)
{
	stop_workers(sys, sys->nthreads);
}

int ng_pool_start(struct ng_system *sys, char *err, size_t errlen)
{
	unsigned int started = 0;

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
	sys->nthreads = sys->nsm;
	sys->threads = calloc(sys->nthreads, sizeof(*sys->threads));
	if (!sys->threads) {
		ng_seterr(err, errlen, "out of memory");
		return -ENOMEM;
	}
	pthread_barrier_init(&sys->start, NULL, sys->nthreads + 1);
	pthread_barrier_init(&sys->done, NULL, sys->nthreads + 1);
	for (; started < sys->nthreads; started++) {
		struct worker_arg *a = malloc(sizeof(*a));

		if (!a)
			break;
		a->sys = sys;
		a->sm = sys->sms[started];
		if (pthread_create(&sys->threads[started], NULL, worker, a)) {
			free(a);
			break;
		}
	}
	if (started < sys->nthreads) {
		/* the started ones wait at a barrier that cannot fill */
		ng_seterr(err, errlen, "cannot start %u worker threads",
			  sys->nthreads);
		for (unsigned int i = 0; i < started; i++)
			pthread_cancel(sys->threads[i]);
		for (unsigned int i = 0; i < started; i++)
			pthread_join(sys->threads[i], NULL);
		stop_workers(sys, 0);
		return -EAGAIN;
	}
	return 0;
}

void ng_pool_run(struct ng_system *sys)
{
	bool any = true;

	if (sys->nthreads) {
		pthread_barrier_wait(&sys->start);
		pthread_barrier_wait(&sys->done);
		return;
	}
	/* deterministic: SMs take turns, one block each, in id order */
	while (any) {
		any = false;
		for (unsigned int i = 0; i < sys->nsm; i++)
			any |= ng_run_one_block(sys, sys->sms[i]);
	}
}
