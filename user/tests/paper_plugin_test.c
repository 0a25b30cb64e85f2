// SPDX-License-Identifier: GPL-2.0
/*
 * A sixth paper as a plug-in: one struct ng_paper (its systems, regime,
 * reference and table) and one ng_papers_add() call, and the command line
 * lists it, compares its systems and reproduces it. This program is that
 * command line when NG_PAPER_TEST_CLI is set (its own children, sweep's
 * points, run as /proc/self/exe and inherit it), the tests otherwise.
 */
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "ng_test.h"

#include "ngemu/cli.h"
#include "ngemu/paper.h"
#include "run_cmd.h"

static const struct ng_paper_system toy_systems[] = {
	{ "toy-slow", "the links at 16 GB/s", "replicate=none rdc-size=0 directory=off link-bw=16", NULL, false },
	{ "toy-fast", "the links at 256 GB/s", "replicate=none rdc-size=0 directory=off link-bw=256", NULL, false },
};

static const char *const toy_regime[] = {
	"--system", "carve", "--deterministic", "--mem-per-gpu", "64M",
};

static double get_time(const struct ng_paper_run *w, const struct ng_paper_run *ref)
{
	(void)ref;
	return w->r.modeled_s;
}

static double get_vs_ref(const struct ng_paper_run *w, const struct ng_paper_run *ref)
{
	(void)ref;
	return w->vs_ref;
}

static double get_remote(const struct ng_paper_run *w, const struct ng_paper_run *ref)
{
	(void)ref;
	return w->r.remote_frac;
}

static double get_link(const struct ng_paper_run *w, const struct ng_paper_run *ref)
{
	(void)ref;
	return w->r.link_frac;
}

static uint64_t get_bytes(const struct ng_paper_run *w, const struct ng_paper_run *ref)
{
	(void)ref;
	return w->r.link_bytes;
}

static double get_link_bw(const struct ng_paper_run *w, const struct ng_paper_run *ref)
{
	(void)ref;
	return w->cfg.link_bw;
}

static const char *get_name(const struct ng_paper_run *w, const struct ng_paper_run *ref,
			    char *buf, size_t len)
{
	(void)ref, (void)buf, (void)len;
	return w->sys->name;
}

static const struct ng_col c_system = { .name = "system", .kind = NG_COL_TEXT, .formats = NG_COL_ALL, .get.text = get_name };
static const struct ng_col c_verified = { .name = "verified", .kind = NG_COL_VERIFIED, .formats = NG_COL_ALL };
static const struct ng_col c_time = { .name = "modeled_s", .kind = NG_COL_TIME, .formats = NG_COL_ALL, .get.real = get_time };
static const struct ng_col c_vs = { .name = "toy_speedup", .kind = NG_COL_REAL, .formats = NG_COL_ALL, .digits = 2, .get.real = get_vs_ref };
static const struct ng_col c_bw = { .name = "toy_link_gbs", .kind = NG_COL_REAL, .formats = NG_COL_ALL, .digits = 0, .get.real = get_link_bw };
static const struct ng_col c_remote = { .name = "remote_fraction", .kind = NG_COL_FRACTION, .formats = NG_COL_ALL, .get.real = get_remote };
static const struct ng_col c_link = { .name = "link_fraction", .kind = NG_COL_FRACTION, .formats = NG_COL_DATA, .get.real = get_link };
static const struct ng_col c_bytes = { .name = "link_bytes", .kind = NG_COL_BYTES, .formats = NG_COL_DATA, .get.uint = get_bytes };

static const struct ng_col *const toy_cols[] = {
	&c_system, &c_verified, &c_time, &c_vs, &c_bw, &c_remote, &c_link, &c_bytes,
};

/* its part of every run's report: what it reads is the run's own */
static void toy_mechanisms(FILE *f, const struct ng_config *c)
{
	fprintf(f, "toy links %g GB/s; ", c->link_bw);
}

static void toy_human(FILE *f, const struct ng_config *c,
		      const struct ng_bench_result *r)
{
	(void)c;
	fprintf(f, "toy        %llu link bytes\n",
		(unsigned long long)r->link_bytes);
}

static void toy_json(struct ng_json *j, const struct ng_config *c,
		     const struct ng_bench_result *r)
{
	(void)c;
	ng_json_kv_uint(j, "toy_link_bytes", r->link_bytes);
}

static const struct ng_paper toy = {
	.name = "toy", .title = "A toy paper: faster links", .preset = "carve",
	.systems = toy_systems, .nsystems = 2,
	.regime = toy_regime, .nregime = 5,
	.defaults = "toy-slow,toy-fast", .ref = "toy-slow",
	.cols = toy_cols, .ncols = 8,
	.legend = "toy_speedup: toy-slow's modeled time / this one's",
	.report_mechanisms = toy_mechanisms,
	.report_human = toy_human,
	.report_json = toy_json,
};

