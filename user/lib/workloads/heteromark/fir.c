// SPDX-License-Identifier: GPL-2.0
/*
 * fir: a finite impulse response filter, after Hetero-Mark's FIR as
 * MGPUSim (v3.0.0) runs it, the setup REC and DualOpt measured: its
 * kernel FIR and the benchmark's host code. Same work distribution: one
 * work-item per output sample, work-groups of 256, each work-item summing
 * num_tap (16) products of a coefficient and an input sample,
 *
 *   out[t] = sum over i < 16 of coeff[i] * (t >= i ? in[t - i]
 *                                                   : history[16 - (i - t)])
 *
 * in the kernel's order. A warp's lanes read consecutive samples, shifted
 * back by i for tap i (so most taps span two lines), and every lane the
 * same coefficient (a broadcast).
 *
 * Placement as MGPUSim's host code's on several GPUs (without unified
 * memory): the input and the output are distributed, a band of
 * consecutive pages a GPU (the driver's Distribute()), and each GPU's
 * launch covers the same share of the samples (its global offset); every
 * GPU gets its own copy of the coefficients, and the history is one
 * buffer on the first GPU. Here one launch, whose scheduling gives each
 * GPU the same contiguous share (batch, and mgpusim for grids of a
 * multiple of the system's CUs, as the default size's 1024 work-groups
 * on 4 x 64 CUs), and an untimed init kernel on that grid writes each
 * block's samples and outputs, so first touch homes them on the block's
 * GPU whatever device placement is configured (host placement stays:
 * MGPUSim's unified memory, which is not distributed). Each GPU then
 * reads its own samples and coefficients and writes its own outputs; only
 * its first 15 work-items reach back into the band before (its last
 * line: 15 remote loads a launch), or, on GPU 0, into the history:
 * DualOpt's local-dominated class.
 *
 * Differences: Hetero-Mark's own OpenCL FIR filters a stream of blocks
 * and copies the history at the end of its kernel (behind a barrier,
 * which orders nothing across work-groups); MGPUSim's kernel has that
 * copy commented out and its host code filters one block with a history
 * it never writes (zeros). So does this: --iters launches the kernel that
 * many times over the same samples (MGPUSim: once), each computing the
 * same output. The samples are the workload's random stream in [-0.5,
 * 0.5) and coefficient i is (i + 1) / 136 (MGPUSim: input[i] = i,
 * filter[i] = i). MGPUSim's kernel has no bound check (its sizes are
 * multiples of 256 work-items a GPU); here the last warp may be short.
 * Verified against a CPU reference with the same sums in the same order.
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
	float *in, *out, *hist;
	float *coeff[NG_MAX_GPUS];	/* MGPUSim's copy on every GPU */
	unsigned int taps_gpu;		/* the copy fir_init_taps writes */
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

/* Untimed, on the kernel's grid: each block's samples, zeros as its outputs */
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

/*
 * Untimed, one launch a GPU on that GPU: a warp writes the coefficients
 * to copy taps_gpu, homed there whoever writes it (with --steal a
 * launch's blocks may run on any GPU), and GPU 0's an empty history as
 * well. Written from its own GPU, so that page migration, which moves a
 * page to the first GPU that reaches it remotely, leaves it there (MGPUSim
 * copies the coefficients in from the host).
 */
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
	ng_st_contig(&w, a->coeff[a->taps_gpu], 4, c);
	if (!a->taps_gpu)
		ng_st_contig(&w, a->hist, 4, z);
}

