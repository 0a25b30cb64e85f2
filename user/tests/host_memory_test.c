// SPDX-License-Identifier: GPL-2.0
/*
 * Host memory as a home: every workload of every preset verifies with its
 * buffers in host memory (--placement host; at a small size, bench_run.h),
 * and CARVE's workloads verify when the carve-out pushes part of their
 * buffers to host memory. Caches
 * that keep lines across kernels (CARVE's hardware coherence, REC's
 * directory) must not keep host lines: no coherence mechanism sees a write
 * to them, and a kernel would read what the one before last wrote.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "ng_test.h"

#include "ngemu/config.h"
#include "ngemu/runtime/system.h"
#include "ngemu/workloads/workload.h"

#include "bench_run.h"

/* Run @wl under @preset with @kv set; -errno for a config that cannot run. */
static int run(const char *preset, const struct ng_workload *wl,
	       const char *const *kv, struct ng_bench_result *r, char *err,
	       size_t errlen)
{
	return bench_run(preset, 0, kv, wl, NULL, r, err, errlen);
}

TEST(every_workload_verifies_in_host_memory_under_every_preset)
{
	static const char *const presets[] = { "carve", "dualopt", "rec",
					       "scalegpu", "coda" };
	static const char *const host[] = { "placement", "host", NULL };
	struct ng_bench_result *r = calloc(1, sizeof(*r));
	unsigned int runs = 0;
	char err[512];

	ASSERT_NE(NULL, r);
	for (unsigned int p = 0; p < 5; p++) {
		for (const struct ng_workload *const *w = ng_workloads; *w; w++) {
			if (!(ng_workload_suites(*w) & ng_suite_bit(presets[p])))
				continue;
			ASSERT_EQ(0, bench_run(presets[p], BENCH_SMALL, host, *w,
					       NULL, r, err, sizeof(err)))
				TH_LOG("%s %s: %s", presets[p], (*w)->name, err);
			EXPECT_TRUE(r->verified)
				TH_LOG("%s %s: %s", presets[p], (*w)->name, r->verify);
			/* (aes places its per-GPU tables itself) */
			EXPECT_LT(0, r->host_frac)
				TH_LOG("%s %s: %.3f", presets[p], (*w)->name,
				       r->host_frac);
			runs++;
		}
	}
	EXPECT_LT(40, runs);
	free(r);
}

/*
 * The carve-out takes half of each GPU's memory, which was just enough
 * for the workload: what does not fit falls back to host memory.
 */
TEST(carve_workloads_verify_through_the_fallback_to_host)
{
	struct ng_bench_result *r = calloc(1, sizeof(*r));
	char err[512], mem[32];

	ASSERT_NE(NULL, r);
	for (const struct ng_workload *const *w = ng_workloads; *w; w++) {
		uint64_t per_gpu = 2ULL << 20;
		int ret;

		if (!(ng_workload_suites(*w) & ng_suite_bit("carve")))
			continue;
		/* the least memory in which the workload runs at all */
		do {
			const char *kv[] = { "mem-per-gpu", mem, "rdc-size", "50%",
					     NULL };

			snprintf(mem, sizeof(mem), "%llu",
				 (unsigned long long)per_gpu);
			ret = run("carve", *w, kv, r, err, sizeof(err));
			per_gpu *= 2;
		} while ((ret == -EINVAL || ret == -ENOMEM) && per_gpu <= 1ULL << 30);
		ASSERT_EQ(0, ret) TH_LOG("%s: %s", (*w)->name, err);
		EXPECT_LT(0, r->fallback_bytes) TH_LOG("%s", (*w)->name);
		EXPECT_LT(0, r->host_frac) TH_LOG("%s", (*w)->name);
		EXPECT_TRUE(r->verified) TH_LOG("%s: %s", (*w)->name, r->verify);
	}
	free(r);
}

/* The check of the check: a wrong element is still caught in host memory. */
TEST(a_wrong_element_in_host_memory_fails_verification)
{
	static const char *const host[] = { "placement", "host", NULL };
	struct ng_bench_result *r = calloc(1, sizeof(*r));
	struct ng_config cfg;
	struct ng_system *sys;
	struct ng_bench_opts o = { .corrupt = true };
	char err[512];

	ASSERT_NE(NULL, r);
	ASSERT_EQ(0, ng_config_preset(&cfg, "rec", err, sizeof(err)));
	cfg.deterministic = true;
	ASSERT_EQ(0, ng_config_set(&cfg, host[0], host[1], err, sizeof(err)));
	ASSERT_EQ(0, ng_system_create(&sys, &cfg, err, sizeof(err))) TH_LOG("%s", err);
	ASSERT_EQ(0, ng_bench_run(sys, ng_workload_find("bfs"), &o, r, err,
				  sizeof(err))) TH_LOG("%s", err);
	EXPECT_FALSE(r->verified);
	ng_system_destroy(sys);
	free(r);
}

TEST_HARNESS_MAIN