/* toy without a column ngemu sweep reads: refused */
static const struct ng_paper no_bytes = {
	.name = "nobytes", .title = "t", .preset = "carve",
	.systems = toy_systems, .nsystems = 2, .defaults = "toy-slow",
	.ref = "toy-slow", .cols = toy_cols, .ncols = 7,
};

/* a system name another paper has: refused */
static const struct ng_paper_system taken[] = {
	{ "numa-gpu", "taken", "link-bw=16", NULL, false },
};

static const struct ng_paper taken_name = {
	.name = "taken_name", .title = "t", .preset = "carve",
	.systems = taken, .nsystems = 1, .defaults = "numa-gpu",
	.ref = "numa-gpu", .cols = toy_cols, .ncols = 8,
};

static const struct ng_paper *const mine[] = { &toy, NULL };

static char self_exe[512];

#define CLI(...) ((char *const[]){ self_exe, __VA_ARGS__, NULL })

FIXTURE(plugin) {
	struct cmd_result r;
	char dir[64];
};

FIXTURE_SETUP(plugin)
{
	ssize_t n = readlink("/proc/self/exe", self_exe, sizeof(self_exe) - 1);

	ASSERT_LT(0, n);
	self_exe[n] = '\0';
	ASSERT_EQ(0, setenv("NG_PAPER_TEST_CLI", "1", 1));
	snprintf(self->dir, sizeof(self->dir), "/tmp/ngemu-plugin-XXXXXX");
	ASSERT_NE(NULL, mkdtemp(self->dir));
}

FIXTURE_TEARDOWN(plugin)
{
	char cmd[128];

	snprintf(cmd, sizeof(cmd), "rm -rf '%s'", self->dir);
	if (system(cmd))
		TH_LOG("could not remove %s", self->dir);
}

TEST_F(plugin, the_cli_lists_it)
{
	ASSERT_EQ(0, run_cmd(&self->r, CLI("bench", "--help")));
	ASSERT_EQ(0, self->r.status) TH_LOG("%s", self->r.err);
	EXPECT_NE(NULL, strstr(self->r.out, "toy: A toy paper: faster links"));
	EXPECT_NE(NULL, strstr(self->r.out, "systems: toy-slow, toy-fast"));
	ASSERT_EQ(0, run_cmd(&self->r, CLI("reproduce", "--help")));
	ASSERT_EQ(0, self->r.status) TH_LOG("%s", self->r.err);
	EXPECT_NE(NULL, strstr(self->r.out, "toy       A toy paper"));
	/* and names its systems when one is unknown */
	ASSERT_EQ(0, run_cmd(&self->r, CLI("bench", "--compare", "stream-triad",
					   "--systems", "toy-medium")));
	EXPECT_EQ(2, self->r.status);
	EXPECT_NE(NULL, strstr(self->r.err, "toy: toy-slow, toy-fast"));
}

TEST_F(plugin, the_cli_compares_its_systems_in_its_table)
{
	double slow = 0, fast = 0, sp = 0;
	char *row;

	ASSERT_EQ(0, run_cmd(&self->r, CLI("bench", "--compare", "remote-stream",
					   "--systems", "toy-slow,toy-fast",
					   "--size", "1M", "--csv")));
	ASSERT_EQ(0, self->r.status) TH_LOG("%s", self->r.err);
	ASSERT_NE(NULL, strstr(self->r.out,
			       "workload,sweep,system,verified,modeled_s,toy_speedup,toy_link_gbs,remote_fraction,link_fraction,link_bytes\n"))
		TH_LOG("%s", self->r.out);
	row = strstr(self->r.out, "remote-stream,,toy-slow,1,");
	ASSERT_NE(NULL, row);
	ASSERT_EQ(1, sscanf(row, "remote-stream,,toy-slow,1,%lf", &slow));
	row = strstr(self->r.out, "remote-stream,,toy-fast,1,");
	ASSERT_NE(NULL, row);
	ASSERT_EQ(2, sscanf(row, "remote-stream,,toy-fast,1,%lf,%lf", &fast, &sp));
	/* a stream over the links: 16x the bandwidth is faster, as its ratio says */
	EXPECT_LT(fast, slow);
	EXPECT_GT(0.01 * sp, fabs(slow / fast - sp));
	ASSERT_NE(NULL, strstr(row, ",256,"));
	/* the same names as JSON keys, and for people */
	ASSERT_EQ(0, run_cmd(&self->r, CLI("bench", "--compare", "remote-stream",
					   "--systems", "toy-fast", "--size", "1M", "--json")));
	ASSERT_EQ(0, self->r.status) TH_LOG("%s", self->r.err);
	EXPECT_NE(NULL, strstr(self->r.out, "\"toy_link_gbs\": 256"));
	ASSERT_EQ(0, run_cmd(&self->r, CLI("bench", "--compare", "remote-stream",
					   "--system", "carve", "--systems", "toy-slow",
					   "--size", "1M")));
	ASSERT_EQ(0, self->r.status) TH_LOG("%s", self->r.err);
	EXPECT_NE(NULL, strstr(self->r.out, "toy_speedup: toy-slow's modeled time"));
	EXPECT_NE(NULL, strstr(self->r.out, "toy_speedup toy_link_gbs remote_fraction"));
}

