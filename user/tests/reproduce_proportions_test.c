// SPDX-License-Identifier: GPL-2.0
/*
 * ngemu reproduce's proportions: each workload's size beside its paper's
 * input scaled as the regime scales the paper's cache (the plug-in's
 * proportion_key, the preset's value against the regime's), checked
 * against a hand calculation; a workload no paper sizes has no ratio, and
 * a data file of no registered paper writes none.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "ng_test.h"

#include "rep_csv.h"
#include "rep_dir.h"
#include "run_cmd.h"

#define NGEMU(...) ((char *const[]){ (char *)ngemu_path(), __VA_ARGS__, NULL })

FIXTURE(prop) {
	struct cmd_result r;
	struct rep_dir d;
};

FIXTURE_SETUP(prop)
{
	ASSERT_EQ(0, rep_dir_make(&self->d, "prop", "rec.txt",
				     "preset rec\nreference dir\nworkloads st,spmv\nsystems dir,rec\n"
				     "claim r-rec | s | speedup gmean | rec | 1.3 | dir.evictions\n"));
}

FIXTURE_TEARDOWN(prop)
{
	if (rep_dir_remove(&self->d))
		TH_LOG("could not remove %s", self->d.dir);
}

TEST_F(prop, a_workloads_size_against_its_papers_at_the_regimes_scale)
{
	char *csv, *md;

	run_cmd(&self->r, NGEMU("reproduce", "rec", "--data", self->d.data,
				"--out", self->d.out, "--size", "256K",
				"--iters", "1"));
	ASSERT_TRUE(self->r.status == 0 || self->r.status == 3)
		TH_LOG("%d: %s", self->r.status, self->r.err);
	/*
	 * REC's regime holds its 2 MB L2 at 256 KB (1/8): st's 64 MiB a
	 * paper array is 8 MiB at that scale, and 256 KiB is 1/32 of it
	 */
	csv = file(self->d.out, "proportions.csv");
	ASSERT_NE(NULL, csv);
	EXPECT_EQ(0, strncmp(csv, "workload,size_bytes,paper_bytes,paper_source,at_scale_bytes,ratio,sized\n", 72))
		TH_LOG("%s", csv);
	EXPECT_NE(NULL, strstr(csv, "\nst,262144,67108864,\"REC Table 3: ST 128 MB\",8388608,0.03125,--size\n"))
		TH_LOG("%s", csv);
	/* no paper sizes spmv */
	EXPECT_NE(NULL, strstr(csv, "\nspmv,262144,,,,,--size\n")) TH_LOG("%s", csv);
	free(csv);
	md = file(self->d.out, "report.md");
	ASSERT_NE(NULL, md);
	EXPECT_NE(NULL, strstr(md, "The regime's `l2-size` is 256.0 KiB where the paper's machine has 2.0 MiB (1/8)"))
		TH_LOG("%s", md);
	EXPECT_NE(NULL, strstr(md, "| st | 256.0 KiB | --size | 64.0 MiB (REC Table 3: ST 128 MB) | 8.0 MiB | 0.0312 |"))
		TH_LOG("%s", md);
	free(md);
}

TEST_F(prop, a_paper_of_no_plugin_has_none)
{
	char path[192];
	struct stat st;

	snprintf(path, sizeof(path), "%s/test.txt", self->d.dir);
	ASSERT_EQ(0, rename(self->d.data, path));
	run_cmd(&self->r, NGEMU("reproduce", "test", "--data", path,
				"--out", self->d.out, "--size", "256K",
				"--iters", "1"));
	ASSERT_TRUE(self->r.status == 0 || self->r.status == 3)
		TH_LOG("%d: %s", self->r.status, self->r.err);
	snprintf(path, sizeof(path), "%s/proportions.csv", self->d.out);
	EXPECT_NE(0, stat(path, &st));
	snprintf(path, sizeof(path), "%s/report.md", self->d.out);
	EXPECT_EQ(0, stat(path, &st));
}

TEST_HARNESS_MAIN
