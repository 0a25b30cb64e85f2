// SPDX-License-Identifier: GPL-2.0
/*
 * hotspot: Rodinia's HotSpot (cuda/hotspot/hotspot.cu, calculate_temp
 * and compute_tran_temp), the transient thermal simulation of a chip: a
 * grid of cells, each step
 *
 *   t' = t + step/Cap (p + (t_S + t_N - 2.0 t) / Ry + (t_E + t_W - 2.0 t) / Rx
 *                        + (amb_temp - t) / Rz)
 *
 * with a cell's missing neighbours at the grid's edges replaced by the
 * cell itself. As Rodinia runs it: 16 x 16 thread blocks (BLOCK_SIZE)
 * over a square grid, with the pyramid (temporal blocking). A block
 * loads a 16 x 16 tile of the temperatures and of the power map into
 * shared memory (temp_on_cuda, power_on_cuda; only the cells inside the
 * grid), waits at a barrier, then computes pyramid_height steps in
 * shared memory: in step i the threads with tx and ty in [i + 1, 14 - i]
 * (and inside the grid) compute the cell into temp_t, a barrier, then
 * copy it back into temp_on_cuda, another barrier (none after the last
 * step). The tile's ring of pyramid_height cells is thus recomputed by
 * the neighbouring blocks: a block writes only its inner small block of
 * BLOCK_SIZE - 2 pyramid_height * EXPAND_RATE / 2 cells a side (Rodinia's
 * small_block_rows, 12 at its pyramid_height 2), so the grid has
 * ceil(cols / 12) x ceil(rows / 12) blocks whose tiles start at
 * 12 bx - borderCols, and the threads of the last step's range store
 * temp_t to temp_dst. compute_tran_temp swaps the two temperature arrays
 * between launches; a launch runs MIN(pyramid_height, steps left) steps
 * (a last launch of one step takes its tile at 14 bx - borderCols, as
 * Rodinia's kernel does, and still covers the grid). The constants are
 * compute_tran_temp's, from the chip's size (16 x 16 mm, 0.5 mm thick)
 * and the grid's: Cap, Rx, Ry and Rz per cell, step = PRECISION /
 * max_slope, amb_temp 80; calculate_temp's step/Cap and 1/R in float.
 * The 2.0 in the update is a double, so the update is computed in double
 * and rounded to float, as the CUDA source says.
 *
 * Where ngemu differs: the initial temperatures and power are drawn
 * from the seed (Rodinia reads them from its temp_N and power_N files):
 * uniform in [323, 343) K and [0, 1) mW. --size is the bytes of each of
 * the three arrays: the grid is the largest square that fits, 1024 x
 * 1024 for the default 4 MiB (the size of Rodinia's temp_1024). --iters
 * is the number of time steps (Rodinia's sim_time), 32 by default: 16
 * kernels at pyramid_height 2 (Rodinia's run script: pyramid_height 2,
 * sim_time 2, a 512 grid). The explicit step is stable while step/Cap/Rx
 * is at most 1/4, up to about 1386 cells a side; on larger grids (--size
 * paper: ScaleGPU's 48 MB, 2048 x 2048) the values grow from step to
 * step as in Rodinia's CUDA version (its OpenMP version divides step by
 * 1000), which changes nothing in the accesses. The result must equal
 * the CPU's bit for bit: the reference, a step over the whole grid at a
 * time as the OpenMP version's single_iteration loops
 * (openmp/hotspot/hotspot_openmp.cpp) but with the CUDA kernel's edges,
 * computes each cell with the same function in the same order;
 * the compiler fuses no multiply-add (nvcc would, so Rodinia's own GPU
 * result differs from its CPU one in the last bits). Each warp's
 * instructions are counted per phase: its threads' indices and range
 * tests, the load addresses, per step the range test and, when any of
 * its lanes computes, the update's shared-memory loads and arithmetic,
 * the copy back, the store.
 *
 * Placement: an untimed kernel with the compute grid writes each block's
 * small block of the three arrays (the cells it stores), so first touch
 * homes a GPU's band of block rows with it, and the power map with the
 * temperatures (Rodinia copies both to the device before its first
 * kernel; a NUMA-GPU runs that program as one GPU). Only a tile's halo
 * rows, pyramid_height of them above and below, cross to a neighbouring
 * GPU's band, read-write shared (the home rewrites them in every
 * kernel); the power map's halo rows are read-only shared.
 */
