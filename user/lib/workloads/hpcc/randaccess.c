// SPDX-License-Identifier: GPL-2.0
/*
 * randaccess: GUPS-style random updates. Every thread of a kernel reads
 * one random word of a large table T and adds to a random counter of U
 * with an atomic at its home: U[T[idx] mod m] += 1 + (T[idx] >> 16 & 7).
 * Both are homed in parts on every GPU by first touch. There is little
 * reuse, so a remote data cache mostly misses, and a miss costs its
 * probe of local memory before the remote fetch (CARVE: RandAccess is
 * slower with an RDC). Verified against the CPU replaying the same
 * random stream.
 */
#include <stdlib.h>

#include "workloads/wl.h"

#define RA_BLOCK	256
#define RA_THREADS	(64u * 1024)	/* updates per kernel */
#define RA_COUNTERS	(64u * 1024)
#define RA_WARPS	(RA_BLOCK / NG_WARP)
/*
 * An update's arithmetic (40): before T's load, the index (2), the 64-bit
 * hash of the random stream (~12 in 32-bit operations), the 64-bit modulo
 * (~20) and T's address (1); after it, what needs T's word: the counter's
 * index and increment (4) and U's address (1).
 */
#define RA_INSTS_IDX	35
#define RA_INSTS_UPD	5

struct ra_args {
	uint32_t *t, *u;
	uint64_t n, seed;
	uint32_t it;
};

static uint64_t ra_idx(const struct ra_args *a, uint32_t it, uint64_t tid)
{
	return wlc_hash(a->seed ^ ((uint64_t)it << 40) ^ tid) % a->n;
}

/*
 * T and U are initialized in parallel by every GPU, as GUPS does: the
 * warp that writes T[i0 .. i0 + 32) zeroes the same share of U, so both
 * are homed in contiguous parts on every GPU by first touch.
 */
static void ra_init(struct ng_block *b, void *p)
{
	struct ra_args *a = p;

	for (unsigned int wi = 0; wi < b->nwarps; wi++) {
		uint32_t v[NG_WARP], z[NG_WARP] = { 0 };
		struct ng_warp w;
		uint64_t i0, j0, j1;

		ng_warp_get(b, wi, &w);
		if (!wlc_lanes(&w, a->n, RA_BLOCK, &i0))
			break;
		for (unsigned int l = 0; l < w.nlanes; l++)
			v[l] = (uint32_t)wlc_hash(i0 + l);
		ng_st_contig(&w, a->t + i0, 4, v);
		j0 = i0 * RA_COUNTERS / a->n;
		j1 = (i0 + w.nlanes) * RA_COUNTERS / a->n;
		if (j1 > j0) {
			w.nlanes = (unsigned int)(j1 - j0);
			w.active = w.nlanes == 32 ? ~0u : (1u << w.nlanes) - 1;
			ng_st_contig(&w, a->u + j0, 4, z);
		}
	}
}

/*
 * A block in two steps, as a GPU's warps run it: every warp computes its
 * random indices and loads T there, then each warp waits for its words
 * before it can address U with them.
 */
static void ra_kernel(struct ng_block *b, void *p)
{
	struct ra_args *a = p;
	uint32_t v[RA_WARPS][NG_WARP];
	struct ng_warp w[RA_WARPS];
	unsigned int nw;

	for (nw = 0; nw < b->nwarps; nw++) {
		uintptr_t addr[NG_WARP];
		uint64_t i0;

		ng_warp_get(b, nw, &w[nw]);
		if (!wlc_lanes(&w[nw], RA_THREADS, RA_BLOCK, &i0))
			break;
		for (unsigned int l = 0; l < w[nw].nlanes; l++)
			addr[l] = (uintptr_t)&a->t[ra_idx(a, a->it, i0 + l)];
		ng_warp_compute(&w[nw], RA_INSTS_IDX);
		ng_ld(&w[nw], addr, 4, v[nw]);
	}
	for (unsigned int wi = 0; wi < nw; wi++) {
		uintptr_t uaddr[NG_WARP];
		uint32_t add[NG_WARP];

		/* U's address is T's word */
		ng_warp_wait(&w[wi]);
		for (unsigned int l = 0; l < w[wi].nlanes; l++) {
			uaddr[l] = (uintptr_t)&a->u[v[wi][l] % RA_COUNTERS];
			add[l] = 1 + (v[wi][l] >> 16 & 7);
		}
		ng_warp_compute(&w[wi], RA_INSTS_UPD);
		ng_atomic_add_u32(&w[wi], uaddr, add, NULL);
	}
}

