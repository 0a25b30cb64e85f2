// SPDX-License-Identifier: GPL-2.0
/*
 * st: 2-D 9-point stencil, after SHOC's Stencil2D (CUDA version,
 * src/cuda/level1/stencil2d/CUDAStencilKernel.cu, StencilKernel). Each
 * interior point becomes
 *
 *   wCenter c + wCardinal (n + s + e + w) + wDiagonal (ne + se + nw + sw)
 *
 * with SHOC's default weights 0.25, 0.15 and 0.05, summed in the kernel's
 * order; the matrices ping-pong over the iterations (one kernel each).
 *
 * Data layout as SHOC's Matrix2D: gRows x gCols interior points with a
 * halo of one row and column all round (0, SHOC's default haloVal; the
 * kernel never writes it), rows padded to a multiple of 16 floats, and
 * the point (row, col) at (row + 1) * pitch + col + 1 (so a warp's 32
 * points are a misaligned run).
 *
 * Work distribution as SHOC's, with its default lsize 8,256: blocks of
 * 1 x LCOLS = 256 threads, one per column, each doing a strip of LROWS = 8
 * rows; the grid is gRows / 8 x gCols / 256 with blockIdx.x the row strip
 * and blockIdx.y the column strip, so consecutive blocks go down a column
 * strip and batch scheduling gives each GPU a band of 256-column strips
 * over the whole height (not of rows). A block first copies its
 * (8 + 2) x (256 + 2) tile to shared memory: each warp loads its 32
 * columns of the 10 rows, and the block's first and last threads the
 * halo columns on either side (one lane each, in a divergent branch);
 * after the barrier every thread computes its 8 points from the tile and
 * stores them. Differences: none in the work distribution; the interior
 * starts from the workload's random stream in [0, 1) (SHOC's READY
 * build: drand48), the problem size follows --size (gCols a multiple of
 * 256, gRows of 8), and 4 iterations by default (SHOC: 1000).
 *
 * The two matrices are homed by an init kernel with the stencil's grid,
 * so each GPU's column band is local; the halo columns of a band (and the
 * pages that rows of two bands share) are read across GPUs, and rewritten
 * by their home every iteration (read-write sharing across kernels).
 */
#include <math.h>
#include <stdlib.h>

#include "workloads/wl.h"

#define ST_LROWS	8	/* rows per thread (SHOC lsize[0]) */
#define ST_LCOLS	256	/* threads per block (SHOC lsize[1]) */
#define ST_PAD		16	/* Matrix2D's default pad, floats */
#define ST_TW		(ST_LCOLS + 2)	/* shared tile row */
#define ST_W_CENTER	0.25f
#define ST_W_CARDINAL	0.15f
#define ST_W_DIAGONAL	0.05f
/*
 * A thread's arithmetic. Before the barrier: its coordinates and the
 * padded row width (20), then per tile row two flat indices (4), the load
 * address (1), the shared store (1) and the loop (2), and the halo branch
 * (2). After it, per row: the nine tile indices (4, strength-reduced),
 * nine shared loads (9), six adds and three multiplies or multiply-adds
 * (9), the store's index (2) and the loop (2).
 */
#define ST_INSTS_LOAD	(20 + 8 * (ST_LROWS + 2) + 2)
#define ST_INSTS_COMP	(26 * ST_LROWS)

struct st_args {
	float *cur, *next;
	uint64_t rows, cols, pitch;	/* interior rows and columns, padded row */
	uint64_t seed;
};

static float st_v0(uint64_t seed, uint64_t row, uint64_t col)
{
	return (float)(wlc_hash(seed * 0x5757 + (row << 32) + col) >> 40) *
	       (1.0f / 16777216.0f);
}

static float st_point(float c, float n, float s, float e, float w, float ne,
		      float se, float nw, float sw)
{
	float card = n + s + e + w;
	float diag = ne + se + nw + sw;

	return ST_W_CENTER * c + ST_W_CARDINAL * card + ST_W_DIAGONAL * diag;
}

/*
 * Untimed, with the stencil's grid: each thread writes its strip of both
 * matrices (the interior's values in cur, zeros in next), the halo rows
 * above and below the matrix when its strip is at an edge, and the first
 * and last threads of the matrix the halo columns.
 */
