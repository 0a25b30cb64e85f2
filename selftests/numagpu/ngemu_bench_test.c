// SPDX-License-Identifier: GPL-2.0
/*
 * `ngemu bench stream-triad --backend kmod`: the runtime on numagpu.ko
 * buffers verifies its result, the module's location table puts every
 * populated page on the node the runtime's model says is its home, and
 * every emulated GPU reaches the buffers through its own view (the
 * module's per-view fault counters). With `--replicate ro` the module
 * makes read replicas of read-shared pages (read-mostly hints); with
 * `--prefetch` it allocates every page on its home before the kernels.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "kselftest_harness.h"

#include "../../user/tests/run_cmd.h"
#include "numagpu_test.h"

/* The unsigned value of "key": N in a JSON document; -1 when absent. */
static long long json_uint(const char *doc, const char *key)
{
	char pat[64];
	const char *p;
	long long v;

	snprintf(pat, sizeof(pat), "\"%s\": ", key);
	p = strstr(doc, pat);
	if (!p || sscanf(p + strlen(pat), "%lld", &v) != 1)
		return -1;
	return v;
}

/* The unsigned values of "key": [a, b, ...]; how many were read. */
static int json_uints(const char *doc, const char *key, long long *v, int max)
{
	char pat[64];
	const char *p;
	int n = 0;

	snprintf(pat, sizeof(pat), "\"%s\": [", key);
	p = strstr(doc, pat);
	if (!p)
		return 0;
	p += strlen(pat);
	while (n < max) {
		char *end;

		while (*p == ' ' || *p == '\n' || *p == ',')
			p++;
		if (*p < '0' || *p > '9')
			break;
		v[n++] = strtoll(p, &end, 10);
		p = end;
	}
	return n;
}

/* The module's counters of a run: the "kmod_placement" object. */
static const char *kmod_obj(const char *doc)
{
	const char *p = strstr(doc, "\"kmod_placement\"");

	return p ? p : "";
}

FIXTURE(bench) {
	struct cmd_result r;
};

FIXTURE_VARIANT(bench) {
	const char *placement;
};

FIXTURE_VARIANT_ADD(bench, first_touch) { .placement = "first-touch" };
FIXTURE_VARIANT_ADD(bench, cgp) { .placement = "cgp" };
FIXTURE_VARIANT_ADD(bench, coda) { .placement = "coda" };
FIXTURE_VARIANT_ADD(bench, node2) { .placement = "node:2" };

FIXTURE_SETUP(bench)
{
}

FIXTURE_TEARDOWN(bench)
{
}

TEST_F(bench, triad_on_module_buffers)
{
	const char *out = self->r.out;
	long long populated, agree;

	ASSERT_EQ(0, run_cmd(&self->r, (char *const[]){
		(char *)ngemu_path(), "bench", "stream-triad", "--backend",
		"kmod", "--size", "4M", "--iters", "2", "--page", "4K",
		"--placement", (char *)variant->placement, "--json", NULL }));
	ASSERT_EQ(0, self->r.status) TH_LOG("%s", self->r.err);
	EXPECT_NE(NULL, strstr(out, "\"verified\": true"));
	EXPECT_NE(NULL, strstr(out, "\"backend\": \"kmod\""));
	ASSERT_NE(NULL, strstr(out, "\"kmod_placement\""));
	EXPECT_NE(NULL, strstr(out, "\"comparable\": true"));
	populated = json_uint(out, "populated");
	agree = json_uint(out, "agree");
	/* three 4 MiB arrays of 4 KiB pages, every one touched */
	EXPECT_EQ(3 * 1024, populated);
	EXPECT_EQ(populated, agree);
	EXPECT_EQ(0, json_uint(out, "fallback"));
	TH_LOG("%s: module agrees on %lld of %lld pages", variant->placement,
	       agree, populated);
	/* each GPU ran blocks, through its own view: faults on every view */
	{
		long long vf[16];
		int n = json_uints(kmod_obj(out), "view_faults", vf, 16);

		ASSERT_EQ(4, n);
		for (int g = 0; g < n; g++)
			EXPECT_LT(0, vf[g]);
		TH_LOG("%s: faults per view %lld %lld %lld %lld",
		       variant->placement, vf[0], vf[1], vf[2], vf[3]);
	}
}

/* --replicate ro: read-mostly hints, so read-shared x gets replicas. */
TEST(replicate_ro_uses_module_replicas)
{
	struct cmd_result r;
	const char *k;
	long long replicas, hinted;

	ASSERT_EQ(0, run_cmd(&r, (char *const[]){
		(char *)ngemu_path(), "bench", "spmv", "--backend", "kmod",
		"--replicate", "ro", "--rdc-size", "0", "--page", "4K",
		"--size", "1M", "--iters", "2", "--json", NULL }));
	ASSERT_EQ(0, r.status) TH_LOG("%s", r.err);
	EXPECT_NE(NULL, strstr(r.out, "\"verified\": true"));
	EXPECT_NE(NULL, strstr(r.out, "\"backend\": \"kmod\""));
	k = kmod_obj(r.out);
	replicas = json_uint(k, "replicas");
	hinted = json_uint(k, "read_mostly_pages");
	EXPECT_LT(0, hinted);
	EXPECT_LT(0, replicas);
	TH_LOG("spmv --replicate ro: %lld read-mostly pages, %lld replicas, %lld collapses",
	       hinted, replicas, json_uint(k, "collapses"));
}

/* Without the hint the module makes none (the baseline above is real). */
TEST(no_replicas_without_hint)
{
	struct cmd_result r;

	ASSERT_EQ(0, run_cmd(&r, (char *const[]){
		(char *)ngemu_path(), "bench", "spmv", "--backend", "kmod",
		"--page", "4K", "--size", "1M", "--iters", "2", "--json",
		NULL }));
	ASSERT_EQ(0, r.status) TH_LOG("%s", r.err);
	EXPECT_NE(NULL, strstr(r.out, "\"verified\": true"));
	EXPECT_EQ(0, json_uint(kmod_obj(r.out), "replicas"));
	EXPECT_EQ(0, json_uint(kmod_obj(r.out), "read_mostly_pages"));
}

/* --prefetch: every page allocated on its home before the first kernel. */
TEST(prefetch_populates_homes)
{
	struct cmd_result r;
	const char *k;
	long long prefetched;

	ASSERT_EQ(0, run_cmd(&r, (char *const[]){
		(char *)ngemu_path(), "bench", "stream-triad", "--backend",
		"kmod", "--size", "4M", "--iters", "2", "--page", "4K",
		"--placement", "cgp", "--prefetch", "--json", NULL }));
	ASSERT_EQ(0, r.status) TH_LOG("%s", r.err);
	EXPECT_NE(NULL, strstr(r.out, "\"verified\": true"));
	k = kmod_obj(r.out);
	prefetched = json_uint(k, "prefetched");
	/* three 4 MiB arrays of 4 KiB pages, none there before */
	EXPECT_EQ(3 * 1024, prefetched);
	EXPECT_EQ(3 * 1024, json_uint(k, "agree"));
	TH_LOG("triad --prefetch: %lld pages prefetched, %lld migrations counted, %lld faults",
	       prefetched, json_uint(k, "migrations"), json_uint(k, "faults"));
}

int main(int argc, char **argv)
{
	numagpu_require_device();
	if (access(ngemu_path(), X_OK)) {
		ksft_print_header();
		ksft_exit_skip("%s not found (set NGEMU)\n", ngemu_path());
	}
	return test_harness_run(argc, argv);
}
