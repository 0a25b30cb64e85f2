// SPDX-License-Identifier: GPL-2.0
/*
 * gc: graph coloring, after GraphBIG's GPU kernel (gpu_bench/
 * gpu_GraphColoring, topology-driven and thread-centric, after Grosset et
 * al.): Jones-Plassmann with random priorities. Every vertex has a random
 * word; kernel c (c = 0, 1, ...) is a thread per vertex, 256-thread
 * blocks: a vertex not yet coloured reads its edges' targets, skips those
 * coloured by an earlier kernel (color < c), and stops at the first whose
 * word is larger (or equal, from a smaller id); a vertex that finds none
 * takes color c. A target coloured by the same kernel has color c, which
 * is not skipped, so the result does not depend on the order of the
 * threads: each colour is an independent set, the local maxima of the
 * vertices still uncoloured. The host launches kernels until every
 * vertex has a colour (GraphBIG's device flag; here the host looks at
 * the colours outside the model, as cc's host looks for a change).
 *
 * Where ngemu differs: the random words come from the seed (wlc_hash(),
 * GraphBIG: srand(123) and rand()) and are copied in by an untimed kernel
 * whose blocks write their own vertices' words, as the graph is; the
 * graph is graph.h's random CSR (1 to 15 out-edges a vertex) made
 * undirected on the host, since a colouring must see an edge from both
 * ends (GraphBIG reads an input file). The colours are not bounded by
 * the maximum degree + 1 (a path of rising priorities takes a colour a
 * vertex): GraphBIG's scheme gives one colour a kernel, and so does this.
 *
 * CODA (sec. 5.2 and Table 2; Fig. 5 in sec. 3) counts gc as
 * block-exclusive, a workload whose pages (over 90% of them) one thread
 * block alone touches: a thread per vertex, so block b reads the rows,
 * edges, words and colours of its own vertices [256 b, 256 b + 256) and
 * writes only their colours; the targets' colours and words, reached over
 * edges, go anywhere (ngemu's page profile measures what that leaves:
 * Documentation/coda.rst). Verified against the CPU's Jones-Plassmann
 * rounds with the same priorities: every vertex's colour exactly.
 *
 * --size is the bytes of a per-vertex array: size / 4 vertices. The
 * default, 128 KiB (32 Ki vertices, 128 blocks), is the smallest whose
 * blocks reach the four GPUs of the coda preset under CODA's affinity
 * scheduling (sched=coda: batches of 32 consecutive blocks a GPU); at
 * 16 KiB they all ran on GPU 0, and first touch made every access local.
 */
#include "workloads/graphbig/ref.h"

#define GC_BLOCK	256
#define GC_MAXKERNELS	4096
/*
 * a vertex: its index and the compare of its colour (3); an edge: its
 * address, the target's addresses and the colour compare (4); a
 * target's word: the two compares and the id's (3)
 */
#define GC_INSTS	3
#define GC_EDGE_INSTS	4
#define GC_RAND_INSTS	3

_Static_assert(GC_BLOCK <= GB_WARPS * NG_WARP, "struct gb_warps holds a block's warps");

struct gc_args {
	uint32_t *row, *col, *color, *rnd;
	uint64_t n;
	uint32_t cur;			/* this kernel's colour */
};

/* GraphBIG's initialize: every colour GC_NONE. */
static void gc_init(struct ng_block *b, void *p)
{
	const struct gc_args *a = p;
	uint32_t none[NG_WARP];

	for (unsigned int l = 0; l < NG_WARP; l++)
		none[l] = GC_NONE;
	for (unsigned int wi = 0; wi < b->nwarps; wi++) {
		struct ng_warp w;
		uint64_t i0;

		ng_warp_get(b, wi, &w);
		if (!wlc_lanes(&w, a->n, GC_BLOCK, &i0))
			break;
		ng_st_contig(&w, a->color + i0, 4, none);
	}
}

/*
 * GraphBIG's kernel, phase by phase over the block's warps: every warp
 * loads its colours, then each waits for them before its uncoloured
 * lanes load their rows and words. Edge k of every lane still looking,
 * in lockstep: every warp loads the target, then waits for it before it
 * can address the target's colour, then waits for that before the lanes
 * whose target is not coloured yet load its word, then waits for it
 * before a lane that meets a larger word stops looking. The lanes that
 * never met one store the kernel's colour.
 */
