// SPDX-License-Identifier: GPL-2.0
/*
 * spmv: y = A x, repeated, after SHOC's Spmv "CSR-Vector" kernel
 * (src/cuda/level1/spmv/Spmv.cu, spmv_csr_vector_kernel; spmv.cl's
 * OpenCL one takes the row's width, vecWidth, as an argument and puts a
 * barrier after each step of the tree). A is a square CSR matrix: val and
 * cols per nonzero, rowDelimiters per row (rows + 1 of them, SHOC's
 * ints). Blocks of 128 threads (SHOC's BLOCK_SIZE) give each row a
 * wavefront: its lanes stride over the row's nonzeros, each summing
 * val[j] * x[cols[j]], then the wavefront adds its lanes' sums in shared
 * memory as SHOC's tree does (lanes < 16 add lane + 16's, then 8, 4, 2,
 * 1) and lane 0 writes y[row]. The loads depend on each other as in
 * SHOC: the row's two delimiters, then its cols and vals, then x[cols].
 *
 * The matrix is SHOC's random one (util.h, initRandomMatrix): dim x dim
 * with dim * dim / 100 nonzeros, every position taken with probability
 * 1% in row-major order (so each row's columns are sorted), no more once
 * that many are taken, and all the last ones if the draws fall short;
 * values and x uniform in [0, 10) (SHOC's fill() with maxval 10). So the
 * draws' shortfall, about sqrt(nonzeros) half the time, lands on the last
 * row, and a surplus leaves the last rows empty: SHOC's own matrices
 * (drand48 from 8675309) end in a row of 936 nonzeros at dim 8192 (the
 * mean is 82) and of 382 at 16384 (164), and seed 1 here in one of 964
 * at dim 7240 (72). That row's wavefront, 31 trips of dependent loads,
 * then sets the end of a kernel this small, on a GPU as in the model.
 *
 * Where ngemu differs: the draws come from the seed (SHOC: drand48 from
 * a fixed seed, values from rand()). --size is the bytes of val (and of
 * cols): dim is the largest whose 1% fits, 7240 for the default 2 MiB (72
 * nonzeros a row, x 28 KiB); SHOC's four sizes are dim 1024, 8192, 12288
 * and 16384. 4 launches by default (SHOC: 100 a pass, 10 passes; each
 * computes the same y). x is read with plain loads, as the OpenCL version
 * without USE_TEXTURE (CUDA's reads it through the texture cache). A
 * row's lanes are a wavefront's, warp-width of them: CUDA's warpSize, 32,
 * under the NVIDIA presets, and 64 under GCN's (two warps of the kernel
 * API, 2 rows a block; the tree starts with lane + 32), as the OpenCL
 * version makes vecWidth the device's wavefront. The reduction is the
 * CUDA version's, warp-synchronous: no barrier, its shared-memory steps
 * counted as instructions (the OpenCL version's barriers would wait for
 * nothing: every load has been consumed by then). y must equal the CPU's
 * to the bit (SHOC allows 2%): the reference adds the same products in
 * the kernel's order. MGPUSim, DualOpt's simulator, launches SHOC's
 * CSR-Scalar kernel instead (a thread per row, work-groups of 128) on a
 * matrix of its own generator: not modeled.
 *
 * Placement: an untimed kernel with the compute kernel's grid writes
 * what each block reads of its own, its rows' delimiters, cols, vals and
 * y, and x for the same rows, so first touch homes a GPU's rows and
 * that part of x with it. x is read by every GPU, 3/4 of it remote on 4
 * GPUs; being small beside A, it stays in the caches.
 */
#include <stdlib.h>

#include "workloads/wl.h"

