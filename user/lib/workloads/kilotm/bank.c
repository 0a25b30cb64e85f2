// SPDX-License-Identifier: GPL-2.0
/*
 * bank: Bank Account, after KILO TM's benchmark (Fung et al., MICRO 2011)
 * as ScaleGPU runs it: many threads each make random transfers between
 * the accounts of a large table, each transfer an atomic subtract from
 * one account and an atomic add to another (KILO TM wraps the pair in a
 * transaction; with atomics each half is indivisible and the sum of all
 * balances is conserved, which is what the run checks). Thread t of 256-
 * thread blocks makes BK_TRANSFERS transfers, account numbers and amounts
 * from splitmix64 of the seed, t and the transfer: every warp's atomics
 * scatter over the whole table (ScaleGPU's "small-sized indirect memory
 * accesses" that cannot be split). An untimed init kernel opens every
 * account with BK_OPEN.
 *
 * Verified twice: the total of the balances must equal what was opened
 * (no transfer lost or doubled), and every account must hold what the
 * host's replay of the same transfers gives it (addition commutes, so the
 * order does not matter).
 */
#include <stdlib.h>

#include "workloads/wl.h"

#define BK_BLOCK	256
#define BK_TRANSFERS	8	/* per thread */
#define BK_OPEN		1000u
/* a transfer's arithmetic: three hashes' worth of index math (12) */
#define BK_INSTS	12

struct bk_args {
	uint32_t *acc;
	uint64_t n, threads, seed;
};

/* Transfer @k of thread @t: from *src to *dst, *amount. */
static void bk_transfer(const struct bk_args *a, uint64_t t, unsigned int k,
			uint64_t *src, uint64_t *dst, uint32_t *amount)
{
	uint64_t h = wlc_hash(a->seed * 0x626b + t * BK_TRANSFERS + k);

	*src = (h & 0xffffffff) % a->n;
	*dst = (h >> 32) % a->n;
	*amount = (uint32_t)(wlc_hash(h) % 100) + 1;
}

static void bk_init(struct ng_block *b, void *p)
{
	const struct bk_args *a = p;

	for (unsigned int wi = 0; wi < b->nwarps; wi++) {
		uint32_t v[NG_WARP];
		struct ng_warp w;
		uint64_t i0;

		ng_warp_get(b, wi, &w);
		if (!wlc_lanes(&w, a->n, BK_BLOCK, &i0))
			break;
		for (unsigned int l = 0; l < w.nlanes; l++)
			v[l] = BK_OPEN;
		ng_st_contig(&w, a->acc + i0, 4, v);
	}
}

static void bk_kernel(struct ng_block *b, void *p)
{
	const struct bk_args *a = p;

	for (unsigned int wi = 0; wi < b->nwarps; wi++) {
		struct ng_warp w;
		uint64_t t0;

		ng_warp_get(b, wi, &w);
		if (!wlc_lanes(&w, a->threads, BK_BLOCK, &t0))
			break;
		for (unsigned int k = 0; k < BK_TRANSFERS; k++) {
			uintptr_t from[NG_WARP] = { 0 }, to[NG_WARP] = { 0 };
			uint32_t take[NG_WARP] = { 0 }, give[NG_WARP] = { 0 };

			for (unsigned int l = 0; l < w.nlanes; l++) {
				uint64_t s, d;
				uint32_t amt;

				bk_transfer(a, t0 + l, k, &s, &d, &amt);
				from[l] = (uintptr_t)(a->acc + s);
				to[l] = (uintptr_t)(a->acc + d);
				take[l] = (uint32_t)-amt;
				give[l] = amt;
			}
			ng_warp_compute(&w, BK_INSTS);
			ng_atomic_add_u32(&w, from, take, NULL);
			ng_atomic_add_u32(&w, to, give, NULL);
		}
	}
}

static int bk_verify(struct wlc *c, const struct bk_args *a)
{
	uint32_t *want = malloc(a->n * 4);
	uint64_t total = 0, opened = a->n * BK_OPEN;
	char ok[128];

	if (!want) {
		ng_seterr(c->err, c->errlen, "bank: out of memory");
		return -ENOMEM;
	}
	for (uint64_t i = 0; i < a->n; i++)
		want[i] = BK_OPEN;
	for (unsigned int it = 0; it < c->o->iters; it++)
		for (uint64_t t = 0; t < a->threads; t++)
			for (unsigned int k = 0; k < BK_TRANSFERS; k++) {
				uint64_t s, d;
				uint32_t amt;

				bk_transfer(a, t, k, &s, &d, &amt);
				want[s] -= amt;
				want[d] += amt;
			}
	wl_corrupt_u32(c->o, a->acc, a->n);
	/* balances are signed: a transfer may overdraw */
	for (uint64_t i = 0; i < a->n; i++)
		total += (uint64_t)(int64_t)(int32_t)a->acc[i];
	if (total != opened) {
		c->r->verified = false;
		snprintf(c->r->verify, sizeof(c->r->verify),
			 "the accounts hold %lld in all, the CPU reference says %llu (a transfer lost or doubled)",
			 (long long)total, (unsigned long long)opened);
	} else {
		snprintf(ok, sizeof(ok),
			 "%llu transfers conserve the total, and each of %llu accounts matches the CPU's replay",
			 (unsigned long long)(a->threads * BK_TRANSFERS *
					      c->o->iters),
			 (unsigned long long)a->n);
		wl_check_u32(c->r, "account", a->acc, want, a->n, 0, ok);
	}
	free(want);
	return 0;
}

static int bk_run(struct ng_system *sys, const struct ng_bench_opts *o,
		  struct ng_bench_result *r, char *err, size_t errlen)
{
	struct ng_buf bb = { 0 };
	struct bk_args a = { 0 };
	struct wlc c;
	int ret;

	wlc_init(&c, sys, o, r, err, errlen);
	a.n = o->size / 4;
	if (a.n < 2) {
		ng_seterr(err, errlen,
			  "bank: size must hold two accounts (8 bytes) at least");
		return -EINVAL;
	}
	/* a transfer per 2 accounts and thread round, as many threads */
	a.threads = (a.n / 16 + BK_BLOCK - 1) / BK_BLOCK * BK_BLOCK;
	a.seed = c.cfg->seed;
	ret = wlc_alloc(&c, &bb, a.n * 4, -1);
	if (ret)
		goto out;
	a.acc = bb.ptr;
	r->elements = a.n;
	r->bytes = 2ULL * 4 * a.threads * BK_TRANSFERS * o->iters;
	c.total = o->iters;
	ret = wlc_launch(&c, "bank-open", bk_init, &a,
			 (a.n + BK_BLOCK - 1) / BK_BLOCK, BK_BLOCK, -1, false);
	if (ret)
		goto out;
	ng_system_reset_counters(sys);
	for (unsigned int it = 0; it < o->iters && !ret; it++)
		ret = wlc_launch(&c, "bank", bk_kernel, &a,
				 a.threads / BK_BLOCK, BK_BLOCK, -1, true);
	if (ret)
		goto out;
	wl_collect(sys, r);
	ret = bk_verify(&c, &a);
out:
	ng_free(c.sp, &bb);
	return ret;
}

const struct ng_workload ng_wl_bank = {
	.name = "bank",
	.desc = "Bank Account (KILO TM): random transfers between accounts with atomics, the total conserved",
	.default_size = 4ULL << 20,	/* 1 Mi accounts, 512 Ki transfers */
	.paper_footprint = 47ULL << 20,
	.paper_ref = "ScaleGPU Table 2: Bank Account 47 MB",
	.default_iters = 1,
	.narrays = 1,
	.run = bk_run,
};
