// SPDX-License-Identifier: GPL-2.0
/*
 * ngemu reproduce's page-blocks figures (CODA Fig. 5): results.csv
 * carries each run's shares of pages by the number of blocks that
 * touched them (page_blocks), and the figure sets them out a column per
 * bucket, its mean row the arithmetic mean over the workloads, checked
 * against a hand calculation from the same file; a page-blocks line that
 * is not a figure of one system, averaged arithmetically, is refused.
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "ng_test.h"

#include "rep_csv.h"
#include "run_cmd.h"

#define NGEMU(...) ((char *const[]){ (char *)ngemu_path(), __VA_ARGS__, NULL })

#define NBUCKET	8
static const char *const bucket[NBUCKET] = {
	"1", "2", "3-4", "5-8", "9-16", "17-32", "33-64", ">64",
};

FIXTURE(pb) {
	struct cmd_result r;
	char dir[64], data[96], out[96];
};

static void write_data(FIXTURE_DATA(pb) *self, const char *lines)
{
	FILE *f = fopen(self->data, "w");

	if (!f)
		return;
	fprintf(f, "preset coda\nreference fgp\nworkloads nw,bfs\n"
		"systems fgp,coda\n"
		"claim c | s | speedup gmean | coda | 1.3 | x\n%s", lines);
	fclose(f);
}

FIXTURE_SETUP(pb)
{
	snprintf(self->dir, sizeof(self->dir), "/tmp/ngemu-pb-XXXXXX");
	ASSERT_NE(NULL, mkdtemp(self->dir));
	snprintf(self->data, sizeof(self->data), "%s/coda.txt", self->dir);
	snprintf(self->out, sizeof(self->out), "%s/out", self->dir);
	write_data(self, "figure fig5 | Fig. 5: pages by blocks | page-blocks amean | coda\n");
}

FIXTURE_TEARDOWN(pb)
{
	char cmd[128];

	snprintf(cmd, sizeof(cmd), "rm -rf '%s'", self->dir);
	if (system(cmd))
		TH_LOG("could not remove %s", self->dir);
}

/* results.csv's row @wl, @sys: its page_blocks, the last field; count. */
static unsigned int shares(const char *csv, const char *wl, const char *sys,
			   double *v)
{
	char pat[96];
	const char *l, *e;
	unsigned int n = 0;
	char *end;

	snprintf(pat, sizeof(pat), ",%s,%s,", wl, sys);
	l = strstr(csv, pat);
	if (!l)
		return 0;
	e = strchr(l, '\n');
	while (e > l && e[-1] != ',')
		e--;
	for (; n < NBUCKET; n++) {
		v[n] = strtod(e, &end);
		if (end == e)
			break;
		e = end;
	}
	return n;
}

TEST_F(pb, shares_by_bucket_and_their_mean)
{
	static const char *const wl[2] = { "nw", "bfs" };
	double v[2][NBUCKET];
	char *res, *figs, *md;

	ASSERT_EQ(0, run_cmd(&self->r, NGEMU("reproduce", "coda", "--data",
					     self->data, "--out", self->out,
					     "--size", "64K", "--iters", "1")));
	ASSERT_TRUE(self->r.status == 0 || self->r.status == 3)
		TH_LOG("%d: %s", self->r.status, self->r.err);
	res = file(self->out, "results.csv");
	figs = file(self->out, "figures.csv");
	md = file(self->out, "report.md");
	ASSERT_NE(NULL, strstr(res, ",repl_bytes,page_blocks\n")) TH_LOG("%s", res);
	for (unsigned int w = 0; w < 2; w++) {
		double sum = 0;

		ASSERT_EQ(NBUCKET, shares(res, wl[w], "coda", v[w]))
			TH_LOG("%s", res);
		for (unsigned int b = 0; b < NBUCKET; b++) {
			double f = fig_value(figs, "fig5", wl[w], bucket[b]);

			sum += v[w][b];
			EXPECT_GE(1e-6, fabs(f - v[w][b]))
				TH_LOG("%s %s: %g in the figure, %g in results.csv",
				       wl[w], bucket[b], f, v[w][b]);
		}
		EXPECT_GE(0.005, fabs(sum - 1)) TH_LOG("%s: %g", wl[w], sum);
	}
	/* nw's pages are not all one block's: some bucket past the first */
	EXPECT_GT(1 - 1e-9, v[0][0]);
	for (unsigned int b = 0; b < NBUCKET; b++) {
		double want = (v[0][b] + v[1][b]) / 2;

		EXPECT_GE(1e-6, fabs(want - fig_value(figs, "fig5", "mean", bucket[b])))
			TH_LOG("mean of %s", bucket[b]);
	}
	EXPECT_NE(NULL, strstr(md, "| workload | 1 | 2 | 3-4 |")) TH_LOG("%s", md);
	EXPECT_NE(NULL, strstr(md, "shares of coda's pages")) TH_LOG("%s", md);
	free(res);
	free(figs);
	free(md);
}

/* The reproduce of data line @lines: its exit status, @err in its stderr. */
static int refused(FIXTURE_DATA(pb) *self, const char *lines, const char *err)
{
	write_data(self, lines);
	if (run_cmd(&self->r, NGEMU("reproduce", "coda", "--data", self->data,
				    "--out", self->out)) ||
	    !strstr(self->r.err, err)) {
		fprintf(stderr, "# wanted '%s', got: %s\n", err, self->r.err);
		return -1;
	}
	return self->r.status;
}

TEST_F(pb, page_blocks_only_in_a_figure_of_one_system)
{
	/* a claim: no ratio to hold against a paper's */
	EXPECT_EQ(2, refused(self, "claim d | s | page-blocks amean | coda | 0.5 | x\n",
			     "cannot read this 'claim' line"));
	EXPECT_EQ(2, refused(self, "figure f | s | page-blocks amean | fgp,coda\n",
			     "METRIC page-blocks: amean, one system"));
	EXPECT_EQ(2, refused(self, "figure f | s | page-blocks gmean | coda\n",
			     "cannot read this 'figure' line"));
	EXPECT_EQ(2, refused(self, "sweep f | s | page-blocks amean | coda | link-bw=16,64\n",
			     "cannot read this 'sweep' line"));
	/* shares of its own pages: nothing to normalize to */
	EXPECT_EQ(2, refused(self, "figure f | s | page-blocks amean | coda vs fgp\n",
			     "cannot read this 'figure' line"));
	/* its columns are buckets: a paper value would never be shown */
	EXPECT_EQ(2, refused(self, "figure f | s | page-blocks amean | coda\n"
			     "paper f | bfs | coda | 0.5 | text\n",
			     "a page-blocks figure holds no paper values"));
}

TEST_HARNESS_MAIN
