/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The interval barrier of the worker pool (private to libngemu): the host
 * threads that step SMs meet at the end of every interval of modeled time
 * and learn the earliest clock among all their SMs, which says where the
 * next interval starts (idle stretches are skipped). Waiters spin briefly,
 * then sleep on a futex, so that a machine with fewer CPUs than threads
 * does not burn its time spinning.
 */
#ifndef NGEMU_LIB_BARRIER_H
#define NGEMU_LIB_BARRIER_H

#include <stdatomic.h>
#include <stdint.h>

struct ng_ibarrier {
	_Atomic uint32_t gen;		/* generation; the futex word */
	_Atomic uint32_t arrived;
	_Atomic uint32_t sleepers;
	unsigned int n;
	_Atomic uint64_t min[2];	/* the reduction, by generation parity */
};

void ng_ibarrier_init(struct ng_ibarrier *b, unsigned int n);
/* Wait for all n threads; returns the least @mine among them. */
uint64_t ng_ibarrier_min(struct ng_ibarrier *b, uint64_t mine);

#endif /* NGEMU_LIB_BARRIER_H */
