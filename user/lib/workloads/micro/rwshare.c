// SPDX-License-Identifier: GPL-2.0
/*
 * rwshare: inter-kernel read-write sharing. A[] is homed by first touch
 * in contiguous parts, one per GPU. Each iteration is two kernels: a read
 * kernel in which every GPU copies its *neighbour's* part of A into its
 * own part of B (B[i] = A[(i + n/ngpus) mod n]: remote reads), then a
 * write kernel in which every GPU rewrites its own part of A (local
 * writes). So each read kernel reads data that another GPU wrote in the
 * previous kernel. A cache that keeps copies across the kernel boundary
 * without coherence (an RDC with coherence none) serves the old values:
 * B is checked against the CPU's expectation after every read kernel and
 * the first mismatch fails the run.
 */
#include <stdlib.h>

#include "workloads/wl.h"

#define RW_BLOCK	256
/* a value's hash (3) and index (2); the read side's index modulo (~8) */
#define RW_WRITE_INSTS	5
#define RW_READ_INSTS	10

struct rw_args {
	uint32_t *a, *b;
	uint64_t n, shift;
	uint32_t k;		/* the iteration A holds */
};

static uint32_t rw_val(uint32_t k, uint64_t i)
{
	return k * 2654435761u + (uint32_t)i * 7u + 1u;
}

static void rw_write(struct ng_block *b, void *p)
{
	struct rw_args *a = p;

	for (unsigned int wi = 0; wi < b->nwarps; wi++) {
		uint32_t v[NG_WARP];
		struct ng_warp w;
		uint64_t i0;

		ng_warp_get(b, wi, &w);
		if (!wlc_lanes(&w, a->n, RW_BLOCK, &i0))
			break;
		for (unsigned int l = 0; l < w.nlanes; l++)
			v[l] = rw_val(a->k, i0 + l);
		ng_warp_compute(&w, RW_WRITE_INSTS);
		ng_st_contig(&w, a->a + i0, 4, v);
	}
}

static void rw_read(struct ng_block *b, void *p)
{
	struct rw_args *a = p;

	for (unsigned int wi = 0; wi < b->nwarps; wi++) {
		uint32_t v[NG_WARP];
		struct ng_warp w;
		uint64_t i0, j0;

		ng_warp_get(b, wi, &w);
		if (!wlc_lanes(&w, a->n, RW_BLOCK, &i0))
			break;
		/* n and shift are whole warps: one contiguous source */
		j0 = (i0 + a->shift) % a->n;
		ng_warp_compute(&w, RW_READ_INSTS);
		ng_ld_contig(&w, a->a + j0, 4, v);
		ng_st_contig(&w, a->b + i0, 4, v);
	}
}

static int rw_check(const struct rw_args *a, char *msg, size_t len)
{
	for (uint64_t i = 0; i < a->n; i++) {
		uint64_t j = (i + a->shift) % a->n;

		if (a->b[i] != rw_val(a->k, j)) {
			snprintf(msg, len,
				 "stale data: after write kernel %u, B[%llu] = A[%llu] read %#x, the CPU reference says %#x (%s)",
				 a->k, (unsigned long long)i,
				 (unsigned long long)j, a->b[i], rw_val(a->k, j),
				 a->b[i] == rw_val(a->k ? a->k - 1 : 0, j) ?
				 "the value of the previous kernel" : "a wrong value");
			return -1;
		}
	}
	snprintf(msg, len,
		 "every read kernel saw the values the previous kernel wrote (%llu elements)",
		 (unsigned long long)a->n);
	return 0;
}

static int rw_run(struct ng_system *sys, const struct ng_bench_opts *o,
		  struct ng_bench_result *r, char *err, size_t errlen)
{
	struct wlc c;
	struct ng_buf ba = { 0 }, bb = { 0 };
	struct rw_args a = { 0 };
	uint64_t nblocks;
	bool bad = false;
	int ret;

	wlc_init(&c, sys, o, r, err, errlen);
	a.n = o->size / 4 / NG_WARP * NG_WARP;
	a.shift = a.n / c.cfg->gpus / NG_WARP * NG_WARP;
	if (a.n < (uint64_t)NG_WARP * c.cfg->gpus) {
		ng_seterr(err, errlen, "rwshare: size must hold %u words at least",
			  NG_WARP * c.cfg->gpus);
		return -EINVAL;
	}
	nblocks = (a.n + RW_BLOCK - 1) / RW_BLOCK;
	ret = wlc_alloc(&c, &ba, a.n * 4, -1);
	if (!ret)
		ret = wlc_alloc(&c, &bb, a.n * 4, -1);
	if (ret)
		goto out;
	a.a = ba.ptr;
	a.b = bb.ptr;
	r->elements = a.n;
	r->bytes = 3 * 4 * a.n * o->iters;
	c.total = 2 * o->iters;
	/* first touch: each GPU writes (and so homes) its own part */
	a.k = 0;
	ret = wlc_launch(&c, "rw-init", rw_write, &a, nblocks, RW_BLOCK, -1, false);
	if (ret)
		goto out;
	ng_system_reset_counters(sys);
	for (unsigned int it = 0; it < o->iters; it++) {
		ret = wlc_launch(&c, "rw-read", rw_read, &a, nblocks, RW_BLOCK,
				 -1, true);
		if (ret)
			goto out;
		if (!bad && rw_check(&a, r->verify, sizeof(r->verify)))
			bad = true;
		a.k = it + 1;
		ret = wlc_launch(&c, "rw-write", rw_write, &a, nblocks,
				 RW_BLOCK, -1, true);
		if (ret)
			goto out;
	}
	wl_collect(sys, r);
	/* --corrupt-one: the last read kernel's copy of one element */
	if (o->corrupt && !bad && a.n) {
		a.k--;
		a.b[a.n / 2] ^= 1;
		bad = rw_check(&a, r->verify, sizeof(r->verify)) != 0;
	}
	r->verified = !bad;
	if (!bad)
		snprintf(r->verify, sizeof(r->verify),
			 "each of %u read kernels saw what the previous kernel wrote (%llu elements)",
			 o->iters, (unsigned long long)a.n);
out:
	ng_free(c.sp, &bb);
	ng_free(c.sp, &ba);
	return ret;
}

const struct ng_workload ng_wl_rwshare = {
	.name = "rwshare",
	.desc = "inter-kernel read-write sharing: GPUs read what another GPU wrote in the previous kernel",
	.default_size = 1ULL << 20,
	.default_iters = 4,
	.narrays = 2,
	.run = rw_run,
};
