// SPDX-License-Identifier: GPL-2.0
/*
 * Software page replication alone (model/replication.c): with
 * replicate = ro a GPU's first read of a page homed elsewhere copies the
 * page (once over the link) and is served remotely; its later reads of
 * the page are local, at its memory's cost. A write to a replicated page
 * collapses the copies at the interval's end and the page is never
 * replicated again. replicate = all (the ideal) makes every access
 * local, and counts the one copy of each page another GPU homes that a
 * GPU reaches (its memory cost). Modeled values only.
 */
#include "model_rig.h"

static void repl_rig(struct __test_metadata *_metadata, struct rig *r,
		     enum ng_replicate how)
{
	rig_cfg(_metadata, r, "carve", 2);
	r->cfg.replicate = how;
	rig_up(_metadata, r);
}

TEST(a_read_only_page_is_read_locally_after_replication)
{
	struct rig r;
	ng_ticks t, at = rig_ns(1000);
	uint32_t *p;

	repl_rig(_metadata, &r, NG_REPL_RO);
	p = rig_word(&r, 1, 0);
	/* the first read: remote, and the page copied over the link */
	EXPECT_EQ(1000000u, rig_load(&r, 0, p, at, &t));
	EXPECT_NEAR(t - at, rig_ns(rig_remote_ns(&r.cfg)), 4);
	EXPECT_EQ(1, rig_ctr(&r, 0, NG_CTR_REPL_PAGES));
	EXPECT_EQ(r.cfg.page, rig_ctr(&r, 0, NG_CTR_REPL_BYTES));
	EXPECT_EQ(r.cfg.page + r.cfg.line, rig_ctr(&r, 0, NG_CTR_LINK_RX));
	/* the next, anywhere in the page: local, from the copy, at once */
	at = rig_ns(20000);
	EXPECT_EQ(1000000u + 700, rig_load(&r, 0, p + 700, at, &t));
	EXPECT_NEAR(t - at, rig_ns(rig_local_ns(&r.cfg)), 2);
	EXPECT_EQ(1, rig_ctr(&r, 0, NG_CTR_REPL_HIT));
	EXPECT_EQ(1, rig_ctr(&r, 0, NG_CTR_LOCAL));
	EXPECT_EQ(1, rig_ctr(&r, 0, NG_CTR_REMOTE));
	EXPECT_EQ(r.cfg.page + r.cfg.line, rig_ctr(&r, 0, NG_CTR_LINK_RX));
	/* the next page is another page: remote, copied */
	(void)rig_load(&r, 0, p + r.cfg.page / 4, rig_ns(30000), NULL);
	EXPECT_EQ(2, rig_ctr(&r, 0, NG_CTR_REPL_PAGES));
	rig_down(&r);
}

TEST(a_write_collapses_the_copies_for_good)
{
	struct rig r;
	ng_ticks t, at = rig_ns(1000);
	uint32_t *p;

	repl_rig(_metadata, &r, NG_REPL_RO);
	p = rig_word(&r, 1, 0);
	(void)rig_load(&r, 0, p, at, NULL);
	rig_settle(&r);
	/* the home writes the page: the copy goes at the interval's end */
	(void)rig_store(&r, 1, p + 3, 42, rig_ns(2000));
	/* meanwhile GPU 0's copy still serves it */
	EXPECT_EQ(1000001u, rig_load(&r, 0, p + 1, rig_ns(2000), NULL));
	EXPECT_EQ(1, rig_ctr(&r, 0, NG_CTR_REPL_HIT));
	rig_settle(&r);
	EXPECT_EQ(1, rig_ctr(&r, 1, NG_CTR_REPL_COLLAPSE));
	/* GPU 0 reads the written word remotely now, and copies nothing */
	at = rig_ns(40000);
	EXPECT_EQ(42u, rig_load(&r, 0, p + 3, at, &t));
	EXPECT_NEAR(t - at, rig_ns(rig_remote_ns(&r.cfg)), 4);
	EXPECT_EQ(1, rig_ctr(&r, 0, NG_CTR_REPL_HIT));
	EXPECT_EQ(1, rig_ctr(&r, 0, NG_CTR_REPL_PAGES));
	rig_settle(&r);
	(void)rig_load(&r, 0, p + 4, rig_ns(50000), NULL);
	EXPECT_EQ(1, rig_ctr(&r, 0, NG_CTR_REPL_HIT));
	EXPECT_EQ(1, rig_ctr(&r, 0, NG_CTR_REPL_PAGES));
	rig_down(&r);
}

TEST(ideal_replication_makes_every_access_local)
{
	struct rig r;
	ng_ticks t, at = rig_ns(1000);

	repl_rig(_metadata, &r, NG_REPL_ALL);
	EXPECT_EQ(1000009u, rig_load(&r, 0, rig_word(&r, 1, 9), at, &t));
	EXPECT_NEAR(t - at, rig_ns(rig_local_ns(&r.cfg)), 2);
	(void)rig_store(&r, 0, rig_word(&r, 1, 10), 5, at);
	EXPECT_EQ(2, rig_ctr(&r, 0, NG_CTR_LOCAL));
	EXPECT_EQ(0, rig_ctr(&r, 0, NG_CTR_REMOTE));
	EXPECT_EQ(0, rig_ctr(&r, 0, NG_CTR_LINK_RX) + rig_ctr(&r, 0, NG_CTR_LINK_TX));
	/*
	 * the copy unbounded replication would hold: one for GPU 1's page
	 * GPU 0 reached, however often (CARVE sec. I's memory cost); none
	 * for GPU 0's own pages
	 */
	EXPECT_EQ(1, rig_ctr(&r, 0, NG_CTR_REPL_PAGES));
	(void)rig_load(&r, 0, rig_word(&r, 1, 200), rig_ns(2000), NULL);
	(void)rig_load(&r, 0, rig_word(&r, 0, 9), rig_ns(3000), NULL);
	EXPECT_EQ(1, rig_ctr(&r, 0, NG_CTR_REPL_PAGES));
	rig_down(&r);
}

TEST_HARNESS_MAIN
