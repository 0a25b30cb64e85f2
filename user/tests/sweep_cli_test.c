// SPDX-License-Identifier: GPL-2.0
/*
 * ngemu sweep as a user meets it: a point's hash stays with its
 * configuration and changes with any key; a repeated sweep runs nothing;
 * a sweep killed in the middle runs only its missing points when started
 * again; --jobs does not change the results; the CSV and the JSON agree;
 * bad options are usage errors.
 */
#include <dirent.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>

#include "ng_test.h"

#include "run_cmd.h"

#define NGEMU(...) ((char *const[]){ (char *)ngemu_path(), __VA_ARGS__, NULL })

FIXTURE(sweep) {
	struct cmd_result r;
	char dir[64];
};

FIXTURE_SETUP(sweep)
{
	char *abs = realpath(ngemu_path(), NULL);

	/* the tests run in a folder of their own: ngemu by its full path */
	ASSERT_NE(NULL, abs);
	setenv("NGEMU", abs, 1);
	free(abs);
	snprintf(self->dir, sizeof(self->dir), "/tmp/ngemu-sweep-XXXXXX");
	ASSERT_NE(NULL, mkdtemp(self->dir));
}

FIXTURE_TEARDOWN(sweep)
{
	char cmd[128];

	snprintf(cmd, sizeof(cmd), "rm -rf '%s'", self->dir);
	if (system(cmd))
		TH_LOG("could not remove %s", self->dir);
}

/* Point files (*.json) in DIR/OUT/points. */
static int points(const char *dir, const char *out)
{
	char path[256];
	struct dirent *e;
	int n = 0;
	DIR *d;

	snprintf(path, sizeof(path), "%s/%s/points", dir, out);
	d = opendir(path);
	if (!d)
		return 0;
	while ((e = readdir(d))) {
		size_t l = strlen(e->d_name);

		n += l > 5 && !strcmp(e->d_name + l - 5, ".json");
	}
	closedir(d);
	return n;
}

static char *file(const char *dir, const char *out, const char *name)
{
	char path[256];
	char *t = calloc(1, 1 << 16);
	FILE *f;

	snprintf(path, sizeof(path), "%s/%s/%s", dir, out, name);
	f = fopen(path, "r");
	if (f && t) {
		size_t n = fread(t, 1, (1 << 16) - 1, f);

		t[n] = '\0';
	}
	if (f)
		fclose(f);
	return t;
}

#define SWEEP(out, ...)							\
	NGEMU("sweep", "--out", out, "--system", "dualopt", "--size", "256K", \
	      "--iters", "1", __VA_ARGS__)

TEST_F(sweep, a_point_keeps_its_hash_and_any_key_changes_it)
{
	char *a, *b, *c;

	ASSERT_EQ(0, chdir(self->dir));
	ASSERT_EQ(0, run_cmd(&self->r, SWEEP("a", "--workloads", "stream-triad",
					     "--grid", "link-bw=32,64")));
	EXPECT_EQ(0, self->r.status) TH_LOG("%s", self->r.err);
	EXPECT_EQ(2, points(self->dir, "a"));
	/* the same sweep elsewhere: the same hashes */
	ASSERT_EQ(0, run_cmd(&self->r, SWEEP("b", "--workloads", "stream-triad",
					     "--grid", "link-bw=64,32")));
	a = file(self->dir, "a", "results.csv");
	b = file(self->dir, "b", "results.csv");
	ASSERT_NE(NULL, a);
	ASSERT_NE(NULL, b);
	for (char *l = strchr(a, '\n'); l && l[1]; l = strchr(l + 1, '\n')) {
		char hash[17];

		ASSERT_EQ(1, sscanf(l + 1, "%16[0-9a-f]", hash));
		EXPECT_NE(NULL, strstr(b, hash)) TH_LOG("%s\n%s", a, b);
	}
	/* another link speed, another size: other hashes */
	ASSERT_EQ(0, run_cmd(&self->r, SWEEP("a", "--workloads", "stream-triad",
					     "--grid", "link-bw=48")));
	EXPECT_EQ(3, points(self->dir, "a"));
	ASSERT_EQ(0, run_cmd(&self->r, NGEMU("sweep", "--out", "a", "--system",
					     "dualopt", "--size", "512K", "--iters",
					     "1", "--workloads", "stream-triad",
					     "--grid", "link-bw=48")));
	EXPECT_EQ(4, points(self->dir, "a"));
	c = file(self->dir, "a", "results.csv");
	EXPECT_NE(NULL, strstr(c, ",stream-triad,baseline,48,true,"))
		TH_LOG("%s", c);
	free(a);
	free(b);
	free(c);
}

