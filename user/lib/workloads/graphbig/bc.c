// SPDX-License-Identifier: GPL-2.0
/*
 * bc: betweenness centrality (Brandes), after GraphBIG's GPU kernel
 * (gpu_bench/gpu_BetweennessCentr, thread-centric, after Sariyuce et
 * al.): a thread per vertex of a CSR graph, 256-thread blocks, and for
 * each source vertex the same four kernels as GraphBIG's:
 *
 *   bc-init      dist = infinity, sigma = 0, delta = 0; the source's
 *                dist 0 and sigma 1;
 *   bc-forward   one a BFS level: a vertex u at the level visits its
 *                out-edges; a target w whose dist is infinity gets
 *                level + 1 (a plain store: every writer stores the same),
 *                and every target at level + 1 gets sigma[u] added to its
 *                sigma with an atomic;
 *   bc-backward  one a level, deepest first: a vertex u at the level
 *                above pulls sigma[u] / sigma[w] x (1 + delta[w]) from
 *                its out-edges' targets w at the level (in double, summed
 *                into a float, as GraphBIG) and adds it to its delta;
 *   bc-backsum   every vertex reached, but the source, adds its delta to
 *                its centrality.
 *
 * The host stops the forward levels when one reaches no new vertex
 * (GraphBIG's device flag; here the host looks at dist outside the
 * model, as cc's host looks for a change). Where ngemu differs: GraphBIG
 * runs all n vertices as sources, n x (levels x 2 + 2) kernels, which no
 * emulated run could afford; ngemu runs the first BC_SOURCES of them
 * (vertices 0, 1, ...) in the same order, so the centralities are those
 * of Brandes's sums over those sources only. The graph is the random CSR
 * of graph.h (directed, 1 to 15 out-edges a vertex), made from the seed;
 * GraphBIG reads an input file. Each thread loads its dist first and
 * leaves unless its vertex is at the kernel's level, as GraphBIG's do;
 * the warps of a block go phase by phase (see dc.c).
 *
 * CODA (sec. 5.2 and Table 2; Fig. 5 in sec. 3) counts bc as
 * block-exclusive, a workload whose pages (over 90% of them) one thread
 * block alone touches: a thread per vertex, so block b reads and writes
 * the rows, edges, dist, sigma, delta and centrality of its own vertices
 * [256 b, 256 b + 256) only; the targets' dist, sigma and delta, reached
 * over edges, go anywhere (ngemu's page profile measures what that
 * leaves: Documentation/coda.rst).
 * Verified against a CPU Brandes over the same sources (a queue BFS,
 * then the dependencies in the reverse of its order), every vertex's
 * centrality within a relative 1e-5.
 *
 * --size is the bytes of a per-vertex array: size / 4 vertices. The
 * default, 128 KiB (32 Ki vertices, 128 blocks), is the smallest whose
 * blocks reach the four GPUs of the coda preset under CODA's affinity
 * scheduling (sched=coda: batches of 32 consecutive blocks a GPU); at
 * 16 KiB they all ran on GPU 0, and first touch made every access local.
 */
#include "workloads/graphbig/ref.h"

#define BC_BLOCK	256
#define BC_SOURCES	2
/*
 * a vertex: its index and the compare of its dist with the level (3);
 * an edge: its address, the target's addresses, the compares (4); a
 * successor's dependency in the backward phase: divide, add, multiply,
 * convert (6)
 */
#define BC_INSTS	3
#define BC_EDGE_INSTS	4
#define BC_DEP_INSTS	6

_Static_assert(BC_BLOCK <= GB_WARPS * NG_WARP, "struct gb_warps holds a block's warps");

struct bc_args {
	uint32_t *row, *col, *dist, *sigma;
	float *delta, *bc;
	uint64_t n, root;
	uint32_t level;
};