#include <math.h>
#include <stdlib.h>

#include "workloads/wl.h"

#define HS_B		16	/* BLOCK_SIZE */
#define HS_WARPS	(HS_B * HS_B / NG_WARP)
#define HS_PYRAMID	2	/* pyramid_height, Rodinia's run script */
#define HS_EXPAND	2	/* EXPAND_RATE */
#define HS_BORDER	(HS_PYRAMID * HS_EXPAND / 2)
#define HS_SMALL(it)	(HS_B - (it) * HS_EXPAND)
/* temp_on_cuda, power_on_cuda and temp_t */
#define HS_SHARED	(3 * HS_B * HS_B * 4)

/* compute_tran_temp's chip (hotspot.cu's defines and globals) */
#define HS_MAX_PD	3.0e6
#define HS_PRECISION	0.001
#define HS_SPEC_HEAT_SI	1.75e6
#define HS_K_SI		100
#define HS_FACTOR_CHIP	0.5
static const float hs_t_chip = 0.0005f, hs_chip_height = 0.016f;
static const float hs_chip_width = 0.016f, hs_amb_temp = 80.0f;

/*
 * Warp instructions, per thread. Before the loads: step/Cap and the three
 * 1/R (4), the small block, the tile's corners, the thread's cell and its
 * index (10), the range test and the two addresses (6). After the first
 * barrier: the valid range (12) and the clamped N, S, W, E (8). A step:
 * the loop and the range tests (10); the update when a lane computes: six
 * shared loads, the double arithmetic with its conversions (22), the
 * store to temp_t (1). The copy: the last-step test, computed, a load and
 * a store (4). The end: computed, the address, the store (3).
 */
#define HS_INSTS_LOAD	20
#define HS_INSTS_RANGE	20
#define HS_INSTS_TEST	10
#define HS_INSTS_CELL	29
#define HS_INSTS_COPY	4
#define HS_INSTS_STORE	3

/* calculate_temp's constants, as it computes them from its arguments */
struct hs_consts {
	float sdc;			/* step_div_Cap */
	float rx1, ry1, rz1;		/* Rx_1, Ry_1, Rz_1 */
	float amb;
};

struct hs_args {
	float *src, *dst, *pw;		/* MatrixTemp[src], [dst], MatrixPower */
	struct hs_consts k;
	int cols, rows;
	int iteration;			/* this launch's steps */
	uint64_t stemp, spow;		/* the inputs' streams */
};

static float hs_u(uint64_t base, uint64_t i)
{
	return (float)(wlc_hash(base + i) >> 40) * (1.0f / 16777216.0f);
}

static float hs_t0(const struct hs_args *a, uint64_t i)
{
	return 323.0f + 20.0f * hs_u(a->stemp, i);
}

static float hs_p0(const struct hs_args *a, uint64_t i)
{
	return 1e-3f * hs_u(a->spow, i);
}

/* compute_tran_temp's Cap, Rx, Ry, Rz and step, then calculate_temp's */
static void hs_constants(struct hs_consts *k, int cols, int rows)
{
	float grid_height = hs_chip_height / rows;
	float grid_width = hs_chip_width / cols;
	float cap = HS_FACTOR_CHIP * HS_SPEC_HEAT_SI * hs_t_chip * grid_width *
		    grid_height;
	float rx = grid_width / (2.0 * HS_K_SI * hs_t_chip * grid_height);
	float ry = grid_height / (2.0 * HS_K_SI * hs_t_chip * grid_width);
	float rz = hs_t_chip / (HS_K_SI * grid_height * grid_width);
	float max_slope = HS_MAX_PD / (HS_FACTOR_CHIP * hs_t_chip * HS_SPEC_HEAT_SI);
	float step = HS_PRECISION / max_slope;

	k->sdc = step / cap;
	k->rx1 = 1 / rx;
	k->ry1 = 1 / ry;
	k->rz1 = 1 / rz;
	k->amb = hs_amb_temp;
}

/* One cell's step, as calculate_temp writes it (2.0: a double). */
static float hs_cell(const struct hs_consts *k, float c, float n, float s,
		     float e, float w, float p)
{
	return (float)(c + k->sdc * (p + (s + n - 2.0 * c) * k->ry1 +
				     (e + w - 2.0 * c) * k->rx1 +
				     (k->amb - c) * k->rz1));
}

