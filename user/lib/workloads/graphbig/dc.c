// SPDX-License-Identifier: GPL-2.0
/*
 * dc: degree centrality, after GraphBIG's GPU kernel (gpu_bench/
 * gpu_degree_centr): a thread per vertex of a CSR graph writes its
 * out-degree (the difference of its row offsets) and adds one to the
 * in-degree of each vertex its edges reach, with atomics; 256-thread
 * blocks. CODA counts dc as block-exclusive: block b reads only the row
 * offsets and edges of its vertices [256 b, 256 b + 256) and writes their
 * out-degrees; the in-degree atomics go anywhere. Verified against the
 * host's degrees, vertex by vertex (in-degrees, then out-degrees).
 */
#include "workloads/graphbig/graph.h"

#define DC_BLOCK	256
/*
 * a vertex: its index, two offsets, the subtract (5); an edge: its
 * address and the atomic's (3)
 */
#define DC_INSTS	5
#define DC_EDGE_INSTS	3

_Static_assert(DC_BLOCK <= GB_WARPS * NG_WARP, "struct gb_warps holds a block's warps");

struct dc_args {
	uint32_t *row, *col, *in, *out;
	uint64_t n;
};

/*
 * Phase by phase over the block's warps, as its warps overlap on a GPU:
 * every warp loads its row offsets, then each waits for them before it
 * writes the out-degrees and addresses its edges; edge k of every lane
 * that has one, in lockstep: every warp loads its target, then each waits
 * for it before the atomic can address the in-degree.
 */
static void dc_kernel(struct ng_block *b, void *p)
{
	const struct dc_args *a = p;
	uint32_t deg[GB_WARPS][NG_WARP], dst[GB_WARPS][NG_WARP];
	uint32_t most[GB_WARPS], one[NG_WARP], all = 0;
	uintptr_t addr[GB_WARPS][NG_WARP];
	struct ng_warp t[GB_WARPS];
	struct gb_warps g;

	gb_rows_issue(b, a->row, a->n, DC_BLOCK, DC_INSTS, &g);
	for (unsigned int wi = 0; wi < g.n; wi++) {
		struct ng_warp s;

		ng_warp_wait(&g.w[wi]);
		most[wi] = 0;
		for (unsigned int l = 0; l < g.w[wi].nlanes; l++) {
			deg[wi][l] = g.r1[wi][l] - g.r0[wi][l];
			if (deg[wi][l] > most[wi])
				most[wi] = deg[wi][l];
		}
		if (most[wi] > all)
			all = most[wi];
		/* the store's completion is not the warp's to wait for */
		s = g.w[wi];
		ng_st_contig(&s, a->out + g.i0[wi], 4, deg[wi]);
	}
	for (unsigned int l = 0; l < NG_WARP; l++)
		one[l] = 1;
	for (uint32_t k = 0; k < all; k++) {
		for (unsigned int wi = 0; wi < g.n; wi++) {
			if (k >= most[wi])
				continue;
			gb_edge_lanes(&g, wi, k, a->col, &t[wi], addr[wi]);
			ng_warp_compute(&t[wi], DC_EDGE_INSTS);
			ng_ld(&t[wi], addr[wi], 4, dst[wi]);
		}
		for (unsigned int wi = 0; wi < g.n; wi++) {
			struct ng_warp s;

			if (k >= most[wi])
				continue;
			ng_warp_wait(&t[wi]);
			for (unsigned int l = 0; l < g.w[wi].nlanes; l++)
				if (t[wi].active >> l & 1)
					addr[wi][l] = (uintptr_t)(a->in + dst[wi][l]);
			/* nothing waits for an atomic whose old value is unused */
			s = t[wi];
			ng_atomic_add_u32(&s, addr[wi], one, NULL);
		}
	}
}

static int dc_run(struct ng_system *sys, const struct ng_bench_opts *o,
		  struct ng_bench_result *r, char *err, size_t errlen)
{
	struct ng_buf brow = { 0 }, bcol = { 0 }, bin = { 0 }, bout = { 0 };
	struct gb_graph g = { 0 };
	struct dc_args a = { 0 };
	uint32_t *want = NULL;
	uint64_t nblocks;
	struct wlc c;
	char ok[96];
	int ret;

	wlc_init(&c, sys, o, r, err, errlen);
	ret = gb_setup(&c, "dc", 0, &g, NULL);
	if (ret)
		return ret;
	a.n = g.n;
	nblocks = (a.n + DC_BLOCK - 1) / DC_BLOCK;
	ret = gb_upload(&c, &g, DC_BLOCK, &brow, &bcol);
	if (!ret)
		ret = wlc_alloc(&c, &bin, a.n * 4, -1);
	if (!ret)
		ret = wlc_alloc(&c, &bout, a.n * 4, -1);
	if (ret)
		goto out;
	a.row = brow.ptr;
	a.col = bcol.ptr;
	a.in = bin.ptr;
	a.out = bout.ptr;
	r->elements = a.n;
	r->bytes = ((a.n + 1) * 4 + g.m * 8 + a.n * 4) * o->iters;
	c.total = o->iters;
	ng_system_reset_counters(sys);
	for (unsigned int it = 0; it < o->iters && !ret; it++) {
		/*
		 * The host clears the in-degrees again (GraphBIG: cudaMemset);
		 * new buffers are zero, and their pages are homed by the
		 * kernel's first touch, not by the host's.
		 */
		if (it)
			memset(a.in, 0, a.n * 4);
		ret = wlc_launch(&c, "dc", dc_kernel, &a, nblocks, DC_BLOCK, -1,
				 true);
	}
	if (ret)
		goto out;
	wl_collect(sys, r);
	want = calloc(a.n, 4);
	if (!want) {
		ng_seterr(err, errlen, "dc: out of memory");
		ret = -ENOMEM;
		goto out;
	}
	for (uint64_t e = 0; e < g.m; e++)
		want[g.col[e]]++;
	snprintf(ok, sizeof(ok),
		 "in- and out-degrees of %llu vertices (%llu edges) match the CPU's",
		 (unsigned long long)a.n, (unsigned long long)g.m);
	wl_corrupt_u32(o, a.in, a.n);
	if (wl_check_u32(r, "in-degree", a.in, want, a.n, 0, ok)) {
		for (uint64_t v = 0; v < a.n; v++)
			want[v] = g.row[v + 1] - g.row[v];
		wl_check_u32(r, "out-degree", a.out, want, a.n, 0, ok);
	}
out:
	free(want);
	gb_free(&g);
	ng_free(c.sp, &bout);
	ng_free(c.sp, &bin);
	ng_free(c.sp, &bcol);
	ng_free(c.sp, &brow);
	return ret;
}

const struct ng_workload ng_wl_dc = {
	.name = "dc",
	.desc = "degree centrality (GraphBIG): a thread per vertex, in-degree atomics over a random CSR graph",
	.input = "uniform: 1-15 random out-edges a vertex (CODA's real graphs are not modeled)",
	.default_size = 512ULL << 10,	/* 128 Ki vertices, ~1 Mi edges */
	.default_iters = 1,
	.narrays = 12,
	.run = dc_run,
};
