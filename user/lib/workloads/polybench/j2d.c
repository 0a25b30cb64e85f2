// SPDX-License-Identifier: GPL-2.0
/*
 * j2d: 2-D Jacobi solver, after PolyBench/GPU's jacobi2D
 * (CUDA/JACOBI2D/jacobi2D.cu). Each time step is two kernels over the
 * interior points (1 <= i, j < N-1):
 *
 *   kernel 1: B[i][j] = 0.2 (A[i][j] + A[i][j-1] + A[i][j+1]
 *                            + A[i+1][j] + A[i-1][j])
 *   kernel 2: A[i][j] = B[i][j]
 *
 * summed in that order, as the CUDA kernel writes it.
 *
 * Work distribution as PolyBench/GPU's: one thread per point, blocks of
 * DIM_THREAD_BLOCK_X x DIM_THREAD_BLOCK_Y = 32 x 8 threads (x over
 * columns j, y over rows i), a grid covering the whole N x N matrix; the
 * border lanes fail the kernels' bound check and stay inactive. A warp is
 * 32 consecutive columns of one row: kernel 1 loads its row of A at
 * columns j, j-1 and j+1 (the last two misaligned runs) and the rows
 * above and below; kernel 2 copies its row of B to A. The kernels run
 * o->iters time steps (PolyBench: TSTEPS = 20; here 4 by default, to keep
 * the run short). Differences: N is a multiple of 32 (PolyBench: 1000,
 * with partial blocks on the edge), and the timed loop starts from
 * PolyBench's init_array values computed on the GPUs.
 *
 * Batch scheduling gives each GPU a contiguous band of block rows: A and
 * B are homed with their rows, and the rows of A at band edges are read
 * by the neighbouring GPU in every step after its home rewrote them in
 * the step before (read-write sharing across kernels).
 */
#include <math.h>
#include <stdlib.h>

#include "workloads/polybench/polybench.h"

#define J2D_BX		32	/* DIM_THREAD_BLOCK_X: columns per block */
#define J2D_BY		8	/* DIM_THREAD_BLOCK_Y: rows per block */
/*
 * Kernel 1, a thread: its i and j (4), the four bound checks (5), five
 * load addresses (5), four adds and the multiply (5), the store's address
 * (1). Kernel 2: i and j (4), the bound checks (5), two addresses (2).
 */
#define J2D_INSTS1	20
#define J2D_INSTS2	11

struct j2d_args {
	float *a, *b;
	uint64_t n;
};

/* PolyBench's init_array */
static float j2d_a0(uint64_t n, uint64_t i, uint64_t j)
{
	return ((float)i * (float)(j + 2) + 10.0f) / (float)n;
}

static float j2d_b0(uint64_t n, uint64_t i, uint64_t j)
{
	return ((float)((int64_t)i - 4) * (float)((int64_t)j - 1) + 11.0f) /
	       (float)n;
}

static float j2d_point(float c, float w, float e, float s, float nn)
{
	return 0.2f * (c + w + e + s + nn);
}

/* Untimed: init_array's A and B, written by the blocks that use them. */
static void j2d_init(struct ng_block *b, void *p)
{
	const struct j2d_args *a = p;
	uint64_t j0 = (uint64_t)b->idx.x * J2D_BX;

	for (unsigned int wi = 0; wi < b->nwarps; wi++) {
		float va[NG_WARP], vb[NG_WARP];
		uint64_t i = (uint64_t)b->idx.y * J2D_BY + wi;
		struct ng_warp w;

		ng_warp_get(b, wi, &w);
		for (unsigned int l = 0; l < w.nlanes; l++) {
			va[l] = j2d_a0(a->n, i, j0 + l);
			vb[l] = j2d_b0(a->n, i, j0 + l);
		}
		ng_st_contig(&w, a->a + i * a->n + j0, 4, va);
		ng_st_contig(&w, a->b + i * a->n + j0, 4, vb);
	}
}

/* The bound check's lanes of a block: columns 0 and N-1 are not computed. */
static void j2d_lanes(const struct ng_block *b, uint64_t n, uint64_t *j0,
		      unsigned int *lo, unsigned int *hi)
{
	*j0 = (uint64_t)b->idx.x * J2D_BX;
	*lo = *j0 == 0;
	*hi = *j0 + J2D_BX == n ? J2D_BX - 1 : J2D_BX;
}

static void j2d_kernel1(struct ng_block *b, void *p)
{
	const struct j2d_args *a = p;
	unsigned int lo, hi;
	uint64_t j0;

	j2d_lanes(b, a->n, &j0, &lo, &hi);
	for (unsigned int wi = 0; wi < b->nwarps; wi++) {
		float bc[NG_WARP], bw[NG_WARP], be[NG_WARP], bs[NG_WARP];
		float bn[NG_WARP], o[NG_WARP];
		uint64_t i = (uint64_t)b->idx.y * J2D_BY + wi;
		const float *c, *we, *e, *s, *nn;
		struct ng_warp w;
		int64_t i0;

		/* rows 0 and N-1: the whole warp fails the bound check */
		if (i == 0 || i + 1 >= a->n)
			continue;
		ng_warp_get(b, wi, &w);
		i0 = (int64_t)(i * a->n + j0);
		c = wl_ld_lanes(&w, a->a, i0, lo, hi, bc);
		we = wl_ld_lanes(&w, a->a, i0 - 1, lo, hi, bw);
		e = wl_ld_lanes(&w, a->a, i0 + 1, lo, hi, be);
		s = wl_ld_lanes(&w, a->a, i0 + (int64_t)a->n, lo, hi, bs);
		nn = wl_ld_lanes(&w, a->a, i0 - (int64_t)a->n, lo, hi, bn);
		for (unsigned int l = lo; l < hi; l++)
			o[l] = j2d_point(c[l], we[l], e[l], s[l], nn[l]);
		ng_warp_compute(&w, J2D_INSTS1);
		wl_st_lanes(&w, a->b, (uint64_t)i0, lo, hi, o);
	}
}