/* The block's tile: its top-left cell, and the part of it in the grid. */
struct hs_tile {
	int y0, x0;			/* blkY, blkX */
	int ymin, ymax, xmin, xmax;	/* validYmin .. validXmax */
};

static void hs_tile(const struct hs_args *a, const struct ng_block *b,
		    int iteration, struct hs_tile *t)
{
	int small = HS_SMALL(iteration);

	t->y0 = small * (int)b->idx.y - HS_BORDER;
	t->x0 = small * (int)b->idx.x - HS_BORDER;
	t->ymin = t->y0 < 0 ? -t->y0 : 0;
	t->ymax = t->y0 + HS_B - 1 > a->rows - 1 ? a->rows - 1 - t->y0 : HS_B - 1;
	t->xmin = t->x0 < 0 ? -t->x0 : 0;
	t->xmax = t->x0 + HS_B - 1 > a->cols - 1 ? a->cols - 1 - t->x0 : HS_B - 1;
}

static bool hs_in(int v, int lo, int hi)
{
	return v >= lo && v <= hi;
}

/* Lanes @mask of @w load a float each at addr[lane] into buf[lane]. */
static void hs_ld(struct ng_warp *w, uint32_t mask, const uintptr_t *addr,
		  float *buf)
{
	uint32_t all = w->active;

	w->active = mask;
	ng_ld(w, addr, 4, buf);
	w->active = all;
}

static void hs_st(struct ng_warp *w, uint32_t mask, const uintptr_t *addr,
		  const float *buf)
{
	uint32_t all = w->active;

	w->active = mask;
	ng_st(w, addr, 4, buf);
	w->active = all;
}

/*
 * Untimed, with the compute grid: each block writes the cells it will
 * store, its small block, of the temperatures (both arrays) and power.
 */
static void hs_init(struct ng_block *b, void *p)
{
	const struct hs_args *a = p;
	struct hs_tile t;

	hs_tile(a, b, HS_PYRAMID, &t);
	for (unsigned int wi = 0; wi < b->nwarps; wi++) {
		uintptr_t at[NG_WARP], ap[NG_WARP], ao[NG_WARP];
		float vt[NG_WARP], vp[NG_WARP];
		uint32_t mask = 0;
		struct ng_warp w;

		ng_warp_get(b, wi, &w);
		for (unsigned int l = 0; l < w.nlanes; l++) {
			int ty = (int)(w.tid0 + l) / HS_B, tx = (int)(w.tid0 + l) % HS_B;
			uint64_t i;

			if (!hs_in(ty, HS_PYRAMID, HS_B - 1 - HS_PYRAMID) ||
			    !hs_in(tx, HS_PYRAMID, HS_B - 1 - HS_PYRAMID) ||
			    !hs_in(ty, t.ymin, t.ymax) || !hs_in(tx, t.xmin, t.xmax))
				continue;
			i = (uint64_t)(t.y0 + ty) * (uint64_t)a->cols +
			    (uint64_t)(t.x0 + tx);
			at[l] = (uintptr_t)&a->src[i];
			ao[l] = (uintptr_t)&a->dst[i];
			ap[l] = (uintptr_t)&a->pw[i];
			vt[l] = hs_t0(a, i);
			vp[l] = hs_p0(a, i);
			mask |= 1u << l;
		}
		if (!mask)
			continue;
		hs_st(&w, mask, at, vt);
		hs_st(&w, mask, ao, vt);
		hs_st(&w, mask, ap, vp);
	}
}

