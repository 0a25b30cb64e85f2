// SPDX-License-Identifier: GPL-2.0
/*
 * ge: Gaussian elimination, after Rodinia's gaussian (gaussian.cu): for
 * each pivot t, Fan1 (a thread per row i > t, 512-thread blocks) computes
 * the multipliers m[i][t] = a[i][t] / a[t][t], then Fan2 (16 x 16 blocks
 * over rows i > t and columns j >= t) subtracts m[i][t] a[t][j] from
 * a[i][j], and the first column of threads m[i][t] b[t] from b[i]: 2 (n -
 * 1) kernels leave a upper triangular. CODA counts ge as core-exclusive:
 * a block's rows stay with it from pivot to pivot, while every block
 * reads the pivot row. The matrix is diagonally dominant (Rodinia's
 * generated matrix is too), so no pivoting; verified against the same
 * elimination on the CPU, every element of a and b (relative 1e-4).
 */
#include <stdlib.h>

#include "workloads/wl.h"

#define GE_FAN1		512
#define GE_TILE		16
/*
 * Fan1: the bound check and the divide (~6); Fan2: the indices, a
 * multiply-subtract and the b update's (~8)
 */
#define GE_FAN1_INSTS	6
#define GE_FAN2_INSTS	8

struct ge_args {
	float *a, *b, *m;
	uint64_t n;
	uint64_t t;			/* the pivot */
};

static float ge_a0(uint64_t n, uint64_t i, uint64_t j)
{
	return i == j ? (float)n + 1.0f :
	       (float)((i * 31 + j * 17) % 64) / 64.0f;
}

static float ge_b0(uint64_t i)
{
	return (float)(i % 10) + 1.0f;
}

static void ge_init(struct ng_block *b, void *p)
{
	const struct ge_args *a = p;

	for (unsigned int wi = 0; wi < b->nwarps; wi++) {
		struct ng_warp w;
		uint64_t i0;

		ng_warp_get(b, wi, &w);
		if (!wlc_lanes(&w, a->n * a->n, 256, &i0))
			break;
		{
			float v[NG_WARP], z[NG_WARP] = { 0 };

			for (unsigned int l = 0; l < w.nlanes; l++)
				v[l] = ge_a0(a->n, (i0 + l) / a->n,
					     (i0 + l) % a->n);
			ng_st_contig(&w, a->a + i0, 4, v);
			ng_st_contig(&w, a->m + i0, 4, z);
			if (i0 < a->n) {
				struct ng_warp t = w;

				t.nlanes = a->n - i0 < NG_WARP ?
					   (unsigned int)(a->n - i0) : NG_WARP;
				t.active = t.nlanes == NG_WARP ?
					   ~0u : (1u << t.nlanes) - 1;
				for (unsigned int l = 0; l < t.nlanes; l++)
					v[l] = ge_b0(i0 + l);
				ng_st_contig(&t, a->b + i0, 4, v);
			}
		}
	}
}

static void ge_fan1(struct ng_block *b, void *p)
{
	const struct ge_args *a = p;
	float piv;

	for (unsigned int wi = 0; wi < b->nwarps; wi++) {
		uintptr_t addr[NG_WARP];
		float v[NG_WARP], m[NG_WARP];
		struct ng_warp w;
		uint64_t i0;

		ng_warp_get(b, wi, &w);
		/* rows t + 1 .. n - 1 */
		if (!wlc_lanes(&w, a->n - 1 - a->t, GE_FAN1, &i0))
			break;
		ng_warp_compute(&w, GE_FAN1_INSTS);
		piv = wl_bcast(&w, a->a + a->t * a->n + a->t);
		for (unsigned int l = 0; l < w.nlanes; l++)
			addr[l] = (uintptr_t)(a->a +
					      (a->t + 1 + i0 + l) * a->n + a->t);
		ng_ld(&w, addr, 4, v);
		for (unsigned int l = 0; l < w.nlanes; l++) {
			m[l] = v[l] / piv;
			addr[l] = (uintptr_t)(a->m +
					      (a->t + 1 + i0 + l) * a->n + a->t);
		}
		ng_st(&w, addr, 4, m);
	}
}

static void ge_fan2(struct ng_block *b, void *p)
{
	const struct ge_args *a = p;
	uint64_t rows = a->n - 1 - a->t, cols = a->n - a->t;

	for (unsigned int wi = 0; wi < b->nwarps; wi++) {
		/* a warp: two rows of 16 threads */
		for (unsigned int h = 0; h < 2; h++) {
			uint64_t yi = b->idx.y * GE_TILE + wi * 2 + h;
			uint64_t xj = b->idx.x * GE_TILE;
			uint64_t i = a->t + 1 + yi, j0 = a->t + xj;
			unsigned int nl;
			float mi, row[NG_WARP], pbuf[NG_WARP], rbuf[NG_WARP], bt;
			const float *piv, *cur;
			struct ng_warp w;

			if (yi >= rows || xj >= cols)
				continue;
			nl = cols - xj < GE_TILE ? (unsigned int)(cols - xj)
						 : GE_TILE;
			ng_warp_get(b, wi, &w);
			w.nlanes = nl;
			w.active = (1u << nl) - 1;
			ng_warp_compute(&w, GE_FAN2_INSTS);
			mi = wl_bcast(&w, a->m + i * a->n + a->t);
			piv = wl_ld_lanes(&w, a->a, (int64_t)(a->t * a->n + j0),
					  0, nl, pbuf);
			cur = wl_ld_lanes(&w, a->a, (int64_t)(i * a->n + j0), 0,
					  nl, rbuf);
			for (unsigned int l = 0; l < nl; l++)
				row[l] = cur[l] - mi * piv[l];
			wl_st_lanes(&w, a->a, i * a->n + j0, 0, nl, row);
			if (xj)
				continue;
			/* the first column of threads updates b */
			bt = wl_bcast(&w, a->b + a->t);
			{
				float bi = wl_ld1(&w, 0, a->b + i);

				wl_st1(&w, 0, a->b + i, bi - mi * bt);
			}
		}
	}
}

