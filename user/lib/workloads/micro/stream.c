// SPDX-License-Identifier: GPL-2.0
/*
 * The calibration streams (local-stream, remote-stream): every block runs
 * on GPU 0 and reads its share of one array placed on GPU 0 (local) or
 * GPU 1 (remote) by node, so that no first touch is involved. Lines are
 * read once, so an L2 cannot help, and the array is large next to one
 * latency, so start-up is a small part of the time.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "workloads/micro/stream.h"
#include "workloads/wl.h"

#define STREAM_BLOCK	256

struct stream_args {
	const uint32_t *v;
	uint64_t n;
	uint64_t *sums;		/* per block, written outside the model */
};

static void stream_kernel(struct ng_block *b, void *p)
{
	struct stream_args *s = p;
	uint64_t sum = 0;

	for (unsigned int wi = 0; wi < b->nwarps; wi++) {
		uint32_t v[NG_WARP];
		struct ng_warp w;
		uint64_t i0 = b->id * STREAM_BLOCK + wi * NG_WARP;

		if (i0 >= s->n)
			break;
		ng_warp_get(b, wi, &w);
		if (s->n - i0 < w.nlanes)
			w.nlanes = (unsigned int)(s->n - i0);
		ng_ld_contig(&w, s->v + i0, 4, v);
		for (unsigned int l = 0; l < w.nlanes; l++)
			sum += v[l];
		/* index, bound, address, add: the bandwidth is what is measured */
		ng_warp_compute(&w, 4);
	}
	s->sums[b->id] = sum;
}

int wl_stream_run(struct ng_system *sys, const struct ng_bench_opts *o,
		  struct ng_bench_result *r, char *err, size_t errlen,
		  unsigned int home)
{
	const struct ng_config *cfg = ng_system_config(sys);
	struct ng_space *sp = ng_system_space(sys);
	struct ng_alloc_opts ao = { .place = NG_PLACE_NODE, .node = home };
	struct ng_buf buf = { 0 };
	struct stream_args s = { 0 };
	struct ng_launch l = { .name = r->workload, .fn = stream_kernel,
			       .block = { STREAM_BLOCK, 1 }, .only_gpu = 0,
			       .args = &s };
	uint64_t want = 0, got = 0, nblocks;
	uint32_t *v;
	int ret;

	ret = wl_calibration_baseline(sys, r, err, errlen);
	if (ret)
		return ret;

	s.n = o->size / 4;
	if (!s.n) {
		ng_seterr(err, errlen, "%s: size must hold at least one word",
			  r->workload);
		return -EINVAL;
	}
	nblocks = (s.n + STREAM_BLOCK - 1) / STREAM_BLOCK;
	ret = ng_malloc(sp, &buf, s.n * 4, &ao, err, errlen);
	if (ret)
		return ret;
	s.sums = calloc(nblocks, sizeof(*s.sums));
	if (!s.sums) {
		ng_free(sp, &buf);
		ng_seterr(err, errlen, "out of memory");
		return -ENOMEM;
	}
	v = buf.ptr;
	for (uint64_t i = 0; i < s.n; i++) {
		v[i] = (uint32_t)(i * 2654435761u);
		want += v[i];
	}
	s.v = v;
	l.grid.x = (unsigned int)nblocks;
	r->elements = s.n;
	r->bytes = 4 * s.n * o->iters;
	ret = wl_run_timed(sys, &l, o, r);
	for (uint64_t b = 0; b < nblocks; b++)
		got += s.sums[b];
	got += o->corrupt;	/* --corrupt-one: one word off */
	r->verified = !ret && got == want;
	if (r->verified)
		snprintf(r->verify, sizeof(r->verify),
			 "sum of %llu words matches the CPU's",
			 (unsigned long long)s.n);
	else
		snprintf(r->verify, sizeof(r->verify),
			 "sum of %llu words is %llu, the CPU reference says %llu",
			 (unsigned long long)s.n, (unsigned long long)got,
			 (unsigned long long)want);
	wl_check_kmod(sys, &buf, r);
	r->metric = "bandwidth";
	r->unit = "GB/s";
	if (r->modeled_s > 0)
		r->measured = (double)r->bytes / r->modeled_s / 1e9;
	r->expected = home == 0 ? cfg->local_bw
		      : (cfg->link_bw < cfg->local_bw ? cfg->link_bw : cfg->local_bw);
	free(s.sums);
	ng_free(sp, &buf);
	if (ret)
		ng_seterr(err, errlen, "%s: launch failed: %s", r->workload,
			  strerror(-ret));
	return ret;
}
