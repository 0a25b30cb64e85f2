// SPDX-License-Identifier: GPL-2.0
/*
 * c2d: 2-D convolution, after PolyBench/GPU's 2DConvolution
 * (CUDA/2DCONV/2DConvolution.cu, convolution2D_kernel). B = a 3x3 weighted
 * sum of A around each point, with PolyBench's nine coefficients:
 *
 *   B[i][j] = c11 A[i-1][j-1] + c21 A[i-1][j] + c31 A[i-1][j+1]
 *           + c12 A[i][j-1]   + c22 A[i][j]   + c32 A[i][j+1]
 *           + c13 A[i+1][j-1] + c23 A[i+1][j] + c33 A[i+1][j+1]
 *
 * summed in that order, as the CUDA kernel writes it (its CPU version
 * sums column-major; the reference here follows the kernel).
 *
 * Work distribution as PolyBench/GPU's: one thread per output point,
 * blocks of DIM_THREAD_BLOCK_X x DIM_THREAD_BLOCK_Y = 32 x 8 threads,
 * x over columns j and y over rows i, so a warp is 32 consecutive columns
 * of one row and a block 8 rows. The border (rows 0 and NI-1, columns 0
 * and NJ-1) is skipped by the kernel's bound check: those lanes are
 * inactive and B keeps there what the init kernel wrote (0). Each thread
 * makes the kernel's nine loads: per warp, three contiguous runs of 32
 * floats per neighbour row, shifted by one column (misaligned: each spans
 * two or three lines). One kernel, run o->iters times (1 by default, as
 * PolyBench runs it once). Differences: the matrix is square with a side
 * that is a multiple of 32 (PolyBench: 4096 x 4096, whose grid swaps NI
 * and NJ, the same for a square), and A is filled from the workload's
 * random stream instead of rand().
 *
 * Batch scheduling gives each GPU a contiguous band of block rows, so A
 * and B are homed with the rows that use them and only the halo rows of A
 * at band edges are read by two GPUs (read-only sharing).
 */
#include <math.h>
#include <stdlib.h>

#include "workloads/polybench/polybench.h"

#define C2D_BX		32	/* DIM_THREAD_BLOCK_X: columns per block */
#define C2D_BY		8	/* DIM_THREAD_BLOCK_Y: rows per block */
/*
 * A thread's arithmetic: its i and j (4), the four bound checks (5), nine
 * load addresses (9), nine multiplies or multiply-adds (9), the store's
 * address (2).
 */
#define C2D_INSTS	29

/* c11 c21 c31 c12 c22 c32 c13 c23 c33: the kernel's order */
static const float c2d_coef[9] = {
	0.2f, 0.5f, -0.8f, -0.3f, 0.6f, -0.9f, 0.4f, 0.7f, 0.10f,
};

struct c2d_args {
	float *a, *b;
	uint64_t ni, nj;
	uint64_t seed;
};

static float c2d_a0(uint64_t seed, uint64_t i)
{
	/* [0, 1), as PolyBench's rand() / RAND_MAX */
	return (float)(wlc_hash(seed * 0x2d2d + i) >> 40) * (1.0f / 16777216.0f);
}

/* The nine products summed in the kernel's order. */
static float c2d_point(const float v[9])
{
	float s = c2d_coef[0] * v[0];

	for (unsigned int k = 1; k < 9; k++)
		s += c2d_coef[k] * v[k];
	return s;
}

/* Untimed: A's values and B's zeros, written by the blocks that use them. */
static void c2d_init(struct ng_block *b, void *p)
{
	const struct c2d_args *a = p;
	uint64_t j0 = (uint64_t)b->idx.x * C2D_BX;

	for (unsigned int wi = 0; wi < b->nwarps; wi++) {
		float v[NG_WARP], z[NG_WARP] = { 0 };
		uint64_t i0 = ((uint64_t)b->idx.y * C2D_BY + wi) * a->nj + j0;
		struct ng_warp w;

		ng_warp_get(b, wi, &w);
		for (unsigned int l = 0; l < w.nlanes; l++)
			v[l] = c2d_a0(a->seed, i0 + l);
		ng_st_contig(&w, a->a + i0, 4, v);
		ng_st_contig(&w, a->b + i0, 4, z);
	}
}

