// SPDX-License-Identifier: GPL-2.0
/*
 * ScaleGPU's split baseline depends on device memory, as the paper's
 * hand-modified codes do: split code exists only when the data does not
 * fit. With device-mem at 100% of the data (or at least its bytes) split
 * is the plain program, copying once as full; below, it copies each
 * kernel's data in before it and out after it. All values are the model's
 * (modeled seconds), none a wall time.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "ng_test.h"

#include "cmp_csv.h"
#include "rep_csv.h"
#include "run_cmd.h"

/* |a - b| <= tol */
#define EXPECT_NEAR(a, b, tol) EXPECT_GE((tol), (a) > (b) ? (a) - (b) : (b) - (a))

#define NGEMU(...) ((char *const[]){ (char *)ngemu_path(), __VA_ARGS__, NULL })

FIXTURE(split) {
	struct cmd_result r;
};

FIXTURE_SETUP(split)
{
	(void)self;
}

FIXTURE_TEARDOWN(split)
{
	(void)self;
}

/*
 * hotspot's three arrays of 1 MiB (3 MiB of data), four time steps in two
 * kernels: full copies the 2 MiB read in once and the 2 MiB written out
 * once; split, when it splits, each kernel's 2 MiB in (twice full's) and
 * its 1 MiB written out.
 */
TEST_F(split, copies_depend_on_device_memory)
{
	static const char *const fits[] = { "100%", "4M" };
	static const char *const short_of[] = { "50%", "12.5%", "2M" };
	const char *o;
	double h2d, d2h, kern, t;

	ASSERT_EQ(0, run_cmd(&self->r, NGEMU("bench", "--compare", "hotspot",
					     "--system", "scalegpu", "--size", "1M",
					     "--iters", "4", "--systems", "full,split",
					     "--csv", "--sweep",
					     "device-mem=100%,50%,12.5%,4M,2M")));
	ASSERT_EQ(0, self->r.status) TH_LOG("%s", self->r.err);
	o = self->r.out;
	h2d = field(o, "100%", "full", "h2d_s");
	d2h = field(o, "100%", "full", "d2h_s");
	kern = field(o, "100%", "full", "kernel_s");
	t = field(o, "100%", "full", "modeled_s");
	ASSERT_LT(0, h2d) TH_LOG("%s", o);
	ASSERT_LT(0, d2h);
	ASSERT_LT(0, kern);
	/* the data fits: the plain program, full's copies and time */
	for (unsigned int i = 0; i < 2; i++) {
		const char *v = fits[i];

		EXPECT_NEAR(h2d, field(o, v, "split", "h2d_s"), 1e-9) TH_LOG("%s: %s", v, o);
		EXPECT_NEAR(d2h, field(o, v, "split", "d2h_s"), 1e-9) TH_LOG("%s", v);
		EXPECT_NEAR(t, field(o, v, "split", "modeled_s"), 1e-9) TH_LOG("%s", v);
		EXPECT_EQ(1, field(o, v, "split", "speedup_vs_reference")) TH_LOG("%s", v);
		EXPECT_EQ(1, field(o, v, "split", "verified"));
	}
	/* it does not: around each kernel, the same kernels */
	for (unsigned int i = 0; i < 3; i++) {
		const char *v = short_of[i];

		/* 2 MiB in per kernel: twice full's (and 2 latencies, < 1 us) */
		EXPECT_NEAR(2 * h2d, field(o, v, "split", "h2d_s"), 1e-6) TH_LOG("%s: %s", v, o);
		/* 1 MiB out per kernel: full's bytes, one more copy's latency */
		EXPECT_LT(d2h, field(o, v, "split", "d2h_s")) TH_LOG("%s", v);
		EXPECT_NEAR(d2h, field(o, v, "split", "d2h_s"), 1e-5) TH_LOG("%s", v);
		EXPECT_NEAR(kern, field(o, v, "split", "kernel_s"), 1e-9) TH_LOG("%s", v);
		EXPECT_GT(1, field(o, v, "split", "speedup_vs_reference")) TH_LOG("%s", v);
		EXPECT_EQ(1, field(o, v, "split", "verified"));
		/* full ignores device-mem */
		EXPECT_NEAR(t, field(o, v, "full", "modeled_s"), 1e-12) TH_LOG("%s", v);
	}
}

/* Without device-mem split code always splits (host-copies per-kernel alone). */
TEST_F(split, no_device_memory_always_splits)
{
	const char *o;

	ASSERT_EQ(0, run_cmd(&self->r, NGEMU("bench", "--compare", "hotspot",
					     "--system", "scalegpu", "--size", "1M",
					     "--iters", "4", "--systems", "full,split",
					     "--csv", "--sweep", "device-mem=0,100%")));
	ASSERT_EQ(0, self->r.status) TH_LOG("%s", self->r.err);
	o = self->r.out;
	EXPECT_NEAR(2 * field(o, "0", "full", "h2d_s"), field(o, "0", "split", "h2d_s"),
		    1e-6) TH_LOG("%s", o);
	EXPECT_NEAR(field(o, "100%", "full", "h2d_s"), field(o, "100%", "split", "h2d_s"),
		    1e-9) TH_LOG("%s", o);
}

/*
 * device-mem on the GPUs' own data is the split code's memory only:
 * with whole copies (or none) it is still the usage error it was.
 */
