/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The random graphs of the GraphBIG workloads (dc, bc, gc, cc, tc): CSR
 * with a row per vertex, 1 to 2 x GB_AVG_DEG out-edges each to random
 * vertices (of the whole graph, or of the vertex's group of a given span),
 * made on the host from the seed (GraphBIG loads an input file; its GPU
 * kernels see the same CSR arrays), and copied into device buffers by an
 * untimed kernel whose blocks touch the rows the compute kernels' blocks
 * own (first touch homes them there).
 */
#ifndef NGEMU_WL_GRAPHBIG_GRAPH_H
#define NGEMU_WL_GRAPHBIG_GRAPH_H

#include <stdlib.h>
#include <string.h>

#include "workloads/wl.h"

#define GB_AVG_DEG	8

struct gb_graph {
	uint64_t n, m;			/* vertices, edges */
	uint32_t *row, *col;		/* host: n + 1 offsets, m targets */
};

/* Out-degree of @v: 1 to 2 x GB_AVG_DEG - 1. */
static inline uint32_t gb_degree(uint64_t seed, uint64_t v)
{
	return 1 + (uint32_t)(wlc_hash(seed * 0x6762 + v) % (2 * GB_AVG_DEG - 1));
}

/*
 * The host's CSR of @n vertices whose edges stay within groups of @span
 * consecutive vertices (n: anywhere); -ENOMEM.
 */
static inline int gb_make(struct gb_graph *g, uint64_t n, uint64_t span,
			  uint64_t seed)
{
	g->n = n;
	g->row = malloc((n + 1) * 4);
	if (!g->row)
		return -ENOMEM;
	g->row[0] = 0;
	for (uint64_t v = 0; v < n; v++)
		g->row[v + 1] = g->row[v] + gb_degree(seed, v);
	g->m = g->row[n];
	g->col = malloc(g->m * 4 + 4);
	if (!g->col) {
		free(g->row);
		return -ENOMEM;
	}
	for (uint64_t v = 0; v < n; v++)
		for (uint32_t e = g->row[v]; e < g->row[v + 1]; e++)
			g->col[e] = (uint32_t)(v / span * span +
					       wlc_hash(seed * 0x636f + e) %
					       (n - v / span * span < span ?
						n - v / span * span : span));
	return 0;
}

/*
 * @g made undirected: every edge also the other way (a vertex's own
 * edges first, then those that reach it), for the algorithms that treat
 * edges as undirected (cc, tc). -ENOMEM.
 */
static inline int gb_undirected(const struct gb_graph *g, struct gb_graph *u)
{
	uint32_t *fill;

	u->n = g->n;
	u->m = 2 * g->m;
	u->row = calloc(g->n + 1, 4);
	u->col = malloc(u->m * 4 + 4);
	fill = malloc((g->n + 1) * 4);
	if (!u->row || !u->col || !fill) {
		free(u->row);
		free(u->col);
		free(fill);
		return -ENOMEM;
	}
	for (uint64_t v = 0; v < g->n; v++)
		for (uint32_t e = g->row[v]; e < g->row[v + 1]; e++) {
			u->row[v + 1]++;
			u->row[g->col[e] + 1]++;
		}
	for (uint64_t v = 0; v < g->n; v++)
		u->row[v + 1] += u->row[v];
	for (uint64_t v = 0; v <= g->n; v++)
		fill[v] = u->row[v];
	for (uint64_t v = 0; v < g->n; v++)
		for (uint32_t e = g->row[v]; e < g->row[v + 1]; e++)
			u->col[fill[v]++] = g->col[e];
	for (uint64_t v = 0; v < g->n; v++)
		for (uint32_t e = g->row[v]; e < g->row[v + 1]; e++)
			u->col[fill[g->col[e]]++] = (uint32_t)v;
	free(fill);
	return 0;
}

static int gb_cmp_u32(const void *x, const void *y)
{
	uint32_t a = *(const uint32_t *)x, b = *(const uint32_t *)y;

	return (a > b) - (a < b);
}

/*
 * @g made simple in place: each row sorted, without repeats and without
 * the vertex itself (tc intersects sorted neighbour lists).
 */
static inline void gb_simple(struct gb_graph *g)
{
	uint32_t at = 0;

	for (uint64_t v = 0; v < g->n; v++) {
		uint32_t e0 = g->row[v], e1 = g->row[v + 1], first = at;

		qsort(g->col + e0, e1 - e0, 4, gb_cmp_u32);
		g->row[v] = at;
		for (uint32_t e = e0; e < e1; e++)
			if (g->col[e] != v &&
			    (at == first || g->col[at - 1] != g->col[e]))
				g->col[at++] = g->col[e];
	}
	g->row[g->n] = at;
	g->m = at;
}

static inline void gb_free(struct gb_graph *g)
{
	free(g->row);
	free(g->col);
}

/*
 * Untimed: block b of @block threads copies @src[i] into @dst[i] for the
 * words i in [first, last) of its rows [b x block, (b + 1) x block): the
 * row offsets themselves (@rows) or the edges of those rows.
 */
struct gb_copy {
	const uint32_t *row;		/* host CSR offsets */
	const uint32_t *src;
	uint32_t *dst;
	uint64_t n;			/* rows */
	unsigned int block;
	bool rows;			/* copy row offsets, not edges */
};

static inline void gb_copy_kernel(struct ng_block *b, void *p)
{
	const struct gb_copy *c = p;
	uint64_t r0 = b->id * c->block, r1 = r0 + c->block;
	uint64_t first, last;
	struct ng_warp w;

	if (r1 > c->n)
		r1 = c->n;
	first = c->rows ? r0 : c->row[r0];
	last = c->rows ? r1 + (r1 == c->n) : c->row[r1];
	ng_warp_get(b, 0, &w);
	for (uint64_t i = first; i < last; i += NG_WARP) {
		struct ng_warp t = w;

		t.nlanes = last - i < NG_WARP ? (unsigned int)(last - i)
					      : NG_WARP;
		t.active = t.nlanes == NG_WARP ? ~0u : (1u << t.nlanes) - 1;
		ng_st_contig(&t, c->dst + i, 4, c->src + i);
	}
}

/* Warps of the largest block of the compute kernels (256 threads). */
#define GB_WARPS	(256 / NG_WARP)

/*
 * A block's warps in a kernel of a thread per vertex, with their
 * vertices' row offsets. A warp's edges hang off r0 and r1, so nothing of
 * them can be addressed before its row loads have arrived: a kernel issues
 * the row loads of every warp (gb_rows_issue()), then waits for each warp
 * before it uses them, so that the block pays one latency for all of them.
 */
struct gb_warps {
	unsigned int n;				/* warps with vertices */
	uint64_t i0[GB_WARPS];			/* each warp's first vertex */
	struct ng_warp w[GB_WARPS];
	uint32_t r0[GB_WARPS][NG_WARP], r1[GB_WARPS][NG_WARP];
};

/*
 * Every warp of @b (@block threads, of @n vertices in all) does @insts
 * instructions (0: none) and loads row[v] and row[v + 1] of its lanes'
 * vertices v; none waits.
 */
static inline void gb_rows_issue(struct ng_block *b, const uint32_t *row,
				 uint64_t n, unsigned int block,
				 unsigned int insts, struct gb_warps *g)
{
	g->n = 0;
	for (unsigned int wi = 0; wi < b->nwarps && wi < GB_WARPS; wi++) {
		struct ng_warp *w = &g->w[wi];

		ng_warp_get(b, wi, w);
		if (!wlc_lanes(w, n, block, &g->i0[wi]))
			break;
		if (insts)
			ng_warp_compute(w, insts);
		ng_ld_contig(w, row + g->i0[wi], 4, g->r0[wi]);
		ng_ld_contig(w, row + g->i0[wi] + 1, 4, g->r1[wi]);
		g->n = wi + 1;
	}
}

/*
 * @t: warp @wi of @g with the lanes whose vertex has a @k-th edge active,
 * each addressing that edge's entry of @col in @addr (k within the row).
 */
static inline void gb_edge_lanes(const struct gb_warps *g, unsigned int wi,
				 uint32_t k, const uint32_t *col,
				 struct ng_warp *t, uintptr_t addr[NG_WARP])
{
	*t = g->w[wi];
	t->active = 0;
	for (unsigned int l = 0; l < g->w[wi].nlanes; l++)
		if (k < g->r1[wi][l] - g->r0[wi][l]) {
			t->active |= 1u << l;
			addr[l] = (uintptr_t)(col + g->r0[wi][l] + k);
		}
}

/*
 * For kernels whose threads go on only for some vertices (bc's level, gc's
 * uncoloured ones): every warp of @b (@block threads, of @n vertices in
 * all) does @insts instructions (0: none) and loads its lanes' words of
 * @state into @s; none waits. Rows are empty until gb_rows_some().
 */
static inline void gb_state_issue(struct ng_block *b, const uint32_t *state,
				  uint64_t n, unsigned int block,
				  unsigned int insts, struct gb_warps *g,
				  uint32_t s[GB_WARPS][NG_WARP])
{
	g->n = 0;
	for (unsigned int wi = 0; wi < b->nwarps && wi < GB_WARPS; wi++) {
		struct ng_warp *w = &g->w[wi];

		ng_warp_get(b, wi, w);
		if (!wlc_lanes(w, n, block, &g->i0[wi]))
			break;
		if (insts)
			ng_warp_compute(w, insts);
		ng_ld_contig(w, state + g->i0[wi], 4, s[wi]);
		memset(g->r0[wi], 0, sizeof(g->r0[wi]));
		memset(g->r1[wi], 0, sizeof(g->r1[wi]));
		g->n = wi + 1;
	}
}

/* The addresses of a[v] of the vertices v of the lanes @mask of warp @wi. */
static inline void gb_some_addrs(const struct gb_warps *g, unsigned int wi,
				 uint32_t mask, const void *a, uintptr_t *addr)
{
	for (uint32_t m = mask; m; m &= m - 1) {
		unsigned int l = (unsigned int)__builtin_ctz(m);

		addr[l] = (uintptr_t)a + (g->i0[wi] + l) * 4;
	}
}

/*
 * The lanes @mask of warp @wi of @g load a[v] of their vertices v into
 * @out (4-byte words); the warp's wait covers them. Nothing if @mask is 0.
 */
static inline void gb_ld_some(struct gb_warps *g, unsigned int wi,
			      uint32_t mask, const void *a, void *out)
{
	struct ng_warp t = g->w[wi];
	uintptr_t addr[NG_WARP];

	if (!mask)
		return;
	t.active = mask;
	gb_some_addrs(g, wi, mask, a, addr);
	ng_ld(&t, addr, 4, out);
	if (t.ready > g->w[wi].ready)
		g->w[wi].ready = t.ready;
}

/*
 * The lanes @mask of warp @wi of @g store @val[lane] at a[v] of their
 * vertices v (4-byte words); nothing waits for the stores.
 */
static inline void gb_st_some(struct gb_warps *g, unsigned int wi,
			      uint32_t mask, void *a, const void *val)
{
	struct ng_warp t = g->w[wi];
	uintptr_t addr[NG_WARP];

	if (!mask)
		return;
	t.active = mask;
	gb_some_addrs(g, wi, mask, a, addr);
	ng_st(&t, addr, 4, val);
}

/*
 * The lanes @mask of warp @wi of @g load their vertices' row offsets (the
 * other lanes keep empty rows); the warp's wait covers them.
 */
static inline void gb_rows_some(struct gb_warps *g, unsigned int wi,
				const uint32_t *row, uint32_t mask)
{
	gb_ld_some(g, wi, mask, row, g->r0[wi]);
	gb_ld_some(g, wi, mask, row + 1, g->r1[wi]);
}

/* The most edges of a lane of warp @wi of @g (its rows have arrived). */
static inline uint32_t gb_most(const struct gb_warps *g, unsigned int wi)
{
	uint32_t most = 0;

	for (unsigned int l = 0; l < g->w[wi].nlanes; l++)
		if (g->r1[wi][l] - g->r0[wi][l] > most)
			most = g->r1[wi][l] - g->r0[wi][l];
	return most;
}

/*
 * The graph of a run of workload @name: size / 4 vertices (32 at least),
 * edges within groups of @span vertices (0: anywhere), in @g; with @u,
 * also made undirected there. 0, or -EINVAL / -ENOMEM with the message in
 * c->err (nothing to free then).
 */
static inline int gb_setup(struct wlc *c, const char *name, uint64_t span,
			   struct gb_graph *g, struct gb_graph *u)
{
	uint64_t n = c->o->size / 4;

	if (n < NG_WARP) {
		ng_seterr(c->err, c->errlen,
			  "%s: size must hold %u vertices (%u bytes) at least",
			  name, NG_WARP, NG_WARP * 4);
		return -EINVAL;
	}
	if (gb_make(g, n, span ? span : n, c->cfg->seed) ||
	    (u && gb_undirected(g, u))) {
		gb_free(g);
		ng_seterr(c->err, c->errlen, "%s: out of memory", name);
		return -ENOMEM;
	}
	return 0;
}

/*
 * @g into device buffers @brow and @bcol, allocated here with the run's
 * placement, then written by untimed copy blocks of @block vertices'
 * rows and edges each; 0 or the error (its message in c->err).
 */
static inline int gb_upload(struct wlc *c, const struct gb_graph *g,
			    unsigned int block, struct ng_buf *brow,
			    struct ng_buf *bcol)
{
	uint64_t nblocks = (g->n + block - 1) / block;
	struct gb_copy cp = { .row = g->row, .src = g->row, .n = g->n,
			      .block = block, .rows = true };
	int ret = wlc_alloc(c, brow, (g->n + 1) * 4, -1);

	if (!ret)
		ret = wlc_alloc(c, bcol, g->m * 4 + 4, -1);
	if (ret)
		return ret;
	cp.dst = brow->ptr;
	ret = wlc_launch(c, "graph-rows", gb_copy_kernel, &cp, nblocks,
			 NG_WARP, -1, false);
	if (ret)
		return ret;
	cp.src = g->col;
	cp.dst = bcol->ptr;
	cp.rows = false;
	return wlc_launch(c, "graph-edges", gb_copy_kernel, &cp, nblocks,
			  NG_WARP, -1, false);
}

#endif /* NGEMU_WL_GRAPHBIG_GRAPH_H */
