// SPDX-License-Identifier: GPL-2.0
/*
 * The coherence directory alone (model/directory.c), per-line entries
 * (directory = dir) in front of REC's L2: remote lines stay in the L2
 * across kernels; a write at the home reaches every sharer's copy at
 * the interval's end, one flit on the link each, after which the sharers
 * miss and read the new value; a write to a line nobody holds sends
 * nothing; a full directory evicts an entry and with it the copies it
 * recorded. rec_test has the entries' formats and REC's own organization.
 */
#include "model_rig.h"

/* 3 GPUs of REC's (64 B lines), a 64 KiB L2 each, @entries directory entries. */
static void dir_rig(struct __test_metadata *_metadata, struct rig *r,
		    enum ng_directory org, unsigned int entries)
{
	rig_cfg(_metadata, r, "rec", 3);
	r->cfg.l2.size = 64 << 10;
	r->cfg.dir.kind = org;
	r->cfg.dir.entries = entries;
	r->cfg.dir.ways = 8;
	rig_up(_metadata, r);
}

TEST(remote_lines_stay_in_the_l2_across_kernels)
{
	struct rig r;

	dir_rig(_metadata, &r, NG_DIR_LINE, 64);
	(void)rig_load(&r, 1, rig_line(&r, 0, 0), rig_ns(1000), NULL);
	rig_next_kernel(&r);
	EXPECT_EQ(0u, rig_load(&r, 1, rig_line(&r, 0, 0), rig_ns(1000), NULL));
	EXPECT_EQ(1, rig_ctr(&r, 1, NG_CTR_L2_HIT));
	EXPECT_EQ(0, rig_ctr(&r, 1, NG_CTR_L2_INVAL));
	EXPECT_EQ(1, rig_ctr(&r, 0, NG_CTR_DIR_ALLOC));
	rig_down(&r);

	/* without a directory the same load misses: the L2 was flushed */
	dir_rig(_metadata, &r, NG_DIR_OFF, 64);
	(void)rig_load(&r, 1, rig_line(&r, 0, 0), rig_ns(1000), NULL);
	rig_next_kernel(&r);
	(void)rig_load(&r, 1, rig_line(&r, 0, 0), rig_ns(1000), NULL);
	EXPECT_EQ(0, rig_ctr(&r, 1, NG_CTR_L2_HIT));
	rig_down(&r);
}

TEST(a_home_write_invalidates_every_sharer_a_flit_each)
{
	struct ng_link_usage u;
	struct rig r;
	uint32_t *p;
	uint64_t tx;

	dir_rig(_metadata, &r, NG_DIR_LINE, 64);
	p = rig_line(&r, 0, 3);
	(void)rig_load(&r, 1, p, rig_ns(1000), NULL);
	(void)rig_load(&r, 2, p, rig_ns(1000), NULL);
	rig_settle(&r);
	/* a write to a line nobody holds: no message */
	(void)rig_store(&r, 0, rig_line(&r, 0, 9), 5, rig_ns(2000));
	rig_settle(&r);
	EXPECT_EQ(0, rig_ctr(&r, 0, NG_CTR_DIR_INV_WRITE));
	tx = rig_ctr(&r, 0, NG_CTR_LINK_TX);
	/* to the shared line: both copies go, a flit to each */
	(void)rig_store(&r, 0, p, 77, rig_ns(3000));
	/* until the interval's end the copies still serve (software allows it) */
	EXPECT_EQ(3u * 16, rig_load(&r, 1, p, rig_ns(3500), NULL));
	rig_settle(&r);
	EXPECT_EQ(2, rig_ctr(&r, 0, NG_CTR_DIR_INV_WRITE));
	/* each found its copy (counted at the sharer) */
	EXPECT_EQ(1, rig_ctr(&r, 1, NG_CTR_DIR_INV_WRITE_HIT));
	EXPECT_EQ(1, rig_ctr(&r, 2, NG_CTR_DIR_INV_WRITE_HIT));
	EXPECT_EQ(1, rig_ctr(&r, 1, NG_CTR_L2_COH_INVAL));
	EXPECT_EQ(1, rig_ctr(&r, 2, NG_CTR_L2_COH_INVAL));
	EXPECT_EQ(tx + 2 * r.cfg.flit, rig_ctr(&r, 0, NG_CTR_LINK_TX));
	ng_link_usage(&r.m, &u);
	/* the home sent each sharer its line, then the flit */
	EXPECT_EQ(r.cfg.line + r.cfg.flit, u.pair[0][1]);
	EXPECT_EQ(r.cfg.line + r.cfg.flit, u.pair[0][2]);
	/* the sharers miss now and read the write */
	EXPECT_EQ(77u, rig_load(&r, 1, p, rig_ns(4000), NULL));
	EXPECT_EQ(77u, rig_load(&r, 2, p, rig_ns(4000), NULL));
	EXPECT_EQ(1, rig_ctr(&r, 1, NG_CTR_L2_HIT));
	EXPECT_EQ(0, rig_ctr(&r, 2, NG_CTR_L2_HIT));
	EXPECT_EQ(2, rig_ctr(&r, 1, NG_CTR_L2_MISS));
	EXPECT_EQ(2, rig_ctr(&r, 2, NG_CTR_L2_MISS));
	rig_down(&r);
}

/*
 * 8 entries of 8 ways (one set): a ninth line read evicts the least
 * recently used entry and invalidates its copy, though the L2 had room.
 */
TEST(a_full_directory_evicts_an_entry_and_its_copies)
{
	struct rig r;

	dir_rig(_metadata, &r, NG_DIR_LINE, 8);
	for (unsigned int l = 0; l < 9; l++) {
		(void)rig_load(&r, 1, rig_line(&r, 0, l), rig_ns(1000 * (l + 1)), NULL);
		rig_settle(&r);
	}
	EXPECT_EQ(9, rig_ctr(&r, 0, NG_CTR_DIR_ALLOC));
	EXPECT_EQ(1, rig_ctr(&r, 0, NG_CTR_DIR_EVICT));
	EXPECT_EQ(1, rig_ctr(&r, 0, NG_CTR_DIR_INV_EVICT));
	EXPECT_EQ(1, rig_ctr(&r, 1, NG_CTR_L2_COH_INVAL));
	/* line 0, the first entry, is gone from GPU 1's L2; line 1 is not */
	(void)rig_load(&r, 1, rig_line(&r, 0, 1), rig_ns(20000), NULL);
	EXPECT_EQ(1, rig_ctr(&r, 1, NG_CTR_L2_HIT));
	(void)rig_load(&r, 1, rig_line(&r, 0, 0), rig_ns(21000), NULL);
	EXPECT_EQ(1, rig_ctr(&r, 1, NG_CTR_L2_HIT));
	EXPECT_EQ(10, rig_ctr(&r, 1, NG_CTR_L2_MISS));
	rig_down(&r);
}

TEST_HARNESS_MAIN