static void bc_init(struct ng_block *b, void *p)
{
	const struct bc_args *a = p;
	uint32_t d[NG_WARP], s[NG_WARP];
	float z[NG_WARP];

	for (unsigned int wi = 0; wi < b->nwarps; wi++) {
		struct ng_warp w;
		uint64_t i0;

		ng_warp_get(b, wi, &w);
		if (!wlc_lanes(&w, a->n, BC_BLOCK, &i0))
			break;
		for (unsigned int l = 0; l < w.nlanes; l++) {
			d[l] = i0 + l == a->root ? 0 : BC_INF;
			s[l] = i0 + l == a->root;
			z[l] = 0;
		}
		ng_st_contig(&w, a->dist + i0, 4, d);
		ng_st_contig(&w, a->sigma + i0, 4, s);
		ng_st_contig(&w, a->delta + i0, 4, z);
	}
}

/* The lanes of warp @wi whose word of @s is @want. */
static uint32_t bc_mask(const struct gb_warps *g, unsigned int wi,
			const uint32_t s[NG_WARP], uint32_t want)
{
	uint32_t m = 0;

	for (unsigned int l = 0; l < g->w[wi].nlanes; l++)
		if (s[l] == want)
			m |= 1u << l;
	return m;
}

/* Every warp's rows have arrived: each one's most edges, the block's most. */
static uint32_t bc_rows_wait(struct gb_warps *g, uint32_t most[GB_WARPS])
{
	uint32_t all = 0;

	for (unsigned int wi = 0; wi < g->n; wi++) {
		ng_warp_wait(&g->w[wi]);
		most[wi] = gb_most(g, wi);
		if (most[wi] > all)
			all = most[wi];
	}
	return all;
}

/*
 * Edge k of every lane that has one, in lockstep over the block's warps:
 * every warp loads its target, then each waits for it before it loads
 * the target's dist into @d (bc_forward() and bc_backward() alike).
 */
static void bc_edge_dist(const struct bc_args *a, struct gb_warps *g,
			 uint32_t k, const uint32_t most[GB_WARPS],
			 struct ng_warp t[GB_WARPS],
			 uintptr_t addr[GB_WARPS][NG_WARP],
			 uint32_t to[GB_WARPS][NG_WARP],
			 uint32_t d[GB_WARPS][NG_WARP])
{
	for (unsigned int wi = 0; wi < g->n; wi++) {
		if (k >= most[wi])
			continue;
		gb_edge_lanes(g, wi, k, a->col, &t[wi], addr[wi]);
		ng_warp_compute(&t[wi], BC_EDGE_INSTS);
		ng_ld(&t[wi], addr[wi], 4, to[wi]);
	}
	for (unsigned int wi = 0; wi < g->n; wi++) {
		if (k >= most[wi])
			continue;
		ng_warp_wait(&t[wi]);
		for (uint32_t m = t[wi].active; m; m &= m - 1) {
			unsigned int l = (unsigned int)__builtin_ctz(m);

			addr[wi][l] = (uintptr_t)(a->dist + to[wi][l]);
		}
		ng_ld(&t[wi], addr[wi], 4, d[wi]);
	}
}

/*
 * GraphBIG's kernel_forward_phase, phase by phase over the block's warps:
 * every warp loads its dist, then each waits for it before the lanes at
 * the level load their rows and sigma. Edge k of every such lane that
 * has one, in lockstep: every warp loads its target, then waits for it
 * before it can address the target's dist, then waits for that before
 * it stores the unreached targets' dist and adds to their sigma.
 */
