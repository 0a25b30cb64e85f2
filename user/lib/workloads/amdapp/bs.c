// SPDX-License-Identifier: GPL-2.0
/*
 * bs: bitonic sort, after the AMD APP SDK 3.0 sample BitonicSort as
 * MGPUSim runs it (amd/benchmarks/amdappsdk/bitonicsort/bitonicsort.go
 * and its kernel BitonicSort): N = 2^k 32-bit keys sorted in place,
 * ascending, by k (k + 1) / 2 launches, one per (stage, passOfStage).
 *
 * Work distribution as MGPUSim's: N / 2 work-items in work-groups of 64,
 * work-item i compares keys left = i % d + (i / d) 2d and left + d, where
 * d = 2^(stage - pass), and writes them back in the direction of its
 * bitonic block (descending when (i / 2^stage) is odd). MGPUSim launches
 * one kernel per GPU over a quarter of the work-items (its global offset);
 * here one launch whose batch scheduling gives each GPU the same quarter.
 * The keys are distributed as MGPUSim's Distribute() does, in one band per
 * GPU (the untimed init kernel's first touch, under the default
 * placement). Early passes (d small) pair keys a GPU homes; the passes
 * with d >= N / 8 read and write keys of another GPU's band: the remote
 * share grows with the stage, and every remote line is reused by the next
 * passes of the same stage, which is why DualOpt counts bs as
 * cache-friendly.
 *
 * The keys are splitmix64 of the seed (MGPUSim: rand.Uint32()); verified
 * against a CPU reference: the host's copy of the input, sorted by qsort,
 * word for word.
 */
#include <stdlib.h>

#include "workloads/wl.h"

#define BS_WG		64	/* MGPUSim's work-group size */
/*
 * A work-item's arithmetic: pair distance, block width and both ids
 * (shifts, a modulo and a divide, ~10), the direction test (~4), the
 * compare and the two selects (~4).
 */
#define BS_INSTS	18

struct bs_args {
	uint32_t *keys;
	uint64_t n;
	unsigned int stage, pass;
	uint64_t seed;
};

static uint32_t bs_key(uint64_t seed, uint64_t i)
{
	return (uint32_t)(wlc_hash(seed * 0x6273 + i) >> 32);
}

/* Untimed: work-group g writes keys [128 g, 128 g + 128), its band's. */
static void bs_init(struct ng_block *b, void *p)
{
	const struct bs_args *a = p;

	for (unsigned int wi = 0; wi < b->nwarps; wi++) {
		uint64_t i0 = (b->id * BS_WG + wi * NG_WARP) * 2;
		uint32_t v[2 * NG_WARP];
		struct ng_warp w;

		ng_warp_get(b, wi, &w);
		for (unsigned int l = 0; l < 2 * NG_WARP; l++)
			v[l] = bs_key(a->seed, i0 + l);
		ng_st_contig(&w, a->keys + i0, 4, v);
		ng_st_contig(&w, a->keys + i0 + NG_WARP, 4, v + NG_WARP);
	}
}

static void bs_kernel(struct ng_block *b, void *p)
{
	const struct bs_args *a = p;
	uint64_t d = 1ULL << (a->stage - a->pass);
	unsigned int same = a->stage;	/* log2 of the same-direction width */

	for (unsigned int wi = 0; wi < b->nwarps; wi++) {
		uint32_t lv[NG_WARP], rv[NG_WARP];
		uintptr_t la[NG_WARP], ra[NG_WARP];
		struct ng_warp w;

		ng_warp_get(b, wi, &w);
		ng_warp_compute(&w, BS_INSTS);
		for (unsigned int l = 0; l < NG_WARP; l++) {
			uint64_t i = b->id * BS_WG + w.tid0 + l;
			uint64_t left = i % d + i / d * 2 * d;

			la[l] = (uintptr_t)(a->keys + left);
			ra[l] = (uintptr_t)(a->keys + left + d);
		}
		ng_ld(&w, la, 4, lv);
		ng_ld(&w, ra, 4, rv);
		for (unsigned int l = 0; l < NG_WARP; l++) {
			uint64_t i = b->id * BS_WG + w.tid0 + l;
			bool up = !((i >> same) & 1);
			uint32_t lo = lv[l] < rv[l] ? lv[l] : rv[l];
			uint32_t hi = lv[l] < rv[l] ? rv[l] : lv[l];

			lv[l] = up ? lo : hi;
			rv[l] = up ? hi : lo;
		}
		ng_st(&w, la, 4, lv);
		ng_st(&w, ra, 4, rv);
	}
}

