// SPDX-License-Identifier: GPL-2.0
/*
 * REC's system as a user meets it: the directory's size in `ngemu config
 * --show`, every REC workload verified and failing when one element of
 * its result is wrong, the stale read a run without a directory makes,
 * and the compare table against the per-line directory.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "ng_test.h"

#include "ngemu/workloads/workload.h"
#include "run_cmd.h"

#define NGEMU(...) ((char *const[]){ (char *)ngemu_path(), __VA_ARGS__, NULL })

#include "suite_cases.h"

FIXTURE(rec) {
	struct cmd_result r;
};

FIXTURE_SETUP(rec)
{
	(void)self;
}

FIXTURE_TEARDOWN(rec)
{
	(void)self;
}

TEST_F(rec, config_shows_entry_bits_and_storage)
{
	ASSERT_EQ(0, run_cmd(&self->r, NGEMU("config", "--show", "--system", "rec",
					     "--rec-range", "256")));
	EXPECT_EQ(0, self->r.status) TH_LOG("%s", self->r.err);
	EXPECT_NE(NULL, strstr(self->r.out, "directory entry 57 bits"));
	EXPECT_NE(NULL, strstr(self->r.out, "8192 entries x 57 bits = 57.0 KiB per GPU"));
	ASSERT_EQ(0, run_cmd(&self->r, NGEMU("config", "--show", "--system", "rec",
					     "--directory", "dir", "--gpus", "16")));
	EXPECT_NE(NULL, strstr(self->r.out, "directory entry 64 bits")) TH_LOG("%s", self->r.out);
	/* an entry that cannot hold what it declares */
	ASSERT_EQ(0, run_cmd(&self->r, NGEMU("config", "--show", "--system", "rec",
					     "--rec-range", "8K")));
	EXPECT_EQ(2, self->r.status);
	EXPECT_NE(NULL, strstr(self->r.err, "rec-range"));
	ASSERT_EQ(0, run_cmd(&self->r, NGEMU("config", "--check", "--system", "rec",
					     "--dir-addr-bits", "30")));
	EXPECT_EQ(2, self->r.status);
	EXPECT_NE(NULL, strstr(self->r.err, "dir-addr-bits"));
}

/* Every workload of REC's suite, on REC's system, and with one element off. */
TEST_F(rec, workloads_verify_and_catch_one_wrong_element)
{
	EXPECT_LE(4, suite_verifies(_metadata, &self->r, ng_suite_bit("rec"), "rec",
				   NULL));
}

TEST_F(rec, without_a_directory_verification_sees_stale_data)
{
	ASSERT_EQ(0, run_cmd(&self->r, NGEMU("bench", "rwshare", "--system", "rec",
					     "--directory", "none",
					     "--deterministic")));
	EXPECT_EQ(1, self->r.status);
	EXPECT_NE(NULL, strstr(self->r.out, "stale data")) TH_LOG("%s", self->r.out);
	ASSERT_EQ(0, run_cmd(&self->r, NGEMU("bench", "rwshare", "--system", "rec",
					     "--deterministic")));
	EXPECT_EQ(0, self->r.status) TH_LOG("%s", self->r.out);
}

TEST_F(rec, compare_is_normalized_to_the_per_line_directory)
{
	ASSERT_EQ(0, run_cmd(&self->r, NGEMU("bench", "--compare", "st",
					     "--system", "rec", "--csv")));
	EXPECT_EQ(0, self->r.status) TH_LOG("%s", self->r.err);
	EXPECT_NE(NULL, strstr(self->r.out, "speedup_vs_reference,l2_misses"));
	/* dir is its own reference; the four default systems ran */
	EXPECT_NE(NULL, strstr(self->r.out, ",dir,1,")) TH_LOG("%s", self->r.out);
	EXPECT_NE(NULL, strstr(self->r.out, ",dir-2x,1,"));
	EXPECT_NE(NULL, strstr(self->r.out, ",hmg,1,"));
	EXPECT_NE(NULL, strstr(self->r.out, ",rec,1,"));
	ASSERT_EQ(0, run_cmd(&self->r, NGEMU("bench", "--compare", "st",
					     "--systems", "dir,rec", "--json")));
	EXPECT_EQ(0, self->r.status);
	EXPECT_NE(NULL, strstr(self->r.out, "\"reference\": \"dir\""));
	EXPECT_NE(NULL, strstr(self->r.out, "\"entry_bits\": 103"));
	/* unknown systems name the known ones */
	ASSERT_EQ(0, run_cmd(&self->r, NGEMU("bench", "--compare", "st",
					     "--systems", "dir,rek")));
	EXPECT_EQ(2, self->r.status);
	EXPECT_NE(NULL, strstr(self->r.err, "dir-2x"));
}

TEST_HARNESS_MAIN
