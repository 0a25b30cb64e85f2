// SPDX-License-Identifier: GPL-2.0
/*
 * DualOpt's decision engine as a switch (model/decision.c, the "de"
 * component): forced, it marks every remote load of every GPU for the
 * optimization (coalesce: fine-grained, only the words used cross the
 * link; rdma: the RDMA cache) and leaves local requests and stores
 * alone; with auto, remote lines move whole through the warm-up and the
 * window, then each GPU runs what its own window chose, and a counter
 * reset starts it over. dualopt_test has the thresholds and classes.
 */
#include "model_rig.h"

#include "ngemu/model/dualopt.h"

/* 2 GPUs of DualOpt's (64 B lines, 16 KiB L1 per CU), CoDec off. */
static void de_rig(struct __test_metadata *_metadata, struct rig *r,
		   enum ng_remote_opt ro)
{
	rig_cfg(_metadata, r, "dualopt", 2);
	r->cfg.remote_opt = ro;
	r->cfg.l1.size = 16 << 10;
	r->cfg.codec.pack = 0;
	r->cfg.flit = 4;
	r->cfg.de.warmup = 10;
	r->cfg.de.window = 100;
	rig_up(_metadata, r);
}

/* GPU @g loads one word of each of @n remote lines, never again. */
static void sparse(struct rig *r, unsigned int g, unsigned int from,
		   unsigned int n)
{
	for (unsigned int i = from; i < from + n; i++)
		(void)rig_load(r, g, rig_line(r, !g, i), rig_ns(100 * i), NULL);
}

TEST(forced_coalesce_marks_remote_loads_only)
{
	struct rig r;

	de_rig(_metadata, &r, NG_RO_COALESCE);
	sparse(&r, 0, 0, 10);
	/* one 4 B word a line crosses the link, not the 64 B line */
	EXPECT_EQ(10, rig_ctr(&r, 0, NG_CTR_FINE_REQ));
	EXPECT_EQ(10 * 4, rig_ctr(&r, 0, NG_CTR_LINK_RX));
	/* a local load and a remote store are not fine-grained */
	(void)rig_load(&r, 0, rig_word(&r, 0, 0), rig_ns(5000), NULL);
	(void)rig_store(&r, 0, rig_word(&r, 1, 0), 1, rig_ns(6000));
	EXPECT_EQ(10, rig_ctr(&r, 0, NG_CTR_FINE_REQ));
	/* the fine-grained loads went past the L1; the local one did not */
	EXPECT_EQ(1, rig_ctr(&r, 0, NG_CTR_L1_MISS));
	rig_down(&r);
}

TEST(forced_rdma_sends_remote_loads_to_the_rdma_cache)
{
	struct rig r;

	de_rig(_metadata, &r, NG_RO_RDMA);
	sparse(&r, 0, 0, 10);
	EXPECT_EQ(10, rig_ctr(&r, 0, NG_CTR_RDMA_MISS));
	EXPECT_EQ(10 * r.cfg.line, rig_ctr(&r, 0, NG_CTR_LINK_RX));
	(void)rig_load(&r, 0, rig_word(&r, 0, 0), rig_ns(5000), NULL);
	EXPECT_EQ(10, rig_ctr(&r, 0, NG_CTR_RDMA_MISS) + rig_ctr(&r, 0, NG_CTR_RDMA_HIT));
	rig_down(&r);
}

TEST(auto_moves_whole_lines_until_each_gpus_window_decides)
{
	struct ng_de_report rep;
	struct rig r;

	de_rig(_metadata, &r, NG_RO_AUTO);
	/* warm-up and window: 110 remote accesses of GPU 0, whole lines */
	sparse(&r, 0, 0, 110);
	EXPECT_EQ(0, rig_ctr(&r, 0, NG_CTR_FINE_REQ) + rig_ctr(&r, 0, NG_CTR_RDMA_MISS));
	EXPECT_EQ(110 * r.cfg.line, rig_ctr(&r, 0, NG_CTR_LINK_RX));
	ASSERT_EQ(0, ng_de_report(&r.m, &rep));
	EXPECT_TRUE(rep.gpu[0].complete);
	EXPECT_EQ(NG_CLASS_INSENSITIVE, rep.gpu[0].cls);
	EXPECT_FALSE(rep.gpu[1].complete);
	/* GPU 0 coalesces now: a word a line */
	sparse(&r, 0, 200, 10);
	EXPECT_EQ(10, rig_ctr(&r, 0, NG_CTR_FINE_REQ));
	EXPECT_EQ(110 * r.cfg.line + 10 * 4, rig_ctr(&r, 0, NG_CTR_LINK_RX));
	/* GPU 1, undecided, still moves whole lines */
	sparse(&r, 1, 0, 10);
	EXPECT_EQ(0, rig_ctr(&r, 1, NG_CTR_FINE_REQ));
	EXPECT_EQ(10 * r.cfg.line, rig_ctr(&r, 1, NG_CTR_LINK_RX));
	/* a counter reset starts the engine over */
	ng_model_reset_counters(&r.m);
	for (unsigned int g = 0; g < 2; g++)
		memset(&r.sm[g].ctr, 0, sizeof(r.sm[g].ctr));
	ASSERT_EQ(0, ng_de_report(&r.m, &rep));
	EXPECT_FALSE(rep.gpu[0].complete);
	sparse(&r, 0, 400, 10);
	EXPECT_EQ(0, rig_ctr(&r, 0, NG_CTR_FINE_REQ));
	rig_down(&r);
}

TEST_HARNESS_MAIN
