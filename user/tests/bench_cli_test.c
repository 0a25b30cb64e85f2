// SPDX-License-Identifier: GPL-2.0
/*
 * `ngemu bench` and `ngemu config` as a user meets them: results that
 * verify, JSON, and bad input (impossible values, sizes that do not fit,
 * unknown presets, malformed config files) failing with exit 2 and a
 * message naming the problem; output that cannot be written (a full
 * disk, a closed pipe) failing with exit 1 and a message.
 */
#include <ctype.h>
#include <fcntl.h>
#include <math.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "ng_test.h"

#include "ngemu/workloads/workload.h"
#include "run_cmd.h"

#define NGEMU(...) ((char *const[]){ (char *)ngemu_path(), __VA_ARGS__, NULL })

#include "suite_cases.h"

FIXTURE(bench) {
	struct cmd_result r;
	char cfg[64];
};

FIXTURE_SETUP(bench)
{
	int fd;

	strcpy(self->cfg, "/tmp/ngemu-bench-XXXXXX");
	fd = mkstemp(self->cfg);
	ASSERT_GE(fd, 0);
	close(fd);
}

FIXTURE_TEARDOWN(bench)
{
	unlink(self->cfg);
}

static void write_file(const char *path, const char *text)
{
	FILE *f = fopen(path, "w");

	if (f) {
		fputs(text, f);
		fclose(f);
	}
}

TEST_F(bench, triad_verifies)
{
	ASSERT_EQ(0, run_cmd(&self->r, NGEMU("bench", "stream-triad", "--size",
					     "1M", "--iters", "2")));
	EXPECT_EQ(0, self->r.status) TH_LOG("%s", self->r.err);
	EXPECT_NE(NULL, strstr(self->r.out, "stream-triad: verified"));
	EXPECT_NE(NULL, strstr(self->r.out, "ratio"));
	EXPECT_NE(NULL, strstr(self->r.out, "L2 hit rate"));
}

/*
 * Every workload checks its result: with one element changed before the
 * check (--corrupt-one) each must fail, naming the element and the CPU
 * reference's value (at a small size: the check does not depend on it).
 */
TEST_F(bench, every_workload_catches_one_wrong_element)
{
	for (unsigned int i = 0; ng_workloads[i]; i++) {
		char *name = (char *)ng_workloads[i]->name;

		ASSERT_EQ(0, corrupt_small(&self->r, ng_workloads[i], "dualopt"))
			TH_LOG("%s", name);
		EXPECT_EQ(1, self->r.status) TH_LOG("%s: %s", name, self->r.err);
		EXPECT_NE(NULL, strstr(self->r.out, ": FAILED ("))
			TH_LOG("%s: %s", name, self->r.out);
		EXPECT_NE(NULL, strstr(self->r.out, "the CPU reference says"))
			TH_LOG("%s: %s", name, self->r.out);
	}
}

/*
 * The man page (build/ngemu.1, beside the ngemu under test) has every
 * option of every command's --help, and the version --version says.
 */
