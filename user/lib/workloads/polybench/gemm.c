// SPDX-License-Identifier: GPL-2.0
/*
 * gemm: C = alpha A B + beta C, matrix multiply, after PolyBench/GPU's
 * CUDA gemm (polybenchCodesCudaOpenClHMPPOpenAcc/CUDA/GEMM/gemm.cu and
 * CUDA/GEMM/gemm.cuh: DIM_THREAD_BLOCK_X 32, DIM_THREAD_BLOCK_Y 8). Same
 * work distribution: one kernel on a 2-D grid of (n / 32) x (n / 8)
 * blocks of 32 x 8 threads, thread (i, j) = (blockIdx.y 8 + threadIdx.y,
 * blockIdx.x 32 + threadIdx.x) computing C[i][j] with a loop over k:
 *
 *   gemm_kernel  C[i][j] = beta C[i][j];
 *                for k: C[i][j] += alpha A[i][k] B[k][j]
 *
 * All n x n, row-major. A warp is one row i of a block (threadIdx.y =
 * warp), its lanes 32 consecutive columns j: each k reads one contiguous
 * line of B (row k) and one address of A (A[i][k], the same for all
 * lanes: a broadcast). An init kernel with the same grid writes C[i][j],
 * A[i][j] and B[i][j] from thread (i, j) first, so first touch homes each
 * band of rows of all three at the GPU of the blocks that own those rows
 * of C: C and A are used locally, and every GPU reads all of B, mostly
 * remotely (the shared data, read-only and reused by every block row).
 *
 * (The CUDA code sizes the grid as NI / 32 by NJ / 8, x and y swapped,
 * which is the same for its square matrices and ours.)
 *
 * Differences: C[i][j] is loaded once, kept in a register and stored once
 * (the CUDA code updates it in global memory, which a compiler may keep in
 * a register but, without __restrict__, must also store every iteration);
 * --iters repeats the kernel (C keeps accumulating). The values and
 * constants are PolyBench/C 4's (alpha 1.5, beta 1.2, A[i][k] = (i (k + 1)
 * mod n) / n, B[k][j] = (k (j + 2) mod n) / n, C[i][j] = ((i j + 1) mod n)
 * / n), not PolyBench/GPU's (alpha 32412, beta 2123, which make C overflow
 * a float after a few repeated kernels); the model does not see values.
 * Verified against a CPU reference with the same float operations in the
 * same order.
 */
#include <math.h>
#include <stdlib.h>

#include "workloads/polybench/polybench.h"

#define GM_BX		32	/* DIM_THREAD_BLOCK_X */
#define GM_BY		8	/* DIM_THREAD_BLOCK_Y */
#define GM_ALPHA	1.5f
#define GM_BETA		1.2f
/*
 * One iteration of a thread's loop over k: the two addresses (3), alpha
 * times A, then the multiply-add (2), loop increment, compare and branch
 * (3).
 */
#define GM_INSTS_ITER	8
/*
 * A thread's setup: its i and j (4), bound checks (3), C's address (2),
 * C times beta (1).
 */
#define GM_INSTS_THREAD	10

struct gm_args {
	float *a, *b, *c;
	uint64_t n;
};

static float gm_a(uint64_t n, uint64_t i, uint64_t k)
{
	return (float)(i * (k + 1) % n) / (float)n;
}

static float gm_b(uint64_t n, uint64_t k, uint64_t j)
{
	return (float)(k * (j + 2) % n) / (float)n;
}

static float gm_c(uint64_t n, uint64_t i, uint64_t j)
{
	return (float)((i * j + 1) % n) / (float)n;
}

/* Warp @wi of block @b: row i of its lanes, first column j0. */
static void gm_warp(struct ng_block *b, unsigned int wi, struct ng_warp *w,
		    uint64_t *i, uint64_t *j0)
{
	ng_warp_get(b, wi, w);
	*i = ng_lane_y(w, 0);
	*j0 = ng_lane_x(w, 0);
}

/* Thread (i, j) writes element (i, j) of C, A and B. */
static void gm_init(struct ng_block *b, void *p)
{
	struct gm_args *a = p;
	uint64_t n = a->n;

	for (unsigned int wi = 0; wi < b->nwarps; wi++) {
		float vc[NG_WARP], va[NG_WARP], vb[NG_WARP];
		struct ng_warp w;
		uint64_t i, j0;

		gm_warp(b, wi, &w, &i, &j0);
		for (unsigned int l = 0; l < w.nlanes; l++) {
			vc[l] = gm_c(n, i, j0 + l);
			va[l] = gm_a(n, i, j0 + l);
			vb[l] = gm_b(n, i, j0 + l);
		}
		ng_st_contig(&w, a->c + i * n + j0, 4, vc);
		ng_st_contig(&w, a->a + i * n + j0, 4, va);
		ng_st_contig(&w, a->b + i * n + j0, 4, vb);
	}
}

