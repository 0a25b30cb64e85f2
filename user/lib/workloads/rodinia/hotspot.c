// SPDX-License-Identifier: GPL-2.0
/*
 * hotspot: a 2-D stencil over many iterations (after Rodinia's HotSpot).
 * Temperatures ping-pong between two grids; each cell combines itself,
 * its north/south/east/west neighbours and its power:
 *
 *   out = 0.6 in + 0.09 (n + s + e + w) + 0.04 power
 *
 * (east/west clamp at the edges of the warp's 32 cells, and north/south
 * at the grid's edges; the CPU reference does the same). Rows go to GPUs
 * in contiguous bands, so the temperature grids are homed where they are
 * used and only the halo rows at band edges cross GPUs (read-write
 * shared: the home rewrites them every other kernel). The power map is
 * read-only and loaded once by GPU 0 (as an application copies its input
 * to the first device), so every other GPU reads its band of it remotely
 * in every kernel: inter-kernel reuse that an L2 flushed at kernel
 * boundaries cannot keep, an RDC can (with none or hwc coherence, not
 * with swc), and read-only replication turns local.
 */
#include <math.h>
#include <stdlib.h>

#include "workloads/wl.h"

#define HS_W		1024	/* cells per row */
#define HS_BLOCK	256
/*
 * A cell's arithmetic: index and row/column (4), the edge clamps (4), the
 * stencil's four adds and three multiply-adds (7), addresses (5).
 */
#define HS_INSTS	20

struct hs_args {
	float *in, *out, *pw;
	uint64_t h;
	uint32_t seed;
};

static float hs_t0(uint64_t i)
{
	return 300.0f + (float)(i % 97);
}

static float hs_p0(uint64_t i)
{
	return (float)((i * 31) % 64) * 0.5f;
}

static float hs_cell(float c, float n, float s, float e, float w, float p)
{
	return 0.6f * c + 0.09f * (n + s + e + w) + 0.04f * p;
}

/* Store gen(i) at every cell i of @dst (and of @dst2 when not NULL). */
static void hs_fill(struct ng_block *b, const struct hs_args *a,
		    float (*gen)(uint64_t), float *dst, float *dst2)
{
	uint64_t n = a->h * HS_W;

	for (unsigned int wi = 0; wi < b->nwarps; wi++) {
		float v[NG_WARP];
		struct ng_warp w;
		uint64_t i0;

		ng_warp_get(b, wi, &w);
		if (!wlc_lanes(&w, n, HS_BLOCK, &i0))
			break;
		for (unsigned int l = 0; l < w.nlanes; l++)
			v[l] = gen(i0 + l);
		ng_st_contig(&w, dst + i0, 4, v);
		if (dst2)
			ng_st_contig(&w, dst2 + i0, 4, v);
	}
}

static void hs_init_t(struct ng_block *b, void *p)
{
	struct hs_args *a = p;

	hs_fill(b, a, hs_t0, a->in, a->out);
}

static void hs_init_p(struct ng_block *b, void *p)
{
	struct hs_args *a = p;

	hs_fill(b, a, hs_p0, a->pw, NULL);
}

static void hs_row(const float *c, const float *n, const float *s,
		   const float *pw, float *out, unsigned int nl)
{
	for (unsigned int l = 0; l < nl; l++) {
		float e = c[l + 1 < nl ? l + 1 : l];
		float w = c[l ? l - 1 : l];

		out[l] = hs_cell(c[l], n[l], s[l], e, w, pw[l]);
	}
}

static void hs_kernel(struct ng_block *b, void *p)
{
	struct hs_args *a = p;
	uint64_t n = a->h * HS_W;

	for (unsigned int wi = 0; wi < b->nwarps; wi++) {
		float bc[NG_WARP], bn[NG_WARP], bs[NG_WARP], bp[NG_WARP];
		float o[NG_WARP];
		const float *c, *nn, *ss, *pw;
		struct ng_warp w;
		uint64_t i0, y;

		ng_warp_get(b, wi, &w);
		if (!wlc_lanes(&w, n, HS_BLOCK, &i0))
			break;
		y = i0 / HS_W;
		c = ng_ld_contig_ref(&w, a->in + i0, 4, bc);
		nn = y ? ng_ld_contig_ref(&w, a->in + i0 - HS_W, 4, bn) : c;
		ss = y + 1 < a->h ? ng_ld_contig_ref(&w, a->in + i0 + HS_W, 4, bs) : c;
		pw = ng_ld_contig_ref(&w, a->pw + i0, 4, bp);
		hs_row(c, nn, ss, pw, o, w.nlanes);
		ng_warp_compute(&w, HS_INSTS);
		ng_st_contig(&w, a->out + i0, 4, o);
	}
}

