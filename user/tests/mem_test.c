// SPDX-License-Identifier: GPL-2.0
/*
 * The memory component alone (model/mem.c): each GPU's memory is one
 * bandwidth server of local-bw with local-latency after it, and every
 * access moves a whole line. An idle load costs line / local-bw +
 * local-latency; a stream that keeps enough requests in flight takes
 * line / local-bw a line; a remote request is charged on its home's
 * memory and counted by its requester. Modeled times only.
 */
#include "model_rig.h"

/* A rig of 2 GPUs whose one SM issues and keeps in flight enough to fill local-bw. */
static void mem_rig(struct __test_metadata *_metadata, struct rig *r)
{
	rig_cfg(_metadata, r, "carve", 2);
	r->cfg.sm_scale = 16;		/* 16 lines a ns: 2 TB/s of issue */
	r->cfg.mlp = 8192;		/* Little's law: far more than 1 TB/s x 300 ns */
}

static double line_ns(const struct rig *r, double bw)
{
	return r->cfg.line / bw;	/* B / (GB/s) = ns */
}

TEST(an_idle_local_load_costs_a_line_at_local_bw_and_local_latency)
{
	struct rig r;
	ng_ticks t, at = rig_ns(1000);

	mem_rig(_metadata, &r);
	rig_up(_metadata, &r);
	EXPECT_EQ(7u, rig_load(&r, 0, rig_word(&r, 0, 7), at, &t));
	EXPECT_NEAR(t - at, rig_ns(line_ns(&r, r.cfg.local_bw) +
				   r.cfg.local_latency_ns), 2);
	EXPECT_EQ(1, rig_ctr(&r, 0, NG_CTR_MEM_ACC));
	EXPECT_EQ(1, rig_ctr(&r, 0, NG_CTR_LOCAL));
	rig_down(&r);
}

TEST(local_latency_is_what_the_key_says)
{
	struct rig r;
	ng_ticks t, at = rig_ns(1000);

	mem_rig(_metadata, &r);
	r.cfg.local_latency_ns = 100;
	rig_up(_metadata, &r);
	(void)rig_load(&r, 0, rig_word(&r, 0, 0), at, &t);
	EXPECT_NEAR(t - at, rig_ns(line_ns(&r, r.cfg.local_bw) + 100), 2);
	rig_down(&r);
}

/*
 * 8192 lines (1 MiB) from GPU 0's own memory: the last arrives after
 * 8192 lines' time at local-bw and one latency, within 2%.
 */
static double stream_gbs(struct __test_metadata *_metadata, double bw)
{
	struct rig r;
	uint64_t n;
	ng_ticks last;
	double ns, want;

	mem_rig(_metadata, &r);
	r.cfg.local_bw = bw;
	rig_up(_metadata, &r);
	n = r.bytes / r.cfg.line;
	last = rig_stream(&r, 0, 0, n);
	ns = (double)last / NG_TICKS_PER_NS - r.cfg.local_latency_ns;
	want = n * line_ns(&r, bw);
	EXPECT_NEAR(ns, want, 0.02 * want);
	EXPECT_EQ(n, rig_ctr(&r, 0, NG_CTR_MEM_ACC));
	EXPECT_EQ(0, rig_ctr(&r, 0, NG_CTR_UNBOOKED));
	n *= r.cfg.line;
	rig_down(&r);
	return (double)n / ns;
}

TEST(a_local_stream_gets_local_bw)
{
	double gbs = stream_gbs(_metadata, 1024);

	TH_LOG("local stream: %.1f GB/s of 1024", gbs);
	EXPECT_NEAR(gbs, 1024, 0.02 * 1024);
	/* half the bandwidth, half the stream */
	gbs = stream_gbs(_metadata, 512);
	EXPECT_NEAR(gbs, 512, 0.02 * 512);
}

/* Every access moves a whole line, whatever its word mask. */
TEST(a_one_word_load_costs_a_whole_line)
{
	struct rig r;
	ng_ticks full = 0, one = 0, t;
	uint64_t n = 2048;

	mem_rig(_metadata, &r);
	rig_up(_metadata, &r);
	r.sm[0].now = 0;
	for (uint64_t l = 0; l < n; l++) {
		t = rig_req(&r, 0, rig_line(&r, 0, l), NG_OP_LOAD, ~0ULL >> 32,
			    RIG_NOW).t;
		full = t > full ? t : full;
	}
	rig_next_kernel(&r);
	r.sm[0].now = 0;
	for (uint64_t l = 0; l < n; l++) {
		t = rig_req(&r, 0, rig_line(&r, 0, n + l), NG_OP_LOAD, 1,
			    RIG_NOW).t;
		one = t > one ? t : one;
	}
	EXPECT_NEAR(one, full, 0.01 * full);
	EXPECT_NEAR(full, rig_ns(n * line_ns(&r, r.cfg.local_bw) +
				 r.cfg.local_latency_ns), 0.02 * full);
	EXPECT_EQ(2 * n, rig_ctr(&r, 0, NG_CTR_MEM_ACC));
	rig_down(&r);
}

/*
 * A remote load reaches its home's memory: one access there, counted by
 * the requester, and the memory's part of its time is the same line at
 * local-bw and local-latency (a slower memory makes it slower by as much).
 */
TEST(a_remote_load_is_charged_on_its_homes_memory)
{
	struct rig r;
	ng_ticks fast, slow, at = rig_ns(1000);

	mem_rig(_metadata, &r);
	rig_up(_metadata, &r);
	EXPECT_EQ(1000005u, rig_load(&r, 0, rig_word(&r, 1, 5), at, &fast));
	EXPECT_EQ(1, rig_ctr(&r, 0, NG_CTR_MEM_ACC));
	EXPECT_EQ(0, rig_ctr(&r, 1, NG_CTR_MEM_ACC));
	EXPECT_EQ(1, rig_ctr(&r, 0, NG_CTR_REMOTE));
	rig_down(&r);

	mem_rig(_metadata, &r);
	r.cfg.local_latency_ns += 200;
	rig_up(_metadata, &r);
	(void)rig_load(&r, 0, rig_word(&r, 1, 5), at, &slow);
	EXPECT_NEAR(slow - fast, rig_ns(200), 2);
	rig_down(&r);
}

TEST_HARNESS_MAIN
