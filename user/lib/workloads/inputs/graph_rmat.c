// SPDX-License-Identifier: GPL-2.0
/*
 * Graph500's Kronecker graph, as its specification's generator makes it:
 * 16 x 2^scale edges, each placed by scale steps down the adjacency
 * matrix, every step taking one quadrant of the current block with the
 * initiator's probabilities A = 0.57 (top left), B = 0.19, C = 0.19,
 * D = 0.05 (bottom right). The reference code draws the row's bit first
 * (1 with probability C + D) and then the column's given the row's (1
 * with B / (A + B) on a 0 row bit, D / (C + D) on a 1), and so does this,
 * with the seed's draws in place of the reference's random numbers:
 * one wlc_hash() per step, its high half for the row bit, its low half
 * for the column bit, each against a 32-bit threshold.
 *
 * What the specification leaves open, and what is done here:
 *   - the vertex permutation (randperm(N) in the reference) is there with
 *     WL_GRAPH_PERMUTE, a Fisher-Yates shuffle of the seed. Without it,
 *     the ids say how many 0 bits chose the A quadrant: vertex 0 is the
 *     biggest hub and the hubs crowd the low ids, a layout no real graph
 *     file has, but one that keeps a hub's rows in one place;
 *   - the shuffle of the edge list changes nothing of a CSR and is not
 *     done;
 *   - self-loops are dropped and repeated edges merged (the specification
 *     lets the kernels ignore both): the result is a simple undirected
 *     graph, each edge in both rows. At scale 14 that leaves 81% of the
 *     2 x 16 row entries per vertex the draws made (a mean degree of 26.0,
 *     graph_inputs_test), as the hubs draw the same pairs again and again;
 *   - isolated vertices stay (most of them at high ids, unpermuted);
 *   - n need not be a power of two: the matrix is then 2^scale wide with
 *     2^scale the next power of two, and an edge with an end at n or over
 *     is drawn again, until there are 16 n. A power of two n is Graph500's
 *     graph of scale log2 n exactly.
 */
#include <errno.h>
#include <stdlib.h>

#include "workloads/inputs/graph_impl.h"

/* The initiator: the chances of a block's four quadrants. */
#define RM_A	0.57
#define RM_B	0.19
#define RM_C	0.19
#define RM_D	0.05

/* A 32-bit draw at or over these is a 1 bit (the reference's rand > p). */
struct rm_cut {
	uint32_t row;		/* A + B */
	uint32_t col0;		/* A / (A + B): column given a 0 row bit */
	uint32_t col1;		/* C / (C + D): given a 1 */
};

static uint32_t rm_thresh(double p)
{
	return (uint32_t)(p * 4294967296.0);
}

/* Vertex ids below 2^@scale of the edge from draws [key + i x scale, ...). */
static void rm_edge(const struct rm_cut *c, uint64_t key, uint64_t i,
		    unsigned int scale, uint64_t *from, uint64_t *to)
{
	*from = 0;
	*to = 0;
	for (unsigned int b = 0; b < scale; b++) {
		uint64_t h = wlc_hash(key + i * scale + b);
		uint64_t rb = (uint32_t)(h >> 32) >= c->row;
		uint64_t cb = (uint32_t)h >= (rb ? c->col1 : c->col0);

		*from |= rb << b;
		*to |= cb << b;
	}
}

/* @u, @v: the vertex ids of @k edges through a random permutation of n. */
static int rm_permute(uint64_t n, uint64_t seed, uint32_t *u, uint32_t *v,
		      uint64_t k)
{
	uint64_t key = wl_graph_key(seed, 0x7065726d);	/* "perm" */
	uint32_t *p = malloc(n * 4);

	if (!p)
		return -ENOMEM;
	for (uint64_t i = 0; i < n; i++)
		p[i] = (uint32_t)i;
	for (uint64_t i = n - 1; i > 0; i--) {
		uint64_t j = wlc_hash(key + i) % (i + 1);
		uint32_t t = p[i];

		p[i] = p[j];
		p[j] = t;
	}
	for (uint64_t i = 0; i < k; i++) {
		u[i] = p[u[i]];
		v[i] = p[v[i]];
	}
	free(p);
	return 0;
}

int wl_graph_rmat(struct wl_graph *g, uint64_t n, uint64_t seed,
		  bool permute)
{
	struct rm_cut c = {
		.row = rm_thresh(RM_A + RM_B),
		.col0 = rm_thresh(RM_A / (RM_A + RM_B)),
		.col1 = rm_thresh(RM_C / (RM_C + RM_D)),
	};
	uint64_t key = wl_graph_key(seed, 0x726d6174);	/* "rmat" */
	uint64_t m = WL_GRAPH_EDGEFACTOR * n, k = 0;
	uint32_t *u = malloc(m * 4), *v = malloc(m * 4);
	unsigned int scale = 0;
	int ret = -ENOMEM;

	while ((1ull << scale) < n)
		scale++;
	if (!u || !v)
		goto out;
	for (uint64_t i = 0; k < m; i++) {
		uint64_t from, to;

		rm_edge(&c, key, i, scale, &from, &to);
		if (from >= n || to >= n)
			continue;
		u[k] = (uint32_t)from;
		v[k] = (uint32_t)to;
		k++;
	}
	ret = permute ? rm_permute(n, seed, u, v, m) : 0;
	if (!ret)
		ret = wl_graph_from_edges(g, n, u, v, m);
out:
	free(u);
	free(v);
	return ret;
}
