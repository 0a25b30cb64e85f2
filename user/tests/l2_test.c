// SPDX-License-Identifier: GPL-2.0
/*
 * The L2 alone (model/l2.c), software coherent (no HWC, no directory):
 * a remote line read twice in a kernel hits the second time, in
 * l2-latency, with the home's data and no link traffic; a kernel boundary
 * drops every remote line; a working set over l2-size misses on every
 * pass (LRU), one within it hits; stores write through and refresh the
 * copy; local lines are cached only with l2-local. Modeled values only.
 */
#include "model_rig.h"

/* 2 GPUs, a 64 KiB 16-way L2 (512 lines of 128 B, 32 sets). */
static void l2_rig(struct __test_metadata *_metadata, struct rig *r,
		   bool local)
{
	rig_cfg(_metadata, r, "carve", 2);
	r->cfg.l2.size = 64 << 10;
	r->cfg.l2.ways = 16;
	r->cfg.l2.local = local;
	r->cfg.mlp = 8192;
	rig_up(_metadata, r);
}

TEST(a_remote_line_read_again_in_the_kernel_hits)
{
	struct rig r;
	ng_ticks t, miss, at = rig_ns(1000);

	l2_rig(_metadata, &r, false);
	EXPECT_EQ(1000003u, rig_load(&r, 0, rig_word(&r, 1, 3), at, &miss));
	EXPECT_EQ(1, rig_ctr(&r, 0, NG_CTR_L2_MISS));
	EXPECT_EQ(1, rig_ctr(&r, 0, NG_CTR_L2_FILL));
	EXPECT_EQ(1, rig_ctr(&r, 0, NG_CTR_L2_COLD));
	/* the miss: the lookup, then the idle remote load */
	EXPECT_NEAR(miss - at, rig_ns(r.cfg.l2.latency_ns + rig_remote_ns(&r.cfg)), 4);
	/* another word of the line, once it is there: the copy's */
	at = miss + rig_ns(10);
	EXPECT_EQ(1000017u, rig_load(&r, 0, rig_word(&r, 1, 17), at, &t));
	EXPECT_EQ(1, rig_ctr(&r, 0, NG_CTR_L2_HIT));
	EXPECT_EQ(t - at, rig_ns(r.cfg.l2.latency_ns));
	/* nothing more crossed the link or reached the memory */
	EXPECT_EQ(r.cfg.line, rig_ctr(&r, 0, NG_CTR_LINK_RX));
	EXPECT_EQ(1, rig_ctr(&r, 0, NG_CTR_MEM_ACC));
	rig_down(&r);
}

TEST(a_kernel_boundary_drops_every_remote_line)
{
	struct rig r;

	l2_rig(_metadata, &r, false);
	for (unsigned int l = 0; l < 8; l++)
		(void)rig_load(&r, 0, rig_line(&r, 1, l), rig_ns(1000 * (l + 1)), NULL);
	EXPECT_EQ(8, rig_ctr(&r, 0, NG_CTR_L2_MISS));
	(void)rig_load(&r, 0, rig_line(&r, 1, 0), rig_ns(20000), NULL);
	EXPECT_EQ(1, rig_ctr(&r, 0, NG_CTR_L2_HIT));
	rig_next_kernel(&r);
	EXPECT_EQ(8, rig_ctr(&r, 0, NG_CTR_L2_INVAL));
	for (unsigned int l = 0; l < 8; l++)
		(void)rig_load(&r, 0, rig_line(&r, 1, l), rig_ns(1000 * (l + 1)), NULL);
	EXPECT_EQ(1, rig_ctr(&r, 0, NG_CTR_L2_HIT));
	EXPECT_EQ(16, rig_ctr(&r, 0, NG_CTR_L2_MISS));
	/* misses, but not cold ones: the L2 held these lines before */
	EXPECT_EQ(8, rig_ctr(&r, 0, NG_CTR_L2_COLD));
	rig_down(&r);
}

