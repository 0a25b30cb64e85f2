// SPDX-License-Identifier: GPL-2.0
/*
 * mummergpu (workloads/rodinia/mummergpu.c) beyond its verification: a
 * read count that leaves the last block and its last warp short, over
 * two iterations (the coordinates rewritten, the unset ones still 0); a
 * threaded run makes the deterministic one's requests (the lanes'
 * divergent walks issue in the same order); and a wrong coordinate
 * fails.
 */
#include <stdlib.h>
#include <string.h>

#include "ng_test.h"

#include "coda_fgp.h"

#include "ngemu/config.h"
#include "ngemu/runtime/system.h"
#include "ngemu/workloads/workload.h"

/* mummergpu on CODA's 4 GPUs, pages interleaved (no profiling run) */
static int run(struct ng_bench_opts *o, bool deterministic,
	       struct ng_bench_result *r, char *err, size_t errlen)
{
	struct ng_system *sys;
	int ret;

	ret = coda_fgp_system(&sys, deterministic, err, errlen);
	if (ret)
		return ret;
	ret = ng_bench_run(sys, ng_workload_find("mummergpu"), o, r, err,
			   errlen);
	ng_system_destroy(sys);
	return ret;
}

TEST(mummergpu_short_last_block_twice)
{
	struct ng_bench_result *r = calloc(1, sizeof(*r));
	/* 300 reads: a full block, then 44 threads (a warp of 12) */
	struct ng_bench_opts o = { .size = 300 * 32, .iters = 2 };
	char err[512];

	ASSERT_NE(NULL, r);
	ASSERT_EQ(0, run(&o, true, r, err, sizeof(err))) TH_LOG("%s", err);
	EXPECT_TRUE(r->verified) TH_LOG("%s", r->verify);
	EXPECT_EQ(300, r->elements);
	free(r);
}

TEST(mummergpu_threaded_run_makes_the_deterministic_requests)
{
	struct ng_bench_result *d = calloc(1, sizeof(*d));
	struct ng_bench_result *r = calloc(1, sizeof(*r));
	struct ng_bench_opts o = { .size = 64 << 10 };
	char err[512];

	ASSERT_NE(NULL, d);
	ASSERT_NE(NULL, r);
	ASSERT_EQ(0, run(&o, true, d, err, sizeof(err))) TH_LOG("%s", err);
	ASSERT_EQ(0, run(&o, false, r, err, sizeof(err))) TH_LOG("%s", err);
	EXPECT_TRUE(d->verified) TH_LOG("%s", d->verify);
	EXPECT_TRUE(r->verified) TH_LOG("%s", r->verify);
	EXPECT_EQ(d->total.v[NG_CTR_REQ], r->total.v[NG_CTR_REQ]);
	free(r);
	free(d);
}

TEST(mummergpu_a_wrong_coordinate_fails)
{
	struct ng_bench_result *r = calloc(1, sizeof(*r));
	/* 2048 reads, 11 coordinates of 2 words each: word 22528 */
	struct ng_bench_opts o = { .size = 64 << 10, .corrupt = true };
	char err[512];

	ASSERT_NE(NULL, r);
	ASSERT_EQ(0, run(&o, true, r, err, sizeof(err))) TH_LOG("%s", err);
	EXPECT_FALSE(r->verified);
	EXPECT_NE(NULL, strstr(r->verify, "coords[1024][0]")) TH_LOG("%s", r->verify);
	EXPECT_NE(NULL, strstr(r->verify, "the CPU reference says"))
		TH_LOG("%s", r->verify);
	free(r);
}

TEST_HARNESS_MAIN
