// SPDX-License-Identifier: GPL-2.0
/*
 * The link component alone (model/link.c) on a mesh: a remote load
 * sends its request one way (latency only) and gets its line back the
 * other (serialized at link-bw, then latency); a store carries its
 * masked words, rounded up to flits; a stream of remote lines gets
 * link-bw; the bytes are counted per GPU and per pair. Modeled values
 * only (link_topology_test has the switch and the hub).
 */
#include "model_rig.h"

/* 2 GPUs, one SM each that issues and keeps in flight enough to fill a link. */
static void link_rig(struct __test_metadata *_metadata, struct rig *r)
{
	rig_cfg(_metadata, r, "carve", 2);
	r->cfg.sm_scale = 16;
	r->cfg.mlp = 8192;
}

/* The idle remote load: 2 x link-latency, the home's memory, the line back. */
static double idle_remote_ns(const struct ng_config *c)
{
	return 2 * c->link_latency_ns + c->local_latency_ns +
	       c->line / c->local_bw + c->line / c->link_bw;
}

TEST(an_idle_remote_load_crosses_the_link_twice)
{
	struct ng_link_usage u;
	struct rig r;
	ng_ticks t, at = rig_ns(1000);

	link_rig(_metadata, &r);
	rig_up(_metadata, &r);
	EXPECT_EQ(1000009u, rig_load(&r, 0, rig_word(&r, 1, 9), at, &t));
	EXPECT_NEAR(t - at, rig_ns(idle_remote_ns(&r.cfg)), 4);
	/* 802.1 ns on carve's links: 250 ns each way */
	EXPECT_NEAR((double)(t - at) / NG_TICKS_PER_NS, 802.125, 0.01);
	/* one request without data, the line back */
	EXPECT_EQ(1, rig_ctr(&r, 0, NG_CTR_XACT_REQ));
	EXPECT_EQ(r.cfg.line, rig_ctr(&r, 0, NG_CTR_LINK_RX));
	EXPECT_EQ(0, rig_ctr(&r, 0, NG_CTR_LINK_TX));
	ng_link_usage(&r.m, &u);
	EXPECT_EQ(r.cfg.line, u.pair[1][0]);
	EXPECT_EQ(0, u.pair[0][1]);
	rig_down(&r);
}

TEST(link_latency_is_paid_once_each_way)
{
	struct rig r;
	ng_ticks t, at = rig_ns(1000);

	link_rig(_metadata, &r);
	r.cfg.link_latency_ns = 100;
	rig_up(_metadata, &r);
	(void)rig_load(&r, 0, rig_word(&r, 1, 0), at, &t);
	EXPECT_NEAR((double)(t - at) / NG_TICKS_PER_NS,
		    200 + 300 + 0.125 + 2, 0.01);
	rig_down(&r);
}

/* Stores carry their words, rounded up to 16 B flits, towards the home. */
TEST(a_store_carries_its_words_in_flits)
{
	struct rig r;

	link_rig(_metadata, &r);
	rig_up(_metadata, &r);
	(void)rig_store(&r, 0, rig_word(&r, 1, 0), 1, rig_ns(1000));
	EXPECT_EQ(16, rig_ctr(&r, 0, NG_CTR_LINK_TX));
	EXPECT_EQ(1, rig_ctr(&r, 0, NG_CTR_XACT_DATA));
	/* 5 words, 20 B: two flits */
	*rig_word(&r, 1, 32) = 2;
	(void)rig_req(&r, 0, rig_word(&r, 1, 32), NG_OP_STORE, 0x1f,
		      rig_ns(2000));
	EXPECT_EQ(16 + 32, rig_ctr(&r, 0, NG_CTR_LINK_TX));
	/* a whole line of words: the line */
	(void)rig_req(&r, 0, rig_word(&r, 1, 64), NG_OP_STORE, ~0ULL >> 32,
		      rig_ns(3000));
	EXPECT_EQ(16 + 32 + 128, rig_ctr(&r, 0, NG_CTR_LINK_TX));
	EXPECT_EQ(0, rig_ctr(&r, 0, NG_CTR_LINK_RX));
	rig_down(&r);
}

/*
 * GPU 0 streams 4096 lines (512 KiB) from GPU 1: the lines come back at
 * link-bw, so the last arrives after bytes / link-bw and one idle load
 * latency (less its own line's serialization), within 2%.
 */
static double remote_stream_gbs(struct __test_metadata *_metadata, double bw)
{
	struct ng_link_usage u;
	struct rig r;
	uint64_t n = 4096, bytes;
	ng_ticks last;
	double ns, want;

	link_rig(_metadata, &r);
	r.cfg.link_bw = bw;
	rig_up(_metadata, &r);
	bytes = n * r.cfg.line;
	last = rig_stream(&r, 0, 1, n);
	ns = (double)last / NG_TICKS_PER_NS -
	     (idle_remote_ns(&r.cfg) - r.cfg.line / bw);
	want = bytes / bw;
	EXPECT_NEAR(ns, want, 0.02 * want);
	EXPECT_EQ(bytes, rig_ctr(&r, 0, NG_CTR_LINK_RX));
	EXPECT_EQ(n, rig_ctr(&r, 0, NG_CTR_XACT_REQ));
	EXPECT_EQ(0, rig_ctr(&r, 0, NG_CTR_UNBOOKED));
	ng_link_usage(&r.m, &u);
	EXPECT_EQ(bytes, u.pair[1][0]);
	rig_down(&r);
	return bytes / ns;
}

TEST(a_remote_stream_gets_link_bw)
{
	double gbs = remote_stream_gbs(_metadata, 64);

	TH_LOG("remote stream: %.2f GB/s of 64", gbs);
	EXPECT_NEAR(gbs, 64, 0.02 * 64);
	/* half the link, half the stream */
	gbs = remote_stream_gbs(_metadata, 32);
	EXPECT_NEAR(gbs, 32, 0.02 * 32);
}

/*
 * On a mesh each ordered pair has its own link: GPU 0 streaming from
 * GPUs 1 and 2 at once gets twice link-bw.
 */
TEST(on_a_mesh_two_senders_give_twice_link_bw)
{
	struct rig r;
	uint64_t n = 2048;
	ng_ticks last = 0, t;
	double ns, want;

	rig_cfg(_metadata, &r, "carve", 3);
	r.cfg.sm_scale = 16;
	r.cfg.mlp = 8192;
	rig_up(_metadata, &r);
	r.sm[0].now = 0;
	for (uint64_t l = 0; l < n; l++)
		for (unsigned int h = 1; h <= 2; h++) {
			(void)rig_load(&r, 0, rig_line(&r, h, l), RIG_NOW, &t);
			last = t > last ? t : last;
		}
	ns = (double)last / NG_TICKS_PER_NS - idle_remote_ns(&r.cfg);
	want = 2 * n * r.cfg.line / (2 * r.cfg.link_bw);
	EXPECT_NEAR(ns, want, 0.02 * want);
	EXPECT_EQ(2 * n * r.cfg.line, rig_ctr(&r, 0, NG_CTR_LINK_RX));
	rig_down(&r);
}

TEST_HARNESS_MAIN
