// SPDX-License-Identifier: GPL-2.0
/*
 * Page migration on first remote touch alone (model/migrate.c,
 * migrate = first-touch): the first GPU to reach a page remotely, by
 * modeled time (not by the order the host ran the GPUs), gets it at the
 * interval's end; its faulting access waits migrate-latency; the page
 * crosses the link once; afterwards the new home reads it locally and
 * everyone else remotely, and it never moves again. Modeled values only.
 */
#include "model_rig.h"

static void mig_rig(struct __test_metadata *_metadata, struct rig *r)
{
	rig_cfg(_metadata, r, "carve", 3);
	r->cfg.mig.mode = NG_MIGRATE_FIRST_TOUCH;
	rig_up(_metadata, r);
}

static unsigned int home_of(struct rig *r, void *p)
{
	return ng_home(&r->sp, (uintptr_t)p, 0);
}

/*
 * GPU 0 touches the page at 5 us, GPU 2 at 1 us; the host runs GPU 0
 * first. The page goes to GPU 2, the earlier in modeled time.
 */
TEST(the_page_goes_to_the_first_remote_toucher_in_modeled_time)
{
	struct ng_link_usage u;
	struct rig r;
	uint32_t *p;

	mig_rig(_metadata, &r);
	p = rig_word(&r, 1, 0);
	EXPECT_EQ(1000000u, rig_load(&r, 0, p, rig_ns(5000), NULL));
	EXPECT_EQ(1000001u, rig_load(&r, 2, p + 1, rig_ns(1000), NULL));
	/* nothing moves until the interval's end */
	EXPECT_EQ(1u, home_of(&r, p));
	rig_settle(&r);
	EXPECT_EQ(2u, home_of(&r, p));
	/* one page, counted at its old home, over the link 1 -> 2 */
	EXPECT_EQ(1, rig_ctr(&r, 1, NG_CTR_MIG_PAGES));
	EXPECT_EQ(r.cfg.page, rig_ctr(&r, 1, NG_CTR_MIG_BYTES));
	ng_link_usage(&r.m, &u);
	EXPECT_EQ(r.cfg.page + r.cfg.line, u.pair[1][2]);
	/* the next page of the buffer stays where it was */
	EXPECT_EQ(1u, home_of(&r, rig_word(&r, 1, r.cfg.page / 4)));
	rig_down(&r);

	/* the other way round, GPU 0 first in modeled time, wins it */
	mig_rig(_metadata, &r);
	p = rig_word(&r, 1, 0);
	(void)rig_load(&r, 2, p, rig_ns(5000), NULL);
	(void)rig_load(&r, 0, p, rig_ns(1000), NULL);
	rig_settle(&r);
	EXPECT_EQ(0u, home_of(&r, p));
	rig_down(&r);
}

TEST(the_faulting_access_waits_migrate_latency)
{
	struct rig r;
	ng_ticks t, t2, at = rig_ns(1000), at2 = rig_ns(50000);

	mig_rig(_metadata, &r);
	(void)rig_load(&r, 0, rig_word(&r, 1, 0), at, &t);
	EXPECT_NEAR(t - at, rig_ns(r.cfg.mig.latency_ns + rig_remote_ns(&r.cfg)), 4);
	/* the same GPU again before the move: remote, no second fault */
	(void)rig_load(&r, 0, rig_word(&r, 1, 64), at2, &t2);
	EXPECT_NEAR(t2 - at2, rig_ns(rig_remote_ns(&r.cfg)), 4);
	EXPECT_EQ(2, rig_ctr(&r, 0, NG_CTR_REMOTE));
	rig_down(&r);
}

TEST(after_the_move_it_is_local_to_its_new_home_and_moves_no_more)
{
	struct rig r;
	uint32_t *p;
	ng_ticks t, at = rig_ns(1000);
	uint64_t rx;

	mig_rig(_metadata, &r);
	p = rig_word(&r, 1, 0);
	(void)rig_load(&r, 0, p, at, NULL);
	rig_settle(&r);
	ASSERT_EQ(0u, home_of(&r, p));
	rx = rig_ctr(&r, 0, NG_CTR_LINK_RX);
	/* GPU 0 reads it at its memory's cost, with its data */
	EXPECT_EQ(1000005u, rig_load(&r, 0, p + 5, at, &t));
	EXPECT_NEAR(t - at, rig_ns(rig_local_ns(&r.cfg)), 2);
	EXPECT_EQ(1, rig_ctr(&r, 0, NG_CTR_LOCAL));
	EXPECT_EQ(rx, rig_ctr(&r, 0, NG_CTR_LINK_RX));
	/* its old home and GPU 2 now reach it remotely, with no fault */
	(void)rig_load(&r, 1, p + 6, at, &t);
	EXPECT_NEAR(t - at, rig_ns(rig_remote_ns(&r.cfg)), 4);
	(void)rig_load(&r, 2, p + 7, at, &t);
	EXPECT_NEAR(t - at, rig_ns(rig_remote_ns(&r.cfg)), 4);
	rig_settle(&r);
	EXPECT_EQ(0u, home_of(&r, p));
	EXPECT_EQ(1, rig_ctr(&r, 1, NG_CTR_MIG_PAGES));
	EXPECT_EQ(0, rig_ctr(&r, 0, NG_CTR_MIG_PAGES));
	rig_down(&r);
}

TEST(local_touches_move_nothing)
{
	struct rig r;

	mig_rig(_metadata, &r);
	for (unsigned int g = 0; g < 3; g++)
		(void)rig_load(&r, g, rig_word(&r, g, 0), rig_ns(1000), NULL);
	rig_settle(&r);
	for (unsigned int g = 0; g < 3; g++) {
		EXPECT_EQ(g, home_of(&r, rig_word(&r, g, 0)));
		EXPECT_EQ(0, rig_ctr(&r, g, NG_CTR_MIG_PAGES));
	}
	rig_down(&r);
}

TEST_HARNESS_MAIN