static void c2d_kernel(struct ng_block *b, void *p)
{
	const struct c2d_args *a = p;
	uint64_t j0 = (uint64_t)b->idx.x * C2D_BX;
	/* the bound check: columns 0 and NJ-1 are not computed */
	unsigned int lo = j0 == 0, hi = j0 + C2D_BX == a->nj ? C2D_BX - 1 : C2D_BX;

	for (unsigned int wi = 0; wi < b->nwarps; wi++) {
		float buf[9][NG_WARP], o[NG_WARP], v[9];
		uint64_t i = (uint64_t)b->idx.y * C2D_BY + wi;
		const float *in[9];
		struct ng_warp w;

		/* rows 0 and NI-1: the whole warp fails the bound check */
		if (i == 0 || i + 1 >= a->ni)
			continue;
		ng_warp_get(b, wi, &w);
		for (unsigned int k = 0; k < 9; k++) {
			int64_t r = (int64_t)i + (int64_t)(k / 3) - 1;
			int64_t dx = (int64_t)(k % 3) - 1;

			in[k] = wl_ld_lanes(&w, a->a, r * (int64_t)a->nj + (int64_t)j0 + dx,
				       lo, hi, buf[k]);
		}
		for (unsigned int l = lo; l < hi; l++) {
			for (unsigned int k = 0; k < 9; k++)
				v[k] = in[k][l];
			o[l] = c2d_point(v);
		}
		ng_warp_compute(&w, C2D_INSTS);
		wl_st_lanes(&w, a->b, i * a->nj + j0, lo, hi, o);
	}
}

static int c2d_launch(struct wlc *c, const char *name, ng_kernel_fn fn,
		      struct c2d_args *a, bool timed)
{
	return wlc_launch_2d(c, name, fn, a,
			     (struct ng_dim){ (unsigned int)(a->nj / C2D_BX),
					      (unsigned int)(a->ni / C2D_BY) },
			     (struct ng_dim){ C2D_BX, C2D_BY }, -1, timed);
}

/* The CPU reference: the same sums in the same order; border 0. */
static void c2d_ref(const float *a, float *b, uint64_t ni, uint64_t nj)
{
	float v[9];

	memset(b, 0, ni * nj * 4);
	for (uint64_t i = 1; i + 1 < ni; i++)
		for (uint64_t j = 1; j + 1 < nj; j++) {
			for (unsigned int k = 0; k < 9; k++)
				v[k] = a[(i + k / 3 - 1) * nj + j + k % 3 - 1];
			b[i * nj + j] = c2d_point(v);
		}
}

static int c2d_run(struct ng_system *sys, const struct ng_bench_opts *o,
		   struct ng_bench_result *r, char *err, size_t errlen)
{
	struct wlc c;
	struct ng_buf ba = { 0 }, bb = { 0 };
	struct c2d_args a = { 0 };
	float *ra = NULL, *rb = NULL;
	uint64_t n, side;
	char ok[160];
	int ret;

	wlc_init(&c, sys, o, r, err, errlen);
	ret = pb_side(o->size, "c2d", err, errlen, &side);
	if (ret)
		return ret;
	a.ni = a.nj = side;
	a.seed = c.cfg->seed;
	n = side * side;
	ret = wlc_alloc(&c, &ba, n * 4, -1);
	if (!ret)
		ret = wlc_alloc(&c, &bb, n * 4, -1);
	if (ret)
		goto out;
	a.a = ba.ptr;
	a.b = bb.ptr;
	r->elements = n;
	/* per point: the nine loads and the store the thread makes */
	r->bytes = 4ULL * 10 * (side - 2) * (side - 2) * o->iters;
	c.total = o->iters;
	ret = c2d_launch(&c, "c2d-init", c2d_init, &a, false);
	if (ret)
		goto out;
	ng_system_reset_counters(sys);
	for (unsigned int it = 0; it < o->iters && !ret; it++)
		ret = c2d_launch(&c, "c2d", c2d_kernel, &a, true);
	if (ret)
		goto out;
	wl_collect(sys, r);
	ra = malloc(n * 4);
	rb = malloc(n * 4);
	if (!ra || !rb) {
		ret = -ENOMEM;
		ng_seterr(err, errlen, "c2d: out of memory");
		goto out;
	}
	for (uint64_t i = 0; i < n; i++)
		ra[i] = c2d_a0(a.seed, i);
	c2d_ref(ra, rb, side, side);
	snprintf(ok, sizeof(ok),
		 "B of the 3x3 convolution of a %llu x %llu matrix matches the CPU reference",
		 (unsigned long long)side, (unsigned long long)side);
	wl_corrupt_f32(o, a.b, n);
	wl_check_f32(r, "B", a.b, rb, n, side, 1e-4f, 1e-5f, ok);
out:
	free(ra);
	free(rb);
	ng_free(c.sp, &bb);
	ng_free(c.sp, &ba);
	return ret;
}

const struct ng_workload ng_wl_c2d = {
	.name = "c2d",
	.desc = "2-D convolution (PolyBench/GPU 2DCONV): 3x3 stencil, 32x8 blocks, halo rows shared",
	.default_size = 1ULL << 20,
	.paper_footprint = 512ULL << 20,
	.paper_ref = "REC Table 3: C2D 512 MB",
	.default_iters = 1,
	.narrays = 2,
	.run = c2d_run,
};