TEST_F(sweep, a_repeated_sweep_runs_nothing)
{
	ASSERT_EQ(0, chdir(self->dir));
	ASSERT_EQ(0, run_cmd(&self->r, SWEEP("s", "--workloads", "stream-triad,spmv",
					     "--systems", "baseline,coalesce")));
	EXPECT_EQ(0, self->r.status) TH_LOG("%s", self->r.err);
	EXPECT_NE(NULL, strstr(self->r.err, "4 points, 4 to run"));
	ASSERT_EQ(0, run_cmd(&self->r, SWEEP("s", "--workloads", "stream-triad,spmv",
					     "--systems", "baseline,coalesce")));
	EXPECT_NE(NULL, strstr(self->r.err, "4 points, 0 to run, 4 kept"))
		TH_LOG("%s", self->r.err);
	/* bars of speed-up over the first system, every system named */
	{
		char *svg = file(self->dir, "s", "plot.svg");
		char *gp = file(self->dir, "s", "plot.gp");

		EXPECT_NE(NULL, strstr(gp, "speed-up over baseline"));
		EXPECT_NE(NULL, strstr(svg, "<svg")) TH_LOG("no drawing: is gnuplot installed?");
		EXPECT_NE(NULL, strstr(svg, "baseline"));
		EXPECT_NE(NULL, strstr(svg, "coalesce"));
		free(svg);
		free(gp);
	}
}

/*
 * Under --size paper a workload no paper sizes runs at its default size:
 * its point is the one of a sweep without --size. A system that ignores
 * a grid key runs once for all its values; --collect gathers again.
 */
TEST_F(sweep, paper_size_falls_back_and_ignored_keys_run_once)
{
	char *csv, *again;

	ASSERT_EQ(0, chdir(self->dir));
	ASSERT_EQ(0, run_cmd(&self->r, NGEMU("sweep", "--out", "p", "--system", "coda",
					     "--systems", "fgp", "--workloads", "mm,dc",
					     "--size", "paper", "--iters", "1")));
	EXPECT_EQ(0, self->r.status) TH_LOG("%s", self->r.err);
	EXPECT_NE(NULL, strstr(self->r.err, "no paper gives a size for dc: it runs at its default size"))
		TH_LOG("%s", self->r.err);
	EXPECT_EQ(NULL, strstr(self->r.err, "size for mm"));
	ASSERT_EQ(0, run_cmd(&self->r, NGEMU("sweep", "--out", "p", "--system", "coda",
					     "--systems", "fgp", "--workloads", "mm,dc",
					     "--iters", "1")));
	EXPECT_NE(NULL, strstr(self->r.err, "2 points, 1 to run, 1 kept"))
		TH_LOG("%s", self->r.err);
	/* baseline sets msl2-size itself, rdma-cache does not */
	ASSERT_EQ(0, run_cmd(&self->r, SWEEP("g", "--workloads", "spmv",
					     "--systems", "baseline,rdma-cache",
					     "--grid", "msl2-size=512K,1M")));
	EXPECT_EQ(0, self->r.status) TH_LOG("%s", self->r.err);
	EXPECT_NE(NULL, strstr(self->r.err, "4 points, 3 to run, 0 kept from before, 1 the same run as another"))
		TH_LOG("%s", self->r.err);
	EXPECT_EQ(3, points(self->dir, "g"));
	csv = file(self->dir, "g", "results.csv");
	{
		int rows = 0;

		for (const char *c = csv; *c; c++)
			rows += *c == '\n';
		EXPECT_EQ(5, rows) TH_LOG("%s", csv);
	}
	ASSERT_EQ(0, unlink("g/results.csv"));
	ASSERT_EQ(0, run_cmd(&self->r, NGEMU("sweep", "--collect", "g")));
	EXPECT_EQ(0, self->r.status) TH_LOG("%s", self->r.err);
	again = file(self->dir, "g", "results.csv");
	EXPECT_STREQ(csv, again);
	free(csv);
	free(again);
	ASSERT_EQ(0, run_cmd(&self->r, NGEMU("sweep", "--collect", ".")));
	EXPECT_EQ(2, self->r.status);
	EXPECT_NE(NULL, strstr(self->r.err, "no sweep.args")) TH_LOG("%s", self->r.err);
}

/* Kill a sweep after its first point, start it again: the rest only. */
TEST_F(sweep, a_killed_sweep_resumes_with_the_missing_points)
{
	char *const *argv = SWEEP("k", "--workloads", "spmv,bfs,stream-triad",
				  "--grid", "link-bw=32,64", "--jobs", "1");
	pid_t pid;
	int st, n;

	ASSERT_EQ(0, chdir(self->dir));
	pid = fork();
	ASSERT_LE(0, pid);
	if (!pid) {
		freopen("/dev/null", "w", stderr);
		freopen("/dev/null", "w", stdout);
		execv(argv[0], argv);
		_exit(127);
	}
	for (int i = 0; i < 3000 && points(self->dir, "k") < 1; i++)
		usleep(2000);
	kill(pid, SIGKILL);
	waitpid(pid, &st, 0);
	n = points(self->dir, "k");
	ASSERT_LE(1, n);
	ASSERT_GT(6, n) TH_LOG("the sweep ended before the kill");
	ASSERT_EQ(0, run_cmd(&self->r, argv));
	EXPECT_EQ(0, self->r.status) TH_LOG("%s", self->r.err);
	{
		char want[64];

		snprintf(want, sizeof(want), "6 points, %d to run, %d kept", 6 - n,
			 n);
		EXPECT_NE(NULL, strstr(self->r.err, want)) TH_LOG("%s", self->r.err);
	}
	EXPECT_EQ(6, points(self->dir, "k"));
}