static void gm_kernel(struct ng_block *b, void *p)
{
	struct gm_args *a = p;
	uint64_t n = a->n;

	for (unsigned int wi = 0; wi < b->nwarps; wi++) {
		float acc[NG_WARP], bc[NG_WARP], bb[NG_WARP], av;
		const float *cv, *bv;
		struct ng_warp w;
		uint64_t i, j0;

		gm_warp(b, wi, &w, &i, &j0);
		cv = ng_ld_contig_ref(&w, a->c + i * n + j0, 4, bc);
		for (unsigned int l = 0; l < w.nlanes; l++)
			acc[l] = cv[l] * GM_BETA;
		ng_warp_compute(&w, GM_INSTS_THREAD);
		for (uint64_t k = 0; k < n; k++) {
			av = wl_bcast(&w, a->a + i * n + k);
			bv = ng_ld_contig_ref(&w, a->b + k * n + j0, 4, bb);
			for (unsigned int l = 0; l < w.nlanes; l++)
				acc[l] += GM_ALPHA * av * bv[l];
			ng_warp_compute(&w, GM_INSTS_ITER);
		}
		ng_st_contig(&w, a->c + i * n + j0, 4, acc);
	}
}

/* A launch on the (n / 32) x (n / 8) grid of 32 x 8 blocks. */
static int gm_launch(struct wlc *c, const char *name, ng_kernel_fn fn,
		     struct gm_args *a, bool timed)
{
	return wlc_launch_2d(c, name, fn, a,
			     (struct ng_dim){ (unsigned int)(a->n / GM_BX),
					      (unsigned int)(a->n / GM_BY) },
			     (struct ng_dim){ GM_BX, GM_BY }, -1, timed);
}

static int gm_run(struct ng_system *sys, const struct ng_bench_opts *o,
		  struct ng_bench_result *r, char *err, size_t errlen)
{
	struct wlc c;
	struct ng_buf ba = { 0 }, bb = { 0 }, bc = { 0 };
	struct gm_args a = { 0 };
	float *rc = NULL, *ra = NULL, *rb = NULL;
	uint64_t n, nn;
	char ok[128];
	int ret;

	wlc_init(&c, sys, o, r, err, errlen);
	ret = pb_side(o->size, "gemm", err, errlen, &n);
	if (ret)
		return ret;
	a.n = n;
	nn = n * n;
	ret = wlc_alloc(&c, &ba, nn * 4, -1);
	if (!ret)
		ret = wlc_alloc(&c, &bb, nn * 4, -1);
	if (!ret)
		ret = wlc_alloc(&c, &bc, nn * 4, -1);
	if (ret)
		goto out;
	a.a = ba.ptr;
	a.b = bb.ptr;
	a.c = bc.ptr;
	r->elements = nn;
	/* what the kernel must move at least: A and B once, C in and out */
	r->bytes = 4 * nn * 4ULL * o->iters;
	c.total = o->iters;
	ret = gm_launch(&c, "gemm-init", gm_init, &a, false);
	if (ret)
		goto out;
	ng_system_reset_counters(sys);
	for (unsigned int it = 0; it < o->iters && !ret; it++)
		ret = gm_launch(&c, "gemm", gm_kernel, &a, true);
	if (ret)
		goto out;
	wl_collect(sys, r);
	/* the CPU reference: the same sums in the same order */
	ra = malloc(nn * 4);
	rb = malloc(nn * 4);
	rc = malloc(nn * 4);
	if (!ra || !rb || !rc) {
		ret = -ENOMEM;
		ng_seterr(err, errlen, "gemm: out of memory");
		goto out;
	}
	for (uint64_t i = 0; i < n; i++)
		for (uint64_t j = 0; j < n; j++) {
			ra[i * n + j] = gm_a(n, i, j);
			rb[i * n + j] = gm_b(n, i, j);
			rc[i * n + j] = gm_c(n, i, j);
		}
	/* k outside j, for the CPU's caches: each C[i][j] still adds k in order */
	for (unsigned int it = 0; it < o->iters; it++)
		for (uint64_t i = 0; i < n; i++) {
			float *ci = rc + i * n;

			for (uint64_t j = 0; j < n; j++)
				ci[j] = ci[j] * GM_BETA;
			for (uint64_t k = 0; k < n; k++) {
				const float aik = ra[i * n + k], *bk = rb + k * n;

				for (uint64_t j = 0; j < n; j++)
					ci[j] += GM_ALPHA * aik * bk[j];
			}
		}
	snprintf(ok, sizeof(ok),
		 "C = alpha A B + beta C (%llu x %llu, %u kernels) matches the CPU reference",
		 (unsigned long long)n, (unsigned long long)n, o->iters);
	wl_corrupt_f32(o, a.c, nn);
	wl_check_f32(r, "C", a.c, rc, nn, n, 1e-4f, 1e-6f, ok);
out:
	free(rc);
	free(rb);
	free(ra);
	ng_free(c.sp, &bc);
	ng_free(c.sp, &bb);
	ng_free(c.sp, &ba);
	return ret;
}

const struct ng_workload ng_wl_gemm = {
	.name = "gemm",
	.desc = "PolyBench gemm, C = alpha A B + beta C: 32 x 8 blocks, every GPU reads all of B",
	.default_size = 256ULL << 10,
	.paper_footprint = 128ULL << 20,
	.paper_ref = "REC Table 3: GEMM 128 MB",
	.default_iters = 1,
	.narrays = 3,
	.run = gm_run,
};