static void bc_forward(struct ng_block *b, void *p)
{
	const struct bc_args *a = p;
	uint32_t d[GB_WARPS][NG_WARP], su[GB_WARPS][NG_WARP];
	uint32_t to[GB_WARPS][NG_WARP], most[GB_WARPS], all;
	uint32_t next[NG_WARP];
	uintptr_t addr[GB_WARPS][NG_WARP];
	struct ng_warp t[GB_WARPS];
	struct gb_warps g;

	for (unsigned int l = 0; l < NG_WARP; l++)
		next[l] = a->level + 1;
	gb_state_issue(b, a->dist, a->n, BC_BLOCK, BC_INSTS, &g, d);
	for (unsigned int wi = 0; wi < g.n; wi++) {
		uint32_t m;

		ng_warp_wait(&g.w[wi]);
		m = bc_mask(&g, wi, d[wi], a->level);
		gb_rows_some(&g, wi, a->row, m);
		gb_ld_some(&g, wi, m, a->sigma, su[wi]);
	}
	all = bc_rows_wait(&g, most);
	for (uint32_t k = 0; k < all; k++) {
		bc_edge_dist(a, &g, k, most, t, addr, to, d);
		for (unsigned int wi = 0; wi < g.n; wi++) {
			struct ng_warp s;

			if (k >= most[wi])
				continue;
			ng_warp_wait(&t[wi]);
			s = t[wi];
			s.active = 0;
			for (uint32_t m = t[wi].active; m; m &= m - 1) {
				unsigned int l = (unsigned int)__builtin_ctz(m);

				if (d[wi][l] == BC_INF)
					s.active |= 1u << l;
			}
			/* every writer stores the same level: no atomic needed */
			if (s.active)
				ng_st(&s, addr[wi], 4, next);
			s.active = 0;
			for (uint32_t m = t[wi].active; m; m &= m - 1) {
				unsigned int l = (unsigned int)__builtin_ctz(m);

				if (d[wi][l] == BC_INF || d[wi][l] == a->level + 1) {
					s.active |= 1u << l;
					addr[wi][l] = (uintptr_t)(a->sigma + to[wi][l]);
				}
			}
			/* nothing waits for an atomic whose old value is unused */
			if (s.active)
				ng_atomic_add_u32(&s, addr[wi], su[wi], NULL);
		}
	}
}

/*
 * GraphBIG's kernel_backward_phase for the level a->level: the lanes one
 * level above it load their rows, sigma and delta; edge k in lockstep as
 * in bc_forward(): the target, then its dist, then, for the targets at
 * the level, their sigma and delta, before the lane adds the dependency.
 */
static void bc_backward(struct ng_block *b, void *p)
{
	const struct bc_args *a = p;
	uint32_t d[GB_WARPS][NG_WARP], su[GB_WARPS][NG_WARP];
	uint32_t sw[GB_WARPS][NG_WARP], to[GB_WARPS][NG_WARP];
	uint32_t most[GB_WARPS], mask[GB_WARPS], all;
	float du[GB_WARPS][NG_WARP], dw[GB_WARPS][NG_WARP];
	float sum[GB_WARPS][NG_WARP];
	uintptr_t addr[GB_WARPS][NG_WARP];
	struct ng_warp t[GB_WARPS], s[GB_WARPS];
	struct gb_warps g;

	gb_state_issue(b, a->dist, a->n, BC_BLOCK, BC_INSTS, &g, d);
	for (unsigned int wi = 0; wi < g.n; wi++) {
		ng_warp_wait(&g.w[wi]);
		mask[wi] = bc_mask(&g, wi, d[wi], a->level - 1);
		gb_rows_some(&g, wi, a->row, mask[wi]);
		gb_ld_some(&g, wi, mask[wi], a->sigma, su[wi]);
		gb_ld_some(&g, wi, mask[wi], a->delta, du[wi]);
		for (unsigned int l = 0; l < NG_WARP; l++)
			sum[wi][l] = 0;
	}
	all = bc_rows_wait(&g, most);
	for (uint32_t k = 0; k < all; k++) {
		bc_edge_dist(a, &g, k, most, t, addr, to, d);
		for (unsigned int wi = 0; wi < g.n; wi++) {
			if (k >= most[wi])
				continue;
			ng_warp_wait(&t[wi]);
			s[wi] = t[wi];
			s[wi].active = 0;
			for (uint32_t m = t[wi].active; m; m &= m - 1) {
				unsigned int l = (unsigned int)__builtin_ctz(m);

				if (d[wi][l] == a->level) {
					s[wi].active |= 1u << l;
					addr[wi][l] = (uintptr_t)(a->sigma + to[wi][l]);
				}
			}
			if (!s[wi].active)
				continue;
			ng_ld(&s[wi], addr[wi], 4, sw[wi]);
			for (uint32_t m = s[wi].active; m; m &= m - 1) {
				unsigned int l = (unsigned int)__builtin_ctz(m);

				addr[wi][l] = (uintptr_t)(a->delta + to[wi][l]);
			}
			ng_ld(&s[wi], addr[wi], 4, dw[wi]);
		}
		for (unsigned int wi = 0; wi < g.n; wi++) {
			if (k >= most[wi] || !s[wi].active)
				continue;
			ng_warp_wait(&s[wi]);
			ng_warp_compute(&s[wi], BC_DEP_INSTS);
			for (uint32_t m = s[wi].active; m; m &= m - 1) {
				unsigned int l = (unsigned int)__builtin_ctz(m);

				sum[wi][l] = (float)(sum[wi][l] + 1.0 * su[wi][l] /
						     sw[wi][l] * (1.0 + dw[wi][l]));
			}
		}
	}
	for (unsigned int wi = 0; wi < g.n; wi++) {
		for (unsigned int l = 0; l < NG_WARP; l++)
			du[wi][l] += sum[wi][l];
		gb_st_some(&g, wi, mask[wi], a->delta, du[wi]);
	}
}

