// SPDX-License-Identifier: GPL-2.0
/*
 * `ngemu bench` for CARVE as a user meets it: the read-write sharing test
 * failing with coherence none (exit 1, a message saying what was stale)
 * and verifying with swc and hwc; the side-by-side comparison (where
 * carve-none's stale data is expected, exit 0), its CSV
 * and JSON forms and a sweep; configs that cannot work rejected (exit 2).
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "ng_test.h"

#include "run_cmd.h"

#define NGEMU(...) ((char *const[]){ (char *)ngemu_path(), __VA_ARGS__, NULL })

FIXTURE(carve) {
	struct cmd_result r;
};

FIXTURE_SETUP(carve)
{
	(void)self;
}

FIXTURE_TEARDOWN(carve)
{
	(void)self;
}

TEST_F(carve, rwshare_stale_without_coherence)
{
	ASSERT_EQ(0, run_cmd(&self->r, NGEMU("bench", "rwshare", "--rdc-size", "4M",
					     "--coherence", "none", "--page", "64K",
					     "--deterministic")));
	EXPECT_EQ(1, self->r.status);
	EXPECT_NE(NULL, strstr(self->r.err, "verification failed: stale data"))
		TH_LOG("%s", self->r.err);
	EXPECT_NE(NULL, strstr(self->r.out, "FAILED"));
	for (int i = 0; i < 2; i++) {
		ASSERT_EQ(0, run_cmd(&self->r, NGEMU("bench", "rwshare", "--rdc-size",
						     "4M", "--coherence",
						     i ? "hwc" : "swc", "--page",
						     "64K", "--deterministic")));
		EXPECT_EQ(0, self->r.status) TH_LOG("%s", self->r.err);
		EXPECT_NE(NULL, strstr(self->r.out, "rwshare: verified"));
	}
}

TEST_F(carve, compare_table_csv_json_and_sweep)
{
	ASSERT_EQ(0, run_cmd(&self->r, NGEMU("bench", "--compare", "spmv",
					     "--size", "1M", "--iters", "2")));
	EXPECT_EQ(0, self->r.status) TH_LOG("%s", self->r.err);
	EXPECT_NE(NULL, strstr(self->r.out, "time_over_ideal"));
	EXPECT_NE(NULL, strstr(self->r.out, "carve-hwc"));
	EXPECT_NE(NULL, strstr(self->r.out, "repl-ro"));
	/* the ideal's row, verified */
	{
		const char *row = strstr(self->r.out, "\nideal ");

		ASSERT_NE(NULL, row) TH_LOG("%s", self->r.out);
		EXPECT_EQ(0, strncmp(row + strspn(row + 6, " ") + 6, "yes ", 4));
	}
	/* none on the sharing test: the table shows it, stale as expected */
	ASSERT_EQ(0, run_cmd(&self->r, NGEMU("bench", "--compare", "rwshare",
					     "--systems", "carve-none,carve-hwc",
					     "--csv")));
	EXPECT_EQ(0, self->r.status);
	EXPECT_NE(NULL, strstr(self->r.out, "workload,sweep,system,verified"));
	EXPECT_NE(NULL, strstr(self->r.out, "rwshare,,carve-none,0,"));
	EXPECT_NE(NULL, strstr(self->r.out, "rwshare,,carve-hwc,1,"));
	EXPECT_NE(NULL, strstr(self->r.err, "carve-none: verification failed"));
	ASSERT_EQ(0, run_cmd(&self->r, NGEMU("bench", "--compare", "hotspot",
					     "--size", "1M", "--iters", "2",
					     "--systems", "carve-hwc,ideal",
					     "--sweep", "rdc-size=512K,2M", "--json")));
	EXPECT_EQ(0, self->r.status) TH_LOG("%s", self->r.err);
	EXPECT_NE(NULL, strstr(self->r.out, "\"sweep\": \"rdc-size\""));
	EXPECT_NE(NULL, strstr(self->r.out, "\"sweep_value\": \"512K\""));
	EXPECT_NE(NULL, strstr(self->r.out, "\"time_over_ideal\""));
}

TEST_F(carve, bad_input_exit_2)
{
	ASSERT_EQ(0, run_cmd(&self->r, NGEMU("bench", "--compare", "spmv",
					     "--systems", "carve-xyz")));
	EXPECT_EQ(2, self->r.status);
	EXPECT_NE(NULL, strstr(self->r.err, "unknown system 'carve-xyz'"));
	ASSERT_EQ(0, run_cmd(&self->r, NGEMU("bench", "--compare", "spmv",
					     "--sweep", "bogus=1,2")));
	EXPECT_EQ(2, self->r.status);
	ASSERT_EQ(0, run_cmd(&self->r, NGEMU("bench", "spmv", "--csv")));
	EXPECT_EQ(2, self->r.status);
	ASSERT_EQ(0, run_cmd(&self->r, NGEMU("bench", "spmv", "--coherence", "mesi")));
	EXPECT_EQ(2, self->r.status);
	EXPECT_NE(NULL, strstr(self->r.err, "not none, swc or hwc"));
	ASSERT_EQ(0, run_cmd(&self->r, NGEMU("bench", "spmv", "--rdc-size", "100")));
	EXPECT_EQ(2, self->r.status);
	EXPECT_NE(NULL, strstr(self->r.err, "rdc-size"));
	ASSERT_EQ(0, run_cmd(&self->r, NGEMU("bench", "spmv", "--rdc-size", "4M",
					     "--replicate", "ro")));
	EXPECT_EQ(2, self->r.status);
}

TEST_HARNESS_MAIN
