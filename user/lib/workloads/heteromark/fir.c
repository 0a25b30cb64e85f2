// SPDX-License-Identifier: GPL-2.0
/*
 * fir: a finite impulse response filter, after Hetero-Mark's FIR as
 * MGPUSim runs it (the setup REC measured): one work-item per output
 * sample, work-groups of 256, each work-item summing num_tap (16)
 * products of a coefficient and an input sample,
 *
 *   out[t] = sum over i < 16 of coeff[i] * (t >= i ? in[t - i]
 *                                                   : history[16 - (i - t)])
 *
 * in the kernel's order. A warp's 32 lanes read 32 consecutive samples,
 * shifted back by i for tap i (so most taps span two lines), and every
 * lane the same coefficient (a broadcast). The signal is processed as a
 * stream of blocks, one per kernel: the history holds the last 16 samples
 * of the block before (zeros for the first), which the original kernel
 * copies at its end; here a second kernel of 16 threads copies them,
 * because a copy in the same kernel races with the first work-group's
 * reads of the history (one work-group's barrier orders nothing across
 * work-groups). --iters blocks go through; as the same input buffer is
 * the next block, the signal is periodic. The coefficients and the
 * history are one line each, written by GPU 0 and read by every GPU.
 */
#include <stdlib.h>

#include "workloads/wl.h"

#define FIR_TAPS	16
#define FIR_BLOCK	256
/* a tap: its bound check (2), the input's or the history's address (3), a multiply-add */
#define FIR_INSTS_TAP	6
/* the sample's index and the output's address and store */
#define FIR_INSTS	4

struct fir_args {
	float *in, *out, *coeff, *hist;
	uint64_t n;
	uint64_t seed;
};

static float fir_in0(uint64_t seed, uint64_t t)
{
	return (float)(wlc_hash(seed * 0xf1f1 + t) >> 40) * (1.0f / 16777216.0f) - 0.5f;
}

static float fir_coeff(unsigned int i)
{
	return (float)(i + 1) / (float)(FIR_TAPS * (FIR_TAPS + 1) / 2);
}

/* Untimed: the block's samples, and zeros where its outputs go. */
static void fir_init(struct ng_block *b, void *p)
{
	const struct fir_args *a = p;

	for (unsigned int wi = 0; wi < b->nwarps; wi++) {
		float v[NG_WARP], z[NG_WARP] = { 0 };
		struct ng_warp w;
		uint64_t t0;

		ng_warp_get(b, wi, &w);
		if (!wlc_lanes(&w, a->n, FIR_BLOCK, &t0))
			break;
		for (unsigned int l = 0; l < w.nlanes; l++)
			v[l] = fir_in0(a->seed, t0 + l);
		ng_st_contig(&w, a->in + t0, 4, v);
		ng_st_contig(&w, a->out + t0, 4, z);
	}
}

/* Untimed, one warp on GPU 0: the coefficients and an empty history. */
static void fir_init_taps(struct ng_block *b, void *p)
{
	const struct fir_args *a = p;
	float c[NG_WARP], z[NG_WARP] = { 0 };
	struct ng_warp w;

	ng_warp_get(b, 0, &w);
	w.nlanes = FIR_TAPS;
	w.active = (1u << FIR_TAPS) - 1;
	for (unsigned int i = 0; i < FIR_TAPS; i++)
		c[i] = fir_coeff(i);
	ng_st_contig(&w, a->coeff, 4, c);
	ng_st_contig(&w, a->hist, 4, z);
}

static void fir_kernel(struct ng_block *b, void *p)
{
	const struct fir_args *a = p;

	for (unsigned int wi = 0; wi < b->nwarps; wi++) {
		float sum[NG_WARP] = { 0 }, bi[NG_WARP], bh[NG_WARP];
		struct ng_warp w;
		uint64_t t0;

		ng_warp_get(b, wi, &w);
		if (!wlc_lanes(&w, a->n, FIR_BLOCK, &t0))
			break;
		ng_warp_compute(&w, FIR_INSTS);
		for (unsigned int i = 0; i < FIR_TAPS; i++) {
			float c = wl_bcast(&w, a->coeff + i);
			/* lanes with t < i read the history, the others the input */
			unsigned int lo = t0 >= i ? 0 : (unsigned int)(i - t0);
			const float *in = NULL, *h = NULL;

			if (lo < w.nlanes)
				in = wl_ld_lanes(&w, a->in, (int64_t)t0 - (int64_t)i,
						 lo, w.nlanes, bi);
			if (lo)
				h = wl_ld_lanes(&w, a->hist,
						(int64_t)FIR_TAPS - (int64_t)i, 0, lo, bh);
			for (unsigned int l = 0; l < w.nlanes; l++)
				sum[l] += c * (l >= lo ? in[l] : h[l]);
			ng_warp_compute(&w, FIR_INSTS_TAP);
		}
		ng_st_contig(&w, a->out + t0, 4, sum);
	}
}

