// SPDX-License-Identifier: GPL-2.0
/*
 * Golden results: `ngemu bench --compare W --json` for every workload must
 * print exactly what user/tests/fixtures/compare/W.json holds (deterministic
 * mode, so the output is a pure function of the code and the config). A
 * restructuring must leave them byte-identical; a change of the model's
 * results rewrites them with tools/update-fixtures.sh, on purpose.
 *
 * fixtures/compare-one-block/ holds the same cases run with one resident
 * block per SM on the machines the presets had before SMs held several
 * blocks: their results as they were then, rewritten only for a workload
 * whose kernel has changed since (compare-one-block/cases says which).
 */
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "ng_test.h"

#include "fixture_dir.h"
#include "run_cmd.h"

#define MAX_ARGS 32

static char *read_all(const char *path)
{
	FILE *f = fopen(path, "r");
	char *buf;
	long n;

	if (!f)
		return NULL;
	fseek(f, 0, SEEK_END);
	n = ftell(f);
	rewind(f);
	buf = malloc((size_t)n + 1);
	if (buf && fread(buf, 1, (size_t)n, f) != (size_t)n) {
		free(buf);
		buf = NULL;
	}
	if (buf)
		buf[n] = '\0';
	fclose(f);
	return buf;
}

/* The case line of @wl: its exit status and extra arguments. */
static int find_case(const char *dir, const char *wl, int *want, char *args,
		     size_t len)
{
	char path[1300], line[512];
	FILE *f;
	int ret = -1;

	snprintf(path, sizeof(path), "%s/cases", dir);
	f = fopen(path, "r");
	if (!f)
		return -1;
	while (fgets(line, sizeof(line), f)) {
		char name[64];
		int off = 0;

		line[strcspn(line, "\n")] = '\0';
		if (line[0] == '#' || sscanf(line, "%63s %d %n", name, want, &off) < 2)
			continue;
		if (strcmp(name, wl))
			continue;
		snprintf(args, len, "%s", line + off);
		ret = 0;
		break;
	}
	fclose(f);
	return ret;
}

/* The first line where @a and @b differ, 1-based; 0 if they are equal. */
/* The version names the build, not the model: its line is not compared. */
static int is_version_line(const char *l)
{
	return !strncmp(l, "  \"version\": ", 13);
}

/* The first line where @a and @b differ (from 1), or 0. */
static unsigned int first_diff(const char *a, const char *b)
{
	for (unsigned int line = 1;; line++) {
		size_t la = strcspn(a, "\n"), lb = strcspn(b, "\n");

		if (!(is_version_line(a) && is_version_line(b)) &&
		    (la != lb || memcmp(a, b, la)))
			return line;
		if (!a[la] || !b[lb])
			return a[la] == b[lb] ? 0 : line + 1;
		a += la + 1;
		b += lb + 1;
	}
}

FIXTURE(compare) {
	struct cmd_result r;
};

FIXTURE_VARIANT(compare) {
	const char *wl;
	const char *dir;
};

#define CASE(id, name) \
	FIXTURE_VARIANT_ADD(compare, id) { .wl = name, .dir = "compare" }; \
	FIXTURE_VARIANT_ADD(compare, id##_one_block) { \
		.wl = name, .dir = "compare-one-block" }

CASE(stream_triad, "stream-triad");
CASE(local_stream, "local-stream");
CASE(remote_stream, "remote-stream");
CASE(pointer_chase, "pointer-chase");
CASE(rwshare, "rwshare");
CASE(randaccess, "randaccess");
CASE(hotspot, "hotspot");
CASE(spmv, "spmv");
CASE(bfs, "bfs");
CASE(st, "st");
CASE(gemm, "gemm");
CASE(fir, "fir");
CASE(lu, "lu");

FIXTURE_SETUP(compare)
{
}

FIXTURE_TEARDOWN(compare)
{
}

TEST_F(compare, output_is_the_fixture)
{
	char dir[1200], path[1300], args[256], *save = NULL;
	char *argv[MAX_ARGS + 8];
	char *want_out;
	unsigned int n = 0, line;
	int want = -1;

	ASSERT_EQ(0, ng_fixture_dir(variant->dir, dir, sizeof(dir)))
		TH_LOG("no fixtures: set NG_FIXTURES");
	ASSERT_EQ(0, find_case(dir, variant->wl, &want, args, sizeof(args)))
		TH_LOG("%s has no line in %s/cases", variant->wl, dir);
	snprintf(path, sizeof(path), "%s/%s.json", dir, variant->wl);
	want_out = read_all(path);
	ASSERT_NE(NULL, want_out) TH_LOG("cannot read %s", path);
	argv[n++] = (char *)ngemu_path();
	argv[n++] = "bench";
	argv[n++] = "--compare";
	argv[n++] = (char *)variant->wl;
	argv[n++] = "--json";
	for (char *t = strtok_r(args, " ", &save); t && n < MAX_ARGS;
	     t = strtok_r(NULL, " ", &save))
		argv[n++] = t;
	argv[n] = NULL;
	ASSERT_EQ(0, run_cmd(&self->r, argv));
	EXPECT_EQ(want, self->r.status) TH_LOG("%s", self->r.err);
	line = first_diff(self->r.out, want_out);
	EXPECT_EQ(0, line)
		TH_LOG("%s differs from %s from line %u on (tools/update-fixtures.sh rewrites it if the change is intended)",
		       variant->wl, path, line);
	free(want_out);
}

TEST(a_changed_value_is_caught)
{
	/* the comparison itself: one digit off is a difference */
	EXPECT_EQ(0, first_diff("{\n \"a\": 1\n}\n", "{\n \"a\": 1\n}\n"));
	EXPECT_EQ(2, first_diff("{\n \"a\": 1\n}\n", "{\n \"a\": 2\n}\n"));
	EXPECT_EQ(3, first_diff("{\n \"a\": 1\n}\n", "{\n \"a\": 1\n"));
	/* another version is not, another value after it is */
	EXPECT_EQ(0, first_diff("{\n  \"version\": \"0.3.0\",\n \"a\": 1\n}\n",
				"{\n  \"version\": \"0.4.0\",\n \"a\": 1\n}\n"));
	EXPECT_EQ(3, first_diff("{\n  \"version\": \"0.3.0\",\n \"a\": 1\n}\n",
				"{\n  \"version\": \"0.4.0\",\n \"a\": 2\n}\n"));
}

TEST_HARNESS_MAIN
