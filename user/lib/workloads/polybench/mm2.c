// SPDX-License-Identifier: GPL-2.0
/*
 * mm2: two matrix multiplications, D = alpha A B C + beta D, after
 * PolyBench/GPU's 2mm (CUDA/2MM/2mm.cu). Its two kernels, in order, on
 * square n x n float matrices:
 *
 *   mm2_kernel1  tmp = alpha A B          (tmp = 0; tmp += alpha a b)
 *   mm2_kernel2  D   = beta D + tmp C     (D *= beta; D += tmp c)
 *
 * each on a grid of 32 x 8 blocks covering the output, one thread per
 * output element looping over k (matmul.c says how a warp's requests go).
 * Rows go to GPUs in bands (batch CTA scheduling), and the init kernel
 * homes every array's rows by first touch where those blocks run, so A,
 * tmp and D are local, while B (kernel 1) and C (kernel 2) are read whole
 * by every GPU. tmp is written by kernel 1 and read by kernel 2 on the
 * same GPU. Differences from the original: NI = NJ = NK = NL (n, from
 * --size), the inputs' values wrap (pb_val), alpha and beta are 1.5 and
 * 1.2 (with the original's 32412 and 2123, D grows 2123-fold per
 * iteration and overflows floats after a few), and --iters repeats the
 * pair of kernels (D accumulates).
 */
#include <stdlib.h>

#include "workloads/polybench/polybench.h"

#define MM2_ALPHA	1.5f
#define MM2_BETA	1.2f

static int mm2_run(struct ng_system *sys, const struct ng_bench_opts *o,
		   struct ng_bench_result *r, char *err, size_t errlen)
{
	struct ng_buf ba = { 0 }, bb = { 0 }, bt = { 0 }, bc = { 0 },
		      bd = { 0 };
	float *ra = NULL, *rb = NULL, *rt = NULL, *rc = NULL, *rd = NULL;
	struct pb_mm k1, k2;
	struct pb_fill f;
	struct wlc c;
	char ok[sizeof(r->verify)];
	uint64_t n, nn;
	int ret;

	wlc_init(&c, sys, o, r, err, errlen);
	ret = pb_side(o->size, "mm2", err, errlen, &n);
	if (ret)
		return ret;
	nn = n * n;
	ret = wlc_alloc(&c, &ba, nn * 4, -1);
	if (!ret)
		ret = wlc_alloc(&c, &bb, nn * 4, -1);
	if (!ret)
		ret = wlc_alloc(&c, &bt, nn * 4, -1);
	if (!ret)
		ret = wlc_alloc(&c, &bc, nn * 4, -1);
	if (!ret)
		ret = wlc_alloc(&c, &bd, nn * 4, -1);
	if (ret)
		goto out;
	k1 = (struct pb_mm){ .a = ba.ptr, .b = bb.ptr, .out = bt.ptr, .n = n,
			     .alpha = MM2_ALPHA, .scale = true };
	k2 = (struct pb_mm){ .a = bt.ptr, .b = bc.ptr, .out = bd.ptr, .n = n,
			     .beta = MM2_BETA, .accum = true };
	/* PolyBench's offsets: A i*j, B i*(j+1), C i*(j+3), D i*(j+2) */
	f = (struct pb_fill){ .dst = { ba.ptr, bb.ptr, bc.ptr, bd.ptr, bt.ptr },
			      .c = { 0, 1, 3, 2, -1 }, .narrays = 5, .n = n };
	r->elements = nn;
	r->bytes = (pb_mm_bytes(&k1) + pb_mm_bytes(&k2)) * o->iters;
	c.total = 2 * o->iters;
	ret = pb_fill_launch(&c, &f);
	if (ret)
		goto out;
	ng_system_reset_counters(sys);
	for (unsigned int it = 0; it < o->iters && !ret; it++) {
		ret = pb_mm_launch(&c, "mm2-kernel1", &k1);
		if (!ret)
			ret = pb_mm_launch(&c, "mm2-kernel2", &k2);
	}
	if (ret)
		goto out;
	wl_collect(sys, r);
	/* the CPU reference, same arithmetic in the same order */
	ra = malloc(nn * 4);
	rb = malloc(nn * 4);
	rt = malloc(nn * 4);
	rc = malloc(nn * 4);
	rd = malloc(nn * 4);
	if (!ra || !rb || !rt || !rc || !rd) {
		ret = -ENOMEM;
		ng_seterr(err, errlen, "mm2: out of memory");
		goto out;
	}
	pb_fill_ref(ra, n, 0);
	pb_fill_ref(rb, n, 1);
	pb_fill_ref(rc, n, 3);
	pb_fill_ref(rd, n, 2);
	k1.a = ra;
	k1.b = rb;
	k1.out = rt;
	k2.a = rt;
	k2.b = rc;
	k2.out = rd;
	for (unsigned int it = 0; it < o->iters; it++) {
		pb_mm_ref(&k1);
		pb_mm_ref(&k2);
	}
	wl_corrupt_f32(o, bd.ptr, nn);
	snprintf(ok, sizeof(ok),
		 "tmp = %g A B and D = %g D + tmp C (%llu x %llu, %u iterations) match the CPU reference",
		 (double)MM2_ALPHA, (double)MM2_BETA, (unsigned long long)n,
		 (unsigned long long)n, o->iters);
	if (wl_check_f32(r, "tmp", bt.ptr, rt, nn, n, 1e-4f, 1e-6f, ok))
		wl_check_f32(r, "D", bd.ptr, rd, nn, n, 1e-4f, 1e-6f, ok);
out:
	free(ra);
	free(rb);
	free(rt);
	free(rc);
	free(rd);
	ng_free(c.sp, &bd);
	ng_free(c.sp, &bc);
	ng_free(c.sp, &bt);
	ng_free(c.sp, &bb);
	ng_free(c.sp, &ba);
	return ret;
}

const struct ng_workload ng_wl_mm2 = {
	.name = "mm2",
	.desc = "PolyBench 2mm: D = alpha A B C + beta D, two matrix product kernels",
	.default_size = 256ULL << 10,	/* 256 x 256 floats */
	.paper_footprint = 128ULL << 20,
	.paper_ref = "REC Table 3: 2MM 128 MB",
	.default_iters = 1,
	.narrays = 5,
	.run = mm2_run,
};