/* calculate_temp */
static void hs_kernel(struct ng_block *b, void *p)
{
	const struct hs_args *a = p;
	float (*tc)[HS_B] = b->shared;		/* temp_on_cuda */
	float (*pc)[HS_B] = tc + HS_B;		/* power_on_cuda */
	float (*tt)[HS_B] = pc + HS_B;		/* temp_t */
	float bt[HS_WARPS][NG_WARP], bp[HS_WARPS][NG_WARP];
	uint32_t in[HS_WARPS], done[HS_WARPS] = { 0 };	/* loaded, computed */
	struct ng_warp w[HS_WARPS];
	struct hs_tile t;

	hs_tile(a, b, a->iteration, &t);
	/* each thread loads its cell of the tile, if it is in the grid */
	for (unsigned int wi = 0; wi < HS_WARPS; wi++) {
		uintptr_t at[NG_WARP], ap[NG_WARP];

		ng_warp_get(b, wi, &w[wi]);
		ng_warp_compute(&w[wi], HS_INSTS_LOAD);
		in[wi] = 0;
		for (unsigned int l = 0; l < NG_WARP; l++) {
			int ty = (int)(w[wi].tid0 + l) / HS_B;
			int tx = (int)(w[wi].tid0 + l) % HS_B;
			uint64_t i;

			if (!hs_in(ty, t.ymin, t.ymax) || !hs_in(tx, t.xmin, t.xmax))
				continue;
			i = (uint64_t)(t.y0 + ty) * (uint64_t)a->cols +
			    (uint64_t)(t.x0 + tx);
			at[l] = (uintptr_t)&a->src[i];
			ap[l] = (uintptr_t)&a->pw[i];
			in[wi] |= 1u << l;
		}
		if (!in[wi])
			continue;
		hs_ld(&w[wi], in[wi], at, bt[wi]);
		hs_ld(&w[wi], in[wi], ap, bp[wi]);
	}
	for (unsigned int wi = 0; wi < HS_WARPS; wi++) {
		if (!in[wi])
			continue;
		ng_warp_wait(&w[wi]);
		for (uint32_t m = in[wi]; m; m &= m - 1) {
			unsigned int l = (unsigned int)__builtin_ctz(m);
			unsigned int ty = (w[wi].tid0 + l) / HS_B;
			unsigned int tx = (w[wi].tid0 + l) % HS_B;

			tc[ty][tx] = bt[wi][l];
			pc[ty][tx] = bp[wi][l];
		}
	}
	ng_block_sync(b);
	for (unsigned int wi = 0; wi < HS_WARPS; wi++)
		ng_warp_compute(&w[wi], HS_INSTS_RANGE);
	for (int i = 0; i < a->iteration; i++) {
		for (unsigned int wi = 0; wi < HS_WARPS; wi++) {
			done[wi] = 0;
			ng_warp_compute(&w[wi], HS_INSTS_TEST);
			for (unsigned int l = 0; l < NG_WARP; l++) {
				int ty = (int)(w[wi].tid0 + l) / HS_B;
				int tx = (int)(w[wi].tid0 + l) % HS_B;
				int n = ty - 1 < t.ymin ? t.ymin : ty - 1;
				int s = ty + 1 > t.ymax ? t.ymax : ty + 1;
				int we = tx - 1 < t.xmin ? t.xmin : tx - 1;
				int e = tx + 1 > t.xmax ? t.xmax : tx + 1;

				if (!hs_in(tx, i + 1, HS_B - i - 2) ||
				    !hs_in(ty, i + 1, HS_B - i - 2) ||
				    !hs_in(tx, t.xmin, t.xmax) ||
				    !hs_in(ty, t.ymin, t.ymax))
					continue;
				tt[ty][tx] = hs_cell(&a->k, tc[ty][tx], tc[n][tx],
						     tc[s][tx], tc[ty][e], tc[ty][we],
						     pc[ty][tx]);
				done[wi] |= 1u << l;
			}
			if (done[wi])
				ng_warp_compute(&w[wi], HS_INSTS_CELL);
		}
		ng_block_sync(b);
		if (i == a->iteration - 1)
			break;
		for (unsigned int wi = 0; wi < HS_WARPS; wi++) {
			ng_warp_compute(&w[wi], HS_INSTS_COPY);
			for (uint32_t m = done[wi]; m; m &= m - 1) {
				unsigned int l = (unsigned int)__builtin_ctz(m);
				unsigned int ty = (w[wi].tid0 + l) / HS_B;
				unsigned int tx = (w[wi].tid0 + l) % HS_B;

				tc[ty][tx] = tt[ty][tx];
			}
		}
		ng_block_sync(b);
	}
	/* the last step's threads write their cells */
	for (unsigned int wi = 0; wi < HS_WARPS; wi++) {
		uintptr_t ad[NG_WARP];
		float v[NG_WARP];

		ng_warp_compute(&w[wi], HS_INSTS_STORE);
		if (!done[wi])
			continue;
		for (uint32_t m = done[wi]; m; m &= m - 1) {
			unsigned int l = (unsigned int)__builtin_ctz(m);
			int ty = (int)(w[wi].tid0 + l) / HS_B;
			int tx = (int)(w[wi].tid0 + l) % HS_B;

			ad[l] = (uintptr_t)&a->dst[(uint64_t)(t.y0 + ty) *
						   (uint64_t)a->cols +
						   (uint64_t)(t.x0 + tx)];
			v[l] = tt[ty][tx];
		}
		hs_st(&w[wi], done[wi], ad, v);
	}
}

