// SPDX-License-Identifier: GPL-2.0
/*
 * ngemu reproduce as a user meets it: a paper's data file (here a small
 * one of the test's own) run as a sweep, each claim beside ngemu's value,
 * a claim whose direction ngemu does not show marked "not shown" (and the
 * run's exit 3: every run verified, ngemu differs from the paper; not the
 * 1 of a failed run), the claims' CSV and JSON agreeing, the report with its
 * plot, a table and a plot per figure (ngemu's values beside the
 * paper's, the same ratios as the claims), and bad input as usage errors. The papers' own files run in
 * their own lanes (make reproduce).
 */
#include <math.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include "ng_test.h"

#include "rep_csv.h"
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
		"claim fewer-bytes | Fig. 1 | traffic amean | coalesce | 0.3 | link.rx_bytes\n"
		"claim more-bytes | Fig. 2 | traffic amean | coalesce | 3 | link.rx_bytes\n"
		"claim on-spmv | Fig. 3 | traffic amean | coalesce | 0.4 | mshr.fine_units | spmv\n"
		"figure f1 | Fig. 4: bytes | traffic amean | coalesce\n"
		"paper f1 | mean | coalesce | 0.2 | sec. 1\n"
		"note f1 | bfs is cache-friendly here\n"
		"sweep s1 | Fig. 5: bytes by grain | traffic amean | coalesce | xfer-gran=4,32 | spmv\n"
		"paper s1 | spmv | 4 | 0.5 | sec. 2\n");
	fclose(f);
}

FIXTURE_TEARDOWN(rep)
{
	char cmd[128];

	snprintf(cmd, sizeof(cmd), "rm -rf '%s'", self->dir);
	if (system(cmd))
		TH_LOG("could not remove %s", self->dir);
}

TEST_F(rep, claims_beside_ngemu_and_not_shown_marked)
{
	char *csv, *js, *md, *svg;

	ASSERT_EQ(0, run_cmd(&self->r, NGEMU("reproduce", "test", "--data",
					     self->data, "--out", self->out,
					     "--size", "512K", "--iters", "1")));
	/*
	 * coalescing moves far fewer bytes on spmv and bfs: "more-bytes" is
	 * not shown (traffic, not speed-up: how much faster coalescing is
	 * here is within a few % of 1, a direction any model change flips).
	 * Every point has its result: exit 3, ngemu differs, not a failure.
	 */
	EXPECT_EQ(3, self->r.status) TH_LOG("%s", self->r.err);
	EXPECT_NE(NULL, strstr(self->r.out, "2 of 3 claims in the paper's direction, 0 points without a result"))
		TH_LOG("%s", self->r.out);
	csv = file(self->out, "claims.csv");
	js = file(self->out, "claims.json");
	md = file(self->out, "report.md");
	svg = file(self->out, "plot.svg");
	EXPECT_NE(NULL, strstr(csv, "fewer-bytes,\"Fig. 1\",traffic,coalesce,baseline,\"all\",0.3,"))
		TH_LOG("%s", csv);
	EXPECT_NE(NULL, strstr(csv, ",not shown,"));
	EXPECT_NE(NULL, strstr(csv, "more-bytes,")) TH_LOG("%s", csv);
	EXPECT_NE(NULL, strstr(strstr(csv, "more-bytes,"), "not shown"));
	EXPECT_NE(NULL, strstr(csv, "on-spmv,\"Fig. 3\",traffic,coalesce,baseline,\"spmv\",0.4,"));
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
	/* one table: every CSV column, by its name, in the markdown and the JSON */
	for (const char *h = csv; *h && *h != '\n'; h += strcspn(h, ",\n") + (h[strcspn(h, ",\n")] == ',')) {
		char name[48], pat[64];

		snprintf(name, sizeof(name), "%.*s", (int)strcspn(h, ",\n"), h);
		snprintf(pat, sizeof(pat), "| %s |", name);
		EXPECT_NE(NULL, strstr(md, pat)) TH_LOG("%s not in report.md", name);
		snprintf(pat, sizeof(pat), "\"%s\": ", name);
		EXPECT_NE(NULL, strstr(strstr(js, "\"claims\""), pat))
			TH_LOG("%s not in claims.json", name);
	}
	EXPECT_NE(NULL, strstr(md, "| more-bytes | Fig. 2 | traffic | coalesce | baseline | all | 3 |"))
		TH_LOG("%s", md);
	EXPECT_NE(NULL, strstr(md, "![speed-up over baseline per workload](plot.svg)"));
	EXPECT_NE(NULL, strstr(md, "Sizes: --size 512K.")) TH_LOG("%s", md);
	EXPECT_NE(NULL, strstr(svg, "coalesce")) TH_LOG("no plot: is gnuplot installed?");
	free(csv);
	free(js);
	free(md);
	free(svg);
}

