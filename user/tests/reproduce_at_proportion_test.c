// SPDX-License-Identifier: GPL-2.0
/*
 * ngemu reproduce --at-proportion: each workload runs at its paper's
 * input scaled as the regime scales the paper's cache, raised to one
 * wave of the regime's machine, capped at half its device memory, each
 * checked against a hand calculation; its points are not those of a
 * run at the default sizes in the same folder (each mode runs its own,
 * and finds its own again), and a --size beside it is refused.
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

/*
 * REC's regime with its L2 at 16 KB: the paper's 2 MB is 128 times it,
 * and 8 SMs a GPU of 2 resident blocks make a small wave (small runs:
 * the program runs reproduce five times, also under the sanitizers)
 */
#define PROP_OPTS "--l2-size", "16K", "--sms", "8", "--blocks-per-sm", "2", \
		  "--iters", "1"

FIXTURE(atp) {
	struct cmd_result r;
	struct rep_dir d;
};

FIXTURE_SETUP(atp)
{
	ASSERT_EQ(0, rep_dir_make(&self->d, "atp", "rec.txt",
				     "preset rec\nreference dir\nworkloads st,sssp,rwshare\nsystems dir,rec\n"
				     "claim r-rec | s | speedup gmean | rec | 1.3 | dir.evictions\n"));
}

FIXTURE_TEARDOWN(atp)
{
	if (rep_dir_remove(&self->d))
		TH_LOG("could not remove %s", self->d.dir);
}

/* The files in DIR/points. */
static int points(const char *out)
{
	char cmd[160];
	FILE *p;
	int n = -1;

	snprintf(cmd, sizeof(cmd), "ls '%s/points' | grep -c '\\.json$'", out);
	p = popen(cmd, "r");
	if (!p)
		return -1;
	if (fscanf(p, "%d", &n) != 1)
		n = -1;
	pclose(p);
	return n;
}

TEST_F(atp, each_workload_at_its_papers_proportion_or_one_wave)
{
	char *csv, *md;

	run_cmd(&self->r, NGEMU("reproduce", "rec", "--data", self->d.data,
				"--out", self->d.out, "--at-proportion",
				PROP_OPTS));
	ASSERT_TRUE(self->r.status == 0 || self->r.status == 3)
		TH_LOG("%d: %s", self->r.status, self->r.err);
	csv = file(self->d.out, "proportions.csv");
	ASSERT_NE(NULL, csv);
	EXPECT_EQ(0, strncmp(csv, "workload,size_bytes,paper_bytes,paper_source,at_scale_bytes,ratio,sized\n", 72))
		TH_LOG("%s", csv);
	/*
	 * st: REC's 128 MB over 2 arrays is 64 MiB an array, 1/128 of it
	 * 512 KiB; one wave is 4 GPUs x 8 SMs x 2 blocks of 256 threads
	 * = 64 blocks, 16384 threads, 64 KiB at 4 bytes a thread: 512 KiB
	 * is above it, st runs at scale.
	 */
	EXPECT_NE(NULL, strstr(csv, "\nst,524288,67108864,\"REC Table 3: ST 128 MB\",524288,1,at scale\n"))
		TH_LOG("%s", csv);
	/* sssp: 2686976 / 128 = 20992 bytes, below the wave: 65536 */
	EXPECT_NE(NULL, strstr(csv, "\nsssp,65536,2686976,"))
		TH_LOG("%s", csv);
	EXPECT_NE(NULL, strstr(csv, ",20992,3.12195,raised to one wave\n"))
		TH_LOG("%s", csv);
	/* no paper sizes rwshare: its default, 1 MiB */
	EXPECT_NE(NULL, strstr(csv, "\nrwshare,1048576,,,,,no paper size: its default\n"))
		TH_LOG("%s", csv);
	free(csv);
	md = file(self->d.out, "report.md");
	ASSERT_NE(NULL, md);
	EXPECT_NE(NULL, strstr(md, "| st | 512.0 KiB | at scale | 64.0 MiB (REC Table 3: ST 128 MB) | 512.0 KiB | 1 |"))
		TH_LOG("%s", md);
	EXPECT_NE(NULL, strstr(md, "One wave of the regime's machine: 64 blocks (4 GPUs x 8 SMs x\n2 resident 256-thread blocks), 64.0 KiB"))
		TH_LOG("%s", md);
	EXPECT_NE(NULL, strstr(md, "--at-proportion: see Proportions"))
		TH_LOG("%s", md);
	free(md);
}

