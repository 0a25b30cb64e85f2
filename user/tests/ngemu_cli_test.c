// SPDX-License-Identifier: GPL-2.0
/*
 * ngemu's command line as a user meets it: help, version, usage errors with
 * exit code 2, and `ngemu info` on fabricated topologies.
 */
#include <stdio.h>
#include <string.h>

#include <linux/numagpu.h>

#include "ng_test.h"

#include "fake_sysfs.h"
#include "run_cmd.h"

#define NGEMU(...) ((char *const[]){ (char *)ngemu_path(), __VA_ARGS__, NULL })

FIXTURE(cli) {
	struct fake_sysfs fs;
	struct cmd_result r;
};

FIXTURE_SETUP(cli)
{
	ASSERT_EQ(0, fake_sysfs_create(&self->fs));
	ASSERT_EQ(0, fake_uniform(&self->fs, 4));
}

FIXTURE_TEARDOWN(cli)
{
	fake_sysfs_destroy(&self->fs);
}

TEST_F(cli, version)
{
	ASSERT_EQ(0, run_cmd(&self->r, NGEMU("--version")));
	EXPECT_EQ(0, self->r.status);
	EXPECT_EQ(0, strncmp(self->r.out, "ngemu " NUMAGPU_VERSION_STRING " ",
			     strlen("ngemu " NUMAGPU_VERSION_STRING " ")))
		TH_LOG("%s", self->r.out);
}

TEST_F(cli, help)
{
	ASSERT_EQ(0, run_cmd(&self->r, NGEMU("--help")));
	EXPECT_EQ(0, self->r.status);
	EXPECT_NE(NULL, strstr(self->r.out, "Usage: ngemu"));
	EXPECT_NE(NULL, strstr(self->r.out, "  info "));
	ASSERT_EQ(0, run_cmd(&self->r, NGEMU("info", "--help")));
	EXPECT_EQ(0, self->r.status);
	EXPECT_NE(NULL, strstr(self->r.out, "--backend"));
}

TEST_F(cli, usage_errors_exit_2)
{
	static const char *const cases[][4] = {
		{ "frobnicate", NULL, NULL, "unknown command 'frobnicate'" },
		{ "--frob", NULL, NULL, "unknown option '--frob'" },
		{ "info", "--frob", NULL, "unknown option '--frob'" },
		{ "info", "--backend", "gpu", "'gpu' is not auto, kmod or user" },
		{ "info", "--backend", NULL, "needs a value" },
		{ "info", "extra", NULL, "unexpected argument 'extra'" },
		{ "info", "--json=yes", NULL, "option '--json' takes no value" },
		{ "info", "--js", NULL, "unknown option '--js'" },
		{ "sweep", "--slurm=1", NULL, "option '--slurm' takes no value" },
	};

	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		char *argv[5] = { (char *)ngemu_path() };

		for (int a = 0; a < 3 && cases[i][a]; a++)
			argv[a + 1] = (char *)cases[i][a];
		ASSERT_EQ(0, run_cmd(&self->r, argv));
		EXPECT_EQ(2, self->r.status) TH_LOG("case %zu", i);
		EXPECT_NE(NULL, strstr(self->r.err, cases[i][3]))
			TH_LOG("case %zu: %s", i, self->r.err);
		EXPECT_NE(NULL, strstr(self->r.err, "--help"));
		EXPECT_STREQ("", self->r.out);
	}
	ASSERT_EQ(0, run_cmd(&self->r, (char *const[]){ (char *)ngemu_path(), NULL }));
	EXPECT_EQ(2, self->r.status);
}

TEST_F(cli, info_json_user_backend)
{
	ASSERT_EQ(0, run_cmd(&self->r, NGEMU("info", "--json", "--backend",
					     "user", "--sysfs-root",
					     self->fs.root)));
	ASSERT_EQ(0, self->r.status) TH_LOG("%s", self->r.err);
	EXPECT_NE(NULL, strstr(self->r.out, "\"backend\": \"user\""));
	EXPECT_NE(NULL, strstr(self->r.out, "\"ngpus\": 4,"));
	EXPECT_NE(NULL, strstr(self->r.out, "\"node\": 3,"));
	EXPECT_NE(NULL, strstr(self->r.out, "\"cpus\": \"2\","));
	EXPECT_NE(NULL, strstr(self->r.out, "\"mem_total\": 4294967296,"));
	EXPECT_NE(NULL, strstr(self->r.out, "[10,20,30,40]"));
	EXPECT_NE(NULL, strstr(self->r.out, "[40,30,20,10]"));
	EXPECT_EQ('\n', self->r.out[strlen(self->r.out) - 1]);
}

TEST_F(cli, info_human)
{
	ASSERT_EQ(0, run_cmd(&self->r, NGEMU("info", "-b", "user",
					     "--sysfs-root", self->fs.root)));
	ASSERT_EQ(0, self->r.status) TH_LOG("%s", self->r.err);
	EXPECT_NE(NULL, strstr(self->r.out, "4 emulated GPUs"));
	EXPECT_NE(NULL, strstr(self->r.out, "4.0 GiB"));
	EXPECT_NE(NULL, strstr(self->r.out, "backend user"));
}

/* auto falls back to sysfs only because the device does not exist */
TEST_F(cli, info_auto_without_module)
{
	ASSERT_EQ(0, run_cmd(&self->r, NGEMU("info", "--json", "--device",
					     "/nonexistent/numagpu",
					     "--sysfs-root", self->fs.root)));
	ASSERT_EQ(0, self->r.status) TH_LOG("%s", self->r.err);
	EXPECT_NE(NULL, strstr(self->r.out, "\"backend\": \"user\""));
}

TEST_F(cli, info_kmod_without_module_fails)
{
	ASSERT_EQ(0, run_cmd(&self->r, NGEMU("info", "--backend", "kmod",
					     "--device", "/nonexistent/numagpu")));
	EXPECT_EQ(1, self->r.status);
	EXPECT_NE(NULL, strstr(self->r.err, "/nonexistent/numagpu"));
	EXPECT_NE(NULL, strstr(self->r.err, "is numagpu.ko loaded?"));
	EXPECT_STREQ("", self->r.out);
	/* a device that is not numagpu's: the query fails, no fallback */
	ASSERT_EQ(0, run_cmd(&self->r, NGEMU("info", "--device", "/dev/null",
					     "--sysfs-root", self->fs.root)));
	EXPECT_EQ(1, self->r.status);
	EXPECT_NE(NULL, strstr(self->r.err, "topology query"));
}

TEST_F(cli, info_broken_sysfs_fails)
{
	ASSERT_EQ(0, fake_write(&self->fs, "devices/system/node/node1/cpulist",
				"zz\n"));
	ASSERT_EQ(0, run_cmd(&self->r, NGEMU("info", "-b", "user",
					     "--sysfs-root", self->fs.root)));
	EXPECT_EQ(1, self->r.status);
	EXPECT_NE(NULL, strstr(self->r.err, "node1/cpulist"));
}

/*
 * Skips are decided here: the 6.1 harness runs a test's body even after
 * its fixture setup called SKIP().
 */
int main(int argc, char **argv)
{
	if (access(ngemu_path(), X_OK)) {
		ksft_print_header();
		ksft_exit_skip("%s not built (set NGEMU)\n", ngemu_path());
	}
	return test_harness_run(argc, argv);
}
