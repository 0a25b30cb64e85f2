// SPDX-License-Identifier: GPL-2.0
/*
 * The sharing profile alone (model/sharing.c, sharing-profile = yes): a
 * measurement that classes every access by what its line and its page
 * saw (private, read-shared, read-write shared), over all accesses and
 * over the remote ones, and costs no modeled time.
 */
#include <errno.h>

#include "model_rig.h"

#include "ngemu/model/sharing.h"

static void share_rig(struct __test_metadata *_metadata, struct rig *r, bool on)
{
	rig_cfg(_metadata, r, "carve", 2);
	r->cfg.sharing_profile = on;
	rig_up(_metadata, r);
}

/*
 * On GPU 0's buffer: page 0's line 0 read 3 times by GPU 0, its line 1
 * once by GPU 1; page 1's line 0 read by both; page 2's line 0 read by
 * GPU 0 and written by GPU 1.
 */
static void accesses(struct rig *r)
{
	uint64_t page = r->cfg.page / 4;

	for (unsigned int i = 0; i < 3; i++)
		(void)rig_load(r, 0, rig_word(r, 0, i), rig_ns(1000 + 1000 * i), NULL);
	(void)rig_load(r, 1, rig_line(r, 0, 1), rig_ns(1000), NULL);
	(void)rig_load(r, 0, rig_word(r, 0, page), rig_ns(5000), NULL);
	(void)rig_load(r, 1, rig_word(r, 0, page), rig_ns(5000), NULL);
	(void)rig_load(r, 0, rig_word(r, 0, 2 * page), rig_ns(9000), NULL);
	(void)rig_store(r, 1, rig_word(r, 0, 2 * page), 1, rig_ns(9000));
}

TEST(accesses_are_classed_by_line_and_by_page)
{
	struct ng_sharing s;
	struct rig r;

	share_rig(_metadata, &r, true);
	accesses(&r);
	rig_settle(&r);
	ASSERT_EQ(0, ng_sharing_profile(&r.m, &s));
	/* lines: 4 private (1 remote), 2 read-shared, 2 read-write shared */
	EXPECT_EQ(4, s.all[NG_GRAIN_LINE][NG_SHARE_PRIVATE]);
	EXPECT_EQ(2, s.all[NG_GRAIN_LINE][NG_SHARE_READ]);
	EXPECT_EQ(2, s.all[NG_GRAIN_LINE][NG_SHARE_RW]);
	EXPECT_EQ(1, s.remote[NG_GRAIN_LINE][NG_SHARE_PRIVATE]);
	EXPECT_EQ(1, s.remote[NG_GRAIN_LINE][NG_SHARE_READ]);
	EXPECT_EQ(1, s.remote[NG_GRAIN_LINE][NG_SHARE_RW]);
	/* pages: page 0 is read by both GPUs, so read-shared as a page */
	EXPECT_EQ(0, s.all[NG_GRAIN_PAGE][NG_SHARE_PRIVATE]);
	EXPECT_EQ(6, s.all[NG_GRAIN_PAGE][NG_SHARE_READ]);
	EXPECT_EQ(2, s.all[NG_GRAIN_PAGE][NG_SHARE_RW]);
	EXPECT_EQ(2, s.remote[NG_GRAIN_PAGE][NG_SHARE_READ]);
	EXPECT_EQ(1, s.remote[NG_GRAIN_PAGE][NG_SHARE_RW]);
	/* from a counter reset on */
	ng_model_reset_counters(&r.m);
	ASSERT_EQ(0, ng_sharing_profile(&r.m, &s));
	EXPECT_EQ(0, s.all[NG_GRAIN_PAGE][NG_SHARE_READ]);
	rig_down(&r);
}

TEST(it_costs_no_modeled_time)
{
	struct ng_sharing s;
	ng_ticks off, on;
	struct rig r;

	share_rig(_metadata, &r, false);
	EXPECT_EQ(-ENOENT, ng_sharing_profile(&r.m, &s));
	accesses(&r);
	off = r.sm[0].done_max + r.sm[1].done_max;
	rig_down(&r);
	share_rig(_metadata, &r, true);
	accesses(&r);
	on = r.sm[0].done_max + r.sm[1].done_max;
	EXPECT_EQ(off, on);
	rig_down(&r);
}

TEST_HARNESS_MAIN
