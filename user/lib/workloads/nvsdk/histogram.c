// SPDX-License-Identifier: GPL-2.0
/*
 * histogram: the NVIDIA CUDA SDK sample histogram, its 256-bin version
 * (histogram256.cu), on bytes read as 32-bit words. Two kernels as the
 * sample launches them:
 *
 * - histogram256Kernel, 240 blocks (PARTIAL_HISTOGRAM256_COUNT) of 6
 *   warps (WARP_COUNT, 192 threads): every warp keeps a 256-bin histogram
 *   of its own in shared memory; thread t of the grid reads words t, t +
 *   46080, ... (a grid-stride loop: each warp's read is 32 consecutive
 *   words) and adds each of a word's four bytes to its warp's histogram
 *   (shared-memory atomics); after the barrier each block sums its warps'
 *   histograms into its partial histogram in global memory.
 * - mergeHistogram256Kernel, 256 blocks of 256 threads: block b sums bin b
 *   over the 240 partial histograms (reads 1 KiB apart) with a tree
 *   reduction in shared memory and writes bin b of the result.
 *
 * Every data word is read once: ScaleGPU's touch-once, split-friendly
 * workload. The bytes are splitmix64 of the seed (the sample: rand() &
 * 0xff); verified against the host's histogram, bin by bin.
 */
#include <stdlib.h>

#include "workloads/wl.h"

#define HG_BINS		256
#define HG_WARPS	6			/* WARP_COUNT */
#define HG_BLOCK	(HG_WARPS * NG_WARP)	/* 192 threads */
#define HG_PARTIALS	240			/* PARTIAL_HISTOGRAM256_COUNT */
#define HG_MERGE	256			/* MERGE_THREADBLOCK_SIZE */
/*
 * A word's arithmetic in histogram256Kernel: the loop (3), four byte
 * extractions (8) and four shared-memory atomic adds (8).
 */
#define HG_WORD_INSTS	19
/* a merge step: the address and the add (3); a reduction step (4) */
#define HG_MERGE_INSTS	3
#define HG_REDUCE_INSTS	4

struct hg_args {
	uint32_t *data, *partial, *hist;
	uint64_t nwords, seed;
};

static uint32_t hg_word(uint64_t seed, uint64_t i)
{
	return (uint32_t)(wlc_hash(seed * 0x6867 + i) >> 32);
}

static void hg_init(struct ng_block *b, void *p)
{
	const struct hg_args *a = p;

	for (unsigned int wi = 0; wi < b->nwarps; wi++) {
		uint32_t v[NG_WARP];
		struct ng_warp w;
		uint64_t i0;

		ng_warp_get(b, wi, &w);
		if (!wlc_lanes(&w, a->nwords, 256, &i0))
			break;
		for (unsigned int l = 0; l < w.nlanes; l++)
			v[l] = hg_word(a->seed, i0 + l);
		ng_st_contig(&w, a->data + i0, 4, v);
	}
}

static void hg_kernel(struct ng_block *b, void *p)
{
	const struct hg_args *a = p;
	uint32_t *s = b->shared;	/* HG_WARPS histograms of HG_BINS */
	uint64_t stride = (uint64_t)HG_PARTIALS * HG_BLOCK;
	struct ng_warp w;

	memset(s, 0, HG_WARPS * HG_BINS * 4);
	for (unsigned int wi = 0; wi < b->nwarps; wi++) {
		uint32_t *h = s + wi * HG_BINS;

		ng_warp_get(b, wi, &w);
		for (uint64_t i0 = b->id * HG_BLOCK + w.tid0; i0 < a->nwords;
		     i0 += stride) {
			struct ng_warp t = w;
			uint32_t buf[NG_WARP];
			const uint32_t *v;

			if (a->nwords - i0 < NG_WARP) {
				t.nlanes = (unsigned int)(a->nwords - i0);
				t.active = (1u << t.nlanes) - 1;
			}
			ng_warp_compute(&t, HG_WORD_INSTS);
			v = ng_ld_contig_ref(&t, a->data + i0, 4, buf);
			for (unsigned int l = 0; l < t.nlanes; l++)
				for (unsigned int k = 0; k < 4; k++)
					h[v[l] >> (8 * k) & 0xff]++;
			if (t.ready > w.ready)
				w.ready = t.ready;
		}
	}
	ng_block_sync(b);
	/* bins t, t + 192 of the block's warps, summed: its partial */
	for (unsigned int wi = 0; wi < b->nwarps; wi++) {
		ng_warp_get(b, wi, &w);
		for (unsigned int bin0 = w.tid0; bin0 < HG_BINS;
		     bin0 += HG_BLOCK) {
			struct ng_warp t = w;
			uint32_t sum[NG_WARP];

			t.nlanes = HG_BINS - bin0 < NG_WARP ? HG_BINS - bin0
							    : NG_WARP;
			t.active = t.nlanes == NG_WARP ? ~0u
						       : (1u << t.nlanes) - 1;
			ng_warp_compute(&t, 2 * HG_WARPS);
			for (unsigned int l = 0; l < t.nlanes; l++) {
				sum[l] = 0;
				for (unsigned int k = 0; k < HG_WARPS; k++)
					sum[l] += s[k * HG_BINS + bin0 + l];
			}
			ng_st_contig(&t, a->partial + b->id * HG_BINS + bin0, 4,
				     sum);
		}
	}
}

