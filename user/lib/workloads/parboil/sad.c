// SPDX-License-Identifier: GPL-2.0
/*
 * sad: sum of absolute differences for motion estimation, after Parboil's
 * sad (mb_sad_calc, larger_sad_calc_8, larger_sad_calc_16): for every
 * 16 x 16 macroblock of the current frame and every displacement in a
 * search window of the reference frame, the SADs of its sixteen 4 x 4
 * blocks, then those summed into its four 8 x 8 blocks and the whole
 * 16 x 16 macroblock. Two kernels here, as Parboil's first and (merged)
 * later ones: a block per macroblock, a thread per displacement (a search
 * range of +-4: 81 threads, where Parboil searches +-16 with more
 * threads; a window that leaves the frame is moved back inside). A
 * thread reads its window a row at a time (16 pixels). Pixels are 32-bit
 * words (Parboil: 16-bit), splitmix64 of the seed. CODA counts sad as
 * core-exclusive (a block's macroblock and window are near its
 * neighbours'), and notes its few blocks. Verified against the CPU's SADs,
 * every 4 x 4, 8 x 8 and 16 x 16 one.
 */
#include <stdlib.h>

#include "workloads/wl.h"

#define SAD_MB		16
#define SAD_R		4
#define SAD_SIDE	(2 * SAD_R + 1)
#define SAD_POS		(SAD_SIDE * SAD_SIDE)	/* 81 displacements */
#define SAD_SUB		16			/* 4 x 4 blocks */
/* a row of 16 pixels: 16 subtracts, absolutes and adds (~48) */
#define SAD_ROW_INSTS	48
/* the larger sums: 20 adds and the addresses (~24) */
#define SAD_SUM_INSTS	24

struct sad_args {
	uint32_t *cur, *ref, *s4, *s8, *s16;
	uint64_t w, mbw;		/* pixels a side, macroblocks a side */
	uint64_t seed;
};

static uint32_t sad_px(uint64_t seed, uint64_t frame, uint64_t i)
{
	return (uint32_t)(wlc_hash(seed * 0x736164 + frame * 0x10000000ULL +
				   i) % 256);
}

/* The top-left pixel of displacement @p of macroblock (@mx, @my). */
static void sad_window(const struct sad_args *a, uint64_t mx, uint64_t my,
		       unsigned int p, uint64_t *x, uint64_t *y)
{
	int64_t dx = (int64_t)(p % SAD_SIDE) - SAD_R;
	int64_t dy = (int64_t)(p / SAD_SIDE) - SAD_R;
	int64_t x0 = (int64_t)(mx * SAD_MB) + dx, y0 = (int64_t)(my * SAD_MB) + dy;
	int64_t last = (int64_t)(a->w - SAD_MB);

	*x = (uint64_t)(x0 < 0 ? 0 : x0 > last ? last : x0);
	*y = (uint64_t)(y0 < 0 ? 0 : y0 > last ? last : y0);
}

static void sad_init(struct ng_block *b, void *p)
{
	const struct sad_args *a = p;

	for (unsigned int wi = 0; wi < b->nwarps; wi++) {
		uint32_t c[NG_WARP], r[NG_WARP];
		struct ng_warp w;
		uint64_t i0;

		ng_warp_get(b, wi, &w);
		if (!wlc_lanes(&w, a->w * a->w, 256, &i0))
			break;
		for (unsigned int l = 0; l < w.nlanes; l++) {
			c[l] = sad_px(a->seed, 0, i0 + l);
			r[l] = sad_px(a->seed, 1, i0 + l);
		}
		ng_st_contig(&w, a->cur + i0, 4, c);
		ng_st_contig(&w, a->ref + i0, 4, r);
	}
}

