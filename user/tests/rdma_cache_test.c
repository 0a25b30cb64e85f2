// SPDX-License-Identifier: GPL-2.0
/*
 * DualOpt's RDMA cache alone (model/rdma_cache.c, remote-opt rdma): per
 * GPU, remote lines only, shared by the GPU's real SMs. A remote line
 * read again hits in rdma-latency without the link; a store to a line it
 * holds stays there (write-back) and its words reach the home when the
 * line leaves (evicted, or at the kernel's end, which drops every line);
 * a store to a line it does not hold goes to the home and allocates
 * nothing. Modeled values only.
 */
#include "model_rig.h"

/* 2 GPUs of DualOpt's (64 B lines), an 8 KiB 16-way RDMA cache (128 lines, 8 sets). */
static void rdma_rig(struct __test_metadata *_metadata, struct rig *r)
{
	rig_cfg(_metadata, r, "dualopt", 2);
	r->cfg.remote_opt = NG_RO_RDMA;
	r->cfg.sm_scale = 2;
	r->cfg.rdma.size = 8 << 10;
	r->cfg.rdma.ways = 16;
	r->cfg.rdma.latency_ns = 20;
	rig_up(_metadata, r);
}

TEST(a_remote_line_read_again_hits_without_the_link)
{
	struct rig r;
	ng_ticks miss, t, at = rig_ns(1000);

	rdma_rig(_metadata, &r);
	EXPECT_EQ(1000001u, rig_load(&r, 0, rig_word(&r, 1, 1), at, &miss));
	EXPECT_EQ(1, rig_ctr(&r, 0, NG_CTR_RDMA_MISS));
	EXPECT_EQ(1, rig_ctr(&r, 0, NG_CTR_RDMA_FILL));
	at = miss + rig_ns(5);
	EXPECT_EQ(1000015u, rig_load(&r, 0, rig_word(&r, 1, 15), at, &t));
	EXPECT_EQ(rig_ns(20), t - at);
	EXPECT_EQ(1, rig_ctr(&r, 0, NG_CTR_RDMA_HIT));
	EXPECT_EQ(r.cfg.line, rig_ctr(&r, 0, NG_CTR_LINK_RX));
	/* the GPU's other real SM finds it too: one cache per GPU */
	r.sm[0].cu = 1;
	(void)rig_load(&r, 0, rig_word(&r, 1, 2), at + rig_ns(100), NULL);
	EXPECT_EQ(2, rig_ctr(&r, 0, NG_CTR_RDMA_HIT));
	/* local lines are not its */
	(void)rig_load(&r, 0, rig_word(&r, 0, 0), at, NULL);
	(void)rig_load(&r, 0, rig_word(&r, 0, 0), at + rig_ns(1000), NULL);
	EXPECT_EQ(2, rig_ctr(&r, 0, NG_CTR_RDMA_HIT));
	EXPECT_EQ(1, rig_ctr(&r, 0, NG_CTR_RDMA_FILL));
	rig_down(&r);
}

TEST(stores_stay_until_the_kernel_ends)
{
	struct rig r;
	ng_ticks t;

	rdma_rig(_metadata, &r);
	/* a store to a line not held: to the home, a flit, no allocation */
	(void)rig_store(&r, 0, rig_word(&r, 1, 40), 9, rig_ns(1000));
	EXPECT_EQ(16, rig_ctr(&r, 0, NG_CTR_LINK_TX));
	EXPECT_EQ(0, rig_ctr(&r, 0, NG_CTR_RDMA_FILL));
	/* to a line held: it stays here */
	(void)rig_load(&r, 0, rig_word(&r, 1, 0), rig_ns(2000), &t);
	(void)rig_store(&r, 0, rig_word(&r, 1, 3), 33, t + rig_ns(10));
	(void)rig_store(&r, 0, rig_word(&r, 1, 4), 44, t + rig_ns(20));
	EXPECT_EQ(2, rig_ctr(&r, 0, NG_CTR_RDMA_WHIT));
	EXPECT_EQ(16, rig_ctr(&r, 0, NG_CTR_LINK_TX));
	EXPECT_EQ(44u, rig_load(&r, 0, rig_word(&r, 1, 4), t + rig_ns(30), NULL));
	/* the kernel's end writes the two dirty words back, and drops the line */
	rig_next_kernel(&r);
	EXPECT_EQ(16, rig_ctr(&r, 0, NG_CTR_RDMA_WB_BYTES));
	EXPECT_EQ(32, rig_ctr(&r, 0, NG_CTR_LINK_TX));
	EXPECT_EQ(1, rig_ctr(&r, 0, NG_CTR_RDMA_INVAL));
	(void)rig_load(&r, 0, rig_word(&r, 1, 4), rig_ns(1000), NULL);
	EXPECT_EQ(2, rig_ctr(&r, 0, NG_CTR_RDMA_MISS));
	rig_down(&r);
}

/*
 * 128 lines fill it (8 sets: lines 8 apart share one). A store to line 0
 * makes it its set's most recent; 16 new lines of the set then evict the
 * other 15 (clean: nothing goes back) and, last, line 0, whose dirty word
 * goes back then, not at the kernel's end.
 */
TEST(an_evicted_dirty_line_goes_back_when_it_leaves)
{
	struct rig r;
	ng_ticks t = rig_ns(1000), d;

	rdma_rig(_metadata, &r);
	for (unsigned int l = 0; l < 128; l++) {
		(void)rig_load(&r, 0, rig_line(&r, 1, l), t, &d);
		t = d + rig_ns(1);
	}
	EXPECT_EQ(128, rig_ctr(&r, 0, NG_CTR_RDMA_FILL));
	EXPECT_EQ(0, rig_ctr(&r, 0, NG_CTR_RDMA_EVICT));
	(void)rig_store(&r, 0, rig_line(&r, 1, 0), 5, t);
	for (unsigned int k = 0; k < 15; k++)
		(void)rig_load(&r, 0, rig_line(&r, 1, 128 + 8 * k), t + rig_ns(k + 1), NULL);
	EXPECT_EQ(15, rig_ctr(&r, 0, NG_CTR_RDMA_EVICT));
	EXPECT_EQ(0, rig_ctr(&r, 0, NG_CTR_RDMA_WB_BYTES));
	(void)rig_load(&r, 0, rig_line(&r, 1, 128 + 8 * 15), t + rig_ns(20), NULL);
	EXPECT_EQ(16, rig_ctr(&r, 0, NG_CTR_RDMA_EVICT));
	EXPECT_EQ(16, rig_ctr(&r, 0, NG_CTR_RDMA_WB_BYTES));
	EXPECT_EQ(16, rig_ctr(&r, 0, NG_CTR_LINK_TX));
	/* line 0 is gone: a miss, with the stored word from the home */
	EXPECT_EQ(5u, rig_load(&r, 0, rig_line(&r, 1, 0), t + rig_ns(3000), NULL));
	EXPECT_EQ(128 + 16 + 1, rig_ctr(&r, 0, NG_CTR_RDMA_MISS));
	rig_down(&r);
}

TEST_HARNESS_MAIN
