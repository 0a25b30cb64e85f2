// SPDX-License-Identifier: GPL-2.0
/*
 * Occupancy: an SM holds several blocks at once and hides one block's
 * latency with the others' work, as a GPU does. A latency-bound kernel
 * (every warp follows a chain of dependent remote loads, one lane each so
 * that the link stays idle) written from the public headers alone, run
 * on GPU 1 with its data on GPU 0. Modeled times only, with tolerances.
 */
#include <stdlib.h>
#include <string.h>

#include "ng_test.h"

#include "ngemu/ngemu.h"

#define WARPS	4		/* per block */
#define STEPS	16		/* dependent loads per warp */
#define STRIDE	64		/* words between a chain's loads: a line each */

struct chase {
	const uint32_t *next;	/* next[i]: the word the chain reads after i */
	uint32_t *out;		/* per warp: where its chain ended */
	unsigned int warps;
};

/*
 * Each warp reads next[i] and goes on from the value it got: the load
 * after depends on the one before, so the warp waits for every one. The
 * block's warps issue their loads of a step, then wait for them.
 */
static void chase_kernel(struct ng_block *b, void *p)
{
	struct chase *c = p;
	struct ng_warp w[WARPS];
	uint32_t at[WARPS];

	for (unsigned int i = 0; i < c->warps; i++) {
		ng_warp_get(b, i, &w[i]);
		w[i].active = 1;
		at[i] = (uint32_t)((b->id * c->warps + i) * STRIDE);
	}
	for (unsigned int s = 0; s < STEPS; s++) {
		for (unsigned int i = 0; i < c->warps; i++) {
			uintptr_t a[NG_WARP] = { (uintptr_t)&c->next[at[i]] };
			uint32_t v[NG_WARP];

			ng_ld(&w[i], a, 4, v);
			at[i] = v[0];
		}
		for (unsigned int i = 0; i < c->warps; i++)
			ng_warp_wait(&w[i]);
	}
	for (unsigned int i = 0; i < c->warps; i++) {
		uintptr_t a[NG_WARP] = {
			(uintptr_t)&c->out[b->id * c->warps + i] };

		ng_st(&w[i], a, 4, &at[i]);
	}
}

/* carve, 8 SMs of one real SM each, no cache that a chain could hit */
static void latency_bound(struct ng_config *c, unsigned int bps)
{
	char err[256];

	if (ng_config_preset(c, "carve", err, sizeof(err)))
		abort();
	c->sms = 8;
	c->sm_scale = 1;
	c->l2_size = 0;
	c->rdc_size = 0;
	c->rdc_pct = 0;
	c->mem_per_gpu = 256 << 20;
	c->page = 64 << 10;
	c->deterministic = true;
	c->blocks_per_sm = bps;
}

/*
 * The kernel on @nblocks blocks of @warps warps: modeled time over
 * STEPS x the remote latency (-1 on error). Every chain is checked.
 */
static double chase_run(struct __test_metadata *_metadata,
			const struct ng_config *cfg, unsigned int nblocks,
			unsigned int warps)
{
	uint64_t chains = (uint64_t)nblocks * warps;
	uint64_t words = chains * STRIDE * (STEPS + 1);
	struct ng_alloc_opts ao = { .place = NG_PLACE_NODE, .node = 0 };
	struct ng_alloc_opts ao1 = { .place = NG_PLACE_NODE, .node = 1 };
	struct chase c = { .warps = warps };
	struct ng_launch l = { .name = "chase", .fn = chase_kernel, .args = &c,
			       .grid = { nblocks, 1 },
			       .block = { warps * NG_WARP, 1 }, .only_gpu = 1 };
	struct ng_launch_result lr;
	struct ng_buf bn, bo;
	struct ng_system *sys;
	struct ng_space *sp;
	uint32_t *next;
	double ratio = -1;
	char err[256];

	if (ng_system_create(&sys, cfg, err, sizeof(err))) {
		TH_LOG("%s", err);
		return -1;
	}
	sp = ng_system_space(sys);
	if (ng_malloc(sp, &bn, words * 4, &ao, err, sizeof(err)) ||
	    ng_malloc(sp, &bo, chains * 4, &ao1, err, sizeof(err))) {
		TH_LOG("%s", err);
		ng_system_destroy(sys);
		return -1;
	}
	/* chain k visits k*STRIDE, then a line further each step */
	next = bn.ptr;
	for (uint64_t k = 0; k < chains; k++)
		for (unsigned int s = 0; s < STEPS; s++) {
			uint64_t at = (k + chains * s) * STRIDE;

			next[at] = (uint32_t)((k + chains * (s + 1)) * STRIDE);
		}
	c.next = bn.ptr;
	c.out = bo.ptr;
	if (ng_launch(sys, &l, &lr)) {
		TH_LOG("launch failed");
	} else {
		bool ok = true;

		for (uint64_t k = 0; k < chains; k++)
			ok &= c.out[k] == (uint32_t)((k + chains * STEPS) * STRIDE);
		EXPECT_TRUE(ok) TH_LOG("a chain did not end where it should");
		ratio = (double)lr.modeled / NG_TICKS_PER_NS /
			(STEPS * ng_config_remote_latency_ns(cfg));
	}
	ng_free(sp, &bn);
	ng_free(sp, &bo);
	ng_system_destroy(sys);
	return ratio;
}

/*
 * One wave of resident blocks (sms x blocks-per-sm of them) takes the
 * steps' latency once, whatever blocks-per-sm is: the blocks' chains
 * overlap. Today's single block per SM would take bps times as long.
 */
TEST(one_wave_takes_the_latency_once)
{
	static const unsigned int bps[] = { 1, 2, 4, 8 };

	for (unsigned int i = 0; i < 4; i++) {
		struct ng_config c;
		double r;

		latency_bound(&c, bps[i]);
		r = chase_run(_metadata, &c, c.sms * bps[i], WARPS);
		TH_LOG("blocks-per-sm %u: %.3f x steps x latency", bps[i], r);
		EXPECT_GT(r, 0.85);
		EXPECT_LT(r, 1.15);
	}
}

/* The same grid with one block per SM runs in waves: 8 of them. */
TEST(one_block_per_sm_runs_in_waves)
{
	struct ng_config c;
	double r;

	latency_bound(&c, 1);
	r = chase_run(_metadata, &c, c.sms * 8, WARPS);
	TH_LOG("8 waves: %.3f x steps x latency", r);
	EXPECT_GT(r, 8 * 0.85);
	EXPECT_LT(r, 8 * 1.15);
}

TEST_HARNESS_MAIN
