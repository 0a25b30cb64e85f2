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

#include "runtime/barrier.h"

struct ng_coro;
#include "ngemu/model/model.h"
#include "ngemu/runtime/kernel.h"
#include "ngemu/runtime/sched.h"
#include "ngemu/runtime/system.h"

/*
 * The schedule of a GPU's resident blocks (slot.c): two levels of heaps
 * whose entries carry their clock and order, so that keeping them in order
 * touches only the heaps. Each SM has a heap of its slots that hold blocks
 * this kernel, earliest clock first; the GPU has a heap of its SMs, keyed
 * by their earliest slots.
 */
struct ng_heap_ent {
	uint64_t now;
	unsigned int key;
	void *x;			/* struct ng_slot, or struct ng_sm_run */
};

struct ng_sm_run {
	struct ng_heap_ent *heap;	/* its slots past the port */
	unsigned int n;
	uint64_t ready;			/* its slots at or before the port */
	struct ng_slot *first;		/* its slots (blocks-per-sm <= 64) */
	struct ng_sm *sm;
	struct ng_gpu_run *run;		/* its GPU's */
	struct ng_coro *sched;		/* its host thread's own context */
};

struct ng_gpu_run {
	struct ng_heap_ent *heap;	/* the GPU's SMs (struct ng_sm_run) */
	unsigned int n;
	struct ng_sm_run *cur;		/* the SM running: its key may be old */
	uint64_t end, q;		/* this interval's end, the slice */
};

struct ng_system {
	struct ng_config cfg;
	struct ng_space space;
	struct ng_model model;
	struct ng_sched sched;
	unsigned int nsm;
	struct ng_sm **sms;
	int node[NG_MAX_GPUS];
	unsigned int nnodes;
	/* the worker pool (pool.c); no threads in deterministic mode */
	struct ng_slot *slots;		/* per SM: nslots block slots */
	unsigned int nslots;		/* slots per SM: blocks-per-sm */
	unsigned int resident;		/* of them, those this kernel fills */
	void *shared;			/* the slots' shared memory */
	size_t shared_size;
	void *stacks;			/* the slots' stacks */
	size_t page;
	struct ng_sm_run *sm_run;	/* per SM: its slots' schedule */
	struct ng_heap_ent *sm_heap;	/* their heaps, nslots entries each */
	struct ng_gpu_run run[NG_MAX_GPUS];	/* per GPU: its SMs' schedule */
	unsigned int all_gpus[NG_MAX_GPUS];
	unsigned int nthreads;
	struct ng_pool_thread *pt;
	pthread_barrier_t start, done;
	struct ng_ibarrier ib;
	ng_ticks interval;		/* the bound on skew, in ticks */
	const struct ng_launch *cur;
	bool quit;
};

/*
 * The SMs' coroutines and the host threads that step them (pool.c): 0, or
 * -errno with a message.
 */
int ng_pool_start(struct ng_system *sys, char *err, size_t errlen);
void ng_pool_stop(struct ng_system *sys);
/*
 * Run sys->cur until the GPUs' block queues are empty, with @resident
 * blocks at once on every SM (at most blocks-per-sm).
 */
void ng_pool_run(struct ng_system *sys, unsigned int resident);

/*
 * Run the blocks the scheduler gives a slot of @sm until there are none
 * (launch.c); the slot's state is @sm's while it runs (pool.c).
 */
void ng_run_sm(struct ng_system *sys, struct ng_sm *sm);

double ng_now_s(void);

#endif /* NGEMU_LIB_SYSTEM_IMPL_H */
