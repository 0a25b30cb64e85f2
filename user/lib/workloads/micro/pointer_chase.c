// SPDX-License-Identifier: GPL-2.0
/*
 * pointer-chase: one lane of GPU 0 follows a random cycle through every
 * line of an array on GPU 1, each load's address depending on the last:
 * the modeled time per hop is the remote load latency of an idle system.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "workloads/wl.h"

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
		/* the next address: what the latency is measured with */
		ng_warp_compute(&w, 2);
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
	uint64_t nlines, seed = cfg->seed ? cfg->seed : 1;
	uint32_t *perm, *next, at = 0;
	int ret;

	ret = wl_calibration_baseline(sys, r, err, errlen);
	if (ret)
		return ret;

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
	ret = wl_run_timed(sys, &l, o, r);
	for (uint64_t h = 0; h < c.hops; h++)
		at = perm[at];
	/* --corrupt-one: the chase ends one hop further */
	if (o->corrupt)
		c.end = perm[c.end];
	r->verified = !ret && at == c.end;
	if (r->verified)
		snprintf(r->verify, sizeof(r->verify),
			 "%llu hops end where the CPU's chase ends",
			 (unsigned long long)c.hops);
	else
		snprintf(r->verify, sizeof(r->verify),
			 "%llu hops end at line %llu, the CPU reference says %llu",
			 (unsigned long long)c.hops, (unsigned long long)c.end,
			 (unsigned long long)at);
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

const struct ng_workload ng_wl_pointer_chase = {
	.name = "pointer-chase",
	.desc = "calibration: GPU 0 chases pointers in GPU 1's memory; expect the remote load latency (--rdc-size 0)",
	.default_size = 4ULL << 20,
	.default_iters = 1,
	.narrays = 1,
	.run = chase_run,
};
