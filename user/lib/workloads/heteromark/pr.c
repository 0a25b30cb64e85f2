// SPDX-License-Identifier: GPL-2.0
/*
 * pr: PageRank, after Hetero-Mark's PageRank as MGPUSim runs it (the
 * setup REC measured): per iteration one kernel, y = M x over a CSR
 * matrix whose rows are pages and whose nonzeros are 1 / out-degree of
 * the linking page, the ranks ping-ponging between two vectors. The
 * kernel is vector CSR: a work-group of 64 work-items per row (global
 * size rows x 64); work-item l sums the row's nonzeros l, l + 64, ...,
 * then the work-group reduces the 64 partial sums in local memory by
 * halving (s = 32, 16, ..., 1), and work-item 0 writes y[row]. Reads of
 * x at the column indices are irregular and span every GPU's pages.
 *
 * Hetero-Mark reads its graph from a file; here it is made from the
 * workload's random stream: page i has 8 to 16 in-links from pages drawn
 * over the whole range. --size is the bytes of the column indices (nnz x
 * 4); the values take as much, the row offsets and the two rank vectors
 * a tenth of it together: narrays 2 counts the first two. Default 4
 * iterations (Hetero-Mark: 16 at MGPUSim's default).
 *
 * pr-road and pr-rmat are the same kernels on workloads/inputs' graphs
 * (pr_graph.c), for CODA's Fig. 12, which runs PageRank on four real
 * graphs ordered by the coefficient of variation (CoV) of their degrees
 * and finds CODA helps the regular ones (55%) more than the irregular
 * (5%). Their rows are the graph's, symmetric, so a page's in-links are
 * its out-links and a value is 1 / the linking page's row length. --size
 * is still the bytes of the column indices as drawn: pr-road has size /
 * 4 / 2.7 pages (the road map's mean degree; 97,090 at the default, CoV
 * 0.36 against pr's 0.22 in-links and 0.29 out-links), pr-rmat size / 4
 * / 32 (Graph500's 2 x edgefactor draws a vertex: the default is scale
 * 13, whose merged repeats leave 0.78 MiB of indices, a mean degree of
 * 24.9, a biggest hub of 2257 links and a CoV of 3.13), relabelled as
 * Graph500's reference does, so that the hubs' rows and ranks are
 * anywhere rather than all in GPU 0's first pages. A hub's row is one
 * work-group's, dozens of rounds of 64 nonzeros against a road page's
 * one round of three. pr keeps its uniform graph: REC's and CODA's runs
 * of pr are on it.
 */
#include <stdlib.h>
#include <string.h>

#include "workloads/heteromark/pr_graph.h"
#include "workloads/wl.h"

#define PR_WG		64	/* work-items per row */
/* a nonzero: loop test, two addresses, the gather's address, a multiply-add */
#define PR_INSTS_NZ	6
/* a reduction step: the test, the partner's address, an add, the barrier */
#define PR_INSTS_RED	4
#define PR_WARPS	(PR_WG / NG_WARP)

struct pr_args {
	const uint32_t *rowp, *col;
	const float *val;
	float *x, *y;
	uint32_t n;
};

/* Untimed: block b copies its share of the host's graph into the buffers. */
struct pr_init {
	const struct pr_graph *g;
	struct pr_args *a;
};

static void pr_copy(struct ng_warp *w, void *dst, const void *src,
		    uint64_t n, uint64_t i0)
{
	unsigned int k = n - i0 < NG_WARP ? (unsigned int)(n - i0) : NG_WARP;
	struct ng_warp t = *w;

	t.nlanes = k;
	t.active = k == NG_WARP ? ~0u : (1u << k) - 1;
	ng_st_contig(&t, (char *)dst + i0 * 4, 4, (const char *)src + i0 * 4);
}