TEST_F(rep, each_figure_has_its_table_and_plot)
{
	char *claims, *figs, *md, *svg1, *svg2;
	double mean, spmv, claim_mean = 0, claim_spmv = 0, g4, g32;

	ASSERT_EQ(0, run_cmd(&self->r, NGEMU("reproduce", "test", "--data",
					     self->data, "--out", self->out,
					     "--size", "512K", "--iters", "1")));
	EXPECT_EQ(3, self->r.status) TH_LOG("%s", self->r.err);
	claims = file(self->out, "claims.csv");
	figs = file(self->out, "figures.csv");
	md = file(self->out, "report.md");
	svg1 = file(self->out, "figures/f1.svg");
	svg2 = file(self->out, "figures/s1.svg");
	/* the figure's mean and spmv bars are the claims' values */
	sscanf(strstr(claims, "fewer-bytes,"), "%*[^,],%*[^,],%*[^,],%*[^,],%*[^,],%*[^,],%*[^,],%lf",
	       &claim_mean);
	sscanf(strstr(claims, "on-spmv,"), "%*[^,],%*[^,],%*[^,],%*[^,],%*[^,],%*[^,],%*[^,],%lf",
	       &claim_spmv);
	mean = fig_value(figs, "f1", "mean", "coalesce");
	spmv = fig_value(figs, "f1", "spmv", "coalesce");
	EXPECT_LT(0, mean) TH_LOG("%s", figs);
	EXPECT_GE(1e-5 * mean, mean > claim_mean ? mean - claim_mean : claim_mean - mean)
		TH_LOG("figure %g, claim %g", mean, claim_mean);
	EXPECT_GE(1e-5 * spmv, spmv > claim_spmv ? spmv - claim_spmv : claim_spmv - spmv)
		TH_LOG("figure %g, claim %g", spmv, claim_spmv);
	/* the paper's value beside ngemu's, with the ratio */
	EXPECT_NE(NULL, strstr(figs, "f1,\"Fig. 4: bytes\",traffic,mean,coalesce,"));
	EXPECT_NE(NULL, strstr(md, "### f1: Fig. 4: bytes")) TH_LOG("%s", md);
	EXPECT_NE(NULL, strstr(md, "(paper 0.2, ")) TH_LOG("%s", md);
	EXPECT_NE(NULL, strstr(md, "Where ngemu differs: bfs is cache-friendly here"));
	EXPECT_NE(NULL, strstr(md, "![s1](figures/s1.svg)"));
	/* over a key: fetching 32 B per word's request moves more bytes */
	g4 = fig_value(figs, "s1", "4", "spmv");
	g32 = fig_value(figs, "s1", "32", "spmv");
	EXPECT_LT(0, g4) TH_LOG("%s", figs);
	EXPECT_LT(g4, g32);
	EXPECT_NE(NULL, strstr(md, "(paper 0.5, "));
	/* each plot names its series: the systems, the paper's */
	EXPECT_NE(NULL, strstr(svg1, "coalesce")) TH_LOG("no plot: is gnuplot installed?");
	EXPECT_NE(NULL, strstr(svg1, "paper:coalesce"));
	EXPECT_NE(NULL, strstr(svg2, "spmv"));
	EXPECT_NE(NULL, strstr(svg2, "mean"));
	free(claims);
	free(figs);
	free(md);
	free(svg1);
	free(svg2);
}

