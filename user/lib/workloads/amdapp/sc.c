// SPDX-License-Identifier: GPL-2.0
/*
 * sc: simple convolution, after the AMD APP SDK 3.0 sample
 * SimpleConvolution (SimpleConvolution_Kernels.cl,
 * simpleNonSeparableConvolution; the kernel MGPUSim runs too). The input
 * image is padded by maskWidth - 1 = 2 columns and rows of zeros (the
 * SDK pads on the host; the 2.x sample clamped the mask at the borders
 * instead), and each output pixel is the mask-weighted sum of its 3 x 3
 * neighbourhood:
 *
 *   out[y][x] = sum over m, n < 3 of in[y + m][x + n] * mask[m][n]
 *
 * with m (rows) the outer loop and n the inner one, as the kernel does,
 * from sumFX = 0. The mask is the SDK's default width 3; its values here
 * are a Sobel filter (-1 0 1 / -2 0 2 / -1 0 1), the pixels integers
 * 0..255 as the SDK's random uint pixels, so every sum is exact.
 *
 * Work distribution as the SDK's: a 1-D NDRange of width x height
 * work-items, one per output pixel (tid = get_global_id(0), x = tid %
 * width, y = tid / width), in 1-D work-groups of 256 (setWorkGroupSize():
 * localThreads[0] = 256; the kernel only uses dimension 0, so there is no
 * 2-D work-group shape to follow). A warp is 32 consecutive pixels of one
 * row (width is a multiple of 32 here); per tap it loads a contiguous,
 * misaligned run of 32 input pixels and the mask element (one address for
 * all lanes: the mask is a __global buffer, loaded in the loop), then
 * stores its 32 outputs. Differences: floats instead of uint pixels and
 * int outputs (no +0.5 rounding to int); the mask is written once, on
 * GPU 0, as the host copies it to the first device.
 *
 * Batch scheduling gives each GPU a contiguous band of rows: the input and
 * output are homed with them, the two input rows at a band edge are read
 * by both GPUs, and the mask's one line, homed on GPU 0, is read by every
 * warp of every GPU (nine times).
 */
#include <math.h>
#include <stdlib.h>

#include "workloads/wl.h"

#define SC_BLOCK	256	/* the SDK's localThreads[0] */
#define SC_MASK		3	/* the SDK's default mask width */
#define SC_TAPS		(SC_MASK * SC_MASK)
/*
 * A work-item's arithmetic: tid (2), x and y, an unsigned division and
 * remainder by width (10), the bound check (3), per tap the mask and
 * input indices (4), the conversion and the multiply-add (2) and the loop
 * (2), then the rounding and conversion (2) and the store's address (2).
 */
#define SC_INSTS	(19 + 8 * SC_TAPS)

static const float sc_mask0[SC_TAPS] = {
	-1.0f, 0.0f, 1.0f, -2.0f, 0.0f, 2.0f, -1.0f, 0.0f, 1.0f,
};

struct sc_args {
	float *in, *out, *mask;
	uint64_t w, h, xw;	/* output width and height, padded width */
	uint64_t seed;
};

/* Pixel (y, x) of the unpadded image: an integer 0..255. */
static float sc_pixel(uint64_t seed, uint64_t y, uint64_t x)
{
	return (float)(wlc_hash(seed * 0x5c5c + (y << 32) + x) & 255);
}

/*
 * Untimed: each work-item writes the input pixel under its output pixel
 * (and the zero padding next to it on the image's edges) and a zero
 * output, so that the bands are homed where the kernel uses them.
 */
