/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Accesses by some of a warp's lanes (private to lib/workloads): the
 * lanes of a 1-D grid's warp that fall inside the data, a range of lanes
 * loading or storing contiguous floats, one lane alone, and a load every
 * lane shares (a broadcast). Each goes through the public warp API, so
 * the model sees what a kernel with a bound check or a per-lane branch
 * makes it see.
 */
#ifndef NGEMU_LIB_WL_LANES_H
#define NGEMU_LIB_WL_LANES_H

#include <stdint.h>

#include "ngemu/runtime/kernel.h"

/* Lanes of warp @w inside [0, n) for a 1-D grid of @block threads. */
static inline unsigned int wlc_lanes(struct ng_warp *w, uint64_t n,
				     unsigned int block, uint64_t *i0)
{
	uint64_t first = w->b->id * block + w->tid0;

	*i0 = first;
	if (first >= n)
		return 0;
	if (n - first < w->nlanes) {
		w->nlanes = (unsigned int)(n - first);
		w->active = (1u << w->nlanes) - 1;
	}
	return w->nlanes;
}

/*
 * Lanes [lo, hi) of @w load a[i0 + lane] (float): the whole warp with the
 * zero-copy form, else a narrower warp (the other lanes inactive, as a
 * kernel's bound check makes them); the data is at buf[lane] then.
 */
static inline const float *wl_ld_lanes(struct ng_warp *w, const float *a,
				       int64_t i0, unsigned int lo,
				       unsigned int hi, float *buf)
{
	struct ng_warp t = *w;

	if (lo == 0 && hi == w->nlanes)
		return ng_ld_contig_ref(w, a + i0, 4, buf);
	t.nlanes = hi - lo;
	t.active = (1u << t.nlanes) - 1;
	ng_ld_contig(&t, a + i0 + lo, 4, buf + lo);
	if (t.ready > w->ready)
		w->ready = t.ready;
	return buf;
}

/* Lanes [lo, hi) of @w store buf[lane] at a[i0 + lane]. */
static inline void wl_st_lanes(struct ng_warp *w, float *a, uint64_t i0,
			       unsigned int lo, unsigned int hi,
			       const float *buf)
{
	struct ng_warp t = *w;

	t.nlanes = hi - lo;
	t.active = t.nlanes == NG_WARP ? ~0u : (1u << t.nlanes) - 1;
	ng_st_contig(&t, a + i0 + lo, 4, buf + lo);
	if (t.ready > w->ready)
		w->ready = t.ready;
}

/*
 * Every active lane of @w loads the float at @p (A[i][k] in a matrix
 * product). Coalesced, that is one request for one word of one line:
 * made here as a one-lane access, the same request for the model at a
 * fraction of the cost of coalescing 32 equal addresses (the lanes
 * counter counts one lane).
 */
static inline float wl_bcast(struct ng_warp *w, const float *p)
{
	struct ng_warp one = *w;
	const float *v;
	float buf;

	one.nlanes = 1;
	one.active = 1;
	v = ng_ld_contig_ref(&one, p, 4, &buf);
	w->ready = one.ready;
	return *v;
}

/* Lane @lane of @w alone loads the float at @a. */
static inline float wl_ld1(struct ng_warp *w, unsigned int lane, const float *a)
{
	uintptr_t addr[NG_WARP] = { 0 };
	float buf[NG_WARP] = { 0 };
	struct ng_warp t = *w;

	addr[lane] = (uintptr_t)a;
	t.active = 1u << lane;
	ng_ld(&t, addr, 4, buf);
	if (t.ready > w->ready)
		w->ready = t.ready;
	return buf[lane];
}

/* Lane @lane of @w alone stores @v at @a. */
static inline void wl_st1(struct ng_warp *w, unsigned int lane, float *a,
			  float v)
{
	uintptr_t addr[NG_WARP] = { 0 };
	float buf[NG_WARP] = { 0 };
	struct ng_warp t = *w;

	addr[lane] = (uintptr_t)a;
	buf[lane] = v;
	t.active = 1u << lane;
	ng_st(&t, addr, 4, buf);
}

#endif /* NGEMU_LIB_WL_LANES_H */
