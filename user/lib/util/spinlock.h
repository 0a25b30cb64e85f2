/* SPDX-License-Identifier: GPL-2.0 */
/* A byte spinlock for the model's per-set state, private to libngemu. */
#ifndef NGEMU_LIB_SPINLOCK_H
#define NGEMU_LIB_SPINLOCK_H

#include <sched.h>
#include <stdatomic.h>

static inline void ng_spin_lock(_Atomic unsigned char *l)
{
	unsigned int spins = 0;

	/*
	 * Workers usually outnumber CPUs: a holder may be preempted, so
	 * spinning gives way to the scheduler soon.
	 */
	while (atomic_exchange_explicit(l, 1, memory_order_acquire))
		while (atomic_load_explicit(l, memory_order_relaxed))
			if (++spins % 64 == 0)
				sched_yield();
}

static inline void ng_spin_unlock(_Atomic unsigned char *l)
{
	atomic_store_explicit(l, 0, memory_order_release);
}

#endif /* NGEMU_LIB_SPINLOCK_H */
