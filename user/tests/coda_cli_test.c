// SPDX-License-Identifier: GPL-2.0
/*
 * CODA's system as a user meets it: every workload of its suite verified
 * under CODA's placement (a profiling run first) and failing when one
 * element is wrong; the B and chunk of each structure and the category
 * in the report; the compare table against fgp; bad settings.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "ng_test.h"

#include "ngemu/workloads/workload.h"
#include "run_cmd.h"

#define NGEMU(...) ((char *const[]){ (char *)ngemu_path(), __VA_ARGS__, NULL })

#include "suite_cases.h"

FIXTURE(coda) {
	struct cmd_result r;
};

FIXTURE_SETUP(coda)
{
	(void)self;
}

FIXTURE_TEARDOWN(coda)
{
	(void)self;
}

TEST_F(coda, workloads_verify_and_catch_one_wrong_element)
{
	EXPECT_LE(5, suite_verifies(_metadata, &self->r, ng_suite_bit("coda"), "coda",
				   "\ncoda       B per structure (profile)"));
}

TEST_F(coda, the_report_gives_b_chunks_and_category)
{
	ASSERT_EQ(0, run_cmd(&self->r, NGEMU("bench", "stream-triad", "--system",
					     "coda", "--size", "4M",
					     "--coda-chunk", "uncapped",
					     "--page-profile", "--json")));
	EXPECT_EQ(0, self->r.status) TH_LOG("%s", self->r.err);
	/* triad's blocks each read 1 KiB of every array, in block order */
	EXPECT_NE(NULL, strstr(self->r.out, "\"block_bytes\": 1024"))
		TH_LOG("%s", self->r.out);
	EXPECT_NE(NULL, strstr(self->r.out, "\"category\": \"core-exclusive\""));
	/* chunks of 1 KiB x 16 blocks per GPU: every access local */
	EXPECT_NE(NULL, strstr(self->r.out, "\"remote_fraction\": 0,"))
		TH_LOG("%s", self->r.out);
}

TEST_F(coda, compare_is_against_fgp)
{
	char *l;

	ASSERT_EQ(0, run_cmd(&self->r, NGEMU("bench", "--compare", "stream-triad",
					     "--system", "coda", "--size", "4M",
					     "--csv")));
	EXPECT_EQ(0, self->r.status) TH_LOG("%s", self->r.err);
	EXPECT_NE(NULL, strstr(self->r.out, "speedup_vs_reference,remote_fraction,remote_vs_reference"));
	EXPECT_NE(NULL, strstr(self->r.out, ",fgp,1,")) TH_LOG("%s", self->r.out);
	/* the paper's capped chunks are single pages: as cgp's remote share */
	l = strstr(self->r.out, ",coda,1,");
	ASSERT_NE(NULL, l) TH_LOG("%s", self->r.out);
	EXPECT_NE(NULL, strstr(l, ",0.75,")) TH_LOG("%s", l);
	l = strstr(self->r.out, ",coda-uncapped,1,");
	ASSERT_NE(NULL, l) TH_LOG("%s", self->r.out);
	EXPECT_NE(NULL, strstr(l, ",0,0,0,")) TH_LOG("%s", l);
	EXPECT_NE(NULL, strstr(self->r.out, ",cgp-mig,1,"));
	EXPECT_NE(NULL, strstr(self->r.out, ",cgp-ft,1,"));
}

TEST_F(coda, bad_settings_are_usage_errors)
{
	ASSERT_EQ(0, run_cmd(&self->r, NGEMU("bench", "stream-triad", "--system",
					     "coda", "--coda-chunk", "huge")));
	EXPECT_EQ(2, self->r.status);
	EXPECT_NE(NULL, strstr(self->r.err, "coda-chunk")) TH_LOG("%s", self->r.err);
	ASSERT_EQ(0, run_cmd(&self->r, NGEMU("bench", "stream-triad", "--system",
					     "coda", "--coda-b", "guess")));
	EXPECT_EQ(2, self->r.status);
	EXPECT_NE(NULL, strstr(self->r.err, "coda-b")) TH_LOG("%s", self->r.err);
}

TEST_HARNESS_MAIN
