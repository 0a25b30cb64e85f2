// SPDX-License-Identifier: GPL-2.0
/*
 * The graph inputs' one interface (graph.h): the kinds by name, the
 * uniform graph the GraphBIG workloads use, and the builder of the simple
 * symmetric CSR the other kinds end in.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "workloads/inputs/graph_impl.h"

static const char *const kind_names[WL_GRAPH_KINDS] = {
	[WL_GRAPH_UNIFORM] = "uniform",
	[WL_GRAPH_ROAD] = "road",
	[WL_GRAPH_RMAT] = "rmat",
};

const char *wl_graph_kind_name(enum wl_graph_kind kind)
{
	return (unsigned int)kind < WL_GRAPH_KINDS ? kind_names[kind] : NULL;
}

int wl_graph_kind_parse(const char *name, enum wl_graph_kind *kind)
{
	for (unsigned int k = 0; k < WL_GRAPH_KINDS; k++)
		if (name && !strcmp(name, kind_names[k])) {
			*kind = (enum wl_graph_kind)k;
			return 0;
		}
	return -EINVAL;
}

/*
 * gb_make() of graphbig/graph.h with one group of all n vertices, its
 * constants and draws kept as they are there: the uniform kind is that
 * graph, so a GraphBIG workload moved onto wl_graph_make() keeps its
 * input (graph_inputs_test compares the two).
 */
static int make_uniform(struct wl_graph *g, uint64_t n, uint64_t seed)
{
	g->row = malloc((n + 1) * 4);
	if (!g->row)
		return -ENOMEM;
	g->row[0] = 0;
	for (uint64_t v = 0; v < n; v++)
		g->row[v + 1] = g->row[v] + 1 +
			(uint32_t)(wlc_hash(seed * 0x6762 + v) % 15);
	g->m = g->row[n];
	g->col = malloc(g->m * 4 + 4);
	if (!g->col) {
		free(g->row);
		g->row = NULL;
		return -ENOMEM;
	}
	for (uint64_t e = 0; e < g->m; e++)
		g->col[e] = (uint32_t)(wlc_hash(seed * 0x636f + e) % n);
	return 0;
}

int wl_graph_make(struct wl_graph *g, enum wl_graph_kind kind, uint64_t n,
		  uint64_t seed, unsigned int flags)
{
	memset(g, 0, sizeof(*g));
	if (!n || n > WL_GRAPH_MAX_N || (unsigned int)kind >= WL_GRAPH_KINDS ||
	    (flags & ~WL_GRAPH_PERMUTE) ||
	    (flags && kind != WL_GRAPH_RMAT))
		return -EINVAL;
	g->n = n;
	switch (kind) {
	case WL_GRAPH_UNIFORM:
		return make_uniform(g, n, seed);
	case WL_GRAPH_ROAD:
		return wl_graph_road(g, n, seed);
	default:
		return wl_graph_rmat(g, n, seed, flags & WL_GRAPH_PERMUTE);
	}
}

void wl_graph_free(struct wl_graph *g)
{
	free(g->row);
	free(g->col);
	g->row = NULL;
	g->col = NULL;
}

static int cmp_u32(const void *x, const void *y)
{
	uint32_t a = *(const uint32_t *)x, b = *(const uint32_t *)y;

	return (a > b) - (a < b);
}

int wl_graph_from_edges(struct wl_graph *g, uint64_t n, const uint32_t *u,
			const uint32_t *v, uint64_t k)
{
	uint32_t *fill, at = 0;

	g->n = n;
	g->symmetric = true;
	g->row = calloc(n + 1, 4);
	g->col = malloc(2 * k * 4 + 4);
	fill = malloc(n * 4 + 4);
	if (!g->row || !g->col || !fill) {
		free(fill);
		wl_graph_free(g);
		return -ENOMEM;
	}
	for (uint64_t i = 0; i < k; i++)
		if (u[i] != v[i]) {
			g->row[u[i] + 1]++;
			g->row[v[i] + 1]++;
		}
	for (uint64_t x = 0; x < n; x++)
		g->row[x + 1] += g->row[x];
	memcpy(fill, g->row, n * 4);
	for (uint64_t i = 0; i < k; i++)
		if (u[i] != v[i]) {
			g->col[fill[u[i]]++] = v[i];
			g->col[fill[v[i]]++] = u[i];
		}
	free(fill);
	/* sorted rows, each target once, compacted towards the front */
	for (uint64_t x = 0; x < n; x++) {
		uint32_t e0 = g->row[x], e1 = g->row[x + 1], first = at;

		qsort(g->col + e0, e1 - e0, 4, cmp_u32);
		g->row[x] = at;
		for (uint32_t e = e0; e < e1; e++)
			if (at == first || g->col[at - 1] != g->col[e])
				g->col[at++] = g->col[e];
	}
	g->row[n] = at;
	g->m = at;
	/* a failed shrink leaves the larger array, as good */
	fill = realloc(g->col, g->m * 4 + 4);
	if (fill)
		g->col = fill;
	return 0;
}
