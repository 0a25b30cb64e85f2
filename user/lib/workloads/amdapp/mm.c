// SPDX-License-Identifier: GPL-2.0
/*
 * mm: matrix multiplication C = A B, after the AMD APP SDK 3.0 sample
 * MatrixMultiplication as MGPUSim runs it (amd/benchmarks/amdappsdk/
 * matrixmultiplication/MatrixMultiplication_Kernels.cl, mmmKernel_local,
 * and mm.go; benchmarks/amdappsdk/matrixmultiplication/ in MGPUSim 2.x).
 * Square n x n matrices of floats (MGPUSim's X = Y = Z), n a multiple of
 * 32. (PolyBench's product, polybench/matmul.c, has one thread per
 * element and no local memory: a different kernel, not reused here.)
 *
 * Work distribution as MGPUSim's: work-groups of 8 x 8 work-items, each
 * computing a 4 x 4 block of C (four float4 rows: TILEX = TILEY = 4), so
 * the global size is n / 4 x n / 4 and a work-group owns a 32 x 32 tile
 * of C. For each of the n / 32 steps i along k, every work-item copies
 * four float4s of A's 32 x 32 tile (its rows, columns 32 i ..) into local
 * memory (blockA, 4 KiB), the barrier, then for j = 0, 4, .., 28 it reads
 * four float4s of that tile (its four rows, columns j..j+3) and four
 * float4s of B (rows 32 i + j .. + 3, its four columns), adds their
 * products to its 16 sums, and the second barrier. At the end it stores
 * its four float4 rows of C. A warp is four rows of 8 work-items: its A
 * loads and C stores are four runs of 128 bytes, its B loads one run of
 * 128 bytes the same for its four rows of work-items (made here as an
 * 8-lane access, see mm_ld_b()).
 *
 * MGPUSim launches one kernel per GPU over a band of n / 4 / ngpus rows
 * of work-items (its global offset in y); here one launch on the 2-D
 * grid, whose blocks batch scheduling splits into the same row bands. An
 * init kernel with that grid writes the tiles of A, B and C where the
 * kernel's blocks own them (MGPUSim distributes the buffers in row bands
 * as well), so A and C are local and B, read whole by every GPU, mostly
 * remote.
 *
 * Differences: MGPUSim's copy of the kernel indexes A's rows with the
 * local id (lIdY << TILEY_SHIFT), so every work-group would read A's
 * first 32 rows (its check looks at C's first row alone, which is right
 * either way); this uses the global id gIdY, which computes the product
 * the SDK means. Values from the workload's random stream in [0, 1), as
 * MGPUSim's rand.Float32(). Verified against a CPU reference that sums in
 * the kernel's order with the same float operations.
 */
#include <stdlib.h>

#include "workloads/wl.h"

#define MM_LX		8	/* work-group of 8 x 8 (mm.go) */
#define MM_LY		8
#define MM_T		4	/* TILEX, TILEY: a float4 */
#define MM_TILE		(MM_LX * MM_T)	/* 32: C's tile side, A's tile side */
#define MM_SHARED	(MM_TILE * MM_TILE * 4)
#define MM_WARPS	(MM_LX * MM_LY / NG_WARP)
#define MM_WROWS	(NG_WARP / MM_LX)	/* rows of work-items a warp */
/*
 * A work-item's arithmetic. Setup: ids, blockPos, globalPos, temp and
 * numLoops (16); the final four stores and their addresses (8). Per step
 * i: globalPosA (4), four loads and local stores with their addresses
 * (12), globalPosB (3), the barriers (2). Per j: four local loads (4)
 * and their addresses (2), four loads of B and their addresses (8), 64
 * multiply-adds (16 sums of four products) and the loop (3).
 */
#define MM_INSTS_SETUP	24
#define MM_INSTS_STEP	21
#define MM_INSTS_J	81

struct mm_args {
	float *a, *b, *c;
	uint64_t n;
	uint64_t seed;
};

/* A warp's 32 work-items: 16 sums each, sum[r][e] for C's row r, column e */
struct mm_sums {
	float s[NG_WARP][MM_T][MM_T];
};

static float mm_val(uint64_t seed, unsigned int m, uint64_t i, uint64_t j)
{
	return (float)(wlc_hash((seed * 0x3d3d + m) ^ (i << 32) ^ j) >> 40) *
	       (1.0f / 16777216.0f);
}

