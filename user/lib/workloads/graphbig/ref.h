/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The CPU references of bc and gc (graphbig/bc.c, gc.c), and gc's random
 * words: what their runs are verified against, and what their test
 * (tests/graphbig_bc_gc_test.c) checks against a brute force and against
 * a colouring's properties.
 */
#ifndef NGEMU_WL_GRAPHBIG_REF_H
#define NGEMU_WL_GRAPHBIG_REF_H

#include "workloads/graphbig/graph.h"

#define BC_INF		UINT32_MAX
#define GC_NONE		UINT32_MAX

/*
 * The CPU's Brandes over the same sources into @want (zeroed, n floats):
 * a queue BFS from each source, then each vertex's dependency in the
 * reverse of the queue's order, summed over its out-edges in their order
 * (the GPU's order and arithmetic). -ENOMEM.
 */
static inline int bc_reference(const struct gb_graph *g,
			       unsigned int sources, float *want)
{
	uint32_t *dist = malloc(g->n * 4), *sigma = malloc(g->n * 4);
	uint32_t *queue = malloc(g->n * 4);
	float *delta = malloc(g->n * 4);
	int ret = -ENOMEM;

	if (!dist || !sigma || !queue || !delta)
		goto out;
	for (uint64_t root = 0; root < sources && root < g->n; root++) {
		uint64_t head = 0, tail = 0;

		for (uint64_t v = 0; v < g->n; v++) {
			dist[v] = BC_INF;
			sigma[v] = 0;
			delta[v] = 0;
		}
		dist[root] = 0;
		sigma[root] = 1;
		queue[tail++] = (uint32_t)root;
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
		while (tail--) {
			uint32_t u = queue[tail];
			float sum = 0;

			for (uint32_t e = g->row[u]; e < g->row[u + 1]; e++) {
				uint32_t w = g->col[e];

				if (dist[w] == dist[u] + 1)
					sum = (float)(sum + 1.0 * sigma[u] /
						      sigma[w] *
						      (1.0 + delta[w]));
			}
			delta[u] += sum;
			if (u != root)
				want[u] += delta[u];
		}
	}
	ret = 0;
out:
	free(delta);
	free(queue);
	free(sigma);
	free(dist);
	return ret;
}

/* Whether @w, with word @rw, goes before @v with word @rv. */
static inline bool gc_before(uint32_t w, uint32_t rw, uint64_t v, uint32_t rv)
{
	return rw > rv || (rw == rv && w < v);
}

/* gc's random word of each of @n vertices (GraphBIG: rand()). */
static inline void gc_words(uint64_t seed, uint64_t n, uint32_t *rnd)
{
	for (uint64_t v = 0; v < n; v++)
		rnd[v] = (uint32_t)wlc_hash(seed * 0x6763 + v);
}

/*
 * The CPU's Jones-Plassmann rounds with the same words into @want (n
 * words): in round c, an uncoloured vertex without an uncoloured or
 * just-coloured neighbour before it takes colour c. @new: n words of
 * scratch. Returns the colours used.
 */
static inline uint32_t gc_reference(const struct gb_graph *g,
				    const uint32_t *rnd, uint32_t *want,
				    uint32_t *new)
{
	uint64_t left = g->n;
	uint32_t c;

	for (uint64_t v = 0; v < g->n; v++)
		want[v] = GC_NONE;
	for (c = 0; left; c++) {
		uint64_t k = 0;

		for (uint64_t v = 0; v < g->n; v++) {
			bool first = true;

			if (want[v] != GC_NONE)
				continue;
			for (uint32_t e = g->row[v]; e < g->row[v + 1] && first;
			     e++) {
				uint32_t w = g->col[e];

				if (want[w] == GC_NONE &&
				    gc_before(w, rnd[w], v, rnd[v]))
					first = false;
			}
			if (first)
				new[k++] = (uint32_t)v;
		}
		for (uint64_t i = 0; i < k; i++)
			want[new[i]] = c;
		left -= k;
	}
	return c;
}

#endif /* NGEMU_WL_GRAPHBIG_REF_H */
