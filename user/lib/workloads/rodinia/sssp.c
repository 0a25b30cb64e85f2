// SPDX-License-Identifier: GPL-2.0
/*
 * sssp: single-source shortest paths from vertex 0, ScaleGPU's Shortest
 * Path ("based on bfs from Rodinia": frontier-driven, touching a small
 * part of the graph at a time) and CODA's SSSP. Rodinia has no SSSP. Its
 * bfs (cuda/bfs) is Harish and Narayanan's BFS ("Accelerating Large Graph
 * Algorithms on the GPU using CUDA", HiPC'07), and the same IIIT
 * Hyderabad code has the weighted sibling this file follows
 * (DijkastraKernel.cu and DijkastraKernel2.cu; read in the copy in
 * kf4ayt/An-Evaluation-of-GPU-Implementations-for-SSSP-and-APSP). It
 * distributes the work as Rodinia's bfs does: CSR, a thread per vertex,
 * a frontier mask, two kernels a level, and a flag the host loops on.
 * The weights and the atomic minimum (Harish's, not Rodinia's) are the
 * adaptation to shortest paths; a cost and an updating cost per vertex
 * take the place of bfs's cost and its visited and updating flags:
 *
 *   Kernel   a frontier vertex (mask) clears its mask and, for each
 *            out-edge, does atomicMin(&ucost[id], cost[tid] + weight)
 *            (bfs: tests visited[id], stores cost[id] and updating[id]);
 *   Kernel2  a vertex whose ucost is below its cost takes it, joins the
 *            next frontier and sets the host's flag `over`; every vertex
 *            then copies cost into ucost (bfs: only a vertex whose
 *            updating flag is set does anything).
 *
 * Why not one distance array, atomicMin on it and an updating flag where
 * the minimum lowered it: a thread would read its vertex's distance before
 * or after another GPU's atomic lowered it, as the host's threads happen
 * to run, and the levels and requests of a run would follow. Here Kernel
 * reads only cost[], which only Kernel2 writes, and nothing uses an
 * atomic's old value: as with bfs, a threaded run makes the --deterministic
 * one's requests, and the distances are the same in any order. (Tried:
 * the one-array form's threaded runs on CODA's 4 GPUs had frontiers and
 * modeled times that changed from run to run.)
 *
 * A thread's loads depend on each other: its mask, then its node (the
 * row's start and length) and cost, then its edges' targets and weights,
 * then the atomics at the targets' homes, which nobody waits for (an
 * atomicMin whose value is unused: a reduction). As in Harish's loop the
 * thread reloads cost[tid] with every edge: the atomic may alias it. The
 * rows are the block's own (block-exclusive); the atomics go anywhere.
 *
 * Where ngemu differs: the graph is wl_graph_make()'s uniform kind
 * (1 to 15 out-edges a vertex, 8 on average as bfs.c's 8 each, to random
 * vertices) with weights 1-16 from the seed (Harish's are short ints; his
 * and Rodinia's read files, and Rodinia's bfs files carry a cost per edge
 * that bfs.cu reads and drops). The nodes are Rodinia bfs's Node
 * {starting, no_of_edges}. Untimed kernels write the graph and the costs,
 * so that first touch homes each block's nodes, rows, flags and costs
 * with it. The costs are unsigned, unreached SP_INF (Harish: signed,
 * MAX_COST), and ucost starts equal to cost (Harish: MAX_COST, equal
 * after the first Kernel2). `over` is on GPU 0, where the host's copies
 * would go; the host clears it before each level outside the model. The host
 * stops after the level a correct search ends with (one past the most
 * edges on a vertex's shortest path, from the CPU reference): without
 * coherence a stale copy could keep costs changing, and a search still
 * changing then fails the verification. Blocks have 512 threads, Rodinia's
 * and Harish's MAX_THREADS_PER_BLOCK (ngemu's bfs keeps 256): a block
 * then owns a page of nodes, and 256 made CODA's run 8% slower (its SMs
 * hold as many threads either way) and ScaleGPU's 0.6%.
 *
 * --size is the bytes of cost[]: size / 4 vertices. The search runs
 * `iters` times (each but the first after a timed reset kernel); the
 * distances are verified against a CPU Dijkstra from vertex 0 over the
 * same edges, vertex by vertex (unreached vertices SP_INF).
 */
