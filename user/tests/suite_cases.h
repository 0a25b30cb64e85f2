/* SPDX-License-Identifier: GPL-2.0 */
/*
 * A paper's suite as a user meets it (the CLI tests of rec and dualopt):
 * every workload of the suite verified on the paper's preset, and failing
 * with the CPU reference's value when one element of its result is wrong
 * (at a small size: corrupt_small()).
 * Include after ng_test.h and run_cmd.h, with NGEMU() defined.
 */
#ifndef NGEMU_TEST_SUITE_CASES_H
#define NGEMU_TEST_SUITE_CASES_H

#include <stdio.h>

#include "bench_run.h"
#include "ngemu/workloads/workload.h"

/*
 * `ngemu bench W --system @preset --deterministic --iters 1 --corrupt-one`
 * at a small size, as bench_run.h's BENCH_SMALL picks it (a workload that
 * needs more exits 2 and is run again at twice the size): the check of the
 * check does not depend on the size. What run_cmd() returns.
 */
static inline int corrupt_small(struct cmd_result *r,
				const struct ng_workload *w,
				const char *preset)
{
	uint64_t size = BENCH_SMALL_SIZE;
	char sz[32];
	int ret;

	do {
		snprintf(sz, sizeof(sz), "%llu", (unsigned long long)
			 (size < w->default_size ? size : w->default_size));
		ret = run_cmd(r, NGEMU("bench", (char *)w->name, "--system",
				       (char *)preset, "--deterministic",
				       "--iters", "1", "--size", sz,
				       "--corrupt-one"));
		size *= 2;
	} while (!ret && r->status == 2 && size / 2 < w->default_size);
	return ret;
}

/* The workloads of @suite on @preset; @also: a line every report has. */
static inline unsigned int suite_verifies(struct __test_metadata *_metadata,
					  struct cmd_result *r,
					  unsigned int suite, const char *preset,
					  const char *also)
{
	unsigned int n = 0;

	for (unsigned int i = 0; ng_workloads[i]; i++) {
		const char *name = ng_workloads[i]->name;

		if (!(ng_workload_suites(ng_workloads[i]) & suite))
			continue;
		n++;
		ASSERT_EQ(0, run_cmd(r, NGEMU("bench", (char *)name, "--system",
					      (char *)preset, "--deterministic",
					      "--iters", "1")))
			TH_LOG("%s", name);
		EXPECT_EQ(0, r->status) TH_LOG("%s: %s", name, r->err);
		EXPECT_NE(NULL, strstr(r->out, ": verified")) TH_LOG("%s", name);
		if (also)
			EXPECT_NE(NULL, strstr(r->out, also)) TH_LOG("%s", name);
		ASSERT_EQ(0, corrupt_small(r, ng_workloads[i], preset))
			TH_LOG("%s", name);
		EXPECT_EQ(1, r->status) TH_LOG("%s", name);
		EXPECT_NE(NULL, strstr(r->out, "FAILED")) TH_LOG("%s", name);
		EXPECT_NE(NULL, strstr(r->out, "the CPU reference says"))
			TH_LOG("%s: %s", name, r->out);
	}
	return n;
}

#endif /* NGEMU_TEST_SUITE_CASES_H */