static void pr_init_kernel(struct ng_block *b, void *p)
{
	const struct pr_init *in = p;
	struct pr_args *a = in->a;
	/* the block of row r (as the kernel's) copies row r's share */
	uint64_t r = b->id;

	for (unsigned int wi = 0; wi < b->nwarps; wi++) {
		struct ng_warp w;
		uint64_t e0 = in->g->rowp[r], e1 = in->g->rowp[r + 1];
		float x0 = 1.0f / (float)a->n, z = 0;

		ng_warp_get(b, wi, &w);
		for (uint64_t e = e0 + wi * NG_WARP; e < e1; e += PR_WG) {
			pr_copy(&w, (void *)a->col, in->g->col, e1, e);
			pr_copy(&w, (void *)a->val, in->g->val, e1, e);
		}
		if (wi)
			continue;
		pr_copy(&w, (void *)a->rowp, in->g->rowp, r + 1, r);
		if (r + 1 == a->n)
			pr_copy(&w, (void *)a->rowp, in->g->rowp, r + 2, r + 1);
		wl_st1(&w, 0, a->x + r, x0);
		wl_st1(&w, 0, a->y + r, z);
	}
}

/*
 * One row: 64 lanes' partial sums, then the halving reduction. Chunk c of
 * the row's nonzeros (32 a warp, 64 a round), phase by phase over the
 * block's warps, as its warps overlap on a GPU: every warp loads its
 * column indices and values, then each waits for them before it can
 * address x at the columns, then each waits for x before its multiply-add.
 */
static void pr_kernel(struct ng_block *b, void *p)
{
	const struct pr_args *a = p;
	uint64_t r = b->id;
	float part[PR_WG] = { 0 };
	uint32_t rp[NG_WARP], cb[PR_WARPS][NG_WARP];
	float vb[PR_WARPS][NG_WARP], xv[PR_WARPS][NG_WARP];
	const uint32_t *cv[PR_WARPS];
	const float *vv[PR_WARPS];
	uintptr_t xa[PR_WARPS][NG_WARP];
	struct ng_warp w, t[PR_WARPS];
	uint64_t e0, e1;

	/* every work-item reads the row's bounds: two words, a broadcast */
	ng_warp_get(b, 0, &w);
	w.nlanes = 2;
	w.active = 3;
	ng_ld_contig(&w, a->rowp + r, 4, rp);
	ng_warp_wait(&w);
	e0 = rp[0];
	e1 = rp[1];
	for (unsigned int wi = 0; wi < b->nwarps && wi < PR_WARPS; wi++) {
		ng_warp_get(b, wi, &w);
		ng_warp_compute(&w, 2);
	}
	for (uint64_t c = e0; c < e1; c += PR_WG) {
		/* warps with nonzeros in this chunk: nw, from warp 0 on */
		unsigned int nw = 0;

		for (unsigned int wi = 0; wi < b->nwarps && wi < PR_WARPS; wi++) {
			uint64_t e = c + wi * NG_WARP;
			unsigned int k;

			if (e >= e1)
				break;
			k = e1 - e < NG_WARP ? (unsigned int)(e1 - e) : NG_WARP;
			ng_warp_get(b, wi, &t[wi]);
			t[wi].nlanes = k;
			t[wi].active = k == NG_WARP ? ~0u : (1u << k) - 1;
			cv[wi] = ng_ld_contig_ref(&t[wi], a->col + e, 4, cb[wi]);
			vv[wi] = ng_ld_contig_ref(&t[wi], a->val + e, 4, vb[wi]);
			nw = wi + 1;
		}
		for (unsigned int wi = 0; wi < nw; wi++) {
			ng_warp_wait(&t[wi]);
			for (unsigned int l = 0; l < t[wi].nlanes; l++)
				xa[wi][l] = (uintptr_t)(a->x + cv[wi][l]);
			ng_ld(&t[wi], xa[wi], 4, xv[wi]);
		}
		for (unsigned int wi = 0; wi < nw; wi++) {
			ng_warp_wait(&t[wi]);
			for (unsigned int l = 0; l < t[wi].nlanes; l++)
				part[wi * NG_WARP + l] += vv[wi][l] * xv[wi][l];
			ng_warp_compute(&t[wi], PR_INSTS_NZ);
		}
	}
	ng_block_sync(b);
	/* local memory: for (s = 32; s > 0; s >>= 1) if (l < s) p[l] += p[l + s] */
	for (unsigned int s = PR_WG / 2; s; s >>= 1) {
		for (unsigned int l = 0; l < s; l++)
			part[l] += part[l + s];
		ng_warp_get(b, 0, &w);
		ng_warp_compute(&w, PR_INSTS_RED);
		ng_block_sync(b);
	}
	ng_warp_get(b, 0, &w);
	wl_st1(&w, 0, a->y + r, part[0]);
}

