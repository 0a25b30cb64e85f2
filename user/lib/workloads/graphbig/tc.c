// SPDX-License-Identifier: GPL-2.0
/*
 * tc: triangle count, after GraphBIG's GPU triangle count: on an
 * undirected graph with sorted neighbour lists, a thread per vertex v
 * counts, for each neighbour u > v, the common neighbours w > u of v and u
 * by merging the two sorted lists: each triangle v < u < w once, at v.
 * Per-vertex counts, then their total on the host. 256-thread blocks.
 *
 * A thread reads its own row, then the rows of its neighbours anywhere in
 * the graph: CODA counts tc as sharing. The lanes of a warp run their own
 * merges; here each lane's reads go through the model as that lane's
 * alone, a list read as a run of words (what a thread's sequential reads
 * make of the lines). Verified against the host's counts, vertex by
 * vertex, and the total.
 */
#include "workloads/graphbig/graph.h"

#define TC_BLOCK	256
/* a merge step: two compares, an add, the advance (5) */
#define TC_STEP_INSTS	5

struct tc_args {
	uint32_t *row, *col, *count;
	uint64_t n;
};

/* Lane @l of @w reads @n words from @p (a thread's sequential reads). */
static void tc_read(struct ng_warp *w, unsigned int l, const uint32_t *p,
		    uint32_t n, uint32_t *buf)
{
	struct ng_warp t = *w;

	(void)l;
	for (uint32_t i = 0; i < n; i += NG_WARP) {
		t.nlanes = n - i < NG_WARP ? n - i : NG_WARP;
		t.active = t.nlanes == NG_WARP ? ~0u : (1u << t.nlanes) - 1;
		ng_ld_contig(&t, p + i, 4, buf + i);
	}
	if (t.ready > w->ready)
		w->ready = t.ready;
}

static void tc_kernel(struct ng_block *b, void *p)
{
	const struct tc_args *a = p;

	for (unsigned int wi = 0; wi < b->nwarps; wi++) {
		uint32_t r0[NG_WARP], r1[NG_WARP], cnt[NG_WARP];
		struct ng_warp w;
		uint64_t i0;

		ng_warp_get(b, wi, &w);
		if (!wlc_lanes(&w, a->n, TC_BLOCK, &i0))
			break;
		ng_ld_contig(&w, a->row + i0, 4, r0);
		ng_ld_contig(&w, a->row + i0 + 1, 4, r1);
		for (unsigned int l = 0; l < w.nlanes; l++) {
			uint32_t nv = r1[l] - r0[l], nvb[64], *mine = nvb;

			cnt[l] = 0;
			if (nv > 64)
				mine = malloc(nv * 4);
			if (!mine)
				continue;
			tc_read(&w, l, a->col + r0[l], nv, mine);
			for (uint32_t k = 0; k < nv; k++) {
				uint32_t u = mine[k], ur[2], nu, j = k + 1, x = 0;
				uint32_t nub[64], *theirs = nub;

				if (u <= i0 + l)
					continue;
				tc_read(&w, l, a->row + u, 2, ur);
				nu = ur[1] - ur[0];
				if (nu > 64)
					theirs = malloc(nu * 4);
				if (!theirs)
					continue;
				tc_read(&w, l, a->col + ur[0], nu, theirs);
				/* common neighbours w > u: merge the tails */
				while (x < nu && theirs[x] <= u)
					x++;
				while (j < nv && x < nu) {
					if (mine[j] == theirs[x]) {
						cnt[l]++;
						j++;
						x++;
					} else if (mine[j] < theirs[x]) {
						j++;
					} else {
						x++;
					}
				}
				ng_warp_compute(&w, TC_STEP_INSTS * (nv - k + nu));
				if (theirs != nub)
					free(theirs);
			}
			if (mine != nvb)
				free(mine);
		}
		ng_st_contig(&w, a->count + i0, 4, cnt);
	}
}

static int tc_run(struct ng_system *sys, const struct ng_bench_opts *o,
		  struct ng_bench_result *r, char *err, size_t errlen)
{
	struct ng_buf brow = { 0 }, bcol = { 0 }, bcnt = { 0 };
	struct gb_graph d = { 0 }, g = { 0 };
	struct tc_args a = { 0 };
	uint64_t nblocks, total = 0;
	uint32_t *want = NULL;
	struct wlc c;
	char ok[112];
	int ret;

	wlc_init(&c, sys, o, r, err, errlen);
	ret = gb_setup(&c, "tc", 0, &d, &g);
	if (ret)
		return ret;
	a.n = g.n;
	gb_simple(&g);
	nblocks = (a.n + TC_BLOCK - 1) / TC_BLOCK;
	ret = gb_upload(&c, &g, TC_BLOCK, &brow, &bcol);
	if (!ret)
		ret = wlc_alloc(&c, &bcnt, a.n * 4, -1);
	if (ret)
		goto out;
	a.row = brow.ptr;
	a.col = bcol.ptr;
	a.count = bcnt.ptr;
	r->elements = a.n;
	r->bytes = ((a.n + 1) * 4 + g.m * 4 + a.n * 4) * o->iters;
	c.total = o->iters;
	ng_system_reset_counters(sys);
	for (unsigned int it = 0; it < o->iters && !ret; it++)
		ret = wlc_launch(&c, "tc", tc_kernel, &a, nblocks, TC_BLOCK, -1,
				 true);
	if (ret)
		goto out;
	wl_collect(sys, r);
	want = calloc(a.n, 4);
	if (!want) {
		ng_seterr(err, errlen, "tc: out of memory");
		ret = -ENOMEM;
		goto out;
	}
	/* the host's count: triangles v < u < w, at v */
	for (uint64_t v = 0; v < a.n; v++)
		for (uint32_t e = g.row[v]; e < g.row[v + 1]; e++) {
			uint32_t u = g.col[e];

			if (u <= v)
				continue;
			for (uint32_t f = e + 1; f < g.row[v + 1]; f++)
				for (uint32_t h = g.row[u]; h < g.row[u + 1]; h++)
					want[v] += g.col[h] == g.col[f];
		}
	for (uint64_t v = 0; v < a.n; v++)
		total += want[v];
	snprintf(ok, sizeof(ok),
		 "%llu triangles, each of %llu vertices' counts as the CPU's",
		 (unsigned long long)total, (unsigned long long)a.n);
	wl_corrupt_u32(o, a.count, a.n);
	wl_check_u32(r, "triangles at vertex", a.count, want, a.n, 0, ok);
out:
	free(want);
	gb_free(&g);
	gb_free(&d);
	ng_free(c.sp, &bcnt);
	ng_free(c.sp, &bcol);
	ng_free(c.sp, &brow);
	return ret;
}

const struct ng_workload ng_wl_tc = {
	.name = "tc",
	.suites = NG_SUITE_CODA,
	.desc = "triangle count (GraphBIG): sorted neighbour lists merged per edge, a thread per vertex",
	.default_size = 128ULL << 10,	/* 32 Ki vertices */
	.default_iters = 1,
	.narrays = 18,
	.run = tc_run,
};