static void sad_mb(struct ng_block *b, void *p)
{
	const struct sad_args *a = p;
	uint64_t mx = b->id % a->mbw, my = b->id / a->mbw;
	uint32_t *cur = b->shared;	/* the macroblock, 16 x 16 */
	struct ng_warp w;

	/* the current macroblock into shared memory, a row per step */
	ng_warp_get(b, 0, &w);
	w.nlanes = SAD_MB;
	w.active = (1u << SAD_MB) - 1;
	for (unsigned int r = 0; r < SAD_MB; r++)
		ng_ld_contig(&w, a->cur + (my * SAD_MB + r) * a->w + mx * SAD_MB,
			     4, cur + r * SAD_MB);
	ng_block_sync(b);
	for (unsigned int wi = 0; wi < b->nwarps; wi++) {
		uint32_t sums[NG_WARP][SAD_SUB] = { { 0 } };
		uint64_t wx[NG_WARP], wy[NG_WARP];
		uintptr_t addr[NG_WARP];

		ng_warp_get(b, wi, &w);
		for (unsigned int l = 0; l < w.nlanes; l++)
			sad_window(a, mx, my, w.tid0 + l, &wx[l], &wy[l]);
		for (unsigned int r = 0; r < SAD_MB; r++) {
			uint32_t row[NG_WARP][SAD_MB];

			for (unsigned int l = 0; l < w.nlanes; l++)
				addr[l] = (uintptr_t)(a->ref + (wy[l] + r) * a->w +
						      wx[l]);
			ng_warp_compute(&w, SAD_ROW_INSTS);
			ng_ld(&w, addr, 4 * SAD_MB, row);
			for (unsigned int l = 0; l < w.nlanes; l++)
				for (unsigned int x = 0; x < SAD_MB; x++) {
					uint32_t c = cur[r * SAD_MB + x];
					uint32_t d = c > row[l][x] ? c - row[l][x]
								   : row[l][x] - c;

					sums[l][(r / 4) * 4 + x / 4] += d;
				}
		}
		for (unsigned int l = 0; l < w.nlanes; l++)
			addr[l] = (uintptr_t)(a->s4 + (b->id * SAD_POS + w.tid0 +
						       l) * SAD_SUB);
		ng_st(&w, addr, 4 * SAD_SUB, sums);
	}
}

static void sad_larger(struct ng_block *b, void *p)
{
	const struct sad_args *a = p;

	for (unsigned int wi = 0; wi < b->nwarps; wi++) {
		uint32_t s4[NG_WARP][SAD_SUB], s8[NG_WARP][4], s16[NG_WARP];
		uintptr_t addr[NG_WARP];
		struct ng_warp w;

		ng_warp_get(b, wi, &w);
		for (unsigned int l = 0; l < w.nlanes; l++)
			addr[l] = (uintptr_t)(a->s4 + (b->id * SAD_POS + w.tid0 +
						       l) * SAD_SUB);
		ng_warp_compute(&w, SAD_SUM_INSTS);
		ng_ld(&w, addr, 4 * SAD_SUB, s4);
		for (unsigned int l = 0; l < w.nlanes; l++) {
			s16[l] = 0;
			for (unsigned int q = 0; q < 4; q++) {
				unsigned int r0 = (q / 2) * 2, c0 = (q % 2) * 2;

				s8[l][q] = s4[l][r0 * 4 + c0] + s4[l][r0 * 4 + c0 + 1] +
					   s4[l][(r0 + 1) * 4 + c0] +
					   s4[l][(r0 + 1) * 4 + c0 + 1];
				s16[l] += s8[l][q];
			}
			addr[l] = (uintptr_t)(a->s8 + (b->id * SAD_POS + w.tid0 +
						       l) * 4);
		}
		ng_st(&w, addr, 16, s8);
		for (unsigned int l = 0; l < w.nlanes; l++)
			addr[l] = (uintptr_t)(a->s16 + b->id * SAD_POS + w.tid0 + l);
		ng_st(&w, addr, 4, s16);
	}
}