/*
 * sum += a.x * b0 + a.y * b1 + a.z * b2 + a.w * b3: one component of one
 * row of the kernel's sums, left to right as C and OpenCL evaluate it;
 * the CPU reference calls the same function.
 */
static inline float mm_dot4(float sum, const float *a, float b0, float b1,
			    float b2, float b3)
{
	return sum + (a[0] * b0 + a[1] * b1 + a[2] * b2 + a[3] * b3);
}

/* Lane @l of warp @wi: its (lIdX, lIdY) in the 8 x 8 work-group. */
static unsigned int mm_lx(unsigned int l)
{
	return l % MM_LX;
}

static unsigned int mm_ly(unsigned int wi, unsigned int l)
{
	return wi * MM_WROWS + l / MM_LX;
}

/*
 * Untimed, the kernel's grid: each work-item writes its 4 x 4 blocks of
 * A, B and C (zeros), so every tile is homed on its block's GPU.
 */
static void mm_init(struct ng_block *b, void *p)
{
	const struct mm_args *a = p;
	struct ng_warp w;

	for (unsigned int wi = 0; wi < b->nwarps; wi++) {
		float va[NG_WARP * MM_T], vb[NG_WARP * MM_T], z[NG_WARP * MM_T] = { 0 };
		uintptr_t aa[NG_WARP], ab[NG_WARP], ac[NG_WARP];

		ng_warp_get(b, wi, &w);
		for (unsigned int r = 0; r < MM_T; r++) {
			for (unsigned int l = 0; l < NG_WARP; l++) {
				uint64_t row = (b->idx.y * MM_LY + mm_ly(wi, l)) * MM_T + r;
				uint64_t col = (b->idx.x * MM_LX + mm_lx(l)) * MM_T;
				uint64_t off = row * a->n + col;

				for (unsigned int e = 0; e < MM_T; e++) {
					va[l * MM_T + e] = mm_val(a->seed, 0, row, col + e);
					vb[l * MM_T + e] = mm_val(a->seed, 1, row, col + e);
				}
				aa[l] = (uintptr_t)(a->a + off);
				ab[l] = (uintptr_t)(a->b + off);
				ac[l] = (uintptr_t)(a->c + off);
			}
			ng_st(&w, aa, MM_T * 4, va);
			ng_st(&w, ab, MM_T * 4, vb);
			ng_st(&w, ac, MM_T * 4, z);
		}
	}
}

/*
 * Four float4 rows r = 0..3 of the warp's work-items, at matrix row
 * @row0 + 4 lIdY + r and columns @col0 + 4 lIdX: A's loads and C's stores.
 */
static void mm_addr(const struct ng_warp *w, const float *m, uint64_t n,
		    uint64_t row0, uint64_t col0, unsigned int r,
		    uintptr_t addr[NG_WARP])
{
	for (unsigned int l = 0; l < NG_WARP; l++)
		addr[l] = (uintptr_t)(m + (row0 + mm_ly(w->id, l) * MM_T + r) * n +
				      col0 + mm_lx(l) * MM_T);
}

/*
 * Row @p of B's 32 columns: the warp's four rows of work-items load the
 * same 8 float4s, one run of 128 bytes; made as the 8 lanes of one row,
 * the same requests for the model (as wl_bcast() does for one word).
 */
static const float *mm_ld_b(struct ng_warp *w, const float *p, float *buf)
{
	struct ng_warp t = *w;
	const float *v;

	t.nlanes = MM_LX;
	t.active = (1u << MM_LX) - 1;
	v = ng_ld_contig_ref(&t, p, MM_T * 4, buf);
	w->ready = t.ready;
	return v;
}

/* Step i's copy of A's tile (rows of the block, columns 32 i ..) to blockA. */
static void mm_load_a(struct ng_block *b, struct ng_warp *w,
		      const struct mm_args *a, uint64_t i, float *blk)
{
	float v[NG_WARP * MM_T];
	uintptr_t addr[NG_WARP];

	for (unsigned int wi = 0; wi < b->nwarps; wi++) {
		ng_warp_compute(&w[wi], MM_INSTS_STEP);
		for (unsigned int r = 0; r < MM_T; r++) {
			mm_addr(&w[wi], a->a, a->n, (uint64_t)b->idx.y * MM_TILE,
				i * MM_TILE, r, addr);
			ng_ld(&w[wi], addr, MM_T * 4, v);
			/* blockA[blockPos + r lSizeX]: tile row 4 lIdY + r */
			for (unsigned int l = 0; l < NG_WARP; l++)
				memcpy(blk + (mm_ly(wi, l) * MM_T + r) * MM_TILE +
					       mm_lx(l) * MM_T,
				       v + l * MM_T, MM_T * 4);
		}
	}
}