/* The CPU reference of one iteration: the kernel's sums, in its order. */
static void pr_ref(const struct pr_graph *g, const float *x, float *y)
{
	for (uint32_t r = 0; r < g->n; r++) {
		float part[PR_WG] = { 0 };

		for (uint64_t e = g->rowp[r]; e < g->rowp[r + 1]; e++)
			part[(e - g->rowp[r]) % PR_WG] += g->val[e] * x[g->col[e]];
		for (unsigned int s = PR_WG / 2; s; s >>= 1)
			for (unsigned int l = 0; l < s; l++)
				part[l] += part[l + s];
		y[r] = part[0];
	}
}

/* pr, pr-road or pr-rmat (@name, for messages): pr's kernels on @kind */
static int pr_run_on(struct ng_system *sys, const struct ng_bench_opts *o,
		     struct ng_bench_result *r, char *err, size_t errlen,
		     const char *name, enum wl_graph_kind kind)
{
	struct wlc c;
	struct ng_buf bp = { 0 }, bc = { 0 }, bv = { 0 }, bx = { 0 }, by = { 0 };
	struct pr_graph g = { 0 };
	struct pr_args a = { 0 };
	struct pr_init in;
	float *rx = NULL, *ry = NULL;
	uint64_t nnz = o->size / 4, pages = pr_pages(kind, o->size);
	uint32_t n;
	char ok[128];
	int ret;

	wlc_init(&c, sys, o, r, err, errlen);
	if (pages < PR_WG) {
		ng_seterr(err, errlen, "%s: size must hold the links of %u pages (%llu bytes) at least",
			  name, PR_WG,
			  (unsigned long long)pr_size_min(kind, PR_WG));
		return -EINVAL;
	}
	/* pr's own graph has room for more than workloads/inputs' */
	if (kind != WL_GRAPH_UNIFORM && pages > PR_INPUT_MAX) {
		ng_seterr(err, errlen, "%s: size must hold at most the links of 2^26 pages (%llu bytes)",
			  name,
			  (unsigned long long)pr_size_min(kind, PR_INPUT_MAX + 1) - 4);
		return -EINVAL;
	}
	n = pages > UINT32_MAX / 2 ? UINT32_MAX / 2 : (uint32_t)pages;
	ret = pr_graph_make(&g, kind, n, nnz, c.cfg->seed);
	if (ret) {
		ng_seterr(err, errlen, "%s: cannot make the graph: %s", name,
			  strerror(-ret));
		goto out;
	}
	ret = wlc_alloc(&c, &bp, ((uint64_t)n + 1) * 4, -1);
	if (!ret)
		ret = wlc_alloc(&c, &bc, (uint64_t)g.nnz * 4, -1);
	if (!ret)
		ret = wlc_alloc(&c, &bv, (uint64_t)g.nnz * 4, -1);
	if (!ret)
		ret = wlc_alloc(&c, &bx, (uint64_t)n * 4, -1);
	if (!ret)
		ret = wlc_alloc(&c, &by, (uint64_t)n * 4, -1);
	if (ret)
		goto out;
	a.rowp = bp.ptr;
	a.col = bc.ptr;
	a.val = bv.ptr;
	a.x = bx.ptr;
	a.y = by.ptr;
	a.n = n;
	in = (struct pr_init){ .g = &g, .a = &a };
	r->elements = n;
	r->bytes = ((uint64_t)g.nnz * 12 + (uint64_t)n * 12) * o->iters;
	c.total = o->iters;
	ret = wlc_launch(&c, "pr-init", pr_init_kernel, &in, n, PR_WG, -1, false);
	if (ret)
		goto out;
	ng_system_reset_counters(sys);
	for (unsigned int it = 0; it < o->iters && !ret; it++) {
		float *t;

		ret = wlc_launch(&c, "pr", pr_kernel, &a, n, PR_WG, -1, true);
		t = a.x;
		a.x = a.y;
		a.y = t;
	}
	wl_collect(sys, r);
	if (ret)
		goto out;
	rx = malloc((size_t)n * 4);
	ry = malloc((size_t)n * 4);
	if (!rx || !ry) {
		ret = -ENOMEM;
		ng_seterr(err, errlen, "%s: out of memory", name);
		goto out;
	}
	for (uint32_t i = 0; i < n; i++)
		rx[i] = 1.0f / (float)n;
	for (unsigned int it = 0; it < o->iters; it++) {
		float *t;

		pr_ref(&g, rx, ry);
		t = rx;
		rx = ry;
		ry = t;
	}
	snprintf(ok, sizeof(ok),
		 "%u iterations over %u pages and %u links match the CPU reference",
		 o->iters, n, g.nnz);
	/* after the last swap the ranks are in a.x */
	wl_corrupt_f32(o, a.x, n);
	wl_check_f32(r, "rank", a.x, rx, n, 0, 1e-5f, 1e-9f, ok);
out:
	free(rx);
	free(ry);
	pr_graph_free(&g);
	ng_free(c.sp, &by);
	ng_free(c.sp, &bx);
	ng_free(c.sp, &bv);
	ng_free(c.sp, &bc);
	ng_free(c.sp, &bp);
	return ret;
}

