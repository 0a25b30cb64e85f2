// SPDX-License-Identifier: GPL-2.0
/*
 * A road network's graph, as the DIMACS USA-road graphs (CARVE's bfs
 * input) are one: a map's intersections and the road segments between
 * them. What a workload sees of such a graph is its shape, and that is
 * what this keeps:
 *
 *   - low degree: most places meet two to four roads (USA-road has a
 *     mean degree near 2.4); here about 2.7;
 *   - planar: roads meet where they cross, so a place's neighbours are
 *     around it, never across the map;
 *   - connected, with a long diameter: a search walks the whole map in
 *     hundreds of levels or more, each of a small frontier, not in a
 *     handful of huge ones as on a random graph;
 *   - ids that follow geography: the DIMACS files number places so that
 *     nearby places mostly have nearby ids, and a GPU given a range of
 *     vertices gets a region of the map with few edges leaving it.
 *
 * The construction: the places are the cells of a grid. A random spanning
 * tree of the grid's horizontal and vertical edges (Kruskal's algorithm
 * over edges ranked by the seed's draws) makes the map connected at a
 * mean degree of 2; each other grid edge is kept with probability 1/4 and
 * each grid square gets one of its two diagonals with probability 1/10
 * (one at most, so no two edges cross), which adds 2 x (1/4 + 1/10): a
 * mean degree near 2.7, degrees 1 to 8, dead ends and long chains as
 * roads have. A grid rather than points in the plane with a geometric
 * graph over them: its neighbours and planarity come by construction, it
 * needs no floating point to be the same on every machine, and a test can
 * check every edge against the cells' coordinates (wl_graph_road_xy()).
 *
 * The ids go tile by tile: the grid is cut into T x T tiles (T = 32, or
 * less for a graph under 1024 vertices), tiles in row-major order, cells
 * row-major within a tile. A row-major grid would put a cell's north and
 * south neighbours a whole row (sqrt(n) ids) away; in tiles, 1024
 * consecutive ids (a 4 KiB page of a word per vertex) are a 32 x 32
 * square of the map whose edges stay in it but for its border's (3% of
 * them), and a range of tiles (a GPU's share of the vertices) is a band
 * of the map. The grid is a whole number of tiles wide, about sqrt(n)
 * cells, and as many rows of tiles tall as n cells need; the ids from n
 * up do not exist, which leaves the last row of tiles short and the map
 * still in one piece (the missing cells end the last row of tiles).
 */
#include <errno.h>
#include <stdlib.h>

#include "workloads/inputs/graph_impl.h"

#define RD_TILE		32
#define RD_EXTRA	250	/* per mille: a grid edge not in the tree */
#define RD_DIAG		100	/* per mille: a square's diagonal */

struct rd_grid {
	uint64_t n;
	uint32_t t;		/* tile side */
	uint32_t tw;		/* tiles across */
	uint32_t w, h;		/* cells across and down */
};

static struct rd_grid rd_grid(uint64_t n)
{
	struct rd_grid g = { .n = n, .t = RD_TILE };
	uint64_t side = wl_isqrt(n);

	if (side * side < n)
		side++;
	while (g.t > 1 && (uint64_t)g.t * g.t > n)
		g.t /= 2;
	g.tw = (uint32_t)((side + g.t - 1) / g.t);
	g.w = g.tw * g.t;
	g.h = (uint32_t)((n + (uint64_t)g.w * g.t - 1) /
			 ((uint64_t)g.w * g.t) * g.t);
	return g;
}

/* The id of the cell at column @x, row @y; n and over: no such vertex. */
static uint64_t rd_id(const struct rd_grid *g, uint32_t x, uint32_t y)
{
	uint64_t tile = (uint64_t)(y / g->t) * g->tw + x / g->t;

	return tile * g->t * g->t + (uint64_t)(y % g->t) * g->t + x % g->t;
}

void wl_graph_road_xy(uint64_t n, uint64_t v, uint32_t *x, uint32_t *y)
{
	struct rd_grid g = rd_grid(n);
	uint64_t tile = v / ((uint64_t)g.t * g.t);
	uint32_t in = (uint32_t)(v % ((uint64_t)g.t * g.t));

	*x = (uint32_t)(tile % g.tw) * g.t + in % g.t;
	*y = (uint32_t)(tile / g.tw) * g.t + in / g.t;
}

/*
 * Grid edge @e: 2 v + 0 joins vertex v to the cell east of it, 2 v + 1
 * to the cell south; false when that cell is off the grid or not a vertex.
 */