/* One j of step i for warp @w: B's rows 32 i + j .., blockA's columns j .. */
static void mm_step_j(struct ng_warp *w, const struct mm_args *a,
		      const float *blk, uint64_t kb, unsigned int j,
		      struct mm_sums *s)
{
	float buf[MM_T][MM_TILE];
	const float *bv[MM_T];
	uint64_t col0 = (uint64_t)w->b->idx.x * MM_TILE;

	for (unsigned int q = 0; q < MM_T; q++)
		bv[q] = mm_ld_b(w, a->b + (kb + j + q) * a->n + col0, buf[q]);
	for (unsigned int l = 0; l < NG_WARP; l++) {
		unsigned int x = mm_lx(l) * MM_T, y = mm_ly(w->id, l) * MM_T;

		for (unsigned int r = 0; r < MM_T; r++) {
			const float *ta = blk + (y + r) * MM_TILE + j;

			for (unsigned int e = 0; e < MM_T; e++)
				s->s[l][r][e] = mm_dot4(s->s[l][r][e], ta, bv[0][x + e],
							bv[1][x + e], bv[2][x + e],
							bv[3][x + e]);
		}
	}
	ng_warp_compute(w, MM_INSTS_J);
}

static void mm_kernel(struct ng_block *b, void *p)
{
	const struct mm_args *a = p;
	struct mm_sums s[MM_WARPS];
	struct ng_warp w[MM_WARPS];
	float *blk = b->shared, v[NG_WARP * MM_T];
	uintptr_t addr[NG_WARP];

	memset(s, 0, sizeof(s));
	for (unsigned int wi = 0; wi < MM_WARPS; wi++) {
		ng_warp_get(b, wi, &w[wi]);
		ng_warp_compute(&w[wi], MM_INSTS_SETUP);
	}
	for (uint64_t i = 0; i < a->n / MM_TILE; i++) {
		mm_load_a(b, w, a, i, blk);
		ng_block_sync(b);
		/*
		 * The block's warps go through j together, as its SM issues
		 * them: both read the same rows of B one after the other.
		 */
		for (unsigned int j = 0; j < MM_TILE; j += MM_T)
			for (unsigned int wi = 0; wi < MM_WARPS; wi++)
				mm_step_j(&w[wi], a, blk, i * MM_TILE, j, &s[wi]);
		ng_block_sync(b);
	}
	for (unsigned int wi = 0; wi < MM_WARPS; wi++)
		for (unsigned int r = 0; r < MM_T; r++) {
			for (unsigned int l = 0; l < NG_WARP; l++)
				memcpy(v + l * MM_T, s[wi].s[l][r], MM_T * 4);
			mm_addr(&w[wi], a->c, a->n, (uint64_t)b->idx.y * MM_TILE,
				(uint64_t)b->idx.x * MM_TILE, r, addr);
			ng_st(&w[wi], addr, MM_T * 4, v);
		}
}

static int mm_launch(struct wlc *c, const char *name, ng_kernel_fn fn,
		     struct mm_args *a, bool timed)
{
	unsigned int g = (unsigned int)(a->n / MM_TILE);

	return wlc_launch_2d(c, name, fn, a, (struct ng_dim){ g, g },
			     (struct ng_dim){ MM_LX, MM_LY }, -1, timed);
}

/*
 * The CPU reference: every element of C summed as its work-item does,
 * four products of k = 4 q .. 4 q + 3 at a time, q ascending.
 */
static void mm_ref(const struct mm_args *a, float *ra, float *rb, float *rc)
{
	uint64_t n = a->n;

	for (uint64_t i = 0; i < n; i++)
		for (uint64_t j = 0; j < n; j++) {
			ra[i * n + j] = mm_val(a->seed, 0, i, j);
			rb[j * n + i] = mm_val(a->seed, 1, i, j);	/* B^T */
		}
	for (uint64_t i = 0; i < n; i++)
		for (uint64_t j = 0; j < n; j++) {
			const float *ar = ra + i * n, *bc = rb + j * n;
			float sum = 0;

			for (uint64_t k = 0; k < n; k += MM_T)
				sum = mm_dot4(sum, ar + k, bc[k], bc[k + 1],
					      bc[k + 2], bc[k + 3]);
			rc[i * n + j] = sum;
		}
}

