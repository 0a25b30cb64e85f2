// SPDX-License-Identifier: GPL-2.0
/*
 * The BFS workloads as their papers ran them, seen from their counters.
 *
 * bfs-shoc is SHOC's warp-centric kernel (workloads/shoc/bfs.c) on an
 * R-MAT graph: one kernel a level of 1024-thread blocks, each warp going
 * through its 32 vertices one at a time, all its lanes reading that
 * vertex's level (one single-lane load a vertex a level, where a thread
 * per vertex would load 32 levels at once), then a frontier vertex's two
 * offsets in one load, then its neighbours 32 at a time over consecutive
 * lanes (at most two lines a trip) and their levels; each lane that
 * finds one unreached stores its level and the flag. The search starts
 * at a vertex with the most edges. The counts follow from the graph,
 * which the test makes again from the same seed, up to the neighbours a
 * lane finds unreached (at least one lane for each vertex reached, at
 * most one a neighbour).
 *
 * bfs-road is Rodinia's bfs on the road graph: its levels are the road
 * graph's depth, its logical bytes count the road graph's edges (bfs's
 * 8 a vertex would give others), and first touch keeps the map's regions
 * on their GPUs, where bfs's random edges cross them.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "ng_test.h"

#include "ngemu/config.h"
#include "ngemu/runtime/system.h"
#include "ngemu/workloads/workload.h"
#include "workloads/inputs/graph.h"

#define SHOC_SIZE	(128u << 10)	/* levels[]: 32768 vertices */
#define ROAD_SIZE	(256u << 10)	/* costs: 65536 vertices */
#define BLOCK		1024		/* bfs-shoc's work-groups */

/* The CPU BFS of @g from @src: levels in @lv (~0: unreached); the depth. */
static uint32_t cpu_bfs(const struct wl_graph *g, uint32_t src, uint32_t *lv)
{
	uint32_t *q = malloc(g->n * 4), head = 0, tail = 0, depth = 0;

	if (!q)
		abort();
	memset(lv, 0xff, g->n * 4);
	lv[src] = 0;
	q[tail++] = src;
	while (head < tail) {
		uint32_t v = q[head++];

		depth = lv[v];
		for (uint32_t e = g->row[v]; e < g->row[v + 1]; e++)
			if (lv[g->col[e]] == UINT32_MAX) {
				lv[g->col[e]] = lv[v] + 1;
				q[tail++] = g->col[e];
			}
	}
	free(q);
	return depth;
}

static void run(struct __test_metadata *_metadata, const char *wl,
		uint64_t size, unsigned int page, struct ng_config *cfg,
		struct ng_bench_result *r)
{
	struct ng_bench_opts o = { .size = size, .iters = 1 };
	struct ng_system *sys;
	char err[256];

	ASSERT_EQ(0, ng_config_preset(cfg, "carve", err, sizeof(err)));
	cfg->sms = 1;
	cfg->page = page;
	cfg->l2.size = 256 << 10;
	cfg->mem_per_gpu = 64 << 20;
	cfg->deterministic = true;
	ASSERT_EQ(0, ng_system_create(&sys, cfg, err, sizeof(err))) TH_LOG("%s", err);
	ASSERT_EQ(0, ng_bench_run(sys, ng_workload_find(wl), &o, r, err,
				  sizeof(err))) TH_LOG("%s", err);
	ng_system_destroy(sys);
	EXPECT_TRUE(r->verified) TH_LOG("%s: %s", wl, r->verify);
}

TEST(shoc_a_warp_per_32_vertices_its_lanes_over_the_neighbours)
{
	struct ng_bench_result *r = calloc(1, sizeof(*r));
	uint64_t n = SHOC_SIZE / 4, reached = 0, edges = 0, trips = 0, scan;
	uint64_t insts, nblocks = (n + BLOCK - 1) / BLOCK, found_lo, found_hi;
	const struct ng_counters *t = &r->total;
	uint32_t src = 0, depth, *lv = malloc(n * 4);
	struct ng_config cfg;
	struct wl_graph g;
	char want[160];

	ASSERT_NE(NULL, r);
	ASSERT_NE(NULL, lv);
	run(_metadata, "bfs-shoc", SHOC_SIZE, 64 << 10, &cfg, r);
	ASSERT_EQ(0, wl_graph_make(&g, WL_GRAPH_RMAT, n, cfg.seed, WL_GRAPH_PERMUTE));
	for (uint32_t v = 1; v < n; v++)
		if (g.row[v + 1] - g.row[v] > g.row[src + 1] - g.row[src])
			src = v;
	depth = cpu_bfs(&g, src, lv);
	for (uint32_t v = 0; v < n; v++) {
		uint32_t d = g.row[v + 1] - g.row[v];

		if (lv[v] == UINT32_MAX)
			continue;
		reached++;
		edges += d;
		trips += (d + 31) / 32;
	}
	/* from the hub, over every level, one kernel each */
	snprintf(want, sizeof(want), "from vertex %u (%u levels)", src, depth + 1);
	EXPECT_NE(NULL, strstr(r->verify, want)) TH_LOG("%s, want %s", r->verify, want);
	EXPECT_EQ((depth + 1) * nblocks, t->v[NG_CTR_BLOCKS]);
	/*
	 * Lanes: a vertex's level by one lane, a level; a frontier vertex's
	 * two offsets, its edges and their levels; two stores a neighbour
	 * found unreached, each reached vertex found at least once.
	 */
	scan = (depth + 1) * n;
	found_lo = reached - 1;
	found_hi = edges;
	EXPECT_LE(scan + 2 * reached + 2 * edges + 2 * found_lo, t->v[NG_CTR_LANES]);
	EXPECT_GE(scan + 2 * reached + 2 * edges + 2 * found_hi, t->v[NG_CTR_LANES]);
	/*
	 * Load requests: one a vertex a level; the offsets one or two; a
	 * trip's edges (32 words) one or two lines, their levels one to a
	 * line a lane
	 */
	EXPECT_LE(scan + reached + 2 * trips, t->v[NG_CTR_REQ_LOAD]);
	EXPECT_GE(scan + 2 * reached + 2 * trips + edges, t->v[NG_CTR_REQ_LOAD]);
	/*
	 * MGPUSim's GCN code (shoc/bfs.c): the start, a vertex, a frontier
	 * vertex and its trips, and a trip that found some
	 */
	insts = (depth + 1) * (nblocks * (BLOCK / 32) * 66 + n * 14) +
		reached * 12 + trips * 21;
	EXPECT_LE(insts, t->v[NG_CTR_INSTS]);
	EXPECT_GE(insts + trips * 4, t->v[NG_CTR_INSTS]);
	wl_graph_free(&g);
	free(lv);
	free(r);
}

