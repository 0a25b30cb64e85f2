// SPDX-License-Identifier: GPL-2.0
/*
 * `ngemu bench stream-triad --backend kmod`: the runtime on numagpu.ko
 * buffers verifies its result, and the module's location table puts every
 * populated page on the node the runtime's model says is its home.
 */
#include <stdio.h>
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