static void j2d_kernel2(struct ng_block *b, void *p)
{
	const struct j2d_args *a = p;
	unsigned int lo, hi;
	uint64_t j0;

	j2d_lanes(b, a->n, &j0, &lo, &hi);
	for (unsigned int wi = 0; wi < b->nwarps; wi++) {
		uint64_t i = (uint64_t)b->idx.y * J2D_BY + wi;
		float bv[NG_WARP];
		const float *v;
		struct ng_warp w;

		if (i == 0 || i + 1 >= a->n)
			continue;
		ng_warp_get(b, wi, &w);
		v = wl_ld_lanes(&w, a->b, (int64_t)(i * a->n + j0), lo, hi, bv);
		ng_warp_compute(&w, J2D_INSTS2);
		wl_st_lanes(&w, a->a, i * a->n + j0, lo, hi, v);
	}
}

static int j2d_launch(struct wlc *c, const char *name, ng_kernel_fn fn,
		      struct j2d_args *a, bool timed)
{
	return wlc_launch_2d(c, name, fn, a,
			     (struct ng_dim){ (unsigned int)(a->n / J2D_BX),
					      (unsigned int)(a->n / J2D_BY) },
			     (struct ng_dim){ J2D_BX, J2D_BY }, -1, timed);
}

/* The CPU reference: PolyBench's runJacobi2DCpu, same sums in the same order. */
static void j2d_ref(float *ra, float *rb, uint64_t n, unsigned int steps)
{
	for (uint64_t i = 0; i < n; i++)
		for (uint64_t j = 0; j < n; j++) {
			ra[i * n + j] = j2d_a0(n, i, j);
			rb[i * n + j] = j2d_b0(n, i, j);
		}
	for (unsigned int t = 0; t < steps; t++) {
		for (uint64_t i = 1; i + 1 < n; i++)
			for (uint64_t j = 1; j + 1 < n; j++) {
				const float *c = ra + i * n + j;

				rb[i * n + j] = j2d_point(c[0], c[-1], c[1], c[n],
							  c[-(int64_t)n]);
			}
		for (uint64_t i = 1; i + 1 < n; i++)
			for (uint64_t j = 1; j + 1 < n; j++)
				ra[i * n + j] = rb[i * n + j];
	}
}

static int j2d_run(struct ng_system *sys, const struct ng_bench_opts *o,
		   struct ng_bench_result *r, char *err, size_t errlen)
{
	struct wlc c;
	struct ng_buf ba = { 0 }, bb = { 0 };
	struct j2d_args a = { 0 };
	float *ra = NULL, *rb = NULL;
	uint64_t n, side;
	char ok[160];
	int ret;

	wlc_init(&c, sys, o, r, err, errlen);
	ret = pb_side(o->size, "j2d", err, errlen, &side);
	if (ret)
		return ret;
	a.n = side;
	n = side * side;
	ret = wlc_alloc(&c, &ba, n * 4, -1);
	if (!ret)
		ret = wlc_alloc(&c, &bb, n * 4, -1);
	if (ret)
		goto out;
	a.a = ba.ptr;
	a.b = bb.ptr;
	r->elements = n;
	/* per interior point and step: kernel 1's five loads and store, kernel 2's two */
	r->bytes = 4ULL * 8 * (side - 2) * (side - 2) * o->iters;
	c.total = 2 * o->iters;
	ret = j2d_launch(&c, "j2d-init", j2d_init, &a, false);
	if (ret)
		goto out;
	ng_system_reset_counters(sys);
	for (unsigned int t = 0; t < o->iters && !ret; t++) {
		ret = j2d_launch(&c, "j2d-1", j2d_kernel1, &a, true);
		if (!ret)
			ret = j2d_launch(&c, "j2d-2", j2d_kernel2, &a, true);
	}
	if (ret)
		goto out;
	wl_collect(sys, r);
	ra = malloc(n * 4);
	rb = malloc(n * 4);
	if (!ra || !rb) {
		ret = -ENOMEM;
		ng_seterr(err, errlen, "j2d: out of memory");
		goto out;
	}
	j2d_ref(ra, rb, side, o->iters);
	snprintf(ok, sizeof(ok),
		 "A and B after %u time step%s over %llu x %llu points match the CPU reference",
		 o->iters, o->iters == 1 ? "" : "s", (unsigned long long)side,
		 (unsigned long long)side);
	wl_corrupt_f32(o, a.a, n);
	if (wl_check_f32(r, "A", a.a, ra, n, side, 1e-4f, 1e-6f, ok))
		wl_check_f32(r, "B", a.b, rb, n, side, 1e-4f, 1e-6f, ok);
out:
	free(ra);
	free(rb);
	ng_free(c.sp, &bb);
	ng_free(c.sp, &ba);
	return ret;
}

const struct ng_workload ng_wl_j2d = {
	.name = "j2d",
	.desc = "2-D Jacobi solver (PolyBench/GPU JACOBI2D): 5-point stencil and copy-back per step, 32x8 blocks",
	.default_size = 1ULL << 20,
	.paper_footprint = 128ULL << 20,
	.paper_ref = "REC Table 3: J2D 128 MB",
	.default_iters = 4,
	.narrays = 2,
	.run = j2d_run,
};
