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
 */
#include <stdlib.h>

#include "workloads/wl.h"

#define PR_WG		64	/* work-items per row */
#define PR_MIN_DEG	8
#define PR_DEG_SPAN	9	/* degrees 8..16 */
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

struct pr_graph {
	uint32_t *rowp, *col;
	float *val;
	uint32_t n, nnz;
};

static void pr_graph_free(struct pr_graph *g)
{
	free(g->rowp);
	free(g->col);
	free(g->val);
}

/* Rows of 8-16 random in-links, each valued 1 / out-degree of its source. */
static int pr_graph_make(struct pr_graph *g, uint32_t n, uint64_t nnz_max,
			 uint64_t seed)
{
	uint32_t *outdeg = calloc(n, sizeof(*outdeg));
	uint64_t k = 0;

	g->n = n;
	g->rowp = malloc(((size_t)n + 1) * sizeof(*g->rowp));
	g->col = malloc(nnz_max * sizeof(*g->col));
	g->val = malloc(nnz_max * sizeof(*g->val));
	if (!outdeg || !g->rowp || !g->col || !g->val) {
		free(outdeg);
		pr_graph_free(g);
		return -ENOMEM;
	}
	for (uint32_t i = 0; i < n; i++) {
		uint64_t h = wlc_hash(seed * 0x9a9a + i);
		unsigned int d = PR_MIN_DEG + (unsigned int)(h % PR_DEG_SPAN);

		g->rowp[i] = (uint32_t)k;
		for (unsigned int e = 0; e < d && k < nnz_max; e++) {
			g->col[k] = (uint32_t)(wlc_hash(h + e + 1) % n);
			outdeg[g->col[k]]++;
			k++;
		}
	}
	g->rowp[n] = (uint32_t)k;
	g->nnz = (uint32_t)k;
	for (uint64_t e = 0; e < k; e++)
		g->val[e] = 1.0f / (float)outdeg[g->col[e]];
	free(outdeg);
	return 0;
}

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

static int pr_run(struct ng_system *sys, const struct ng_bench_opts *o,
		  struct ng_bench_result *r, char *err, size_t errlen)
{
	struct wlc c;
	struct ng_buf bp = { 0 }, bc = { 0 }, bv = { 0 }, bx = { 0 }, by = { 0 };
	struct pr_graph g = { 0 };
	struct pr_args a = { 0 };
	struct pr_init in;
	float *rx = NULL, *ry = NULL;
	uint64_t nnz = o->size / 4;
	uint32_t n;
	char ok[128];
	int ret;

	wlc_init(&c, sys, o, r, err, errlen);
	/* about 12 in-links a page on average */
	n = nnz / 12 > UINT32_MAX / 2 ? UINT32_MAX / 2 : (uint32_t)(nnz / 12);
	if (n < PR_WG) {
		ng_seterr(err, errlen, "pr: size must hold the links of %u pages (%u bytes) at least",
			  PR_WG, PR_WG * 12 * 4);
		return -EINVAL;
	}
	ret = pr_graph_make(&g, n, nnz, c.cfg->seed);
	if (ret) {
		ng_seterr(err, errlen, "pr: out of memory for the graph");
		return ret;
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
		ng_seterr(err, errlen, "pr: out of memory");
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
