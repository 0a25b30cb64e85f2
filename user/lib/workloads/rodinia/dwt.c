// SPDX-License-Identifier: GPL-2.0
/*
 * dwt: one level of the forward 2-D discrete wavelet transform with the
 * reversible 5/3 (integer) lifting filter, as Rodinia's dwt2d computes it
 * for one component (fdwt53): rows first, then columns, each a predict
 * step d[i] = x[2i+1] - (x[2i] + x[2i+2]) / 2 and an update step s[i] =
 * x[2i] + (d[i-1] + d[i] + 2) / 4 (floor divisions, JPEG 2000's
 * symmetric extension at the edges), low-pass half first, high-pass half
 * after. Rodinia tiles the image through shared memory in one kernel per
 * direction; here the same two kernels without the tiling: the row
 * kernel's block is one row (a thread per pair of pixels, reading the
 * row), the column kernel's warps take 32 adjacent columns, two rows of
 * output each (a warp reads the five rows its two lifting steps need).
 * The image is W x W 32-bit pixels (W from the size). CODA counts dwt as
 * core-majority: a block's rows are its own in the row pass, its columns
 * cross every row band in the column pass. Verified against the
 * CPU's transform, coefficient by coefficient (exact: integer lifting).
 */
#include <stdlib.h>

#include "workloads/wl.h"

/* a pair: two loads' indices, the predict and the update (~10) */
#define DW_INSTS	10

struct dw_args {
	int32_t *img, *tmp, *out;
	uint64_t w;
};

static int32_t dw_px(uint64_t w, uint64_t i)
{
	return (int32_t)((i * 2654435761u / w) % 256);
}

/* Floor division of a signed integer by 2^k. */
static int32_t dw_fl(int32_t v, unsigned int k)
{
	return v >= 0 ? v >> k : -((-v + (1 << k) - 1) >> k);
}

/* One lifting pass over @n (even) values x[i * st], into y[i * st]. */
static void dw_lift(const int32_t *x, int32_t *y, uint64_t n, uint64_t st)
{
	uint64_t h = n / 2;

	for (uint64_t i = 0; i < h; i++) {
		int32_t r = 2 * i + 2 < n ? x[(2 * i + 2) * st] : x[(2 * i) * st];

		y[(h + i) * st] = x[(2 * i + 1) * st] -
				  dw_fl(x[(2 * i) * st] + r, 1);
	}
	for (uint64_t i = 0; i < h; i++) {
		int32_t dl = i ? y[(h + i - 1) * st] : y[h * st];

		y[i * st] = x[(2 * i) * st] + dw_fl(dl + y[(h + i) * st] + 2, 2);
	}
}

static void dw_init(struct ng_block *b, void *p)
{
	const struct dw_args *a = p;

	for (unsigned int wi = 0; wi < b->nwarps; wi++) {
		int32_t v[NG_WARP];
		struct ng_warp w;
		uint64_t i0;

		ng_warp_get(b, wi, &w);
		if (!wlc_lanes(&w, a->w * a->w, 256, &i0))
			break;
		for (unsigned int l = 0; l < w.nlanes; l++)
			v[l] = dw_px(a->w, i0 + l);
		ng_st_contig(&w, a->img + i0, 4, v);
	}
}

/* Block r: row r of the image, lifted into row r of tmp. */
static void dw_rows(struct ng_block *b, void *p)
{
	const struct dw_args *a = p;
	int32_t *x = b->shared, *y = x + a->w;
	const int32_t *src = a->img + b->id * a->w;
	struct ng_warp w;

	/* the row in, a warp's pairs at a time (2 words a thread) */
	for (unsigned int wi = 0; wi < b->nwarps; wi++) {
		uint64_t i0 = (uint64_t)wi * 2 * NG_WARP;

		ng_warp_get(b, wi, &w);
		if (i0 >= a->w)
			break;
		ng_warp_compute(&w, DW_INSTS);
		ng_ld_contig(&w, src + i0, 8, x + i0);
	}
	dw_lift(x, y, a->w, 1);
	for (unsigned int wi = 0; wi < b->nwarps; wi++) {
		uint64_t i0 = (uint64_t)wi * NG_WARP;

		ng_warp_get(b, wi, &w);
		if (i0 >= a->w / 2)
			break;
		/* its low and its high coefficient */
		ng_st_contig(&w, a->tmp + b->id * a->w + i0, 4, y + i0);
		ng_st_contig(&w, a->tmp + b->id * a->w + a->w / 2 + i0, 4,
			     y + a->w / 2 + i0);
	}
}

/*
 * Warp wi of block (cx, cy): columns [32 cx, 32 cx + 32), output pair i =
 * 8 cy + wi: the rows its predict and update steps need (2i - 2 .. 2i + 2,
 * mirrored at the edges), then its low and high coefficients.
 */