/*
 * Run a one-claim experiment with @lines added; ngemu's exit status, after
 * checking its message has @err.
 */
static int refused(FIXTURE_DATA(rep) *self, const char *lines, const char *err)
{
	FILE *f = fopen(self->data, "w");

	if (!f)
		return -1;
	fprintf(f, "preset dualopt\nreference baseline\nworkloads spmv\n"
		"systems baseline,coalesce\nclaim c | s | speedup gmean | coalesce | 2 | x\n%s",
		lines);
	fclose(f);
	if (run_cmd(&self->r, NGEMU("reproduce", "test", "--data", self->data,
				    "--out", self->out)) ||
	    !strstr(self->r.err, err)) {
		fprintf(stderr, "# wanted '%s', got: %s\n", err, self->r.err);
		return -1;
	}
	return self->r.status;
}

/* A cell whose run did not verify is marked, in the table and the CSV. */
TEST_F(rep, an_unverified_run_is_marked)
{
	char *figs, *md;
	FILE *f = fopen(self->data, "w");

	ASSERT_NE(NULL, f);
	/* no coherence: rwshare reads what another GPU wrote, stale */
	fprintf(f, "preset carve\nreference numa-gpu\nworkloads rwshare\n"
		"systems numa-gpu,carve-none,carve-hwc\n"
		"claim c | s | speedup gmean | carve-hwc | 2 | x\n"
		"figure f | s | speedup gmean | carve-none,carve-hwc\n");
	fclose(f);
	ASSERT_EQ(0, run_cmd(&self->r, NGEMU("reproduce", "test", "--data",
					     self->data, "--out", self->out)));
	figs = file(self->out, "figures.csv");
	md = file(self->out, "report.md");
	EXPECT_NE(NULL, strstr(figs, ",rwshare,carve-none,")) TH_LOG("%s", figs);
	EXPECT_NE(NULL, strstr(strstr(figs, ",rwshare,carve-none,"), ",false\n"));
	EXPECT_NE(NULL, strstr(strstr(figs, ",rwshare,carve-hwc,"), ",true\n"));
	EXPECT_NE(NULL, strstr(md, "* |")) TH_LOG("%s", md);
	EXPECT_NE(NULL, strstr(md, "a run behind it did not verify its result"));
	free(figs);
	free(md);
}

/*
 * Each claim's mean is the one it names, over its workloads, of the runs
 * that verified: checked against the ratios computed here from the runs'
 * own results.
 */