TEST_F(atp, half_the_device_memory_caps_a_size)
{
	char *csv;

	/*
	 * 4 GPUs x 2 MiB: st's 2 arrays get at most 8 MiB / 2 / 2 = 2 MiB
	 * each, below its 8 MiB at REC's own 1/8 scale, and above the
	 * wave of 4 SMs (160 KiB)
	 */
	run_cmd(&self->r, NGEMU("reproduce", "rec", "--data", self->d.data,
				"--out", self->d.out, "--at-proportion",
				"--mem-per-gpu", "2M", "--sms", "4",
				"--iters", "1"));
	ASSERT_TRUE(self->r.status == 0 || self->r.status == 3)
		TH_LOG("%d: %s", self->r.status, self->r.err);
	csv = file(self->d.out, "proportions.csv");
	ASSERT_NE(NULL, csv) TH_LOG("%d: %s", self->r.status, self->r.err);
	EXPECT_NE(NULL, strstr(csv, "\nst,2097152,67108864,\"REC Table 3: ST 128 MB\",8388608,0.25,capped at half the device memory\n"))
		TH_LOG("%s", csv);
	free(csv);
}

TEST_F(atp, the_two_modes_points_do_not_mix)
{
	char *a, *b, hash[17];

	/* at the paper's proportions: 3 workloads x 2 systems */
	run_cmd(&self->r, NGEMU("reproduce", "rec", "--data", self->d.data,
				"--out", self->d.out, "--at-proportion",
				PROP_OPTS));
	ASSERT_TRUE(self->r.status == 0 || self->r.status == 3)
		TH_LOG("%d: %s", self->r.status, self->r.err);
	EXPECT_EQ(6, points(self->d.out));
	a = file(self->d.out, "results.csv");
	ASSERT_NE(NULL, a);
	/* at the default sizes in the same folder: none of those found */
	run_cmd(&self->r, NGEMU("reproduce", "rec", "--data", self->d.data,
				"--out", self->d.out, PROP_OPTS));
	ASSERT_TRUE(self->r.status == 0 || self->r.status == 3)
		TH_LOG("%d: %s", self->r.status, self->r.err);
	EXPECT_NE(NULL, strstr(self->r.err, "6 points, 6 to run, 0 kept from before"))
		TH_LOG("%s", self->r.err);
	EXPECT_EQ(12, points(self->d.out));
	b = file(self->d.out, "results.csv");
	ASSERT_NE(NULL, b);
	/* a row's hash (its first column) of the one is not the other's */
	snprintf(hash, sizeof(hash), "%s", strchr(a, '\n') + 1);
	EXPECT_EQ(16, strlen(hash));
	EXPECT_EQ(NULL, strstr(b, hash)) TH_LOG("%s\n%s", a, b);
	free(b);
	/* and each mode finds its own again */
	run_cmd(&self->r, NGEMU("reproduce", "rec", "--data", self->d.data,
				"--out", self->d.out, "--at-proportion",
				PROP_OPTS));
	EXPECT_NE(NULL, strstr(self->r.err, "6 points, 0 to run, 6 kept from before"))
		TH_LOG("%s", self->r.err);
	b = file(self->d.out, "results.csv");
	ASSERT_NE(NULL, b);
	EXPECT_STREQ(a, b);
	free(a);
	free(b);
}

TEST_F(atp, a_size_beside_it_is_refused)
{
	struct stat st;

	run_cmd(&self->r, NGEMU("reproduce", "rec", "--data", self->d.data,
				"--out", self->d.out, "--at-proportion",
				"--size", "1M"));
	EXPECT_EQ(2, self->r.status);
	EXPECT_NE(NULL, strstr(self->r.err, "--at-proportion sizes each workload itself: drop --size"))
		TH_LOG("%s", self->r.err);
	EXPECT_NE(0, stat(self->d.out, &st));
}

TEST_HARNESS_MAIN