TEST_F(bench, the_man_page_has_every_option)
{
	static char *const cmds[] = { NULL, "info", "mem", "config", "bench",
				      "sweep", "reproduce" };
	const size_t max = 1 << 17;
	char path[512], *man = calloc(1, max), ver[32] = "", th[64];
	const char *ng = ngemu_path(), *slash = strrchr(ng, '/');
	size_t n = 0;
	int c;
	FILE *f;

	ASSERT_NE(NULL, man);
	snprintf(path, sizeof(path), "%.*sngemu.1",
		 slash ? (int)(slash - ng + 1) : 0, ng);
	f = fopen(path, "r");
	ASSERT_NE(NULL, f) TH_LOG("no man page at %s", path);
	/* the page's text, its '\\-' back to '-' */
	while ((c = fgetc(f)) != EOF && n + 2 < max) {
		if (c == '\\') {
			int d = fgetc(f);

			if (d == '-') {
				man[n++] = '-';
				continue;
			}
			man[n++] = '\\';
			if (d == EOF)
				break;
			c = d;
		}
		man[n++] = (char)c;
	}
	fclose(f);
	ASSERT_EQ(0, run_cmd(&self->r, NGEMU("--version")));
	ASSERT_EQ(1, sscanf(self->r.out, "ngemu %31s", ver));
	snprintf(th, sizeof(th), "\"ngemu %s\"", ver);
	EXPECT_NE(NULL, strstr(man, th)) TH_LOG("%s not in the page's .TH", th);
	for (size_t i = 0; i < sizeof(cmds) / sizeof(cmds[0]); i++) {
		int rc = cmds[i] ? run_cmd(&self->r, NGEMU(cmds[i], "--help")) :
				   run_cmd(&self->r, NGEMU("--help"));

		ASSERT_EQ(0, rc);
		/* -x and --long-name, where an option starts a word */
		for (char *p = strchr(self->r.out, '-'); p; p = strchr(p + 1, '-')) {
			char opt[64];
			size_t len;

			if (p > self->r.out && !strchr("\n [,(", p[-1]))
				continue;
			if (sscanf(p, "%63[-a-zA-Z0-9]", opt) != 1)
				continue;
			len = strlen(opt);
			if (!(len == 2 && isalpha((unsigned char)opt[1])) &&
			    !(len > 3 && opt[1] == '-' && islower((unsigned char)opt[2])))
				continue;
			EXPECT_NE(NULL, strstr(man, opt))
				TH_LOG("ngemu %s: %s is not in the man page",
				       cmds[i] ? cmds[i] : "", opt);
		}
	}
	free(man);
}

TEST_F(bench, json)
{
	ASSERT_EQ(0, run_cmd(&self->r, NGEMU("bench", "--json", "stream-triad",
					     "--size=512K", "--iters=1",
					     "--placement", "fgp",
					     "--deterministic")));
	EXPECT_EQ(0, self->r.status) TH_LOG("%s", self->r.err);
	EXPECT_NE(NULL, strstr(self->r.out, "\"verified\": true"));
	EXPECT_NE(NULL, strstr(self->r.out, "\"modeled_bw_gbs\": "));
	EXPECT_NE(NULL, strstr(self->r.out, "\"remote_fraction\": 0.75"));
	EXPECT_NE(NULL, strstr(self->r.out, "\"l2\": {"));
	/* what the human report's system, mechanisms and l1 lines say */
	EXPECT_NE(NULL, strstr(self->r.out, "\"system_name\": \"CARVE-HWC\""));
	EXPECT_NE(NULL, strstr(self->r.out, "fgp pages; batch CTA scheduling\""));
	EXPECT_NE(NULL, strstr(self->r.out, "\"remote_hit_rate\": "));
	EXPECT_NE(NULL, strstr(self->r.out, "\"l2_loads\": "));
}

TEST_F(bench, calibration_and_list)
{
	ASSERT_EQ(0, run_cmd(&self->r, NGEMU("bench", "--list")));
	EXPECT_EQ(0, self->r.status);
	EXPECT_NE(NULL, strstr(self->r.out, "pointer-chase"));
	ASSERT_EQ(0, run_cmd(&self->r, NGEMU("bench", "remote-stream", "--size",
					     "4M", "--deterministic", "--rdc-size",
					     "0")));
	EXPECT_EQ(0, self->r.status) TH_LOG("%s", self->r.err);
	EXPECT_NE(NULL, strstr(self->r.out, "configured 64.00 GB/s"));
	/* with a remote data cache there is no baseline to calibrate */
	ASSERT_EQ(0, run_cmd(&self->r, NGEMU("bench", "pointer-chase")));
	EXPECT_EQ(2, self->r.status);
	EXPECT_NE(NULL, strstr(self->r.err, "run it with --rdc-size 0"))
		TH_LOG("%s", self->r.err);
}

TEST_F(bench, config_show)
{
	write_file(self->cfg, "# a config\nsystem = dualopt\ngpus = 8\n");
	ASSERT_EQ(0, run_cmd(&self->r, NGEMU("config", "--config", self->cfg,
					     "--link-bw", "32")));
	EXPECT_EQ(0, self->r.status) TH_LOG("%s", self->r.err);
	EXPECT_NE(NULL, strstr(self->r.out, "gpus             = 8 "));
	EXPECT_NE(NULL, strstr(self->r.out, "link-bw          = 32 "));
	EXPECT_NE(NULL, strstr(self->r.out, "line             = 64 "));
	ASSERT_EQ(0, run_cmd(&self->r, NGEMU("config", "--presets")));
	EXPECT_NE(NULL, strstr(self->r.out, "carve"));
}

