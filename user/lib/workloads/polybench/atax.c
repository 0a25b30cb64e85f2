// SPDX-License-Identifier: GPL-2.0
/*
 * atax: y = A^T (A x), matrix transpose and vector multiplication, after
 * PolyBench/GPU's CUDA atax (polybenchCodesCudaOpenClHMPPOpenAcc/CUDA/
 * ATAX/atax.cu: DIM_THREAD_BLOCK_X 256, DIM_THREAD_BLOCK_Y 1). Same work
 * distribution: two kernels on 1-D grids of ceil(n / 256) blocks of 256
 * threads,
 *
 *   atax_kernel1  thread i (a row):    tmp[i] = sum_j A[i][j] * x[j]
 *   atax_kernel2  thread j (a column): y[j]   = sum_i A[i][j] * tmp[i]
 *
 * (The newer CUDA/ATAX/atax.cuh of the same repository says 32 x 8, whose
 * 8 rows of threads would all compute the same i: the kernels index with
 * x alone, as the 256 x 1 blocks above intend.)
 *
 * A row-major, n x n. In kernel 1 the 32 lanes of a warp walk 32 rows at
 * the same column: per-lane addresses n floats apart, one line each, as
 * uncoalesced as on a GPU (the next 31 columns then hit those lines in
 * the L2), while x[j] is one address for all lanes (a broadcast). In
 * kernel 2 the lanes are consecutive columns (contiguous lines of A) and
 * tmp[i] is the broadcast. An init kernel with kernel 1's grid writes A's
 * rows, x, tmp and y first, so first touch homes each row band at the GPU
 * of the blocks that own those rows: kernel 1 is local but for x, kernel
 * 2 reads a column band of every row band (mostly remote) and tmp, which
 * every GPU wrote a part of in kernel 1.
 *
 * Differences: the accumulators stay in registers and are stored once per
 * thread (the CUDA code accumulates into tmp[i] / y[i] in global memory,
 * which a compiler may keep in a register but, without __restrict__, must
 * also store every iteration); --iters repeats the two-kernel sequence.
 * Values are PolyBench's (x[i] = i pi, A[i][j] = i j / n). Verified
 * against a CPU reference with the same float operations in the same
 * order.
 */
#include <math.h>
#include <stdlib.h>

#include "workloads/polybench/polybench.h"

#define AT_BLOCK	256
/*
 * One iteration of a thread's loop over the matrix: the element's address
 * (2), the vector's address (1), the multiply-add (1), loop increment,
 * compare and branch (3).
 */
#define AT_INSTS_ITER	7
/* A thread's setup and final store: index, bound check, address (6). */
#define AT_INSTS_THREAD	6

struct at_args {
	float *a, *x, *tmp, *y;
	uint64_t n;
};

static float at_a(uint64_t n, uint64_t i, uint64_t j)
{
	return (float)i * (float)j / (float)n;
}

static float at_x(uint64_t i)
{
	return (float)i * 3.14159f;
}

/*
 * Kernel 1's grid: warp wi of block b owns rows i0..i0+31 and writes them
 * whole (contiguous stores, 32 columns at a time: the homes are those of
 * the rows, which is all first touch needs), then x, tmp and y there.
 */
static void at_init(struct ng_block *b, void *p)
{
	struct at_args *a = p;
	uint64_t n = a->n;

	for (unsigned int wi = 0; wi < b->nwarps; wi++) {
		float v[NG_WARP], z[NG_WARP] = { 0 };
		struct ng_warp w;
		uint64_t i0;

		ng_warp_get(b, wi, &w);
		if (!wlc_lanes(&w, n, AT_BLOCK, &i0))
			break;
		/* n is a multiple of 32: every warp has 32 lanes */
		for (uint64_t i = i0; i < i0 + w.nlanes; i++)
			for (uint64_t j0 = 0; j0 < n; j0 += NG_WARP) {
				for (unsigned int l = 0; l < NG_WARP; l++)
					v[l] = at_a(n, i, j0 + l);
				ng_st_contig(&w, a->a + i * n + j0, 4, v);
			}
		for (unsigned int l = 0; l < w.nlanes; l++)
			v[l] = at_x(i0 + l);
		ng_st_contig(&w, a->x + i0, 4, v);
		ng_st_contig(&w, a->tmp + i0, 4, z);
		ng_st_contig(&w, a->y + i0, 4, z);
	}
}

/* tmp[i] = sum_j A[i][j] * x[j], one thread per row i. */
static void at_kernel1(struct ng_block *b, void *p)
{
	struct at_args *a = p;
	uint64_t n = a->n;

	for (unsigned int wi = 0; wi < b->nwarps; wi++) {
		float acc[NG_WARP] = { 0 }, av[NG_WARP], xv;
		uintptr_t addr[NG_WARP];
		struct ng_warp w;
		uint64_t i0;

		ng_warp_get(b, wi, &w);
		if (!wlc_lanes(&w, n, AT_BLOCK, &i0))
			break;
		ng_warp_compute(&w, AT_INSTS_THREAD);
		for (unsigned int l = 0; l < w.nlanes; l++)
			addr[l] = (uintptr_t)(a->a + (i0 + l) * n);
		for (uint64_t j = 0; j < n; j++) {
			ng_ld(&w, addr, 4, av);
			xv = wl_bcast(&w, a->x + j);
			for (unsigned int l = 0; l < w.nlanes; l++) {
				acc[l] += av[l] * xv;
				addr[l] += 4;
			}
			ng_warp_compute(&w, AT_INSTS_ITER);
		}
		ng_st_contig(&w, a->tmp + i0, 4, acc);
	}
}