static int mm_verify(struct wlc *c, const struct mm_args *a)
{
	uint64_t nn = a->n * a->n;
	float *ra = malloc(nn * 4), *rb = malloc(nn * 4), *rc = malloc(nn * 4);
	char ok[128];
	int ret = 0;

	if (!ra || !rb || !rc) {
		ng_seterr(c->err, c->errlen, "mm: out of memory");
		ret = -ENOMEM;
		goto out;
	}
	mm_ref(a, ra, rb, rc);
	snprintf(ok, sizeof(ok), "C = A B (%llu x %llu) matches the CPU reference",
		 (unsigned long long)a->n, (unsigned long long)a->n);
	wl_corrupt_f32(c->o, a->c, nn);
	wl_check_f32(c->r, "C", a->c, rc, nn, a->n, 1e-4f, 1e-6f, ok);
out:
	free(ra);
	free(rb);
	free(rc);
	return ret;
}

static int mm_run(struct ng_system *sys, const struct ng_bench_opts *o,
		  struct ng_bench_result *r, char *err, size_t errlen)
{
	struct ng_buf ba = { 0 }, bb = { 0 }, bc = { 0 };
	struct mm_args a = { 0 };
	struct wlc c;
	int ret;

	wlc_init(&c, sys, o, r, err, errlen);
	a.n = wl_isqrt(o->size / 4) / MM_TILE * MM_TILE;
	if (!a.n || a.n / MM_TILE > UINT16_MAX) {
		ng_seterr(err, errlen,
			  "mm: size must hold a %u x %u matrix of floats (%u bytes) at least",
			  MM_TILE, MM_TILE, MM_TILE * MM_TILE * 4);
		return -EINVAL;
	}
	if (c.cfg->shared_bytes < MM_SHARED) {
		ng_seterr(err, errlen,
			  "mm: a block needs %u bytes of shared memory (shared = %llu)",
			  MM_SHARED, (unsigned long long)c.cfg->shared_bytes);
		return -EINVAL;
	}
	a.seed = c.cfg->seed;
	ret = wlc_alloc(&c, &ba, a.n * a.n * 4, -1);
	if (!ret)
		ret = wlc_alloc(&c, &bb, a.n * a.n * 4, -1);
	if (!ret)
		ret = wlc_alloc(&c, &bc, a.n * a.n * 4, -1);
	if (ret)
		goto out;
	a.a = ba.ptr;
	a.b = bb.ptr;
	a.c = bc.ptr;
	r->elements = a.n * a.n;
	/* per work-group and step: A's tile and B's 32 x 32 tile; C once */
	r->bytes = 4ULL * a.n * a.n * (2 * (a.n / MM_TILE) + 1) * o->iters;
	c.total = o->iters;
	ret = mm_launch(&c, "mm-init", mm_init, &a, false);
	if (ret)
		goto out;
	ng_system_reset_counters(sys);
	for (unsigned int it = 0; it < o->iters && !ret; it++)
		ret = mm_launch(&c, "mm", mm_kernel, &a, true);
	if (ret)
		goto out;
	wl_collect(sys, r);
	ret = mm_verify(&c, &a);
out:
	ng_free(c.sp, &bc);
	ng_free(c.sp, &bb);
	ng_free(c.sp, &ba);
	return ret;
}

const struct ng_workload ng_wl_mm = {
	.name = "mm",
	.desc = "matrix multiplication (AMD APP SDK MatrixMultiplication): 4x4 per work-item, A's tiles in local memory",
	.default_size = 1ULL << 20,	/* 512^2: 256 groups, 64 per GPU */
	.paper_footprint = 3 * (16ULL << 10),	/* three 64 x 64 matrices */
	.paper_ref = "MGPUSim 2.0.1 samples/matrixmultiplication default -x 64 -y 64 -z 64 (DualOpt gives no size)",
	.default_iters = 1,
	.narrays = 3,
	.run = mm_run,
};
