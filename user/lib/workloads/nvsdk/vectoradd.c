// SPDX-License-Identifier: GPL-2.0
/*
 * vectoradd: the NVIDIA CUDA SDK sample vectorAdd (vectorAdd.cu), C = A +
 * B on floats, one thread per element, 256 threads per block and
 * ceil(n / 256) blocks, as the sample launches it; A and B random in
 * [0, 1) as its host fills them (rand() / RAND_MAX; here splitmix64 of
 * the seed). Every element is read once and written once: ScaleGPU's
 * touch-once, split-friendly workload. An untimed init kernel writes the
 * inputs (the host's copy, whose first touch homes them) and zeroes C.
 * Verified as the sample does, |A + B - C| <= 1e-5 for every element.
 */
#include <stdlib.h>

#include "workloads/wl.h"

#define VA_BLOCK	256
/* the sample's thread: its index (2), the bound check (2), the add (1) */
#define VA_INSTS	5

struct va_args {
	float *a, *b, *c;
	uint64_t n, seed;
};

static float va_val(uint64_t seed, uint64_t i)
{
	return (float)(wlc_hash(seed * 0x7661 + i) >> 40) / (float)(1 << 24);
}

static void va_init(struct ng_block *b, void *p)
{
	const struct va_args *a = p;

	for (unsigned int wi = 0; wi < b->nwarps; wi++) {
		float va[NG_WARP], vb[NG_WARP], z[NG_WARP] = { 0 };
		struct ng_warp w;
		uint64_t i0;

		ng_warp_get(b, wi, &w);
		if (!wlc_lanes(&w, a->n, VA_BLOCK, &i0))
			break;
		for (unsigned int l = 0; l < w.nlanes; l++) {
			va[l] = va_val(a->seed, 2 * (i0 + l));
			vb[l] = va_val(a->seed, 2 * (i0 + l) + 1);
		}
		ng_st_contig(&w, a->a + i0, 4, va);
		ng_st_contig(&w, a->b + i0, 4, vb);
		ng_st_contig(&w, a->c + i0, 4, z);
	}
}

static void va_kernel(struct ng_block *b, void *p)
{
	const struct va_args *a = p;

	for (unsigned int wi = 0; wi < b->nwarps; wi++) {
		float bufa[NG_WARP], bufb[NG_WARP], c[NG_WARP];
		const float *x, *y;
		struct ng_warp w;
		uint64_t i0;

		ng_warp_get(b, wi, &w);
		if (!wlc_lanes(&w, a->n, VA_BLOCK, &i0))
			break;
		ng_warp_compute(&w, VA_INSTS);
		x = ng_ld_contig_ref(&w, a->a + i0, 4, bufa);
		y = ng_ld_contig_ref(&w, a->b + i0, 4, bufb);
		for (unsigned int l = 0; l < w.nlanes; l++)
			c[l] = x[l] + y[l];
		ng_st_contig(&w, a->c + i0, 4, c);
	}
}

static int va_run(struct ng_system *sys, const struct ng_bench_opts *o,
		  struct ng_bench_result *r, char *err, size_t errlen)
{
	struct ng_buf ba = { 0 }, bb = { 0 }, bc = { 0 };
	struct va_args a = { 0 };
	uint64_t nblocks;
	struct wlc c;
	float *want = NULL;
	char ok[96];
	int ret;

	wlc_init(&c, sys, o, r, err, errlen);
	a.n = o->size / 4;
	if (!a.n) {
		ng_seterr(err, errlen, "vectoradd: size must hold one float (4 bytes) at least");
		return -EINVAL;
	}
	a.seed = c.cfg->seed;
	nblocks = (a.n + VA_BLOCK - 1) / VA_BLOCK;
	ret = wlc_alloc_each(&c, (struct ng_buf *const[]){ &ba, &bb, &bc }, 3,
			     a.n * 4);
	if (ret)
		goto out;
	a.a = ba.ptr;
	a.b = bb.ptr;
	a.c = bc.ptr;
	r->elements = a.n;
	r->bytes = 3ULL * a.n * 4 * o->iters;
	c.total = o->iters;
	ret = wlc_launch(&c, "va-init", va_init, &a, nblocks, VA_BLOCK, -1, false);
	if (ret)
		goto out;
	ng_system_reset_counters(sys);
	for (unsigned int it = 0; it < o->iters && !ret; it++)
		ret = wlc_launch(&c, "vectoradd", va_kernel, &a, nblocks,
				 VA_BLOCK, -1, true);
	if (ret)
		goto out;
	wl_collect(sys, r);
	want = malloc(a.n * 4);
	if (!want) {
		ng_seterr(err, errlen, "vectoradd: out of memory");
		ret = -ENOMEM;
		goto out;
	}
	for (uint64_t i = 0; i < a.n; i++)
		want[i] = va_val(a.seed, 2 * i) + va_val(a.seed, 2 * i + 1);
	snprintf(ok, sizeof(ok), "C = A + B for all %llu elements",
		 (unsigned long long)a.n);
	wl_corrupt_f32(o, a.c, a.n);
	wl_check_f32(r, "C", a.c, want, a.n, 0, 0, 1e-5f, ok);
out:
	free(want);
	ng_free(c.sp, &bc);
	ng_free(c.sp, &bb);
	ng_free(c.sp, &ba);
	return ret;
}

const struct ng_workload ng_wl_vectoradd = {
	.name = "vectoradd",
	.desc = "vector addition (NVIDIA SDK vectorAdd): C = A + B, each element touched once",
	.default_size = 4ULL << 20,	/* 1 Mi floats per array */
	.paper_footprint = 48ULL << 20,
	.paper_ref = "ScaleGPU Table 2: vectorAdd 48 MB",
	.default_iters = 1,
	.narrays = 3,
	.run = va_run,
};
