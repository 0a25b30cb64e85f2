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
 * merges, in lockstep (a lane's k-th neighbour at the others' k-th); here
 * each lane's reads go through the model as that lane's alone, a list
 * read as a run of words (what a thread's sequential reads make of the
 * lines). Verified against the host's counts, vertex by vertex, and the
 * total.
 */
#include "workloads/graphbig/graph.h"

#define TC_BLOCK	256
/* a merge step: two compares, an add, the advance (5) */
#define TC_STEP_INSTS	5

_Static_assert(TC_BLOCK <= GB_WARPS * NG_WARP, "struct gb_warps holds a block's warps");

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

/*
 * The lanes' merges in lockstep, as a warp's lanes run them, and phase by
 * phase over the block's warps, as its warps overlap on a GPU; each phase
 * waits for the values its addresses come from:
 * - every warp loads its row offsets; each waits for them before it can
 *   address its lanes' neighbour lists (nv words from r0);
 * - every warp reads its lanes' lists; each waits for them before it can
 *   address a neighbour's row;
 * - step k: every warp reads the rows of its lanes' k-th neighbours u > v;
 *   each waits for them before it can address u's list; each reads the
 *   lists, then each waits for them before it merges.
 * The block's rows are consecutive, so their lists are one range of col:
 * one buffer holds them (mine); a step's lists of the neighbours share
 * another (theirs, at offsets, since it grows).
 */
static void tc_kernel(struct ng_block *b, void *p)
{
	const struct tc_args *a = p;
	uint32_t cnt[GB_WARPS][NG_WARP], ur[GB_WARPS][NG_WARP][2];
	uint32_t at[GB_WARPS][NG_WARP], step[GB_WARPS];
	uint32_t *mine = NULL, *theirs = NULL, most = 0, base, last;
	size_t cap = 0;
	struct gb_warps g;

	gb_rows_issue(b, a->row, a->n, TC_BLOCK, 0, &g);
	if (!g.n)
		return;
	for (unsigned int wi = 0; wi < g.n; wi++) {
		ng_warp_wait(&g.w[wi]);
		for (unsigned int l = 0; l < g.w[wi].nlanes; l++) {
			cnt[wi][l] = 0;
			if (g.r1[wi][l] - g.r0[wi][l] > most)
				most = g.r1[wi][l] - g.r0[wi][l];
		}
	}
	base = g.r0[0][0];
	last = g.r1[g.n - 1][g.w[g.n - 1].nlanes - 1];
	/* without it the block counts nothing, which the check reports */
	mine = malloc(((size_t)last - base) * 4 + 4);
	if (!mine)
		most = 0;
	for (unsigned int wi = 0; wi < g.n && mine; wi++)
		for (unsigned int l = 0; l < g.w[wi].nlanes; l++)
			tc_read(&g.w[wi], l, a->col + g.r0[wi][l],
				g.r1[wi][l] - g.r0[wi][l],
				mine + (g.r0[wi][l] - base));
	for (unsigned int wi = 0; wi < g.n && mine; wi++)
		ng_warp_wait(&g.w[wi]);
	for (uint32_t k = 0; k < most; k++) {
		size_t used = 0;

		for (unsigned int wi = 0; wi < g.n; wi++) {
			step[wi] = 0;
			for (unsigned int l = 0; l < g.w[wi].nlanes; l++) {
				uint32_t u;

				if (k >= g.r1[wi][l] - g.r0[wi][l])
					continue;
				u = mine[g.r0[wi][l] - base + k];
				if (u <= g.i0[wi] + l)
					continue;
				step[wi] |= 1u << l;
				tc_read(&g.w[wi], l, a->row + u, 2, ur[wi][l]);
			}
		}
		for (unsigned int wi = 0; wi < g.n; wi++) {
			if (!step[wi])
				continue;
			ng_warp_wait(&g.w[wi]);
			for (uint32_t m = step[wi]; m; m &= m - 1) {
				unsigned int l = (unsigned int)__builtin_ctz(m);
				uint32_t nu = ur[wi][l][1] - ur[wi][l][0];

				if (used + nu > cap) {
					size_t c = 2 * (used + nu);
					uint32_t *q = realloc(theirs, c * 4);

					if (!q) {
						/* this lane's count stays short */
						step[wi] &= ~(1u << l);
						continue;
					}
					theirs = q;
					cap = c;
				}
				at[wi][l] = (uint32_t)used;
				used += nu;
				tc_read(&g.w[wi], l, a->col + ur[wi][l][0], nu,
					theirs + at[wi][l]);
			}
		}
		for (unsigned int wi = 0; wi < g.n; wi++) {
			if (!step[wi])
				continue;
			ng_warp_wait(&g.w[wi]);
			for (uint32_t m = step[wi]; m; m &= m - 1) {
				unsigned int l = (unsigned int)__builtin_ctz(m);
				const uint32_t *my = mine + (g.r0[wi][l] - base);
				const uint32_t *th = theirs + at[wi][l];
				uint32_t nv = g.r1[wi][l] - g.r0[wi][l];
				uint32_t nu = ur[wi][l][1] - ur[wi][l][0];
				uint32_t u = my[k], j = k + 1, x = 0;

				/* common neighbours w > u: merge the tails */
				while (x < nu && th[x] <= u)
					x++;
				while (j < nv && x < nu) {
					if (my[j] == th[x]) {
						cnt[wi][l]++;
						j++;
						x++;
					} else if (my[j] < th[x]) {
						j++;
					} else {
						x++;
					}
				}
				ng_warp_compute(&g.w[wi], TC_STEP_INSTS * (nv - k + nu));
			}
		}
	}
	for (unsigned int wi = 0; wi < g.n; wi++)
		ng_st_contig(&g.w[wi], a->count + g.i0[wi], 4, cnt[wi]);
	free(theirs);
	free(mine);
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
	.desc = "triangle count (GraphBIG): sorted neighbour lists merged per edge, a thread per vertex",
	.input = "uniform: 1-15 random out-edges a vertex, made undirected and simple (CODA's real graphs are not modeled)",
	.default_size = 128ULL << 10,	/* 32 Ki vertices */
	.default_iters = 1,
	.narrays = 18,
	.run = tc_run,
};
