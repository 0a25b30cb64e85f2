// SPDX-License-Identifier: GPL-2.0
/*
 * mm3: three matrix multiplications, G = (A B) (C D), after PolyBench/GPU's
 * 3mm (CUDA/3MM/3mm.cu). Its three kernels, in order, on square n x n
 * float matrices:
 *
 *   mm3_kernel1  E = A B
 *   mm3_kernel2  F = C D
 *   mm3_kernel3  G = E F
 *
 * each on a grid of 32 x 8 blocks covering the output, one thread per
 * output element looping over k (matmul.c says how a warp's requests go).
 * Rows go to GPUs in bands (batch CTA scheduling) and the init kernel
 * homes every array's rows by first touch where those blocks run: A, C, E
 * and the outputs are read or written locally, B and D are read whole by
 * every GPU, and so is F in kernel 3, which kernel 2 wrote a band per GPU
 * (read-write sharing across kernels). Differences from the original:
 * NI = NJ = NK = NL = NM (n, from --size), the inputs' values wrap
 * (pb_val), and --iters repeats the three kernels.
 */
#include <stdlib.h>

#include "workloads/polybench/polybench.h"

static int mm3_run(struct ng_system *sys, const struct ng_bench_opts *o,
		   struct ng_bench_result *r, char *err, size_t errlen)
{
	/* A B C D E F G */
	struct ng_buf bm[7] = { 0 };
	float *rm[7] = { NULL };
	/* PolyBench's offsets: A i*j, B i*(j+1), C i*(j+3), D i*(j+2) */
	static const int off[7] = { 0, 1, 3, 2, -1, -1, -1 };
	struct pb_mm k[3];
	struct pb_fill f = { 0 };
	struct wlc c;
	char ok[sizeof(r->verify)];
	uint64_t n, nn;
	int ret;

	wlc_init(&c, sys, o, r, err, errlen);
	ret = pb_side(o->size, "mm3", err, errlen, &n);
	if (ret)
		return ret;
	nn = n * n;
	for (unsigned int a = 0; a < 7 && !ret; a++)
		ret = wlc_alloc(&c, &bm[a], nn * 4, -1);
	if (ret)
		goto out;
	f.narrays = 7;
	f.n = n;
	for (unsigned int a = 0; a < 7; a++) {
		f.dst[a] = bm[a].ptr;
		f.c[a] = off[a];
	}
	k[0] = (struct pb_mm){ .a = bm[0].ptr, .b = bm[1].ptr, .out = bm[4].ptr,
			       .n = n };
	k[1] = (struct pb_mm){ .a = bm[2].ptr, .b = bm[3].ptr, .out = bm[5].ptr,
			       .n = n };
	k[2] = (struct pb_mm){ .a = bm[4].ptr, .b = bm[5].ptr, .out = bm[6].ptr,
			       .n = n };
	r->elements = nn;
	r->bytes = 3 * pb_mm_bytes(&k[0]) * o->iters;
	c.total = 3 * o->iters;
	ret = pb_fill_launch(&c, &f);
	if (ret)
		goto out;
	ng_system_reset_counters(sys);
	for (unsigned int it = 0; it < o->iters && !ret; it++) {
		ret = pb_mm_launch(&c, "mm3-kernel1", &k[0]);
		if (!ret)
			ret = pb_mm_launch(&c, "mm3-kernel2", &k[1]);
		if (!ret)
			ret = pb_mm_launch(&c, "mm3-kernel3", &k[2]);
	}
	if (ret)
		goto out;
	wl_collect(sys, r);
	/* the CPU reference, same arithmetic in the same order */
	for (unsigned int a = 0; a < 7; a++) {
		rm[a] = malloc(nn * 4);
		if (!rm[a]) {
			ret = -ENOMEM;
			ng_seterr(err, errlen, "mm3: out of memory");
			goto out;
		}
		pb_fill_ref(rm[a], n, off[a]);
	}
	k[0] = (struct pb_mm){ .a = rm[0], .b = rm[1], .out = rm[4], .n = n };
	k[1] = (struct pb_mm){ .a = rm[2], .b = rm[3], .out = rm[5], .n = n };
	k[2] = (struct pb_mm){ .a = rm[4], .b = rm[5], .out = rm[6], .n = n };
	for (unsigned int it = 0; it < o->iters; it++)
		for (unsigned int i = 0; i < 3; i++)
			pb_mm_ref(&k[i]);
	wl_corrupt_f32(o, bm[6].ptr, nn);
	snprintf(ok, sizeof(ok),
		 "E = A B, F = C D and G = E F (%llu x %llu, %u iterations) match the CPU reference",
		 (unsigned long long)n, (unsigned long long)n, o->iters);
	if (wl_check_f32(r, "E", bm[4].ptr, rm[4], nn, n, 1e-4f, 1e-6f, ok) &&
	    wl_check_f32(r, "F", bm[5].ptr, rm[5], nn, n, 1e-4f, 1e-6f, ok))
		wl_check_f32(r, "G", bm[6].ptr, rm[6], nn, n, 1e-4f, 1e-6f, ok);
out:
	for (unsigned int a = 7; a-- > 0;) {
		free(rm[a]);
		ng_free(c.sp, &bm[a]);
	}
	return ret;
}

const struct ng_workload ng_wl_mm3 = {
	.name = "mm3",
	.desc = "PolyBench 3mm: G = (A B) (C D), three matrix product kernels",
	.default_size = 256ULL << 10,	/* 256 x 256 floats */
	.paper_footprint = 64ULL << 20,
	.paper_ref = "REC Table 3: 3MM 64 MB",
	.default_iters = 1,
	.narrays = 7,
	.run = mm3_run,
};
