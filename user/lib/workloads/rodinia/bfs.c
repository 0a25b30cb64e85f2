// SPDX-License-Identifier: GPL-2.0
/*
 * bfs: Rodinia's BFS (cuda/bfs: kernel.cu, kernel2.cu) from vertex 0.
 * The graph is CSR as Rodinia keeps it: a Node {starting, no_of_edges}
 * per vertex and the edges' targets (32-bit ints), with three byte flags
 * per vertex, mask (the frontier), updating (found by this level) and
 * visited, and its cost (its level, -1 while unreached). A level is two
 * kernels of a thread per vertex:
 *
 *   Kernel   a frontier vertex clears its mask and, for each edge, reads
 *            the target's visited flag: an unvisited target gets
 *            cost[tid] + 1 and its updating flag;
 *   Kernel2  a vertex with updating set joins the next frontier (mask,
 *            visited), sets the host's flag `over` and clears updating.
 *
 * The host writes over = false before each level (directly, outside the
 * model, as Rodinia's cudaMemcpy does) and stops after a level whose
 * Kernel2 left it false. Only Kernel2 writes visited, so no control flow
 * of Kernel depends on a store of the same kernel: two frontier vertices
 * with one unvisited target both store the same cost and flag, and a run
 * does not depend on the host's timing. The flags and costs are
 * read-write shared across kernels: with no coherence, a GPU's stale
 * cached copy of visited[] lets it reach a vertex again, with a larger
 * cost, and the frontier need not ever empty.
 *
 * A warp's lanes read their k-th edges 32 B apart (CSR rows): the same 8
 * lines at each of the 8 edge steps. And Rodinia's loop reloads cost[tid]
 * for every unvisited target (the store to cost[id] may alias it). A GPU's
 * L1 serves those repeats, and so does the model's where the preset has
 * one (REC's, DualOpt's); elsewhere they go to the L2 or memory again.
 *
 * Where ngemu differs: the graph is made from the seed (bf_nb(): BF_D
 * random out-edges per vertex; Rodinia reads a file) and written by an
 * untimed kernel, so that first touch homes each block's nodes and edges
 * with it. `over` is on GPU 0, the GPU the host's
 * copies would go to. Rodinia's host loops until over stays false, which
 * stale flags can keep from happening: ngemu's stops a search after the
 * level a correct one ends with (the CPU BFS's depth), and a search not
 * over by then fails the verification. Blocks have 256 threads, as
 * ngemu's other thread-per-vertex kernels (Rodinia's MAX_THREADS_PER_BLOCK
 * is 512): an SM holds as many threads either way (threads-per-sm), and
 * 512 moved the presets' modeled times by 0.1-6% (REC's the most).
 *
 * --size is the bytes of cost[]: size / 4 vertices. The search runs
 * `iters` times (each but the first after a timed reset kernel); costs
 * are verified against a CPU BFS (unreachable vertices -1).
 *
 * bfs-road is the same kernels on CARVE's kind of input: CARVE ran
 * Rodinia's bfs on bfs-road-usa, the DIMACS USA road network (23.9 M
 * places, 58.3 M arcs; 590 MB in these arrays), and ngemu's stand-in is
 * the road graph of workloads/inputs (graph_road.c: a planar map of mean
 * degree 2.7 whose ids go by 32 x 32 tiles, so that a range of vertices
 * is a region of the map), of size / 4 vertices, symmetric, searched from
 * vertex 0 (a corner of the map) as Rodinia searches from its file's
 * source 0. Its rows come from the graph (bf_init_csr()), not from
 * bf_nb(); everything else is bfs's. Its search crosses the map in
 * hundreds of levels (935 at the default 2^18 vertices), each a small
 * frontier beside the flags of every vertex both kernels read: one
 * search a run by default. bfs keeps the uniform graph: CODA runs it.
 */
#include <stdlib.h>

#include "workloads/inputs/graph.h"
#include "workloads/rodinia/frontier.h"

