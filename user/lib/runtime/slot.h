/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Resident block slots (slot.c), private to libngemu: what the worker
 * pool (pool.c) needs of them.
 */
#ifndef NGEMU_LIB_SLOT_H
#define NGEMU_LIB_SLOT_H

#include "runtime/system_impl.h"

struct ng_coro;

/*
 * Every SM's blocks-per-sm slots, with their stacks and shared memory
 * (mapped, touched only as blocks use them). 0 or -ENOMEM.
 */
int ng_slots_create(struct ng_system *sys);
void ng_slots_destroy(struct ng_system *sys);
/*
 * GPU @g's first sys->resident slots of every SM, for a new kernel run
 * from the host thread's context @sched.
 */
void ng_slots_arm_gpu(struct ng_system *sys, unsigned int g,
		      struct ng_coro *sched);
/*
 * Run GPU @h's slots to @end, a slice being @q, from the host thread's
 * context @sched; returns the earliest clock left (UINT64_MAX: none).
 */
ng_ticks ng_slots_run_gpu(struct ng_gpu_run *h, ng_ticks end, ng_ticks q,
			  struct ng_coro *sched);
/*
 * The block on @sm's running slot has ended and the slot is past the time
 * it may take another: it gives way, and runs again only once it is the
 * GPU's earliest, so that blocks go to slots in the order of their clocks
 * and, among equal clocks, in the GPU's slot order (a first wave spreads
 * over the SMs).
 */
void ng_slot_wait_block(struct ng_sm *sm);
/* The kernel's end: an SM's clock and completions are its slots' latest. */
void ng_slots_fold_gpu(struct ng_system *sys, unsigned int g);

#endif /* NGEMU_LIB_SLOT_H */
