/* SPDX-License-Identifier: GPL-2.0 */
/*
 * What the graph generators share (graph.c), private to workloads/inputs:
 * each kind makes an edge list and one builder turns it into the simple,
 * symmetric CSR that graph.h promises, so that no generator has its own
 * idea of what a repeated edge or a self-loop becomes.
 */
#ifndef NGEMU_WL_INPUTS_GRAPH_IMPL_H
#define NGEMU_WL_INPUTS_GRAPH_IMPL_H

#include "workloads/inputs/graph.h"
#include "workloads/wl_math.h"

/*
 * The most vertices a graph may have: rmat's 2 x 16 n row entries fit
 * the 32-bit offsets the workloads' device arrays hold.
 */
#define WL_GRAPH_MAX_N		(1ull << 26)

/*
 * @g: the graph of @n vertices whose undirected edges are (@u[i], @v[i])
 * for i < @k, each put in both rows, self-loops left out, repeats merged,
 * rows sorted. 0 or -ENOMEM (nothing to free then).
 */
int wl_graph_from_edges(struct wl_graph *g, uint64_t n, const uint32_t *u,
			const uint32_t *v, uint64_t k);

/* The kinds (graph_road.c, graph_rmat.c): 0 or -ENOMEM, @n checked. */
int wl_graph_road(struct wl_graph *g, uint64_t n, uint64_t seed);
int wl_graph_rmat(struct wl_graph *g, uint64_t n, uint64_t seed,
		  bool permute);

/*
 * The key of one of a generator's random streams from @seed: its i-th
 * draw is wlc_hash(key + i). @salt keeps the streams a generator needs
 * (and those of the workloads, seed x constant + i) from sharing draws.
 */
static inline uint64_t wl_graph_key(uint64_t seed, uint64_t salt)
{
	return wlc_hash(seed ^ wlc_hash(salt));
}

#endif /* NGEMU_WL_INPUTS_GRAPH_IMPL_H */