#define BF_BLOCK	256
#define BF_D		8
#define BF_WARPS	(BF_BLOCK / NG_WARP)
/*
 * Warp instructions, per thread. Kernel: the thread's index, the bound,
 * the mask's address and test (4); a frontier thread: the mask's store,
 * the loop's end, cost[tid]'s address (3); per edge: the loop's step and
 * test, the edge's address, the target's visited address and test (5);
 * per unvisited target: cost + 1 and the two stores' addresses (3).
 * Kernel2: the index, the bound, the updating test (4); a vertex found:
 * the four stores' addresses (4).
 */
#define BF_INSTS	4
#define BF_FRONT_INSTS	3
#define BF_EDGE_INSTS	5
#define BF_VISIT_INSTS	3
#define BF2_INSTS	4
#define BF2_FOUND_INSTS	4
/*
 * Logical bytes: every level reads mask[] (Kernel) and updating[]
 * (Kernel2), a byte a vertex each; a search expands every reached
 * vertex once (node, cost, mask, its edges and their visited flags) and
 * marks it at least once (cost, updating; then mask, visited, updating).
 */
#define BF_LEVEL_BYTES	2
#define BF_REACH_BYTES	(8 + 4 + 1 + 4 + 1 + 3)
#define BF_EDGE_BYTES	(4 + 1)

struct bf_args {
	struct rf_node *nodes;
	int32_t *edges, *cost;
	bool *mask, *updating, *visited, *over;
	uint64_t n, seed;
	/* bfs-road: the graph's CSR on the host; NULL: bf_nb()'s BF_D a vertex */
	const uint32_t *row, *col;
};

static const bool bf_false[NG_WARP];

static uint32_t bf_nb(const struct bf_args *a, uint64_t v, unsigned int k)
{
	return (uint32_t)(wlc_hash(a->seed * 977 + v * BF_D + k) % a->n);
}

/* Vertex @v's out-edges, and its @k-th edge's target. */
static uint32_t bf_deg(const struct bf_args *a, uint64_t v)
{
	return a->row ? a->row[v + 1] - a->row[v] : BF_D;
}

static uint32_t bf_edge(const struct bf_args *a, uint64_t v, unsigned int k)
{
	return a->row ? a->col[a->row[v] + k] : bf_nb(a, v, k);
}

/*
 * bfs-road's graph, as bf_init() writes bfs's: the block's nodes, then
 * each warp its vertices' edges, 32 words a store.
 */
static void bf_init_csr(struct ng_block *b, void *p)
{
	const struct bf_args *a = p;

	for (unsigned int wi = 0; wi < b->nwarps; wi++) {
		struct rf_node nd[NG_WARP];
		struct ng_warp w;
		uint64_t i0;

		ng_warp_get(b, wi, &w);
		if (!wlc_lanes(&w, a->n, BF_BLOCK, &i0))
			break;
		for (unsigned int l = 0; l < w.nlanes; l++)
			nd[l] = (struct rf_node){ (int32_t)a->row[i0 + l],
						  (int32_t)bf_deg(a, i0 + l) };
		ng_st_contig(&w, a->nodes + i0, sizeof(nd[0]), nd);
		for (uint64_t e = a->row[i0]; e < a->row[i0 + w.nlanes];
		     e += NG_WARP) {
			uint64_t left = a->row[i0 + w.nlanes] - e;
			struct ng_warp t = w;

			t.nlanes = left < NG_WARP ? (unsigned int)left : NG_WARP;
			t.active = t.nlanes == NG_WARP ? ~0u : (1u << t.nlanes) - 1;
			ng_st_contig(&t, a->edges + e, 4, a->col + e);
		}
	}
}

/* Untimed: the CSR graph, each block writing its own vertices' part. */
static void bf_init(struct ng_block *b, void *p)
{
	const struct bf_args *a = p;

	for (unsigned int wi = 0; wi < b->nwarps; wi++) {
		struct rf_node nd[NG_WARP];
		int32_t e[NG_WARP];
		struct ng_warp w;
		uint64_t i0;

		ng_warp_get(b, wi, &w);
		if (!wlc_lanes(&w, a->n, BF_BLOCK, &i0))
			break;
		for (unsigned int l = 0; l < w.nlanes; l++)
			nd[l] = (struct rf_node){ (int32_t)((i0 + l) * BF_D), BF_D };
		ng_st_contig(&w, a->nodes + i0, sizeof(nd[0]), nd);
		/* the warp's BF_D x nlanes edges, nlanes words a store */
		for (unsigned int k = 0; k < BF_D; k++) {
			uint64_t e0 = i0 * BF_D + k * w.nlanes;

			for (unsigned int l = 0; l < w.nlanes; l++)
				e[l] = (int32_t)bf_nb(a, (e0 + l) / BF_D,
						      (e0 + l) % BF_D);
			ng_st_contig(&w, a->edges + e0, 4, e);
		}
	}
}