static void st_init(struct ng_block *b, void *p)
{
	const struct st_args *a = p;
	uint64_t r0 = (uint64_t)b->idx.x * ST_LROWS, c0 = (uint64_t)b->idx.y * ST_LCOLS;
	/* flat rows [f0, f1) */
	uint64_t f0 = r0 ? r0 + 1 : 0;
	uint64_t f1 = r0 + ST_LROWS == a->rows ? a->rows + 2 : r0 + ST_LROWS + 1;

	for (unsigned int wi = 0; wi < b->nwarps; wi++) {
		uint64_t col = c0 + wi * NG_WARP;
		float v[NG_WARP], z[NG_WARP] = { 0 };
		struct ng_warp w;

		ng_warp_get(b, wi, &w);
		for (uint64_t f = f0; f < f1; f++) {
			float *row = a->cur + f * a->pitch, *nrow = a->next + f * a->pitch;
			bool halo = f == 0 || f == a->rows + 1;

			for (unsigned int l = 0; l < NG_WARP; l++)
				v[l] = halo ? 0.0f : st_v0(a->seed, f - 1, col + l);
			ng_st_contig(&w, row + col + 1, 4, v);
			ng_st_contig(&w, nrow + col + 1, 4, z);
			if (col == 0) {
				wl_st1(&w, 0, row, 0.0f);
				wl_st1(&w, 0, nrow, 0.0f);
			}
			if (col + NG_WARP == a->cols) {
				wl_st1(&w, NG_WARP - 1, row + a->cols + 1, 0.0f);
				wl_st1(&w, NG_WARP - 1, nrow + a->cols + 1, 0.0f);
			}
		}
	}
}

static void st_kernel(struct ng_block *b, void *p)
{
	const struct st_args *a = p;
	uint64_t r0 = (uint64_t)b->idx.x * ST_LROWS, c0 = (uint64_t)b->idx.y * ST_LCOLS;
	float *sh = b->shared;
	struct ng_warp w;

	/* the tile: rows r0 - 1 .. r0 + 8, columns c0 - 1 .. c0 + 256 */
	for (unsigned int wi = 0; wi < b->nwarps; wi++) {
		unsigned int lc = wi * NG_WARP;

		ng_warp_get(b, wi, &w);
		for (unsigned int i = 0; i < ST_LROWS + 2; i++) {
			const float *g = a->cur + (r0 + i) * a->pitch + c0 + lc + 1;
			float buf[NG_WARP];
			const float *v = ng_ld_contig_ref(&w, g, 4, buf);

			memcpy(sh + i * ST_TW + lc + 1, v, sizeof(buf));
		}
		/* if (lidCol == 0) ... else if (lidCol == lszCol - 1) ... */
		if (wi == 0)
			for (unsigned int i = 0; i < ST_LROWS + 2; i++)
				sh[i * ST_TW] = wl_ld1(&w, 0, a->cur + (r0 + i) * a->pitch + c0);
		if (wi + 1 == b->nwarps)
			for (unsigned int i = 0; i < ST_LROWS + 2; i++)
				sh[i * ST_TW + ST_TW - 1] =
					wl_ld1(&w, NG_WARP - 1,
					       a->cur + (r0 + i) * a->pitch + c0 + ST_LCOLS + 1);
		ng_warp_compute(&w, ST_INSTS_LOAD);
	}
	ng_block_sync(b);
	for (unsigned int wi = 0; wi < b->nwarps; wi++) {
		unsigned int lc = wi * NG_WARP;

		ng_warp_get(b, wi, &w);
		for (unsigned int i = 0; i < ST_LROWS; i++) {
			float o[NG_WARP];

			for (unsigned int l = 0; l < NG_WARP; l++) {
				/* the point's tile column is lc + l + 1, its row i + 1 */
				const float *t = sh + i * ST_TW + lc + l;

				o[l] = st_point(t[ST_TW + 1], t[1], t[2 * ST_TW + 1],
						t[ST_TW + 2], t[ST_TW], t[2], t[2 * ST_TW + 2],
						t[0], t[2 * ST_TW]);
			}
			ng_st_contig(&w, a->next + (r0 + i + 1) * a->pitch + c0 + lc + 1,
				     4, o);
		}
		ng_warp_compute(&w, ST_INSTS_COMP);
	}
}

static int st_launch(struct wlc *c, const char *name, ng_kernel_fn fn,
		     struct st_args *a, bool timed)
{
	/* dimGrid(gRows / lRows, gCols / lCols), dimBlock(1, lCols) */
	return wlc_launch_2d(c, name, fn, a,
			     (struct ng_dim){ (unsigned int)(a->rows / ST_LROWS),
					      (unsigned int)(a->cols / ST_LCOLS) },
			     (struct ng_dim){ 1, ST_LCOLS }, -1, timed);
}

/*
 * The CPU reference: SHOC's stencil on padded matrices (halo 0), the same
 * sums in the same order, @iters times; returns the last result.
 */
static float *st_ref(const struct st_args *a, float *m0, float *m1,
		     unsigned int iters)
{
	uint64_t P = a->pitch;

	memset(m0, 0, (a->rows + 2) * P * 4);
	memset(m1, 0, (a->rows + 2) * P * 4);
	for (uint64_t r = 0; r < a->rows; r++)
		for (uint64_t c = 0; c < a->cols; c++)
			m0[(r + 1) * P + c + 1] = st_v0(a->seed, r, c);
	for (unsigned int it = 0; it < iters; it++) {
		for (uint64_t r = 1; r <= a->rows; r++)
			for (uint64_t c = 1; c <= a->cols; c++) {
				const float *t = m0 + r * P + c;

				m1[r * P + c] = st_point(t[0], t[-(int64_t)P], t[P],
							 t[1], t[-1], t[1 - (int64_t)P],
							 t[P + 1], t[-1 - (int64_t)P],
							 t[P - 1]);
			}
		float *x = m0;

		m0 = m1;
		m1 = x;
	}
	return m0;
}