#define SP_BLOCK	128	/* SHOC's BLOCK_SIZE */
#define SP_WARPS	(SP_BLOCK / NG_WARP)
#define SP_FILL		100	/* nItems = numRows * numRows / 100 */
#define SP_MAXVAL	10.0f	/* SHOC's --maxval */
/*
 * Warp instructions, per thread. The row: threadIdx, blockIdx and the
 * lane and row from them (6), the bound test (2), the delimiters'
 * address (2), then the first j and a zero sum (2). A loop trip: the
 * col, val and x addresses (3), the multiply-add (1), j += warpSize and
 * the loop's test and branch (3). The reduction: the partial sum's store
 * (2), per tree step the lane test, two shared loads, the add and the
 * store (5), then lane 0's test, its load and y's address (4). A warp
 * past the last row: its index and the bound test (8).
 */
#define SP_INSTS_ROW	12
#define SP_INSTS_TRIP	7
#define SP_INSTS_SUM(lg)	(6 + 5 * (lg))
#define SP_INSTS_IDLE	8

struct sp_args {
	float *x, *val, *y;
	uint32_t *cols, *rd;		/* rd: SHOC's rowDelimiters */
	const uint32_t *hcols, *hrd;	/* the generator's, on the host */
	uint64_t rows, nnz;
	uint64_t sval, sx;		/* the values' streams */
	unsigned int vec;		/* lanes a row: the wavefront's */
};

/*
 * SHOC's fill(): uniform in [0, maxval). Each stream starts at a hash of
 * the seed, so that another seed's stream is not this one shifted.
 */
static float sp_u(uint64_t base, uint64_t i)
{
	return (float)(wlc_hash(base + i) >> 40) * (SP_MAXVAL / 16777216.0f);
}

static float sp_val(const struct sp_args *a, uint64_t j)
{
	return sp_u(a->sval, j);
}

static float sp_x(const struct sp_args *a, uint64_t i)
{
	return sp_u(a->sx, i);
}

/*
 * SHOC's initRandomMatrix(): position (i, j) taken when its draw is at
 * most prob (drand48() <= prob, here the seed's stream against prob as a
 * 64-bit fraction) while fewer than n are taken, and every position from
 * the one where as many are left as still wanted.
 */
static void sp_matrix(uint64_t seed, uint64_t dim, uint64_t n, uint32_t *cols,
		      uint32_t *rd)
{
	double prob = (double)n / ((double)dim * (double)dim);
	uint64_t thr = prob >= 1 ? UINT64_MAX : (uint64_t)(prob * 0x1p64);
	uint64_t k = 0, left = dim * dim, base = wlc_hash(seed * 3 + 1);
	bool rest = false;

	for (uint64_t i = 0; i < dim; i++) {
		rd[i] = (uint32_t)k;
		for (uint64_t j = 0; j < dim; j++, left--) {
			if (left <= n - k)
				rest = true;
			if (rest || (k < n && wlc_hash(base + i * dim + j) <= thr))
				cols[k++] = (uint32_t)j;
		}
	}
	rd[dim] = (uint32_t)n;
}

/*
 * Lanes [0, n) of @w: those a loop's bound leaves active. Accesses go
 * through this copy; sp_back() then hands its arrival time and operation
 * count to @w, so that @w's waits and a wavefront's pairing see them.
 */
static struct ng_warp sp_lanes(const struct ng_warp *w, unsigned int n)
{
	struct ng_warp t = *w;

	t.nlanes = n;
	t.active = n == NG_WARP ? ~0u : (1u << n) - 1;
	return t;
}

static void sp_back(struct ng_warp *w, const struct ng_warp *t)
{
	w->ready = t->ready;
	w->seq = t->seq;
}

/* Lanes [0, n) of @w load n words at @p (n 1: all lanes read one word). */
static const void *sp_ld(struct ng_warp *w, unsigned int n, const void *p,
			 void *buf)
{
	struct ng_warp t = sp_lanes(w, n);
	const void *v = ng_ld_contig_ref(&t, p, 4, buf);

	sp_back(w, &t);
	return v;
}

static void sp_st(struct ng_warp *w, unsigned int n, void *p, const void *buf)
{
	struct ng_warp t = sp_lanes(w, n);

	ng_st_contig(&t, p, 4, buf);
	sp_back(w, &t);
}

