// SPDX-License-Identifier: GPL-2.0
/*
 * ngemu reproduce as a user meets it: a paper's data file (here a small
 * one of the test's own) run as a sweep, each claim beside ngemu's value,
 * a claim whose direction ngemu does not show marked "not shown" (and the
 * run's exit 1), the claims' CSV and JSON agreeing, the report with its
 * plot, and bad input as usage errors. The papers' own files run in
 * their own lanes (make reproduce).
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "kselftest_harness.h"

#include "run_cmd.h"

#define NGEMU(...) ((char *const[]){ (char *)ngemu_path(), __VA_ARGS__, NULL })

FIXTURE(rep) {
	struct cmd_result r;
	char dir[64], data[96], out[96];
};

FIXTURE_SETUP(rep)
{
	FILE *f;

	snprintf(self->dir, sizeof(self->dir), "/tmp/ngemu-rep-XXXXXX");
	ASSERT_NE(NULL, mkdtemp(self->dir));
	snprintf(self->data, sizeof(self->data), "%s/paper.txt", self->dir);
	snprintf(self->out, sizeof(self->out), "%s/out", self->dir);
	f = fopen(self->data, "w");
	ASSERT_NE(NULL, f);
	fprintf(f, "# a test paper\n"
		"title A test paper\n"
		"preset dualopt\n"
		"reference baseline\n"
		"workloads spmv,bfs\n"
		"systems baseline,coalesce\n"
		"claim fewer-bytes | Fig. 1 | traffic | coalesce | 0.3 | link.rx_bytes\n"
		"claim slower | Fig. 2 | speedup | coalesce | 0.5 | core.sm_ticks\n"
		"claim on-spmv | Fig. 3 | speedup | coalesce | 1.5 | mshr.fine_units | spmv\n");
	fclose(f);
}

FIXTURE_TEARDOWN(rep)
{
	char cmd[128];

	snprintf(cmd, sizeof(cmd), "rm -rf '%s'", self->dir);
	if (system(cmd))
		TH_LOG("could not remove %s", self->dir);
}

static char *file(const char *dir, const char *name)
{
	char path[256], *t = calloc(1, 1 << 16);
	FILE *f;

	snprintf(path, sizeof(path), "%s/%s", dir, name);
	f = fopen(path, "r");
	if (f && t)
		t[fread(t, 1, (1 << 16) - 1, f)] = '\0';
	if (f)
		fclose(f);
	return t;
}

TEST_F(rep, claims_beside_ngemu_and_not_shown_marked)
{
	char *csv, *js, *md, *svg;

	ASSERT_EQ(0, run_cmd(&self->r, NGEMU("reproduce", "test", "--data",
					     self->data, "--out", self->out,
					     "--size", "512K", "--iters", "1")));
	/* coalescing on spmv and bfs is faster: "slower" is not shown */
	EXPECT_EQ(1, self->r.status) TH_LOG("%s", self->r.err);
	EXPECT_NE(NULL, strstr(self->r.out, "2 of 3 claims in the paper's direction"))
		TH_LOG("%s", self->r.out);
	csv = file(self->out, "claims.csv");
	js = file(self->out, "claims.json");
	md = file(self->out, "report.md");
	svg = file(self->out, "plot.svg");
	EXPECT_NE(NULL, strstr(csv, "fewer-bytes,\"Fig. 1\",traffic,coalesce,baseline,\"all\",0.3,"))
		TH_LOG("%s", csv);
	EXPECT_NE(NULL, strstr(csv, ",not shown\n"));
	EXPECT_NE(NULL, strstr(csv, "slower,")) TH_LOG("%s", csv);
	EXPECT_NE(NULL, strstr(strstr(csv, "slower,"), "not shown"));
	EXPECT_NE(NULL, strstr(csv, "on-spmv,\"Fig. 3\",speedup,coalesce,baseline,\"spmv\",1.5,"));
	/* every claim's ngemu value is in the JSON too */
	for (char *l = strchr(csv, '\n'); l && l[1]; l = strchr(l + 1, '\n')) {
		char id[48], pat[96];
		double paper, ngemu;

		ASSERT_EQ(3, sscanf(l + 1, "%47[^,],%*[^,],%*[^,],%*[^,],%*[^,],%*[^,],%lf,%lf",
				    id, &paper, &ngemu)) TH_LOG("%s", l + 1);
		const char *at, *v;
		double jv;

		snprintf(pat, sizeof(pat), "\"claim\": \"%s\"", id);
		at = strstr(js, pat);
		ASSERT_NE(NULL, at) TH_LOG("%s", id);
		v = strstr(at, "\"ngemu\": ");
		ASSERT_NE(NULL, v);
		jv = strtod(v + 9, NULL);
		EXPECT_GE(1e-5 * ngemu, jv > ngemu ? jv - ngemu : ngemu - jv)
			TH_LOG("%s: CSV %g, JSON %g", id, ngemu, jv);
	}
	EXPECT_NE(NULL, strstr(md, "| slower (speedup) | Fig. 2 | coalesce vs baseline | 0.5 |"))
		TH_LOG("%s", md);
	EXPECT_NE(NULL, strstr(md, "![speed-up over baseline per workload](plot.svg)"));
	EXPECT_NE(NULL, strstr(svg, "coalesce")) TH_LOG("no plot: is gnuplot installed?");
	free(csv);
	free(js);
	free(md);
	free(svg);
}

TEST_F(rep, bad_input_is_a_usage_error)
{
	FILE *f;

	ASSERT_EQ(0, run_cmd(&self->r, NGEMU("reproduce", "nosuchpaper")));
	EXPECT_EQ(2, self->r.status);
	EXPECT_NE(NULL, strstr(self->r.err, "no data for 'nosuchpaper'"));
	ASSERT_EQ(0, run_cmd(&self->r, NGEMU("reproduce")));
	EXPECT_EQ(2, self->r.status);
	f = fopen(self->data, "a");
	ASSERT_NE(NULL, f);
	fprintf(f, "claim broken | only two fields\n");
	fclose(f);
	ASSERT_EQ(0, run_cmd(&self->r, NGEMU("reproduce", "test", "--data",
					     self->data, "--out", self->out)));
	EXPECT_EQ(2, self->r.status);
	EXPECT_NE(NULL, strstr(self->r.err, "paper.txt:10: cannot read"))
		TH_LOG("%s", self->r.err);
	/* every paper has its data file */
	ASSERT_EQ(0, run_cmd(&self->r, NGEMU("reproduce", "--help")));
	EXPECT_EQ(0, self->r.status);
}

TEST_HARNESS_MAIN
