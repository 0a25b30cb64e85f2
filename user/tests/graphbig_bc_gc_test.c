// SPDX-License-Identifier: GPL-2.0
/*
 * bc and gc (workloads/graphbig/bc.c, gc.c) beyond their verification,
 * which compares a run with the CPU reference of graphbig/ref.h: that
 * reference is checked here, bc's against a brute-force betweenness (all
 * shortest paths counted from every vertex, no dependency recursion) on
 * small graphs, gc's for what a Jones-Plassmann colouring is (no edge's
 * ends share a colour; a vertex is the first of its neighbours not
 * coloured before it, and was not the first a colour earlier). Then the
 * runs: they verify (so they equal the checked references), their
 * colour count is the reference's, and gc, whose branches do not depend
 * on the order of its threads, makes the same requests threaded as
 * deterministic.
 */
#include <stdlib.h>
#include <string.h>

#include "ng_test.h"

#include "ngemu/config.h"
#include "ngemu/runtime/system.h"
#include "ngemu/workloads/workload.h"
#include "workloads/graphbig/ref.h"

/*
 * @name on CODA's preset at @size bytes (0: its default), deterministic
 * or on 2 host threads; the seed the run's graph is made from in @seed.
 */
static int run(const char *name, uint64_t size, bool deterministic,
	       bool corrupt, struct ng_bench_result *r, uint64_t *seed)
{
	struct ng_bench_opts o = { .size = size, .iters = 1,
				   .corrupt = corrupt };
	struct ng_config cfg;
	struct ng_system *sys;
	char err[512];
	int ret;

	if (ng_config_preset(&cfg, "coda", err, sizeof(err)) ||
	    ng_config_set(&cfg, "threads", "2", err, sizeof(err)))
		return -EINVAL;
	cfg.deterministic = deterministic;
	*seed = cfg.seed;
	ret = ng_system_create(&sys, &cfg, err, sizeof(err));
	if (ret)
		return ret;
	ret = ng_bench_run(sys, ng_workload_find(name), &o, r, err,
			   sizeof(err));
	ng_system_destroy(sys);
	return ret;
}

/* Every vertex's distance and shortest-path count from @s (BFS). */
static void bfs_from(const struct gb_graph *g, uint32_t s, uint32_t *dist,
		     double *sigma, uint32_t *queue)
{
	uint64_t head = 0, tail = 0;

	for (uint64_t v = 0; v < g->n; v++) {
		dist[v] = BC_INF;
		sigma[v] = 0;
	}
	dist[s] = 0;
	sigma[s] = 1;
	queue[tail++] = s;
	while (head < tail) {
		uint32_t u = queue[head++];

		for (uint32_t e = g->row[u]; e < g->row[u + 1]; e++) {
			uint32_t w = g->col[e];

			if (dist[w] == BC_INF) {
				dist[w] = dist[u] + 1;
				queue[tail++] = w;
			}
			if (dist[w] == dist[u] + 1)
				sigma[w] += sigma[u];
		}
	}
}

/*
 * Brute force: bc[v] = the sum over the sources s and the targets t of
 * sigma_st(v) / sigma_st, where sigma_st(v) = sigma_sv x sigma_vt when v
 * lies on a shortest s-t path (d(s, v) + d(v, t) = d(s, t)).
 */
static void brute_bc(const struct gb_graph *g, unsigned int sources,
		     double *bc)
{
	uint64_t n = g->n;
	uint32_t *dist = malloc(n * n * 4), *queue = malloc(n * 4);
	double *sigma = malloc(n * n * sizeof(double));

	for (uint64_t v = 0; v < n; v++)
		bfs_from(g, (uint32_t)v, dist + v * n, sigma + v * n, queue);
	for (uint64_t v = 0; v < n; v++)
		bc[v] = 0;
	for (uint64_t s = 0; s < sources; s++)
		for (uint64_t t = 0; t < n; t++) {
			if (t == s || dist[s * n + t] == BC_INF)
				continue;
			for (uint64_t v = 0; v < n; v++) {
				if (v == s || v == t ||
				    dist[s * n + v] == BC_INF ||
				    dist[v * n + t] == BC_INF ||
				    dist[s * n + v] + dist[v * n + t] !=
				    dist[s * n + t])
					continue;
				bc[v] += sigma[s * n + v] * sigma[v * n + t] /
					 sigma[s * n + t];
			}
		}
	free(sigma);
	free(queue);
	free(dist);
}

TEST(bc_reference_is_a_brute_force_betweenness)
{
	static const uint64_t ns[] = { 32, 64, 200 };
	static const unsigned int srcs[] = { 1, 2, 5 };

	for (unsigned int i = 0; i < 3; i++)
		for (uint64_t seed = 1; seed <= 4; seed++) {
			struct gb_graph g;
			float *want = calloc(ns[i], sizeof(float));
			double *bc = malloc(ns[i] * sizeof(double));
			double most = 0;

			ASSERT_NE(NULL, want);
			ASSERT_NE(NULL, bc);
			ASSERT_EQ(0, gb_make(&g, ns[i], ns[i], seed));
			ASSERT_EQ(0, bc_reference(&g, srcs[i], want));
			brute_bc(&g, srcs[i], bc);
			for (uint64_t v = 0; v < ns[i]; v++) {
				double diff = bc[v] - want[v];

				EXPECT_GE(1e-4 * bc[v] + 1e-5,
					  diff < 0 ? -diff : diff)
					TH_LOG("n %llu seed %llu vertex %llu",
					       (unsigned long long)ns[i],
					       (unsigned long long)seed,
					       (unsigned long long)v);
				if (bc[v] > most)
					most = bc[v];
			}
			/* some vertex lies between others */
			EXPECT_LT(1.0, most);
			gb_free(&g);
			free(bc);
			free(want);
		}
}