/*
 * GraphBIG's kernel_backsum_phase: the lanes whose vertex was reached,
 * but the source, load their delta and centrality and store the sum.
 */
static void bc_backsum(struct ng_block *b, void *p)
{
	const struct bc_args *a = p;
	uint32_t d[GB_WARPS][NG_WARP], mask[GB_WARPS];
	float dv[GB_WARPS][NG_WARP], c[GB_WARPS][NG_WARP];
	struct gb_warps g;

	gb_state_issue(b, a->dist, a->n, BC_BLOCK, BC_INSTS, &g, d);
	for (unsigned int wi = 0; wi < g.n; wi++) {
		ng_warp_wait(&g.w[wi]);
		mask[wi] = 0;
		for (unsigned int l = 0; l < g.w[wi].nlanes; l++)
			if (d[wi][l] != BC_INF && g.i0[wi] + l != a->root)
				mask[wi] |= 1u << l;
		gb_ld_some(&g, wi, mask[wi], a->delta, dv[wi]);
		gb_ld_some(&g, wi, mask[wi], a->bc, c[wi]);
	}
	for (unsigned int wi = 0; wi < g.n; wi++) {
		if (!mask[wi])
			continue;
		ng_warp_wait(&g.w[wi]);
		for (unsigned int l = 0; l < NG_WARP; l++)
			c[wi][l] += dv[wi][l];
		gb_st_some(&g, wi, mask[wi], a->bc, c[wi]);
	}
}

/* Whether some vertex has dist @level (the host's look, outside the model). */
static bool bc_reached(const struct bc_args *a, uint32_t level)
{
	for (uint64_t v = 0; v < a->n; v++)
		if (a->dist[v] == level)
			return true;
	return false;
}

static int bc_run(struct ng_system *sys, const struct ng_bench_opts *o,
		  struct ng_bench_result *r, char *err, size_t errlen)
{
	struct ng_buf brow = { 0 }, bcol = { 0 }, bdist = { 0 };
	struct ng_buf bsigma = { 0 }, bdelta = { 0 }, bbc = { 0 };
	struct gb_graph g = { 0 };
	struct bc_args a = { 0 };
	uint64_t nblocks, kernels = 0, visits = 0;
	float *want = NULL;
	struct wlc c;
	char ok[128];
	int ret;