/* Rodinia's host initialization: vertex 0 alone visited and in the frontier. */
static void bf_reset(struct ng_block *b, void *p)
{
	const struct bf_args *a = p;

	for (unsigned int wi = 0; wi < b->nwarps; wi++) {
		int32_t c[NG_WARP];
		bool f[NG_WARP];
		struct ng_warp w;
		uint64_t i0;

		ng_warp_get(b, wi, &w);
		if (!wlc_lanes(&w, a->n, BF_BLOCK, &i0))
			break;
		for (unsigned int l = 0; l < w.nlanes; l++) {
			c[l] = i0 + l ? -1 : 0;
			f[l] = !(i0 + l);
		}
		ng_st_contig(&w, a->cost + i0, 4, c);
		ng_st_contig(&w, a->mask + i0, 1, f);
		ng_st_contig(&w, a->updating + i0, 1, bf_false);
		ng_st_contig(&w, a->visited + i0, 1, f);
	}
}

/*
 * Rodinia's Kernel, phase by phase over the block's warps, as its warps
 * overlap on a GPU: every warp loads its mask, then each waits for it
 * before its frontier lanes load their node. Edge k of every frontier
 * lane that has one, in lockstep: every warp loads the edge's target,
 * then each waits for it before it can address the target's visited
 * flag, then each waits for the flag before the lanes whose target is
 * unvisited load cost[tid], then each waits for it before it stores the
 * target's cost and updating flag. The loads of a phase are all issued
 * before the first wait, so that the block pays one latency a phase, not
 * one a warp.
 */
static void bf_kernel(struct ng_block *b, void *p)
{
	const struct bf_args *a = p;
	struct rf_node nd[BF_WARPS][NG_WARP];
	int32_t cost[BF_WARPS][NG_WARP], id[BF_WARPS][NG_WARP];
	int32_t most[BF_WARPS], all;
	bool fl[BF_WARPS][NG_WARP], yes[NG_WARP];
	uintptr_t addr[BF_WARPS][NG_WARP];
	struct ng_warp w[BF_WARPS], t[BF_WARPS], s[BF_WARPS];
	uint64_t i0[BF_WARPS];
	unsigned int nw;

	for (unsigned int l = 0; l < NG_WARP; l++)
		yes[l] = true;
	nw = rf_load_flags(b, a->n, BF_BLOCK, a->mask, BF_INSTS, w, i0, fl);
	for (unsigned int wi = 0; wi < nw; wi++)
		rf_frontier(&w[wi], fl[wi], BF_FRONT_INSTS, a->mask, a->nodes,
			    i0[wi], addr[wi], nd[wi]);
	all = rf_most_edges(nw, w, nd, most);
	for (int32_t k = 0; k < all; k++) {
		for (unsigned int wi = 0; wi < nw; wi++) {
			if (k >= most[wi])
				continue;
			rf_load_edge(&t[wi], &w[wi], nd[wi], k, a->edges,
				     BF_EDGE_INSTS, addr[wi], id[wi]);
		}
		for (unsigned int wi = 0; wi < nw; wi++) {
			if (k >= most[wi])
				continue;
			ng_warp_wait(&t[wi]);
			for (uint32_t m = t[wi].active; m; m &= m - 1) {
				unsigned int l = (unsigned int)__builtin_ctz(m);

				addr[wi][l] = (uintptr_t)(a->visited + id[wi][l]);
			}
			ng_ld(&t[wi], addr[wi], 1, fl[wi]);
		}
		for (unsigned int wi = 0; wi < nw; wi++) {
			if (k >= most[wi])
				continue;
			ng_warp_wait(&t[wi]);
			s[wi] = t[wi];
			s[wi].active = 0;
			for (uint32_t m = t[wi].active; m; m &= m - 1) {
				unsigned int l = (unsigned int)__builtin_ctz(m);

				if (!fl[wi][l])
					s[wi].active |= 1u << l;
			}
			if (!s[wi].active)
				continue;
			/*
			 * Rodinia's loop loads cost[tid] again for every
			 * unvisited target (it may alias the store to cost[id]);
			 * an L1, where the preset has one, serves the reloads
			 */
			ng_warp_compute(&s[wi], BF_VISIT_INSTS);
			rf_at(&s[wi], a->cost, i0[wi], 4, addr[wi]);
			ng_ld(&s[wi], addr[wi], 4, cost[wi]);
		}
		for (unsigned int wi = 0; wi < nw; wi++) {
			int32_t next[NG_WARP];

			if (k >= most[wi] || !s[wi].active)
				continue;
			ng_warp_wait(&s[wi]);
			for (uint32_t m = s[wi].active; m; m &= m - 1) {
				unsigned int l = (unsigned int)__builtin_ctz(m);

				next[l] = cost[wi][l] + 1;
				addr[wi][l] = (uintptr_t)(a->cost + id[wi][l]);
			}
			/* nothing waits for these stores: the kernel's end does */
			ng_st(&s[wi], addr[wi], 4, next);
			for (uint32_t m = s[wi].active; m; m &= m - 1) {
				unsigned int l = (unsigned int)__builtin_ctz(m);

				addr[wi][l] = (uintptr_t)(a->updating + id[wi][l]);
			}
			ng_st(&s[wi], addr[wi], 1, yes);
		}
	}
}

