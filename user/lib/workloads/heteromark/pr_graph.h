/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The inputs of pr and its variants (private to lib/workloads/heteromark,
 * and to pr_graphs_test, which measures the graphs the workloads run on):
 * the CSR matrix of PageRank, rows the pages, nonzeros 1 / out-degree of
 * the linking page, made from one kind of workloads/inputs' graphs.
 */
#ifndef NGEMU_LIB_WL_HETEROMARK_PR_GRAPH_H
#define NGEMU_LIB_WL_HETEROMARK_PR_GRAPH_H

#include <stdint.h>

#include "workloads/inputs/graph.h"

struct pr_graph {
	uint32_t *rowp, *col;
	float *val;
	uint32_t n, nnz;
};

/*
 * The pages of the graph of @kind whose column indices take about @size
 * bytes (--size): a link is a word, and the kind's mean in-links a page
 * (pr's 12, road's 2.7, rmat's 32 as Graph500 draws them) say how many
 * pages hold them. Not capped: the caller says which counts it runs.
 */
uint64_t pr_pages(enum wl_graph_kind kind, uint64_t size);
/* The least --size whose pr_pages() is @pages at least (a word a link). */
uint64_t pr_size_min(enum wl_graph_kind kind, uint64_t pages);

/*
 * road and rmat: pr's cap, 2^26 pages, as bfs-road's (256 MiB a vector);
 * the generators' own limit, below, is 2^27
 */
#define PR_INPUT_MAX	(1ULL << 26)

/*
 * @g: the matrix of @n pages of @kind from @seed. uniform: pr's own graph
 * of 8-16 random in-links a row, cut at @nnz_max links; road: the road
 * map; rmat: Graph500's R-MAT, relabelled (WL_GRAPH_PERMUTE), both
 * symmetric, so that a page's in-links are its out-links. 0, -EINVAL
 * (road or rmat: n of 0 or over 2^27) or -ENOMEM; pr_graph_free() after
 * either.
 */
int pr_graph_make(struct pr_graph *g, enum wl_graph_kind kind, uint32_t n,
		  uint64_t nnz_max, uint64_t seed);
void pr_graph_free(struct pr_graph *g);

#endif /* NGEMU_LIB_WL_HETEROMARK_PR_GRAPH_H */
