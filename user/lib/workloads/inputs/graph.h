/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Graph inputs for the graph workloads, made on the host from a seed, in
 * CSR form: the kinds of graph the papers' inputs are, so that a workload
 * can run on the input its paper used rather than on uniform random edges
 * alone (Documentation/runtime.rst, Graph inputs).
 *
 *   uniform  what the GraphBIG workloads make today (graphbig/graph.h,
 *            gb_make() over the whole graph): 1 to 15 out-edges a vertex
 *            to uniformly random vertices, directed, rows unsorted, with
 *            whatever repeats and self-loops the draws give. The same
 *            seed gives gb_make()'s arrays word for word, so a workload
 *            can move to this interface without changing its input.
 *   road     a road network as the DIMACS USA-road graphs are one (CARVE
 *            ran bfs on them): planar, a mean degree near 2.7, every edge
 *            between neighbouring places, ids that follow geography
 *            (graph_road.c says how and why).
 *   rmat     Graph500's Kronecker (R-MAT) graph: scale log2 n, edgefactor
 *            16, initiator A = 0.57, B = C = 0.19, D = 0.05; heavy-tailed
 *            degrees with the hubs at the low ids, or anywhere with
 *            WL_GRAPH_PERMUTE (graph_rmat.c).
 *
 * road and rmat are simple and symmetric: each undirected edge is in
 * both its vertices' rows, no vertex reaches itself, no edge is there
 * twice, and every row is sorted (what tc's intersections and cc's
 * undirected walk want, and what Graph500's kernels may assume).
 *
 * The random stream is wlc_hash() over the seed (wl_math.h): the same seed
 * gives the same graph on every machine and compiler; nothing here uses
 * libc's rand() or the host's floating point beyond IEEE comparisons.
 */
#ifndef NGEMU_WL_INPUTS_GRAPH_H
#define NGEMU_WL_INPUTS_GRAPH_H

#include <stdbool.h>
#include <stdint.h>

enum wl_graph_kind {
	WL_GRAPH_UNIFORM,
	WL_GRAPH_ROAD,
	WL_GRAPH_RMAT,
	WL_GRAPH_KINDS,
};

/* rmat: Graph500's random relabelling of the vertices (its randperm). */
#define WL_GRAPH_PERMUTE	0x1u

/* Graph500's edges per vertex, before self-loops and repeats go. */
#define WL_GRAPH_EDGEFACTOR	16

struct wl_graph {
	uint64_t n, m;			/* vertices; edges, as row entries */
	uint32_t *row, *col;		/* n + 1 offsets, m targets */
	bool symmetric;			/* every edge in both rows */
};

/*
 * @g: a graph of @kind with @n vertices from @seed; @flags: 0, or for
 * rmat WL_GRAPH_PERMUTE. 0, -EINVAL (n of 0 or over 2^27, an unknown
 * kind or flag; nothing to free then) or -ENOMEM.
 */
int wl_graph_make(struct wl_graph *g, enum wl_graph_kind kind, uint64_t n,
		  uint64_t seed, unsigned int flags);
void wl_graph_free(struct wl_graph *g);

/* "uniform", "road", "rmat"; NULL for a value out of range. */
const char *wl_graph_kind_name(enum wl_graph_kind kind);
/* The kind named @name (as wl_graph_kind_name() has it) or -EINVAL. */
int wl_graph_kind_parse(const char *name, enum wl_graph_kind *kind);

/*
 * Where vertex @v of the road graph of @n vertices lies: column @x and
 * row @y of its grid (neighbours in the graph are neighbours there).
 */
void wl_graph_road_xy(uint64_t n, uint64_t v, uint32_t *x, uint32_t *y);

#endif /* NGEMU_WL_INPUTS_GRAPH_H */