/*
 * Rodinia's Kernel2: every warp loads its updating flags, then each waits
 * for them before the lanes that are set store their four flags.
 */
static void bf_kernel2(struct ng_block *b, void *p)
{
	const struct bf_args *a = p;
	bool up[BF_WARPS][NG_WARP];
	uintptr_t addr[NG_WARP];
	struct ng_warp w[BF_WARPS];
	uint64_t i0[BF_WARPS];
	unsigned int nw;

	nw = rf_load_flags(b, a->n, BF_BLOCK, a->updating, BF2_INSTS, w, i0, up);
	for (unsigned int wi = 0; wi < nw; wi++) {
		struct ng_warp s = w[wi];

		ng_warp_wait(&w[wi]);
		s.active = rf_flagged(&w[wi], up[wi]);
		if (!s.active)
			continue;
		ng_warp_compute(&s, BF2_FOUND_INSTS);
		rf_store_flag(&s, a->mask, i0[wi], true, addr);
		rf_store_flag(&s, a->visited, i0[wi], true, addr);
		rf_set_over(&s, a->over, addr);
		rf_store_flag(&s, a->updating, i0[wi], false, addr);
	}
}

/*
 * A buffer of @n elements of @elem bytes; @node < 0: the configured
 * placement, else every page on that GPU. CODA's hint is what a block
 * of BF_BLOCK threads touches of it.
 */
static int bf_alloc(struct wlc *c, struct ng_buf *b, uint64_t n,
		    unsigned int elem, int node)
{
	struct ng_alloc_opts ao = {
		.place = node < 0 ? c->cfg->placement : NG_PLACE_NODE,
		.node = node < 0 ? c->cfg->place_node : (unsigned int)node,
		.block_bytes = (uint64_t)BF_BLOCK * elem,
		.blocks_per_gpu = (uint64_t)c->cfg->sms * c->cfg->blocks_per_sm,
	};

	return ng_malloc(c->sp, b, n * elem, &ao, c->err, c->errlen);
}

/*
 * The CPU BFS from vertex 0: costs in @ref (-1: unreached), the largest
 * in *@depth, the reached vertices' edges in *@edges; the vertices
 * reached, or -ENOMEM.
 */
static int64_t bf_cpu(const struct bf_args *a, int32_t *ref, int32_t *depth,
		      uint64_t *edges)
{
	uint32_t *q = malloc(a->n * 4);
	uint64_t head = 0, tail = 0;

	if (!q)
		return -ENOMEM;
	for (uint64_t v = 0; v < a->n; v++)
		ref[v] = -1;
	ref[0] = 0;
	q[tail++] = 0;
	*edges = 0;
	while (head < tail) {
		uint32_t v = q[head++];

		*edges += bf_deg(a, v);
		for (unsigned int k = 0; k < bf_deg(a, v); k++) {
			uint32_t u = bf_edge(a, v, k);

			if (ref[u] < 0) {
				ref[u] = ref[v] + 1;
				q[tail++] = u;
			}
		}
	}
	*depth = ref[q[tail - 1]];
	free(q);
	return (int64_t)tail;
}

