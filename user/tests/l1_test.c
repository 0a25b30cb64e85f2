// SPDX-License-Identifier: GPL-2.0
/*
 * The L1 alone (model/l1.c): one per real SM, for local and remote lines
 * alike. A line read again hits in l1-latency with its data and nothing
 * below; a hit on a line still on its way waits for it; a kernel boundary
 * drops every line; a working set over l1-size misses on every pass;
 * real SMs of one emulated SM share no L1; stores write through, refresh
 * the copy and allocate nothing. Modeled values only.
 */
#include "model_rig.h"

/* 2 GPUs of one SM standing for 2 real ones, a 16 KiB 4-way L1 each. */
static void l1_rig(struct __test_metadata *_metadata, struct rig *r)
{
	rig_cfg(_metadata, r, "carve", 2);
	r->cfg.sm_scale = 2;
	r->cfg.l1.size = 16 << 10;	/* 128 lines of 128 B */
	r->cfg.l1.ways = 4;
	r->cfg.l1.latency_ns = 20;
	rig_up(_metadata, r);
}

TEST(a_local_line_read_again_hits_in_l1_latency)
{
	struct rig r;
	ng_ticks miss, t, at = rig_ns(1000);

	l1_rig(_metadata, &r);
	EXPECT_EQ(3u, rig_load(&r, 0, rig_word(&r, 0, 3), at, &miss));
	/* a miss pays the lookup too */
	EXPECT_NEAR(miss - at, rig_ns(r.cfg.l1.latency_ns + rig_local_ns(&r.cfg)), 2);
	EXPECT_EQ(1, rig_ctr(&r, 0, NG_CTR_L1_MISS));
	EXPECT_EQ(1, rig_ctr(&r, 0, NG_CTR_L1_FILL));
	at = miss + rig_ns(5);
	EXPECT_EQ(30u, rig_load(&r, 0, rig_word(&r, 0, 30), at, &t));
	EXPECT_EQ(rig_ns(20), t - at);
	EXPECT_EQ(1, rig_ctr(&r, 0, NG_CTR_L1_HIT));
	EXPECT_EQ(0, rig_ctr(&r, 0, NG_CTR_L1_RHIT));
	EXPECT_EQ(1, rig_ctr(&r, 0, NG_CTR_MEM_ACC));
	rig_down(&r);
}

TEST(a_remote_line_read_again_hits_without_the_link)
{
	struct rig r;
	ng_ticks miss, t, at = rig_ns(1000);

	l1_rig(_metadata, &r);
	EXPECT_EQ(1000000u, rig_load(&r, 0, rig_word(&r, 1, 0), at, &miss));
	EXPECT_NEAR(miss - at, rig_ns(r.cfg.l1.latency_ns + rig_remote_ns(&r.cfg)), 4);
	at = miss + rig_ns(5);
	EXPECT_EQ(1000031u, rig_load(&r, 0, rig_word(&r, 1, 31), at, &t));
	EXPECT_EQ(rig_ns(20), t - at);
	EXPECT_EQ(1, rig_ctr(&r, 0, NG_CTR_L1_RHIT));
	EXPECT_EQ(1, rig_ctr(&r, 0, NG_CTR_L1_RMISS));
	EXPECT_EQ(r.cfg.line, rig_ctr(&r, 0, NG_CTR_LINK_RX));
	rig_down(&r);
}

TEST(a_hit_on_a_line_in_flight_waits_for_it)
{
	struct rig r;
	ng_ticks miss, t;

	l1_rig(_metadata, &r);
	(void)rig_load(&r, 0, rig_word(&r, 1, 0), rig_ns(1000), &miss);
	EXPECT_EQ(1000001u, rig_load(&r, 0, rig_word(&r, 1, 1), rig_ns(1001), &t));
	EXPECT_EQ(1, rig_ctr(&r, 0, NG_CTR_L1_HIT));
	EXPECT_EQ(miss, t);
	rig_down(&r);
}

TEST(a_kernel_boundary_drops_every_line)
{
	struct rig r;

	l1_rig(_metadata, &r);
	(void)rig_load(&r, 0, rig_word(&r, 0, 0), rig_ns(1000), NULL);
	(void)rig_load(&r, 0, rig_word(&r, 1, 0), rig_ns(2000), NULL);
	rig_next_kernel(&r);
	(void)rig_load(&r, 0, rig_word(&r, 0, 0), rig_ns(1000), NULL);
	(void)rig_load(&r, 0, rig_word(&r, 1, 0), rig_ns(2000), NULL);
	EXPECT_EQ(0, rig_ctr(&r, 0, NG_CTR_L1_HIT));
	EXPECT_EQ(4, rig_ctr(&r, 0, NG_CTR_L1_MISS));
	rig_down(&r);
}

