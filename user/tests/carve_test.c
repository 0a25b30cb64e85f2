// SPDX-License-Identifier: GPL-2.0
/*
 * CARVE on whole workloads: each coherence mode and the replication
 * baselines on the read-write sharing workload, the carve-out's host
 * fallback, the report's arithmetic, and every workload under HWC.
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

/* ---- whole workloads ---------------------------------------------- */

/* @name at its defaults under carve at the scaled regime, one SM a GPU. */
static int run_wl(const char *name, const char *const *kv,
		  struct ng_bench_result *r, char *err, size_t errlen)
{
	return bench_run("carve", BENCH_SCALED | BENCH_ONE_SM, kv,
			 ng_workload_find(name), NULL, r, err, errlen);
}

TEST(rwshare_fails_without_coherence_and_verifies_with_it)
{
	static const char *const none[] = { "rdc-size", "4M", "coherence", "none", NULL };
	static const char *const swc[] = { "rdc-size", "4M", "coherence", "swc", NULL };
	static const char *const hwc[] = { "rdc-size", "4M", "coherence", "hwc", NULL };
	static const char *const ro[] = { "replicate", "ro", "rdc-size", "0", NULL };
	static const char *const all[] = { "replicate", "all", "rdc-size", "0", NULL };
	struct ng_bench_result *r = calloc(1, sizeof(*r));
	char err[512];

	ASSERT_NE(NULL, r);
	ASSERT_EQ(0, run_wl("rwshare", none, r, err, sizeof(err))) TH_LOG("%s", err);
	EXPECT_FALSE(r->verified);
	EXPECT_NE(NULL, strstr(r->verify, "stale data")) TH_LOG("%s", r->verify);
	EXPECT_LT(0, r->total.v[NG_CTR_RDC_HIT]);
	ASSERT_EQ(0, run_wl("rwshare", swc, r, err, sizeof(err))) TH_LOG("%s", err);
	EXPECT_TRUE(r->verified) TH_LOG("%s", r->verify);
	EXPECT_LT(0, r->total.v[NG_CTR_RDC_FLUSH]);
	ASSERT_EQ(0, run_wl("rwshare", hwc, r, err, sizeof(err))) TH_LOG("%s", err);
	EXPECT_TRUE(r->verified) TH_LOG("%s", r->verify);
	EXPECT_LT(0, r->total.v[NG_CTR_INV_MSGS]);
	ASSERT_EQ(0, run_wl("rwshare", ro, r, err, sizeof(err))) TH_LOG("%s", err);
	EXPECT_TRUE(r->verified) TH_LOG("%s", r->verify);
	EXPECT_LT(0, r->total.v[NG_CTR_REPL_COLLAPSE]);
	ASSERT_EQ(0, run_wl("rwshare", all, r, err, sizeof(err))) TH_LOG("%s", err);
	EXPECT_TRUE(r->verified) TH_LOG("%s", r->verify);
	EXPECT_EQ(0, r->total.v[NG_CTR_REMOTE]);
	free(r);
}

