// SPDX-License-Identifier: GPL-2.0
/*
 * Configuration that a run must not lose, as a user meets it: several
 * --config files all apply, in order; a directory as --config is an
 * error; a long comment line is a comment. A sweep key that changes
 * nothing a system runs is named (and refused when it changes nothing at
 * all), the same grid key twice is refused, and the README's sweep
 * example sweeps a key its systems use. bench --compare's no-coherence
 * system reads stale data by design: that does not fail the run.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "ng_test.h"

#include "run_cmd.h"

#define NGEMU(...) ((char *const[]){ (char *)ngemu_path(), __VA_ARGS__, NULL })

FIXTURE(cfg) {
	struct cmd_result r;
	char dir[64];
};

FIXTURE_SETUP(cfg)
{
	char *abs = realpath(ngemu_path(), NULL);

	/* the tests run in a folder of their own: ngemu by its full path */
	ASSERT_NE(NULL, abs);
	setenv("NGEMU", abs, 1);
	free(abs);
	snprintf(self->dir, sizeof(self->dir), "/tmp/ngemu-cfg-XXXXXX");
	ASSERT_NE(NULL, mkdtemp(self->dir));
	ASSERT_EQ(0, chdir(self->dir));
}

FIXTURE_TEARDOWN(cfg)
{
	char cmd[128];

	snprintf(cmd, sizeof(cmd), "rm -rf '%s'", self->dir);
	if (system(cmd))
		TH_LOG("could not remove %s", self->dir);
}

static void put(const char *path, const char *text)
{
	FILE *f = fopen(path, "w");

	if (f) {
		fputs(text, f);
		fclose(f);
	}
}

/* "# xxx...x\n": a comment line of @n bytes with its newline. */
static char *comment(size_t n)
{
	char *c = malloc(n + 1);

	if (!c)
		return NULL;
	memset(c, 'x', n);
	c[0] = '#';
	c[n - 1] = '\n';
	c[n] = '\0';
	return c;
}

/* The value of @key in `ngemu config --show` output @out, or "". */
static const char *shown(const char *out, const char *key, char *buf,
			 size_t len)
{
	char pat[64];
	const char *p;

	snprintf(pat, sizeof(pat), "\n%s ", key);
	p = strstr(out, pat);
	buf[0] = '\0';
	if (p)
		sscanf(strchr(p + 1, '=') + 1, " %63s", buf);
	(void)len;
	return buf;
}

TEST_F(cfg, several_config_files_apply_in_order)
{
	char v[64];

	put("a.cfg", "gpus = 8\nlink-bw = 32\n");
	put("b.cfg", "link-bw = 48\n");
	ASSERT_EQ(0, run_cmd(&self->r, NGEMU("config", "--show", "--config", "a.cfg",
					     "--config", "b.cfg")));
	EXPECT_EQ(0, self->r.status) TH_LOG("%s", self->r.err);
	/* a key only in the first survives, the second wins the other */
	EXPECT_STREQ("8", shown(self->r.out, "gpus", v, sizeof(v)));
	EXPECT_STREQ("48", shown(self->r.out, "link-bw", v, sizeof(v)));
	/* swapped, the first file's value wins */
	ASSERT_EQ(0, run_cmd(&self->r, NGEMU("config", "--show", "--config", "b.cfg",
					     "--config=a.cfg")));
	EXPECT_STREQ("32", shown(self->r.out, "link-bw", v, sizeof(v)));
	/* an option over every file, wherever it is on the line */
	ASSERT_EQ(0, run_cmd(&self->r, NGEMU("config", "--show", "--link-bw", "40",
					     "--config", "a.cfg", "--config", "b.cfg")));
	EXPECT_STREQ("40", shown(self->r.out, "link-bw", v, sizeof(v)));
	EXPECT_STREQ("8", shown(self->r.out, "gpus", v, sizeof(v)));
}