/* Two passes over @n consecutive remote lines; the second pass's hits. */
static uint64_t second_pass_hits(struct __test_metadata *_metadata,
				 uint64_t n, uint64_t *evictions)
{
	struct rig r;
	uint64_t before;

	l2_rig(_metadata, &r, false);
	(void)rig_stream(&r, 0, 1, n);
	before = rig_ctr(&r, 0, NG_CTR_L2_HIT);
	(void)rig_stream(&r, 0, 1, n);
	before = rig_ctr(&r, 0, NG_CTR_L2_HIT) - before;
	*evictions = rig_ctr(&r, 0, NG_CTR_L2_EVICT);
	rig_down(&r);
	return before;
}

TEST(capacity_misses_beyond_l2_size)
{
	uint64_t ev;

	/* 256 lines fit in 512: every line of the second pass hits */
	EXPECT_EQ(256, second_pass_hits(_metadata, 256, &ev));
	EXPECT_EQ(0, ev);
	/*
	 * 1024 lines through 512 in LRU order: each is evicted before the
	 * pass comes back to it, so no hit, and every fill past the first
	 * 512 replaced a line
	 */
	EXPECT_EQ(0, second_pass_hits(_metadata, 1024, &ev));
	EXPECT_EQ(2 * 1024 - 512, ev);
}

TEST(stores_write_through_and_refresh_the_copy)
{
	struct rig r;
	ng_ticks t;

	l2_rig(_metadata, &r, false);
	(void)rig_load(&r, 0, rig_word(&r, 1, 4), rig_ns(1000), &t);
	(void)rig_store(&r, 0, rig_word(&r, 1, 4), 77, t + rig_ns(10));
	EXPECT_EQ(1, rig_ctr(&r, 0, NG_CTR_L2_WUPD));
	/* one word, one flit, to the home */
	EXPECT_EQ(16, rig_ctr(&r, 0, NG_CTR_LINK_TX));
	EXPECT_EQ(77u, rig_load(&r, 0, rig_word(&r, 1, 4), rig_ns(10000), NULL));
	EXPECT_EQ(1, rig_ctr(&r, 0, NG_CTR_L2_HIT));
	rig_down(&r);
}

TEST(local_lines_only_with_l2_local)
{
	struct rig r;
	ng_ticks t, at = rig_ns(5000);

	/* remote lines only: a local line goes to the memory every time */
	l2_rig(_metadata, &r, false);
	(void)rig_load(&r, 0, rig_word(&r, 0, 0), rig_ns(1000), NULL);
	(void)rig_load(&r, 0, rig_word(&r, 0, 1), at, &t);
	EXPECT_EQ(0, rig_ctr(&r, 0, NG_CTR_L2_HIT) + rig_ctr(&r, 0, NG_CTR_L2_MISS) +
		     rig_ctr(&r, 0, NG_CTR_L2_LOCAL_HIT) +
		     rig_ctr(&r, 0, NG_CTR_L2_LOCAL_MISS));
	EXPECT_EQ(2, rig_ctr(&r, 0, NG_CTR_MEM_ACC));
	EXPECT_NEAR(t - at, rig_ns(rig_local_ns(&r.cfg)), 2);
	rig_down(&r);

	/* with l2-local: the second load hits in l2-latency, no memory */
	l2_rig(_metadata, &r, true);
	(void)rig_load(&r, 0, rig_word(&r, 0, 0), rig_ns(1000), NULL);
	(void)rig_load(&r, 0, rig_word(&r, 0, 1), at, &t);
	EXPECT_EQ(1, rig_ctr(&r, 0, NG_CTR_L2_LOCAL_MISS));
	EXPECT_EQ(1, rig_ctr(&r, 0, NG_CTR_L2_LOCAL_HIT));
	EXPECT_EQ(1, rig_ctr(&r, 0, NG_CTR_MEM_ACC));
	EXPECT_EQ(t - at, rig_ns(r.cfg.l2.latency_ns));
	/* and a local line stays across the kernel boundary */
	rig_next_kernel(&r);
	(void)rig_load(&r, 0, rig_word(&r, 0, 2), at, NULL);
	EXPECT_EQ(2, rig_ctr(&r, 0, NG_CTR_L2_LOCAL_HIT));
	rig_down(&r);
}

TEST_HARNESS_MAIN