/*
 * The cells of [0, n) the tiles of @nblocks blocks along one dimension
 * cover, summed over the blocks: what they load of a row or a column.
 */
static uint64_t hs_cover(int n, int nblocks, int iteration)
{
	uint64_t s = 0;

	for (int bi = 0; bi < nblocks; bi++) {
		int lo = HS_SMALL(iteration) * bi - HS_BORDER, hi = lo + HS_B - 1;

		lo = lo < 0 ? 0 : lo;
		hi = hi > n - 1 ? n - 1 : hi;
		if (hi >= lo)
			s += (uint64_t)(hi - lo + 1);
	}
	return s;
}

/*
 * The CPU reference: Rodinia's single_iteration, a step over the whole
 * grid at a time, each cell by hs_cell() with the kernel's edges (a
 * missing neighbour is the cell itself). Returns the last step's grid.
 */
static float *hs_ref(const struct hs_args *a, float *t, float *u,
		     const float *pw, unsigned int steps)
{
	int64_t cols = a->cols, rows = a->rows;

	for (unsigned int it = 0; it < steps; it++) {
		for (int64_t r = 0; r < rows; r++) {
			const float *c = t + r * cols;
			const float *nn = r ? c - cols : c;
			const float *ss = r + 1 < rows ? c + cols : c;

			for (int64_t x = 0; x < cols; x++) {
				int64_t e = x + 1 < cols ? x + 1 : x;
				int64_t w = x ? x - 1 : x;

				u[r * cols + x] = hs_cell(&a->k, c[x], nn[x], ss[x],
							  c[e], c[w],
							  pw[r * cols + x]);
			}
		}
		float *s = t;

		t = u;
		u = s;
	}
	return t;
}

static int hs_launch(struct wlc *c, const char *name, ng_kernel_fn fn,
		     struct hs_args *a, unsigned int nb, bool timed)
{
	struct ng_launch l = {
		.name = name, .fn = fn, .args = a,
		.grid = { nb, nb }, .block = { HS_B, HS_B },
		.only_gpu = -1, .shared = HS_SHARED,
	};
	struct ng_launch_result lr;
	int ret = ng_launch(c->sys, &l, &lr);

	if (ret) {
		ng_seterr(c->err, c->errlen, "hotspot: launch of %s failed: %s",
			  name, strerror(-ret));
		return ret;
	}
	if (timed) {
		wl_add_time(c->r, &lr);
		wl_progress(c->o, ++c->done, c->total);
	}
	return 0;
}

static int hs_run(struct ng_system *sys, const struct ng_bench_opts *o,
		  struct ng_bench_result *r, char *err, size_t errlen)
{
	struct wlc c;
	struct ng_buf b0 = { 0 }, b1 = { 0 }, bp = { 0 };
	struct hs_args a = { 0 };
	float *ra = NULL, *rb = NULL, *rp = NULL, *want, *got;
	uint64_t side, n, loads = 0;
	unsigned int nb;
	char ok[160];
	int ret;

