// SPDX-License-Identifier: GPL-2.0
/*
 * cc: connected components by label propagation, after GraphBIG's GPU
 * connected component: every vertex starts with its own id as its label
 * and takes the smallest label among its neighbours' until no label
 * changes; a component's vertices end with its smallest id. Edges count
 * both ways (the graph made undirected on the host), and each kernel pulls
 * from the labels of the kernel before (two label arrays in turn): a
 * thread writes only its own vertex, so no atomic minimum is needed and a
 * run does not depend on the host's timing (GraphBIG pushes with
 * atomics). The host checks for a change outside the model.
 *
 * The graph's edges stay within groups of 4096 vertices (several
 * components, as a real graph has): block b reads its vertices' rows and
 * edges and, mostly, labels of its own group, 16 blocks wide; CODA counts
 * cc as block-majority. Verified against a CPU union-find: every vertex's
 * label must be the smallest id of its component.
 */
#include "workloads/graphbig/graph.h"

#define CC_BLOCK	256
#define CC_SPAN		4096
#define CC_MAXITERS	4096
/*
 * a vertex: its index, two offsets, the compare (5); an edge: two
 * addresses and the minimum (3)
 */
#define CC_INSTS	5
#define CC_EDGE_INSTS	3

_Static_assert(CC_BLOCK <= GB_WARPS * NG_WARP, "struct gb_warps holds a block's warps");

struct cc_args {
	uint32_t *row, *col, *label[2];
	uint64_t n;
	unsigned int cur;
};

/*
 * Phase by phase over the block's warps, as its warps overlap on a GPU:
 * every warp loads its row offsets and labels, then each waits for them
 * before it addresses its edges. Edge k of every lane that has one, in
 * lockstep: every warp loads its neighbour, then each waits for it before
 * it can address the neighbour's label, then each waits for the label
 * before it takes the minimum.
 */
static void cc_kernel(struct ng_block *b, void *p)
{
	const struct cc_args *a = p;
	const uint32_t *in = a->label[a->cur];
	uint32_t *out = a->label[!a->cur];
	uint32_t best[GB_WARPS][NG_WARP], v[GB_WARPS][NG_WARP];
	uint32_t most[GB_WARPS], all = 0;
	uintptr_t addr[GB_WARPS][NG_WARP];
	struct ng_warp t[GB_WARPS];
	struct gb_warps g;

	gb_rows_issue(b, a->row, a->n, CC_BLOCK, CC_INSTS, &g);
	for (unsigned int wi = 0; wi < g.n; wi++)
		ng_ld_contig(&g.w[wi], in + g.i0[wi], 4, best[wi]);
	for (unsigned int wi = 0; wi < g.n; wi++) {
		ng_warp_wait(&g.w[wi]);
		most[wi] = 0;
		for (unsigned int l = 0; l < g.w[wi].nlanes; l++)
			if (g.r1[wi][l] - g.r0[wi][l] > most[wi])
				most[wi] = g.r1[wi][l] - g.r0[wi][l];
		if (most[wi] > all)
			all = most[wi];
	}
	for (uint32_t k = 0; k < all; k++) {
		for (unsigned int wi = 0; wi < g.n; wi++) {
			if (k >= most[wi])
				continue;
			gb_edge_lanes(&g, wi, k, a->col, &t[wi], addr[wi]);
			ng_warp_compute(&t[wi], CC_EDGE_INSTS);
			ng_ld(&t[wi], addr[wi], 4, v[wi]);
		}
		for (unsigned int wi = 0; wi < g.n; wi++) {
			if (k >= most[wi])
				continue;
			ng_warp_wait(&t[wi]);
			for (unsigned int l = 0; l < g.w[wi].nlanes; l++)
				if (t[wi].active >> l & 1)
					addr[wi][l] = (uintptr_t)(in + v[wi][l]);
			ng_ld(&t[wi], addr[wi], 4, v[wi]);
		}
		for (unsigned int wi = 0; wi < g.n; wi++) {
			if (k >= most[wi])
				continue;
			ng_warp_wait(&t[wi]);
			for (unsigned int l = 0; l < g.w[wi].nlanes; l++)
				if ((t[wi].active >> l & 1) && v[wi][l] < best[wi][l])
					best[wi][l] = v[wi][l];
		}
	}
	for (unsigned int wi = 0; wi < g.n; wi++)
		ng_st_contig(&g.w[wi], out + g.i0[wi], 4, best[wi]);
}

static void cc_start(struct ng_block *b, void *p)
{
	const struct cc_args *a = p;

	for (unsigned int wi = 0; wi < b->nwarps; wi++) {
		uint32_t v[NG_WARP];
		struct ng_warp w;
		uint64_t i0;

		ng_warp_get(b, wi, &w);
		if (!wlc_lanes(&w, a->n, CC_BLOCK, &i0))
			break;
		for (unsigned int l = 0; l < w.nlanes; l++)
			v[l] = (uint32_t)(i0 + l);
		ng_st_contig(&w, a->label[0] + i0, 4, v);
		ng_st_contig(&w, a->label[1] + i0, 4, v);
	}
}

