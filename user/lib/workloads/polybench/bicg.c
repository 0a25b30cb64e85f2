// SPDX-License-Identifier: GPL-2.0
/*
 * bicg: the BiCG sub-kernel of BiCGStab, q = A p and s = A^T r, after
 * PolyBench/GPU's OpenCL bicg as MGPUSim runs it (in sarchlab/mgpusim,
 * amd/benchmarks/polybench/bicg/: native/bicg.cl and benchmark.go;
 * benchmarks/polybench/bicg/ in MGPUSim 2.x). Same work distribution: two
 * kernels on 1-D grids of ceil(n / 256) work-groups of 256 work-items
 * (localSize 256, 1, 1), one after the other,
 *
 *   bicgKernel1  work-item i (a row):    q[i] = sum_j A[i][j] * p[j]
 *   bicgKernel2  work-item j (a column): s[j] = sum_i A[i][j] * r[i]
 *
 * A row-major, n x n (MGPUSim's NX = NY). In kernel 1 the 32 lanes of a
 * warp walk 32 rows at the same column: addresses n floats apart, one
 * line each, as uncoalesced as on a GPU (the next columns then hit those
 * lines in the L2 when they are remote), while p[j] is one address for
 * every lane (a broadcast). In kernel 2 the lanes are consecutive columns
 * (contiguous lines of A) and r[i] is the broadcast. An init kernel with
 * kernel 1's grid writes A's rows and the four vectors first, so first
 * touch homes each row band at the GPU of the blocks that own those rows:
 * kernel 1 is local but for p, kernel 2 reads a column band of every row
 * band (mostly remote) and r, homed by parts on every GPU.
 *
 * Differences: the sums stay in registers and are stored once per thread
 * (the OpenCL code zeroes q[i] / s[j] and accumulates into them in global
 * memory, which without restrict the compiler must also store every
 * iteration); --iters repeats the two-kernel sequence; the matrix side
 * is a multiple of 32 (pb_side). Values are MGPUSim's (A[i][j] = i j / n,
 * r[i] = p[i] = i pi). Verified against a CPU reference with the same
 * float operations in the same order.
 */
#include <stdlib.h>

#include "workloads/polybench/polybench.h"

#define BG_BLOCK	256	/* MGPUSim's localSize[0] */
/*
 * One iteration of a work-item's loop: the element's address (2), the
 * vector's address (1), the multiply-add (1), the loop's increment,
 * compare and branch (3).
 */
#define BG_INSTS_ITER	7
/* A work-item's setup and final store: its index, the bound check, addresses */
#define BG_INSTS_THREAD	6

struct bg_args {
	float *a, *p, *q, *r, *s;
	uint64_t n;
};

static float bg_a(uint64_t n, uint64_t i, uint64_t j)
{
	return (float)i * (float)j / (float)n;
}

/* r[i] and p[i]: float32(i) * math.Pi */
static float bg_v(uint64_t i)
{
	return (float)i * 3.14159265f;
}

/*
 * Kernel 1's grid: warp wi of block b owns rows i0..i0+31 and writes them
 * whole (contiguous stores, 32 columns at a time), then its parts of the
 * vectors: each page is homed where kernel 1 uses its rows.
 */
static void bg_init(struct ng_block *b, void *args)
{
	struct bg_args *a = args;
	uint64_t n = a->n;

	for (unsigned int wi = 0; wi < b->nwarps; wi++) {
		float v[NG_WARP], z[NG_WARP] = { 0 };
		struct ng_warp w;
		uint64_t i0;

		ng_warp_get(b, wi, &w);
		if (!wlc_lanes(&w, n, BG_BLOCK, &i0))
			break;
		/* n is a multiple of 32: every warp has 32 lanes */
		for (uint64_t i = i0; i < i0 + w.nlanes; i++)
			for (uint64_t j0 = 0; j0 < n; j0 += NG_WARP) {
				for (unsigned int l = 0; l < NG_WARP; l++)
					v[l] = bg_a(n, i, j0 + l);
				ng_st_contig(&w, a->a + i * n + j0, 4, v);
			}
		for (unsigned int l = 0; l < w.nlanes; l++)
			v[l] = bg_v(i0 + l);
		ng_st_contig(&w, a->p + i0, 4, v);
		ng_st_contig(&w, a->r + i0, 4, v);
		ng_st_contig(&w, a->q + i0, 4, z);
		ng_st_contig(&w, a->s + i0, 4, z);
	}
}

/* bicgKernel1: q[i] = sum_j A[i][j] * p[j], one work-item per row i. */
static void bg_kernel1(struct ng_block *b, void *args)
{
	struct bg_args *a = args;
	uint64_t n = a->n;

	for (unsigned int wi = 0; wi < b->nwarps; wi++) {
		float acc[NG_WARP] = { 0 }, av[NG_WARP], pv;
		uintptr_t addr[NG_WARP];
		struct ng_warp w;
		uint64_t i0;

		ng_warp_get(b, wi, &w);
		if (!wlc_lanes(&w, n, BG_BLOCK, &i0))
			break;
		ng_warp_compute(&w, BG_INSTS_THREAD);
		for (unsigned int l = 0; l < w.nlanes; l++)
			addr[l] = (uintptr_t)(a->a + (i0 + l) * n);
		for (uint64_t j = 0; j < n; j++) {
			ng_ld(&w, addr, 4, av);
			pv = wl_bcast(&w, a->p + j);
			for (unsigned int l = 0; l < w.nlanes; l++) {
				acc[l] += av[l] * pv;
				addr[l] += 4;
			}
			ng_warp_compute(&w, BG_INSTS_ITER);
		}
		ng_st_contig(&w, a->q + i0, 4, acc);
	}
}

