// SPDX-License-Identifier: GPL-2.0
/*
 * spmv: y = A x, repeated, with A in ELL form (K nonzeros per row, stored
 * column-major so that a warp's rows read contiguous lines) and random
 * column indices over all of x: irregular reads of a shared vector. Rows
 * and x are homed in contiguous parts per GPU by first touch, so 3/4 of
 * the x reads of 4 GPUs are remote; x is read-only across the repeated
 * kernels, which a large remote cache keeps. Verified against the CPU.
 */
#include <math.h>
#include <stdlib.h>

#include "workloads/wl.h"

#define SP_BLOCK	256
#define SP_WARPS	(SP_BLOCK / NG_WARP)
#define SP_K		8	/* nonzeros per row */
#define SP_RATIO	8	/* x elements per row */
/* A row: its index (3), then per nonzero two addresses and a multiply-add. */
#define SP_INSTS	(3 + 3 * SP_K)

struct sp_args {
	float *x, *val, *y;
	uint32_t *col;
	uint64_t nx, rows;
	uint64_t seed;
};

static uint32_t sp_col(const struct sp_args *a, uint64_t r, unsigned int k)
{
	return (uint32_t)(wlc_hash(a->seed * 131 + r * SP_K + k) % a->nx);
}

static float sp_val(uint64_t r, unsigned int k)
{
	return (float)((r + 3 * k) % 7) * 0.25f - 0.5f;
}

static float sp_x(uint64_t i)
{
	return (float)(i % 13) * 0.125f;
}

static void sp_init_x(struct ng_block *b, void *p)
{
	struct sp_args *a = p;

	for (unsigned int wi = 0; wi < b->nwarps; wi++) {
		float v[NG_WARP];
		struct ng_warp w;
		uint64_t i0;

		ng_warp_get(b, wi, &w);
		if (!wlc_lanes(&w, a->nx, SP_BLOCK, &i0))
			break;
		for (unsigned int l = 0; l < w.nlanes; l++)
			v[l] = sp_x(i0 + l);
		ng_st_contig(&w, a->x + i0, 4, v);
	}
}

static void sp_init_a(struct ng_block *b, void *p)
{
	struct sp_args *a = p;

	for (unsigned int wi = 0; wi < b->nwarps; wi++) {
		float v[NG_WARP], z[NG_WARP] = { 0 };
		uint32_t cc[NG_WARP];
		struct ng_warp w;
		uint64_t i0;

		ng_warp_get(b, wi, &w);
		if (!wlc_lanes(&w, a->rows, SP_BLOCK, &i0))
			break;
		for (unsigned int k = 0; k < SP_K; k++) {
			for (unsigned int l = 0; l < w.nlanes; l++) {
				v[l] = sp_val(i0 + l, k);
				cc[l] = sp_col(a, i0 + l, k);
			}
			ng_st_contig(&w, a->val + k * a->rows + i0, 4, v);
			ng_st_contig(&w, a->col + k * a->rows + i0, 4, cc);
		}
		ng_st_contig(&w, a->y + i0, 4, z);
	}
}

/*
 * A nonzero at a time, as SHOC's ELL kernel's loop: every warp of the
 * block loads its rows' k-th values and column indices, then each warp
 * waits for its indices before it gathers x[col] through them. Every
 * warp's loads of a step are in flight before the block's first wait, so
 * the block pays the indices' latency about once a step; the SM's other
 * blocks hide it.
 */
static void sp_kernel(struct ng_block *b, void *p)
{
	struct sp_args *a = p;
	float sum[SP_WARPS][NG_WARP] = { { 0 } }, bv[SP_WARPS][NG_WARP];
	uint32_t bc[SP_WARPS][NG_WARP];
	const float *v[SP_WARPS];
	const uint32_t *cc[SP_WARPS];
	struct ng_warp w[SP_WARPS];
	uint64_t i0[SP_WARPS];
	unsigned int nw;

	for (nw = 0; nw < b->nwarps; nw++) {
		ng_warp_get(b, nw, &w[nw]);
		if (!wlc_lanes(&w[nw], a->rows, SP_BLOCK, &i0[nw]))
			break;
	}
	for (unsigned int k = 0; k < SP_K; k++) {
		for (unsigned int wi = 0; wi < nw; wi++) {
			v[wi] = ng_ld_contig_ref(&w[wi], a->val + k * a->rows + i0[wi],
						 4, bv[wi]);
			cc[wi] = ng_ld_contig_ref(&w[wi], a->col + k * a->rows + i0[wi],
						  4, bc[wi]);
		}
		for (unsigned int wi = 0; wi < nw; wi++) {
			uintptr_t addr[NG_WARP];
			float xv[NG_WARP];
			struct ng_warp g;

			/* x[col] needs the column indices */
			ng_warp_wait(&w[wi]);
			for (unsigned int l = 0; l < w[wi].nlanes; l++)
				addr[l] = (uintptr_t)&a->x[cc[wi][l]];
			/*
			 * x's values only go into the sum: the next step's
			 * wait, for its indices, does not wait for them (the
			 * kernel's end does)
			 */
			g = w[wi];
			ng_ld(&g, addr, 4, xv);
			for (unsigned int l = 0; l < w[wi].nlanes; l++)
				sum[wi][l] += v[wi][l] * xv[l];
		}
	}
	for (unsigned int wi = 0; wi < nw; wi++) {
		ng_warp_compute(&w[wi], SP_INSTS);
		ng_st_contig(&w[wi], a->y + i0[wi], 4, sum[wi]);
	}
}