static uint32_t cc_find(uint32_t *up, uint32_t v)
{
	while (up[v] != v) {
		up[v] = up[up[v]];
		v = up[v];
	}
	return v;
}

static int cc_run(struct ng_system *sys, const struct ng_bench_opts *o,
		  struct ng_bench_result *r, char *err, size_t errlen)
{
	struct ng_buf brow = { 0 }, bcol = { 0 }, bl0 = { 0 }, bl1 = { 0 };
	struct gb_graph d = { 0 }, g = { 0 };
	struct cc_args a = { 0 };
	uint64_t nblocks, kernels = 0;
	uint32_t *up = NULL;
	struct wlc c;
	char ok[112];
	int ret;

	wlc_init(&c, sys, o, r, err, errlen);
	ret = gb_setup(&c, "cc", CC_SPAN, &d, &g);
	if (ret)
		return ret;
	a.n = g.n;
	nblocks = (a.n + CC_BLOCK - 1) / CC_BLOCK;
	ret = gb_upload(&c, &g, CC_BLOCK, &brow, &bcol);
	if (!ret)
		ret = wlc_alloc(&c, &bl0, a.n * 4, -1);
	if (!ret)
		ret = wlc_alloc(&c, &bl1, a.n * 4, -1);
	if (ret)
		goto out;
	a.row = brow.ptr;
	a.col = bcol.ptr;
	a.label[0] = bl0.ptr;
	a.label[1] = bl1.ptr;
	r->elements = a.n;
	ret = wlc_launch(&c, "cc-start", cc_start, &a, nblocks, CC_BLOCK,
				 -1, false);
	if (ret)
		goto out;
	ng_system_reset_counters(sys);
	for (unsigned int it = 0; it < o->iters && !ret; it++) {
		if (it)
			ret = wlc_launch(&c, "cc-start", cc_start, &a, nblocks,
					 CC_BLOCK, -1, true);
		for (a.cur = 0; !ret; a.cur = !a.cur) {
			bool changed = false;

			ret = wlc_launch(&c, "cc", cc_kernel, &a, nblocks,
					 CC_BLOCK, -1, true);
			kernels++;
			/* the host's check for a change (outside the model) */
			for (uint64_t v = 0; v < a.n && !changed; v++)
				changed = a.label[0][v] != a.label[1][v];
			if (!changed || kernels >= (uint64_t)CC_MAXITERS * (it + 1))
				break;
		}
	}
	if (ret)
		goto out;
	wl_collect(sys, r);
	r->bytes = kernels * ((a.n + 1) * 4 + g.m * 8 + a.n * 8);
	up = malloc(a.n * 4);
	if (!up) {
		ng_seterr(err, errlen, "cc: out of memory");
		ret = -ENOMEM;
		goto out;
	}
	for (uint64_t v = 0; v < a.n; v++)
		up[v] = (uint32_t)v;
	/* union by the smaller root: a root is its component's smallest id */
	for (uint64_t v = 0; v < d.n; v++)
		for (uint32_t e = d.row[v]; e < d.row[v + 1]; e++) {
			uint32_t x = cc_find(up, (uint32_t)v);
			uint32_t y = cc_find(up, d.col[e]);

			if (x < y)
				up[y] = x;
			else
				up[x] = y;
		}
	for (uint64_t v = 0; v < a.n; v++)
		up[v] = cc_find(up, (uint32_t)v);
	snprintf(ok, sizeof(ok),
		 "the labels of %llu vertices match the CPU's components (%llu kernels)",
		 (unsigned long long)a.n, (unsigned long long)kernels);
	wl_corrupt_u32(o, a.label[!a.cur], a.n);
	wl_check_u32(r, "label", a.label[!a.cur], up, a.n, 0, ok);
out:
	free(up);
	gb_free(&g);
	gb_free(&d);
	ng_free(c.sp, &bl1);
	ng_free(c.sp, &bl0);
	ng_free(c.sp, &bcol);
	ng_free(c.sp, &brow);
	return ret;
}

const struct ng_workload ng_wl_cc = {
	.name = "cc",
	.desc = "connected components (GraphBIG): label propagation over a random graph of 4096-vertex groups",
	.input = "uniform within 4096-vertex groups: 1-15 random out-edges a vertex, made undirected (CODA's real graphs are not modeled)",
	.default_size = 256ULL << 10,	/* 64 Ki vertices */
	.default_iters = 1,
	.narrays = 20,
	.run = cc_run,
};