static bool rd_edge(const struct rd_grid *g, uint64_t e, uint32_t *a,
		    uint32_t *b)
{
	uint32_t x, y;
	uint64_t to;

	wl_graph_road_xy(g->n, e / 2, &x, &y);
	if (e & 1 ? y + 1 >= g->h : x + 1 >= g->w)
		return false;
	to = e & 1 ? rd_id(g, x, y + 1) : rd_id(g, x + 1, y);
	if (to >= g->n)
		return false;
	*a = (uint32_t)(e / 2);
	*b = (uint32_t)to;
	return true;
}

struct rd_rank {
	uint64_t w, e;		/* the draw, the grid edge */
};

static int rd_cmp(const void *x, const void *y)
{
	const struct rd_rank *a = x, *b = y;

	if (a->w != b->w)
		return (a->w > b->w) - (a->w < b->w);
	return (a->e > b->e) - (a->e < b->e);
}

/* The root of @v's tree, halving the path to it on the way. */
static uint32_t rd_find(uint32_t *up, uint32_t v)
{
	while (up[v] != v) {
		up[v] = up[up[v]];
		v = up[v];
	}
	return v;
}

/*
 * The tree and the other grid edges kept into @u, @v (*k edges so far),
 * from the grid's @ne candidate edges ranked in @r.
 */
static void rd_tree(const struct rd_grid *g, uint64_t seed,
		    struct rd_rank *r, uint64_t ne, uint32_t *up,
		    uint32_t *u, uint32_t *v, uint64_t *k)
{
	uint64_t key = wl_graph_key(seed, 0x74726565);	/* "tree" */
	uint64_t more = wl_graph_key(seed, 0x6d6f7265);	/* "more" */
	uint64_t nr = 0;

	for (uint64_t e = 0; e < ne; e++) {
		uint32_t a, b;

		if (rd_edge(g, e, &a, &b))
			r[nr++] = (struct rd_rank){ wlc_hash(key + e), e };
	}
	/* ties in the draw broken by the edge: the same order from any qsort */
	qsort(r, nr, sizeof(*r), rd_cmp);
	for (uint64_t x = 0; x < g->n; x++)
		up[x] = (uint32_t)x;
	for (uint64_t i = 0; i < nr; i++) {
		uint32_t a, b, ra, rb;

		rd_edge(g, r[i].e, &a, &b);
		ra = rd_find(up, a);
		rb = rd_find(up, b);
		if (ra == rb && wlc_hash(more + r[i].e) % 1000 >= RD_EXTRA)
			continue;
		up[ra] = rb;
		u[*k] = a;
		v[*k] = b;
		(*k)++;
	}
}

/* Square (x, y)-(x + 1, y + 1)'s diagonal, if it has one, into @u, @v. */
static void rd_diagonals(const struct rd_grid *g, uint64_t seed,
			 uint32_t *u, uint32_t *v, uint64_t *k)
{
	uint64_t key = wl_graph_key(seed, 0x64696167);	/* "diag" */

	for (uint64_t c = 0; c < g->n; c++) {
		/* 0 to 2 x RD_DIAG - 1: a diagonal, its parity which one */
		uint64_t d = wlc_hash(key + c) % 2000, a, b;
		uint32_t x, y;

		wl_graph_road_xy(g->n, c, &x, &y);
		if (d >= 2 * RD_DIAG || x + 1 >= g->w || y + 1 >= g->h)
			continue;
		if (d & 1) {
			a = c;
			b = rd_id(g, x + 1, y + 1);
		} else {
			a = rd_id(g, x + 1, y);
			b = rd_id(g, x, y + 1);
		}
		if (a >= g->n || b >= g->n)
			continue;
		u[*k] = (uint32_t)a;
		v[*k] = (uint32_t)b;
		(*k)++;
	}
}

int wl_graph_road(struct wl_graph *g, uint64_t n, uint64_t seed)
{
	struct rd_grid grid = rd_grid(n);
	struct rd_rank *r = malloc(2 * n * sizeof(*r));
	uint32_t *up = malloc(n * 4);
	/* at most 2 grid edges and a diagonal per vertex */
	uint32_t *u = malloc(3 * n * 4), *v = malloc(3 * n * 4);
	uint64_t k = 0;
	int ret = -ENOMEM;

	if (r && up && u && v) {
		rd_tree(&grid, seed, r, 2 * n, up, u, v, &k);
		rd_diagonals(&grid, seed, u, v, &k);
		ret = wl_graph_from_edges(g, n, u, v, k);
	}
	free(r);
	free(up);
	free(u);
	free(v);
	return ret;
}
