// SPDX-License-Identifier: GPL-2.0
/*
 * Occupancy: an SM holds several blocks at once and hides one block's
 * latency with the others' work, as a GPU does. A latency-bound kernel
 * (every warp follows a chain of dependent remote loads, one lane each so
 * that the link stays idle) written from the public headers alone, run
 * on GPU 1 with its data on GPU 0. Modeled times only, with tolerances.
 */
#include <math.h>
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
	c->l2.size = 0;
	c->rdc.size = 0;
	c->rdc.pct = 0;
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

/*
 * Little's law: with M miss entries per SM below the warps in flight, the
 * loads of a step queue for them, and the wave takes warps / M times the
 * steps' latency.
 */
TEST(miss_entries_bound_the_loads_in_flight)
{
	static const unsigned int m[] = { 4, 8 };

	for (unsigned int i = 0; i < 2; i++) {
		struct ng_config c;
		unsigned int inflight = 4 * WARPS;	/* per SM */
		double r;

		latency_bound(&c, 4);
		c.mlp = 0;
		c.mshr_entries = m[i];
		r = chase_run(_metadata, &c, c.sms * 4, WARPS);
		TH_LOG("mshr-entries %u, %u warps in flight: %.3f x steps x latency",
		       m[i], inflight, r);
		EXPECT_GT(r, (double)inflight / m[i] * 0.85);
		EXPECT_LT(r, (double)inflight / m[i] * 1.15);
	}
}

struct barrier {
	const uint32_t *remote;		/* on GPU 0 */
	ng_ticks after[2];		/* block b's clock past its barrier */
	bool own;			/* block 1 loads too before its barrier */
};

/*
 * Block 0 loads a remote word and goes on; block 1, resident on the same
 * SM, reaches a barrier (after a remote load of its own when @own).
 */
static void barrier_kernel(struct ng_block *b, void *p)
{
	struct barrier *a = p;
	struct ng_warp w;
	uintptr_t addr[NG_WARP] = { (uintptr_t)&a->remote[b->id * 64] };
	uint32_t v[NG_WARP];

	ng_warp_get(b, 0, &w);
	w.active = 1;
	if (b->id == 0 || a->own)
		ng_ld(&w, addr, 4, v);
	ng_block_sync(b);
	a->after[b->id] = b->sm->now;
}

static double barrier_run(struct __test_metadata *_metadata, bool own)
{
	struct ng_config c;
	struct ng_alloc_opts ao = { .place = NG_PLACE_NODE, .node = 0 };
	struct barrier a = { .own = own };
	struct ng_launch l = { .name = "barrier", .fn = barrier_kernel,
			       .args = &a, .grid = { 2, 1 },
			       .block = { NG_WARP, 1 }, .only_gpu = 1 };
	struct ng_system *sys;
	struct ng_buf buf;
	char err[256];
	double lat;

	latency_bound(&c, 2);
	c.sms = 1;
	lat = ng_config_remote_latency_ns(&c) * NG_TICKS_PER_NS;
	if (ng_system_create(&sys, &c, err, sizeof(err))) {
		TH_LOG("%s", err);
		return -1;
	}
	if (ng_malloc(ng_system_space(sys), &buf, 4096, &ao, err, sizeof(err))) {
		TH_LOG("%s", err);
		ng_system_destroy(sys);
		return -1;
	}
	a.remote = buf.ptr;
	EXPECT_EQ(0, ng_launch(sys, &l, NULL));
	ng_free(ng_system_space(sys), &buf);
	ng_system_destroy(sys);
	return (double)a.after[1] / lat;
}

/*
 * A barrier waits for its own block's requests, not for those of another
 * block resident on the same SM.
 */
TEST(a_barrier_waits_for_its_own_block_only)
{
	double other = barrier_run(_metadata, false);
	double own = barrier_run(_metadata, true);

	TH_LOG("past the barrier: %.3f x latency (block 0's load), %.3f (its own)",
	       other, own);
	EXPECT_LT(other, 0.1);
	EXPECT_GT(own, 0.95);
}