static int hs_run(struct ng_system *sys, const struct ng_bench_opts *o,
		  struct ng_bench_result *r, char *err, size_t errlen)
{
	struct wlc c;
	struct ng_buf b0 = { 0 }, b1 = { 0 }, bp = { 0 };
	struct hs_args a = { 0 };
	float *ra = NULL, *rb = NULL, *rp = NULL;
	uint64_t n, nblocks;
	int ret;

	wlc_init(&c, sys, o, r, err, errlen);
	a.h = o->size / 4 / HS_W;
	if (a.h < 2) {
		ng_seterr(err, errlen, "hotspot: size must hold two rows of %u floats",
			  HS_W);
		return -EINVAL;
	}
	n = a.h * HS_W;
	nblocks = n / HS_BLOCK;
	ret = wlc_alloc_each(&c, (struct ng_buf *const[]){ &b0, &b1, &bp }, 3,
			     n * 4);
	if (ret)
		goto out;
	a.in = b0.ptr;
	a.out = b1.ptr;
	a.pw = bp.ptr;
	r->elements = n;
	r->bytes = 4ULL * 5 * n * o->iters;
	c.total = o->iters;
	ret = wlc_launch(&c, "hs-init", hs_init_t, &a, nblocks, HS_BLOCK, -1, false);
	if (!ret)
		ret = wlc_launch(&c, "hs-power", hs_init_p, &a, nblocks, HS_BLOCK,
				 0, false);
	if (ret)
		goto out;
	ng_system_reset_counters(sys);
	for (unsigned int it = 0; it < o->iters; it++) {
		ret = wlc_launch(&c, "hotspot", hs_kernel, &a, nblocks, HS_BLOCK,
				 -1, true);
		if (ret)
			goto out;
		float *t = a.in;

		a.in = a.out;
		a.out = t;
	}
	wl_collect(sys, r);
	/* the CPU reference, same arithmetic in the same order */
	ra = malloc(n * 4);
	rb = malloc(n * 4);
	rp = malloc(n * 4);
	if (!ra || !rb || !rp) {
		ret = -ENOMEM;
		ng_seterr(err, errlen, "hotspot: out of memory");
		goto out;
	}
	for (uint64_t i = 0; i < n; i++) {
		ra[i] = hs_t0(i);
		rp[i] = hs_p0(i);
	}
	for (unsigned int it = 0; it < o->iters; it++) {
		for (uint64_t i0 = 0; i0 < n; i0 += NG_WARP) {
			uint64_t y = i0 / HS_W;
			const float *cc = ra + i0;

			hs_row(cc, y ? cc - HS_W : cc, y + 1 < a.h ? cc + HS_W : cc,
			       rp + i0, rb + i0, NG_WARP);
		}
		float *t = ra;

		ra = rb;
		rb = t;
	}
	wl_corrupt_f32(o, a.in, n);
	r->verified = true;
	snprintf(r->verify, sizeof(r->verify),
		 "%u iterations over %llu x %u cells match the CPU reference",
		 o->iters, (unsigned long long)a.h, HS_W);
	for (uint64_t i = 0; i < n; i++)
		if (fabsf(a.in[i] - ra[i]) > 1e-4f * fabsf(ra[i])) {
			r->verified = false;
			snprintf(r->verify, sizeof(r->verify),
				 "cell (%llu, %llu) is %g, the CPU reference says %g",
				 (unsigned long long)(i / HS_W),
				 (unsigned long long)(i % HS_W), (double)a.in[i],
				 (double)ra[i]);
			break;
		}
out:
	free(ra);
	free(rb);
	free(rp);
	ng_free(c.sp, &bp);
	ng_free(c.sp, &b1);
	ng_free(c.sp, &b0);
	return ret;
}

const struct ng_workload ng_wl_hotspot = {
	.name = "hotspot",
	.suites = NG_SUITE_CARVE | NG_SUITE_SCALEGPU,
	.desc = "2-D stencil over many iterations: halo and read-only power map reuse across kernels",
	.default_size = 8ULL << 20,
	.paper_footprint = 48ULL << 20,
	.paper_ref = "ScaleGPU Table 2: hotspot 48 MB",
	.default_iters = 32,
	.narrays = 3,
	.run = hs_run,
};