/*
 * Every preset names its paper, what it turns on and what is not built;
 * a preset whose paper's mechanisms are all missing says so.
 */
TEST_F(bench, presets_say_what_they_turn_on)
{
	const char *p;
	unsigned int n = 0;

	ASSERT_EQ(0, run_cmd(&self->r, NGEMU("config", "--presets")));
	EXPECT_EQ(0, self->r.status) TH_LOG("%s", self->r.err);
	for (p = self->r.out; (p = strstr(p, "turns on: model ")); p++)
		n++;
	EXPECT_EQ(5, n) TH_LOG("%s", self->r.out);
	n = 0;
	for (p = self->r.out; (p = strstr(p, "not built yet: ")); p++)
		n++;
	EXPECT_EQ(5, n);
	EXPECT_NE(NULL, strstr(self->r.out, "turns on: model de, l1, mshr, rdma, link, msl2, mem"))
		TH_LOG("%s", self->r.out);
	EXPECT_NE(NULL, strstr(self->r.out, "turns on: model l1, l2, link, dir, mem"));
	EXPECT_NE(NULL, strstr(self->r.out, "placement coda, CTA scheduling coda"));
	EXPECT_NE(NULL, strstr(self->r.out, "turns on: model l1, l2, scalegpu, link, mem"))
		TH_LOG("%s", self->r.out);
}

/* The component registry as the configuration sees it. */
TEST_F(bench, components_follow_the_config)
{
	ASSERT_EQ(0, run_cmd(&self->r, NGEMU("config", "--components",
					     "--rdc-size", "0")));
	EXPECT_EQ(0, self->r.status) TH_LOG("%s", self->r.err);
	EXPECT_NE(NULL, strstr(self->r.out, "rdc    off"));
	EXPECT_NE(NULL, strstr(self->r.out, "l2     on "));
	EXPECT_NE(NULL, strstr(self->r.out, "keys: rdc-size coherence\n"));
	EXPECT_NE(NULL, strstr(self->r.out, "keys: imst-reset\n"));
	EXPECT_NE(NULL, strstr(self->r.out, "hwc    off"));
	EXPECT_NE(NULL, strstr(self->r.out, "hwc.inv_msgs"));
	ASSERT_EQ(0, run_cmd(&self->r, NGEMU("config", "--components",
					     "--rdc-size", "4M", "--l2-size", "0")));
	EXPECT_NE(NULL, strstr(self->r.out, "rdc    on "));
	EXPECT_NE(NULL, strstr(self->r.out, "hwc    on "));
	EXPECT_NE(NULL, strstr(self->r.out, "l2     off"));
	/* a component's keys are keys like any other */
	ASSERT_EQ(0, run_cmd(&self->r, NGEMU("config", "--coherence", "mesi")));
	EXPECT_EQ(2, self->r.status);
	EXPECT_NE(NULL, strstr(self->r.err, "coherence: 'mesi' is not none, swc or hwc"))
		TH_LOG("%s", self->r.err);
}

