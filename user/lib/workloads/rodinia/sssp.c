// SPDX-License-Identifier: GPL-2.0
/*
 * sssp: single-source shortest paths, ScaleGPU's Shortest Path ("based on
 * bfs from Rodinia") and CODA's SSSP. The graph is bfs.c's kind (D = 8
 * random edges per vertex), here in ELL form (column-major) with integer
 * weights 1-16 and read as *incoming* edges, so that each thread owns a
 * vertex and only writes its own distance: every kernel relaxes each
 * vertex over its in-edges from the distances of the kernel before
 * (Bellman-Ford, pull; two distance arrays in turn), and the host runs
 * kernels until one changes nothing (it checks outside the model, as
 * Rodinia's host reads its flag). Rodinia's push form needs an atomic minimum, which
 * ngemu's kernels do not have; the pull form gives the same distances
 * without races, so a run does not depend on the host's timing.
 *
 * A thread reads its vertex's D neighbours and weights (its own block's
 * rows of the ELL arrays: block-exclusive) and D distances anywhere in
 * the graph (irregular, shared). Verified against a CPU Dijkstra from
 * vertex 0 over the same edges, vertex by vertex.
 */
#include <stdlib.h>

#include "workloads/wl.h"

#define SP_BLOCK	256
#define SP_D		8
#define SP_INF		0xffffffffu
#define SP_MAXITERS	4096
/* a vertex: its index and the loop (4); per edge: two addresses, the add,
 * the compare (5) */
#define SP_INSTS	4
#define SP_EDGE_INSTS	5
#define SP_WARPS	(SP_BLOCK / NG_WARP)

struct sp_args {
	uint32_t *dist[2], *adj, *wt;
	uint64_t n, seed;
	unsigned int cur;		/* dist[cur] in, dist[!cur] out */
};

/* In-edge @k of vertex @u: from *v, weight *w. */
static void sp_edge(const struct sp_args *a, uint64_t u, unsigned int k,
		    uint32_t *v, uint32_t *w)
{
	uint64_t h = wlc_hash(a->seed * 0x7373 + u * SP_D + k);

	*v = (uint32_t)((h & 0xffffffff) % a->n);
	*w = (uint32_t)(h >> 60) + 1;
}

static void sp_init(struct ng_block *b, void *p)
{
	const struct sp_args *a = p;

	for (unsigned int wi = 0; wi < b->nwarps; wi++) {
		uint32_t nb[NG_WARP], wt[NG_WARP], d[NG_WARP];
		struct ng_warp w;
		uint64_t i0;

		ng_warp_get(b, wi, &w);
		if (!wlc_lanes(&w, a->n, SP_BLOCK, &i0))
			break;
		for (unsigned int k = 0; k < SP_D; k++) {
			for (unsigned int l = 0; l < w.nlanes; l++)
				sp_edge(a, i0 + l, k, &nb[l], &wt[l]);
			ng_st_contig(&w, a->adj + k * a->n + i0, 4, nb);
			ng_st_contig(&w, a->wt + k * a->n + i0, 4, wt);
		}
		for (unsigned int l = 0; l < w.nlanes; l++)
			d[l] = i0 + l ? SP_INF : 0;
		ng_st_contig(&w, a->dist[0] + i0, 4, d);
		ng_st_contig(&w, a->dist[1] + i0, 4, d);
	}
}

/*
 * Phase by phase over the block's warps, as its warps overlap on a GPU:
 * in-edge k of every lane, in lockstep: every warp loads the neighbour and
 * the weight, then each waits for them before it can address the
 * neighbour's distance, then each waits for the distance before it
 * compares. The loads of a phase are all issued before the first wait, so
 * that the block pays one latency a phase, not one a warp.
 */