/*
 * bfs-road: the road graph's levels and edges; its regions stay local
 * under first touch (4 KiB pages, so that the byte flags spread over the
 * GPUs as the map does), where bfs's random edges cross the GPUs.
 */
TEST(road_runs_rodinias_bfs_on_the_road_graph)
{
	struct ng_bench_result *r = calloc(1, sizeof(*r));
	uint64_t n = ROAD_SIZE / 4, levels;
	uint32_t depth, *lv = malloc(n * 4);
	struct ng_config cfg;
	struct wl_graph g;
	double road_remote;
	char want[160];

	ASSERT_NE(NULL, r);
	ASSERT_NE(NULL, lv);
	run(_metadata, "bfs-road", ROAD_SIZE, 4 << 10, &cfg, r);
	ASSERT_EQ(0, wl_graph_make(&g, WL_GRAPH_ROAD, n, cfg.seed, 0));
	depth = cpu_bfs(&g, 0, lv);
	levels = depth + 1;
	/* hundreds of levels: a road map's, not a random graph's handful */
	EXPECT_LT(300, levels);
	snprintf(want, sizeof(want), "(%llu levels of 2 kernels)",
		 (unsigned long long)levels);
	EXPECT_NE(NULL, strstr(r->verify, want)) TH_LOG("%s, want %s", r->verify, want);
	EXPECT_EQ(2 * levels * (n / 256), r->total.v[NG_CTR_BLOCKS]);
	/* the flags of every level, each vertex (all reached) and each edge */
	EXPECT_EQ(levels * n * 2 + n * 21 + g.m * 5, r->bytes);
	road_remote = r->remote_frac;
	EXPECT_GT(0.1, road_remote);
	run(_metadata, "bfs", ROAD_SIZE, 4 << 10, &cfg, r);
	EXPECT_LT(0.3, r->remote_frac);
	EXPECT_LT(3 * road_remote, r->remote_frac);
	wl_graph_free(&g);
	free(lv);
	free(r);
}

TEST(each_graph_workload_names_its_input)
{
	static const char *const graph[] = { "bfs", "bfs-road", "bfs-shoc",
					     "sssp", "pr", "cc", "dc", "tc" };

	for (unsigned int i = 0; i < sizeof(graph) / sizeof(graph[0]); i++) {
		const struct ng_workload *w = ng_workload_find(graph[i]);

		ASSERT_NE(NULL, w) TH_LOG("%s", graph[i]);
		ASSERT_NE(NULL, w->input) TH_LOG("%s", graph[i]);
		EXPECT_NE(NULL, strchr(w->input, ':')) TH_LOG("%s", w->input);
	}
	EXPECT_EQ(0, strncmp(ng_workload_find("bfs-road")->input, "road:", 5));
	EXPECT_EQ(0, strncmp(ng_workload_find("bfs-shoc")->input, "rmat:", 5));
	EXPECT_EQ(0, strncmp(ng_workload_find("bfs")->input, "uniform:", 8));
	/* each paper's bfs in its suite */
	EXPECT_EQ(ng_suite_bit("carve"), ng_workload_suites(ng_workload_find("bfs-road")));
	EXPECT_EQ(ng_suite_bit("dualopt"), ng_workload_suites(ng_workload_find("bfs-shoc")));
	EXPECT_EQ(ng_suite_bit("coda"), ng_workload_suites(ng_workload_find("bfs")));
	EXPECT_EQ(NULL, ng_workload_find("stream-triad")->input);
}

TEST_HARNESS_MAIN
