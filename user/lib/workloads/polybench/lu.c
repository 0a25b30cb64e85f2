// SPDX-License-Identifier: GPL-2.0
/*
 * lu: LU decomposition in place, without pivoting, after PolyBench/GPU's
 * lu (CUDA/LU/lu.cu). For each k of the n x n float matrix, two kernels:
 *
 *   lu_kernel1  1-D, blocks of 256: one thread per column j > k,
 *               A[k][j] = A[k][j] / A[k][k]
 *   lu_kernel2  2-D, blocks of 32 x 8: one thread per (i, j), i, j > k,
 *               A[i][j] = A[i][j] - A[i][k] * A[k][j]
 *
 * for k < n - 1 (the original's last two launches have empty grids, which
 * CUDA rejects): 2 (n - 1) launches, each a kernel boundary. Row k,
 * written by kernel 1 on the GPU that runs its few blocks, is read by
 * every GPU in kernel 2, and the trailing submatrix shrinks, so its row
 * bands move between GPUs from one k to the next (the init kernel homed
 * the rows by first touch over the whole matrix). A warp is 32
 * consecutive columns of a row: kernel 2 reads its row segment and row
 * k's (contiguous lanes), A[i][k] (the same word in every lane), and
 * writes its segment; kernel 1 reads A[k][k] (every lane) and its segment
 * of row k, and writes it. Lanes with j <= k are inactive, as the
 * original's guard makes them.
 *
 * Differs from the original in where the grids start. PolyBench/GPU sizes
 * them for the n - k - 1 trailing rows and columns but numbers their
 * threads from 0, so from k = 7 on its last rows have no thread (from
 * k = 31 its last columns, from k = 255 kernel 1's), the region it updates
 * shrinks from both ends and is empty past k = n / 2, and its result is
 * not the factorization. Here each grid has the same block shape and the
 * same tiling of the matrix (warps on whole 128-byte row segments) but
 * starts at the tile holding (k + 1, k + 1): it covers exactly the
 * trailing submatrix, with as many blocks as the original (kernel 1: at
 * most one more).
 * The input is diagonally dominant (n on the diagonal, [0, 1) elsewhere)
 * so that the factorization without pivoting is stable; --iters repeats
 * the whole factorization on its own result.
 */
#include <stdlib.h>

#include "workloads/polybench/polybench.h"

/* PolyBench/GPU's DIM_THREAD_BLOCK_KERNEL_1_X */
#define LU_B1		256
/* Every thread: its indices (kernel 1: 2, kernel 2: 4) and the guard. */
#define LU1_IDX_INSTS	5
#define LU2_IDX_INSTS	9
/* Kernel 1's addresses (2) and float division (8, as GPUs expand it). */
#define LU1_INSTS	10
/* Kernel 2's addresses (3), multiply and subtract (2). */
#define LU2_INSTS	5

struct lu_args {
	float *a;
	uint64_t n, k;
	uint64_t r0, c0;	/* the grid's first row and column */
};

static float lu_val(uint64_t i, uint64_t j, uint64_t n)
{
	return i == j ? (float)n : (float)((i * j + 1) % 17) / 17.0f;
}

static float lu_div(float a, float p)
{
	return a / p;
}

static float lu_upd(float a, float l, float u)
{
	return a - l * u;
}

static void lu_init(struct ng_block *b, void *p)
{
	const struct lu_args *a = p;

	for (unsigned int wi = 0; wi < b->nwarps; wi++) {
		float v[NG_WARP];
		struct ng_warp w;
		uint64_t i, j0;

		ng_warp_get(b, wi, &w);
		i = ng_lane_y(&w, 0);
		j0 = ng_lane_x(&w, 0);
		for (unsigned int l = 0; l < NG_WARP; l++)
			v[l] = lu_val(i, j0 + l, a->n);
		ng_st_contig(&w, a->a + i * a->n + j0, 4, v);
	}
}

/*
 * Make @w's lanes those of columns [jb, jb + 32) past k: false when none
 * is; else *j1 is the first and the lanes' data starts there.
 */
static bool lu_lanes(struct ng_warp *w, const struct lu_args *a, uint64_t jb,
		     uint64_t *j1)
{
	if (jb + NG_WARP <= a->k + 1 || jb >= a->n)
		return false;
	*j1 = jb > a->k ? jb : a->k + 1;
	w->nlanes = (unsigned int)(jb + NG_WARP - *j1);
	w->active = ~0u << (NG_WARP - w->nlanes);
	return true;
}

static void lu_kernel1(struct ng_block *b, void *p)
{
	const struct lu_args *a = p;
	float *row = a->a + a->k * a->n;

	for (unsigned int wi = 0; wi < b->nwarps; wi++) {
		float buf[NG_WARP], o[NG_WARP], piv;
		const float *v;
		struct ng_warp w;
		uint64_t j1;

		ng_warp_get(b, wi, &w);
		ng_warp_compute(&w, LU1_IDX_INSTS);
		if (!lu_lanes(&w, a, a->c0 + b->idx.x * LU_B1 + w.tid0, &j1))
			continue;
		piv = wl_bcast(&w, row + a->k);
		v = ng_ld_contig_ref(&w, row + j1, 4, buf);
		for (unsigned int l = 0; l < w.nlanes; l++)
			o[l] = lu_div(v[l], piv);
		ng_warp_compute(&w, LU1_INSTS);
		ng_st_contig(&w, row + j1, 4, o);
	}
}