TEST_F(split, device_memory_without_host_or_split_is_an_error)
{
	ASSERT_EQ(0, run_cmd(&self->r, NGEMU("bench", "hotspot", "--system", "scalegpu",
					     "--size", "1M", "--placement", "first-touch",
					     "--host-copies", "once")));
	EXPECT_EQ(2, self->r.status);
	EXPECT_NE(NULL, strstr(self->r.err, "placement host")) TH_LOG("%s", self->r.err);
	ASSERT_EQ(0, run_cmd(&self->r, NGEMU("bench", "hotspot", "--system", "scalegpu",
					     "--size", "1M", "--iters", "4",
					     "--placement", "first-touch",
					     "--host-copies", "per-kernel",
					     "--device-mem", "2M")));
	EXPECT_EQ(0, self->r.status) TH_LOG("%s", self->r.err);
	EXPECT_NE(NULL, strstr(self->r.out,
			       "copies     per-kernel (split: the data exceeds device-mem): H2D "))
		TH_LOG("%s", self->r.out);
	/* no cache: ScaleGPU's report stays out */
	EXPECT_EQ(NULL, strstr(self->r.out, "tag hit rate")) TH_LOG("%s", self->r.out);
}

/*
 * ngemu reproduce's sweep of ScaleGPU against split over the reduced
 * sizes, with the paper's average as a "mean" row: the mean of the
 * values' ratios (amean), and a split that copies around every kernel.
 */
TEST_F(split, reproduce_holds_scalegpu_against_split_per_size)
{
	char dir[] = "/tmp/ngemu-split-XXXXXX", data[64], out[64], cmd[96];
	double v50, v12, mean;
	char *figs, *md;
	FILE *f;

	ASSERT_NE(NULL, mkdtemp(dir));
	snprintf(data, sizeof(data), "%s/sg.txt", dir);
	snprintf(out, sizeof(out), "%s/out", dir);
	f = fopen(data, "w");
	ASSERT_NE(NULL, f);
	fprintf(f, "preset scalegpu\nreference full\nworkloads hotspot\n"
		"systems full,split,scalegpu\n"
		"claim c | s | speedup gmean | scalegpu | 1 | x\n"
		"sweep hs | Fig. 3 | speedup amean | scalegpu vs split | device-mem=50%%,12.5%%\n"
		"paper hs | hotspot | mean | 1.32 | sec. 4.2\n");
	fclose(f);
	ASSERT_EQ(0, run_cmd(&self->r, NGEMU("reproduce", "scalegpu", "--data", data,
					     "--out", out, "--size", "1M", "--iters", "4")));
	ASSERT_TRUE(self->r.status == 0 || self->r.status == 3)
		TH_LOG("%d: %s", self->r.status, self->r.err);
	figs = file(out, "figures.csv");
	md = file(out, "report.md");
	v50 = fig_value(figs, "hs", "50%", "hotspot");
	v12 = fig_value(figs, "hs", "12.5%", "hotspot");
	mean = fig_value(figs, "hs", "mean", "hotspot");
	EXPECT_LT(0, v50) TH_LOG("%s", figs);
	EXPECT_LT(0, v12);
	EXPECT_NEAR((v50 + v12) / 2, mean, 1e-5 * mean) TH_LOG("%s", figs);
	/* the mean of the workloads at the mean row: the one workload's */
	EXPECT_NEAR(mean, fig_value(figs, "hs", "mean", "mean"), 1e-5 * mean);
	EXPECT_NE(NULL, strstr(md, "| mean | ")) TH_LOG("%s", md);
	EXPECT_NE(NULL, strstr(md, "(paper 1.32, ")) TH_LOG("%s", md);
	free(figs);
	free(md);
	snprintf(cmd, sizeof(cmd), "rm -rf '%s'", dir);
	if (system(cmd))
		TH_LOG("could not remove %s", dir);
}

/* A "mean" column is a sweep's only: a figure of bars has none. */
TEST_F(split, a_mean_column_needs_a_sweep)
{
	char dir[] = "/tmp/ngemu-split-XXXXXX", data[64], cmd[96];
	FILE *f;

	ASSERT_NE(NULL, mkdtemp(dir));
	snprintf(data, sizeof(data), "%s/sg.txt", dir);
	f = fopen(data, "w");
	ASSERT_NE(NULL, f);
	fprintf(f, "preset scalegpu\nreference full\nworkloads hotspot\n"
		"systems full,scalegpu\nclaim c | s | speedup gmean | scalegpu | 1 | x\n"
		"figure b | Fig. 3 | speedup gmean | scalegpu\n"
		"paper b | hotspot | mean | 1.32 | sec. 4.2\n");
	fclose(f);
	ASSERT_EQ(0, run_cmd(&self->r, NGEMU("reproduce", "scalegpu", "--data", data,
					     "--out", dir)));
	EXPECT_EQ(2, self->r.status);
	EXPECT_NE(NULL, strstr(self->r.err, "'mean' is not a column of the figure"))
		TH_LOG("%s", self->r.err);
	snprintf(cmd, sizeof(cmd), "rm -rf '%s'", dir);
	if (system(cmd))
		TH_LOG("could not remove %s", dir);
}

TEST_HARNESS_MAIN