TEST_F(rep, a_claims_mean_is_the_one_it_names_over_verified_runs)
{
	/* repl-ro: ~0.86x on rwshare, ~0.30x on randaccess: the means differ */
	static const char *const wl[2] = { "rwshare", "randaccess" };
	double am = 0, gm = 1, st[2] = { 0 }, hm = 0, none = 0, v;
	char *res, *claims;
	unsigned int used;
	FILE *f = fopen(self->data, "w");

	ASSERT_NE(NULL, f);
	/* carve-none reads stale data on rwshare: it does not verify */
	fprintf(f, "preset carve\nreference numa-gpu\nworkloads rwshare,randaccess,spmv\n"
		"systems numa-gpu,carve-none,repl-ro\n"
		"claim am | s | speedup amean | repl-ro | 2 | x | rwshare,randaccess\n"
		"claim gm | s | speedup gmean | repl-ro | 2 | x | rwshare,randaccess\n"
		"claim st | s | speedup sums | repl-ro | 2 | x | rwshare,randaccess\n"
		"claim hm | s | traffic hmean | repl-ro | 0.5 | x | rwshare,randaccess\n"
		"claim all | s | speedup amean | carve-none | 2 | x\n");
	fclose(f);
	/* rwshare's stale reads need a kernel after the first: default iters */
	ASSERT_EQ(0, run_cmd(&self->r, NGEMU("reproduce", "test", "--data",
					     self->data, "--out", self->out)));
	res = file(self->out, "results.csv");
	claims = file(self->out, "claims.csv");
	EXPECT_NE(NULL, strstr(res, ",rwshare,carve-none,false,")) TH_LOG("%s", res);
	for (unsigned int i = 0; i < 2; i++) {
		double t0 = result(res, wl[i], "numa-gpu", 4);
		double t1 = result(res, wl[i], "repl-ro", 4);
		double b0 = result(res, wl[i], "numa-gpu", 6);
		double b1 = result(res, wl[i], "repl-ro", 6);

		ASSERT_LT(0, t0 * t1 * b0 * b1) TH_LOG("%s", res);
		am += t0 / t1 / 2;
		gm *= t0 / t1;
		st[0] += t0;
		st[1] += t1;
		/* the mean of the reductions (reference / system), inverted */
		hm += b0 / b1 / 2;
		/* carve-none's own mean: randaccess and spmv, rwshare left out */
		none += result(res, i ? "spmv" : "randaccess", "numa-gpu", 4) /
			result(res, i ? "spmv" : "randaccess", "carve-none", 4) / 2;
	}
	gm = sqrt(gm);
	v = claim_value(claims, "am", &used);
	EXPECT_GE(1e-5 * am, fabs(am - v)) TH_LOG("%s", claims);
	EXPECT_EQ(2, used);
	v = claim_value(claims, "gm", &used);
	EXPECT_GE(1e-5 * gm, fabs(gm - v));
	v = claim_value(claims, "st", &used);
	EXPECT_GE(1e-5 * v, fabs(st[0] / st[1] - v));
	v = claim_value(claims, "hm", &used);
	EXPECT_GE(1e-5 * v, fabs(1 / hm - v));
	/*
	 * the arithmetic and geometric means differ (0.58 against 0.51),
	 * thousands of times the tolerance: the test tells them apart
	 */
	EXPECT_LT(0.05, am - gm);
	/* rwshare did not verify under carve-none: left out, named */
	v = claim_value(claims, "all", &used);
	EXPECT_GE(1e-5 * none, fabs(none - v)) TH_LOG("%s", claims);
	EXPECT_EQ(2, used);
	EXPECT_NE(NULL, strstr(claims, ",amean,2,3,\"rwshare\",")) TH_LOG("%s", claims);
	free(res);
	free(claims);
}

/*
 * REC's counts: l2-miss and unnec-inv are the arithmetic means of the
 * systems' counts over the reference's (results.csv's l2_misses, cold
 * ones excluded, and inv_evict_hits), and a ratio of 0 (REC's directory
 * sends no eviction to a line a sharer holds) is a value: shown below 1.
 * A preset whose runs have no such counts gives a claim no value.
 */
/*
 * DualOpt's Fig. 15 metric: every request's average latency, the
 * system's over the reference's (results.csv's mem_latency_ns, column 10).
 */
TEST_F(rep, latency_is_a_claim)
{
	static const char *const wl[2] = { "atax", "mt" };
	double hm = 0, v;
	char *res, *claims;
	unsigned int used;
	FILE *f = fopen(self->data, "w");

	ASSERT_NE(NULL, f);
	fprintf(f, "preset dualopt\nreference baseline\nworkloads atax,mt\n"
		"systems baseline,fine\n"
		"claim lat | s | latency hmean | fine | 0.5 | core.mem_ticks\n");
	fclose(f);
	ASSERT_EQ(0, run_cmd(&self->r, NGEMU("reproduce", "test", "--data",
					     self->data, "--out", self->out,
					     "--size", "64K")));
	res = file(self->out, "results.csv");
	claims = file(self->out, "claims.csv");
	ASSERT_NE(NULL, strstr(res, ",inv_evict_hits,mem_latency_ns,footprint,repl_bytes,page_blocks\n"))
		TH_LOG("%s", res);
	for (unsigned int i = 0; i < 2; i++) {
		double l0 = result(res, wl[i], "baseline", 10);
		double l1 = result(res, wl[i], "fine", 10);

		ASSERT_LT(0, l0 * l1) TH_LOG("%s", res);
		hm += l0 / l1 / 2;
	}
	v = claim_value(claims, "lat", &used);
	EXPECT_EQ(2, used);
	EXPECT_GE(1e-5 * v, fabs(1 / hm - v)) TH_LOG("%s", claims);
}