#include <stdlib.h>

#include "workloads/inputs/graph.h"
#include "workloads/rodinia/frontier.h"

#define SP_BLOCK	512
#define SP_WARPS	(SP_BLOCK / NG_WARP)
#define SP_INF		UINT32_MAX
/*
 * Warp instructions, per thread, besides the memory operations (their
 * calls count those). Kernel: the thread's index, the bound, the mask's
 * address and test (4); a frontier thread: the mask's store, the node's
 * address, the loop's end, cost[tid]'s address (4); per edge, for as
 * many edges as the warp's longest frontier row has (its lanes diverge):
 * the loop's step and test, the edge's and the weight's addresses, the
 * sum, the target's ucost address (6). Kernel2: the index, the bound,
 * the two costs' addresses, the compare (5); a vertex that improved: the
 * mask's and the flag's addresses (2).
 */
#define SP_INSTS	4
#define SP_FRONT_INSTS	4
#define SP_EDGE_INSTS	6
#define SP2_INSTS	5
#define SP2_FOUND_INSTS	2
/*
 * Logical bytes: every level reads mask[] (Kernel) and both costs, and
 * writes ucost[] (Kernel2); a frontier vertex reads its node and cost and
 * clears its mask, and per edge reads the target, the weight and
 * cost[tid] and does the atomic; an improved vertex writes its cost and
 * mask.
 */
#define SP_LEVEL_BYTES	(1 + 3 * 4)
#define SP_FRONT_BYTES	(8 + 4 + 1)
#define SP_EDGE_BYTES	(4 + 2 + 4 + 4)
#define SP_FOUND_BYTES	(4 + 1)

struct sp_args {
	struct rf_node *nodes;
	uint32_t *edges, *cost, *ucost;
	uint16_t *weights;
	bool *mask, *over;
	uint64_t n;
	/* the untimed init kernel's source: the host's graph and weights */
	const struct wl_graph *g;
	const uint16_t *hw;
};

/* Untimed: block b writes its vertices' nodes and their rows' edges. */
static void sp_init(struct ng_block *b, void *p)
{
	const struct sp_args *a = p;
	const struct wl_graph *g = a->g;
	uint64_t v0 = b->id * SP_BLOCK, v1 = v0 + SP_BLOCK;
	struct ng_warp w;

	if (v1 > a->n)
		v1 = a->n;
	for (unsigned int wi = 0; wi < b->nwarps; wi++) {
		struct rf_node nd[NG_WARP];
		uint64_t i0;

		ng_warp_get(b, wi, &w);
		if (!wlc_lanes(&w, a->n, SP_BLOCK, &i0))
			break;
		for (unsigned int l = 0; l < w.nlanes; l++) {
			const uint32_t *row = g->row + i0 + l;

			/* Rodinia's ints: 2^27 vertices of 15 edges at most */
			nd[l] = (struct rf_node){ (int32_t)row[0],
						  (int32_t)(row[1] - row[0]) };
		}
		ng_st_contig(&w, a->nodes + i0, sizeof(nd[0]), nd);
	}
	/* the rows are contiguous: 32 edges and weights a store */
	ng_warp_get(b, 0, &w);
	for (uint64_t e = g->row[v0], end = g->row[v1]; e < end; e += NG_WARP) {
		struct ng_warp t = w;

		t.nlanes = end - e < NG_WARP ? (unsigned int)(end - e) : NG_WARP;
		t.active = t.nlanes == NG_WARP ? ~0u : (1u << t.nlanes) - 1;
		ng_st_contig(&t, a->edges + e, 4, g->col + e);
		ng_st_contig(&t, a->weights + e, 2, a->hw + e);
	}
}