static void gc_kernel(struct ng_block *b, void *p)
{
	const struct gc_args *a = p;
	uint32_t cv[GB_WARPS][NG_WARP], mine[GB_WARPS][NG_WARP];
	uint32_t to[GB_WARPS][NG_WARP], rw[GB_WARPS][NG_WARP];
	uint32_t most[GB_WARPS], live[GB_WARPS], all = 0;
	uint32_t col[NG_WARP];
	uintptr_t addr[GB_WARPS][NG_WARP];
	struct ng_warp t[GB_WARPS], s[GB_WARPS];
	struct gb_warps g;

	for (unsigned int l = 0; l < NG_WARP; l++)
		col[l] = a->cur;
	gb_state_issue(b, a->color, a->n, GC_BLOCK, GC_INSTS, &g, cv);
	for (unsigned int wi = 0; wi < g.n; wi++) {
		ng_warp_wait(&g.w[wi]);
		live[wi] = 0;
		most[wi] = 0;
		for (unsigned int l = 0; l < g.w[wi].nlanes; l++)
			if (cv[wi][l] == GC_NONE)
				live[wi] |= 1u << l;
		gb_rows_some(&g, wi, a->row, live[wi]);
		gb_ld_some(&g, wi, live[wi], a->rnd, mine[wi]);
	}
	for (unsigned int wi = 0; wi < g.n; wi++) {
		if (!live[wi])
			continue;
		ng_warp_wait(&g.w[wi]);
		most[wi] = gb_most(&g, wi);
		if (most[wi] > all)
			all = most[wi];
	}
	for (uint32_t k = 0; k < all; k++) {
		for (unsigned int wi = 0; wi < g.n; wi++) {
			t[wi].active = 0;
			if (!live[wi] || k >= most[wi])
				continue;
			gb_edge_lanes(&g, wi, k, a->col, &t[wi], addr[wi]);
			t[wi].active &= live[wi];
			if (!t[wi].active)
				continue;
			ng_warp_compute(&t[wi], GC_EDGE_INSTS);
			ng_ld(&t[wi], addr[wi], 4, to[wi]);
		}
		for (unsigned int wi = 0; wi < g.n; wi++) {
			if (!t[wi].active)
				continue;
			ng_warp_wait(&t[wi]);
			for (uint32_t m = t[wi].active; m; m &= m - 1) {
				unsigned int l = (unsigned int)__builtin_ctz(m);

				addr[wi][l] = (uintptr_t)(a->color + to[wi][l]);
			}
			ng_ld(&t[wi], addr[wi], 4, cv[wi]);
		}
		for (unsigned int wi = 0; wi < g.n; wi++) {
			s[wi].active = 0;
			if (!t[wi].active)
				continue;
			ng_warp_wait(&t[wi]);
			s[wi] = t[wi];
			s[wi].active = 0;
			for (uint32_t m = t[wi].active; m; m &= m - 1) {
				unsigned int l = (unsigned int)__builtin_ctz(m);

				if (cv[wi][l] < a->cur)
					continue;
				s[wi].active |= 1u << l;
				addr[wi][l] = (uintptr_t)(a->rnd + to[wi][l]);
			}
			if (s[wi].active)
				ng_ld(&s[wi], addr[wi], 4, rw[wi]);
		}
		for (unsigned int wi = 0; wi < g.n; wi++) {
			if (!s[wi].active)
				continue;
			ng_warp_wait(&s[wi]);
			ng_warp_compute(&s[wi], GC_RAND_INSTS);
			for (uint32_t m = s[wi].active; m; m &= m - 1) {
				unsigned int l = (unsigned int)__builtin_ctz(m);

				if (gc_before(to[wi][l], rw[wi][l], g.i0[wi] + l,
					      mine[wi][l]))
					live[wi] &= ~(1u << l);
			}
		}
	}
	/* lanes uncoloured that met no larger word (no edge: none to meet) */
	for (unsigned int wi = 0; wi < g.n; wi++)
		gb_st_some(&g, wi, live[wi], a->color, col);
}

static bool gc_uncoloured(const struct gc_args *a)
{
	for (uint64_t v = 0; v < a->n; v++)
		if (a->color[v] == GC_NONE)
			return true;
	return false;
}