TEST_F(rep, rec_counts_are_claims)
{
	static const char *const wl[2] = { "gemm", "c2d" };
	double miss = 0, unnec = 0, n = 0, v;
	char *res, *claims;
	unsigned int used;
	FILE *f = fopen(self->data, "w");

	ASSERT_NE(NULL, f);
	fprintf(f, "preset rec\nreference dir\nworkloads gemm,c2d\nsystems dir,rec\n"
		"claim miss | s | l2-miss amean | rec | 0.465 | l2.misses\n"
		"claim unnec | s | unnec-inv amean | rec | 0.156 | dir.inv_evict_hits\n");
	fclose(f);
	run_cmd(&self->r, NGEMU("reproduce", "test", "--data", self->data,
				"--out", self->out, "--size", "512K"));
	res = file(self->out, "results.csv");
	claims = file(self->out, "claims.csv");
	ASSERT_NE(NULL, strstr(res, ",link_fraction,l2_misses,inv_evict_hits,mem_latency_ns,footprint,repl_bytes,page_blocks\n"))
		TH_LOG("%s", res);
	for (unsigned int i = 0; i < 2; i++) {
		double m0 = result(res, wl[i], "dir", 8);
		double m1 = result(res, wl[i], "rec", 8);
		double u0 = result(res, wl[i], "dir", 9);
		double u1 = result(res, wl[i], "rec", 9);

		ASSERT_LT(0, m0 * u0) TH_LOG("%s", res);
		ASSERT_LE(0, m1 * u1) TH_LOG("%s", res);
		miss += m1 / m0;
		unnec += u1 / u0;
		n++;
	}
	v = claim_value(claims, "miss", &used);
	EXPECT_GE(1e-5 * v, fabs(miss / n - v)) TH_LOG("%s", claims);
	EXPECT_EQ(2, used);
	v = claim_value(claims, "unnec", &used);
	EXPECT_GE(1e-5, fabs(unnec / n - v)) TH_LOG("%s", claims);
	EXPECT_EQ(2, used);
	if (v == 0)
		EXPECT_NE(NULL, strstr(claims, ",0.156,0,0,shown,")) TH_LOG("%s", claims);
	free(res);
	free(claims);

	/* CARVE's runs count neither: no value, no direction */
	f = fopen(self->data, "w");
	ASSERT_NE(NULL, f);
	fprintf(f, "preset carve\nreference numa-gpu\nworkloads stream-triad\nsystems numa-gpu,carve-hwc\n"
		"claim miss | s | l2-miss amean | carve-hwc | 0.5 | x\n");
	fclose(f);
	run_cmd(&self->r, NGEMU("reproduce", "test", "--data", self->data,
				"--out", self->out, "--size", "512K", "--iters", "1"));
	claims = file(self->out, "claims.csv");
	used = 1;
	claim_value(claims, "miss", &used);
	EXPECT_EQ(0, used) TH_LOG("%s", claims);
	EXPECT_NE(NULL, strstr(claims, ",not shown,amean,0,1,\"stream-triad\","))
		TH_LOG("%s", claims);
	free(claims);
}

/*
 * reproduce all: the five papers in turn, each into its folder, and one
 * table of every claim at the end (here each paper's data file is a
 * one-claim file of the test's own, in a --data folder).
 */