static int sp_run(struct ng_system *sys, const struct ng_bench_opts *o,
		  struct ng_bench_result *r, char *err, size_t errlen)
{
	struct wlc c;
	struct ng_buf bx = { 0 }, bv = { 0 }, bc = { 0 }, by = { 0 };
	struct sp_args a = { 0 };
	int ret;

	wlc_init(&c, sys, o, r, err, errlen);
	a.nx = o->size / 4;
	a.rows = a.nx / SP_RATIO / NG_WARP * NG_WARP;
	a.seed = c.cfg->seed;
	if (!a.rows) {
		ng_seterr(err, errlen, "spmv: size must hold %u floats at least",
			  SP_RATIO * NG_WARP);
		return -EINVAL;
	}
	ret = wlc_alloc(&c, &bx, a.nx * 4, -1);
	if (!ret)
		ret = wlc_alloc(&c, &bv, a.rows * SP_K * 4, -1);
	if (!ret)
		ret = wlc_alloc(&c, &bc, a.rows * SP_K * 4, -1);
	if (!ret)
		ret = wlc_alloc(&c, &by, a.rows * 4, -1);
	if (ret)
		goto out;
	a.x = bx.ptr;
	a.val = bv.ptr;
	a.col = bc.ptr;
	a.y = by.ptr;
	r->elements = a.rows * SP_K;
	r->bytes = a.rows * SP_K * 12ULL * o->iters;
	c.total = o->iters;
	ret = wlc_launch(&c, "sp-x", sp_init_x, &a, (a.nx + SP_BLOCK - 1) / SP_BLOCK,
			 SP_BLOCK, -1, false);
	if (!ret)
		ret = wlc_launch(&c, "sp-a", sp_init_a, &a,
				 (a.rows + SP_BLOCK - 1) / SP_BLOCK, SP_BLOCK, -1,
				 false);
	if (ret)
		goto out;
	ng_system_reset_counters(sys);
	for (unsigned int it = 0; it < o->iters; it++) {
		ret = wlc_launch(&c, "spmv", sp_kernel, &a,
				 (a.rows + SP_BLOCK - 1) / SP_BLOCK, SP_BLOCK, -1,
				 true);
		if (ret)
			goto out;
	}
	wl_collect(sys, r);
	wl_corrupt_f32(o, a.y, a.rows);
	r->verified = true;
	snprintf(r->verify, sizeof(r->verify),
		 "y = A x for %llu rows x %u nonzeros matches the CPU reference",
		 (unsigned long long)a.rows, SP_K);
	for (uint64_t i = 0; i < a.rows; i++) {
		float s = 0;

		for (unsigned int k = 0; k < SP_K; k++) {
			s += sp_val(i, k) * sp_x(sp_col(&a, i, k));
		}
		if (fabsf(a.y[i] - s) > 1e-4f * (fabsf(s) + 1)) {
			r->verified = false;
			snprintf(r->verify, sizeof(r->verify),
				 "y[%llu] = %g, the CPU reference says %g",
				 (unsigned long long)i, (double)a.y[i], (double)s);
			break;
		}
	}
out:
	ng_free(c.sp, &by);
	ng_free(c.sp, &bc);
	ng_free(c.sp, &bv);
	ng_free(c.sp, &bx);
	return ret;
}

const struct ng_workload ng_wl_spmv = {
	.name = "spmv",
	.suites = NG_SUITE_CARVE | NG_SUITE_DUALOPT | NG_SUITE_CODA,
	.desc = "sparse matrix x vector (ELL), irregular reads of a shared vector, repeated",
	.default_size = 2ULL << 20,
	.default_iters = 4,
	.narrays = 3,
	.run = sp_run,
};