TEST_F(cfg, a_file_that_cannot_be_read_is_an_error_naming_it)
{
	ASSERT_EQ(0, mkdir("conf.d", 0755));
	ASSERT_EQ(0, run_cmd(&self->r, NGEMU("config", "--config", "conf.d")));
	EXPECT_EQ(2, self->r.status) TH_LOG("%s", self->r.out);
	EXPECT_NE(NULL, strstr(self->r.err, "config file conf.d: Is a directory"))
		TH_LOG("%s", self->r.err);
	/* the same from bench, before anything runs */
	ASSERT_EQ(0, run_cmd(&self->r, NGEMU("bench", "stream-triad", "--config",
					     "conf.d")));
	EXPECT_EQ(2, self->r.status);
	EXPECT_NE(NULL, strstr(self->r.err, "conf.d")) TH_LOG("%s", self->r.err);
	put("a.cfg", "gpus = 8\n");
	ASSERT_EQ(0, run_cmd(&self->r, NGEMU("config", "--config", "a.cfg",
					     "--config", "missing.cfg")));
	EXPECT_EQ(2, self->r.status);
	EXPECT_NE(NULL, strstr(self->r.err, "missing.cfg: No such file"))
		TH_LOG("%s", self->r.err);
}

TEST_F(cfg, a_long_comment_line_is_a_comment)
{
	char *c = comment(2000), *text, v[64];

	ASSERT_NE(NULL, c);
	ASSERT_LT(0, asprintf(&text, "%sgpus = 2\n%slink-bw = 16 %s", c, c, c));
	put("long.cfg", text);
	ASSERT_EQ(0, run_cmd(&self->r, NGEMU("config", "--show", "--config",
					     "long.cfg")));
	EXPECT_EQ(0, self->r.status) TH_LOG("%s", self->r.err);
	EXPECT_STREQ("2", shown(self->r.out, "gpus", v, sizeof(v)));
	EXPECT_STREQ("16", shown(self->r.out, "link-bw", v, sizeof(v)));
	free(text);
	/* a bad long line is named by its number */
	ASSERT_LT(0, asprintf(&text, "gpus = 2\nlink-bw = 1%s", c + 1));
	put("bad.cfg", text);
	ASSERT_EQ(0, run_cmd(&self->r, NGEMU("config", "--config", "bad.cfg")));
	EXPECT_EQ(2, self->r.status);
	EXPECT_NE(NULL, strstr(self->r.err, "bad.cfg:2: link-bw:")) TH_LOG("%s", self->r.err);
	free(text);
	free(c);
}

#define SWEEP(out, ...)							\
	NGEMU("sweep", "--out", out, "--size", "256K", "--iters", "1",	\
	      "--workloads", "spmv", __VA_ARGS__)

TEST_F(cfg, a_grid_key_no_system_uses_is_refused_and_named)
{
	struct stat st;

	/* DualOpt's default system, baseline, turns the fine-grained MSHRs off */
	ASSERT_EQ(0, run_cmd(&self->r, SWEEP("x", "--system", "dualopt", "--grid",
					     "xfer-gran=4,16")));
	EXPECT_EQ(2, self->r.status) TH_LOG("%s", self->r.err);
	EXPECT_NE(NULL, strstr(self->r.err,
			       "xfer-gran is inert for baseline: no component reads xfer-gran in baseline (mshr is off)"))
		TH_LOG("%s", self->r.err);
	EXPECT_NE(0, stat("x", &st)) TH_LOG("a refused sweep made its folder");
	/* CARVE's default system, numa-gpu, has no RDC whatever rdc-size says */
	ASSERT_EQ(0, run_cmd(&self->r, SWEEP("r", "--grid", "rdc-size=64K,4M")));
	EXPECT_EQ(2, self->r.status) TH_LOG("%s", self->r.err);
	EXPECT_NE(NULL, strstr(self->r.err, "system numa-gpu sets rdc-size itself"))
		TH_LOG("%s", self->r.err);
	EXPECT_NE(NULL, strstr(self->r.err, "--grid rdc-size: inert for every system"))
		TH_LOG("%s", self->r.err);
}