static void lu_kernel2(struct ng_block *b, void *p)
{
	const struct lu_args *a = p;
	const float *rk = a->a + a->k * a->n;

	for (unsigned int wi = 0; wi < b->nwarps; wi++) {
		float b1[NG_WARP], b2[NG_WARP], o[NG_WARP], l;
		const float *v, *u;
		struct ng_warp w;
		uint64_t i, j1;
		float *ri;

		ng_warp_get(b, wi, &w);
		ng_warp_compute(&w, LU2_IDX_INSTS);
		i = a->r0 + ng_lane_y(&w, 0);
		if (i <= a->k || i >= a->n ||
		    !lu_lanes(&w, a, a->c0 + ng_lane_x(&w, 0), &j1))
			continue;
		ri = a->a + i * a->n;
		v = ng_ld_contig_ref(&w, ri + j1, 4, b1);
		l = wl_bcast(&w, ri + a->k);
		u = ng_ld_contig_ref(&w, rk + j1, 4, b2);
		for (unsigned int t = 0; t < w.nlanes; t++)
			o[t] = lu_upd(v[t], l, u[t]);
		ng_warp_compute(&w, LU2_INSTS);
		ng_st_contig(&w, ri + j1, 4, o);
	}
}

/* The two kernels of step k, timed. */
static int lu_step(struct wlc *c, struct lu_args *a)
{
	uint64_t n = a->n;
	int ret;

	a->c0 = (a->k + 1) / LU_B1 * LU_B1;
	ret = pb_launch(c, "lu-kernel1", lu_kernel1, a,
			(unsigned int)((n - a->c0 + LU_B1 - 1) / LU_B1), 1,
			LU_B1, 1, true);
	if (ret)
		return ret;
	a->r0 = (a->k + 1) / PB_BY * PB_BY;
	a->c0 = (a->k + 1) / PB_BX * PB_BX;
	return pb_launch(c, "lu-kernel2", lu_kernel2, a,
			 (unsigned int)((n - a->c0 + PB_BX - 1) / PB_BX),
			 (unsigned int)((n - a->r0 + PB_BY - 1) / PB_BY),
			 PB_BX, PB_BY, true);
}

static void lu_ref(float *m, uint64_t n)
{
	for (uint64_t k = 0; k < n; k++) {
		for (uint64_t j = k + 1; j < n; j++)
			m[k * n + j] = lu_div(m[k * n + j], m[k * n + k]);
		for (uint64_t i = k + 1; i < n; i++)
			for (uint64_t j = k + 1; j < n; j++)
				m[i * n + j] = lu_upd(m[i * n + j], m[i * n + k],
						      m[k * n + j]);
	}
}

static int lu_run(struct ng_system *sys, const struct ng_bench_opts *o,
		  struct ng_bench_result *r, char *err, size_t errlen)
{
	struct ng_buf ba = { 0 };
	struct lu_args a = { 0 };
	char ok[sizeof(r->verify)];
	float *ref = NULL;
	struct wlc c;
	uint64_t n, nn;
	int ret;

	wlc_init(&c, sys, o, r, err, errlen);
	ret = pb_side(o->size, "lu", err, errlen, &n);
	if (ret)
		return ret;
	nn = n * n;
	ret = wlc_alloc(&c, &ba, nn * 4, -1);
	if (ret)
		goto out;
	a.a = ba.ptr;
	a.n = n;
	r->elements = nn;
	/* kernel 1: two loads and a store per thread; kernel 2: three and one */
	for (uint64_t k = 0; k < n; k++)
		r->bytes += (12 * (n - k - 1) + 16 * (n - k - 1) * (n - k - 1)) *
			    o->iters;
	c.total = (unsigned int)(2 * (n - 1) * o->iters);
	ret = pb_launch(&c, "lu-init", lu_init, &a, (unsigned int)(n / PB_BX),
			(unsigned int)(n / PB_BY), PB_BX, PB_BY, false);
	if (ret)
		goto out;
	ng_system_reset_counters(sys);
	for (unsigned int it = 0; it < o->iters && !ret; it++)
		for (a.k = 0; a.k + 1 < n && !ret; a.k++)
			ret = lu_step(&c, &a);
	if (ret)
		goto out;
	wl_collect(sys, r);
	/* the CPU reference, same arithmetic in the same order */
	ref = malloc(nn * 4);
	if (!ref) {
		ret = -ENOMEM;
		ng_seterr(err, errlen, "lu: out of memory");
		goto out;
	}
	for (uint64_t i = 0; i < n; i++)
		for (uint64_t j = 0; j < n; j++)
			ref[i * n + j] = lu_val(i, j, n);
	for (unsigned int it = 0; it < o->iters; it++)
		lu_ref(ref, n);
	wl_corrupt_f32(o, ba.ptr, nn);
	snprintf(ok, sizeof(ok),
		 "L and U of %llu x %llu (%llu launches, %u iterations) match the CPU reference",
		 (unsigned long long)n, (unsigned long long)n,
		 (unsigned long long)(2 * (n - 1) * o->iters), o->iters);
	wl_check_f32(r, "A", ba.ptr, ref, nn, n, 1e-4f, 1e-6f, ok);
out:
	free(ref);
	ng_free(c.sp, &ba);
	return ret;
}

const struct ng_workload ng_wl_lu = {
	.name = "lu",
	.desc = "PolyBench lu: LU decomposition, two kernels per column (2 (n - 1) launches)",
	.default_size = 256ULL << 10,	/* 256 x 256 floats */
	.paper_footprint = 128ULL << 20,
	.paper_ref = "REC Table 3: LU 128 MB",
	.default_iters = 1,
	.narrays = 1,
	.run = lu_run,
};
