// SPDX-License-Identifier: GPL-2.0
/*
 * ngemu sweep as a user meets it: a point's hash stays with its
 * configuration and changes with any key; a repeated sweep runs nothing;
 * a sweep killed in the middle runs only its missing points when started
 * again; --jobs does not change the results; the CSV and the JSON agree;
 * bad options are usage errors. Nothing is lost: a sweep onto a full
 * filesystem fails and its resume completes it, a point file cut short
 * runs again, SIGINT and SIGTERM leave no temporary and say how to go on.
 */
#include <dirent.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
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
 * A grid of names (a policy) is plotted as labels at even steps, and a
 * grid of numbers as an x axis: gnuplot draws both (it reads no x from a
 * name, "Skipping data file with no valid points").
 */
TEST_F(sweep, a_grid_of_names_is_plotted_as_labels)
{
	char *gp, *svg;

	ASSERT_EQ(0, chdir(self->dir));
	ASSERT_EQ(0, run_cmd(&self->r, NGEMU("sweep", "--out", "n", "--system",
					     "rec", "--systems", "rec", "--size",
					     "256K", "--iters", "1", "--workloads",
					     "stream-triad", "--grid",
					     "dir-policy=fifo,lru")));
	ASSERT_EQ(0, self->r.status) TH_LOG("%s", self->r.err);
	EXPECT_EQ(NULL, strstr(self->r.err, "gnuplot failed")) TH_LOG("%s", self->r.err);
	gp = file(self->dir, "n", "plot.gp");
	svg = file(self->dir, "n", "plot.svg");
	EXPECT_NE(NULL, strstr(gp, "using 0:2:xtic(1)")) TH_LOG("%s", gp);
	EXPECT_NE(NULL, strstr(svg, "lru")) TH_LOG("no label: is gnuplot installed?");
	free(gp);
	free(svg);
	ASSERT_EQ(0, run_cmd(&self->r, NGEMU("sweep", "--out", "b", "--system",
					     "rec", "--systems", "rec", "--size",
					     "256K", "--iters", "1", "--workloads",
					     "stream-triad", "--grid",
					     "link-bw=48,96")));
	ASSERT_EQ(0, self->r.status) TH_LOG("%s", self->r.err);
	gp = file(self->dir, "b", "plot.gp");
	EXPECT_NE(NULL, strstr(gp, "using 1:2 ")) TH_LOG("%s", gp);
	free(gp);
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

/*
 * run_cmd() with every file the command writes limited to @limit bytes
 * and SIGXFSZ ignored: a write beyond fails with EFBIG, as a write to a
 * full filesystem fails with ENOSPC, without needing one.
 */
static int run_fsize(struct cmd_result *r, char *const argv[], rlim_t limit)
{
	FILE *out = tmpfile(), *err = tmpfile();
	struct rlimit rl = { limit, limit };
	int status;
	pid_t pid;

	if (!out || !err)
		return -1;
	fflush(NULL);
	pid = fork();
	if (pid < 0)
		return -1;
	if (!pid) {
		dup2(fileno(out), 1);
		dup2(fileno(err), 2);
		signal(SIGXFSZ, SIG_IGN);
		if (setrlimit(RLIMIT_FSIZE, &rl))
			_exit(126);
		execv(argv[0], argv);
		_exit(127);
	}
	if (waitpid(pid, &status, 0) != pid)
		return -1;
	r->status = WIFEXITED(status) ? WEXITSTATUS(status) : 128 + WTERMSIG(status);
	slurp(out, r->out, sizeof(r->out));
	slurp(err, r->err, sizeof(r->err));
	return 0;
}

/* Lines of @t. */
static int lines(const char *t)
{
	int n = 0;

	for (; t && *t; t++)
		n += *t == '\n';
	return n;
}

/* Files in DIR/OUT/SUB whose name has @part (a temporary's ".json."). */
static int names_with(const char *dir, const char *out, const char *sub,
		      const char *part)
{
	char path[256];
	struct dirent *e;
	int n = 0;
	DIR *d;

	snprintf(path, sizeof(path), "%s/%s/%s", dir, out, sub);
	d = opendir(path);
	if (!d)
		return 0;
	while ((e = readdir(d)))
		n += strstr(e->d_name, part) != NULL;
	closedir(d);
	return n;
}

/* Rows of @csv with a blank among their first @n fields. */
static unsigned int blank_fields(const char *csv, unsigned int n)
{
	unsigned int bad = 0;

	for (const char *l = csv; l && *l; l = strchr(l, '\n') ? strchr(l, '\n') + 1 : NULL) {
		const char *p = l;

		for (unsigned int k = 0; k < n; k++) {
			size_t len = strcspn(p, ",\n");

			if (!len) {
				bad++;
				break;
			}
			if (p[len] != ',')
				break;
			p += len + 1;
		}
	}
	return bad;
}

/*
 * A point file is 4 KB: under a 2 KB limit no run's output fits. The
 * sweep says so and fails, keeps no point file cut short; with the limit
 * lifted ("space freed") the same sweep runs every point.
 */
TEST_F(sweep, a_full_filesystem_fails_and_the_resume_completes)
{
	char *const *argv = SWEEP("f", "--workloads", "stream-triad,spmv",
				  "--systems", "baseline,coalesce");
	struct stat st;
	char *csv;

	ASSERT_EQ(0, chdir(self->dir));
	umask(022);
	ASSERT_EQ(0, run_fsize(&self->r, argv, 2048));
	EXPECT_EQ(1, self->r.status) TH_LOG("%s%s", self->r.out, self->r.err);
	EXPECT_NE(NULL, strstr(self->r.err, "gave no whole result")) TH_LOG("%s", self->r.err);
	EXPECT_NE(NULL, strstr(self->r.out, "4 failed, 4 without a result"))
		TH_LOG("%s", self->r.out);
	EXPECT_EQ(0, points(self->dir, "f"));
	ASSERT_EQ(0, run_cmd(&self->r, argv));
	EXPECT_EQ(0, self->r.status) TH_LOG("%s", self->r.err);
	EXPECT_NE(NULL, strstr(self->r.err, "4 points, 4 to run, 0 kept")) TH_LOG("%s", self->r.err);
	EXPECT_EQ(4, points(self->dir, "f"));
	csv = file(self->dir, "f", "results.csv");
	EXPECT_EQ(5, lines(csv)) TH_LOG("%s", csv);
	/* every row whole: REC's counts alone may be blank (not REC) */
	EXPECT_EQ(0, blank_fields(csv, 8)) TH_LOG("%s", csv);
	free(csv);
	/* colleagues on a shared filesystem read the results */
	ASSERT_EQ(0, stat("f/results.csv", &st));
	EXPECT_EQ(0644, st.st_mode & 0777);
	{
		DIR *d = opendir("f/points");
		struct dirent *e;
		char path[512];

		ASSERT_NE(NULL, d);
		while ((e = readdir(d))) {
			if (e->d_name[0] == '.')
				continue;
			snprintf(path, sizeof(path), "f/points/%s", e->d_name);
			ASSERT_EQ(0, stat(path, &st));
			EXPECT_EQ(0644, st.st_mode & 0777) TH_LOG("%s", path);
		}
		closedir(d);
	}
	/* the results themselves over the limit: named, and a failure */
	ASSERT_EQ(0, run_fsize(&self->r, NGEMU("sweep", "--collect", "f"), 256));
	EXPECT_EQ(1, self->r.status) TH_LOG("%s", self->r.err);
	EXPECT_NE(NULL, strstr(self->r.err, "/f/results.csv: File too large"))
		TH_LOG("%s", self->r.err);
	EXPECT_EQ(0, names_with(self->dir, "f", ".", "results.csv."));
	csv = file(self->dir, "f", "results.csv");
	EXPECT_EQ(5, lines(csv)) TH_LOG("the results kept: %s", csv);
	free(csv);
}

/* A point file cut short or empty is no result: the point runs again. */
TEST_F(sweep, a_point_file_cut_short_runs_again)
{
	char *const *argv = SWEEP("t", "--workloads", "stream-triad,spmv");
	char path[512], *csv;
	struct dirent *e;
	int cut = 0;
	DIR *d;

	ASSERT_EQ(0, chdir(self->dir));
	ASSERT_EQ(0, run_cmd(&self->r, argv));
	ASSERT_EQ(0, self->r.status) TH_LOG("%s", self->r.err);
	d = opendir("t/points");
	ASSERT_NE(NULL, d);
	while ((e = readdir(d))) {
		struct stat st;

		if (e->d_name[0] == '.')
			continue;
		snprintf(path, sizeof(path), "t/points/%s", e->d_name);
		ASSERT_EQ(0, stat(path, &st));
		/* the first one cut in the middle, the other emptied */
		ASSERT_EQ(0, truncate(path, cut ? 0 : st.st_size / 2));
		cut++;
	}
	closedir(d);
	ASSERT_EQ(2, cut);
	ASSERT_EQ(0, run_cmd(&self->r, NGEMU("sweep", "--collect", "t")));
	EXPECT_EQ(1, self->r.status) TH_LOG("%s", self->r.out);
	EXPECT_NE(NULL, strstr(self->r.out, "2 without a result")) TH_LOG("%s", self->r.out);
	ASSERT_EQ(0, run_cmd(&self->r, argv));
	EXPECT_EQ(0, self->r.status) TH_LOG("%s", self->r.err);
	EXPECT_NE(NULL, strstr(self->r.err, "2 points, 2 to run, 0 kept")) TH_LOG("%s", self->r.err);
	EXPECT_NE(NULL, strstr(self->r.err, "is not a whole result: it runs again"));
	csv = file(self->dir, "t", "results.csv");
	EXPECT_EQ(3, lines(csv)) TH_LOG("%s", csv);
	EXPECT_EQ(2, lines(strstr(csv, ",true,"))) TH_LOG("%s", csv);
	free(csv);
}

/*
 * SIGINT (Ctrl-C) or SIGTERM (Slurm's time limit) to a sweep whose runs
 * are under way (long ones: 10^5 iterations, minutes each): its runs
 * end, their temporaries go, a line says what is done and how to go on,
 * and the exit status is 128 + the signal. The signal goes to ngemu
 * alone, not to its runs as Ctrl-C would: ngemu must end them itself.
 */
TEST_F(sweep, sigint_and_sigterm_stop_cleanly)
{
	static const int sigs[] = { SIGINT, SIGTERM };

	ASSERT_EQ(0, chdir(self->dir));
	for (int k = 0; k < 2; k++) {
		char *const *argv = SWEEP("i", "--workloads", "stream-triad",
					  "--grid", "link-bw=32,64,128", "--jobs", "2",
					  "--iters", "100000");
		char err[4096] = "", want[64];
		int st, started = 0;
		FILE *f;
		pid_t pid;

		pid = fork();
		ASSERT_LE(0, pid);
		if (!pid) {
			freopen("/dev/null", "w", stdout);
			freopen("i.err", "w", stderr);
			execv(argv[0], argv);
			_exit(127);
		}
		/* both runs started: their temporaries are there (60 s at most) */
		for (int i = 0; i < 30000 && started < 2; i++) {
			started = names_with(self->dir, "i", "points", ".json.");
			if (started < 2)
				usleep(2000);
		}
		EXPECT_EQ(2, started);
		kill(pid, sigs[k]);
		ASSERT_EQ(pid, waitpid(pid, &st, 0));
		ASSERT_TRUE(WIFEXITED(st)) TH_LOG("killed by signal %d", WTERMSIG(st));
		EXPECT_EQ(128 + sigs[k], WEXITSTATUS(st));
		f = fopen("i.err", "r");
		ASSERT_NE(NULL, f);
		err[fread(err, 1, sizeof(err) - 1, f)] = '\0';
		fclose(f);
		snprintf(want, sizeof(want), "stopped by %s: 0 of 3 points have a result",
			 sigs[k] == SIGINT ? "SIGINT" : "SIGTERM");
		EXPECT_NE(NULL, strstr(err, want)) TH_LOG("%s", err);
		EXPECT_NE(NULL, strstr(err, "run the same command again")) TH_LOG("%s", err);
		EXPECT_EQ(0, names_with(self->dir, "i", "points", ".json"));
		EXPECT_EQ(0, names_with(self->dir, "i", "points", ".err"));
	}
}

TEST_HARNESS_MAIN
