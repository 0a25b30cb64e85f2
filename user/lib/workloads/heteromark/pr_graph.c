// SPDX-License-Identifier: GPL-2.0
/*
 * pr's matrix from its input (pr_graph.h). pr keeps the uniform graph it
 * always made, word for word; pr-road and pr-rmat take workloads/inputs'
 * road and rmat graphs, whose rows are already CSR of 32-bit words, as
 * the matrix's pattern, and only add the values.
 */
#include <errno.h>
#include <stdlib.h>

#include "workloads/heteromark/pr_graph.h"
#include "workloads/wl_math.h"

#define PR_MIN_DEG	8
#define PR_DEG_SPAN	9	/* degrees 8..16 */

/*
 * Mean links a page, times ten (road's 2.7 is not whole). rmat: Graph500's
 * 2 x edgefactor row entries a vertex as drawn, so that a power of two of
 * pages is a Graph500 scale (the default's 2^13); merging the repeated
 * draws leaves about 80% of them.
 */
static const unsigned int pr_links10[WL_GRAPH_KINDS] = {
	[WL_GRAPH_UNIFORM] = 120,
	[WL_GRAPH_ROAD] = 27,
	[WL_GRAPH_RMAT] = 20 * WL_GRAPH_EDGEFACTOR,
};

uint64_t pr_pages(enum wl_graph_kind kind, uint64_t size)
{
	uint64_t nnz = size / 4, k = pr_links10[kind];

	/* nnz x 10 / k, which could overflow as written */
	return nnz / k * 10 + nnz % k * 10 / k;
}

uint64_t pr_size_min(enum wl_graph_kind kind, uint64_t pages)
{
	uint64_t k = pr_links10[kind];

	return (pages * k + 9) / 10 * 4;
}

void pr_graph_free(struct pr_graph *g)
{
	free(g->rowp);
	free(g->col);
	free(g->val);
	g->rowp = NULL;
	g->col = NULL;
	g->val = NULL;
}

/* Each nonzero: 1 / out-degree of its column's page. */
static int pr_values(struct pr_graph *g)
{
	uint32_t *outdeg = calloc(g->n, sizeof(*outdeg));

	if (!outdeg)
		return -ENOMEM;
	for (uint64_t e = 0; e < g->nnz; e++)
		outdeg[g->col[e]]++;
	for (uint64_t e = 0; e < g->nnz; e++)
		g->val[e] = 1.0f / (float)outdeg[g->col[e]];
	free(outdeg);
	return 0;
}

/* Rows of 8-16 random in-links. */
static void pr_uniform(struct pr_graph *g, uint64_t nnz_max, uint64_t seed)
{
	uint64_t k = 0;

	for (uint32_t i = 0; i < g->n; i++) {
		uint64_t h = wlc_hash(seed * 0x9a9a + i);
		unsigned int d = PR_MIN_DEG + (unsigned int)(h % PR_DEG_SPAN);

		g->rowp[i] = (uint32_t)k;
		for (unsigned int e = 0; e < d && k < nnz_max; e++)
			g->col[k++] = (uint32_t)(wlc_hash(h + e + 1) % g->n);
	}
	g->rowp[g->n] = (uint32_t)k;
	g->nnz = (uint32_t)k;
}

int pr_graph_make(struct pr_graph *g, enum wl_graph_kind kind, uint32_t n,
		  uint64_t nnz_max, uint64_t seed)
{
	struct wl_graph wg = { 0 };
	int ret;

	*g = (struct pr_graph){ .n = n };
	if (kind == WL_GRAPH_UNIFORM) {
		g->rowp = malloc(((size_t)n + 1) * sizeof(*g->rowp));
		g->col = malloc(nnz_max * sizeof(*g->col));
		g->val = malloc(nnz_max * sizeof(*g->val));
		if (!g->rowp || !g->col || !g->val)
			return -ENOMEM;
		pr_uniform(g, nnz_max, seed);
		return pr_values(g);
	}
	/* Graph500 relabels its vertices; so does bfs-shoc's rmat */
	ret = wl_graph_make(&wg, kind, n, seed,
			    kind == WL_GRAPH_RMAT ? WL_GRAPH_PERMUTE : 0);
	if (ret)
		return ret;
	/* the rows are symmetric: a page's in-links are its out-links */
	g->rowp = wg.row;
	g->col = wg.col;
	g->nnz = (uint32_t)wg.m;
	g->val = malloc((wg.m ? wg.m : 1) * sizeof(*g->val));
	if (!g->val)
		return -ENOMEM;
	return pr_values(g);
}