/* The interior of padded @m, packed. */
static void st_interior(const struct st_args *a, const float *m, float *out)
{
	for (uint64_t r = 0; r < a->rows; r++)
		memcpy(out + r * a->cols, m + (r + 1) * a->pitch + 1, a->cols * 4);
}

static int st_run(struct ng_system *sys, const struct ng_bench_opts *o,
		  struct ng_bench_result *r, char *err, size_t errlen)
{
	struct wlc c;
	struct ng_buf b0 = { 0 }, b1 = { 0 };
	struct st_args a = { 0 };
	float *m0 = NULL, *m1 = NULL, *got = NULL, *want = NULL;
	uint64_t n = o->size / 4, side, npts, nblocks;
	char ok[160];
	int ret;

	wlc_init(&c, sys, o, r, err, errlen);
	side = wl_isqrt(n);
	a.cols = side / ST_LCOLS * ST_LCOLS;
	a.pitch = (a.cols + 2 + ST_PAD - 1) / ST_PAD * ST_PAD;
	a.rows = a.cols && n / a.pitch > 2 ? (n / a.pitch - 2) / ST_LROWS * ST_LROWS : 0;
	if (a.cols < ST_LCOLS || a.rows < ST_LROWS) {
		ng_seterr(err, errlen,
			  "st: size must hold a %u x %u matrix of floats (%u bytes) at least",
			  ST_LCOLS, ST_LCOLS, ST_LCOLS * ST_LCOLS * 4);
		return -EINVAL;
	}
	if (c.cfg->shared_bytes < (ST_LROWS + 2) * ST_TW * 4) {
		ng_seterr(err, errlen, "st: a block needs %u bytes of shared memory (shared = %llu)",
			  (ST_LROWS + 2) * ST_TW * 4,
			  (unsigned long long)c.cfg->shared_bytes);
		return -EINVAL;
	}
	a.seed = c.cfg->seed;
	npts = a.rows * a.cols;
	nblocks = npts / (ST_LROWS * ST_LCOLS);
	ret = wlc_alloc(&c, &b0, (a.rows + 2) * a.pitch * 4, -1);
	if (!ret)
		ret = wlc_alloc(&c, &b1, (a.rows + 2) * a.pitch * 4, -1);
	if (ret)
		goto out;
	a.cur = b0.ptr;
	a.next = b1.ptr;
	r->elements = npts;
	/* per block: its tile's loads (with the halo columns) and its stores */
	r->bytes = 4ULL * nblocks * o->iters *
		   ((ST_LROWS + 2) * (ST_LCOLS + 2) + ST_LROWS * ST_LCOLS);
	c.total = o->iters;
	ret = st_launch(&c, "st-init", st_init, &a, false);
	if (ret)
		goto out;
	ng_system_reset_counters(sys);
	for (unsigned int it = 0; it < o->iters; it++) {
		ret = st_launch(&c, "st", st_kernel, &a, true);
		if (ret)
			goto out;
		float *x = a.cur;

		a.cur = a.next;
		a.next = x;
	}
	wl_collect(sys, r);
	m0 = malloc((a.rows + 2) * a.pitch * 4);
	m1 = malloc((a.rows + 2) * a.pitch * 4);
	got = malloc(npts * 4);
	want = malloc(npts * 4);
	if (!m0 || !m1 || !got || !want) {
		ret = -ENOMEM;
		ng_seterr(err, errlen, "st: out of memory");
		goto out;
	}
	st_interior(&a, st_ref(&a, m0, m1, o->iters), want);
	st_interior(&a, a.cur, got);
	snprintf(ok, sizeof(ok),
		 "%u iteration%s over %llu x %llu points match the CPU reference",
		 o->iters, o->iters == 1 ? "" : "s", (unsigned long long)a.rows,
		 (unsigned long long)a.cols);
	wl_corrupt_f32(o, got, npts);
	wl_check_f32(r, "data", got, want, npts, a.cols, 1e-4f, 1e-6f, ok);
out:
	free(m0);
	free(m1);
	free(got);
	free(want);
	ng_free(c.sp, &b1);
	ng_free(c.sp, &b0);
	return ret;
}

const struct ng_workload ng_wl_st = {
	.name = "st",
	.desc = "2-D 9-point stencil (SHOC Stencil2D): 8x256 strips through shared memory, ping-pong",
	.default_size = 1ULL << 20,
	.paper_footprint = 128ULL << 20,
	.paper_ref = "REC Table 3: ST 128 MB",
	.default_iters = 4,
	.narrays = 2,
	.run = st_run,
};
