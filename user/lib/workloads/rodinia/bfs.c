// SPDX-License-Identifier: GPL-2.0
/*
 * bfs: level-synchronous breadth-first search over a random graph with D
 * out-edges per vertex (ELL adjacency, column-major), one kernel per
 * level. A thread owns a vertex: when its level is the current one it
 * reads its neighbours' levels (random, mostly remote reads of a shared
 * array) and sets the unvisited ones to the next level (remote writes).
 * The level array is read-write shared across kernels: a stale cached
 * level (no coherence) revisits a vertex and gives it a wrong level.
 * The search runs `iters` times from vertex 0; verified against a CPU BFS.
 */
#include <stdlib.h>

#include "workloads/wl.h"

#define BF_BLOCK	256
#define BF_D		8
#define BF_INF		0xffffffffu
#define BF_MAXLEVELS	256
/* A vertex: its index and the frontier test; then per edge the address,
 * the unvisited test and the new level. */
#define BF_INSTS	4
#define BF_EDGE_INSTS	4
#define BF_WARPS	(BF_BLOCK / NG_WARP)

struct bf_args {
	uint32_t *level, *adj;
	uint64_t n, seed;
	uint32_t cur;
};

static uint32_t bf_nb(const struct bf_args *a, uint64_t v, unsigned int k)
{
	return (uint32_t)(wlc_hash(a->seed * 977 + v * BF_D + k) % a->n);
}

static void bf_init(struct ng_block *b, void *p)
{
	struct bf_args *a = p;

	for (unsigned int wi = 0; wi < b->nwarps; wi++) {
		uint32_t v[NG_WARP];
		struct ng_warp w;
		uint64_t i0;

		ng_warp_get(b, wi, &w);
		if (!wlc_lanes(&w, a->n, BF_BLOCK, &i0))
			break;
		for (unsigned int k = 0; k < BF_D; k++) {
			for (unsigned int l = 0; l < w.nlanes; l++)
				v[l] = bf_nb(a, i0 + l, k);
			ng_st_contig(&w, a->adj + k * a->n + i0, 4, v);
		}
	}
}

static void bf_reset(struct ng_block *b, void *p)
{
	struct bf_args *a = p;

	for (unsigned int wi = 0; wi < b->nwarps; wi++) {
		uint32_t v[NG_WARP];
		struct ng_warp w;
		uint64_t i0;

		ng_warp_get(b, wi, &w);
		if (!wlc_lanes(&w, a->n, BF_BLOCK, &i0))
			break;
		for (unsigned int l = 0; l < w.nlanes; l++)
			v[l] = i0 + l ? BF_INF : 0;
		ng_st_contig(&w, a->level + i0, 4, v);
	}
}

/*
 * Phase by phase over the block's warps, as its warps overlap on a GPU:
 * every warp loads its vertices' levels, then each waits for them before
 * it tests for the frontier. Edge k of every frontier lane, in lockstep:
 * every warp loads its neighbour, then each waits for it before it can
 * address the neighbour's level, then each waits for the level before it
 * tests it and stores the next one. The loads of a phase are all issued
 * before the first wait, so that the block pays one latency a phase.
 */
static void bf_kernel(struct ng_block *b, void *p)
{
	struct bf_args *a = p;
	uint32_t lv[BF_WARPS][NG_WARP], nb[BF_WARPS][NG_WARP];
	uint32_t nl[BF_WARPS][NG_WARP], next[NG_WARP];
	uintptr_t addr[BF_WARPS][NG_WARP];
	uint32_t front[BF_WARPS], any = 0;
	struct ng_warp w[BF_WARPS];
	uint64_t i0[BF_WARPS];
	unsigned int nw = 0;

	for (unsigned int wi = 0; wi < b->nwarps && wi < BF_WARPS; wi++) {
		ng_warp_get(b, wi, &w[wi]);
		if (!wlc_lanes(&w[wi], a->n, BF_BLOCK, &i0[wi]))
			break;
		ng_ld_contig(&w[wi], a->level + i0[wi], 4, lv[wi]);
		nw = wi + 1;
	}
	for (unsigned int wi = 0; wi < nw; wi++) {
		ng_warp_wait(&w[wi]);
		front[wi] = 0;
		for (unsigned int l = 0; l < w[wi].nlanes; l++)
			if (lv[wi][l] == a->cur)
				front[wi] |= 1u << l;
		ng_warp_compute(&w[wi], BF_INSTS);
		if (front[wi])
			ng_warp_compute(&w[wi], BF_EDGE_INSTS * BF_D);
		/* from here on the warp's lanes are its frontier's */
		w[wi].active = front[wi];
		any |= front[wi];
	}
	for (unsigned int k = 0; any && k < BF_D; k++) {
		for (unsigned int wi = 0; wi < nw; wi++) {
			for (uint32_t m = front[wi]; m; m &= m - 1) {
				unsigned int l = (unsigned int)__builtin_ctz(m);

				addr[wi][l] = (uintptr_t)&a->adj[k * a->n + i0[wi] + l];
			}
			if (front[wi])
				ng_ld(&w[wi], addr[wi], 4, nb[wi]);
		}
		for (unsigned int wi = 0; wi < nw; wi++) {
			if (!front[wi])
				continue;
			ng_warp_wait(&w[wi]);
			for (uint32_t m = front[wi]; m; m &= m - 1) {
				unsigned int l = (unsigned int)__builtin_ctz(m);

				addr[wi][l] = (uintptr_t)&a->level[nb[wi][l]];
			}
			ng_ld(&w[wi], addr[wi], 4, nl[wi]);
		}
		for (unsigned int wi = 0; wi < nw; wi++) {
			struct ng_warp s = w[wi];

			if (!front[wi])
				continue;
			ng_warp_wait(&w[wi]);
			s.active = 0;
			for (uint32_t m = front[wi]; m; m &= m - 1) {
				unsigned int l = (unsigned int)__builtin_ctz(m);

				if (nl[wi][l] == BF_INF) {
					s.active |= 1u << l;
					next[l] = a->cur + 1;
				}
			}
			/* the store's completion is not the warp's to wait for */
			if (s.active)
				ng_st(&s, addr[wi], 4, next);
		}
	}
}