static int ra_run(struct ng_system *sys, const struct ng_bench_opts *o,
		  struct ng_bench_result *r, char *err, size_t errlen)
{
	struct wlc c;
	struct ng_buf bt = { 0 }, bu = { 0 };
	struct ra_args a = { 0 };
	uint32_t *ref = NULL;
	int ret;

	wlc_init(&c, sys, o, r, err, errlen);
	a.n = o->size / 4;
	a.seed = c.cfg->seed;
	if (a.n < RA_COUNTERS) {
		ng_seterr(err, errlen, "randaccess: size must be %u KiB at least",
			  RA_COUNTERS * 4 / 1024);
		return -EINVAL;
	}
	ret = wlc_alloc(&c, &bt, a.n * 4, -1);
	if (!ret)
		ret = wlc_alloc(&c, &bu, RA_COUNTERS * 4, -1);
	if (ret)
		goto out;
	a.t = bt.ptr;
	a.u = bu.ptr;
	r->elements = a.n;
	r->bytes = 8ULL * RA_THREADS * o->iters;
	c.total = o->iters;
	ret = wlc_launch(&c, "ra-init", ra_init, &a, (a.n + RA_BLOCK - 1) / RA_BLOCK,
			 RA_BLOCK, -1, false);
	if (ret)
		goto out;
	ng_system_reset_counters(sys);
	for (unsigned int it = 0; it < o->iters; it++) {
		a.it = it;
		ret = wlc_launch(&c, "randaccess", ra_kernel, &a,
				 RA_THREADS / RA_BLOCK, RA_BLOCK, -1, true);
		if (ret)
			goto out;
	}
	wl_collect(sys, r);
	ref = calloc(RA_COUNTERS, sizeof(*ref));
	if (!ref) {
		ret = -ENOMEM;
		ng_seterr(err, errlen, "randaccess: out of memory");
		goto out;
	}
	for (unsigned int it = 0; it < o->iters; it++)
		for (uint64_t tid = 0; tid < RA_THREADS; tid++) {
			uint32_t v = (uint32_t)wlc_hash(ra_idx(&a, it, tid));

			ref[v % RA_COUNTERS] += 1 + (v >> 16 & 7);
		}
	wl_corrupt_u32(o, a.u, RA_COUNTERS);
	r->verified = true;
	snprintf(r->verify, sizeof(r->verify),
		 "%u x %u random updates match the CPU's counters",
		 o->iters, RA_THREADS);
	for (uint32_t i = 0; i < RA_COUNTERS; i++)
		if (ref[i] != a.u[i]) {
			r->verified = false;
			snprintf(r->verify, sizeof(r->verify),
				 "counter %u is %u, the CPU reference says %u",
				 i, a.u[i], ref[i]);
			break;
		}
out:
	free(ref);
	ng_free(c.sp, &bu);
	ng_free(c.sp, &bt);
	return ret;
}

const struct ng_workload ng_wl_randaccess = {
	.name = "randaccess",
	.desc = "GUPS-style: random reads of a large table, random atomic updates",
	.default_size = 32ULL << 20,
	.paper_footprint = 15ULL << 30,
	.paper_ref = "CARVE Table II: RandAccess 15.0 GB",
	.default_iters = 8,
	.narrays = 1,
	.run = ra_run,
};
