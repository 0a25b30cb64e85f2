// SPDX-License-Identifier: GPL-2.0
/*
 * gemv: y = alpha A x + beta B x, vector multiplication and matrix
 * addition. This is PolyBench's gesummv, which REC (Table 3) calls GEMV;
 * after PolyBench/GPU's CUDA gesummv (polybenchCodesCudaOpenClHMPPOpenAcc/
 * CUDA/GESUMMV/gesummv.cu: DIM_THREAD_BLOCK_X 256, DIM_THREAD_BLOCK_Y 1).
 * Same work distribution: one kernel on a 1-D grid of ceil(n / 256)
 * blocks of 256 threads, thread i (a row) looping over the columns,
 *
 *   gesummv_kernel  tmp[i] = sum_j A[i][j] x[j]
 *                   y[i]   = sum_j B[i][j] x[j]
 *                   y[i]   = alpha tmp[i] + beta y[i]
 *
 * A and B row-major, n x n. The 32 lanes of a warp walk 32 rows at the
 * same column: per-lane addresses n floats apart, one line each per
 * matrix, as uncoalesced as on a GPU (the next 31 columns then hit those
 * lines in the L2); x[j] is one address for all lanes (a broadcast). An
 * init kernel with the same grid writes A's and B's rows, x, tmp and y
 * first, so first touch homes each row band at the GPU of the blocks
 * that own those rows: the matrices are read locally and x, read whole by
 * every GPU, is the shared data (read-only, reused across --iters).
 *
 * Differences: the accumulators stay in registers, tmp[i] and y[i] are
 * stored once per thread (the CUDA code adds into them in global memory,
 * which a compiler may keep in registers but, without __restrict__, must
 * also store every iteration) and start from 0, as PolyBench's CPU code
 * does (the CUDA code relies on zeroed device memory); --iters repeats the
 * kernel. Values and constants are PolyBench/GPU's (x[i] = i / n, A[i][j]
 * = B[i][j] = i j / n, alpha 43532, beta 12313). Verified against a CPU
 * reference with the same float operations in the same order.
 */
#include <math.h>
#include <stdlib.h>

#include "workloads/polybench/polybench.h"

#define GV_BLOCK	256
#define GV_ALPHA	43532.0f
#define GV_BETA		12313.0f
/*
 * One iteration of a thread's loop: two matrix addresses (3), the
 * vector's address (1), two multiply-adds (2), loop increment, compare
 * and branch (3).
 */
#define GV_INSTS_ITER	9
/* A thread's setup, final alpha/beta combination and two stores (9). */
#define GV_INSTS_THREAD	9

struct gv_args {
	float *a, *b, *x, *tmp, *y;
	uint64_t n;
};

static float gv_m(uint64_t n, uint64_t i, uint64_t j)
{
	return (float)i * (float)j / (float)n;
}

static float gv_x(uint64_t n, uint64_t i)
{
	return (float)i / (float)n;
}

static float gv_y(float tmp, float y)
{
	return GV_ALPHA * tmp + GV_BETA * y;
}

/*
 * The kernel's grid: warp wi of block b owns rows i0..i0+31 and writes
 * them whole (contiguous stores, 32 columns at a time: the homes are
 * those of the rows, which is all first touch needs), then x, tmp, y.
 */
static void gv_init(struct ng_block *b, void *p)
{
	struct gv_args *a = p;
	uint64_t n = a->n;

	for (unsigned int wi = 0; wi < b->nwarps; wi++) {
		float v[NG_WARP], z[NG_WARP] = { 0 };
		struct ng_warp w;
		uint64_t i0;

		ng_warp_get(b, wi, &w);
		if (!wlc_lanes(&w, n, GV_BLOCK, &i0))
			break;
		/* n is a multiple of 32: every warp has 32 lanes */
		for (uint64_t i = i0; i < i0 + w.nlanes; i++)
			for (uint64_t j0 = 0; j0 < n; j0 += NG_WARP) {
				for (unsigned int l = 0; l < NG_WARP; l++)
					v[l] = gv_m(n, i, j0 + l);
				ng_st_contig(&w, a->a + i * n + j0, 4, v);
				ng_st_contig(&w, a->b + i * n + j0, 4, v);
			}
		for (unsigned int l = 0; l < w.nlanes; l++)
			v[l] = gv_x(n, i0 + l);
		ng_st_contig(&w, a->x + i0, 4, v);
		ng_st_contig(&w, a->tmp + i0, 4, z);
		ng_st_contig(&w, a->y + i0, 4, z);
	}
}