static int ge_run(struct ng_system *sys, const struct ng_bench_opts *o,
		  struct ng_bench_result *r, char *err, size_t errlen)
{
	struct ng_buf ba = { 0 }, bb = { 0 }, bm = { 0 };
	struct ge_args a = { 0 };
	float *ra = NULL, *rb = NULL;
	struct wlc c;
	char ok[96];
	int ret;

	wlc_init(&c, sys, o, r, err, errlen);
	a.n = wl_isqrt(o->size / 4);
	if (a.n < 2) {
		ng_seterr(err, errlen, "ge: size must hold a 2 x 2 matrix (16 bytes) at least");
		return -EINVAL;
	}
	ret = wlc_alloc(&c, &ba, a.n * a.n * 4, -1);
	if (!ret)
		ret = wlc_alloc(&c, &bm, a.n * a.n * 4, -1);
	if (!ret)
		ret = wlc_alloc(&c, &bb, a.n * 4, -1);
	if (ret)
		goto out;
	a.a = ba.ptr;
	a.m = bm.ptr;
	a.b = bb.ptr;
	r->elements = a.n * a.n;
	ret = wlc_launch(&c, "ge-init", ge_init, &a,
			 (a.n * a.n + 255) / 256, 256, -1, false);
	if (ret)
		goto out;
	c.total = 2 * (unsigned int)(a.n - 1) * o->iters;
	ng_system_reset_counters(sys);
	for (unsigned int it = 0; it < o->iters && !ret; it++) {
		if (it)
			ret = wlc_launch(&c, "ge-init", ge_init, &a,
					 (a.n * a.n + 255) / 256, 256, -1, false);
		for (a.t = 0; a.t + 1 < a.n && !ret; a.t++) {
			uint64_t rows = a.n - 1 - a.t, cols = a.n - a.t;

			ret = wlc_launch(&c, "fan1", ge_fan1, &a,
					 (rows + GE_FAN1 - 1) / GE_FAN1, GE_FAN1,
					 -1, true);
			if (!ret)
				ret = wlc_launch_2d(&c, "fan2", ge_fan2, &a,
					(struct ng_dim){
						(unsigned int)((cols + GE_TILE - 1) / GE_TILE),
						(unsigned int)((rows + GE_TILE - 1) / GE_TILE) },
					(struct ng_dim){ GE_TILE, GE_TILE }, -1, true);
		}
	}
	if (ret)
		goto out;
	wl_collect(sys, r);
	r->bytes = a.n * a.n * a.n * 4 * 2 / 3 * o->iters;
	ra = malloc(a.n * a.n * 4);
	rb = malloc(a.n * 4);
	if (!ra || !rb) {
		ng_seterr(err, errlen, "ge: out of memory");
		ret = -ENOMEM;
		goto out;
	}
	for (uint64_t i = 0; i < a.n; i++) {
		rb[i] = ge_b0(i);
		for (uint64_t j = 0; j < a.n; j++)
			ra[i * a.n + j] = ge_a0(a.n, i, j);
	}
	for (uint64_t t = 0; t + 1 < a.n; t++)
		for (uint64_t i = t + 1; i < a.n; i++) {
			float m = ra[i * a.n + t] / ra[t * a.n + t];

			for (uint64_t j = t; j < a.n; j++)
				ra[i * a.n + j] -= m * ra[t * a.n + j];
			rb[i] -= m * rb[t];
		}
	snprintf(ok, sizeof(ok),
		 "the %llu x %llu elimination matches the CPU's (a and b)",
		 (unsigned long long)a.n, (unsigned long long)a.n);
	wl_corrupt_f32(o, a.a, a.n * a.n);
	if (wl_check_f32(r, "a", a.a, ra, a.n * a.n, a.n, 1e-4f, 1e-5f, ok))
		wl_check_f32(r, "b", a.b, rb, a.n, 0, 1e-4f, 1e-5f, ok);
out:
	free(ra);
	free(rb);
	ng_free(c.sp, &bb);
	ng_free(c.sp, &bm);
	ng_free(c.sp, &ba);
	return ret;
}

const struct ng_workload ng_wl_ge = {
	.name = "ge",
	.desc = "Gaussian elimination (Rodinia gaussian): Fan1 multipliers and Fan2 updates per pivot",
	.default_size = 256ULL << 10,	/* 256 x 256 */
	.default_iters = 1,
	.narrays = 2,
	.run = ge_run,
};
