// SPDX-License-Identifier: GPL-2.0
/*
 * `ngemu mem` with the module loaded: one buffer per placement mode,
 * touched from every GPU; the placement table it prints agrees with the
 * kernel's page tables. The tables are logged, so the run's KTAP log shows
 * each mode's placement.
 */
#include <stdio.h>
#include <string.h>

#include "kselftest_harness.h"

#include "../../user/tests/run_cmd.h"
#include "numagpu_test.h"

FIXTURE(mem) {
	struct cmd_result r;
	struct numagpu_topology topo;
	char n[16];
};

FIXTURE_VARIANT(mem) {
	const char *args[6];
};

FIXTURE_VARIANT_ADD(mem, first_touch) {
	.args = { "--mode", "first-touch" },
};

FIXTURE_VARIANT_ADD(mem, fgp) {
	.args = { "--mode", "fgp", "--gpus", "0" },
};

FIXTURE_VARIANT_ADD(mem, cgp_node) {
	.args = { "--mode", "cgp", "--target", "2" },
};

FIXTURE_VARIANT_ADD(mem, cgp_chunk) {
	.args = { "--mode", "cgp-chunk", "--chunk", "32K" },
};

FIXTURE_VARIANT_ADD(mem, host) {
	.args = { "--mode", "host", "--target", "3" },
};

FIXTURE_VARIANT_ADD(mem, first_touch_two_gpus) {
	.args = { "--mode", "first-touch", "--gpus", "1,3" },
};

FIXTURE_VARIANT_ADD(mem, cgp_read_mostly_replicas) {
	.args = { "--mode", "cgp", "--target", "0", "--read-mostly" },
};

FIXTURE_VARIANT_ADD(mem, fgp_migrate) {
	.args = { "--mode", "fgp", "--migrate", "2" },
};

FIXTURE_VARIANT_ADD(mem, first_touch_prefetch) {
	.args = { "--mode", "first-touch", "--prefetch", "1" },
};

FIXTURE_SETUP(mem)
{
	ASSERT_EQ(0, numagpu_get_topology(&self->topo));
	snprintf(self->n, sizeof(self->n), "%u", 4 * self->topo.ngpus);
}

FIXTURE_TEARDOWN(mem)
{
}

TEST_F(mem, placement_table)
{
	char *argv[16] = { (char *)ngemu_path(), "mem", "--pages", self->n };
	char want[96];
	int k = 4;

	for (int i = 0; i < 6 && variant->args[i]; i++)
		argv[k++] = (char *)variant->args[i];
	ASSERT_EQ(0, run_cmd(&self->r, argv));
	ASSERT_EQ(0, self->r.status) TH_LOG("%s", self->r.err);
	snprintf(want, sizeof(want), "agree on %s of %s populated pages",
		 self->n, self->n);
	EXPECT_NE(NULL, strstr(self->r.out, want));
	TH_LOG("ngemu mem --pages %s %s %s %s %s %s\n%s", self->n,
	       variant->args[0], variant->args[1],
	       variant->args[2] ? variant->args[2] : "",
	       variant->args[3] ? variant->args[3] : "",
	       variant->args[4] ? variant->args[4] : "", self->r.out);

	argv[k++] = "--json";
	ASSERT_EQ(0, run_cmd(&self->r, argv));
	ASSERT_EQ(0, self->r.status) TH_LOG("%s", self->r.err);
	snprintf(want, sizeof(want), "\"kernel_agree\": %s,", self->n);
	EXPECT_NE(NULL, strstr(self->r.out, want));
	EXPECT_NE(NULL, strstr(self->r.out, "\"first_touch_local\""));
	EXPECT_EQ(0, numagpu_wait_pages_zero(1000));
}

TEST(usage_errors)
{
	static const char *const bad[][3] = {
		{ "--mode", "gpu" }, { "--pages", "0" }, { "--pages", "x" },
		{ "--gpus", "99" }, { "--target", "1" }, { "--chunk", "4K" },
		{ "--frob" }, { "extra" }, { "--migrate", "x" },
		{ "--prefetch", "16" },
	};
	struct cmd_result *r = malloc(sizeof(*r));

	ASSERT_NE(NULL, r);
	for (size_t i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
		char *argv[] = { (char *)ngemu_path(), "mem",
				 (char *)bad[i][0], (char *)bad[i][1], NULL };

		ASSERT_EQ(0, run_cmd(r, argv));
		EXPECT_EQ(2, r->status) TH_LOG("%s %s", bad[i][0],
					       bad[i][1] ? bad[i][1] : "");
	}
	free(r);
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