/*
 * bfs on its uniform graph (@road false) or bfs-road on the road graph
 * of as many vertices (@name: the workload's, for messages).
 */
static int bf_run_on(struct ng_system *sys, const struct ng_bench_opts *o,
		     struct ng_bench_result *r, char *err, size_t errlen,
		     const char *name, bool road)
{
	struct ng_buf bn = { 0 }, bm = { 0 }, bu = { 0 }, bv = { 0 };
	struct ng_buf be = { 0 }, bc = { 0 }, bo = { 0 };
	struct bf_args a = { 0 };
	struct wl_graph g = { 0 };
	uint64_t nblocks, levels = 0, edges, nedges;
	int32_t *ref = NULL, depth;
	bool unfinished = false;
	int64_t reached;
	struct wlc c;
	int ret;

	wlc_init(&c, sys, o, r, err, errlen);
	a.n = o->size / 4;
	a.seed = c.cfg->seed;
	if (a.n < NG_WARP) {
		ng_seterr(err, errlen, "%s: size must hold %u vertices", name,
			  NG_WARP);
		return -EINVAL;
	}
	/* Rodinia's Node and edges are ints */
	if (!road && a.n > INT32_MAX / BF_D) {
		ng_seterr(err, errlen,
			  "bfs: size must hold at most %d vertices: Rodinia numbers their %d edges each with ints",
			  INT32_MAX / BF_D, BF_D);
		return -EINVAL;
	}
	if (road && a.n > 1ULL << 26) {
		ng_seterr(err, errlen,
			  "%s: size must hold at most 2^26 vertices (256 MiB of costs)",
			  name);
		return -EINVAL;
	}
	if (road) {
		ret = wl_graph_make(&g, WL_GRAPH_ROAD, a.n, a.seed, 0);
		if (ret) {
			ng_seterr(err, errlen, "%s: out of memory", name);
			return ret;
		}
		a.row = g.row;
		a.col = g.col;
	}
	nedges = road ? g.m : a.n * BF_D;
	ref = malloc(a.n * 4);
	reached = ref ? bf_cpu(&a, ref, &depth, &edges) : -ENOMEM;
	if (reached < 0) {
		ng_seterr(err, errlen, "%s: out of memory", name);
		ret = -ENOMEM;
		goto out;
	}
	nblocks = (a.n + BF_BLOCK - 1) / BF_BLOCK;
	/* in the order of Rodinia's cudaMallocs */
	ret = bf_alloc(&c, &bn, a.n, sizeof(struct rf_node), -1);
	if (!ret)
		ret = bf_alloc(&c, &bm, a.n, 1, -1);
	if (!ret)
		ret = bf_alloc(&c, &bu, a.n, 1, -1);
	if (!ret)
		ret = bf_alloc(&c, &bv, a.n, 1, -1);
	if (!ret)
		ret = bf_alloc(&c, &be, nedges ? nedges : 1, 4, -1);
	if (!ret)
		ret = bf_alloc(&c, &bc, a.n, 4, -1);
	if (!ret)
		ret = bf_alloc(&c, &bo, 1, 1, 0);
	if (ret)
		goto out;
	a.nodes = bn.ptr;
	a.mask = bm.ptr;
	a.updating = bu.ptr;
	a.visited = bv.ptr;
	a.edges = be.ptr;
	a.cost = bc.ptr;
	a.over = bo.ptr;
	r->elements = a.n;
	c.total = 0;
	ret = wlc_launch(&c, "bfs-init", road ? bf_init_csr : bf_init, &a, nblocks,
			 BF_BLOCK, -1, false);
	if (!ret)
		ret = wlc_launch(&c, "bfs-reset", bf_reset, &a, nblocks, BF_BLOCK,
				 -1, false);
	if (ret)
		goto out;
	ng_system_reset_counters(sys);
	for (unsigned int it = 0; it < o->iters; it++) {
		if (it) {
			ret = wlc_launch(&c, "bfs-reset", bf_reset, &a, nblocks,
					 BF_BLOCK, -1, true);
			if (ret)
				goto out;
		}
		/*
		 * A correct search ends with level depth, which finds nothing.
		 * Stale flags can keep a frontier alive for ever (Rodinia's
		 * loop would not end): the host stops it there.
		 */
		for (int32_t lv = 0; lv <= depth; lv++) {
			/* Rodinia's cudaMemcpy of over, outside the model */
			*a.over = false;
			ret = wlc_launch(&c, "bfs-kernel", bf_kernel, &a, nblocks,
					 BF_BLOCK, -1, true);
			if (!ret)
				ret = wlc_launch(&c, "bfs-kernel2", bf_kernel2,
						 &a, nblocks, BF_BLOCK, -1, true);
			if (ret)
				goto out;
			levels++;
			if (!*a.over)
				break;
		}
		unfinished |= *a.over;
	}
	wl_collect(sys, r);
	r->iters = o->iters;
	r->bytes = levels * a.n * BF_LEVEL_BYTES +
		   o->iters * ((uint64_t)reached * BF_REACH_BYTES +
			       edges * BF_EDGE_BYTES);
	/* --corrupt-one: one vertex a level off */
	if (o->corrupt)
		a.cost[a.n / 2] += 1;
	r->verified = true;
	snprintf(r->verify, sizeof(r->verify),
		 "costs of all %llu vertices match the CPU BFS (%llu levels of 2 kernels)",
		 (unsigned long long)a.n, (unsigned long long)levels);
	for (uint64_t v = 0; v < a.n; v++)
		if (a.cost[v] != ref[v]) {
			r->verified = false;
			snprintf(r->verify, sizeof(r->verify),
				 "cost[%llu] = %d, the CPU reference says %d",
				 (unsigned long long)v, (int)a.cost[v],
				 (int)ref[v]);
			break;
		}
	if (r->verified && unfinished) {
		r->verified = false;
		snprintf(r->verify, sizeof(r->verify),
			 "over = true after level %d, the CPU reference says the search ends there",
			 (int)depth);
	}
out:
	free(ref);
	wl_graph_free(&g);
	ng_free(c.sp, &bo);
	ng_free(c.sp, &bc);
	ng_free(c.sp, &be);
	ng_free(c.sp, &bv);
	ng_free(c.sp, &bu);
	ng_free(c.sp, &bm);
	ng_free(c.sp, &bn);
	return ret;
}

