// SPDX-License-Identifier: GPL-2.0
/*
 * pr-road and pr-rmat (workloads/heteromark/pr.c): pr's kernels on the
 * road and R-MAT graphs, CODA Fig. 12's regular and irregular kinds of
 * input. Each verifies against its CPU reference and fails when one rank
 * is wrong; each runs on the graph pr_graph_make() gives for its size,
 * whose degrees are as even (road) or as uneven (rmat) as the figure's
 * two ends, measured as their coefficient of variation (CoV); and the
 * matrix's values are the linking page's 1 / out-degree, which on these
 * symmetric graphs is its row's length.
 */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "ng_test.h"
#include "bench_run.h"

#include "workloads/heteromark/pr_graph.h"

#define SMALL	(64u << 10)	/* road: 6068 pages; rmat: 512 (scale 9) */

static const char *const fgp[] = { "placement", "fgp", NULL };

/* The CoV of @g's row lengths: stddev / mean over every page. */
static double degree_cov(const struct pr_graph *g)
{
	double s = 0, s2 = 0, m;

	for (uint32_t v = 0; v < g->n; v++) {
		double d = g->rowp[v + 1] - g->rowp[v];

		s += d;
		s2 += d * d;
	}
	m = s / g->n;
	return sqrt(s2 / g->n - m * m) / m;
}

/* The graph the workload runs on for --size @size under the coda preset. */
static void make(struct __test_metadata *_metadata, enum wl_graph_kind kind,
		 uint64_t size, struct pr_graph *g)
{
	struct ng_config cfg;
	char err[256];

	ASSERT_EQ(0, ng_config_preset(&cfg, "coda", err, sizeof(err)));
	ASSERT_EQ(0, pr_graph_make(g, kind, (uint32_t)pr_pages(kind, size),
				   size / 4, cfg.seed));
}

static void run(struct __test_metadata *_metadata, const char *wl,
		uint64_t size, bool corrupt, struct ng_bench_result *r)
{
	struct ng_bench_opts o = { .size = size, .iters = 2,
				   .corrupt = corrupt };
	char err[512];

	ASSERT_EQ(0, bench_run("coda", 0, fgp, ng_workload_find(wl), &o, r,
			       err, sizeof(err))) TH_LOG("%s", err);
}

TEST(pr_road_matches_the_cpu_reference)
{
	struct ng_bench_result *r = calloc(1, sizeof(*r));

	ASSERT_NE(NULL, r);
	run(_metadata, "pr-road", SMALL, false, r);
	EXPECT_TRUE(r->verified) TH_LOG("%s", r->verify);
	EXPECT_EQ(pr_pages(WL_GRAPH_ROAD, SMALL), r->elements);
	EXPECT_EQ(6068, r->elements);
	free(r);
}

TEST(pr_rmat_matches_the_cpu_reference)
{
	struct ng_bench_result *r = calloc(1, sizeof(*r));

	ASSERT_NE(NULL, r);
	run(_metadata, "pr-rmat", SMALL, false, r);
	EXPECT_TRUE(r->verified) TH_LOG("%s", r->verify);
	/* a Graph500 scale: 2 x 16 drawn links a page */
	EXPECT_EQ(512, r->elements);
	free(r);
}

TEST(a_wrong_rank_fails)
{
	static const char *const wl[] = { "pr-road", "pr-rmat" };
	struct ng_bench_result *r = calloc(1, sizeof(*r));
	char want[32];

	ASSERT_NE(NULL, r);
	for (unsigned int i = 0; i < 2; i++) {
		memset(r, 0, sizeof(*r));
		run(_metadata, wl[i], SMALL, true, r);
		EXPECT_FALSE(r->verified) TH_LOG("%s: %s", wl[i], r->verify);
		/* wl_corrupt_f32() changes the middle page's rank */
		snprintf(want, sizeof(want), "rank[%llu] = ",
			 (unsigned long long)r->elements / 2);
		EXPECT_EQ(0, strncmp(r->verify, want, strlen(want)))
			TH_LOG("%s: %s", wl[i], r->verify);
		EXPECT_NE(NULL, strstr(r->verify, "the CPU reference says"));
	}
	free(r);
}