static int sad_verify(struct wlc *c, const struct sad_args *a)
{
	uint64_t nmb = a->mbw * a->mbw, n4 = nmb * SAD_POS * SAD_SUB;
	uint32_t *w4 = calloc(n4, 4), *w8 = calloc(nmb * SAD_POS * 4, 4);
	uint32_t *w16 = calloc(nmb * SAD_POS, 4);
	char ok[112];

	if (!w4 || !w8 || !w16) {
		free(w4);
		free(w8);
		free(w16);
		ng_seterr(c->err, c->errlen, "sad: out of memory");
		return -ENOMEM;
	}
	for (uint64_t mb = 0; mb < nmb; mb++)
		for (unsigned int p = 0; p < SAD_POS; p++) {
			uint64_t mx = mb % a->mbw, my = mb / a->mbw, x0, y0;
			uint64_t k = mb * SAD_POS + p;

			sad_window(a, mx, my, p, &x0, &y0);
			for (unsigned int r = 0; r < SAD_MB; r++)
				for (unsigned int x = 0; x < SAD_MB; x++) {
					uint32_t cv = sad_px(a->seed, 0,
						(my * SAD_MB + r) * a->w + mx * SAD_MB + x);
					uint32_t rv = sad_px(a->seed, 1,
						(y0 + r) * a->w + x0 + x);

					w4[k * SAD_SUB + (r / 4) * 4 + x / 4] +=
						cv > rv ? cv - rv : rv - cv;
				}
			for (unsigned int q = 0; q < 4; q++) {
				unsigned int r0 = (q / 2) * 2, c0 = (q % 2) * 2;
				uint32_t *s = w4 + k * SAD_SUB;

				w8[k * 4 + q] = s[r0 * 4 + c0] + s[r0 * 4 + c0 + 1] +
						s[(r0 + 1) * 4 + c0] +
						s[(r0 + 1) * 4 + c0 + 1];
				w16[k] += w8[k * 4 + q];
			}
		}
	snprintf(ok, sizeof(ok),
		 "the 4x4, 8x8 and 16x16 SADs of %llu macroblocks x %u displacements match the CPU's",
		 (unsigned long long)nmb, SAD_POS);
	wl_corrupt_u32(c->o, a->s16, nmb * SAD_POS);
	if (wl_check_u32(c->r, "SAD16", a->s16, w16, nmb * SAD_POS, SAD_POS, ok) &&
	    wl_check_u32(c->r, "SAD8", a->s8, w8, nmb * SAD_POS * 4, 0, ok))
		wl_check_u32(c->r, "SAD4", a->s4, w4, n4, 0, ok);
	free(w4);
	free(w8);
	free(w16);
	return 0;
}

static int sad_run(struct ng_system *sys, const struct ng_bench_opts *o,
		   struct ng_bench_result *r, char *err, size_t errlen)
{
	struct ng_buf bc = { 0 }, br = { 0 }, b4 = { 0 }, b8 = { 0 }, b16 = { 0 };
	struct sad_args a = { 0 };
	uint64_t nmb;
	struct wlc c;
	int ret;

	wlc_init(&c, sys, o, r, err, errlen);
	a.w = wl_isqrt(o->size / 8) / SAD_MB * SAD_MB;
	if (!a.w) {
		ng_seterr(err, errlen,
			  "sad: size must hold two %u x %u frames of words (%u bytes) at least",
			  SAD_MB, SAD_MB, 2 * SAD_MB * SAD_MB * 4);
		return -EINVAL;
	}
	a.mbw = a.w / SAD_MB;
	a.seed = c.cfg->seed;
	nmb = a.mbw * a.mbw;
	ret = wlc_alloc(&c, &bc, a.w * a.w * 4, -1);
	if (!ret)
		ret = wlc_alloc(&c, &br, a.w * a.w * 4, -1);
	if (!ret)
		ret = wlc_alloc(&c, &b4, nmb * SAD_POS * SAD_SUB * 4, -1);
	if (!ret)
		ret = wlc_alloc(&c, &b8, nmb * SAD_POS * 4 * 4, -1);
	if (!ret)
		ret = wlc_alloc(&c, &b16, nmb * SAD_POS * 4, -1);
	if (ret)
		goto out;
	a.cur = bc.ptr;
	a.ref = br.ptr;
	a.s4 = b4.ptr;
	a.s8 = b8.ptr;
	a.s16 = b16.ptr;
	r->elements = nmb * SAD_POS;
	r->bytes = (2 * a.w * a.w + nmb * SAD_POS * 42) * 4 * o->iters;
	c.total = 2 * o->iters;
	ret = wlc_launch(&c, "sad-init", sad_init, &a,
			 (a.w * a.w + 255) / 256, 256, -1, false);
	if (ret)
		goto out;
	ng_system_reset_counters(sys);
	for (unsigned int it = 0; it < o->iters && !ret; it++) {
		ret = wlc_launch(&c, "mb_sad_calc", sad_mb, &a, nmb, SAD_POS, -1,
				 true);
		if (!ret)
			ret = wlc_launch(&c, "larger_sad_calc", sad_larger, &a,
					 nmb, SAD_POS, -1, true);
	}
	if (ret)
		goto out;
	wl_collect(sys, r);
	ret = sad_verify(&c, &a);
out:
	ng_free(c.sp, &b16);
	ng_free(c.sp, &b8);
	ng_free(c.sp, &b4);
	ng_free(c.sp, &br);
	ng_free(c.sp, &bc);
	return ret;
}

const struct ng_workload ng_wl_sad = {
	.name = "sad",
	.desc = "sum of absolute differences (Parboil sad): 4x4, 8x8, 16x16 SADs over a search window",
	.default_size = 512ULL << 10,	/* two 256 x 256 frames */
	.default_iters = 1,
	.narrays = 2,
	.run = sad_run,
};