	wlc_init(&c, sys, o, r, err, errlen);
	side = wl_isqrt(o->size / 4);
	if (side < HS_B || side > 1 << 20) {
		ng_seterr(err, errlen, "hotspot: size must hold a grid of %u x %u to 2^20 x 2^20 floats (1 KiB to 4 TiB)",
			  HS_B, HS_B);
		return -EINVAL;
	}
	if (c.cfg->shared_bytes < HS_SHARED) {
		ng_seterr(err, errlen, "hotspot: a block needs %u bytes of shared memory (shared = %llu)",
			  HS_SHARED, (unsigned long long)c.cfg->shared_bytes);
		return -EINVAL;
	}
	a.cols = a.rows = (int)side;
	n = side * side;
	/* blockCols = blockRows: the small blocks cover the grid */
	nb = (unsigned int)((side + HS_SMALL(HS_PYRAMID) - 1) / HS_SMALL(HS_PYRAMID));
	hs_constants(&a.k, a.cols, a.rows);
	a.stemp = wlc_hash(c.cfg->seed * 5 + 1);
	a.spow = wlc_hash(c.cfg->seed * 5 + 2);
	ret = wlc_alloc_each(&c, (struct ng_buf *const[]){ &b0, &b1, &bp }, 3,
			     n * 4);
	if (ret)
		goto out;
	a.src = b0.ptr;
	a.dst = b1.ptr;
	a.pw = bp.ptr;
	r->elements = n;
	c.total = (o->iters + HS_PYRAMID - 1) / HS_PYRAMID;
	a.iteration = HS_PYRAMID;
	ret = hs_launch(&c, "hs-init", hs_init, &a, nb, false);
	if (ret)
		goto out;
	ng_system_reset_counters(sys);
	/* compute_tran_temp: MIN(pyramid_height, steps left) a launch */
	for (unsigned int t = 0; t < o->iters; t += HS_PYRAMID) {
		a.iteration = (int)(o->iters - t < HS_PYRAMID ? o->iters - t :
				    HS_PYRAMID);
		ret = hs_launch(&c, "hotspot", hs_kernel, &a, nb, true);
		if (ret)
			goto out;
		/* the tiles' temperature and power, and each cell's store */
		loads += hs_cover(a.rows, (int)nb, a.iteration) *
			 hs_cover(a.cols, (int)nb, a.iteration);
		float *s = a.src;

		a.src = a.dst;
		a.dst = s;
	}
	r->bytes = 4 * (2 * loads + n * c.total);
	wl_collect(sys, r);
	ra = malloc(n * 4);
	rb = malloc(n * 4);
	rp = malloc(n * 4);
	if (!ra || !rb || !rp) {
		ret = -ENOMEM;
		ng_seterr(err, errlen, "hotspot: out of memory");
		goto out;
	}
	for (uint64_t i = 0; i < n; i++) {
		ra[i] = hs_t0(&a, i);
		rp[i] = hs_p0(&a, i);
	}
	want = hs_ref(&a, ra, rb, rp, o->iters);
	/* the last kernel's temp_dst, swapped into src */
	got = a.src;
	snprintf(ok, sizeof(ok),
		 "%u time step%s (%u kernel%s) over %llu x %llu cells match the CPU reference",
		 o->iters, o->iters == 1 ? "" : "s", c.total,
		 c.total == 1 ? "" : "s", (unsigned long long)side,
		 (unsigned long long)side);
	/* --corrupt-one: one float's bits plus one (a NaN's too) */
	if (o->corrupt) {
		uint32_t u;

		memcpy(&u, &got[n / 2], 4);
		u++;
		memcpy(&got[n / 2], &u, 4);
	}
	/* the same operations in the same order: equal to the bit */
	r->verified = true;
	snprintf(r->verify, sizeof(r->verify), "%s", ok);
	for (uint64_t i = 0; i < n; i++) {
		uint32_t g, w;

		memcpy(&g, &got[i], 4);
		memcpy(&w, &want[i], 4);
		if (g == w)
			continue;
		r->verified = false;
		snprintf(r->verify, sizeof(r->verify),
			 "temp[%llu][%llu] = %.9g (0x%08x), the CPU reference says %.9g (0x%08x)",
			 (unsigned long long)(i / side),
			 (unsigned long long)(i % side), (double)got[i], g,
			 (double)want[i], w);
		break;
	}
out:
	free(ra);
	free(rb);
	free(rp);
	ng_free(c.sp, &bp);
	ng_free(c.sp, &b1);
	ng_free(c.sp, &b0);
	return ret;
}

const struct ng_workload ng_wl_hotspot = {
	.name = "hotspot",
	.desc = "thermal stencil (Rodinia hotspot): 16x16 blocks, 2 time steps a kernel in shared memory (the pyramid)",
	.default_size = 4ULL << 20,
	.paper_footprint = 48ULL << 20,
	.paper_ref = "ScaleGPU Table 2: hotspot 48 MB",
	.default_iters = 32,
	.narrays = 3,
	.run = hs_run,
};