/*
 * A bandwidth-bound kernel (stream-triad, pages interleaved over the GPUs,
 * 75% of its lines over links) takes the links' time whatever the
 * occupancy.
 */
TEST(bandwidth_bound_time_does_not_depend_on_occupancy)
{
	static const unsigned int bps[] = { 1, 8, 32 };
	double t[3];

	for (unsigned int i = 0; i < 3; i++) {
		struct ng_bench_result *r = calloc(1, sizeof(*r));
		struct ng_bench_opts o = { .size = 8 << 20, .iters = 2 };
		struct ng_system *sys;
		struct ng_config c;
		char err[256];

		ASSERT_NE(NULL, r);
		ASSERT_EQ(0, ng_config_preset(&c, "carve", err, sizeof(err)));
		c.placement = NG_PLACE_FGP;
		c.rdc.size = 0;
		c.rdc.pct = 0;
		c.l2.size = 0;
		c.mem_per_gpu = 256 << 20;
		c.deterministic = true;
		c.blocks_per_sm = bps[i];
		ASSERT_EQ(0, ng_system_create(&sys, &c, err, sizeof(err)))
			TH_LOG("%s", err);
		EXPECT_EQ(0, ng_bench_run(sys, ng_workload_find("stream-triad"),
					  &o, r, err, sizeof(err))) TH_LOG("%s", err);
		EXPECT_TRUE(r->verified);
		t[i] = r->modeled_s;
		ng_system_destroy(sys);
		free(r);
		TH_LOG("blocks-per-sm %u: %.3f us", bps[i], t[i] * 1e6);
	}
	EXPECT_LT(fabs(t[1] / t[0] - 1), 0.05);
	EXPECT_LT(fabs(t[2] / t[0] - 1), 0.05);
}

/*
 * At the papers' occupancy, a threaded run's modeled time is the
 * deterministic run's: two workloads under two systems.
 */
TEST(threaded_equals_deterministic_at_the_papers_occupancy)
{
	static const char *const wl[] = { "spmv", "hotspot" };
	static const uint64_t rdc[] = { 0, 4 << 20 };	/* numa-gpu, carve-hwc */

	for (unsigned int i = 0; i < 2; i++)
		for (unsigned int k = 0; k < 2; k++) {
			double t[2];

			for (unsigned int d = 0; d < 2; d++) {
				struct ng_bench_result *r = calloc(1, sizeof(*r));
				struct ng_bench_opts o = { .size = 1 << 20, .iters = 2 };
				struct ng_system *sys;
				struct ng_config c;
				char err[256];

				ASSERT_NE(NULL, r);
				ASSERT_EQ(0, ng_config_preset(&c, "carve", err,
							      sizeof(err)));
				c.page = 64 << 10;
				c.l2.size = 256 << 10;
				c.mem_per_gpu = 64 << 20;
				c.rdc.pct = 0;
				c.rdc.size = rdc[k];
				c.deterministic = d;
				c.threads = d ? 0 : 4;
				ASSERT_EQ(0, ng_system_create(&sys, &c, err,
							      sizeof(err)))
					TH_LOG("%s", err);
				EXPECT_EQ(0, ng_bench_run(sys, ng_workload_find(wl[i]),
							  &o, r, err, sizeof(err)))
					TH_LOG("%s", err);
				EXPECT_TRUE(r->verified);
				t[d] = r->modeled_s;
				ng_system_destroy(sys);
				free(r);
			}
			TH_LOG("%s, rdc %s: threaded %.3f us, deterministic %.3f us",
			       wl[i], rdc[k] ? "4M (carve-hwc)" : "0 (numa-gpu)",
			       t[0] * 1e6, t[1] * 1e6);
			EXPECT_LT(fabs(t[0] / t[1] - 1), 0.01);
		}
}

TEST_HARNESS_MAIN