/* --list groups by suite; a workload may stand in several. */
TEST_F(bench, list_by_suite)
{
	const char *carve, *dualopt, *rec;

	ASSERT_EQ(0, run_cmd(&self->r, NGEMU("bench", "--list")));
	EXPECT_EQ(0, self->r.status);
	carve = strstr(self->r.out, "\ncarve: ");
	dualopt = strstr(self->r.out, "\ndualopt: ");
	rec = strstr(self->r.out, "\nrec: ");
	ASSERT_NE(NULL, carve);
	ASSERT_NE(NULL, dualopt);
	ASSERT_NE(NULL, rec);
	/* spmv under carve and under dualopt, randaccess under carve only */
	EXPECT_NE(NULL, strstr(carve, "  spmv "));
	EXPECT_NE(NULL, strstr(dualopt, "  spmv "));
	EXPECT_TRUE(strstr(carve, "  randaccess ") < dualopt);
	EXPECT_EQ(NULL, strstr(dualopt, "  randaccess "));
	ASSERT_EQ(0, run_cmd(&self->r, NGEMU("bench", "--list", "--json")));
	EXPECT_NE(NULL, strstr(self->r.out, "\"paper_ref\": \"CARVE Table II: RandAccess 15.0 GB\""));
	/* --size paper takes the paper's footprint, or says there is none */
	ASSERT_EQ(0, run_cmd(&self->r, NGEMU("bench", "spmv", "--size", "paper")));
	EXPECT_EQ(2, self->r.status);
	EXPECT_NE(NULL, strstr(self->r.err, "no paper gives a size for spmv"));
	ASSERT_EQ(0, run_cmd(&self->r, NGEMU("bench", "hotspot", "--size", "paper",
					     "--iters", "1", "--deterministic",
					     "--json")));
	EXPECT_EQ(0, self->r.status) TH_LOG("%s", self->r.err);
	EXPECT_NE(NULL, strstr(self->r.out, "\"size\": 16777216"));
}

TEST_F(bench, bad_input_exit_2)
{
	static const char *const cases[][6] = {
		{ "bench", "stream-triad", "--gpus", "0", NULL, "gpus: 0 is out of range" },
		{ "bench", "stream-triad", "--size", "1T", NULL, "do not fit" },
		{ "bench", "stream-triad", "--size", "64G", "--mem-per-gpu=16G", "do not fit" },
		{ "bench", "stream-triad", "--size", "lots", NULL, "--size: 'lots' is not a size" },
		{ "bench", "stream-triad", "--system", "volta", NULL, "unknown system preset 'volta'" },
		{ "bench", "frobnicate", NULL, NULL, NULL, "unknown workload 'frobnicate'" },
		{ "bench", "stream-triad", "--line", "96", NULL, "line: 96 is not a power of two" },
		{ "bench", "stream-triad", "--placement", "everywhere", NULL, "placement: 'everywhere'" },
		{ "bench", "stream-triad", "--sched", "fifo", NULL, "sched: 'fifo'" },
		{ "bench", "stream-triad", "--frob", NULL, NULL, "unknown option '--frob'" },
		{ "bench", "spmv", "--compare", "--csv", "--json", "--csv and --json: one output format at a time" },
		{ "bench", NULL, NULL, NULL, NULL, "which workload" },
		{ "bench", "remote-stream", "--gpus", "1", NULL, "needs at least 2 GPUs" },
		{ "config", "--gpus", "17", NULL, NULL, "gpus: 17 is out of range" },
		{ "config", "--config", "/nonexistent/ngemu.cfg", NULL, NULL, "cannot read config file" },
	};

	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		char *argv[7] = { (char *)ngemu_path() };

		for (int a = 0; a < 5 && cases[i][a]; a++)
			argv[a + 1] = (char *)cases[i][a];
		ASSERT_EQ(0, run_cmd(&self->r, argv));
		EXPECT_EQ(2, self->r.status) TH_LOG("case %zu: %s", i, self->r.err);
		EXPECT_NE(NULL, strstr(self->r.err, cases[i][5]))
			TH_LOG("case %zu: %s", i, self->r.err);
		EXPECT_STREQ("", self->r.out);
	}
	/* a malformed config file names the file and the line */
	write_file(self->cfg, "gpus = 4\nlink-bw: 64\n");
	ASSERT_EQ(0, run_cmd(&self->r, NGEMU("bench", "stream-triad", "--config",
					     self->cfg)));
	EXPECT_EQ(2, self->r.status);
	EXPECT_NE(NULL, strstr(self->r.err, ":2: expected 'key = value'"))
		TH_LOG("%s", self->r.err);
	write_file(self->cfg, "gpus = many\n");
	ASSERT_EQ(0, run_cmd(&self->r, NGEMU("config", "--config", self->cfg)));
	EXPECT_EQ(2, self->r.status);
	EXPECT_NE(NULL, strstr(self->r.err, ":1: gpus: 'many' is not a whole number"))
		TH_LOG("%s", self->r.err);
}