static void dw_cols(struct ng_block *b, void *p)
{
	const struct dw_args *a = p;
	uint64_t c0 = (uint64_t)b->idx.x * NG_WARP, h = a->w / 2;

	for (unsigned int wi = 0; wi < b->nwarps; wi++) {
		uint64_t i = (uint64_t)b->idx.y * 8 + wi;
		int32_t x[5][NG_WARP], lo[NG_WARP], hi[NG_WARP];
		struct ng_warp w;

		if (i >= h)
			break;
		ng_warp_get(b, wi, &w);
		ng_warp_compute(&w, DW_INSTS);
		for (int k = 0; k < 5; k++) {
			int64_t rr = (int64_t)(2 * i) - 2 + k;

			/* symmetric extension: x[-1] = x[1], x[W] = x[W - 2] */
			if (rr < 0)
				rr = -rr;
			if (rr >= (int64_t)a->w)
				rr = 2 * ((int64_t)a->w - 1) - rr;
			ng_ld_contig(&w, a->tmp + (uint64_t)rr * a->w + c0, 4,
				     x[k]);
		}
		for (unsigned int l = 0; l < NG_WARP; l++) {
			/* d[i - 1] (d[0] at the top edge) and d[i] */
			int32_t dp = x[1][l] - dw_fl(x[0][l] + x[2][l], 1);
			int32_t d = x[3][l] - dw_fl(x[2][l] + x[4][l], 1);

			if (!i)
				dp = d;
			hi[l] = d;
			lo[l] = x[2][l] + dw_fl(dp + d + 2, 2);
		}
		ng_st_contig(&w, a->out + i * a->w + c0, 4, lo);
		ng_st_contig(&w, a->out + (h + i) * a->w + c0, 4, hi);
	}
}

static int dw_run(struct ng_system *sys, const struct ng_bench_opts *o,
		  struct ng_bench_result *r, char *err, size_t errlen)
{
	struct ng_buf bi = { 0 }, bt = { 0 }, bo = { 0 };
	struct dw_args a = { 0 };
	int32_t *want = NULL, *t = NULL;
	uint64_t n;
	struct wlc c;
	char ok[96];
	int ret;

	wlc_init(&c, sys, o, r, err, errlen);
	a.w = wl_isqrt(o->size / 4) / NG_WARP * NG_WARP;
	if (!a.w || 2 * a.w * 4 > c.cfg->shared_bytes) {
		ng_seterr(err, errlen,
			  "dwt: size must give a W x W image, W a multiple of %u with a row's 2 W words in shared memory (%llu bytes)",
			  NG_WARP, (unsigned long long)c.cfg->shared_bytes);
		return -EINVAL;
	}
	n = a.w * a.w;
	ret = wlc_alloc(&c, &bi, n * 4, -1);
	if (!ret)
		ret = wlc_alloc(&c, &bt, n * 4, -1);
	if (!ret)
		ret = wlc_alloc(&c, &bo, n * 4, -1);
	if (ret)
		goto out;
	a.img = bi.ptr;
	a.tmp = bt.ptr;
	a.out = bo.ptr;
	r->elements = n;
	r->bytes = 4ULL * n * 4 * o->iters;
	c.total = 2 * o->iters;
	ret = wlc_launch(&c, "dwt-init", dw_init, &a, (n + 255) / 256, 256, -1,
			 false);
	if (ret)
		goto out;
	ng_system_reset_counters(sys);
	for (unsigned int it = 0; it < o->iters && !ret; it++) {
		ret = wlc_launch(&c, "fdwt53-rows", dw_rows, &a, a.w,
				 (unsigned int)(a.w / 2), -1, true);
		if (!ret)
			ret = wlc_launch_2d(&c, "fdwt53-cols", dw_cols, &a,
				(struct ng_dim){ (unsigned int)(a.w / NG_WARP),
						 (unsigned int)((a.w / 2 + 7) / 8) },
				(struct ng_dim){ NG_WARP, 8 }, -1, true);
	}
	if (ret)
		goto out;
	wl_collect(sys, r);
	want = malloc(n * 4);
	t = malloc(n * 4);
	if (!want || !t) {
		ng_seterr(err, errlen, "dwt: out of memory");
		ret = -ENOMEM;
		goto out;
	}
	for (uint64_t i = 0; i < n; i++)
		want[i] = dw_px(a.w, i);
	for (uint64_t row = 0; row < a.w; row++)
		dw_lift(want + row * a.w, t + row * a.w, a.w, 1);
	for (uint64_t col = 0; col < a.w; col++)
		dw_lift(t + col, want + col, a.w, a.w);
	snprintf(ok, sizeof(ok),
		 "the %llu x %llu 5/3 transform matches the CPU's",
		 (unsigned long long)a.w, (unsigned long long)a.w);
	wl_corrupt_u32(o, (uint32_t *)a.out, n);
	wl_check_u32(r, "coefficient", (const uint32_t *)a.out,
		     (const uint32_t *)want, n, a.w, ok);
out:
	free(want);
	free(t);
	ng_free(c.sp, &bo);
	ng_free(c.sp, &bt);
	ng_free(c.sp, &bi);
	return ret;
}

const struct ng_workload ng_wl_dwt = {
	.name = "dwt",
	.desc = "2-D discrete wavelet transform (Rodinia dwt2d): one level of 5/3 lifting, rows then columns",
	.default_size = 1ULL << 20,	/* 512 x 512 pixels */
	.default_iters = 1,
	.narrays = 3,
	.run = dw_run,
};