static void sp_kernel(struct ng_block *b, void *p)
{
	const struct sp_args *a = p;
	const uint32_t *in = a->dist[a->cur];
	uint32_t *out = a->dist[!a->cur];
	uint32_t best[SP_WARPS][NG_WARP], nb[SP_WARPS][NG_WARP];
	uint32_t wt[SP_WARPS][NG_WARP], d[SP_WARPS][NG_WARP];
	uintptr_t addr[SP_WARPS][NG_WARP];
	struct ng_warp w[SP_WARPS];
	uint64_t i0[SP_WARPS];
	unsigned int nw = 0;

	for (unsigned int wi = 0; wi < b->nwarps && wi < SP_WARPS; wi++) {
		ng_warp_get(b, wi, &w[wi]);
		if (!wlc_lanes(&w[wi], a->n, SP_BLOCK, &i0[wi]))
			break;
		ng_warp_compute(&w[wi], SP_INSTS + SP_EDGE_INSTS * SP_D);
		ng_ld_contig(&w[wi], in + i0[wi], 4, best[wi]);
		nw = wi + 1;
	}
	for (unsigned int k = 0; k < SP_D; k++) {
		for (unsigned int wi = 0; wi < nw; wi++) {
			ng_ld_contig(&w[wi], a->adj + k * a->n + i0[wi], 4, nb[wi]);
			ng_ld_contig(&w[wi], a->wt + k * a->n + i0[wi], 4, wt[wi]);
		}
		for (unsigned int wi = 0; wi < nw; wi++) {
			ng_warp_wait(&w[wi]);
			for (unsigned int l = 0; l < w[wi].nlanes; l++)
				addr[wi][l] = (uintptr_t)(in + nb[wi][l]);
			ng_ld(&w[wi], addr[wi], 4, d[wi]);
		}
		for (unsigned int wi = 0; wi < nw; wi++) {
			ng_warp_wait(&w[wi]);
			for (unsigned int l = 0; l < w[wi].nlanes; l++)
				if (d[wi][l] != SP_INF && d[wi][l] + wt[wi][l] < best[wi][l])
					best[wi][l] = d[wi][l] + wt[wi][l];
		}
	}
	for (unsigned int wi = 0; wi < nw; wi++)
		ng_st_contig(&w[wi], out + i0[wi], 4, best[wi]);
}

/* The CPU reference: Dijkstra from vertex 0 over the same edges. */
static int sp_dijkstra(const struct sp_args *a, uint32_t *dist)
{
	uint32_t *start = calloc(a->n + 1, 4), *to = malloc(a->n * SP_D * 4);
	uint32_t *w = malloc(a->n * SP_D * 4), *heap = malloc(a->n * SP_D * 8);
	uint64_t *hk = (uint64_t *)heap, nh = 0;
	int ret = -ENOMEM;

	if (!start || !to || !w || !heap)
		goto out;
	/* the in-edges (v -> u), turned into out-edge lists of v */
	for (uint64_t u = 0; u < a->n; u++)
		for (unsigned int k = 0; k < SP_D; k++) {
			uint32_t v, x;

			sp_edge(a, u, k, &v, &x);
			start[v + 1]++;
		}
	for (uint64_t v = 0; v < a->n; v++)
		start[v + 1] += start[v];
	for (uint64_t u = 0; u < a->n; u++)
		for (unsigned int k = 0; k < SP_D; k++) {
			uint32_t v, x;

			sp_edge(a, u, k, &v, &x);
			to[start[v]] = (uint32_t)u;
			w[start[v]++] = x;
		}
	for (uint64_t v = a->n; v; v--)
		start[v] = start[v - 1];
	start[0] = 0;
	for (uint64_t v = 0; v < a->n; v++)
		dist[v] = SP_INF;
	dist[0] = 0;
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
		for (uint32_t e = start[v]; e < start[v + 1]; e++) {
			uint32_t nd = dv + w[e];
			uint64_t key = (uint64_t)nd << 32 | to[e];

			if (nd >= dist[to[e]])
				continue;
			dist[to[e]] = nd;
			/* push: sift up */
			for (i = nh++; i && hk[(i - 1) / 2] > key; i = (i - 1) / 2)
				hk[i] = hk[(i - 1) / 2];
			hk[i] = key;
		}
	}
	ret = 0;
out:
	free(start);
	free(to);
	free(w);
	free(heap);
	return ret;
}