TEST_F(cfg, a_grid_key_some_systems_ignore_is_named_in_the_results)
{
	FILE *f;
	char line[512];
	int inert = 0, live = 0;

	ASSERT_EQ(0, run_cmd(&self->r, SWEEP("m", "--systems", "numa-gpu,carve-hwc",
					     "--grid", "rdc-size=64K,4M")));
	EXPECT_EQ(0, self->r.status) TH_LOG("%s", self->r.err);
	EXPECT_NE(NULL, strstr(self->r.err,
			       "warning: --grid rdc-size is inert for numa-gpu: system numa-gpu sets rdc-size itself"))
		TH_LOG("%s", self->r.err);
	EXPECT_EQ(NULL, strstr(self->r.err, "inert for carve-hwc")) TH_LOG("%s", self->r.err);
	/* the collapsed run says which key collapsed it */
	EXPECT_NE(NULL, strstr(self->r.err, "1 the same run as another (differing only in rdc-size"))
		TH_LOG("%s", self->r.err);
	f = fopen("m/results.csv", "r");
	ASSERT_NE(NULL, f);
	ASSERT_NE(NULL, fgets(line, sizeof(line), f));
	EXPECT_NE(NULL, strstr(line, ",inert\n")) TH_LOG("%s", line);
	while (fgets(line, sizeof(line), f)) {
		if (strstr(line, ",numa-gpu,")) {
			EXPECT_NE(NULL, strstr(line, ",rdc-size\n")) TH_LOG("%s", line);
			inert++;
		} else {
			EXPECT_NE(NULL, strstr(line, ",\n")) TH_LOG("%s", line);
			live++;
		}
	}
	fclose(f);
	EXPECT_EQ(2, inert);
	EXPECT_EQ(2, live);
	f = fopen("m/results.json", "r");
	ASSERT_NE(NULL, f);
	{
		static char js[1 << 16];
		size_t n = fread(js, 1, sizeof(js) - 1, f);

		js[n] = '\0';
		EXPECT_NE(NULL, strstr(js, "\"rdc-size: system numa-gpu sets rdc-size itself\""))
			TH_LOG("%s", js);
	}
	fclose(f);
}

TEST_F(cfg, the_same_grid_key_twice_is_refused)
{
	ASSERT_EQ(0, run_cmd(&self->r, SWEEP("t", "--systems", "numa-gpu", "--grid",
					     "link-bw=32,64", "--grid", "link-bw=16")));
	EXPECT_EQ(2, self->r.status) TH_LOG("%s", self->r.err);
	EXPECT_NE(NULL, strstr(self->r.err, "--grid: key 'link-bw' given twice"))
		TH_LOG("%s", self->r.err);
}

/* The README of the checkout this test was built in, or NULL. */
static char *readme(void)
{
	char exe[1024], path[1200];
	ssize_t n = readlink("/proc/self/exe", exe, sizeof(exe) - 1);
	char *t = NULL;

	if (n <= 0)
		return NULL;
	exe[n] = '\0';
	for (int up = 0; up < 5 && !t; up++) {
		char *slash = strrchr(exe, '/');
		FILE *f;

		if (!slash)
			break;
		*slash = '\0';
		snprintf(path, sizeof(path), "%s/user/tests/config_cli_test.c", exe);
		if (access(path, R_OK))
			continue;
		snprintf(path, sizeof(path), "%s/README.md", exe);
		f = fopen(path, "r");
		if (!f)
			break;
		t = calloc(1, 1 << 17);
		if (t && !fread(t, 1, (1 << 17) - 1, f)) {
			free(t);
			t = NULL;
		}
		fclose(f);
	}
	return t;
}

/*
 * The README's "ngemu sweep --workloads ..." line, at a small size: every
 * system of it gets another result from each value of its grid key.
 */
