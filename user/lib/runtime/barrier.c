// SPDX-License-Identifier: GPL-2.0
/* The pool's interval barrier with a minimum reduction (see barrier.h). */
#include <limits.h>
#include <linux/futex.h>
#include <sys/syscall.h>
#include <unistd.h>

#include "runtime/barrier.h"

/* ~ a few microseconds of spinning before sleeping */
#define SPINS	4000

static void futex_wait(_Atomic uint32_t *w, uint32_t val)
{
	syscall(SYS_futex, (uint32_t *)w, FUTEX_WAIT_PRIVATE, val, NULL, NULL, 0);
}

static void futex_wake(_Atomic uint32_t *w)
{
	syscall(SYS_futex, (uint32_t *)w, FUTEX_WAKE_PRIVATE, INT_MAX, NULL, NULL, 0);
}

static inline void cpu_relax(void)
{
#if defined(__x86_64__) || defined(__i386__)
	__builtin_ia32_pause();
#endif
}

void ng_ibarrier_init(struct ng_ibarrier *b, unsigned int n)
{
	atomic_store(&b->gen, 0);
	atomic_store(&b->arrived, 0);
	atomic_store(&b->sleepers, 0);
	atomic_store(&b->min[0], UINT64_MAX);
	atomic_store(&b->min[1], UINT64_MAX);
	b->n = n;
}

uint64_t ng_ibarrier_min(struct ng_ibarrier *b, uint64_t mine)
{
	/* nobody moves the generation on before we arrive */
	uint32_t g = atomic_load_explicit(&b->gen, memory_order_acquire);
	_Atomic uint64_t *slot = &b->min[g & 1];
	uint64_t cur = atomic_load_explicit(slot, memory_order_relaxed);

	while (mine < cur &&
	       !atomic_compare_exchange_weak_explicit(slot, &cur, mine,
						      memory_order_relaxed,
						      memory_order_relaxed))
		;
	if (atomic_fetch_add_explicit(&b->arrived, 1, memory_order_acq_rel) ==
	    b->n - 1) {
		/*
		 * Last in: every thread has read the other slot's result of
		 * the generation before, so it can be reset for the next one.
		 */
		atomic_store_explicit(&b->arrived, 0, memory_order_relaxed);
		atomic_store_explicit(&b->min[(g & 1) ^ 1], UINT64_MAX,
				      memory_order_relaxed);
		atomic_store_explicit(&b->gen, g + 1, memory_order_release);
		if (atomic_load_explicit(&b->sleepers, memory_order_seq_cst))
			futex_wake(&b->gen);
	} else {
		unsigned int spins = 0;

		while (atomic_load_explicit(&b->gen, memory_order_acquire) == g) {
			if (++spins < SPINS) {
				cpu_relax();
				continue;
			}
			atomic_fetch_add_explicit(&b->sleepers, 1,
						  memory_order_seq_cst);
			if (atomic_load_explicit(&b->gen, memory_order_seq_cst) == g)
				futex_wait(&b->gen, g);
			atomic_fetch_sub_explicit(&b->sleepers, 1,
						  memory_order_seq_cst);
		}
	}
	return atomic_load_explicit(slot, memory_order_relaxed);
}