/* The host's initialization: vertex 0 alone reached and in the frontier. */
static void sp_reset(struct ng_block *b, void *p)
{
	const struct sp_args *a = p;

	for (unsigned int wi = 0; wi < b->nwarps; wi++) {
		uint32_t c[NG_WARP];
		bool f[NG_WARP];
		struct ng_warp w;
		uint64_t i0;

		ng_warp_get(b, wi, &w);
		if (!wlc_lanes(&w, a->n, SP_BLOCK, &i0))
			break;
		for (unsigned int l = 0; l < w.nlanes; l++) {
			c[l] = i0 + l ? SP_INF : 0;
			f[l] = !(i0 + l);
		}
		ng_st_contig(&w, a->mask + i0, 1, f);
		ng_st_contig(&w, a->cost + i0, 4, c);
		ng_st_contig(&w, a->ucost + i0, 4, c);
	}
}

/*
 * Kernel, phase by phase over the block's warps, as its warps overlap on
 * a GPU: every warp loads its mask, then each waits for it before its
 * frontier lanes clear it and load their node and cost. Edge k of every
 * frontier lane that has one, in lockstep: every warp loads the edge's
 * target and weight (and cost[tid] again), then each waits for them
 * before its atomics can address the targets. The loads of a phase are
 * all issued before the first wait, so that the block pays one latency a
 * phase, not one a warp.
 */
static void sp_kernel(struct ng_block *b, void *p)
{
	const struct sp_args *a = p;
	struct rf_node nd[SP_WARPS][NG_WARP];
	uint32_t cost[SP_WARPS][NG_WARP], id[SP_WARPS][NG_WARP], val[NG_WARP];
	int32_t most[SP_WARPS], all;
	uint16_t wt[SP_WARPS][NG_WARP];
	bool fl[SP_WARPS][NG_WARP];
	uintptr_t addr[SP_WARPS][NG_WARP], caddr[SP_WARPS][NG_WARP];
	struct ng_warp w[SP_WARPS], t[SP_WARPS];
	uint64_t i0[SP_WARPS];
	unsigned int nw;

	nw = rf_load_flags(b, a->n, SP_BLOCK, a->mask, SP_INSTS, w, i0, fl);
	for (unsigned int wi = 0; wi < nw; wi++) {
		if (!rf_frontier(&w[wi], fl[wi], SP_FRONT_INSTS, a->mask,
				 a->nodes, i0[wi], addr[wi], nd[wi]))
			continue;
		rf_at(&w[wi], a->cost, i0[wi], 4, caddr[wi]);
		ng_ld(&w[wi], caddr[wi], 4, cost[wi]);
	}
	all = rf_most_edges(nw, w, nd, most);
	for (int32_t k = 0; k < all; k++) {
		for (unsigned int wi = 0; wi < nw; wi++) {
			if (k >= most[wi])
				continue;
			rf_load_edge(&t[wi], &w[wi], nd[wi], k, a->edges,
				     SP_EDGE_INSTS, addr[wi], id[wi]);
			rf_row_at(&t[wi], nd[wi], k, a->weights, 2, addr[wi]);
			ng_ld(&t[wi], addr[wi], 2, wt[wi]);
			ng_ld(&t[wi], caddr[wi], 4, cost[wi]);
		}
		for (unsigned int wi = 0; wi < nw; wi++) {
			struct ng_warp s;

			if (k >= most[wi])
				continue;
			ng_warp_wait(&t[wi]);
			for (uint32_t m = t[wi].active; m; m &= m - 1) {
				unsigned int l = (unsigned int)__builtin_ctz(m);

				addr[wi][l] = (uintptr_t)(a->ucost + id[wi][l]);
				/* a frontier vertex's cost is finite */
				val[l] = cost[wi][l] + wt[wi][l];
			}
			/* nothing waits for an atomic whose old value is unused */
			s = t[wi];
			ng_atomic_u32(&s, NG_ATOMIC_MIN, addr[wi], val, NULL, NULL);
		}
	}
}