static int sp_run(struct ng_system *sys, const struct ng_bench_opts *o,
		  struct ng_bench_result *r, char *err, size_t errlen)
{
	struct ng_buf bd0 = { 0 }, bd1 = { 0 }, ba = { 0 }, bw = { 0 };
	struct sp_args a = { 0 };
	uint64_t nblocks, kernels = 0;
	uint32_t *want = NULL;
	struct wlc c;
	char ok[128];
	int ret;

	wlc_init(&c, sys, o, r, err, errlen);
	a.n = o->size / 4;
	if (a.n < NG_WARP) {
		ng_seterr(err, errlen, "sssp: size must hold %u vertices (%u bytes) at least",
			  NG_WARP, NG_WARP * 4);
		return -EINVAL;
	}
	a.seed = c.cfg->seed;
	nblocks = (a.n + SP_BLOCK - 1) / SP_BLOCK;
	ret = wlc_alloc(&c, &bd0, a.n * 4, -1);
	if (!ret)
		ret = wlc_alloc(&c, &bd1, a.n * 4, -1);
	if (!ret)
		ret = wlc_alloc(&c, &ba, a.n * 4 * SP_D, -1);
	if (!ret)
		ret = wlc_alloc(&c, &bw, a.n * 4 * SP_D, -1);
	if (ret)
		goto out;
	a.dist[0] = bd0.ptr;
	a.dist[1] = bd1.ptr;
	a.adj = ba.ptr;
	a.wt = bw.ptr;
	r->elements = a.n;
	ret = wlc_launch(&c, "sssp-init", sp_init, &a, nblocks, SP_BLOCK, -1,
			 false);
	if (ret)
		goto out;
	ng_system_reset_counters(sys);
	for (unsigned int it = 0; it < o->iters && !ret; it++) {
		if (it)
			ret = wlc_launch(&c, "sssp-init", sp_init, &a, nblocks,
					 SP_BLOCK, -1, true);
		for (a.cur = 0; !ret && kernels < (uint64_t)SP_MAXITERS * (it + 1);
		     a.cur = !a.cur) {
			bool changed = false;

			ret = wlc_launch(&c, "sssp", sp_kernel, &a, nblocks,
					 SP_BLOCK, -1, true);
			kernels++;
			/* the host's convergence check (outside the model) */
			for (uint64_t v = 0; v < a.n && !changed; v++)
				changed = a.dist[0][v] != a.dist[1][v];
			if (!changed)
				break;
		}
	}
	if (ret)
		goto out;
	wl_collect(sys, r);
	r->bytes = kernels * a.n * 4 * (2 + 3 * SP_D);
	want = malloc(a.n * 4);
	if (!want || sp_dijkstra(&a, want)) {
		ng_seterr(err, errlen, "sssp: out of memory");
		ret = -ENOMEM;
		goto out;
	}
	snprintf(ok, sizeof(ok),
		 "distances of all %llu vertices match the CPU Dijkstra (%llu kernels)",
		 (unsigned long long)a.n, (unsigned long long)kernels);
	wl_corrupt_u32(o, a.dist[!a.cur], a.n);
	wl_check_u32(r, "distance", a.dist[!a.cur], want, a.n, 0, ok);
out:
	free(want);
	ng_free(c.sp, &bw);
	ng_free(c.sp, &ba);
	ng_free(c.sp, &bd1);
	ng_free(c.sp, &bd0);
	return ret;
}

const struct ng_workload ng_wl_sssp = {
	.name = "sssp",
	.suites = NG_SUITE_SCALEGPU | NG_SUITE_CODA,
	.desc = "single-source shortest paths (Bellman-Ford, pull) on bfs's kind of graph, weights 1-16",
	.default_size = 256ULL << 10,	/* 64 Ki vertices */
	.paper_footprint = 41ULL << 20,
	.paper_ref = "ScaleGPU Table 2: Shortest Path 41 MB",
	.default_iters = 1,
	.narrays = 2 + 2 * SP_D,
	.run = sp_run,
};
