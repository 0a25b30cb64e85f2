// SPDX-License-Identifier: GPL-2.0
/* The native side of emulated / native ratios (see native.h). */
#include <errno.h>
#include <sched.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "workloads/native.h"

struct member {
	struct ng_native_team *t;
	unsigned int part;
};

static double now_s(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

static void *member_main(void *p)
{
	struct member *m = p;
	struct ng_native_team *t = m->t;
	int gate;

	pthread_mutex_lock(&t->lock);
	while (!t->gate)
		pthread_cond_wait(&t->cond, &t->lock);
	gate = t->gate;
	pthread_mutex_unlock(&t->lock);
	while (gate == 1) {
		pthread_barrier_wait(&t->go);
		if (t->quit)
			break;
		t->fn(t->arg, m->part, t->n);
		pthread_barrier_wait(&t->done);
	}
	free(m);
	return NULL;
}

int ng_native_start(struct ng_native_team *t)
{
	cpu_set_t mine;
	unsigned int started = 1;

	memset(t, 0, sizeof(*t));
	t->best_s = -1;
	t->n = 1;
	if (!sched_getaffinity(0, sizeof(mine), &mine) && CPU_COUNT(&mine) > 1)
		t->n = (unsigned int)CPU_COUNT(&mine);
	t->th = calloc(t->n, sizeof(*t->th));
	if (!t->th)
		return -ENOMEM;
	pthread_mutex_init(&t->lock, NULL);
	pthread_cond_init(&t->cond, NULL);
	for (; started < t->n; started++) {
		struct member *m = malloc(sizeof(*m));

		if (!m)
			break;
		m->t = t;
		m->part = started;
		if (pthread_create(&t->th[started], NULL, member_main, m)) {
			free(m);
			break;
		}
	}
	if (started < t->n) {
		/* those started leave at the gate; the caller runs alone */
		pthread_mutex_lock(&t->lock);
		t->gate = 2;
		pthread_cond_broadcast(&t->cond);
		pthread_mutex_unlock(&t->lock);
		for (unsigned int i = 1; i < started; i++)
			pthread_join(t->th[i], NULL);
		t->n = 1;
	}
	pthread_barrier_init(&t->go, NULL, t->n);
	pthread_barrier_init(&t->done, NULL, t->n);
	pthread_mutex_lock(&t->lock);
	t->gate = 1;
	pthread_cond_broadcast(&t->cond);
	pthread_mutex_unlock(&t->lock);
	return 0;
}

void ng_native_run(struct ng_native_team *t, ng_native_fn fn, void *arg,
		   unsigned int reps)
{
	t->fn = fn;
	t->arg = arg;
	for (unsigned int r = 0; r < reps; r++) {
		double t0 = now_s(), d;

		pthread_barrier_wait(&t->go);
		fn(arg, 0, t->n);
		pthread_barrier_wait(&t->done);
		d = now_s() - t0;
		if (t->best_s < 0 || d < t->best_s)
			t->best_s = d;
	}
}

void ng_native_stop(struct ng_native_team *t)
{
	if (!t->th)
		return;
	if (t->n > 1) {
		t->quit = true;
		pthread_barrier_wait(&t->go);
		for (unsigned int i = 1; i < t->n; i++)
			pthread_join(t->th[i], NULL);
	}
	pthread_barrier_destroy(&t->go);
	pthread_barrier_destroy(&t->done);
	pthread_mutex_destroy(&t->lock);
	pthread_cond_destroy(&t->cond);
	free(t->th);
	t->th = NULL;
}