/* One warp on GPU 0: the last FIR_TAPS samples become the history. */
static void fir_history(struct ng_block *b, void *p)
{
	const struct fir_args *a = p;
	float buf[NG_WARP];
	const float *v;
	struct ng_warp w;

	ng_warp_get(b, 0, &w);
	w.nlanes = FIR_TAPS;
	w.active = (1u << FIR_TAPS) - 1;
	v = ng_ld_contig_ref(&w, a->in + a->n - FIR_TAPS, 4, buf);
	ng_warp_wait(&w);
	ng_st_contig(&w, a->hist, 4, v);
}

/* The CPU reference of block @k: the same sums in the same order. */
static void fir_ref(const float *in, const float *hist, float *out, uint64_t n)
{
	for (uint64_t t = 0; t < n; t++) {
		float sum = 0;

		for (unsigned int i = 0; i < FIR_TAPS; i++)
			sum += fir_coeff(i) * (t >= i ? in[t - i]
						      : hist[FIR_TAPS - (i - t)]);
		out[t] = sum;
	}
}

static int fir_run(struct ng_system *sys, const struct ng_bench_opts *o,
		   struct ng_bench_result *r, char *err, size_t errlen)
{
	struct wlc c;
	struct ng_buf bi = { 0 }, bo = { 0 }, bc = { 0 }, bh = { 0 };
	struct fir_args a = { 0 };
	float *ref = NULL, *hist = NULL, *in = NULL;
	uint64_t nblocks;
	char ok[128];
	int ret;

	wlc_init(&c, sys, o, r, err, errlen);
	a.n = o->size / 4;
	a.seed = c.cfg->seed;
	if (a.n < FIR_BLOCK) {
		ng_seterr(err, errlen, "fir: size must hold %u samples (%u bytes) at least",
			  FIR_BLOCK, FIR_BLOCK * 4);
		return -EINVAL;
	}
	nblocks = (a.n + FIR_BLOCK - 1) / FIR_BLOCK;
	ret = wlc_alloc(&c, &bi, a.n * 4, -1);
	if (!ret)
		ret = wlc_alloc(&c, &bo, a.n * 4, -1);
	if (!ret)
		ret = wlc_alloc(&c, &bc, FIR_TAPS * 4, 0);
	if (!ret)
		ret = wlc_alloc(&c, &bh, FIR_TAPS * 4, 0);
	if (ret)
		goto out;
	a.in = bi.ptr;
	a.out = bo.ptr;
	a.coeff = bc.ptr;
	a.hist = bh.ptr;
	r->elements = a.n;
	/* per block: every sample read (once, the taps' reuse in the caches) and written */
	r->bytes = 8 * a.n * o->iters;
	c.total = 2 * o->iters;
	ret = wlc_launch(&c, "fir-init", fir_init, &a, nblocks, FIR_BLOCK, -1, false);
	if (!ret)
		ret = wlc_launch(&c, "fir-taps", fir_init_taps, &a, 1, NG_WARP, 0, false);
	if (ret)
		goto out;
	ng_system_reset_counters(sys);
	for (unsigned int it = 0; it < o->iters && !ret; it++) {
		ret = wlc_launch(&c, "fir", fir_kernel, &a, nblocks, FIR_BLOCK, -1, true);
		if (!ret)
			ret = wlc_launch(&c, "fir-history", fir_history, &a, 1,
					 NG_WARP, 0, true);
	}
	wl_collect(sys, r);
	if (ret)
		goto out;
	/* the last block's output, from the history the block before left */
	ref = malloc(a.n * 4);
	in = malloc(a.n * 4);
	hist = calloc(FIR_TAPS, 4);
	if (!ref || !in || !hist) {
		ret = -ENOMEM;
		ng_seterr(err, errlen, "fir: out of memory");
		goto out;
	}
	for (uint64_t t = 0; t < a.n; t++)
		in[t] = fir_in0(a.seed, t);
	/* the block before was this one too (a.n >= FIR_BLOCK > FIR_TAPS) */
	if (o->iters > 1)
		for (unsigned int i = 0; i < FIR_TAPS; i++)
			hist[i] = fir_in0(a.seed, a.n - FIR_TAPS + i);
	fir_ref(in, hist, ref, a.n);
	snprintf(ok, sizeof(ok),
		 "%u blocks of %llu samples through %u taps match the CPU reference",
		 o->iters, (unsigned long long)a.n, FIR_TAPS);
	wl_corrupt_f32(o, a.out, a.n);
	wl_check_f32(r, "out", a.out, ref, a.n, 0, 1e-5f, 1e-6f, ok);
out:
	free(ref);
	free(in);
	free(hist);
	ng_free(c.sp, &bh);
	ng_free(c.sp, &bc);
	ng_free(c.sp, &bo);
	ng_free(c.sp, &bi);
	return ret;
}

const struct ng_workload ng_wl_fir = {
	.name = "fir",
	.suites = NG_SUITE_REC | NG_SUITE_DUALOPT,
	.desc = "Hetero-Mark FIR: 16 taps, one work-item per sample, blocks of a stream with a carried history",
	.default_size = 1ULL << 20,
	.paper_footprint = 128ULL << 20,
	.paper_ref = "REC Table 3: FIR 128 MB",
	.default_iters = 4,
	.narrays = 2,
	.run = fir_run,
};