static int pr_run(struct ng_system *sys, const struct ng_bench_opts *o,
		  struct ng_bench_result *r, char *err, size_t errlen)
{
	return pr_run_on(sys, o, r, err, errlen, "pr", WL_GRAPH_UNIFORM);
}

static int pr_run_road(struct ng_system *sys, const struct ng_bench_opts *o,
		       struct ng_bench_result *r, char *err, size_t errlen)
{
	return pr_run_on(sys, o, r, err, errlen, "pr-road", WL_GRAPH_ROAD);
}

static int pr_run_rmat(struct ng_system *sys, const struct ng_bench_opts *o,
		       struct ng_bench_result *r, char *err, size_t errlen)
{
	return pr_run_on(sys, o, r, err, errlen, "pr-rmat", WL_GRAPH_RMAT);
}

const struct ng_workload ng_wl_pr = {
	.name = "pr",
	.desc = "Hetero-Mark PageRank: vector CSR, 64 work-items a page, irregular reads of the ranks",
	.input = "uniform: 8-16 in-links a page from random pages (Hetero-Mark reads a graph file; the papers' are not modeled)",
	.default_size = 1ULL << 20,
	.paper_footprint = 256ULL << 20,
	.paper_ref = "REC Table 3: PR 256 MB",
	.default_iters = 4,
	.narrays = 2,
	.run = pr_run,
};

const struct ng_workload ng_wl_pr_road = {
	.name = "pr-road",
	.desc = "Hetero-Mark PageRank (pr's kernels) on a road network: few, local links a page, a regular graph",
	.input = "road: a planar road map, ids by 32 x 32 tiles, mean degree 2.7, degree CoV 0.36 (97,090 pages at the default); CODA Fig. 12's regular graphs are files ngemu has not",
	.default_size = 1ULL << 20,
	.paper_ref = "CODA Fig. 12: PageRank on graphs by degree CoV (no sizes given)",
	.default_iters = 4,
	/* size x 3.1: indices 1, values 1, offsets and the ranks 0.37 each */
	.narrays = 3,
	.run = pr_run_road,
};

const struct ng_workload ng_wl_pr_rmat = {
	.name = "pr-rmat",
	.desc = "Hetero-Mark PageRank (pr's kernels) on Graph500's R-MAT: hubs of thousands of links, an irregular graph",
	.input = "rmat: Graph500's R-MAT, relabelled, mean degree 24.9, max 2257, degree CoV 3.13 (scale 13 at the default); CODA Fig. 12's irregular graphs are files ngemu has not",
	.default_size = 1ULL << 20,
	.paper_ref = "CODA Fig. 12: PageRank on graphs by degree CoV (no sizes given)",
	.default_iters = 4,
	/* size x 2.0: indices 0.8, values 0.8, offsets and ranks 0.125 each */
	.narrays = 2,
	.run = pr_run_rmat,
};