/* Two passes over @n local lines; the second pass's hits. */
static uint64_t second_pass_hits(struct __test_metadata *_metadata, uint64_t n)
{
	struct rig r;
	uint64_t hits;

	l1_rig(_metadata, &r);
	(void)rig_stream(&r, 0, 0, n);
	hits = rig_ctr(&r, 0, NG_CTR_L1_HIT);
	r.sm[0].now = rig_ns(100000);
	for (uint64_t l = 0; l < n; l++)
		(void)rig_load(&r, 0, rig_line(&r, 0, l), RIG_NOW, NULL);
	hits = rig_ctr(&r, 0, NG_CTR_L1_HIT) - hits;
	rig_down(&r);
	return hits;
}

TEST(capacity_misses_beyond_l1_size)
{
	EXPECT_EQ(64, second_pass_hits(_metadata, 64));
	EXPECT_EQ(128, second_pass_hits(_metadata, 128));
	EXPECT_EQ(0, second_pass_hits(_metadata, 256));
}

/* An emulated SM's real SMs (a block's cu) each have their own L1. */
TEST(real_sms_share_no_l1)
{
	struct rig r;

	l1_rig(_metadata, &r);
	r.sm[0].cu = 0;
	(void)rig_load(&r, 0, rig_word(&r, 0, 0), rig_ns(1000), NULL);
	r.sm[0].cu = 1;
	(void)rig_load(&r, 0, rig_word(&r, 0, 0), rig_ns(5000), NULL);
	EXPECT_EQ(0, rig_ctr(&r, 0, NG_CTR_L1_HIT));
	EXPECT_EQ(2, rig_ctr(&r, 0, NG_CTR_MEM_ACC));
	(void)rig_load(&r, 0, rig_word(&r, 0, 0), rig_ns(9000), NULL);
	r.sm[0].cu = 0;
	(void)rig_load(&r, 0, rig_word(&r, 0, 0), rig_ns(9000), NULL);
	EXPECT_EQ(2, rig_ctr(&r, 0, NG_CTR_L1_HIT));
	rig_down(&r);
}

TEST(stores_write_through_and_allocate_nothing)
{
	struct rig r;
	ng_ticks t;

	l1_rig(_metadata, &r);
	/* a store to a line not held: to the home, no fill */
	(void)rig_store(&r, 0, rig_word(&r, 1, 40), 9, rig_ns(1000));
	EXPECT_EQ(0, rig_ctr(&r, 0, NG_CTR_L1_FILL));
	EXPECT_EQ(16, rig_ctr(&r, 0, NG_CTR_LINK_TX));
	/* a store to a line held: the copy takes the word, the home too */
	(void)rig_load(&r, 0, rig_word(&r, 1, 0), rig_ns(2000), &t);
	(void)rig_store(&r, 0, rig_word(&r, 1, 2), 77, t + rig_ns(10));
	EXPECT_EQ(32, rig_ctr(&r, 0, NG_CTR_LINK_TX));
	EXPECT_EQ(77u, rig_load(&r, 0, rig_word(&r, 1, 2), t + rig_ns(2000), NULL));
	EXPECT_EQ(1, rig_ctr(&r, 0, NG_CTR_L1_HIT));
	rig_down(&r);
}

/* Its line in a run's report: the hit rates from the run's counters. */
TEST(its_report_line_says_its_hit_rates)
{
	struct ng_counters t = { 0 };
	const struct ng_component *l1 = NULL;
	char buf[256] = "";
	FILE *f = fmemopen(buf, sizeof(buf) - 1, "w");

	for (unsigned int i = 0; ng_components[i]; i++)
		if (!strcmp(ng_components[i]->name, "l1"))
			l1 = ng_components[i];
	ASSERT_NE(NULL, l1);
	ASSERT_NE(NULL, l1->report);
	ASSERT_NE(NULL, f);
	t.v[NG_CTR_L1_HIT] = 3000;
	t.v[NG_CTR_L1_MISS] = 1000;
	t.v[NG_CTR_L1_RHIT] = 1;
	t.v[NG_CTR_L1_RMISS] = 3;
	l1->report(NULL, &t, f);
	fclose(f);
	EXPECT_STREQ("l1         hit rate 75.0% of 4.00 k loads, 25.0% of 4 remote ones\n",
		     buf);
}

TEST_HARNESS_MAIN
