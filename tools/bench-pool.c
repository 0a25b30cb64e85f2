// SPDX-License-Identifier: GPL-2.0
/*
 * What the worker pool's design rests on, measured here (make bench-pool):
 * stepping SMs through intervals of modeled time takes one synchronization
 * per interval. With a thread per SM (16 for the default 4 GPUs x 4 SMs),
 * that is a barrier of 16 threads on however many CPUs there are; with the
 * pool's coroutines, a barrier of one thread per CPU plus a coroutine
 * switch per slice of each SM. The figures are per event, in wall time,
 * medians of several rounds.
 */
#include <pthread.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <time.h>
#include <unistd.h>

#include "runtime/barrier.h"
#include "runtime/coro.h"

#define ROUNDS	5

static double now(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

static int cmp(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;

	return (x > y) - (x < y);
}

static double median(double *v)
{
	qsort(v, ROUNDS, sizeof(*v), cmp);
	return v[ROUNDS / 2];
}

struct bar_arg {
	pthread_barrier_t *pb;
	struct ng_ibarrier *ib;
	unsigned int n;
};

static void *bar_thread(void *p)
{
	struct bar_arg *a = p;

	for (unsigned int i = 0; i < a->n; i++) {
		if (a->pb)
			pthread_barrier_wait(a->pb);
		else
			(void)ng_ibarrier_min(a->ib, i);
	}
	return NULL;
}

/* Seconds per barrier for @threads threads, @n barriers. */
static double barrier_cost(unsigned int threads, unsigned int n, bool pthread)
{
	pthread_barrier_t pb;
	struct ng_ibarrier ib;
	pthread_t th[64];
	struct bar_arg a = { .n = n };
	double t0, t;

	if (pthread) {
		pthread_barrier_init(&pb, NULL, threads);
		a.pb = &pb;
	} else {
		ng_ibarrier_init(&ib, threads);
		a.ib = &ib;
	}
	t0 = now();
	for (unsigned int i = 1; i < threads; i++)
		pthread_create(&th[i], NULL, bar_thread, &a);
	bar_thread(&a);
	for (unsigned int i = 1; i < threads; i++)
		pthread_join(th[i], NULL);
	t = (now() - t0) / n;
	if (pthread)
		pthread_barrier_destroy(&pb);
	return t;
}

static struct ng_coro main_ctx, co;
static unsigned int switches;

static void co_main(void *arg)
{
	(void)arg;
	for (;;) {
		switches++;
		ng_coro_switch(&co, &main_ctx);
	}
}

int main(void)
{
	long cpus = sysconf(_SC_NPROCESSORS_ONLN);
	double v[ROUNDS], pb16, ib, sw;
	const unsigned int n = 2000;

	if (cpus < 1)
		cpus = 1;
	if (cpus > 64)
		cpus = 64;
	for (int r = 0; r < ROUNDS; r++)
		v[r] = barrier_cost(16, n, true);
	pb16 = median(v);
	for (int r = 0; r < ROUNDS; r++)
		v[r] = barrier_cost((unsigned int)cpus, n * 10, false);
	ib = median(v);
	if (ng_coro_init(&co, 0))
		return 1;
	ng_coro_start(&co, co_main, NULL);
	for (int r = 0; r < ROUNDS; r++) {
		double t0 = now();

		for (unsigned int i = 0; i < 100000; i++)
			ng_coro_switch(&main_ctx, &co);
		v[r] = (now() - t0) / 200000;
	}
	sw = median(v);
	printf("one barrier of 16 threads (a thread per SM) on %ld CPUs:   %8.2f us\n",
	       cpus, pb16 * 1e6);
	printf("one interval barrier of %ld threads (a thread per CPU):     %8.2f us\n",
	       cpus, ib * 1e6);
	printf("one coroutine switch:                                    %8.1f ns\n",
	       sw * 1e9);
	printf("per interval of 16 SMs: threads %.1f us; coroutines %.1f us at most\n"
	       "(every SM switched in and out in each of its 8 slices)\n",
	       pb16 * 1e6, (ib + 16 * 8 * 2 * sw) * 1e6);
	return 0;
}
