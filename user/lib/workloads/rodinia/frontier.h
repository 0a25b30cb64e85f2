/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The frontier of Rodinia's bfs (Harish and Narayanan's BFS), which
 * sssp.c follows too (private to lib/workloads/rodinia): Rodinia's Node
 * for the CSR rows, a byte flag a vertex, a thread per vertex, and warps
 * that go on with only the lanes their mask puts in the frontier. The
 * kernels keep their phases (every warp issues a phase's loads, then each
 * waits for its own, so that a block pays one latency a phase); a helper
 * is one warp's step of a phase, or a whole phase where both kernels'
 * are the same.
 */
#ifndef NGEMU_LIB_WL_RODINIA_FRONTIER_H
#define NGEMU_LIB_WL_RODINIA_FRONTIER_H

#include "workloads/wl.h"

_Static_assert(sizeof(bool) == 1, "Rodinia's flags are one byte each");

/* Rodinia's Node: where the vertex's row of edges starts, and its length */
struct rf_node {
	int32_t starting, no_of_edges;
};

/* addr[lane] = &base[i0 + lane] (elements of @size bytes), active lanes. */
static inline void rf_at(const struct ng_warp *w, const void *base,
			 uint64_t i0, unsigned int size,
			 uintptr_t addr[NG_WARP])
{
	for (uint32_t m = w->active; m; m &= m - 1) {
		unsigned int l = (unsigned int)__builtin_ctz(m);

		addr[l] = (uintptr_t)base + (i0 + l) * size;
	}
}

/*
 * Every warp of @b (a block of @block threads over @n vertices) that has
 * vertices loads its lanes' byte flags of @flags into @fl, after @insts
 * of arithmetic; returns the warps, with their first vertices in @i0.
 * Nobody waits yet: the phase's loads overlap.
 */
static inline unsigned int rf_load_flags(struct ng_block *b, uint64_t n,
					 unsigned int block, const bool *flags,
					 unsigned int insts, struct ng_warp w[],
					 uint64_t i0[], bool fl[][NG_WARP])
{
	unsigned int nw = 0;

	for (unsigned int wi = 0; wi < b->nwarps && wi < block / NG_WARP; wi++) {
		ng_warp_get(b, wi, &w[wi]);
		if (!wlc_lanes(&w[wi], n, block, &i0[wi]))
			break;
		ng_warp_compute(&w[wi], insts);
		ng_ld_contig(&w[wi], flags + i0[wi], 1, fl[wi]);
		nw = wi + 1;
	}
	return nw;
}

/* The lanes of @w, active or not, whose flag in @fl is set. */
static inline uint32_t rf_flagged(const struct ng_warp *w,
				  const bool fl[NG_WARP])
{
	uint32_t set = 0;

	for (unsigned int l = 0; l < w->nlanes; l++)
		if (fl[l])
			set |= 1u << l;
	return set;
}

/*
 * The active lanes of @w store @v at flags[i0 + lane] (a mask cleared, a
 * vertex joining the next frontier); @addr is room for the addresses.
 */
static inline void rf_store_flag(struct ng_warp *w, bool *flags, uint64_t i0,
				 bool v, uintptr_t addr[NG_WARP])
{
	bool val[NG_WARP];

	for (unsigned int l = 0; l < NG_WARP; l++)
		val[l] = v;
	rf_at(w, flags, i0, 1, addr);
	ng_st(w, addr, 1, val);
}

/*
 * The active lanes of @w set the host's flag @over: every lane the same
 * byte, one word of one line. @addr is room for the addresses.
 */
static inline void rf_set_over(struct ng_warp *w, bool *over,
			       uintptr_t addr[NG_WARP])
{
	bool yes[NG_WARP];

	for (unsigned int l = 0; l < NG_WARP; l++)
		yes[l] = true;
	for (uint32_t m = w->active; m; m &= m - 1)
		addr[__builtin_ctz(m)] = (uintptr_t)over;
	ng_st(w, addr, 1, yes);
}

/*
 * Kernel's start for warp @w, whose mask flags @fl rf_load_flags() loaded
 * (mask at @i0 in @mask): it waits for them, and from here on the warp's
 * lanes are its frontier's, which after @insts of arithmetic clear their
 * flags and load their nodes from @nodes into @nd. Returns the frontier
 * lanes (0: none, and nothing issued). @addr is room for the addresses.
 */
static inline uint32_t rf_frontier(struct ng_warp *w, const bool fl[NG_WARP],
				   unsigned int insts, bool *mask,
				   const struct rf_node *nodes, uint64_t i0,
				   uintptr_t addr[NG_WARP],
				   struct rf_node nd[NG_WARP])
{
	ng_warp_wait(w);
	w->active = rf_flagged(w, fl);
	if (!w->active)
		return 0;
	ng_warp_compute(w, insts);
	rf_store_flag(w, mask, i0, false, addr);
	rf_at(w, nodes, i0, sizeof(nd[0]), addr);
	ng_ld(w, addr, sizeof(nd[0]), nd);
	return w->active;
}

/*
 * The @nw warps of @w wait for their frontier lanes' nodes @nd (warps
 * without a frontier issued none); @most[warp]: the most edges a lane of
 * it has, the edge steps it takes, its lanes diverging. Returns the
 * block's most.
 */
static inline int32_t rf_most_edges(unsigned int nw, struct ng_warp w[],
				    const struct rf_node nd[][NG_WARP],
				    int32_t most[])
{
	int32_t all = 0;

	for (unsigned int wi = 0; wi < nw; wi++) {
		most[wi] = 0;
		if (!w[wi].active)
			continue;
		ng_warp_wait(&w[wi]);
		for (uint32_t m = w[wi].active; m; m &= m - 1) {
			unsigned int l = (unsigned int)__builtin_ctz(m);

			if (nd[wi][l].no_of_edges > most[wi])
				most[wi] = nd[wi][l].no_of_edges;
		}
		if (most[wi] > all)
			all = most[wi];
	}
	return all;
}

/*
 * addr[lane] = &base[starting + k] (elements of @size bytes) for the
 * active lanes: their row's edge @k in a per-edge array.
 */
static inline void rf_row_at(const struct ng_warp *w,
			     const struct rf_node nd[NG_WARP], int32_t k,
			     const void *base, unsigned int size,
			     uintptr_t addr[NG_WARP])
{
	for (uint32_t m = w->active; m; m &= m - 1) {
		unsigned int l = (unsigned int)__builtin_ctz(m);

		addr[l] = (uintptr_t)base +
			  (uint64_t)(nd[l].starting + k) * size;
	}
}

/*
 * Edge step @k of warp @w: @t, its frontier lanes whose row has an edge
 * @k, loads after @insts of arithmetic the edges' targets (4 bytes each)
 * from @edges into @id. Nobody waits yet.
 */
static inline void rf_load_edge(struct ng_warp *t, const struct ng_warp *w,
				const struct rf_node nd[NG_WARP], int32_t k,
				const void *edges, unsigned int insts,
				uintptr_t addr[NG_WARP], void *id)
{
	*t = *w;
	t->active = 0;
	for (uint32_t m = w->active; m; m &= m - 1) {
		unsigned int l = (unsigned int)__builtin_ctz(m);

		if (k < nd[l].no_of_edges)
			t->active |= 1u << l;
	}
	rf_row_at(t, nd, k, edges, 4, addr);
	ng_warp_compute(t, insts);
	ng_ld(t, addr, 4, id);
}

#endif /* NGEMU_LIB_WL_RODINIA_FRONTIER_H */