TEST_F(cfg, the_readme_sweep_example_sweeps_a_key_its_systems_use)
{
	char *text = readme(), *line, *v[64], *save = NULL, buf[512];
	int n = 0;
	FILE *f;

	if (!text)
		SKIP(return, "no README.md beside the test's sources");
	line = strstr(text, "ngemu sweep --workloads");
	ASSERT_NE(NULL, line);
	line[strcspn(line, "#\n")] = '\0';
	v[n++] = (char *)ngemu_path();
	strtok_r(line, " ", &save);	/* "ngemu" */
	for (char *t = strtok_r(NULL, " ", &save); t && n < 50;
	     t = strtok_r(NULL, " ", &save))
		v[n++] = t;
	v[n++] = "--out";
	v[n++] = "readme";
	v[n++] = "--size";
	v[n++] = "256K";
	v[n++] = "--iters";
	v[n++] = "1";
	v[n] = NULL;
	ASSERT_EQ(0, run_cmd(&self->r, v));
	EXPECT_EQ(0, self->r.status) TH_LOG("%s", self->r.err);
	EXPECT_EQ(NULL, strstr(self->r.err, "inert")) TH_LOG("%s", self->r.err);
	EXPECT_NE(NULL, strstr(self->r.err, "0 the same run as another"))
		TH_LOG("%s", self->r.err);
	/* rows of one workload and system: link bytes differ by the key */
	f = fopen("readme/results.csv", "r");
	ASSERT_NE(NULL, f);
	{
		char prev[128] = "", prev_bytes[64] = "";
		int rows = 0, flat = 0;

		ASSERT_NE(NULL, fgets(buf, sizeof(buf), f));
		while (fgets(buf, sizeof(buf), f)) {
			char wl[32], sys[32], val[32], ver[8], bytes[64], ws[128];
			double t, rem;

			ASSERT_EQ(7, sscanf(buf, "%*[0-9a-f],%31[^,],%31[^,],%31[^,],%7[^,],%lf,%lf,%63[^,]",
					    wl, sys, val, ver, &t, &rem, bytes)) TH_LOG("%s", buf);
			snprintf(ws, sizeof(ws), "%s/%s", wl, sys);
			if (!strcmp(ws, prev))
				flat += !strcmp(bytes, prev_bytes);
			snprintf(prev, sizeof(prev), "%s", ws);
			snprintf(prev_bytes, sizeof(prev_bytes), "%s", bytes);
			rows++;
		}
		EXPECT_LE(4, rows);
		EXPECT_EQ(0, flat) TH_LOG("a system's link bytes did not change with the grid key");
	}
	fclose(f);
	free(text);
}

TEST_F(cfg, no_coherence_reads_stale_data_as_expected)
{
	/* CARVE's default systems: carve-none among them */
	ASSERT_EQ(0, run_cmd(&self->r, NGEMU("bench", "--compare", "rwshare",
					     "--size", "64K")));
	EXPECT_EQ(0, self->r.status) TH_LOG("%s", self->r.err);
	EXPECT_NE(NULL, strstr(self->r.out, "\ncarve-none stale ")) TH_LOG("%s", self->r.out);
	EXPECT_NE(NULL, strstr(self->r.out, "this does not fail the run"));
	EXPECT_NE(NULL, strstr(self->r.err,
			       "carve-none: verification failed as expected (no coherence: stale data expected"))
		TH_LOG("%s", self->r.err);
	ASSERT_EQ(0, run_cmd(&self->r, NGEMU("bench", "--compare", "bfs", "--size",
					     "64K", "--json")));
	EXPECT_EQ(0, self->r.status) TH_LOG("%s", self->r.err);
	{
		const char *none = strstr(self->r.out, "\"system\": \"carve-none\"");

		ASSERT_NE(NULL, none) TH_LOG("%s", self->r.out);
		EXPECT_NE(NULL, strstr(none, "\"verified\": false"));
		EXPECT_NE(NULL, strstr(none, "\"stale_expected\": true"));
	}
	/* any other system's failure still fails the run */
	ASSERT_EQ(0, run_cmd(&self->r, NGEMU("bench", "--compare", "rwshare",
					     "--size", "64K", "--corrupt-one")));
	EXPECT_EQ(1, self->r.status) TH_LOG("%s", self->r.err);
	EXPECT_NE(NULL, strstr(self->r.err, "carve-hwc: verification failed: "))
		TH_LOG("%s", self->r.err);
}

TEST_HARNESS_MAIN