static int bf_run(struct ng_system *sys, const struct ng_bench_opts *o,
		  struct ng_bench_result *r, char *err, size_t errlen)
{
	return bf_run_on(sys, o, r, err, errlen, "bfs", false);
}

static int bf_run_road(struct ng_system *sys, const struct ng_bench_opts *o,
		       struct ng_bench_result *r, char *err, size_t errlen)
{
	return bf_run_on(sys, o, r, err, errlen, "bfs-road", true);
}

const struct ng_workload ng_wl_bfs = {
	.name = "bfs",
	.desc = "Rodinia's BFS (frontier and visited flags, two kernels a level) on a random graph: irregular read-write sharing",
	.input = "uniform: 8 random out-edges a vertex (CODA's real graphs are not modeled)",
	.default_size = 1ULL << 20,
	.default_iters = 2,
	/* size x 11.75: nodes 2, edges 8, cost 1, three flag arrays 0.75 */
	.narrays = 12,
	.run = bf_run,
};

const struct ng_workload ng_wl_bfs_road = {
	.name = "bfs-road",
	.desc = "Rodinia's BFS (bfs's kernels) on a road network: hundreds of levels of small frontiers",
	.input = "road: a planar road map, ids by 32 x 32 tiles, standing in for CARVE's bfs-road-usa (DIMACS USA road network)",
	.default_size = 1ULL << 20,
	.paper_footprint = 590ULL << 20,
	.paper_ref = "CARVE Table II: bfs-road-usa 590 MB",
	.default_iters = 1,
	/* size x 6.45: nodes 2, edges 2.7, cost 1, three flag arrays 0.75 */
	.narrays = 7,
	.run = bf_run_road,
};