/* The first row of block @b, and how many it has. */
static unsigned int sp_rows(const struct sp_args *a, const struct ng_block *b,
			    uint64_t *r0)
{
	uint64_t per = SP_BLOCK / a->vec;

	*r0 = b->id * per;
	return (unsigned int)(a->rows - *r0 < per ? a->rows - *r0 : per);
}

/*
 * Untimed, with the kernel's grid: the block's rows' delimiters, x and
 * y (zero) by its first warp, then each row's cols and vals by the lanes
 * that will read them.
 */
static void sp_init(struct ng_block *b, void *p)
{
	const struct sp_args *a = p;
	float xv[NG_WARP], z[NG_WARP] = { 0 };
	unsigned int nr;
	struct ng_warp w;
	uint64_t r0;

	nr = sp_rows(a, b, &r0);
	ng_warp_get(b, 0, &w);
	for (unsigned int l = 0; l < nr; l++)
		xv[l] = sp_x(a, r0 + l);
	/* the last block writes the final delimiter too */
	sp_st(&w, nr + (r0 + nr == a->rows), a->rd + r0, a->hrd + r0);
	sp_st(&w, nr, a->x + r0, xv);
	sp_st(&w, nr, a->y + r0, z);
	for (unsigned int wi = 0; wi < b->nwarps; wi++) {
		uint64_t row = r0 + wi * NG_WARP / a->vec;
		unsigned int off = wi * NG_WARP % a->vec;

		if (row >= a->rows)
			break;
		ng_warp_get(b, wi, &w);
		for (uint64_t j = a->hrd[row] + off; j < a->hrd[row + 1]; j += a->vec) {
			unsigned int n = (unsigned int)(a->hrd[row + 1] - j < NG_WARP ?
							a->hrd[row + 1] - j : NG_WARP);
			float v[NG_WARP];

			for (unsigned int l = 0; l < n; l++)
				v[l] = sp_val(a, j + l);
			sp_st(&w, n, a->cols + j, a->hcols + j);
			sp_st(&w, n, a->val + j, v);
		}
	}
}

/* A warp's part of its row: the wavefront's loop over [beg, end). */
struct sp_warp {
	struct ng_warp w;
	uint32_t beg, end;	/* the row's nonzeros */
	unsigned int off;	/* its first lane in the row: 0 or 32 */
	unsigned int trips;	/* the wavefront's loop trips */
	unsigned int n;		/* its lanes in this trip */
	const uint32_t *cc;
	const float *vv;
	uint32_t bc[NG_WARP];
	float bv[NG_WARP], bx[NG_WARP], sum[NG_WARP];
};

/*
 * The block's warps go through each phase in turn, every warp's loads of
 * a phase issued before the first waits for its own: the delimiters,
 * then each loop trip's cols and vals, then its x[cols] once the cols are
 * in. A trip's multiply-add needs x, and the next trip's loads come after
 * it in each warp's program, so each trip waits for its x. A wavefront
 * loops while any of its lanes has nonzeros left, so both halves of a
 * 64-lane row count its trips' instructions.
 */