TEST_F(rep, all_ends_with_one_table_of_every_claim)
{
	static const char *const files[5][2] = {
		{ "carve", "preset carve\nreference numa-gpu\nworkloads spmv\nsystems numa-gpu,carve-hwc\n"
			   "claim c-hwc | s | speedup gmean | carve-hwc | 2 | rdc.hits\n" },
		{ "rec", "preset rec\nreference dir\nworkloads st\nsystems dir,rec\n"
			 "claim r-rec | s | speedup gmean | rec | 1.3 | dir.evictions\n" },
		{ "dualopt", "preset dualopt\nreference baseline\nworkloads spmv\nsystems baseline,coalesce\n"
			     "claim d-bytes | s | traffic hmean | coalesce | 3 | codec.packets\n" },
		{ "scalegpu", "preset scalegpu\nreference full\nworkloads vectoradd\nsystems full,scalegpu\n"
			      "claim s-scale | s | speedup gmean | scalegpu | 1.08 | link.host_bytes\n" },
		{ "coda", "preset coda\nreference fgp\nworkloads km\nsystems fgp,coda-uncapped\n"
			  "claim k-coda | s | remote amean | coda-uncapped | 0.6 | core.remote\n" },
	};
	char data[128], path[192], *sum, *csv;
	unsigned int rows = 0;

	snprintf(data, sizeof(data), "%s/data", self->dir);
	ASSERT_EQ(0, mkdir(data, 0755));
	for (int i = 0; i < 5; i++) {
		FILE *f;

		snprintf(path, sizeof(path), "%s/%s.txt", data, files[i][0]);
		f = fopen(path, "w");
		ASSERT_NE(NULL, f);
		fputs(files[i][1], f);
		fclose(f);
	}
	ASSERT_EQ(0, run_cmd(&self->r, NGEMU("reproduce", "all", "--data", data,
					     "--out", self->out, "--size", "256K",
					     "--iters", "1")));
	/* d-bytes: coalescing moves fewer bytes, not 3x more: not shown */
	EXPECT_EQ(3, self->r.status) TH_LOG("%s", self->r.err);
	EXPECT_NE(NULL, strstr(self->r.out, "of 5 claims in the paper's direction"))
		TH_LOG("%s", self->r.out);
	EXPECT_NE(NULL, strstr(self->r.out, "d-bytes")) TH_LOG("%s", self->r.out);
	snprintf(path, sizeof(path), "%s/reproduce-coda", self->out);
	csv = file(path, "claims.csv");
	sum = file(self->out, "reproduce-summary.csv");
	EXPECT_NE(NULL, strstr(sum, "dualopt,d-bytes,\"s\",traffic,coalesce,baseline,\"all\",3,"))
		TH_LOG("%s", sum);
	/* each row's ngemu value is its paper's own report's */
	for (int i = 0; i < 5; i++) {
		char *own, id[32], pat[48];
		const char *a, *b;

		snprintf(path, sizeof(path), "%s/reproduce-%s", self->out,
			 files[i][0]);
		own = file(path, "claims.csv");
		ASSERT_NE(NULL, own);
		sscanf(strstr(files[i][1], "claim ") + 6, "%31s", id);
		/* the summary's row is the paper's own row, its name in front */
		snprintf(pat, sizeof(pat), "\n%s,", id);
		a = strstr(own, pat);
		snprintf(pat, sizeof(pat), "\n%s,%s,", files[i][0], id);
		b = strstr(sum, pat);
		ASSERT_NE(NULL, a) TH_LOG("%s", own);
		ASSERT_NE(NULL, b) TH_LOG("%s", sum);
		b += strlen(files[i][0]) + 1;
		EXPECT_EQ(0, strncmp(a + 1, b + 1, strcspn(a + 1, "\n") + 1))
			TH_LOG("%s: %.60s against %.60s", id, a + 1, b + 1);
		rows++;
		free(own);
	}
	EXPECT_EQ(5, rows);
	free(csv);
	free(sum);
	sum = file(self->out, "reproduce-summary.md");
	EXPECT_NE(NULL, strstr(sum, "| [coda](reproduce-coda/report.md) | k-coda | "))
		TH_LOG("%s", sum);
	free(sum);
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
	EXPECT_NE(NULL, strstr(self->r.err, "paper.txt:15: cannot read"))
		TH_LOG("%s", self->r.err);
	/* the line's form, not another paper's file, tells how to write it */
	EXPECT_NE(NULL, strstr(self->r.err, "claim ID | SOURCE | METRIC"))
		TH_LOG("%s", self->r.err);
	EXPECT_EQ(NULL, strstr(self->r.err, "dualopt.txt")) TH_LOG("%s", self->r.err);
	/* a figure of a system the experiment does not run */
	EXPECT_EQ(2, refused(self, "figure f | s | speedup gmean | rdma-cache\n",
			     "figure f: 'rdma-cache' is not in the experiment's"));
	/* a paper value of no figure, a note to no figure */
	EXPECT_EQ(2, refused(self, "figure f | s | speedup gmean | coalesce\n"
			     "paper g | mean | coalesce | 2 | w\n",
			     "paper g: no such figure"));
	EXPECT_EQ(2, refused(self, "note g | why\n", "cannot read this 'note' line"));
	/* a claim of a system the experiment does not run */
	EXPECT_EQ(2, refused(self, "claim d | s | speedup gmean | rdma-cache | 2 | x\n",
			     "claim d: 'rdma-cache' is not in the experiment's"));
	/* its report needs every result: no Slurm here */
	ASSERT_EQ(0, run_cmd(&self->r, NGEMU("reproduce", "test", "--data", self->data,
					     "--slurm")));
	EXPECT_EQ(2, self->r.status);
	EXPECT_NE(NULL, strstr(self->r.err, "'--slurm' is not a reproduce option"));
	/* a claim or a figure that does not say how it averages */
	EXPECT_EQ(2, refused(self, "claim d | s | speedup | coalesce | 2 | x\n",
			     "METRIC MEAN"));
	EXPECT_EQ(2, refused(self, "figure f | s | speedup median | coalesce\n",
			     "gmean, amean, hmean or sums"));
	/* a sweep over a key ngemu does not have */
	EXPECT_EQ(2, refused(self, "sweep s | s | speedup gmean | coalesce | no-such-key=1,2\n",
			     "cannot read this 'sweep' line"));
	/* a line longer than the reader's buffer, not read as two */
	{
		char lng[1400];

		memset(lng, 'x', sizeof(lng));
		memcpy(lng, "note c | ", 9);
		memcpy(lng + sizeof(lng) - 2, "\n", 2);
		EXPECT_EQ(2, refused(self, lng, "paper.txt:6: line longer than 1022 bytes"));
	}
	/* every paper has its data file */
	ASSERT_EQ(0, run_cmd(&self->r, NGEMU("reproduce", "--help")));
	EXPECT_EQ(0, self->r.status);
}