/*
 * Kernel2: every warp loads its vertices' costs and updating costs, then
 * each waits for them before the lanes that improved store their cost,
 * mask and the flag, and every lane its ucost.
 */
static void sp_kernel2(struct ng_block *b, void *p)
{
	const struct sp_args *a = p;
	uint32_t cost[SP_WARPS][NG_WARP], uc[SP_WARPS][NG_WARP];
	uintptr_t addr[NG_WARP];
	struct ng_warp w[SP_WARPS];
	uint64_t i0[SP_WARPS];
	unsigned int nw = 0;

	for (unsigned int wi = 0; wi < b->nwarps && wi < SP_WARPS; wi++) {
		ng_warp_get(b, wi, &w[wi]);
		if (!wlc_lanes(&w[wi], a->n, SP_BLOCK, &i0[wi]))
			break;
		ng_warp_compute(&w[wi], SP2_INSTS);
		ng_ld_contig(&w[wi], a->cost + i0[wi], 4, cost[wi]);
		ng_ld_contig(&w[wi], a->ucost + i0[wi], 4, uc[wi]);
		nw = wi + 1;
	}
	for (unsigned int wi = 0; wi < nw; wi++) {
		struct ng_warp s = w[wi];

		ng_warp_wait(&w[wi]);
		s.active = 0;
		for (unsigned int l = 0; l < w[wi].nlanes; l++)
			if (uc[wi][l] < cost[wi][l]) {
				cost[wi][l] = uc[wi][l];
				s.active |= 1u << l;
			}
		if (s.active) {
			ng_warp_compute(&s, SP2_FOUND_INSTS);
			rf_at(&s, a->cost, i0[wi], 4, addr);
			ng_st(&s, addr, 4, cost[wi]);
			rf_store_flag(&s, a->mask, i0[wi], true, addr);
			rf_set_over(&s, a->over, addr);
		}
		/* Harish's Kernel2 stores every vertex's, changed or not */
		ng_st_contig(&w[wi], a->ucost + i0[wi], 4, cost[wi]);
	}
}

/*
 * @bytes with the configured placement (@node < 0) or on GPU @node;
 * CODA's hint is a block's share of them.
 */
static int sp_alloc(struct wlc *c, struct ng_buf *b, uint64_t bytes,
		    uint64_t nblocks, int node)
{
	struct ng_alloc_opts ao = {
		.place = node < 0 ? c->cfg->placement : NG_PLACE_NODE,
		.node = node < 0 ? c->cfg->place_node : (unsigned int)node,
		.block_bytes = (bytes + nblocks - 1) / nblocks,
		.blocks_per_gpu = (uint64_t)c->cfg->sms * c->cfg->blocks_per_sm,
	};

	return ng_malloc(c->sp, b, bytes, &ao, c->err, c->errlen);
}

/*
 * The CPU reference: Dijkstra from vertex 0 over @g with weights @w, into
 * @dist (SP_INF: unreached). *@depth gets the most edges any vertex's
 * fewest-edge shortest path has: a search by levels finds the last
 * distance at that level and nothing after it. 0 or -ENOMEM.
 */