TEST_F(sweep, jobs_do_not_change_the_results_and_csv_matches_json)
{
	char *one, *two, *js, *line, *save = NULL;
	int rows = 0;

	ASSERT_EQ(0, chdir(self->dir));
	ASSERT_EQ(0, run_cmd(&self->r, SWEEP("j1", "--workloads", "stream-triad,bfs",
					     "--grid", "xfer-gran=4,16", "--systems",
					     "coalesce", "--jobs", "1")));
	ASSERT_EQ(0, run_cmd(&self->r, SWEEP("j2", "--workloads", "stream-triad,bfs",
					     "--grid", "xfer-gran=4,16", "--systems",
					     "coalesce", "--jobs", "2")));
	EXPECT_EQ(0, self->r.status) TH_LOG("%s", self->r.err);
	one = file(self->dir, "j1", "results.csv");
	two = file(self->dir, "j2", "results.csv");
	js = file(self->dir, "j2", "results.json");
	EXPECT_STREQ(one, two);
	/* lines over the grid key, a title per workload, every system */
	{
		char *svg = file(self->dir, "j2", "plot.svg");

		EXPECT_NE(NULL, strstr(svg, "xfer-gran")) TH_LOG("no drawing: is gnuplot installed?");
		EXPECT_NE(NULL, strstr(svg, "stream-triad"));
		EXPECT_NE(NULL, strstr(svg, "coalesce"));
		free(svg);
	}
	/* every CSV row's hash and modeled time are in the JSON */
	for (line = strtok_r(two, "\n", &save); line;
	     line = strtok_r(NULL, "\n", &save)) {
		char hash[32], pat[96];
		double t;

		if (!strncmp(line, "hash,", 5))
			continue;
		ASSERT_EQ(2, sscanf(line, "%16[0-9a-f],%*[^,],%*[^,],%*[^,],%*[^,],%lf",
				    hash, &t)) TH_LOG("%s", line);
		snprintf(pat, sizeof(pat), "\"hash\": \"%s\"", hash);
		EXPECT_NE(NULL, strstr(js, pat)) TH_LOG("%s", hash);
		snprintf(pat, sizeof(pat), "\"modeled_s\": %.17g", t);
		EXPECT_NE(NULL, strstr(js, pat)) TH_LOG("%s %s", pat, js);
		rows++;
	}
	EXPECT_EQ(4, rows);
	free(one);
	free(two);
	free(js);
}

TEST_F(sweep, bad_options_are_usage_errors)
{
	ASSERT_EQ(0, chdir(self->dir));
	ASSERT_EQ(0, run_cmd(&self->r, NGEMU("sweep", "--workloads", "nope")));
	EXPECT_EQ(2, self->r.status);
	EXPECT_NE(NULL, strstr(self->r.err, "unknown workload 'nope'"));
	ASSERT_EQ(0, run_cmd(&self->r, NGEMU("sweep", "--workloads", "spmv",
					     "--grid", "warp-size=2")));
	EXPECT_EQ(2, self->r.status);
	EXPECT_NE(NULL, strstr(self->r.err, "unknown parameter 'warp-size'"));
	ASSERT_EQ(0, run_cmd(&self->r, NGEMU("sweep", "--workloads", "spmv",
					     "--jobs", "0")));
	EXPECT_EQ(2, self->r.status);
	ASSERT_EQ(0, run_cmd(&self->r, NGEMU("sweep")));
	EXPECT_EQ(2, self->r.status);
	EXPECT_NE(NULL, strstr(self->r.err, "--workloads"));
	/* sbatch's options, in both forms, only with --slurm */
	ASSERT_EQ(0, run_cmd(&self->r, NGEMU("sweep", "--workloads", "spmv",
					     "--partition=debug")));
	EXPECT_EQ(2, self->r.status);
	EXPECT_NE(NULL, strstr(self->r.err, "'--partition=debug' goes with --slurm"))
		TH_LOG("%s", self->r.err);
	ASSERT_EQ(0, run_cmd(&self->r, NGEMU("sweep", "--workloads", "spmv",
					     "--account", "a")));
	EXPECT_EQ(2, self->r.status);
	ASSERT_EQ(0, run_cmd(&self->r, NGEMU("sweep", "--workloads", "spmv", "--wait")));
	EXPECT_EQ(2, self->r.status);
	ASSERT_EQ(0, run_cmd(&self->r, NGEMU("sweep", "--task", "x", ".")));
	EXPECT_EQ(2, self->r.status);
	ASSERT_EQ(0, run_cmd(&self->r, NGEMU("sweep", "--help")));
	EXPECT_EQ(0, self->r.status);
	EXPECT_NE(NULL, strstr(self->r.out, "--grid K=V1,V2"));
}

TEST_HARNESS_MAIN
