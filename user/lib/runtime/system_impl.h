/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The emulated system's inside, shared by system.c (creation, counters),
 * pool.c (the worker threads) and launch.c (kernels and their blocks).
 * Private to libngemu.
 */
#ifndef NGEMU_LIB_SYSTEM_IMPL_H
#define NGEMU_LIB_SYSTEM_IMPL_H

#include <pthread.h>
#include <stdbool.h>

#include "ngemu/model/model.h"
#include "ngemu/runtime/kernel.h"
#include "ngemu/runtime/sched.h"
#include "ngemu/runtime/system.h"

struct ng_system {
	struct ng_config cfg;
	struct ng_space space;
	struct ng_model model;
	struct ng_sched sched;
	unsigned int nsm;
	struct ng_sm **sms;
	int node[NG_MAX_GPUS];
	unsigned int nnodes;
	/* workers (pool.c); none in deterministic mode */
	unsigned int nthreads;
	pthread_t *threads;
	pthread_barrier_t start, done;
	const struct ng_launch *cur;
	bool quit;
};

/* Start one worker thread per SM (pool.c): 0, or -errno with a message. */
int ng_pool_start(struct ng_system *sys, char *err, size_t errlen);
void ng_pool_stop(struct ng_system *sys);
/* Run sys->cur on every SM until the GPUs' block queues are empty. */
void ng_pool_run(struct ng_system *sys);

/* Run the blocks the scheduler gives @sm until there are none (launch.c). */
void ng_run_sm(struct ng_system *sys, struct ng_sm *sm);
/* Run one block on @sm; false when its GPU has none left. */
bool ng_run_one_block(struct ng_system *sys, struct ng_sm *sm);

double ng_now_s(void);

#endif /* NGEMU_LIB_SYSTEM_IMPL_H */