static void sp_kernel(struct ng_block *b, void *p)
{
	const struct sp_args *a = p;
	struct sp_warp sw[SP_WARPS];
	unsigned int lg = (unsigned int)__builtin_ctz(a->vec), nw = 0, most = 0;
	float *sh = b->shared;
	uint64_t r0;

	(void)sp_rows(a, b, &r0);
	for (unsigned int wi = 0; wi < b->nwarps; wi++) {
		struct sp_warp *s = &sw[wi];
		uint64_t row = r0 + wi * NG_WARP / a->vec;
		uint32_t d[2];

		ng_warp_get(b, wi, &s->w);
		if (row >= a->rows) {
			ng_warp_compute(&s->w, SP_INSTS_IDLE);
			continue;
		}
		nw = wi + 1;
		s->off = wi * NG_WARP % a->vec;
		ng_warp_compute(&s->w, SP_INSTS_ROW);
		/* rowDelimiters[myRow], then [myRow + 1]: every lane the same word */
		d[0] = *(const uint32_t *)sp_ld(&s->w, 1, a->rd + row, &s->bc[0]);
		d[1] = *(const uint32_t *)sp_ld(&s->w, 1, a->rd + row + 1, &s->bc[1]);
		s->beg = d[0];
		s->end = d[1];
	}
	for (unsigned int wi = 0; wi < nw; wi++) {
		struct sp_warp *s = &sw[wi];

		ng_warp_wait(&s->w);
		s->trips = (s->end - s->beg + a->vec - 1) / a->vec;
		if (s->trips > most)
			most = s->trips;
		memset(s->sum, 0, sizeof(s->sum));
	}
	for (unsigned int k = 0; k < most; k++) {
		for (unsigned int wi = 0; wi < nw; wi++) {
			struct sp_warp *s = &sw[wi];
			uint64_t j = s->beg + (uint64_t)k * a->vec + s->off;

			s->n = 0;
			if (k >= s->trips)
				continue;
			ng_warp_compute(&s->w, SP_INSTS_TRIP);
			if (j >= s->end)
				continue;
			s->n = (unsigned int)(s->end - j < NG_WARP ? s->end - j : NG_WARP);
			s->cc = sp_ld(&s->w, s->n, a->cols + j, s->bc);
			s->vv = sp_ld(&s->w, s->n, a->val + j, s->bv);
		}
		for (unsigned int wi = 0; wi < nw; wi++) {
			struct sp_warp *s = &sw[wi];
			uintptr_t addr[NG_WARP];
			struct ng_warp t;

			if (!s->n)
				continue;
			/* x[col] needs the cols */
			ng_warp_wait(&s->w);
			for (unsigned int l = 0; l < s->n; l++)
				addr[l] = (uintptr_t)&a->x[s->cc[l]];
			t = sp_lanes(&s->w, s->n);
			ng_ld(&t, addr, 4, s->bx);
			sp_back(&s->w, &t);
		}
		for (unsigned int wi = 0; wi < nw; wi++) {
			struct sp_warp *s = &sw[wi];

			if (!s->n)
				continue;
			ng_warp_wait(&s->w);
			for (unsigned int l = 0; l < s->n; l++)
				s->sum[l] += s->vv[l] * s->bx[l];
		}
	}
	/* partialSums[t] = mySum, by every warp before any row's tree */
	for (unsigned int wi = 0; wi < nw; wi++)
		memcpy(sh + wi * NG_WARP, sw[wi].sum, sizeof(sw[wi].sum));
	for (unsigned int wi = 0; wi < nw; wi++) {
		struct sp_warp *s = &sw[wi];
		float *ps = sh + wi * NG_WARP;

		ng_warp_compute(&s->w, SP_INSTS_SUM(lg));
		if (s->off)
			continue;
		for (unsigned int h = a->vec / 2; h; h /= 2)
			for (unsigned int l = 0; l < h; l++)
				ps[l] += ps[l + h];
		wl_st1(&s->w, 0, a->y + r0 + wi * NG_WARP / a->vec, ps[0]);
	}
}

/* The kernel's sums on the CPU: per lane in trip order, then SHOC's tree. */
static void sp_ref(const struct sp_args *a, float *want)
{
	float s[64] = { 0 };

	for (uint64_t i = 0; i < a->rows; i++) {
		for (unsigned int l = 0; l < a->vec; l++) {
			s[l] = 0;
			for (uint64_t j = a->hrd[i] + l; j < a->hrd[i + 1]; j += a->vec)
				s[l] += sp_val(a, j) * sp_x(a, a->hcols[j]);
		}
		for (unsigned int h = a->vec / 2; h; h /= 2)
			for (unsigned int l = 0; l < h; l++)
				s[l] += s[l + h];
		want[i] = s[0];
	}
}

static int sp_run(struct ng_system *sys, const struct ng_bench_opts *o,
		  struct ng_bench_result *r, char *err, size_t errlen)
{
	struct wlc c;
	struct ng_buf bx = { 0 }, bv = { 0 }, bc = { 0 }, brd = { 0 }, by = { 0 };
	struct sp_args a = { 0 };
	uint32_t *hcols = NULL, *hrd = NULL;
	float *want = NULL;
	uint64_t nblocks;
	char ok[160];
	int ret;