/*
 * The road map's degrees are 1 to 8 about 2.7, the R-MAT's heavy-tailed:
 * CoV 0.36 and 3.13 at the default size (pr's uniform in-links: 0.22).
 * The small size's R-MAT, scale 9, has fewer draws for its hubs to
 * gather, and less spread.
 */
TEST(road_is_regular_rmat_is_not)
{
	static const uint64_t sizes[] = { SMALL, 1u << 20 };
	struct pr_graph g;

	for (unsigned int i = 0; i < 2; i++) {
		double road, rmat, uniform;

		make(_metadata, WL_GRAPH_ROAD, sizes[i], &g);
		road = degree_cov(&g);
		pr_graph_free(&g);
		make(_metadata, WL_GRAPH_RMAT, sizes[i], &g);
		rmat = degree_cov(&g);
		pr_graph_free(&g);
		make(_metadata, WL_GRAPH_UNIFORM, sizes[i], &g);
		uniform = degree_cov(&g);
		pr_graph_free(&g);
		TH_LOG("size %llu: CoV road %.4f, rmat %.4f, uniform %.4f",
		       (unsigned long long)sizes[i], road, rmat, uniform);
		EXPECT_GT(0.5, road);
		EXPECT_LT(1.5, rmat);
		EXPECT_GT(0.5, uniform);
	}
	make(_metadata, WL_GRAPH_ROAD, 1u << 20, &g);
	EXPECT_EQ(97090, g.n);
	EXPECT_EQ(36, (int)lround(100 * degree_cov(&g)));
	pr_graph_free(&g);
	make(_metadata, WL_GRAPH_RMAT, 1u << 20, &g);
	EXPECT_EQ(8192, g.n);
	EXPECT_EQ(313, (int)lround(100 * degree_cov(&g)));
	pr_graph_free(&g);
}

/* Symmetric rows: a link's value is 1 / the length of its source's row. */
TEST(values_are_one_over_the_linking_pages_degree)
{
	static const enum wl_graph_kind kind[] = { WL_GRAPH_ROAD, WL_GRAPH_RMAT };
	struct pr_graph g;

	for (unsigned int i = 0; i < 2; i++) {
		make(_metadata, kind[i], SMALL, &g);
		for (uint32_t v = 0; v < g.n; v++)
			for (uint32_t e = g.rowp[v]; e < g.rowp[v + 1]; e++) {
				uint32_t u = g.col[e];

				ASSERT_EQ(1.0f / (float)(g.rowp[u + 1] - g.rowp[u]),
					  g.val[e]);
			}
		pr_graph_free(&g);
	}
}

TEST(in_the_coda_suite_with_their_inputs)
{
	const struct ng_workload *road = ng_workload_find("pr-road");
	const struct ng_workload *rmat = ng_workload_find("pr-rmat");
	struct ng_bench_result *r = calloc(1, sizeof(*r));
	struct ng_bench_opts o = { .size = 8188 };
	char err[512];

	ASSERT_NE(NULL, road);
	ASSERT_NE(NULL, rmat);
	ASSERT_NE(NULL, r);
	EXPECT_EQ(0, strncmp(road->input, "road:", 5));
	EXPECT_EQ(0, strncmp(rmat->input, "rmat:", 5));
	EXPECT_EQ(ng_suite_bit("coda"), ng_workload_suites(road));
	EXPECT_EQ(ng_suite_bit("coda"), ng_workload_suites(rmat));
	/* 64 pages at least, a work-group each, as pr */
	EXPECT_EQ(-EINVAL, bench_run("coda", 0, fgp, rmat, &o, r, err,
				     sizeof(err)));
	EXPECT_NE(NULL, strstr(err, "pr-rmat: size must hold the links of 64 pages (8192 bytes)"))
		TH_LOG("%s", err);
	free(r);
}

TEST_HARNESS_MAIN
