// SPDX-License-Identifier: GPL-2.0
/*
 * A program's own workloads join the built-in ones (ng_workloads_add()):
 * the lookups find them after the built-ins, and what the commands rely
 * on (a name, a run function, sizes) is refused with a message naming
 * the workload. The harness runs each test in a process of its own, so
 * each starts with no workload added.
 */
#include <errno.h>
#include <string.h>

#include "ng_test.h"

#include "ngemu/config.h"
#include "ngemu/workloads/workload.h"

static int run_nothing(struct ng_system *sys, const struct ng_bench_opts *o,
		       struct ng_bench_result *r, char *err, size_t errlen)
{
	(void)sys, (void)o, (void)r, (void)err, (void)errlen;
	return 0;
}

#define WL(n) { .name = (n), .desc = "test", .default_size = 4096, \
		.default_iters = 1, .narrays = 1, .run = run_nothing }

static const struct ng_workload mine_a = WL("mine-a"), mine_b = WL("mine.b_2");

TEST(added_after_the_builtins)
{
	static const struct ng_workload *const list[] = { &mine_a, &mine_b, NULL };
	unsigned int nbuiltin = 0;
	char err[256];

	while (ng_workloads[nbuiltin])
		nbuiltin++;
	ASSERT_EQ(NULL, ng_workload_find("mine-a"));
	ASSERT_EQ(0, ng_workloads_add(list, err, sizeof(err))) TH_LOG("%s", err);
	EXPECT_EQ(&mine_a, ng_workload_find("mine-a"));
	EXPECT_EQ(&mine_b, ng_workload_find("mine.b_2"));
	EXPECT_EQ(ng_workloads[0], ng_workload_at(0));
	EXPECT_EQ(&mine_a, ng_workload_at(nbuiltin));
	EXPECT_EQ(&mine_b, ng_workload_at(nbuiltin + 1));
	EXPECT_EQ(NULL, ng_workload_at(nbuiltin + 2));
	EXPECT_NE(NULL, ng_workload_find("stream-triad"));
	/* once per process */
	EXPECT_EQ(-EBUSY, ng_workloads_add(list, err, sizeof(err)));
}

static void refused(struct __test_metadata *_metadata,
		    const struct ng_workload *w, const char *msg)
{
	const struct ng_workload *const list[] = { &mine_a, w, NULL };
	char err[256] = "";

	EXPECT_EQ(-EINVAL, ng_workloads_add(list, err, sizeof(err)));
	EXPECT_NE(NULL, strstr(err, msg)) TH_LOG("want '%s' in '%s'", msg, err);
	/* nothing of a refused list stays */
	EXPECT_EQ(NULL, ng_workload_find("mine-a"));
}

TEST(bad_workloads_refused)
{
	static const struct ng_workload taken = WL("stream-triad"),
		twice = WL("mine-a"), spaced = WL("my kernel"),
		dash = WL("-x"), empty = WL(""),
		toolong = WL("a-name-of-thirty-two-characters!"),
		norun = { .name = "norun", .desc = "x", .default_size = 4,
			  .default_iters = 1, .narrays = 1 },
		noarrays = { .name = "noarrays", .desc = "x", .default_size = 4,
			     .default_iters = 1, .run = run_nothing };

	refused(_metadata, &taken, "workload 'stream-triad': the name is taken");
	refused(_metadata, &twice, "workload 'mine-a': the name is taken");
	refused(_metadata, &spaced, "workload 1: name 'my kernel' is not");
	refused(_metadata, &dash, "name '-x' is not");
	refused(_metadata, &empty, "name '' is not");
	refused(_metadata, &toolong, "is not 1 to 31");
	refused(_metadata, &norun, "workload 'norun': run, desc, narrays");
	refused(_metadata, &noarrays, "workload 'noarrays': run, desc, narrays");
}

/*
 * The suites: calibration and one per preset, in the presets' order;
 * every built-in workload in at least one, and a paper's list names no
 * workload that does not exist (its suite would silently lack it).
 */
TEST(suites_from_the_papers_folders)
{
	unsigned int all = 0;

	ASSERT_EQ(1 + 5u, ng_suites());
	EXPECT_STREQ("calibration", ng_suite_name(0));
	for (unsigned int i = 0; ng_config_presets[i]; i++) {
		EXPECT_STREQ(ng_config_presets[i], ng_suite_name(i + 1));
		EXPECT_NE(NULL, ng_suite_desc(i + 1));
		EXPECT_EQ(1u << (i + 1), ng_suite_bit(ng_config_presets[i]));
	}
	EXPECT_EQ(NULL, ng_suite_name(ng_suites()));
	EXPECT_EQ(0u, ng_suite_bit("nosuch"));
	for (const struct ng_workload *const *w = ng_workloads; *w; w++) {
		EXPECT_NE(0u, ng_workload_suites(*w)) TH_LOG("%s", (*w)->name);
		all |= ng_workload_suites(*w);
	}
	EXPECT_EQ((1u << ng_suites()) - 1, all);
	/* each name a paper's folder lists is a workload's */
	for (unsigned int i = 0; ng_config_presets[i]; i++) {
		const char *p = ng_config_presets[i];

		for (const char *const *n = ng_config_preset_workloads(p); *n; n++) {
			EXPECT_NE(NULL, ng_workload_find(*n)) {
				TH_LOG("%s lists '%s'", p, *n);
			}
		}
	}
	EXPECT_EQ(ng_suite_bit("carve") | ng_suite_bit("scalegpu"),
		  ng_workload_suites(ng_workload_find("hotspot")));
}

TEST_HARNESS_MAIN
