// SPDX-License-Identifier: GPL-2.0
/*
 * cfd and hybridsort (workloads/rodinia/cfd.c, hybridsort.c) beyond their
 * verification: cfd launches Rodinia's eight kernels an iteration, its
 * three flux kernels make the same requests (the same cells, neighbours
 * and normals each stage), more than the time steps (the neighbours'
 * gathers), and a threaded run makes the deterministic one's; hybridsort
 * sorts lists whose buckets are not whole float4s and that leave
 * mergeSortPass few threads (its 8-block grid, its copying threads), for
 * more than one iteration, and a wrong element fails.
 */
#include <stdlib.h>
#include <string.h>

#include "ng_test.h"

#include "coda_fgp.h"

#include "ngemu/config.h"
#include "ngemu/runtime/system.h"
#include "ngemu/workloads/workload.h"

#define MAX_KERNELS	64

/* The requests of the timed kernels so far, after each of them. */
struct trace {
	struct ng_system *sys;
	unsigned int n, total;
	uint64_t req[MAX_KERNELS];
};

static void after_kernel(void *ctx, unsigned int done, unsigned int total)
{
	struct trace *t = ctx;
	struct ng_counters c;

	(void)done;
	t->total = total;
	if (t->n == MAX_KERNELS)
		return;
	ng_system_counters(t->sys, -1, &c);
	t->req[t->n++] = c.v[NG_CTR_REQ];
}

/* @wl on CODA's 4 GPUs, pages interleaved (no profiling run) */
static int run(const char *wl, struct ng_bench_opts *o, bool deterministic,
	       struct trace *t, struct ng_bench_result *r, char *err,
	       size_t errlen)
{
	struct ng_system *sys;
	int ret;

	ret = coda_fgp_system(&sys, deterministic, err, errlen);
	if (ret)
		return ret;
	if (t) {
		memset(t, 0, sizeof(*t));
		t->sys = sys;
		o->progress = after_kernel;
		o->ctx = t;
	}
	ret = ng_bench_run(sys, ng_workload_find(wl), o, r, err, errlen);
	ng_system_destroy(sys);
	return ret;
}

TEST(cfd_flux_stages_make_the_same_requests)
{
	struct ng_bench_result *r = calloc(1, sizeof(*r));
	struct trace *t = calloc(1, sizeof(*t));
	struct ng_bench_opts o = { .iters = 1 };
	uint64_t k[8];
	char err[512];

	ASSERT_NE(NULL, r);
	ASSERT_NE(NULL, t);
	ASSERT_EQ(0, run("cfd", &o, true, t, r, err, sizeof(err))) TH_LOG("%s", err);
	EXPECT_TRUE(r->verified) TH_LOG("%s", r->verify);
	/* copy, step factor, then flux and time step for 3 stages */
	ASSERT_EQ(8, t->n);
	EXPECT_EQ(8, t->total);
	for (unsigned int i = 0; i < 8; i++)
		k[i] = t->req[i] - (i ? t->req[i - 1] : 0);
	EXPECT_EQ(k[2], k[4]);
	EXPECT_EQ(k[2], k[6]);
	EXPECT_EQ(k[3], k[5]);
	EXPECT_EQ(k[3], k[7]);
	/* own 5 + 16 index and normal + up to 20 gathered lines a warp */
	EXPECT_LT(k[3], k[2]) TH_LOG("flux %llu, time step %llu",
				     (unsigned long long)k[2],
				     (unsigned long long)k[3]);
	free(t);
	free(r);
}

TEST(cfd_threaded_run_makes_the_deterministic_requests)
{
	struct ng_bench_result *d = calloc(1, sizeof(*d));
	struct ng_bench_result *r = calloc(1, sizeof(*r));
	struct ng_bench_opts o = { .iters = 2 };
	char err[512];

	ASSERT_NE(NULL, d);
	ASSERT_NE(NULL, r);
	ASSERT_EQ(0, run("cfd", &o, true, NULL, d, err, sizeof(err))) TH_LOG("%s", err);
	ASSERT_EQ(0, run("cfd", &o, false, NULL, r, err, sizeof(err))) TH_LOG("%s", err);
	EXPECT_TRUE(d->verified) TH_LOG("%s", d->verify);
	EXPECT_TRUE(r->verified) TH_LOG("%s", r->verify);
	EXPECT_EQ(d->total.v[NG_CTR_REQ], r->total.v[NG_CTR_REQ]);
	free(r);
	free(d);
}

TEST(hybridsort_sorts_uneven_buckets_twice)
{
	struct ng_bench_result *r = calloc(1, sizeof(*r));
	/* 10001 floats: 10000 used, about 10 a bucket, few merge threads */
	struct ng_bench_opts o = { .size = 40004, .iters = 2 };
	char err[512];

	ASSERT_NE(NULL, r);
	ASSERT_EQ(0, run("hybridsort", &o, true, NULL, r, err, sizeof(err)))
		TH_LOG("%s", err);
	EXPECT_TRUE(r->verified) TH_LOG("%s", r->verify);
	EXPECT_EQ(10000, r->elements);
	free(r);
}

TEST(hybridsort_a_wrong_element_fails)
{
	struct ng_bench_result *r = calloc(1, sizeof(*r));
	struct ng_bench_opts o = { .size = 64 << 10, .corrupt = true };
	char err[512];

	ASSERT_NE(NULL, r);
	ASSERT_EQ(0, run("hybridsort", &o, true, NULL, r, err, sizeof(err)))
		TH_LOG("%s", err);
	EXPECT_FALSE(r->verified);
	EXPECT_NE(NULL, strstr(r->verify, "sorted[8192]")) TH_LOG("%s", r->verify);
	EXPECT_NE(NULL, strstr(r->verify, "the CPU reference says"))
		TH_LOG("%s", r->verify);
	free(r);
}

TEST_HARNESS_MAIN
