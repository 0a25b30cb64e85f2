/* SPDX-License-Identifier: GPL-2.0 */
/*
 * What the PolyBench/GPU workloads share (private to lib/workloads): their
 * square matrices' side from --size, 2-D launches (PolyBench/GPU's blocks
 * are 32 x 8 threads: a warp is 32 consecutive columns of one row), and
 * the matrix product kernel of 2mm and 3mm (matmul.c).
 */
#ifndef NGEMU_LIB_WL_POLYBENCH_H
#define NGEMU_LIB_WL_POLYBENCH_H

#include <math.h>

#include "workloads/wl.h"

/* PolyBench/GPU's DIM_THREAD_BLOCK_X and _Y */
#define PB_BX		32
#define PB_BY		8
#define PB_WARPS	(PB_BX * PB_BY / NG_WARP)

/*
 * The side of the square float matrices of @size bytes each: the largest
 * multiple of PB_BX whose square fits (so every warp is a whole row
 * segment); -EINVAL with a message when not even one fits.
 */
static inline int pb_side(uint64_t size, const char *name, char *err,
			  size_t errlen, uint64_t *n)
{
	*n = wl_isqrt(size / 4) / PB_BX * PB_BX;
	if (*n)
		return 0;
	ng_seterr(err, errlen,
		  "%s: size must hold a %u x %u matrix of floats (%u bytes) at least",
		  name, PB_BX, PB_BX, PB_BX * PB_BX * 4);
	return -EINVAL;
}

/* Run a kernel on a @gx x @gy grid of @bx x @by blocks; @timed: counted. */
static inline int pb_launch(struct wlc *c, const char *name, ng_kernel_fn fn,
			    void *args, unsigned int gx, unsigned int gy,
			    unsigned int bx, unsigned int by, bool timed)
{
	return wlc_launch_2d(c, name, fn, args, (struct ng_dim){ gx, gy },
			     (struct ng_dim){ bx, by }, -1, timed);
}

/*
 * The inputs' values: PolyBench's i * (j + c) / N, wrapped to [0, 1) so
 * that sums stay far from overflow at any size and iteration count (+ 1
 * and a prime modulus: no zero rows, which would hide a stale read).
 */
static inline float pb_val(uint64_t i, uint64_t j, unsigned int c)
{
	return (float)((i * (j + c) + 1) % 97) / 97.0f;
}

/*
 * out = (@accum ? beta * out : 0) + sum over k of
 *       (@scale ? alpha * a[i][k] : a[i][k]) * b[k][j]
 * for n x n matrices, k in ascending order: PolyBench/GPU's mm2_kernel1
 * (scale), mm2_kernel2 (accum) and mm3_kernel1-3 (neither).
 */
struct pb_mm {
	const float *a, *b;
	float *out;
	uint64_t n;
	float alpha, beta;
	bool scale, accum;
};

/* Launch the product kernel, timed: one thread per element of out. */
int pb_mm_launch(struct wlc *c, const char *name, struct pb_mm *m);
/* The CPU reference of a pb_mm, same arithmetic in the same order. */
void pb_mm_ref(const struct pb_mm *m);
/* Logical bytes one pb_mm kernel moves (its threads' loads and stores). */
uint64_t pb_mm_bytes(const struct pb_mm *m);

/*
 * Init kernel of n x n matrices over the same 2-D grid as the products,
 * so that first touch homes each row band where its blocks run: dst[a]
 * gets pb_val(i, j, c[a]), or zeros for c[a] < 0.
 */
#define PB_FILL_MAX	8
struct pb_fill {
	float *dst[PB_FILL_MAX];
	int c[PB_FILL_MAX];
	unsigned int narrays;
	uint64_t n;
};

int pb_fill_launch(struct wlc *c, struct pb_fill *f);
/* The same values on the CPU, for the reference's inputs. */
void pb_fill_ref(float *dst, uint64_t n, int c);

#endif /* NGEMU_LIB_WL_POLYBENCH_H */