static void hg_merge(struct ng_block *b, void *p)
{
	const struct hg_args *a = p;
	uint32_t *s = b->shared;	/* a sum per thread */

	for (unsigned int wi = 0; wi < b->nwarps; wi++) {
		uintptr_t addr[NG_WARP];
		uint32_t v[NG_WARP] = { 0 };
		struct ng_warp w;

		ng_warp_get(b, wi, &w);
		for (unsigned int l = 0; l < NG_WARP; l++) {
			unsigned int pos = w.tid0 + l;

			s[pos] = 0;
			if (pos >= HG_PARTIALS) {
				w.active &= ~(1u << l);
				continue;
			}
			addr[l] = (uintptr_t)(a->partial + b->id +
					      (uint64_t)pos * HG_BINS);
		}
		if (!w.active)
			continue;
		ng_warp_compute(&w, HG_MERGE_INSTS);
		ng_ld(&w, addr, 4, v);
		for (unsigned int l = 0; l < NG_WARP; l++)
			if (w.active >> l & 1)
				s[w.tid0 + l] = v[l];
	}
	ng_block_sync(b);
	/* the sample's tree reduction in shared memory */
	for (unsigned int stride = HG_MERGE / 2; stride; stride /= 2) {
		for (unsigned int wi = 0; wi < b->nwarps; wi++) {
			struct ng_warp w;

			ng_warp_get(b, wi, &w);
			if (w.tid0 >= stride)
				break;
			ng_warp_compute(&w, HG_REDUCE_INSTS);
			for (unsigned int l = 0; l < NG_WARP &&
					 w.tid0 + l < stride; l++)
				s[w.tid0 + l] += s[w.tid0 + l + stride];
		}
		ng_block_sync(b);
	}
	{
		struct ng_warp w;

		ng_warp_get(b, 0, &w);
		w.nlanes = 1;
		w.active = 1;
		ng_st_contig(&w, a->hist + b->id, 4, s);
	}
}

static int hg_run(struct ng_system *sys, const struct ng_bench_opts *o,
		  struct ng_bench_result *r, char *err, size_t errlen)
{
	struct ng_buf bd = { 0 }, bp = { 0 }, bh = { 0 };
	struct hg_args a = { 0 };
	uint32_t want[HG_BINS] = { 0 };
	struct wlc c;
	char ok[96];
	int ret;

	wlc_init(&c, sys, o, r, err, errlen);
	a.nwords = o->size / 4;
	if (!a.nwords) {
		ng_seterr(err, errlen, "histogram: size must hold one word (4 bytes) at least");
		return -EINVAL;
	}
	if (c.cfg->shared_bytes < HG_WARPS * HG_BINS * 4) {
		ng_seterr(err, errlen,
			  "histogram: a block needs %u bytes of shared memory (shared = %llu)",
			  HG_WARPS * HG_BINS * 4,
			  (unsigned long long)c.cfg->shared_bytes);
		return -EINVAL;
	}
	a.seed = c.cfg->seed;
	ret = wlc_alloc(&c, &bd, a.nwords * 4, -1);
	if (!ret)
		ret = wlc_alloc(&c, &bp, HG_PARTIALS * HG_BINS * 4, -1);
	if (!ret)
		ret = wlc_alloc(&c, &bh, HG_BINS * 4, -1);
	if (ret)
		goto out;
	a.data = bd.ptr;
	a.partial = bp.ptr;
	a.hist = bh.ptr;
	r->elements = a.nwords * 4;
	r->bytes = (a.nwords * 4 + 2ULL * HG_PARTIALS * HG_BINS * 4) * o->iters;
	c.total = 2 * o->iters;
	ret = wlc_launch(&c, "hg-init", hg_init, &a, (a.nwords + 255) / 256,
			 256, -1, false);
	if (ret)
		goto out;
	ng_system_reset_counters(sys);
	for (unsigned int it = 0; it < o->iters && !ret; it++) {
		ret = wlc_launch(&c, "histogram256", hg_kernel, &a, HG_PARTIALS,
				 HG_BLOCK, -1, true);
		if (!ret)
			ret = wlc_launch(&c, "merge", hg_merge, &a, HG_BINS,
					 HG_MERGE, -1, true);
	}
	if (ret)
		goto out;
	wl_collect(sys, r);
	for (uint64_t i = 0; i < a.nwords; i++) {
		uint32_t v = hg_word(a.seed, i);

		for (unsigned int k = 0; k < 4; k++)
			want[v >> (8 * k) & 0xff]++;
	}
	snprintf(ok, sizeof(ok),
		 "the 256 bins of %llu bytes match the CPU's histogram",
		 (unsigned long long)a.nwords * 4);
	wl_corrupt_u32(o, a.hist, HG_BINS);
	wl_check_u32(r, "bin", a.hist, want, HG_BINS, 0, ok);
out:
	ng_free(c.sp, &bh);
	ng_free(c.sp, &bp);
	ng_free(c.sp, &bd);
	return ret;
}

const struct ng_workload ng_wl_histogram = {
	.name = "histogram",
	.desc = "256-bin histogram (NVIDIA SDK histogram256): per-warp shared histograms, 240 partials, a merge",
	.default_size = 4ULL << 20,
	.paper_footprint = 48ULL << 20,
	.paper_ref = "ScaleGPU Table 2: histogram 48 MB",
	.default_iters = 1,
	.narrays = 1,
	.run = hg_run,
};