/* y[j] = sum_i A[i][j] * tmp[i], one thread per column j. */
static void at_kernel2(struct ng_block *b, void *p)
{
	struct at_args *a = p;
	uint64_t n = a->n;

	for (unsigned int wi = 0; wi < b->nwarps; wi++) {
		float acc[NG_WARP] = { 0 }, av[NG_WARP], tv;
		const float *row;
		struct ng_warp w;
		uint64_t j0;

		ng_warp_get(b, wi, &w);
		if (!wlc_lanes(&w, n, AT_BLOCK, &j0))
			break;
		ng_warp_compute(&w, AT_INSTS_THREAD);
		for (uint64_t i = 0; i < n; i++) {
			row = ng_ld_contig_ref(&w, a->a + i * n + j0, 4, av);
			tv = wl_bcast(&w, a->tmp + i);
			for (unsigned int l = 0; l < w.nlanes; l++)
				acc[l] += row[l] * tv;
			ng_warp_compute(&w, AT_INSTS_ITER);
		}
		ng_st_contig(&w, a->y + j0, 4, acc);
	}
}

static int at_run(struct ng_system *sys, const struct ng_bench_opts *o,
		  struct ng_bench_result *r, char *err, size_t errlen)
{
	struct wlc c;
	struct ng_buf ba = { 0 }, bx = { 0 }, bt = { 0 }, by = { 0 };
	struct at_args a = { 0 };
	float *rt = NULL, *ry = NULL;
	uint64_t n, nblocks;
	char ok[128];
	int ret;

	wlc_init(&c, sys, o, r, err, errlen);
	ret = pb_side(o->size, "atax", err, errlen, &n);
	if (ret)
		return ret;
	a.n = n;
	nblocks = (n + AT_BLOCK - 1) / AT_BLOCK;
	ret = wlc_alloc(&c, &ba, n * n * 4, -1);
	if (!ret)
		ret = wlc_alloc(&c, &bx, n * 4, -1);
	if (!ret)
		ret = wlc_alloc(&c, &bt, n * 4, -1);
	if (!ret)
		ret = wlc_alloc(&c, &by, n * 4, -1);
	if (ret)
		goto out;
	a.a = ba.ptr;
	a.x = bx.ptr;
	a.tmp = bt.ptr;
	a.y = by.ptr;
	r->elements = n * n;
	/* what each kernel must move at least: A once, its vectors once */
	r->bytes = 2ULL * (n * n + 2 * n) * 4 * o->iters;
	c.total = 2 * o->iters;
	ret = wlc_launch(&c, "atax-init", at_init, &a, nblocks, AT_BLOCK, -1,
			 false);
	if (ret)
		goto out;
	ng_system_reset_counters(sys);
	for (unsigned int it = 0; it < o->iters && !ret; it++) {
		ret = wlc_launch(&c, "atax-kernel1", at_kernel1, &a, nblocks,
				 AT_BLOCK, -1, true);
		if (!ret)
			ret = wlc_launch(&c, "atax-kernel2", at_kernel2, &a,
					 nblocks, AT_BLOCK, -1, true);
	}
	if (ret)
		goto out;
	wl_collect(sys, r);
	/* the CPU reference: the same sums in the same order */
	rt = calloc(n, 4);
	ry = calloc(n, 4);
	if (!rt || !ry) {
		ret = -ENOMEM;
		ng_seterr(err, errlen, "atax: out of memory");
		goto out;
	}
	for (uint64_t i = 0; i < n; i++) {
		for (uint64_t j = 0; j < n; j++)
			rt[i] += at_a(n, i, j) * at_x(j);
		/* y[j] adds row i's term after rows 0..i-1, as thread j does */
		for (uint64_t j = 0; j < n; j++)
			ry[j] += at_a(n, i, j) * rt[i];
	}
	snprintf(ok, sizeof(ok),
		 "tmp = A x and y = A^T tmp (A %llu x %llu) match the CPU reference",
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
	ng_free(c.sp, &ba);
	return ret;
}

const struct ng_workload ng_wl_atax = {
	.name = "atax",
	.desc = "PolyBench atax, y = A^T A x: strided rows, then columns of every GPU's rows",
	.default_size = 4ULL << 20,	/* 1024^2: a block for each of 4 GPUs */
	.paper_footprint = 128ULL << 20,
	.paper_ref = "REC Table 3: ATAX 128 MB",
	.default_iters = 1,
	.narrays = 1,
	.run = at_run,
};
