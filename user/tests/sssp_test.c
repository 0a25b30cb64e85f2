// SPDX-License-Identifier: GPL-2.0
/*
 * sssp as Rodinia's bfs distributes its work (workloads/rodinia/sssp.c):
 * a level's first kernel reads the rows of the frontier only, so the
 * first and last levels make a small part of the requests of a level
 * whose frontier is most of the graph; a wrong distance fails the
 * verification; and, since the first kernel reads nothing the same kernel
 * writes, a threaded run makes the requests of the deterministic one.
 */
#include <stdlib.h>
#include <string.h>

#include "ng_test.h"

#include "coda_fgp.h"

#include "ngemu/config.h"
#include "ngemu/runtime/system.h"
#include "ngemu/workloads/workload.h"

#define MAX_KERNELS	512

/* The requests of the timed kernels so far, after each of them. */
struct trace {
	struct ng_system *sys;
	unsigned int n;
	uint64_t req[MAX_KERNELS];
};

static void after_kernel(void *ctx, unsigned int done, unsigned int total)
{
	struct trace *t = ctx;
	struct ng_counters c;

	(void)done;
	(void)total;
	if (t->n == MAX_KERNELS)
		return;
	ng_system_counters(t->sys, -1, &c);
	t->req[t->n++] = c.v[NG_CTR_REQ];
}

/*
 * sssp at its default size on CODA's 4 GPUs, pages interleaved (no
 * profiling run), threaded on 2 host threads or deterministic; @t: each
 * kernel's requests.
 */
static int run(bool deterministic, bool corrupt, struct trace *t,
	       struct ng_bench_result *r, char *err, size_t errlen)
{
	struct ng_bench_opts o = { .corrupt = corrupt };
	struct ng_system *sys;
	int ret;

	ret = coda_fgp_system(&sys, deterministic, err, errlen);
	if (ret)
		return ret;
	if (t) {
		memset(t, 0, sizeof(*t));
		t->sys = sys;
		o.progress = after_kernel;
		o.ctx = t;
	}
	ret = ng_bench_run(sys, ng_workload_find("sssp"), &o, r, err, errlen);
	ng_system_destroy(sys);
	return ret;
}

TEST(the_first_and_last_levels_touch_a_small_part_of_the_graph)
{
	struct ng_bench_result *r = calloc(1, sizeof(*r));
	struct trace *t = calloc(1, sizeof(*t));
	uint64_t k1[MAX_KERNELS / 2], k2, most = 0, n;
	unsigned int levels;
	char err[512];

	ASSERT_NE(NULL, r);
	ASSERT_NE(NULL, t);
	ASSERT_EQ(0, run(true, false, t, r, err, sizeof(err))) TH_LOG("%s", err);
	EXPECT_TRUE(r->verified) TH_LOG("%s", r->verify);
	n = r->elements;
	/* two kernels a level, and more than a few levels */
	ASSERT_EQ(0, t->n % 2);
	levels = t->n / 2;
	ASSERT_LT(4, levels);
	EXPECT_EQ(r->total.v[NG_CTR_REQ], t->req[t->n - 1]);
	for (unsigned int lv = 0; lv < levels; lv++) {
		k1[lv] = t->req[2 * lv] - (lv ? t->req[2 * lv - 1] : 0);
		k2 = t->req[2 * lv + 1] - t->req[2 * lv];
		if (k1[lv] > most)
			most = k1[lv];
		/*
		 * Kernel2 loads both costs and stores ucost[] of every
		 * vertex, whatever the frontier: 3 x 4 B a vertex, in 64 B
		 * lines
		 */
		EXPECT_LE(3 * n / 16, k2) TH_LOG("level %u", lv);
	}
	/*
	 * Level 0's Kernel: every warp loads its 32 mask bytes (n / 32
	 * requests), then vertex 0 alone its node, cost, row and atomics;
	 * the graph's edges alone are n / 2 lines. The last level's frontier
	 * is a few vertices found by the level before.
	 */
	EXPECT_LT(k1[0], n / 32 + 64) TH_LOG("%llu requests", (unsigned long long)k1[0]);
	EXPECT_LT(k1[levels - 1], n / 16)
		TH_LOG("%llu requests", (unsigned long long)k1[levels - 1]);
	EXPECT_LT(100 * k1[0], most) TH_LOG("%llu requests", (unsigned long long)most);
	EXPECT_LT(100 * k1[levels - 1], most);
	free(t);
	free(r);
}

TEST(a_wrong_distance_fails_verification)
{
	struct ng_bench_result *r = calloc(1, sizeof(*r));
	char err[512];

	ASSERT_NE(NULL, r);
	ASSERT_EQ(0, run(true, true, NULL, r, err, sizeof(err))) TH_LOG("%s", err);
	EXPECT_FALSE(r->verified);
	EXPECT_NE(NULL, strstr(r->verify, "the CPU reference says"))
		TH_LOG("%s", r->verify);
	free(r);
}

TEST(a_threaded_run_makes_the_deterministic_requests)
{
	struct ng_bench_result *d = calloc(1, sizeof(*d));
	struct ng_bench_result *r = calloc(1, sizeof(*r));
	char err[512];

	ASSERT_NE(NULL, d);
	ASSERT_NE(NULL, r);
	ASSERT_EQ(0, run(true, false, NULL, d, err, sizeof(err))) TH_LOG("%s", err);
	ASSERT_EQ(0, run(false, false, NULL, r, err, sizeof(err))) TH_LOG("%s", err);
	EXPECT_TRUE(d->verified) TH_LOG("%s", d->verify);
	EXPECT_TRUE(r->verified) TH_LOG("%s", r->verify);
	EXPECT_STREQ(d->verify, r->verify);
	EXPECT_EQ(2, r->threads);
	EXPECT_EQ(d->total.v[NG_CTR_REQ], r->total.v[NG_CTR_REQ]);
	EXPECT_EQ(d->total.v[NG_CTR_REQ_ATOMIC], r->total.v[NG_CTR_REQ_ATOMIC]);
	EXPECT_EQ(d->modeled_s, r->modeled_s);
	free(r);
	free(d);
}

TEST_HARNESS_MAIN