static void gv_kernel(struct ng_block *b, void *p)
{
	struct gv_args *a = p;
	uint64_t n = a->n;

	for (unsigned int wi = 0; wi < b->nwarps; wi++) {
		float tmp[NG_WARP] = { 0 }, y[NG_WARP] = { 0 };
		float av[NG_WARP], bv[NG_WARP], xv;
		uintptr_t aa[NG_WARP], ba[NG_WARP];
		struct ng_warp w;
		uint64_t i0;

		ng_warp_get(b, wi, &w);
		if (!wlc_lanes(&w, n, GV_BLOCK, &i0))
			break;
		for (unsigned int l = 0; l < w.nlanes; l++) {
			aa[l] = (uintptr_t)(a->a + (i0 + l) * n);
			ba[l] = (uintptr_t)(a->b + (i0 + l) * n);
		}
		for (uint64_t j = 0; j < n; j++) {
			ng_ld(&w, aa, 4, av);
			xv = wl_bcast(&w, a->x + j);
			ng_ld(&w, ba, 4, bv);
			for (unsigned int l = 0; l < w.nlanes; l++) {
				tmp[l] += av[l] * xv;
				y[l] += bv[l] * xv;
				aa[l] += 4;
				ba[l] += 4;
			}
			ng_warp_compute(&w, GV_INSTS_ITER);
		}
		for (unsigned int l = 0; l < w.nlanes; l++)
			y[l] = gv_y(tmp[l], y[l]);
		ng_warp_compute(&w, GV_INSTS_THREAD);
		ng_st_contig(&w, a->tmp + i0, 4, tmp);
		ng_st_contig(&w, a->y + i0, 4, y);
	}
}

static int gv_run(struct ng_system *sys, const struct ng_bench_opts *o,
		  struct ng_bench_result *r, char *err, size_t errlen)
{
	struct wlc c;
	struct ng_buf ba = { 0 }, bb = { 0 }, bx = { 0 }, bt = { 0 };
	struct ng_buf by = { 0 };
	struct gv_args a = { 0 };
	float *rt = NULL, *ry = NULL;
	uint64_t n, nblocks;
	char ok[128];
	int ret;

	wlc_init(&c, sys, o, r, err, errlen);
	ret = pb_side(o->size, "gemv", err, errlen, &n);
	if (ret)
		return ret;
	a.n = n;
	nblocks = (n + GV_BLOCK - 1) / GV_BLOCK;
	ret = wlc_alloc(&c, &ba, n * n * 4, -1);
	if (!ret)
		ret = wlc_alloc(&c, &bb, n * n * 4, -1);
	if (!ret)
		ret = wlc_alloc(&c, &bx, n * 4, -1);
	if (!ret)
		ret = wlc_alloc(&c, &bt, n * 4, -1);
	if (!ret)
		ret = wlc_alloc(&c, &by, n * 4, -1);
	if (ret)
		goto out;
	a.a = ba.ptr;
	a.b = bb.ptr;
	a.x = bx.ptr;
	a.tmp = bt.ptr;
	a.y = by.ptr;
	r->elements = 2 * n * n;
	/* what the kernel must move at least: A, B, x, tmp and y once */
	r->bytes = (2 * n * n + 3 * n) * 4ULL * o->iters;
	c.total = o->iters;
	ret = wlc_launch(&c, "gemv-init", gv_init, &a, nblocks, GV_BLOCK, -1,
			 false);
	if (ret)
		goto out;
	ng_system_reset_counters(sys);
	for (unsigned int it = 0; it < o->iters && !ret; it++)
		ret = wlc_launch(&c, "gesummv", gv_kernel, &a, nblocks, GV_BLOCK,
				 -1, true);
	if (ret)
		goto out;
	wl_collect(sys, r);
	/* the CPU reference: the same sums in the same order */
	rt = calloc(n, 4);
	ry = calloc(n, 4);
	if (!rt || !ry) {
		ret = -ENOMEM;
		ng_seterr(err, errlen, "gemv: out of memory");
		goto out;
	}
	for (uint64_t i = 0; i < n; i++) {
		for (uint64_t j = 0; j < n; j++) {
			rt[i] += gv_m(n, i, j) * gv_x(n, j);
			ry[i] += gv_m(n, i, j) * gv_x(n, j);
		}
		ry[i] = gv_y(rt[i], ry[i]);
	}
	snprintf(ok, sizeof(ok),
		 "y = alpha A x + beta B x (A, B %llu x %llu) matches the CPU reference",
		 (unsigned long long)n, (unsigned long long)n);
	wl_corrupt_f32(o, a.y, n);
	if (wl_check_f32(r, "tmp", a.tmp, rt, n, 0, 1e-4f, 1e-6f, ok))
		wl_check_f32(r, "y", a.y, ry, n, 0, 1e-4f, 1e-6f, ok);
out:
	free(rt);
	free(ry);
	ng_free(c.sp, &by);
	ng_free(c.sp, &bt);
	ng_free(c.sp, &bx);
	ng_free(c.sp, &bb);
	ng_free(c.sp, &ba);
	return ret;
}

const struct ng_workload ng_wl_gemv = {
	.name = "gemv",
	.desc = "PolyBench gesummv, y = alpha A x + beta B x: strided row walks, shared x",
	.default_size = 4ULL << 20,	/* 1024^2: a block for each of 4 GPUs */
	.paper_footprint = 256ULL << 20,
	.paper_ref = "REC Table 3: GEMV 256 MB",
	.default_iters = 1,
	.narrays = 2,
	.run = gv_run,
};