	wlc_init(&c, sys, o, r, err, errlen);
	ret = gb_setup(&c, "bc", 0, &g, NULL);
	if (ret)
		return ret;
	a.n = g.n;
	nblocks = (a.n + BC_BLOCK - 1) / BC_BLOCK;
	ret = gb_upload(&c, &g, BC_BLOCK, &brow, &bcol);
	if (!ret)
		ret = wlc_alloc(&c, &bdist, a.n * 4, -1);
	if (!ret)
		ret = wlc_alloc(&c, &bsigma, a.n * 4, -1);
	if (!ret)
		ret = wlc_alloc(&c, &bdelta, a.n * 4, -1);
	if (!ret)
		ret = wlc_alloc(&c, &bbc, a.n * 4, -1);
	if (ret)
		goto out;
	a.row = brow.ptr;
	a.col = bcol.ptr;
	a.dist = bdist.ptr;
	a.sigma = bsigma.ptr;
	a.delta = bdelta.ptr;
	a.bc = bbc.ptr;
	r->elements = a.n;
	ng_system_reset_counters(sys);
	for (unsigned int it = 0; it < o->iters && !ret; it++) {
		/* the host clears the centralities (GraphBIG: cudaMemset) */
		if (it)
			memset(a.bc, 0, a.n * 4);
		for (a.root = 0; a.root < BC_SOURCES && a.root < a.n && !ret;
		     a.root++) {
			uint32_t depth;

			ret = wlc_launch(&c, "bc-init", bc_init, &a, nblocks,
					 BC_BLOCK, -1, true);
			kernels++;
			for (a.level = 0; !ret; a.level++) {
				ret = wlc_launch(&c, "bc-forward", bc_forward,
						 &a, nblocks, BC_BLOCK, -1,
						 true);
				kernels++;
				visits++;
				if (!bc_reached(&a, a.level + 1))
					break;
			}
			for (depth = a.level; depth > 0 && !ret; depth--) {
				a.level = depth;
				ret = wlc_launch(&c, "bc-backward", bc_backward,
						 &a, nblocks, BC_BLOCK, -1,
						 true);
				kernels++;
				visits++;
			}
			if (!ret)
				ret = wlc_launch(&c, "bc-backsum", bc_backsum,
						 &a, nblocks, BC_BLOCK, -1,
						 true);
			kernels++;
		}
	}
	if (ret)
		goto out;
	wl_collect(sys, r);
	/*
	 * logical bytes: every level kernel reads each vertex's dist; a
	 * source's forward and backward passes each read the graph (offsets,
	 * an edge's target and the target's dist); bc-init and bc-backsum
	 * three words a vertex
	 */
	r->bytes = visits * a.n * 4 +
		   (uint64_t)o->iters * BC_SOURCES * 2 * ((a.n + 1) * 4 + g.m * 8) +
		   (kernels - visits) * a.n * 12;
	want = calloc(a.n, 4);
	if (!want || bc_reference(&g, BC_SOURCES, want)) {
		ng_seterr(err, errlen, "bc: out of memory");
		ret = -ENOMEM;
		goto out;
	}
	snprintf(ok, sizeof(ok),
		 "the centralities of %llu vertices from %u sources match the CPU's Brandes (%llu kernels)",
		 (unsigned long long)a.n, BC_SOURCES,
		 (unsigned long long)kernels);
	wl_corrupt_f32(o, a.bc, a.n);
	wl_check_f32(r, "centrality", a.bc, want, a.n, 0, 1e-5f, 1e-6f, ok);
out:
	free(want);
	gb_free(&g);
	ng_free(c.sp, &bbc);
	ng_free(c.sp, &bdelta);
	ng_free(c.sp, &bsigma);
	ng_free(c.sp, &bdist);
	ng_free(c.sp, &bcol);
	ng_free(c.sp, &brow);
	return ret;
}

const struct ng_workload ng_wl_bc = {
	.name = "bc",
	.desc = "betweenness centrality (GraphBIG): Brandes from 2 sources, a thread per vertex, level by level over a random CSR graph",
	.input = "uniform: 1-15 random out-edges a vertex (CODA's real graphs are not modeled)",
	.default_size = 128ULL << 10,	/* 32 Ki vertices, ~256 Ki edges */
	.default_iters = 1,
	.narrays = 16,
	.run = bc_run,
};
