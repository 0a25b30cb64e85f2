// SPDX-License-Identifier: GPL-2.0
/*
 * DualOpt's system as a user meets it: every workload of its suite
 * verified on the dualopt preset and failing when one element of its
 * result is wrong, the engine's class in the report and in --json, the
 * compare table against the baseline, and the errors of bad settings.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "ng_test.h"

#include "ngemu/workloads/workload.h"
#include "run_cmd.h"

#define NGEMU(...) ((char *const[]){ (char *)ngemu_path(), __VA_ARGS__, NULL })

#include "suite_cases.h"

FIXTURE(dualopt) {
	struct cmd_result r;
};

FIXTURE_SETUP(dualopt)
{
	(void)self;
}

FIXTURE_TEARDOWN(dualopt)
{
	(void)self;
}

TEST_F(dualopt, workloads_verify_and_catch_one_wrong_element)
{
	EXPECT_LE(7, suite_verifies(_metadata, &self->r, ng_suite_bit("dualopt"), "dualopt",
				   "\nclass      "));
}

TEST_F(dualopt, json_names_the_class)
{
	ASSERT_EQ(0, run_cmd(&self->r, NGEMU("bench", "spmv", "--system", "dualopt",
					     "--deterministic", "--json")));
	EXPECT_EQ(0, self->r.status) TH_LOG("%s", self->r.err);
	/* SHOC's 1% matrix: x (28 KiB) reused in the 16 KB L1s */
	EXPECT_NE(NULL, strstr(self->r.out, "\"class\": \"cache-friendly\""))
		TH_LOG("%s", self->r.out);
	EXPECT_NE(NULL, strstr(self->r.out, "\"utilization\": "));
	EXPECT_NE(NULL, strstr(self->r.out, "\"decided_at_fraction\": "));
	EXPECT_NE(NULL, strstr(self->r.out, "\"packet_fill\": "));
}

/*
 * DualOpt's bfs is SHOC's warp-centric kernel on an R-MAT graph, and says
 * so. The engine's window is its first level, where the warps read their
 * vertices' levels one word at a time: whole lines used, cache-friendly
 * (the paper's class is cache-insensitive; Documentation/dualopt.rst).
 */
TEST_F(dualopt, bfs_is_shocs_on_its_input)
{
	ASSERT_EQ(0, run_cmd(&self->r, NGEMU("bench", "bfs-shoc", "--system",
					     "dualopt", "--deterministic", "--json")));
	EXPECT_EQ(0, self->r.status) TH_LOG("%s", self->r.err);
	EXPECT_NE(NULL, strstr(self->r.out, "\"input\": \"rmat: "));
	EXPECT_NE(NULL, strstr(self->r.out, "match the CPU BFS from vertex "))
		TH_LOG("%s", self->r.out);
	EXPECT_NE(NULL, strstr(self->r.out, "\"class\": \"cache-friendly\""))
		TH_LOG("%s", self->r.out);
	ASSERT_EQ(0, run_cmd(&self->r, NGEMU("bench", "--list")));
	EXPECT_NE(NULL, strstr(self->r.out, "  bfs-shoc "));
	EXPECT_NE(NULL, strstr(self->r.out, "input rmat: "));
}

TEST_F(dualopt, compare_is_against_the_baseline)
{
	ASSERT_EQ(0, run_cmd(&self->r, NGEMU("bench", "--compare", "spmv",
					     "--system", "dualopt", "--csv")));
	EXPECT_EQ(0, self->r.status) TH_LOG("%s", self->r.err);
	EXPECT_NE(NULL, strstr(self->r.out, "speedup_vs_reference,link_bytes,link_bytes_vs_reference"));
	/* the baseline is its own reference; the five default systems ran */
	EXPECT_NE(NULL, strstr(self->r.out, ",baseline,1,")) TH_LOG("%s", self->r.out);
	EXPECT_NE(NULL, strstr(self->r.out, ",page-migration,1,"));
	EXPECT_NE(NULL, strstr(self->r.out, ",coalesce,1,"));
	EXPECT_NE(NULL, strstr(self->r.out, ",rdma-cache,1,"));
	EXPECT_NE(NULL, strstr(self->r.out, ",dualopt,1,"));
	EXPECT_NE(NULL, strstr(self->r.out, ",cache-friendly,"));
	/* a sweep of the transfer granularity */
	ASSERT_EQ(0, run_cmd(&self->r, NGEMU("bench", "--compare", "spmv",
					     "--systems", "baseline,coalesce",
					     "--sweep", "xfer-gran=4,16", "--json")));
	EXPECT_EQ(0, self->r.status) TH_LOG("%s", self->r.err);
	EXPECT_NE(NULL, strstr(self->r.out, "\"reference\": \"baseline\""));
	EXPECT_NE(NULL, strstr(self->r.out, "\"sweep_value\": \"16\""));
	ASSERT_EQ(0, run_cmd(&self->r, NGEMU("bench", "--compare", "spmv",
					     "--systems", "baseline,dualopp")));
	EXPECT_EQ(2, self->r.status);
	EXPECT_NE(NULL, strstr(self->r.err, "rdma-cache"));
}

TEST_F(dualopt, bad_settings_are_usage_errors)
{
	ASSERT_EQ(0, run_cmd(&self->r, NGEMU("bench", "spmv", "--system", "dualopt",
					     "--l1-size", "0")));
	EXPECT_EQ(2, self->r.status);
	EXPECT_NE(NULL, strstr(self->r.err, "needs an L1")) TH_LOG("%s", self->r.err);
	ASSERT_EQ(0, run_cmd(&self->r, NGEMU("bench", "spmv", "--system", "dualopt",
					     "--xfer-gran", "12")));
	EXPECT_EQ(2, self->r.status);
	EXPECT_NE(NULL, strstr(self->r.err, "xfer-gran"));
	ASSERT_EQ(0, run_cmd(&self->r, NGEMU("bench", "spmv", "--system", "dualopt",
					     "--remote-opt", "sometimes")));
	EXPECT_EQ(2, self->r.status);
	EXPECT_NE(NULL, strstr(self->r.err, "remote-opt"));
	ASSERT_EQ(0, run_cmd(&self->r, NGEMU("bench", "spmv", "--system", "dualopt",
					     "--rdma-size", "1000")));
	EXPECT_EQ(2, self->r.status);
	EXPECT_NE(NULL, strstr(self->r.err, "rdma-size"));
}

TEST_HARNESS_MAIN