TEST_F(bench, kmod_backend_is_clear)
{
	ASSERT_EQ(0, run_cmd(&self->r, NGEMU("bench", "stream-triad", "--size",
					     "256K", "--iters", "1",
					     "--backend", "kmod")));
	/* until the module's buffer API is wired: a clear usage error */
	if (self->r.status) {
		EXPECT_EQ(2, self->r.status);
		EXPECT_NE(NULL, strstr(self->r.err, "kmod memory backend"))
			TH_LOG("%s", self->r.err);
	}
}

/* --prefetch asks the module: without it (the user backend), exit 2. */
TEST_F(bench, prefetch_needs_kmod)
{
	ASSERT_EQ(0, run_cmd(&self->r, NGEMU("bench", "stream-triad", "--size",
					     "256K", "--iters", "1",
					     "--backend", "user", "--prefetch")));
	EXPECT_EQ(2, self->r.status);
	EXPECT_NE(NULL, strstr(self->r.err, "--prefetch needs the kmod memory backend"))
		TH_LOG("%s", self->r.err);
	EXPECT_STREQ("", self->r.out);
	ASSERT_EQ(0, run_cmd(&self->r, NGEMU("bench", "spmv", "--compare",
					     "--prefetch")));
	EXPECT_EQ(2, self->r.status);
	EXPECT_NE(NULL, strstr(self->r.err, "--prefetch does not go with --compare"))
		TH_LOG("%s", self->r.err);
	/* the user backend's JSON has no module counters */
	ASSERT_EQ(0, run_cmd(&self->r, NGEMU("bench", "stream-triad", "--size",
					     "256K", "--iters", "1",
					     "--backend", "user", "--json")));
	EXPECT_EQ(0, self->r.status) TH_LOG("%s", self->r.err);
	EXPECT_EQ(NULL, strstr(self->r.out, "kmod_placement"));
}

/*
 * @argv run with its standard output on @fd (SIGPIPE ignored, as Python
 * and job launchers leave it); its exit status, its messages in @err.
 */
static int run_to(int fd, char *const argv[], char *err, size_t len)
{
	FILE *e = tmpfile();
	int st;
	pid_t pid;

	if (!e)
		return -1;
	fflush(NULL);
	pid = fork();
	if (pid < 0)
		return -1;
	if (!pid) {
		signal(SIGPIPE, SIG_IGN);
		dup2(fd, 1);
		dup2(fileno(e), 2);
		execv(argv[0], argv);
		_exit(127);
	}
	if (waitpid(pid, &st, 0) != pid)
		return -1;
	slurp(e, err, len);
	return WIFEXITED(st) ? WEXITSTATUS(st) : 128 + WTERMSIG(st);
}

/* Output onto a full disk (/dev/full) or into a closed pipe: exit 1, said. */
TEST_F(bench, output_that_cannot_be_written_fails)
{
	char *const *cmds[] = {
		NGEMU("bench", "stream-triad", "--size", "64K", "--iters", "1", "--json"),
		NGEMU("bench", "stream-triad", "--size", "64K", "--iters", "1"),
		NGEMU("bench", "--list"),
		NGEMU("config", "--show"),
		NGEMU("--help"),
	};
	int full = open("/dev/full", O_WRONLY), p[2];
	char err[4096];

	ASSERT_LE(0, full);
	for (size_t i = 0; i < sizeof(cmds) / sizeof(cmds[0]); i++) {
		EXPECT_EQ(1, run_to(full, cmds[i], err, sizeof(err))) TH_LOG("%s: %s", cmds[i][1], err);
		EXPECT_NE(NULL, strstr(err, "ngemu: write error on standard output: No space left on device"))
			TH_LOG("%s: %s", cmds[i][1], err);
	}
	close(full);
	ASSERT_EQ(0, pipe(p));
	close(p[0]);
	EXPECT_EQ(1, run_to(p[1], cmds[0], err, sizeof(err))) TH_LOG("%s", err);
	EXPECT_NE(NULL, strstr(err, "write error on standard output: Broken pipe")) TH_LOG("%s", err);
	close(p[1]);
}