/* bicgKernel2: s[j] = sum_i A[i][j] * r[i], one work-item per column j. */
static void bg_kernel2(struct ng_block *b, void *args)
{
	struct bg_args *a = args;
	uint64_t n = a->n;

	for (unsigned int wi = 0; wi < b->nwarps; wi++) {
		float acc[NG_WARP] = { 0 }, av[NG_WARP], rv;
		const float *row;
		struct ng_warp w;
		uint64_t j0;

		ng_warp_get(b, wi, &w);
		if (!wlc_lanes(&w, n, BG_BLOCK, &j0))
			break;
		ng_warp_compute(&w, BG_INSTS_THREAD);
		for (uint64_t i = 0; i < n; i++) {
			row = ng_ld_contig_ref(&w, a->a + i * n + j0, 4, av);
			rv = wl_bcast(&w, a->r + i);
			for (unsigned int l = 0; l < w.nlanes; l++)
				acc[l] += row[l] * rv;
			ng_warp_compute(&w, BG_INSTS_ITER);
		}
		ng_st_contig(&w, a->s + j0, 4, acc);
	}
}

static int bg_alloc(struct wlc *c, struct ng_buf *bufs, struct bg_args *a)
{
	uint64_t n = a->n;
	int ret = wlc_alloc(c, &bufs[0], n * n * 4, -1);

	for (unsigned int k = 1; k < 5 && !ret; k++)
		ret = wlc_alloc(c, &bufs[k], n * 4, -1);
	if (ret)
		return ret;
	a->a = bufs[0].ptr;
	a->p = bufs[1].ptr;
	a->q = bufs[2].ptr;
	a->r = bufs[3].ptr;
	a->s = bufs[4].ptr;
	return 0;
}

/* The timed kernels: bicgKernel1 then bicgKernel2, @o->iters times. */
static int bg_timed(struct wlc *c, struct bg_args *a, unsigned int nblocks)
{
	int ret = 0;

	ng_system_reset_counters(c->sys);
	for (unsigned int it = 0; it < c->o->iters && !ret; it++) {
		ret = pb_launch(c, "bicg-kernel1", bg_kernel1, a, nblocks, 1,
				BG_BLOCK, 1, true);
		if (!ret)
			ret = pb_launch(c, "bicg-kernel2", bg_kernel2, a, nblocks,
					1, BG_BLOCK, 1, true);
	}
	if (!ret)
		wl_collect(c->sys, c->r);
	return ret;
}

/* The CPU reference and the check of q, then s. */
static int bg_verify(struct wlc *c, const struct bg_args *a)
{
	uint64_t n = a->n;
	float *rq = calloc(n, 4), *rs = calloc(n, 4);
	char ok[128];

	if (!rq || !rs) {
		free(rq);
		free(rs);
		ng_seterr(c->err, c->errlen, "bicg: out of memory");
		return -ENOMEM;
	}
	for (uint64_t i = 0; i < n; i++) {
		for (uint64_t j = 0; j < n; j++)
			rq[i] += bg_a(n, i, j) * bg_v(j);
		/* s[j] adds row i's term after rows 0..i-1, as work-item j does */
		for (uint64_t j = 0; j < n; j++)
			rs[j] += bg_a(n, i, j) * bg_v(i);
	}
	snprintf(ok, sizeof(ok),
		 "q = A p and s = A^T r (A %llu x %llu) match the CPU reference",
		 (unsigned long long)n, (unsigned long long)n);
	wl_corrupt_f32(c->o, a->s, n);
	if (wl_check_f32(c->r, "q", a->q, rq, n, 0, 1e-4f, 1e-6f, ok))
		wl_check_f32(c->r, "s", a->s, rs, n, 0, 1e-4f, 1e-6f, ok);
	free(rq);
	free(rs);
	return 0;
}

static int bg_run(struct ng_system *sys, const struct ng_bench_opts *o,
		  struct ng_bench_result *r, char *err, size_t errlen)
{
	struct ng_buf bufs[5] = { 0 };
	struct bg_args a = { 0 };
	unsigned int nblocks;
	struct wlc c;
	int ret;

	wlc_init(&c, sys, o, r, err, errlen);
	ret = pb_side(o->size, "bicg", err, errlen, &a.n);
	if (ret)
		return ret;
	nblocks = (unsigned int)((a.n + BG_BLOCK - 1) / BG_BLOCK);
	ret = bg_alloc(&c, bufs, &a);
	if (ret)
		goto out;
	r->elements = a.n * a.n;
	/* what each kernel must move at least: A once, its two vectors once */
	r->bytes = 2ULL * (a.n * a.n + 2 * a.n) * 4 * o->iters;
	c.total = 2 * o->iters;
	ret = pb_launch(&c, "bicg-init", bg_init, &a, nblocks, 1, BG_BLOCK, 1,
			false);
	if (!ret)
		ret = bg_timed(&c, &a, nblocks);
	if (!ret)
		ret = bg_verify(&c, &a);
out:
	for (unsigned int k = 5; k-- > 0;)
		ng_free(c.sp, &bufs[k]);
	return ret;
}

const struct ng_workload ng_wl_bicg = {
	.name = "bicg",
	.desc = "PolyBench bicg, q = A p and s = A^T r: strided rows, then columns of every GPU's rows",
	.default_size = 4ULL << 20,	/* 1024^2: a block for each of 4 GPUs */
	/* A 4096 x 4096 and the four vectors of 4096 */
	.paper_footprint = (64ULL << 20) + (64ULL << 10),
	.paper_ref = "MGPUSim 2.0.1 samples/bicg default -x 4096 -y 4096 (DualOpt gives no size)",
	.default_iters = 1,
	.narrays = 1,
	.run = bg_run,
};