TEST_F(plugin, every_run_reports_its_part)
{
	unsigned long long human, json;
	const char *p;

	ASSERT_EQ(0, run_cmd(&self->r, CLI("bench", "stream-triad",
					   "--placement", "fgp", "--no-native",
					   "--link-bw", "48", "--size", "256K",
					   "--iters", "1", "--deterministic")));
	ASSERT_EQ(0, self->r.status) TH_LOG("%s", self->r.err);
	EXPECT_NE(NULL, strstr(self->r.out, "toy links 48 GB/s; "));
	p = strstr(self->r.out, "\ntoy        ");
	ASSERT_NE(NULL, p) TH_LOG("%s", self->r.out);
	ASSERT_EQ(1, sscanf(p, "\ntoy %llu link bytes", &human));
	EXPECT_LT(0, human);
	ASSERT_EQ(0, run_cmd(&self->r, CLI("bench", "stream-triad",
					   "--placement", "fgp", "--no-native",
					   "--link-bw", "48", "--size", "256K",
					   "--iters", "1", "--deterministic",
					   "--json")));
	ASSERT_EQ(0, self->r.status) TH_LOG("%s", self->r.err);
	p = strstr(self->r.out, "\"toy_link_bytes\": ");
	ASSERT_NE(NULL, p) TH_LOG("%s", self->r.out);
	ASSERT_EQ(1, sscanf(p, "\"toy_link_bytes\": %llu", &json));
	/* the same run, deterministic: the same bytes, as the run's own */
	EXPECT_EQ(human, json);
	p = strstr(self->r.out, "\"link_bytes\": ");
	ASSERT_NE(NULL, p);
	ASSERT_EQ(1, sscanf(p, "\"link_bytes\": %llu", &json));
	EXPECT_EQ(human, json);
}

TEST_F(plugin, the_cli_reproduces_it)
{
	char data[128], out[128], cmd[512];
	FILE *f;

	snprintf(data, sizeof(data), "%s/toy.txt", self->dir);
	snprintf(out, sizeof(out), "%s/out", self->dir);
	f = fopen(data, "w");
	ASSERT_NE(NULL, f);
	fprintf(f, "title A toy paper\npreset carve\nreference toy-slow\n"
		"workloads remote-stream\nsystems toy-slow,toy-fast\n"
		"claim faster | sec. 1 | speedup gmean | toy-fast | 2 | link.rx_bytes\n");
	fclose(f);
	ASSERT_EQ(0, run_cmd(&self->r, CLI("reproduce", "toy", "--data", data,
					   "--out", out, "--size", "1M")))
		TH_LOG("%s%s", self->r.out, self->r.err);
	ASSERT_EQ(0, self->r.status) TH_LOG("%s", self->r.err);
	snprintf(cmd, sizeof(cmd), "grep -q '^faster,' '%s/claims.csv'", out);
	EXPECT_EQ(0, system(cmd));
	snprintf(cmd, sizeof(cmd), "grep -q 'faster.*shown' '%s/claims.csv'", out);
	EXPECT_EQ(0, system(cmd));
}

TEST(a_paper_without_what_sweep_reads_or_with_a_taken_name_is_refused)
{
	const struct ng_paper *const bad1[] = { &no_bytes, NULL };
	const struct ng_paper *const bad2[] = { &taken_name, NULL };

	EXPECT_EQ(-EINVAL, ng_papers_add(bad1));
	EXPECT_EQ(-EINVAL, ng_papers_add(bad2));
	EXPECT_EQ(NULL, ng_paper_find("nobytes"));
	EXPECT_EQ(0, ng_papers_add(mine));
	EXPECT_EQ(&toy, ng_paper_find("toy"));
	EXPECT_EQ(&toy, ng_paper_at(5));
}

int main(int argc, char **argv)
{
	if (getenv("NG_PAPER_TEST_CLI")) {
		if (ng_papers_add(mine))
			return 1;
		return ng_main(argc, argv, NULL);
	}
	return test_harness_run(argc, argv);
}
