/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The native side of an emulated / native ratio (the workloads'): a
 * plain loop on every CPU this process may run on, timed as STREAM times
 * it, the best of several warm runs, so that the ratio never flatters the
 * emulator with a native run slower than the machine allows.
 */
#ifndef NGEMU_WORKLOADS_NATIVE_H
#define NGEMU_WORKLOADS_NATIVE_H

#include <pthread.h>
#include <stdbool.h>

/* Part @part of @nparts of the work, on one of the team's threads. */
typedef void (*ng_native_fn)(void *arg, unsigned int part,
			     unsigned int nparts);

struct ng_native_team {
	unsigned int n;			/* threads, the caller's among them */
	pthread_t *th;
	pthread_barrier_t go, done;
	/* the threads start once all exist: 1 go, 2 leave at once */
	pthread_mutex_t lock;
	pthread_cond_t cond;
	int gate;
	ng_native_fn fn;
	void *arg;
	bool quit;
	double best_s;			/* the fastest run so far */
};

/*
 * A thread per CPU this process may use (the caller is one); with fewer
 * threads than asked when some cannot be started. 0 or -ENOMEM.
 */
int ng_native_start(struct ng_native_team *t);
/* Run fn over the team @reps times; keeps the fastest in t->best_s. */
void ng_native_run(struct ng_native_team *t, ng_native_fn fn, void *arg,
		   unsigned int reps);
void ng_native_stop(struct ng_native_team *t);

#endif /* NGEMU_WORKLOADS_NATIVE_H */
