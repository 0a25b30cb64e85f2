/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The arithmetic workloads share to make their inputs (private to
 * lib/workloads): a square grid's side from a size, and the random stream
 * every workload and graph input draws from its seed, the same on every
 * machine and compiler.
 */
#ifndef NGEMU_LIB_WL_MATH_H
#define NGEMU_LIB_WL_MATH_H

#include <stdint.h>

/* The largest s with s * s <= n: a square grid's side from a size. */
static inline uint64_t wl_isqrt(uint64_t n)
{
	uint64_t s = (uint64_t)__builtin_sqrt((double)n);

	while (s * s > n)
		s--;
	while ((s + 1) * (s + 1) <= n)
		s++;
	return s;
}

/* splitmix64: the random stream of every workload, from the seed. */
static inline uint64_t wlc_hash(uint64_t x)
{
	x += 0x9e3779b97f4a7c15ULL;
	x = (x ^ (x >> 30)) * 0xbf58476d1ce4e5b9ULL;
	x = (x ^ (x >> 27)) * 0x94d049bb133111ebULL;
	return x ^ (x >> 31);
}

#endif /* NGEMU_LIB_WL_MATH_H */