static void fir_kernel(struct ng_block *b, void *p)
{
	const struct fir_args *a = p;
	/* the coefficients of the GPU this block runs on */
	const float *coeff = a->coeff[b->sm->gpu];

	for (unsigned int wi = 0; wi < b->nwarps; wi++) {
		float sum[NG_WARP] = { 0 }, bi[NG_WARP], bh[NG_WARP];
		struct ng_warp w;
		uint64_t t0;

		ng_warp_get(b, wi, &w);
		if (!wlc_lanes(&w, a->n, FIR_BLOCK, &t0))
			break;
		ng_warp_compute(&w, FIR_INSTS);
		for (unsigned int i = 0; i < FIR_TAPS; i++) {
			float c = wl_bcast(&w, coeff + i);
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

/* The CPU reference: the same sums in the same order, an empty history. */
static void fir_ref(const float *in, float *out, uint64_t n)
{
	for (uint64_t t = 0; t < n; t++) {
		float sum = 0;

		for (unsigned int i = 0; i < FIR_TAPS; i++)
			sum += fir_coeff(i) * (t >= i ? in[t - i] : 0.0f);
		out[t] = sum;
	}
}

static int fir_alloc(struct wlc *c, struct fir_args *a, struct ng_buf *bi,
		     struct ng_buf *bo, struct ng_buf *bh, struct ng_buf *bc)
{
	int ret = wlc_alloc_dist(c, bi, a->n * 4);

	if (!ret)
		ret = wlc_alloc_dist(c, bo, a->n * 4);
	if (!ret)
		ret = wlc_alloc(c, bh, FIR_TAPS * 4, 0);
	for (unsigned int g = 0; g < c->cfg->gpus && !ret; g++) {
		ret = wlc_alloc(c, &bc[g], FIR_TAPS * 4, (int)g);
		a->coeff[g] = bc[g].ptr;
	}
	a->in = bi->ptr;
	a->out = bo->ptr;
	a->hist = bh->ptr;
	return ret;
}

static int fir_run(struct ng_system *sys, const struct ng_bench_opts *o,
		   struct ng_bench_result *r, char *err, size_t errlen)
{
	struct wlc c;
	struct ng_buf bi = { 0 }, bo = { 0 }, bh = { 0 };
	struct ng_buf bc[NG_MAX_GPUS] = { { 0 } };
	struct fir_args a = { 0 };
	float *ref = NULL, *in = NULL;
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
	ret = fir_alloc(&c, &a, &bi, &bo, &bh, bc);
	if (ret)
		goto out;
	r->elements = a.n;
	/* per launch: every sample read (once, the taps' reuse in the caches) and written */
	r->bytes = 8 * a.n * o->iters;
	c.total = o->iters;
	ret = wlc_launch(&c, "fir-init", fir_init, &a, nblocks, FIR_BLOCK, -1, false);
	for (a.taps_gpu = 0; a.taps_gpu < c.cfg->gpus && !ret; a.taps_gpu++)
		ret = wlc_launch(&c, "fir-taps", fir_init_taps, &a, 1, NG_WARP,
				 (int)a.taps_gpu, false);
	if (ret)
		goto out;
	ng_system_reset_counters(sys);
	for (unsigned int it = 0; it < o->iters && !ret; it++)
		ret = wlc_launch(&c, "fir", fir_kernel, &a, nblocks, FIR_BLOCK, -1, true);
	wl_collect(sys, r);
	if (ret)
		goto out;
	ref = malloc(a.n * 4);
	in = malloc(a.n * 4);
	if (!ref || !in) {
		ret = -ENOMEM;
		ng_seterr(err, errlen, "fir: out of memory");
		goto out;
	}
	for (uint64_t t = 0; t < a.n; t++)
		in[t] = fir_in0(a.seed, t);
	fir_ref(in, ref, a.n);
	snprintf(ok, sizeof(ok),
		 "%llu samples through %u taps, %u launch(es), match the CPU reference",
		 (unsigned long long)a.n, FIR_TAPS, o->iters);
	wl_corrupt_f32(o, a.out, a.n);
	wl_check_f32(r, "out", a.out, ref, a.n, 0, 1e-5f, 1e-6f, ok);
out:
	free(ref);
	free(in);
	for (unsigned int g = 0; g < NG_MAX_GPUS; g++)
		ng_free(c.sp, &bc[g]);
	ng_free(c.sp, &bh);
	ng_free(c.sp, &bo);
	ng_free(c.sp, &bi);
	return ret;
}

const struct ng_workload ng_wl_fir = {
	.name = "fir",
	.desc = "Hetero-Mark FIR: 16 taps, one work-item per sample, data distributed over the GPUs as MGPUSim's",
	.default_size = 1ULL << 20,
	.paper_footprint = 128ULL << 20,
	.paper_ref = "REC Table 3: FIR 128 MB",
	.default_iters = 4,
	.narrays = 2,
	.run = fir_run,
};