static int sp_dijkstra(const struct wl_graph *g, const uint16_t *w,
		       uint32_t *dist, uint32_t *depth)
{
	uint64_t *hk = malloc((g->m + 1) * 8), nh = 0;
	uint32_t *hops = malloc(g->n * 4);

	if (!hk || !hops) {
		free(hk);
		free(hops);
		return -ENOMEM;
	}
	for (uint64_t v = 0; v < g->n; v++)
		dist[v] = SP_INF;
	dist[0] = 0;
	hops[0] = 0;
	*depth = 0;
	/* a binary heap of (distance << 32 | vertex), stale entries skipped */
	hk[nh++] = 0;
	while (nh) {
		uint64_t top = hk[0], x = hk[--nh], i = 0, c;
		uint32_t v = (uint32_t)top, dv = (uint32_t)(top >> 32);

		/* pop: the last entry sifts down from the root */
		while ((c = 2 * i + 1) < nh) {
			if (c + 1 < nh && hk[c + 1] < hk[c])
				c++;
			if (x <= hk[c])
				break;
			hk[i] = hk[c];
			i = c;
		}
		if (nh)
			hk[i] = x;
		if (dv != dist[v])
			continue;	/* a stale entry */
		/* weights >= 1: every vertex before v on its paths is final */
		if (hops[v] > *depth)
			*depth = hops[v];
		for (uint32_t e = g->row[v]; e < g->row[v + 1]; e++) {
			uint32_t u = g->col[e], nd = dv + w[e];
			uint64_t key = (uint64_t)nd << 32 | u;

			if (nd == dist[u] && hops[v] + 1 < hops[u])
				hops[u] = hops[v] + 1;
			if (nd >= dist[u])
				continue;
			dist[u] = nd;
			hops[u] = hops[v] + 1;
			/* push: sift up */
			for (i = nh++; i && hk[(i - 1) / 2] > key; i = (i - 1) / 2)
				hk[i] = hk[(i - 1) / 2];
			hk[i] = key;
		}
	}
	free(hk);
	free(hops);
	return 0;
}

/* The frontier's logical bytes, counted by the host before a Kernel. */
static uint64_t sp_frontier_bytes(const struct sp_args *a, uint64_t *front)
{
	uint64_t bytes = 0;

	*front = 0;
	for (uint64_t v = 0; v < a->n; v++)
		if (a->mask[v]) {
			(*front)++;
			bytes += SP_FRONT_BYTES +
				 (uint64_t)a->nodes[v].no_of_edges * SP_EDGE_BYTES;
		}
	return bytes;
}

static int sp_run(struct ng_system *sys, const struct ng_bench_opts *o,
		  struct ng_bench_result *r, char *err, size_t errlen)
{
	struct ng_buf bn = { 0 }, be = { 0 }, bw = { 0 }, bm = { 0 };
	struct ng_buf bc = { 0 }, bu = { 0 }, bo = { 0 };
	struct wl_graph g = { 0 };
	struct sp_args a = { 0 };
	uint64_t nblocks, levels = 0, most = 0, bytes = 0;
	uint32_t *want = NULL, depth = 0;
	uint16_t *hw = NULL;
	bool unfinished = false;
	struct wlc c;
	char ok[160];
	int ret;