static int gc_run(struct ng_system *sys, const struct ng_bench_opts *o,
		  struct ng_bench_result *r, char *err, size_t errlen)
{
	struct ng_buf brow = { 0 }, bcol = { 0 }, bcolor = { 0 };
	struct ng_buf brnd = { 0 };
	struct gb_graph d = { 0 }, g = { 0 };
	struct gc_args a = { 0 };
	uint64_t nblocks, kernels = 0;
	uint32_t *rnd = NULL, *want = NULL, *scratch = NULL, colors;
	struct gb_copy cp = { 0 };
	struct wlc c;
	char ok[128];
	int ret;

	wlc_init(&c, sys, o, r, err, errlen);
	ret = gb_setup(&c, "gc", 0, &d, &g);
	if (ret)
		return ret;
	a.n = g.n;
	nblocks = (a.n + GC_BLOCK - 1) / GC_BLOCK;
	rnd = malloc((a.n + 1) * 4);
	want = malloc(a.n * 4);
	scratch = malloc(a.n * 4);
	if (!rnd || !want || !scratch) {
		ng_seterr(err, errlen, "gc: out of memory");
		ret = -ENOMEM;
		goto out;
	}
	gc_words(c.cfg->seed, a.n + 1, rnd);
	ret = gb_upload(&c, &g, GC_BLOCK, &brow, &bcol);
	if (!ret)
		ret = wlc_alloc(&c, &bcolor, a.n * 4, -1);
	if (!ret)
		ret = wlc_alloc(&c, &brnd, (a.n + 1) * 4, -1);
	if (ret)
		goto out;
	a.row = brow.ptr;
	a.col = bcol.ptr;
	a.color = bcolor.ptr;
	a.rnd = brnd.ptr;
	r->elements = a.n;
	/* the words, as the graph's rows: n + 1 of them, the last unused */
	cp.row = g.row;
	cp.src = rnd;
	cp.dst = a.rnd;
	cp.n = a.n;
	cp.block = GC_BLOCK;
	cp.rows = true;
	ret = wlc_launch(&c, "gc-words", gb_copy_kernel, &cp, nblocks,
			 NG_WARP, -1, false);
	if (!ret)
		ret = wlc_launch(&c, "gc-init", gc_init, &a, nblocks, GC_BLOCK,
				 -1, false);
	if (ret)
		goto out;
	ng_system_reset_counters(sys);
	for (unsigned int it = 0; it < o->iters && !ret; it++) {
		if (it)
			ret = wlc_launch(&c, "gc-init", gc_init, &a, nblocks,
					 GC_BLOCK, -1, true);
		for (a.cur = 0; !ret; a.cur++) {
			ret = wlc_launch(&c, "gc", gc_kernel, &a, nblocks,
					 GC_BLOCK, -1, true);
			kernels++;
			if (!gc_uncoloured(&a) ||
			    kernels >= (uint64_t)GC_MAXKERNELS * (it + 1))
				break;
		}
	}
	if (ret)
		goto out;
	wl_collect(sys, r);
	r->bytes = kernels * ((a.n + 1) * 4 + g.m * 8 + a.n * 8);
	colors = gc_reference(&g, rnd, want, scratch);
	snprintf(ok, sizeof(ok),
		 "the colours of %llu vertices match the CPU's Jones-Plassmann (%u colours, %llu kernels)",
		 (unsigned long long)a.n, colors, (unsigned long long)kernels);
	wl_corrupt_u32(o, a.color, a.n);
	wl_check_u32(r, "color", a.color, want, a.n, 0, ok);
out:
	free(scratch);
	free(want);
	free(rnd);
	gb_free(&g);
	gb_free(&d);
	ng_free(c.sp, &brnd);
	ng_free(c.sp, &bcolor);
	ng_free(c.sp, &bcol);
	ng_free(c.sp, &brow);
	return ret;
}

const struct ng_workload ng_wl_gc = {
	.name = "gc",
	.desc = "graph coloring (GraphBIG): Jones-Plassmann with random priorities, a colour a kernel, a thread per vertex",
	.input = "uniform: 1-15 random out-edges a vertex, made undirected (CODA's real graphs are not modeled)",
	.default_size = 128ULL << 10,	/* 32 Ki vertices, ~512 Ki edges both ways */
	.default_iters = 1,
	.narrays = 16,
	.run = gc_run,
};