static int bs_cmp(const void *x, const void *y)
{
	uint32_t a = *(const uint32_t *)x, b = *(const uint32_t *)y;

	return (a > b) - (a < b);
}

/* The CPU reference: the same keys, sorted on the host. */
static int bs_verify(struct wlc *c, const struct bs_args *a)
{
	uint32_t *want = malloc(a->n * 4);
	char ok[128];

	if (!want) {
		ng_seterr(c->err, c->errlen, "bs: out of memory");
		return -ENOMEM;
	}
	for (uint64_t i = 0; i < a->n; i++)
		want[i] = bs_key(a->seed, i);
	qsort(want, a->n, 4, bs_cmp);
	snprintf(ok, sizeof(ok),
		 "the %llu keys are sorted as the CPU reference sorts them",
		 (unsigned long long)a->n);
	wl_corrupt_u32(c->o, a->keys, a->n);
	wl_check_u32(c->r, "keys", a->keys, want, a->n, 0, ok);
	free(want);
	return 0;
}

/* The timed passes of one sort: k (k + 1) / 2 launches. */
static int bs_sort(struct wlc *c, struct bs_args *a, unsigned int stages)
{
	int ret = 0;

	for (a->stage = 0; a->stage < stages && !ret; a->stage++)
		for (a->pass = 0; a->pass <= a->stage && !ret; a->pass++)
			ret = wlc_launch(c, "bs", bs_kernel, a,
					 a->n / 2 / BS_WG, BS_WG, -1, true);
	return ret;
}

static int bs_run(struct ng_system *sys, const struct ng_bench_opts *o,
		  struct ng_bench_result *r, char *err, size_t errlen)
{
	struct ng_buf bk = { 0 };
	struct bs_args a = { 0 };
	unsigned int stages = 0;
	struct wlc c;
	int ret;

	wlc_init(&c, sys, o, r, err, errlen);
	/* the largest power of two of keys in the size */
	while (stages < 31 && (8ULL << stages) <= o->size)
		stages++;
	a.n = 1ULL << stages;
	if (a.n < 2 * BS_WG) {
		ng_seterr(err, errlen,
			  "bs: size must hold %u keys (%u bytes) at least",
			  2 * BS_WG, 2 * BS_WG * 4);
		return -EINVAL;
	}
	a.seed = c.cfg->seed;
	ret = wlc_alloc(&c, &bk, a.n * 4, -1);
	if (ret)
		return ret;
	a.keys = bk.ptr;
	r->elements = a.n;
	/* each pass reads and writes every key once */
	r->bytes = 2ULL * a.n * 4 * stages * (stages + 1) / 2 * o->iters;
	c.total = o->iters * stages * (stages + 1) / 2;
	ret = wlc_launch(&c, "bs-init", bs_init, &a, a.n / 2 / BS_WG, BS_WG,
			 -1, false);
	if (ret)
		goto out;
	ng_system_reset_counters(sys);
	/* a repeated sort re-sorts sorted keys: the same passes, same result */
	for (unsigned int it = 0; it < o->iters && !ret; it++)
		ret = bs_sort(&c, &a, stages);
	if (ret)
		goto out;
	wl_collect(sys, r);
	ret = bs_verify(&c, &a);
out:
	ng_free(c.sp, &bk);
	return ret;
}

const struct ng_workload ng_wl_bs = {
	.name = "bs",
	.desc = "bitonic sort (AMD APP SDK BitonicSort): one launch per stage and pass, 64 work-items a group",
	.default_size = 1ULL << 20,	/* 262,144 keys: 171 launches */
	.paper_footprint = 1024 * 4,
	.paper_ref = "MGPUSim's samples/bitonicsort default -length 1024 (DualOpt gives no size)",
	.default_iters = 1,
	.narrays = 1,
	.run = bs_run,
};