	wlc_init(&c, sys, o, r, err, errlen);
	a.rows = wl_isqrt(o->size / 4 * SP_FILL);
	a.nnz = a.rows * a.rows / SP_FILL;
	a.sval = wlc_hash(c.cfg->seed * 3 + 2);
	a.sx = wlc_hash(c.cfg->seed * 3 + 3);
	a.vec = c.cfg->warp_width == 64 ? 64 : NG_WARP;
	if (a.nnz < 1024 || a.nnz > INT32_MAX) {
		ng_seterr(err, errlen, "spmv: size must hold 1024 to 2^31 - 1 nonzeros (4 KiB to 8 GiB of values)");
		return -EINVAL;
	}
	if (c.cfg->shared_bytes < SP_BLOCK * 4) {
		ng_seterr(err, errlen, "spmv: a block needs %u bytes of shared memory (shared = %llu)",
			  SP_BLOCK * 4, (unsigned long long)c.cfg->shared_bytes);
		return -EINVAL;
	}
	nblocks = (a.rows * a.vec + SP_BLOCK - 1) / SP_BLOCK;
	hcols = malloc(a.nnz * 4);
	hrd = malloc((a.rows + 1) * 4);
	want = malloc(a.rows * 4);
	if (!hcols || !hrd || !want) {
		ret = -ENOMEM;
		ng_seterr(err, errlen, "spmv: out of memory");
		goto out;
	}
	sp_matrix(c.cfg->seed, a.rows, a.nnz, hcols, hrd);
	a.hcols = hcols;
	a.hrd = hrd;
	ret = wlc_alloc(&c, &bv, a.nnz * 4, -1);
	if (!ret)
		ret = wlc_alloc(&c, &bc, a.nnz * 4, -1);
	if (!ret)
		ret = wlc_alloc(&c, &brd, (a.rows + 1) * 4, -1);
	if (!ret)
		ret = wlc_alloc(&c, &bx, a.rows * 4, -1);
	if (!ret)
		ret = wlc_alloc(&c, &by, a.rows * 4, -1);
	if (ret)
		goto out;
	a.val = bv.ptr;
	a.cols = bc.ptr;
	a.rd = brd.ptr;
	a.x = bx.ptr;
	a.y = by.ptr;
	r->elements = a.nnz;
	/* val, cols and x per nonzero; two delimiters and y per row */
	r->bytes = (a.nnz + a.rows) * 12ULL * o->iters;
	c.total = o->iters;
	ret = wlc_launch(&c, "spmv-init", sp_init, &a, nblocks, SP_BLOCK, -1, false);
	if (ret)
		goto out;
	ng_system_reset_counters(sys);
	for (unsigned int it = 0; it < o->iters; it++) {
		ret = wlc_launch(&c, "spmv", sp_kernel, &a, nblocks, SP_BLOCK, -1,
				 true);
		if (ret)
			goto out;
	}
	wl_collect(sys, r);
	sp_ref(&a, want);
	snprintf(ok, sizeof(ok),
		 "y = A x for %llu rows, %llu nonzeros, %u lanes a row matches the CPU reference",
		 (unsigned long long)a.rows, (unsigned long long)a.nnz, a.vec);
	wl_corrupt_f32(o, a.y, a.rows);
	/* the same products added in the same order: equal to the bit */
	wl_check_f32(r, "y", a.y, want, a.rows, 0, 0, 0, ok);
out:
	free(want);
	free(hrd);
	free(hcols);
	ng_free(c.sp, &by);
	ng_free(c.sp, &bx);
	ng_free(c.sp, &brd);
	ng_free(c.sp, &bc);
	ng_free(c.sp, &bv);
	return ret;
}

const struct ng_workload ng_wl_spmv = {
	.name = "spmv",
	.desc = "sparse matrix x vector (SHOC CSR-vector): a wavefront per row of a 1% random matrix, repeated",
	.default_size = 2ULL << 20,
	.default_iters = 4,
	.narrays = 2,
	.run = sp_run,
};
