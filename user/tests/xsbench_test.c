// SPDX-License-Identifier: GPL-2.0
/*
 * xsbench (workloads/proxy/xsbench.c) as CARVE uses it: its read-only
 * grids, spread over the GPUs by first touch and read by all of them at
 * random, make most of its requests remote, and a remote data cache
 * takes most of them off the links. Its lookups are XSBench's own (the
 * hash is the one XSBench prints), and a wrong element fails.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "ng_test.h"

#include "bench_run.h"

/*
 * The carve preset in `ngemu bench --compare`'s scaled regime (64 KiB
 * pages, so that MiB arrays spread), one SM a GPU; @kv on top.
 */
static int run(const char *const *kv, struct ng_bench_opts *o,
	       struct ng_bench_result *r, char *err, size_t errlen)
{
	return bench_run("carve", BENCH_SCALED | BENCH_ONE_SM, kv,
			 ng_workload_find("xsbench"), o, r, err, errlen);
}

TEST(most_requests_are_remote_and_the_rdc_keeps_them)
{
	static const char *const numa[] = { "rdc-size", "0",
					    "sharing-profile", "yes", NULL };
	static const char *const hwc[] = { "rdc-size", "4M", NULL };
	struct ng_bench_result *r = calloc(1, sizeof(*r));
	struct ng_bench_opts o = { 0 };
	const uint64_t *rem;
	double numa_link;
	char err[512];

	ASSERT_NE(NULL, r);
	ASSERT_EQ(0, run(numa, &o, r, err, sizeof(err))) TH_LOG("%s", err);
	EXPECT_TRUE(r->verified) TH_LOG("%s", r->verify);
	/* a quarter of every grid on each GPU: 3/4 of the data's reads remote */
	EXPECT_LT(0.7, r->remote_frac) TH_LOG("%.3f", r->remote_frac);
	for (unsigned int g = 0; g < r->ngpus; g++) {
		EXPECT_LT(0.6 * r->gpu[g].v[NG_CTR_REQ], r->gpu[g].v[NG_CTR_REMOTE])
			TH_LOG("GPU %u", g);
	}
	/* and what is remote is read-shared: read by every GPU, written by none */
	ASSERT_TRUE(r->has_sharing);
	rem = r->sharing.remote[NG_GRAIN_LINE];
	EXPECT_LT(0.95 * (rem[NG_SHARE_PRIVATE] + rem[NG_SHARE_READ] + rem[NG_SHARE_RW]),
		  rem[NG_SHARE_READ]);
	EXPECT_EQ(0, rem[NG_SHARE_RW]);
	numa_link = r->link_frac;
	EXPECT_LT(0.1, numa_link);
	/* the 8 MiB of grids do not fit a 4 MiB RDC, but most lookups hit it */
	ASSERT_EQ(0, run(hwc, &o, r, err, sizeof(err))) TH_LOG("%s", err);
	EXPECT_TRUE(r->verified) TH_LOG("%s", r->verify);
	EXPECT_LT(0.7, r->remote_frac);
	EXPECT_LT(0.5, r->rdc_hit_rate);
	EXPECT_LT(r->link_frac * 2, numa_link)
		TH_LOG("%.3f against %.3f", r->link_frac, numa_link);
	free(r);
}

/*
 * XSBench's own run of the same problem (openmp-threading, -m event -s
 * small -g 375 -l 131072: the default size's 68 nuclides x 375
 * gridpoints, one kernel of lookups) prints "Verification checksum:
 * 397191"; two kernels are -l 262144's 794649.
 */
TEST(the_hash_is_xsbench_s)
{
	struct ng_bench_result *r = calloc(1, sizeof(*r));
	struct ng_bench_opts o = { 0 };
	char err[512];

	ASSERT_NE(NULL, r);
	ASSERT_EQ(0, run(NULL, &o, r, err, sizeof(err))) TH_LOG("%s", err);
	EXPECT_TRUE(r->verified) TH_LOG("%s", r->verify);
	EXPECT_NE(NULL, strstr(r->verify, "68 nuclides x 375 gridpoints"))
		TH_LOG("%s", r->verify);
	EXPECT_NE(NULL, strstr(r->verify, "hash 397191")) TH_LOG("%s", r->verify);
	o.iters = 2;
	ASSERT_EQ(0, run(NULL, &o, r, err, sizeof(err))) TH_LOG("%s", err);
	EXPECT_TRUE(r->verified) TH_LOG("%s", r->verify);
	EXPECT_NE(NULL, strstr(r->verify, "hash 794649")) TH_LOG("%s", r->verify);
	free(r);
}

TEST(a_wrong_element_fails_verification)
{
	struct ng_bench_result *r = calloc(1, sizeof(*r));
	struct ng_bench_opts o = { .corrupt = true, .size = 1 << 20 };
	char err[512];

	ASSERT_NE(NULL, r);
	ASSERT_EQ(0, run(NULL, &o, r, err, sizeof(err))) TH_LOG("%s", err);
	EXPECT_FALSE(r->verified);
	EXPECT_NE(NULL, strstr(r->verify, "the CPU reference says"))
		TH_LOG("%s", r->verify);
	/* and without the corruption the same run verifies */
	o.corrupt = false;
	ASSERT_EQ(0, run(NULL, &o, r, err, sizeof(err))) TH_LOG("%s", err);
	EXPECT_TRUE(r->verified) TH_LOG("%s", r->verify);
	free(r);
}

TEST(a_size_below_the_smallest_grid_is_refused)
{
	struct ng_bench_result *r = calloc(1, sizeof(*r));
	struct ng_bench_opts o = { .size = 64 << 10 };
	char err[512];

	ASSERT_NE(NULL, r);
	EXPECT_EQ(-EINVAL, run(NULL, &o, r, err, sizeof(err)));
	EXPECT_NE(NULL, strstr(err, "68 nuclides x 16 gridpoints")) TH_LOG("%s", err);
	free(r);
}

TEST_HARNESS_MAIN