static int bf_run(struct ng_system *sys, const struct ng_bench_opts *o,
		  struct ng_bench_result *r, char *err, size_t errlen)
{
	struct wlc c;
	struct ng_buf bl = { 0 }, ba = { 0 };
	struct bf_args a = { 0 };
	uint32_t *ref = NULL, *q = NULL;
	uint64_t nblocks, levels = 0;
	int ret;

	wlc_init(&c, sys, o, r, err, errlen);
	a.n = o->size / 4;
	a.seed = c.cfg->seed;
	if (a.n < NG_WARP) {
		ng_seterr(err, errlen, "bfs: size must hold %u vertices", NG_WARP);
		return -EINVAL;
	}
	nblocks = (a.n + BF_BLOCK - 1) / BF_BLOCK;
	ret = wlc_alloc(&c, &bl, a.n * 4, -1);
	if (!ret)
		ret = wlc_alloc(&c, &ba, a.n * 4 * BF_D, -1);
	if (ret)
		goto out;
	a.level = bl.ptr;
	a.adj = ba.ptr;
	r->elements = a.n;
	c.total = 0;
	ret = wlc_launch(&c, "bfs-init", bf_init, &a, nblocks, BF_BLOCK, -1, false);
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
		for (a.cur = 0; a.cur < BF_MAXLEVELS; a.cur++) {
			bool more = false;

			ret = wlc_launch(&c, "bfs", bf_kernel, &a, nblocks,
					 BF_BLOCK, -1, true);
			if (ret)
				goto out;
			levels++;
			/* the host checks for a next frontier (outside the model) */
			for (uint64_t v = 0; v < a.n && !more; v++)
				more = a.level[v] == a.cur + 1;
			if (!more)
				break;
		}
	}
	wl_collect(sys, r);
	r->iters = o->iters;
	r->bytes = levels * a.n * 4;
	/* the CPU BFS */
	ref = malloc(a.n * 4);
	q = malloc(a.n * 4);
	if (!ref || !q) {
		ret = -ENOMEM;
		ng_seterr(err, errlen, "bfs: out of memory");
		goto out;
	}
	{
		uint64_t head = 0, tail = 0;

		for (uint64_t v = 0; v < a.n; v++)
			ref[v] = BF_INF;
		ref[0] = 0;
		q[tail++] = 0;
		while (head < tail) {
			uint32_t v = q[head++];

			for (unsigned int k = 0; k < BF_D; k++) {
				uint32_t u = bf_nb(&a, v, k);

				if (ref[u] == BF_INF) {
					ref[u] = ref[v] + 1;
					q[tail++] = u;
				}
			}
		}
	}
	/* --corrupt-one: one vertex a level off */
	if (o->corrupt)
		a.level[a.n / 2] += 1;
	r->verified = true;
	snprintf(r->verify, sizeof(r->verify),
		 "levels of all %llu vertices match the CPU BFS (%llu level kernels)",
		 (unsigned long long)a.n, (unsigned long long)levels);
	for (uint64_t v = 0; v < a.n; v++)
		if (a.level[v] != ref[v]) {
			r->verified = false;
			snprintf(r->verify, sizeof(r->verify),
				 "vertex %llu has level %d, the CPU reference says %d",
				 (unsigned long long)v, (int)a.level[v], (int)ref[v]);
			break;
		}
out:
	free(ref);
	free(q);
	ng_free(c.sp, &ba);
	ng_free(c.sp, &bl);
	return ret;
}

const struct ng_workload ng_wl_bfs = {
	.name = "bfs",
	.suites = NG_SUITE_CARVE | NG_SUITE_DUALOPT | NG_SUITE_CODA,
	.desc = "level-synchronous BFS on a random graph: irregular read-write sharing",
	.default_size = 1ULL << 20,
	.paper_footprint = 590ULL << 20,
	.paper_ref = "CARVE Table II: bfs-road-usa 590 MB",
	.default_iters = 2,
	.narrays = 9,
	.run = bf_run,
};
