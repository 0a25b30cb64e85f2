// SPDX-License-Identifier: GPL-2.0
/*
 * `ngemu info` with the module loaded: the kmod backend is chosen by
 * default and agrees with the user backend (sysfs) on everything but the
 * backend's name and the free memory, which moves.
 */
#include <string.h>

#include "kselftest_harness.h"

#include "../../user/tests/run_cmd.h"
#include "ngemu/backend/kbuf.h"
#include "numagpu_test.h"

/* Drop the lines that may differ between the backends. */
static void strip_variable(char *doc)
{
	static const char *const keys[] = { "\"backend\"", "\"source\"",
					    "\"mem_free\"", "\"mem_used\"",
					    "\"buffers\"" };
	char *out = doc;

	for (char *line = doc; *line;) {
		char *nl = strchr(line, '\n');
		size_t len = nl ? (size_t)(nl - line + 1) : strlen(line);
		int keep = 1;

		for (size_t k = 0; k < sizeof(keys) / sizeof(keys[0]); k++)
			if (memmem(line, len, keys[k], strlen(keys[k])))
				keep = 0;
		if (keep) {
			memmove(out, line, len);
			out += len;
		}
		line += len;
	}
	*out = '\0';
}

FIXTURE(info) {
	struct cmd_result kmod, user;
};

FIXTURE_SETUP(info)
{
}

FIXTURE_TEARDOWN(info)
{
}

TEST_F(info, default_backend_is_kmod)
{
	ASSERT_EQ(0, run_cmd(&self->kmod, (char *const[]){
		(char *)ngemu_path(), "info", NULL }));
	ASSERT_EQ(0, self->kmod.status) TH_LOG("%s", self->kmod.err);
	EXPECT_NE(NULL, strstr(self->kmod.out, "backend kmod (/dev/numagpu)"));
	TH_LOG("\n%s", self->kmod.out);
}

TEST_F(info, backends_agree)
{
	ASSERT_EQ(0, run_cmd(&self->kmod, (char *const[]){
		(char *)ngemu_path(), "info", "--json", "--backend", "kmod",
		NULL }));
	ASSERT_EQ(0, self->kmod.status) TH_LOG("%s", self->kmod.err);
	ASSERT_EQ(0, run_cmd(&self->user, (char *const[]){
		(char *)ngemu_path(), "info", "--json", "--backend", "user",
		NULL }));
	ASSERT_EQ(0, self->user.status) TH_LOG("%s", self->user.err);
	EXPECT_NE(NULL, strstr(self->kmod.out, "\"backend\": \"kmod\""));
	EXPECT_NE(NULL, strstr(self->user.out, "\"backend\": \"user\""));
	strip_variable(self->kmod.out);
	strip_variable(self->user.out);
	EXPECT_STREQ(self->user.out, self->kmod.out);
}

/* Device memory held by buffers shows per GPU, and goes with them. */
TEST_F(info, memory_in_use)
{
	struct numagpu_buf_create c = { .mode = NUMAGPU_MODE_CGP, .target = 1 };
	struct numagpu_topology t;
	char want[64];
	struct ng_kbuf b;
	int dev;
	char *v;

	ASSERT_EQ(0, numagpu_get_topology(&t));
	if (t.ngpus < 2)
		SKIP(return, "needs 2 GPUs");
	c.size = 256 * sysconf(_SC_PAGESIZE);
	dev = ng_kbuf_open_device(NULL);
	ASSERT_LE(0, dev);
	ASSERT_EQ(0, ng_kbuf_create(&b, dev, &c));
	close(dev);
	ASSERT_EQ(0, ng_kbuf_map_view(&b, 0, (void **)&v));
	for (size_t i = 0; i < b.size; i += 4096)
		v[i] = 1;
	ASSERT_EQ(0, run_cmd(&self->kmod, (char *const[]){
		(char *)ngemu_path(), "info", "--json", NULL }));
	ASSERT_EQ(0, self->kmod.status) TH_LOG("%s", self->kmod.err);
	snprintf(want, sizeof(want), "\"mem_used\": %zu,", b.size);
	EXPECT_NE(NULL, strstr(self->kmod.out, want)) TH_LOG("%s",
							     self->kmod.out);
	EXPECT_NE(NULL, strstr(self->kmod.out, "\"buffers\": 1,"));
	ASSERT_EQ(0, run_cmd(&self->kmod, (char *const[]){
		(char *)ngemu_path(), "info", NULL }));
	EXPECT_NE(NULL, strstr(self->kmod.out, "device memory in use: 1 buffer"));
	EXPECT_NE(NULL, strstr(self->kmod.out, "1.0 MiB"));
	TH_LOG("\n%s", self->kmod.out);
	ng_kbuf_destroy(&b);
	ASSERT_EQ(0, run_cmd(&self->kmod, (char *const[]){
		(char *)ngemu_path(), "info", "--json", NULL }));
	EXPECT_NE(NULL, strstr(self->kmod.out, "\"mem_used\": 0,"));
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