/*
 * SIGTERM (Slurm at a job's time limit) or SIGINT while reproduce's sweep
 * runs: its runs ended, their files removed, a line saying how to resume,
 * 143 or 130.
 */
TEST_F(rep, an_interrupt_stops_it_cleanly)
{
	static const int sigs[] = { SIGTERM, SIGINT };

	for (int k = 0; k < 2; k++) {
		/* the paper last: "2" is --jobs' value, not the paper */
		char *const *argv = NGEMU("reproduce", "--data", self->data,
					  "--out", self->out, "--jobs", "2",
					  "--iters", "100000", "test");
		char errp[128], err[4096] = "";
		int st, seen = 0;
		FILE *f;
		pid_t pid;

		snprintf(errp, sizeof(errp), "%s/err", self->dir);
		pid = fork();
		ASSERT_LE(0, pid);
		if (!pid) {
			if (!freopen("/dev/null", "w", stdout) ||
			    !freopen(errp, "w", stderr))
				_exit(126);
			execv(argv[0], argv);
			_exit(127);
		}
		/* a run under way: its temporaries are there (60 s at most) */
		for (int i = 0; i < 30000 && !seen; i++) {
			seen = tmp_files(self->out);
			if (!seen)
				usleep(2000);
		}
		EXPECT_LT(0, seen);
		kill(pid, sigs[k]);
		ASSERT_EQ(pid, waitpid(pid, &st, 0));
		ASSERT_TRUE(WIFEXITED(st)) TH_LOG("killed by signal %d", WTERMSIG(st));
		EXPECT_EQ(128 + sigs[k], WEXITSTATUS(st));
		f = fopen(errp, "r");
		ASSERT_NE(NULL, f);
		err[fread(err, 1, sizeof(err) - 1, f)] = '\0';
		fclose(f);
		EXPECT_NE(NULL, strstr(err, sigs[k] == SIGINT ? "stopped by SIGINT"
							       : "stopped by SIGTERM"))
			TH_LOG("%s", err);
		EXPECT_EQ(0, tmp_files(self->out));
	}
}

TEST_HARNESS_MAIN