/*
 * A table's column of times has one unit: bfs's systems run from about
 * 0.4 to 1.2 ms, which mixed "us" and "ms" in one column before.
 */
TEST_F(bench, one_unit_per_column_of_times)
{
	char unit[8] = "", *line;
	unsigned int rows = 0;

	ASSERT_EQ(0, run_cmd(&self->r, NGEMU("bench", "--compare", "bfs")));
	EXPECT_EQ(0, self->r.status) TH_LOG("%s", self->r.err);
	line = strstr(self->r.out, "\nsystem ");
	ASSERT_NE(NULL, line);
	for (line = strchr(line + 1, '\n'); line && line[1] && line[1] != '\n';
	     line = strchr(line + 1, '\n')) {
		char sys[32], ver[16], u[8];
		double t;

		if (sscanf(line + 1, "%31s %15s %lf %7s", sys, ver, &t, u) != 4)
			break;
		if (!rows++)
			snprintf(unit, sizeof(unit), "%s", u);
		EXPECT_STREQ(unit, u) TH_LOG("%s", sys);
	}
	EXPECT_EQ(6, rows) TH_LOG("%s", self->r.out);
}

/* The number after @key in @s past @after, or -1. */
static double number_after(const char *s, const char *after, const char *key)
{
	const char *p = strstr(s, after);
	double v;

	p = p ? strstr(p, key) : NULL;
	if (!p || sscanf(p + strlen(key), "%lf", &v) != 1)
		return -1;
	return v;
}

/*
 * The fabric's use, for scripts and for people, says the same thing: GPU
 * 0 streaming GPU 1's memory through a switch keeps GPU 0's port in (and
 * GPU 1's out) busy; the other ports idle.
 */
TEST_F(bench, json_and_report_name_the_same_busiest_port)
{
	char *const args[] = { "remote-stream", "--size", "4M", "--rdc-size",
			       "0", "--topology", "switch", "--deterministic" };
	double util, mean, pct, mean_pct;
	const char *line;

	ASSERT_EQ(0, run_cmd(&self->r, NGEMU("bench", args[0], args[1], args[2],
					     args[3], args[4], args[5], args[6],
					     args[7], "--json")));
	EXPECT_EQ(0, self->r.status) TH_LOG("%s", self->r.err);
	EXPECT_NE(NULL, strstr(self->r.out, "\"links\": {\n    \"topology\": \"switch\""))
		TH_LOG("%s", self->r.out);
	EXPECT_NE(NULL, strstr(self->r.out, "\"busiest\": {\n      \"gpu\": 0,\n      \"dir\": \"in\",\n      \"bytes\": 8388608,"))
		TH_LOG("%s", self->r.out);
	util = number_after(self->r.out, "\"busiest\"", "\"util\": ");
	mean = number_after(self->r.out, "\"busiest\"", "\"mean_util\": ");
	/* one of 8 ports busy */
	EXPECT_LT(0.95, util);
	EXPECT_GT(0.01, fabs(mean - util / 4)) TH_LOG("mean %f", mean);
	ASSERT_EQ(0, run_cmd(&self->r, NGEMU("bench", args[0], args[1], args[2],
					     args[3], args[4], args[5], args[6],
					     args[7])));
	EXPECT_EQ(0, self->r.status) TH_LOG("%s", self->r.err);
	line = strstr(self->r.out, "fabric     switch: busiest GPU 0's port in, ");
	ASSERT_NE(NULL, line) TH_LOG("%s", self->r.out);
	ASSERT_EQ(1, sscanf(strchr(line, ',') + 1, "%lf%% busy", &pct)) TH_LOG("%s", line);
	mean_pct = number_after(line, "", "the 8 ports ");
	EXPECT_GT(0.051, fabs(100 * util - pct)) TH_LOG("%s", line);
	EXPECT_GT(0.051, fabs(100 * mean - mean_pct)) TH_LOG("%s", line);
	EXPECT_NE(NULL, strstr(self->r.out, "           from 1                 8.0 MiB          -        0 B        0 B\n"))
		TH_LOG("%s", self->r.out);
}

TEST_HARNESS_MAIN