static void sc_init(struct ng_block *b, void *p)
{
	const struct sc_args *a = p;

	for (unsigned int wi = 0; wi < b->nwarps; wi++) {
		float v[NG_WARP], z[NG_WARP] = { 0 };
		uint64_t tid = b->id * SC_BLOCK + wi * NG_WARP;
		uint64_t x0 = tid % a->w, y = tid / a->w;
		float *row = a->in + (y + 1) * a->xw;
		struct ng_warp w;

		ng_warp_get(b, wi, &w);
		for (unsigned int l = 0; l < NG_WARP; l++)
			v[l] = sc_pixel(a->seed, y, x0 + l);
		ng_st_contig(&w, row + x0 + 1, 4, v);
		if (y == 0)
			ng_st_contig(&w, a->in + x0 + 1, 4, z);
		if (y + 1 == a->h)
			ng_st_contig(&w, row + a->xw + x0 + 1, 4, z);
		for (int dy = y == 0 ? -1 : 0; dy <= (y + 1 == a->h); dy++) {
			if (x0 == 0)
				wl_st1(&w, 0, row + dy * (int64_t)a->xw, 0.0f);
			if (x0 + NG_WARP == a->w)
				wl_st1(&w, NG_WARP - 1,
				       row + dy * (int64_t)a->xw + a->w + 1, 0.0f);
		}
		ng_st_contig(&w, a->out + tid, 4, z);
	}
}

/* Untimed, one warp on GPU 0: the host's copy of the mask. */
static void sc_init_mask(struct ng_block *b, void *p)
{
	const struct sc_args *a = p;
	struct ng_warp w;

	ng_warp_get(b, 0, &w);
	w.nlanes = SC_TAPS;
	w.active = (1u << SC_TAPS) - 1;
	ng_st_contig(&w, a->mask, 4, sc_mask0);
}

static void sc_kernel(struct ng_block *b, void *p)
{
	const struct sc_args *a = p;

	for (unsigned int wi = 0; wi < b->nwarps; wi++) {
		float bin[SC_TAPS][NG_WARP], mv[SC_TAPS][NG_WARP];
		float sum[NG_WARP] = { 0 };
		uint64_t tid = b->id * SC_BLOCK + wi * NG_WARP;
		uint64_t x0 = tid % a->w, y = tid / a->w;
		uintptr_t maddr[NG_WARP];
		const float *in;
		struct ng_warp w;

		ng_warp_get(b, wi, &w);
		for (unsigned int m = 0; m < SC_MASK; m++)
			for (unsigned int n = 0; n < SC_MASK; n++) {
				unsigned int k = m * SC_MASK + n;

				in = ng_ld_contig_ref(&w, a->in + (y + m) * a->xw + x0 + n,
						      4, bin[k]);
				for (unsigned int l = 0; l < NG_WARP; l++)
					maddr[l] = (uintptr_t)&a->mask[k];
				ng_ld(&w, maddr, 4, mv[k]);
				for (unsigned int l = 0; l < NG_WARP; l++)
					sum[l] += in[l] * mv[k][l];
			}
		ng_warp_compute(&w, SC_INSTS);
		ng_st_contig(&w, a->out + tid, 4, sum);
	}
}

static int sc_launch(struct wlc *c, const char *name, ng_kernel_fn fn,
		     struct sc_args *a, unsigned int nblocks, int only_gpu,
		     bool timed)
{
	return wlc_launch(c, name, fn, a, nblocks, SC_BLOCK, only_gpu, timed);
}

/* The CPU reference: the padded image, then the same sums in the same order. */
static void sc_ref(const struct sc_args *a, float *pin, float *ref)
{
	memset(pin, 0, (a->h + 2) * a->xw * 4);
	for (uint64_t y = 0; y < a->h; y++)
		for (uint64_t x = 0; x < a->w; x++)
			pin[(y + 1) * a->xw + x + 1] = sc_pixel(a->seed, y, x);
	for (uint64_t y = 0; y < a->h; y++)
		for (uint64_t x = 0; x < a->w; x++) {
			float s = 0;

			for (unsigned int m = 0; m < SC_MASK; m++)
				for (unsigned int n = 0; n < SC_MASK; n++)
					s += pin[(y + m) * a->xw + x + n] *
					     sc_mask0[m * SC_MASK + n];
			ref[y * a->w + x] = s;
		}
}