	wlc_init(&c, sys, o, r, err, errlen);
	a.n = o->size / 4;
	if (a.n < NG_WARP) {
		ng_seterr(err, errlen, "sssp: size must hold %u vertices (%u bytes) at least",
			  NG_WARP, NG_WARP * 4);
		return -EINVAL;
	}
	ret = wl_graph_make(&g, WL_GRAPH_UNIFORM, a.n, c.cfg->seed, 0);
	if (ret == -EINVAL) {
		ng_seterr(err, errlen, "sssp: %llu vertices: the graph inputs make at most 2^27",
			  (unsigned long long)a.n);
		return ret;
	}
	hw = ret ? NULL : malloc(g.m * 2 + 2);
	want = ret ? NULL : malloc(a.n * 4);
	for (uint64_t e = 0; hw && e < g.m; e++)
		hw[e] = (uint16_t)(wlc_hash(c.cfg->seed * 0x7373 + e) >> 60) + 1;
	if (!hw || !want || sp_dijkstra(&g, hw, want, &depth)) {
		ng_seterr(err, errlen, "sssp: out of memory");
		ret = -ENOMEM;
		goto out;
	}
	nblocks = (a.n + SP_BLOCK - 1) / SP_BLOCK;
	/* in the order of Harish's cudaMallocs */
	ret = sp_alloc(&c, &bn, a.n * sizeof(struct rf_node), nblocks, -1);
	if (!ret)
		ret = sp_alloc(&c, &be, g.m * 4, nblocks, -1);
	if (!ret)
		ret = sp_alloc(&c, &bw, g.m * 2, nblocks, -1);
	if (!ret)
		ret = sp_alloc(&c, &bm, a.n, nblocks, -1);
	if (!ret)
		ret = sp_alloc(&c, &bc, a.n * 4, nblocks, -1);
	if (!ret)
		ret = sp_alloc(&c, &bu, a.n * 4, nblocks, -1);
	if (!ret)
		ret = sp_alloc(&c, &bo, 1, 1, 0);
	if (ret)
		goto out;
	a.nodes = bn.ptr;
	a.edges = be.ptr;
	a.weights = bw.ptr;
	a.mask = bm.ptr;
	a.cost = bc.ptr;
	a.ucost = bu.ptr;
	a.over = bo.ptr;
	a.g = &g;
	a.hw = hw;
	r->elements = a.n;
	ret = wlc_launch(&c, "sssp-init", sp_init, &a, nblocks, SP_BLOCK, -1,
			 false);
	if (!ret)
		ret = wlc_launch(&c, "sssp-reset", sp_reset, &a, nblocks,
				 SP_BLOCK, -1, false);
	if (ret)
		goto out;
	ng_system_reset_counters(sys);
	for (unsigned int it = 0; it < o->iters; it++) {
		if (it) {
			ret = wlc_launch(&c, "sssp-reset", sp_reset, &a, nblocks,
					 SP_BLOCK, -1, true);
			if (ret)
				goto out;
		}
		/* a correct search's last level, depth, finds nothing */
		for (uint32_t lv = 0; lv <= depth; lv++) {
			uint64_t front;

			/* outside the model, as Rodinia's host copies */
			bytes += sp_frontier_bytes(&a, &front) +
				 a.n * SP_LEVEL_BYTES;
			if (lv)
				bytes += front * SP_FOUND_BYTES;
			if (front > most)
				most = front;
			*a.over = false;
			ret = wlc_launch(&c, "sssp-kernel", sp_kernel, &a,
					 nblocks, SP_BLOCK, -1, true);
			if (!ret)
				ret = wlc_launch(&c, "sssp-kernel2", sp_kernel2,
						 &a, nblocks, SP_BLOCK, -1, true);
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
	r->bytes = bytes;
	snprintf(ok, sizeof(ok),
		 "distances of all %llu vertices match the CPU Dijkstra (%llu levels of 2 kernels, frontiers up to %llu vertices)",
		 (unsigned long long)a.n, (unsigned long long)levels,
		 (unsigned long long)most);
	wl_corrupt_u32(o, a.cost, a.n);
	if (wl_check_u32(r, "distance", a.cost, want, a.n, 0, ok) && unfinished) {
		r->verified = false;
		snprintf(r->verify, sizeof(r->verify),
			 "over = true after level %u, the CPU reference says the search ends there",
			 depth);
	}
out:
	free(want);
	free(hw);
	wl_graph_free(&g);
	ng_free(c.sp, &bo);
	ng_free(c.sp, &bu);
	ng_free(c.sp, &bc);
	ng_free(c.sp, &bm);
	ng_free(c.sp, &bw);
	ng_free(c.sp, &be);
	ng_free(c.sp, &bn);
	return ret;
}

const struct ng_workload ng_wl_sssp = {
	.name = "sssp",
	.desc = "single-source shortest paths (Rodinia bfs's frontier and two kernels, atomicMin relaxations) on a uniform random graph, weights 1-16",
	.input = "uniform: 1-15 random out-edges a vertex, weights 1-16 (the papers' graphs are not modeled)",
	.default_size = 256ULL << 10,	/* 64 Ki vertices, ~512 Ki edges */
	.paper_footprint = 41ULL << 20,
	.paper_ref = "ScaleGPU Table 2: Shortest Path 41 MB",
	.default_iters = 1,
	/*
	 * size x 16.25: nodes 2, edges 8 and weights 4 (8 a vertex on
	 * average), mask 0.25, cost 1, ucost 1
	 */
	.narrays = 16,
	.run = sp_run,
};
