// SPDX-License-Identifier: GPL-2.0
/*
 * Calibration microbenchmarks: each isolates one parameter of the model
 * and reports it beside the configured value. Every block of a stream runs
 * on GPU 0; the data sits on GPU 0 (local) or GPU 1 (remote), placed by
 * node so that no first touch is involved. Lines are read once, so an L2
 * cannot help, and the arrays are large next to one latency, so start-up
 * is a small part of the time.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "ngemu/runtime/kernel.h"
#include "ngemu/runtime/space.h"
#include "workloads/wl_util.h"

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
	}
	s->sums[b->id] = sum;
}

static int stream_run(struct ng_system *sys, const struct ng_bench_opts *o,
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
	struct ng_launch_result lr;
	uint64_t want = 0, got = 0, nblocks;
	uint32_t *v;
	int ret;

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
	ng_system_reset_counters(sys);
	for (unsigned int i = 0; i < o->iters && !ret; i++) {
		ret = ng_launch(sys, &l, &lr);
		r->modeled_s += (double)lr.modeled / NG_TICKS_PER_NS * 1e-9;
		r->wall_s += lr.wall_s;
		wl_progress(o, i + 1, o->iters);
	}
	wl_collect(sys, r);
	for (uint64_t b = 0; b < nblocks; b++)
		got += s.sums[b];
	r->verified = !ret && got == want;
	snprintf(r->verify, sizeof(r->verify),
		 r->verified ? "sum of %llu words matches the CPU's"
			     : "sum of %llu words differs from the CPU's",
		 (unsigned long long)s.n);
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

static int local_run(struct ng_system *sys, const struct ng_bench_opts *o,
		     struct ng_bench_result *r, char *err, size_t errlen)
{
	return stream_run(sys, o, r, err, errlen, 0);
}

static int remote_run(struct ng_system *sys, const struct ng_bench_opts *o,
		      struct ng_bench_result *r, char *err, size_t errlen)
{
	if (ng_system_config(sys)->gpus < 2) {
		ng_seterr(err, errlen, "%s needs at least 2 GPUs", r->workload);
		return -EINVAL;
	}
	return stream_run(sys, o, r, err, errlen, 1);
}

struct chase_args {
	const uint32_t *next;	/* next[line * words] = next line */
	unsigned int words;	/* 4-byte words per line */
	uint64_t hops;
	uint32_t end;
};

static void chase_kernel(struct ng_block *b, void *p)
{
	struct chase_args *c = p;
	struct ng_warp w;
	uint32_t at = 0;

	ng_warp_get(b, 0, &w);
	w.nlanes = 1;
	w.active = 1;
	for (uint64_t h = 0; h < c->hops; h++) {
		uintptr_t addr[NG_WARP] = { (uintptr_t)&c->next[(uint64_t)at * c->words] };
		uint32_t v[NG_WARP];

		ng_ld(&w, addr, 4, v);
		/* the next address depends on this load */
		ng_warp_wait(&w);
		at = v[0];
	}
	c->end = at;
}

static uint64_t xorshift(uint64_t *s)
{
	*s ^= *s << 13;
	*s ^= *s >> 7;
	*s ^= *s << 17;
	return *s;
}

static int chase_run(struct ng_system *sys, const struct ng_bench_opts *o,
		     struct ng_bench_result *r, char *err, size_t errlen)
{
	const struct ng_config *cfg = ng_system_config(sys);
	struct ng_space *sp = ng_system_space(sys);
	struct ng_alloc_opts ao = { .place = NG_PLACE_NODE, .node = 1 };
	struct ng_buf buf = { 0 };
	struct chase_args c = { 0 };
	struct ng_launch l = { .name = r->workload, .fn = chase_kernel,
			       .grid = { 1, 1 }, .block = { NG_WARP, 1 },
			       .only_gpu = 0, .args = &c };
	struct ng_launch_result lr;
	uint64_t nlines, seed = cfg->seed ? cfg->seed : 1;
	uint32_t *perm, *next, at = 0;
	int ret;

	if (cfg->gpus < 2) {
		ng_seterr(err, errlen, "%s needs at least 2 GPUs", r->workload);
		return -EINVAL;
	}
	nlines = o->size / cfg->line;
	if (nlines < 2 || nlines > UINT32_MAX) {
		ng_seterr(err, errlen, "%s: size must hold 2 to 2^32 lines",
			  r->workload);
		return -EINVAL;
	}
	ret = ng_malloc(sp, &buf, nlines * cfg->line, &ao, err, errlen);
	if (ret)
		return ret;
	perm = malloc(nlines * sizeof(*perm));
	if (!perm) {
		ng_free(sp, &buf);
		ng_seterr(err, errlen, "out of memory");
		return -ENOMEM;
	}
	/* one random cycle through all lines (Sattolo), from the seed */
	for (uint64_t i = 0; i < nlines; i++)
		perm[i] = (uint32_t)i;
	for (uint64_t i = nlines - 1; i > 0; i--) {
		uint64_t j = xorshift(&seed) % i;
		uint32_t tmp = perm[i];

		perm[i] = perm[j];
		perm[j] = tmp;
	}
	next = buf.ptr;
	c.words = cfg->line / 4;
	for (uint64_t i = 0; i < nlines; i++)
		next[(uint64_t)i * c.words] = perm[i];
	/* each line once per kernel: no cache can shorten the chain */
	c.hops = nlines;
	c.next = next;
	r->elements = c.hops;
	r->bytes = 4 * c.hops * o->iters;
	ng_system_reset_counters(sys);
	for (unsigned int i = 0; i < o->iters && !ret; i++) {
		ret = ng_launch(sys, &l, &lr);
		r->modeled_s += (double)lr.modeled / NG_TICKS_PER_NS * 1e-9;
		r->wall_s += lr.wall_s;
		wl_progress(o, i + 1, o->iters);
	}
	wl_collect(sys, r);
	for (uint64_t h = 0; h < c.hops; h++)
		at = perm[at];
	r->verified = !ret && at == c.end;
	snprintf(r->verify, sizeof(r->verify),
		 r->verified ? "%llu hops end where the CPU's chase ends"
			     : "%llu hops end elsewhere than the CPU's chase",
		 (unsigned long long)c.hops);
	wl_check_kmod(sys, &buf, r);
	r->metric = "latency";
	r->unit = "ns";
	if (c.hops && o->iters)
		r->measured = r->modeled_s * 1e9 / (double)(c.hops * o->iters);
	r->expected = ng_config_remote_latency_ns(cfg);
	free(perm);
	ng_free(sp, &buf);
	if (ret)
		ng_seterr(err, errlen, "%s: launch failed: %s", r->workload,
			  strerror(-ret));
	return ret;
}

const struct ng_workload ng_wl_local_stream = {
	.name = "local-stream",
	.desc = "calibration: GPU 0 streams its own memory; expect local-bw",
	.default_size = 64ULL << 20,
	.default_iters = 2,
	.narrays = 1,
	.run = local_run,
};

const struct ng_workload ng_wl_remote_stream = {
	.name = "remote-stream",
	.desc = "calibration: GPU 0 streams GPU 1's memory; expect link-bw",
	.default_size = 64ULL << 20,
	.default_iters = 2,
	.narrays = 1,
	.run = remote_run,
};

const struct ng_workload ng_wl_pointer_chase = {
	.name = "pointer-chase",
	.desc = "calibration: GPU 0 chases pointers in GPU 1's memory; expect the remote load latency",
	.default_size = 4ULL << 20,
	.default_iters = 1,
	.narrays = 1,
	.run = chase_run,
};