TEST(bc_runs_equal_the_reference)
{
	static const uint64_t sizes[] = { 256, 0 };
	struct ng_bench_result *r = calloc(1, sizeof(*r));
	uint64_t seed;

	ASSERT_NE(NULL, r);
	for (unsigned int i = 0; i < 2; i++) {
		ASSERT_EQ(0, run("bc", sizes[i], true, false, r, &seed));
		EXPECT_TRUE(r->verified) TH_LOG("%s", r->verify);
		ASSERT_EQ(0, run("bc", sizes[i], false, false, r, &seed));
		EXPECT_TRUE(r->verified) TH_LOG("%s", r->verify);
		ASSERT_EQ(0, run("bc", sizes[i], true, true, r, &seed));
		EXPECT_FALSE(r->verified);
		EXPECT_NE(NULL, strstr(r->verify, "centrality["))
			TH_LOG("%s", r->verify);
	}
	free(r);
}

/*
 * A Jones-Plassmann colouring of @g with words @rnd: every vertex
 * coloured, no edge's two ends alike, and a vertex of colour c the first
 * (gc_before()) of its neighbours not coloured before c, but not of those
 * not coloured before c - 1.
 */
static void check_colouring(struct __test_metadata *_metadata,
			    const struct gb_graph *g, const uint32_t *rnd,
			    const uint32_t *color, uint32_t colors)
{
	for (uint64_t v = 0; v < g->n; v++) {
		uint32_t c = color[v];
		bool blocked = false;

		ASSERT_GT(colors, c) TH_LOG("vertex %llu", (unsigned long long)v);
		for (uint32_t e = g->row[v]; e < g->row[v + 1]; e++) {
			uint32_t w = g->col[e];

			if (w == v)
				continue;
			ASSERT_NE(c, color[w])
				TH_LOG("edge %llu-%u", (unsigned long long)v, w);
			if (!gc_before(w, rnd[w], v, rnd[v]))
				continue;
			EXPECT_GT(c, color[w])
				TH_LOG("vertex %llu: neighbour %u goes first",
				       (unsigned long long)v, w);
			if (c && color[w] >= c - 1)
				blocked = true;
		}
		if (c)
			EXPECT_TRUE(blocked)
				TH_LOG("vertex %llu could have had colour %u",
				       (unsigned long long)v, c - 1);
	}
}

TEST(gc_reference_is_a_jones_plassmann_colouring)
{
	for (uint64_t seed = 1; seed <= 3; seed++) {
		struct gb_graph d, g;
		uint64_t n = 4096;
		uint32_t *rnd = malloc(n * 4), *color = malloc(n * 4);
		uint32_t *scratch = malloc(n * 4), colors, most = 0;

		ASSERT_NE(NULL, rnd);
		ASSERT_NE(NULL, color);
		ASSERT_NE(NULL, scratch);
		ASSERT_EQ(0, gb_make(&d, n, n, seed));
		ASSERT_EQ(0, gb_undirected(&d, &g));
		gc_words(seed, n, rnd);
		colors = gc_reference(&g, rnd, color, scratch);
		check_colouring(_metadata, &g, rnd, color, colors);
		/* each colour is used: one a round, no empty round */
		for (uint64_t v = 0; v < n; v++)
			if (color[v] > most)
				most = color[v];
		EXPECT_EQ(colors, most + 1);
		gb_free(&g);
		gb_free(&d);
		free(scratch);
		free(color);
		free(rnd);
	}
}

TEST(gc_runs_colour_as_the_reference)
{
	struct ng_bench_result *d = calloc(1, sizeof(*d));
	struct ng_bench_result *r = calloc(1, sizeof(*r));
	struct gb_graph dg, g;
	uint32_t *rnd, *color, *scratch, colors;
	char want[64];
	uint64_t seed;

	ASSERT_NE(NULL, d);
	ASSERT_NE(NULL, r);
	ASSERT_EQ(0, run("gc", 0, true, false, d, &seed));
	EXPECT_TRUE(d->verified) TH_LOG("%s", d->verify);
	/* the run's graph and words, from its seed */
	ASSERT_EQ(0, gb_make(&dg, d->elements, d->elements, seed));
	ASSERT_EQ(0, gb_undirected(&dg, &g));
	rnd = malloc(g.n * 4);
	color = malloc(g.n * 4);
	scratch = malloc(g.n * 4);
	ASSERT_NE(NULL, rnd);
	ASSERT_NE(NULL, color);
	ASSERT_NE(NULL, scratch);
	gc_words(seed, g.n, rnd);
	colors = gc_reference(&g, rnd, color, scratch);
	check_colouring(_metadata, &g, rnd, color, colors);
	snprintf(want, sizeof(want), "(%u colours, %u kernels)", colors,
		 colors);
	EXPECT_NE(NULL, strstr(d->verify, want)) TH_LOG("%s", d->verify);
	ASSERT_EQ(0, run("gc", 0, false, false, r, &seed));
	EXPECT_TRUE(r->verified) TH_LOG("%s", r->verify);
	EXPECT_STREQ(d->verify, r->verify);
	EXPECT_EQ(d->total.v[NG_CTR_REQ], r->total.v[NG_CTR_REQ]);
	ASSERT_EQ(0, run("gc", 0, true, true, r, &seed));
	EXPECT_FALSE(r->verified);
	EXPECT_NE(NULL, strstr(r->verify, "color[")) TH_LOG("%s", r->verify);
	gb_free(&g);
	gb_free(&dg);
	free(scratch);
	free(color);
	free(rnd);
	free(r);
	free(d);
}

TEST_HARNESS_MAIN