TEST(report_adds_up_and_carve_falls_back_to_host)
{
	static const char *const hwc[] = { "rdc-size", "4M", "coherence", "hwc",
					   "mem-per-gpu", "4M", "rdc-size", "1M",
					   NULL };
	struct ng_bench_result *r = calloc(1, sizeof(*r));
	const struct ng_counters *t;
	struct ng_bench_opts o = { .size = 2 << 20 };
	struct ng_config cfg;
	struct ng_system *sys;
	char err[512];

	ASSERT_NE(NULL, r);
	/* spmv, 2 MiB x: lookups are the L2's misses, hits + misses add up */
	ASSERT_EQ(0, ng_config_preset(&cfg, "carve", NULL, 0));
	cfg.sms = 1;
	cfg.page = 64 << 10;
	cfg.l2.size = 256 << 10;
	cfg.mem_per_gpu = 64 << 20;
	cfg.rdc.size = 4 << 20;
	cfg.rdc.pct = 0;
	cfg.deterministic = true;
	ASSERT_EQ(0, ng_system_create(&sys, &cfg, err, sizeof(err))) TH_LOG("%s", err);
	ASSERT_EQ(0, ng_bench_run(sys, ng_workload_find("spmv"), &o, r, err,
				  sizeof(err))) TH_LOG("%s", err);
	ng_system_destroy(sys);
	t = &r->total;
	EXPECT_TRUE(r->verified) TH_LOG("%s", r->verify);
	EXPECT_EQ(t->v[NG_CTR_L2_MISS], t->v[NG_CTR_RDC_HIT] + t->v[NG_CTR_RDC_MISS]);
	EXPECT_EQ(t->v[NG_CTR_RDC_MISS], t->v[NG_CTR_RDC_FILL]);
	EXPECT_EQ(t->v[NG_CTR_REQ], t->v[NG_CTR_LOCAL] + t->v[NG_CTR_REMOTE] +
				    t->v[NG_CTR_HOST]);
	EXPECT_EQ(t->v[NG_CTR_REQ], t->v[NG_CTR_REQ_LOAD] + t->v[NG_CTR_REQ_STORE] +
				    t->v[NG_CTR_REQ_ATOMIC]);
	EXPECT_LT(0.5, r->rdc_hit_rate);
	EXPECT_LT(r->link_frac, r->remote_frac);
	EXPECT_EQ(4ULL * (4 << 20), r->carve_bytes);
	EXPECT_EQ(0, r->fallback_bytes);
	/*
	 * 4 GPUs x 4 MiB with 1 MiB carved out of each: 12 MiB for buffers.
	 * hotspot's three 5 MiB grids no longer all fit: the last goes to host.
	 */
	o.size = 5 << 20;
	ASSERT_EQ(0, ng_config_preset(&cfg, "carve", NULL, 0));
	cfg.sms = 1;
	cfg.page = 64 << 10;
	cfg.l2.size = 256 << 10;
	cfg.deterministic = true;
	for (const char *const *kv = hwc; kv[0]; kv += 2)
		ASSERT_EQ(0, ng_config_set(&cfg, kv[0], kv[1], err, sizeof(err)));
	o.iters = 2;
	ASSERT_EQ(0, ng_system_create(&sys, &cfg, err, sizeof(err))) TH_LOG("%s", err);
	ASSERT_EQ(0, ng_bench_run(sys, ng_workload_find("hotspot"), &o, r, err,
				  sizeof(err))) TH_LOG("%s", err);
	ng_system_destroy(sys);
	EXPECT_TRUE(r->verified) TH_LOG("%s", r->verify);
	EXPECT_EQ(5 << 20, r->fallback_bytes);
	EXPECT_LT(0, r->total.v[NG_CTR_HOST]);
	free(r);
}

TEST(every_carve_workload_verifies_under_hwc)
{
	static const char *const hwc[] = { "rdc-size", "4M", "coherence", "hwc", NULL };
	static const char *const names[] = { "randaccess", "hotspot", "spmv", "bfs",
					     "bfs-road" };
	struct ng_bench_result *r = calloc(1, sizeof(*r));
	char err[512];

	ASSERT_NE(NULL, r);
	for (unsigned int i = 0; i < 5; i++) {
		struct ng_config cfg;
		struct ng_system *sys;
		struct ng_bench_opts o = { .size = 1 << 20, .iters = 2 };

		ASSERT_EQ(0, ng_config_preset(&cfg, "carve", NULL, 0));
		cfg.sms = 1;
		cfg.page = 64 << 10;
		cfg.l2.size = 256 << 10;
		cfg.mem_per_gpu = 64 << 20;
		cfg.deterministic = true;
		for (const char *const *kv = hwc; kv[0]; kv += 2)
			ASSERT_EQ(0, ng_config_set(&cfg, kv[0], kv[1], err, sizeof(err)));
		ASSERT_EQ(0, ng_system_create(&sys, &cfg, err, sizeof(err)));
		ASSERT_EQ(0, ng_bench_run(sys, ng_workload_find(names[i]), &o, r,
					  err, sizeof(err))) TH_LOG("%s: %s", names[i], err);
		ng_system_destroy(sys);
		EXPECT_TRUE(r->verified) TH_LOG("%s: %s", names[i], r->verify);
		EXPECT_EQ(r->total.v[NG_CTR_L2_MISS],
			  r->total.v[NG_CTR_RDC_HIT] + r->total.v[NG_CTR_RDC_MISS]);
	}
	free(r);
}

TEST_HARNESS_MAIN
