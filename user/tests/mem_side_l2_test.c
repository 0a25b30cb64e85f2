// SPDX-License-Identifier: GPL-2.0
/*
 * MGPUSim's memory-side L2 alone (model/mem_side_l2.c, the "msl2"
 * component): in front of each GPU's memory, for every requester. A
 * load of a line it holds is served in msl2-latency without a memory
 * access; the filling GPU hits its own fill at once, other GPUs from the
 * next interval on; it keeps its lines across kernels (tags only, never
 * stale); a working set over msl2-size misses on every pass; stores
 * allocate but still reach the memory. Modeled values only.
 */
#include "model_rig.h"

/* 2 GPUs, a 64 KiB 16-way memory-side L2 each (512 lines of 128 B). */
static void msl2_rig(struct __test_metadata *_metadata, struct rig *r)
{
	rig_cfg(_metadata, r, "carve", 2);
	r->cfg.msl2.size = 64 << 10;
	r->cfg.msl2.ways = 16;
	r->cfg.msl2.latency_ns = 100;
	r->cfg.mlp = 8192;
	rig_up(_metadata, r);
}

TEST(a_line_it_holds_is_served_in_msl2_latency_without_the_memory)
{
	struct rig r;
	ng_ticks miss, t, at = rig_ns(1000);

	msl2_rig(_metadata, &r);
	EXPECT_EQ(2u, rig_load(&r, 0, rig_word(&r, 0, 2), at, &miss));
	EXPECT_NEAR(miss - at, rig_ns(rig_local_ns(&r.cfg)), 2);
	EXPECT_EQ(1, rig_ctr(&r, 0, NG_CTR_MSL2_MISS));
	EXPECT_EQ(1, rig_ctr(&r, 0, NG_CTR_MEM_ACC));
	/* its own fill, at once */
	at = rig_ns(5000);
	EXPECT_EQ(20u, rig_load(&r, 0, rig_word(&r, 0, 20), at, &t));
	EXPECT_EQ(rig_ns(100), t - at);
	EXPECT_EQ(1, rig_ctr(&r, 0, NG_CTR_MSL2_HIT));
	EXPECT_EQ(1, rig_ctr(&r, 0, NG_CTR_MEM_ACC));
	rig_down(&r);
}

TEST(every_requester_hits_from_the_next_interval_on)
{
	struct rig r;
	ng_ticks t, at = rig_ns(5000);

	msl2_rig(_metadata, &r);
	(void)rig_load(&r, 0, rig_word(&r, 0, 0), rig_ns(1000), NULL);
	/* GPU 1, remotely, in the same interval: a miss at GPU 0's memory */
	(void)rig_load(&r, 1, rig_word(&r, 0, 1), rig_ns(2000), NULL);
	EXPECT_EQ(1, rig_ctr(&r, 1, NG_CTR_MSL2_MISS));
	EXPECT_EQ(1, rig_ctr(&r, 1, NG_CTR_MEM_ACC));
	rig_settle(&r);
	/* after it: a hit, the memory's part replaced by msl2-latency */
	EXPECT_EQ(5u, rig_load(&r, 1, rig_word(&r, 0, 5), at, &t));
	EXPECT_EQ(1, rig_ctr(&r, 1, NG_CTR_MSL2_HIT));
	EXPECT_EQ(1, rig_ctr(&r, 1, NG_CTR_MEM_ACC));
	EXPECT_NEAR(t - at, rig_ns(rig_remote_ns(&r.cfg) - rig_local_ns(&r.cfg) +
				    r.cfg.msl2.latency_ns), 4);
	rig_down(&r);
}

TEST(lines_stay_across_kernels)
{
	struct rig r;

	msl2_rig(_metadata, &r);
	(void)rig_load(&r, 0, rig_word(&r, 0, 0), rig_ns(1000), NULL);
	(void)rig_load(&r, 1, rig_word(&r, 1, 0), rig_ns(1000), NULL);
	rig_next_kernel(&r);
	(void)rig_load(&r, 0, rig_word(&r, 0, 0), rig_ns(1000), NULL);
	(void)rig_load(&r, 0, rig_word(&r, 1, 0), rig_ns(2000), NULL);
	EXPECT_EQ(2, rig_ctr(&r, 0, NG_CTR_MSL2_HIT));
	EXPECT_EQ(1, rig_ctr(&r, 0, NG_CTR_MEM_ACC));
	rig_down(&r);
}

/*
 * Two passes over @n local lines; the second's hits. The tags change at
 * interval ends only (a requester's own fills of the interval aside), so
 * an interval ends after every load, as it would in a longer run.
 */
static uint64_t second_pass_hits(struct __test_metadata *_metadata, uint64_t n)
{
	struct rig r;
	uint64_t hits = 0;

	msl2_rig(_metadata, &r);
	r.sm[0].now = 0;
	for (unsigned int pass = 0; pass < 2; pass++) {
		hits = rig_ctr(&r, 0, NG_CTR_MSL2_HIT);
		for (uint64_t l = 0; l < n; l++) {
			(void)rig_load(&r, 0, rig_line(&r, 0, l), RIG_NOW, NULL);
			rig_settle(&r);
		}
	}
	hits = rig_ctr(&r, 0, NG_CTR_MSL2_HIT) - hits;
	rig_down(&r);
	return hits;
}

TEST(capacity_misses_beyond_msl2_size)
{
	EXPECT_EQ(256, second_pass_hits(_metadata, 256));
	EXPECT_EQ(512, second_pass_hits(_metadata, 512));
	EXPECT_EQ(0, second_pass_hits(_metadata, 1024));
}

TEST(stores_allocate_and_still_reach_the_memory)
{
	struct rig r;

	msl2_rig(_metadata, &r);
	(void)rig_store(&r, 0, rig_word(&r, 0, 0), 1, rig_ns(1000));
	EXPECT_EQ(1, rig_ctr(&r, 0, NG_CTR_MSL2_MISS));
	EXPECT_EQ(1, rig_ctr(&r, 0, NG_CTR_MEM_ACC));
	(void)rig_store(&r, 0, rig_word(&r, 0, 1), 2, rig_ns(2000));
	EXPECT_EQ(1, rig_ctr(&r, 0, NG_CTR_MSL2_HIT));
	EXPECT_EQ(2, rig_ctr(&r, 0, NG_CTR_MEM_ACC));
	/* the stored line is held: a load hits it */
	EXPECT_EQ(2u, rig_load(&r, 0, rig_word(&r, 0, 1), rig_ns(3000), NULL));
	EXPECT_EQ(2, rig_ctr(&r, 0, NG_CTR_MSL2_HIT));
	EXPECT_EQ(2, rig_ctr(&r, 0, NG_CTR_MEM_ACC));
	rig_down(&r);
}

TEST_HARNESS_MAIN