static int sc_run(struct ng_system *sys, const struct ng_bench_opts *o,
		  struct ng_bench_result *r, char *err, size_t errlen)
{
	struct wlc c;
	struct ng_buf bi = { 0 }, bo = { 0 }, bm = { 0 };
	struct sc_args a = { 0 };
	float *pin = NULL, *ref = NULL;
	uint64_t n = o->size / 4, side, nout;
	unsigned int nblocks;
	char ok[160];
	int ret;

	wlc_init(&c, sys, o, r, err, errlen);
	/* width a multiple of 32, height of 8: whole warps and work-groups */
	side = wl_isqrt(n);
	a.w = side / NG_WARP * NG_WARP;
	a.xw = a.w + SC_MASK - 1;
	a.h = a.w ? (n / a.xw - (SC_MASK - 1)) / 8 * 8 : 0;
	if (a.w < NG_WARP || a.h < 8 || a.w * a.h / SC_BLOCK > UINT32_MAX) {
		ng_seterr(err, errlen,
			  "sc: size must hold a %u x %u image of floats (%u bytes) at least",
			  NG_WARP, NG_WARP, NG_WARP * NG_WARP * 4);
		return -EINVAL;
	}
	a.seed = c.cfg->seed;
	nout = a.w * a.h;
	nblocks = (unsigned int)(nout / SC_BLOCK);
	ret = wlc_alloc(&c, &bi, (a.h + 2) * a.xw * 4, -1);
	if (!ret)
		ret = wlc_alloc(&c, &bo, nout * 4, -1);
	if (!ret)
		ret = wlc_alloc(&c, &bm, SC_TAPS * 4, -1);
	if (ret)
		goto out;
	a.in = bi.ptr;
	a.out = bo.ptr;
	a.mask = bm.ptr;
	r->elements = nout;
	/* per pixel: nine input and nine mask loads, one store */
	r->bytes = 4ULL * (2 * SC_TAPS + 1) * nout * o->iters;
	c.total = o->iters;
	ret = sc_launch(&c, "sc-init", sc_init, &a, nblocks, -1, false);
	if (!ret)
		ret = sc_launch(&c, "sc-mask", sc_init_mask, &a, 1, 0, false);
	if (ret)
		goto out;
	ng_system_reset_counters(sys);
	for (unsigned int it = 0; it < o->iters && !ret; it++)
		ret = sc_launch(&c, "sc", sc_kernel, &a, nblocks, -1, true);
	if (ret)
		goto out;
	wl_collect(sys, r);
	pin = malloc((a.h + 2) * a.xw * 4);
	ref = malloc(nout * 4);
	if (!pin || !ref) {
		ret = -ENOMEM;
		ng_seterr(err, errlen, "sc: out of memory");
		goto out;
	}
	sc_ref(&a, pin, ref);
	snprintf(ok, sizeof(ok),
		 "%llu x %llu pixels convolved with a %ux%u mask match the CPU reference",
		 (unsigned long long)a.w, (unsigned long long)a.h, SC_MASK, SC_MASK);
	wl_corrupt_f32(o, a.out, nout);
	wl_check_f32(r, "output", a.out, ref, nout, a.w, 1e-4f, 1e-4f, ok);
out:
	free(pin);
	free(ref);
	ng_free(c.sp, &bm);
	ng_free(c.sp, &bo);
	ng_free(c.sp, &bi);
	return ret;
}

const struct ng_workload ng_wl_sc = {
	.name = "sc",
	.desc = "simple convolution (AMD APP SDK SimpleConvolution): 3x3 mask over a padded image, 1-D groups of 256",
	.default_size = 1ULL << 20,
	.paper_footprint = 512ULL << 20,
	.paper_ref = "REC Table 3: SC 512 MB",
	.default_iters = 1,
	.narrays = 2,
	.run = sc_run,
};
