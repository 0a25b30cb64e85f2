// SPDX-License-Identifier: GPL-2.0
/*
 * hpgmg: an HPGMG-FV-like geometric multigrid V-cycle (hpgmg/hpgmg,
 * finite-volume/source: mg.c's MGVCycle, operators/gsrb.c's smooth,
 * residual.c, restriction.c's RESTRICT_CELL, interpolation_p0.c), on
 * the 7-point constant-coefficient Poisson operator of operators.7pt.c
 * (a = 0, b = 1: A x = (6 x - the 6 neighbours) / h^2) with a cell's
 * neighbour outside the domain taken as minus the cell (boundary_fv.c's
 * homogeneous Dirichlet ghost: zero on the face).
 *
 * Where it follows HPGMG-FV:
 *   - the grid is split into boxes (level.c): the fine grid of n^3 cells
 *     into 4 x 4 x 4 boxes of (n / 4)^3, each box's cells stored together
 *     (i fastest, then j, then k), and every coarser level keeps the same
 *     boxes at half the box side, so a box's coarse cells lie over its own
 *     fine cells (restriction and interpolation stay inside a box);
 *   - the work is split by box (HPGMG threads over a level's blocks of
 *     boxes, PRAGMA_THREAD_ACROSS_BLOCKS): here a thread block a box, a
 *     thread a cell;
 *   - the V-cycle (MGVCycle): on each level down, smooth (HG_SMOOTHS
 *     GSRB iterations, NUM_SMOOTHS = 2 of operators.7pt.c, each a red and
 *     a black sweep, ping-ponging between e and a temporary with the
 *     GSRB_FP red-black mask as gsrb.c does), the residual R - A e into the
 *     temporary, its restriction (the mean of the 8 fine cells, 0.125 x
 *     their sum, RESTRICT_CELL) into the coarser level's R and a zero e
 *     there; at the bottom level, HG_BOTTOM sweeps; on the way up, the
 *     coarse e added to the 8 fine cells over it (interpolation_p0, the
 *     prescale 1), then smooth again;
 *   - the solve (MGSolve): e = 0, R = F on the finest level, then
 *     `iters` V-cycles, each a kernel per operation and level.
 *
 * Where it differs: floats (HPGMG: doubles); the fine grid is 64^3 and
 * 4 levels by default (HPGMG's is boxes of 64^3 and down to 1 cell a
 * box), the bottom solve is smoothing (HPGMG: BiCGStab); no ghost zones
 * and no exchange_boundary: a cell's neighbour across a box face is
 * loaded from the neighbouring box's own storage, which is what a halo
 * exchange between GPUs becomes in a NUMA-GPU's one address space;
 * the right-hand side is a fixed smooth pattern (not HPGMG's
 * problem.fv.c); the boundary's ghost value comes from the lane's own
 * cell (its load masked), not from a ghost zone that apply_BCs fills.
 *
 * Multi-GPU sharing: an untimed init kernel on the box grid writes every
 * vector of every level, so first touch homes each box with the GPU whose
 * blocks run it (NUMA-GPU's contiguous batches of blocks: the 64 boxes in
 * z-major order give each of 4 GPUs a slab of 16 boxes). Restriction and
 * interpolation are local; the smooth and residual read the face cells of
 * the boxes next to theirs, which on a slab's two z faces are another
 * GPU's, rewritten by their home in every sweep: read-write sharing
 * between neighbouring GPUs across kernels. A slab is one box thick, so
 * every box has both z faces shared: by line, the faces' lines are a
 * small share of the accesses and the rest is private (bench --compare's
 * 64 KiB pages: 88.8% private, 11.2% read-write shared); by page nearly
 * every access is to a read-write shared page (93.4%), and the two
 * coarsest levels' vectors (16 KiB and 2 KiB, all in one buffer) share a
 * page or two homed on one GPU, so the other GPUs' private boxes there
 * are remote. With pages larger than a vector (the carve preset's 2 MB,
 * the default fine vector being 1 MiB) a page holds several vectors
 * whole, homed on one GPU, and 3/4 of the accesses are remote: the page,
 * not the box, sets the sharing.
 *
 * Verification: the CPU runs the same V-cycles on the same layout, every
 * cell through the same helpers (same float operations, same order), and
 * every cell of the finest e must match within 1e-4 relative (1e-6
 * absolute); the message gives the residual's root mean square before
 * and after (HPGMG's norm() is the max norm, which p0's jumps between
 * coarse cells keep high after the first V-cycle).
 */
#include "workloads/proxy/hpgmg.h"

/* Warp @w's lanes in @m alone load @size bytes at addr[lane] into @buf. */
static void hg_ld(struct ng_warp *w, uint32_t m, const uintptr_t *addr,
		  unsigned int size, void *buf)
{
	uint32_t act = w->active;

	if (!m)
		return;
	w->active = m;
	ng_ld(w, addr, size, buf);
	w->active = act;
}

/* A block's warps over its box's cells: warp @wi's pass @it, first cell. */
static bool hg_cells_of(const struct ng_block *b, const struct hg_args *a,
			unsigned int lv, unsigned int it, struct ng_warp *w,
			uint64_t *c0)
{
	uint64_t per = (uint64_t)a->bd[lv] * a->bd[lv] * a->bd[lv];
	uint64_t first = (uint64_t)it * HG_BLOCK + w->tid0;

	if (first >= per)
		return false;
	if (per - first < w->nlanes) {
		w->nlanes = (unsigned int)(per - first);
		w->active = (1u << w->nlanes) - 1;
	}
	*c0 = b->id * per + first;
	return true;
}

static unsigned int hg_passes(const struct hg_args *a, unsigned int lv)
{
	uint64_t per = (uint64_t)a->bd[lv] * a->bd[lv] * a->bd[lv];

	return (unsigned int)((per + HG_BLOCK - 1) / HG_BLOCK);
}

/* Untimed: every vector of every level, each box by its block (first touch). */
static void hg_init(struct ng_block *b, void *p)
{
	const struct hg_args *a = p;

	for (unsigned int lv = 0; lv < HG_LEVELS; lv++)
		for (unsigned int it = 0; it < hg_passes(a, lv); it++)
			for (unsigned int wi = 0; wi < b->nwarps; wi++) {
				float z[NG_WARP] = { 0 }, f[NG_WARP];
				struct ng_warp w;
				uint64_t c0;

				ng_warp_get(b, wi, &w);
				if (!hg_cells_of(b, a, lv, it, &w, &c0))
					break;
				for (unsigned int l = 0; l < w.nlanes; l++) {
					uint64_t x, y, zz;

					hg_xyz(a->bd[lv], c0 + l, &x, &y, &zz);
					f[l] = lv ? 0 : hg_f0(a->n[0], x, y, zz);
				}
				ng_st_contig(&w, a->v[lv][HG_E] + c0, 4, z);
				ng_st_contig(&w, a->v[lv][HG_T] + c0, 4, z);
				ng_st_contig(&w, a->v[lv][HG_R] + c0, 4, f);
				ng_st_contig(&w, a->v[lv][HG_F] + c0, 4, f);
			}
}

/*
 * A warp's cells' A x on level @lv of vector @x: the centre (contiguous)
 * and the 6 neighbours (gathers; lanes whose neighbour is outside the
 * domain masked, as the boundary's branch masks them). Returns the
 * centres in @c; the warp has waited for its loads.
 */
static void hg_apply(struct ng_warp *w, const struct hg_args *a,
		     unsigned int lv, const float *x, uint64_t c0,
		     float c[NG_WARP], float ax[NG_WARP])
{
	float nb[6][NG_WARP], buf[NG_WARP];
	const float *cv;

	cv = ng_ld_contig_ref(w, x + c0, 4, buf);
	memcpy(c, cv, w->nlanes * sizeof(float));
	unsigned int bd = a->bd[lv];
	uint64_t in[NG_WARP][3], g[NG_WARP][3];
	uint32_t out[6] = { 0 };
	/* a neighbour's offset inside the box */
	int64_t step[3] = { 1, bd, (int64_t)bd * bd };

	for (unsigned int l = 0; l < w->nlanes; l++) {
		uint64_t k = (c0 + l) % ((uint64_t)bd * bd * bd);

		in[l][0] = k % bd;
		in[l][1] = k / bd % bd;
		in[l][2] = k / ((uint64_t)bd * bd);
		hg_xyz(bd, c0 + l, &g[l][0], &g[l][1], &g[l][2]);
	}
	for (int i = 0; i < 6; i++) {
		int dim = i / 2, up = i & 1;
		uintptr_t addr[NG_WARP];
		uint32_t m = 0;
		bool run = true;

		for (unsigned int l = 0; l < w->nlanes; l++) {
			uint64_t at;

			nb[i][l] = 0;
			if (up ? in[l][dim] + 1 < bd : in[l][dim] > 0) {
				at = c0 + l + (up ? step[dim] : -step[dim]);
			} else {
				/* across the box's face: the next box's cell */
				run = false;
				if (!hg_nbr(bd, a->n[lv], g[l][0], g[l][1],
					    g[l][2], i, &at)) {
					out[i] |= 1u << l;
					continue;
				}
			}
			m |= 1u << l;
			addr[l] = (uintptr_t)(x + at);
		}
		/* the same lines as the gather's, with less work for ngemu */
		if (run)
			ng_ld_contig(w, (const void *)addr[0], 4, nb[i]);
		else
			hg_ld(w, m, addr, 4, nb[i]);
	}
	ng_warp_wait(w);
	for (unsigned int l = 0; l < w->nlanes; l++) {
		float v[6];

		/* outside the domain: the ghost -c (apply_BCs's Dirichlet 0) */
		for (int i = 0; i < 6; i++)
			v[i] = out[i] >> l & 1 ? -c[l] : nb[i][l];
		ax[l] = hg_ax(c[l], v, hg_h2inv(a, a->lv));
	}
}

/* A GSRB sweep: dst = src + RedBlack Dinv (R - A src) (gsrb.c's smooth). */
static void hg_smooth(struct ng_block *b, void *p)
{
	const struct hg_args *a = p;
	unsigned int lv = a->lv;
	float dinv = 1.0f / (6.0f * hg_h2inv(a, lv));

	for (unsigned int it = 0; it < hg_passes(a, lv); it++)
		for (unsigned int wi = 0; wi < b->nwarps; wi++) {
			float c[NG_WARP], ax[NG_WARP], rb[NG_WARP], o[NG_WARP];
			const float *rhs;
			struct ng_warp w;
			uint64_t c0;

			ng_warp_get(b, wi, &w);
			if (!hg_cells_of(b, a, lv, it, &w, &c0))
				break;
			rhs = ng_ld_contig_ref(&w, a->v[lv][HG_R] + c0, 4, rb);
			memcpy(rb, rhs, w.nlanes * sizeof(float));
			hg_apply(&w, a, lv, a->v[lv][a->src], c0, c, ax);
			ng_warp_compute(&w, HG_INSTS_SMOOTH);
			for (unsigned int l = 0; l < w.nlanes; l++) {
				uint64_t x, y, z;

				hg_xyz(a->bd[lv], c0 + l, &x, &y, &z);
				o[l] = hg_gsrb(c[l], rb[l], ax[l], dinv,
					       hg_color(x, y, z, a->sweep));
			}
			ng_st_contig(&w, a->v[lv][a->dst] + c0, 4, o);
		}
}

/* residual.c: T = R - A e */
static void hg_residual(struct ng_block *b, void *p)
{
	const struct hg_args *a = p;
	unsigned int lv = a->lv;

	for (unsigned int it = 0; it < hg_passes(a, lv); it++)
		for (unsigned int wi = 0; wi < b->nwarps; wi++) {
			float c[NG_WARP], ax[NG_WARP], rb[NG_WARP], o[NG_WARP];
			const float *rhs;
			struct ng_warp w;
			uint64_t c0;

			ng_warp_get(b, wi, &w);
			if (!hg_cells_of(b, a, lv, it, &w, &c0))
				break;
			rhs = ng_ld_contig_ref(&w, a->v[lv][HG_R] + c0, 4, rb);
			memcpy(rb, rhs, w.nlanes * sizeof(float));
			hg_apply(&w, a, lv, a->v[lv][HG_E], c0, c, ax);
			ng_warp_compute(&w, HG_INSTS_RESID);
			for (unsigned int l = 0; l < w.nlanes; l++)
				o[l] = rb[l] - ax[l];
			ng_st_contig(&w, a->v[lv][HG_T] + c0, 4, o);
		}
}

/* restriction.c's RESTRICT_CELL into level lv's R, and e = 0 there. */
static void hg_restriction(struct ng_block *b, void *p)
{
	const struct hg_args *a = p;
	unsigned int lv = a->lv;

	for (unsigned int it = 0; it < hg_passes(a, lv); it++)
		for (unsigned int wi = 0; wi < b->nwarps; wi++) {
			float v[8][NG_WARP], o[NG_WARP], z[NG_WARP] = { 0 };
			struct ng_warp w;
			uint64_t c0;

			ng_warp_get(b, wi, &w);
			if (!hg_cells_of(b, a, lv, it, &w, &c0))
				break;
			for (int k = 0; k < 8; k++) {
				uintptr_t addr[NG_WARP];

				for (unsigned int l = 0; l < w.nlanes; l++) {
					uint64_t ch[8];

					hg_children(a, lv, c0 + l, ch);
					addr[l] = (uintptr_t)(a->v[lv - 1][HG_T] + ch[k]);
				}
				ng_ld(&w, addr, 4, v[k]);
			}
			ng_warp_wait(&w);
			ng_warp_compute(&w, HG_INSTS_RESTR);
			for (unsigned int l = 0; l < w.nlanes; l++) {
				float s[8];

				for (int k = 0; k < 8; k++)
					s[k] = v[k][l];
				o[l] = hg_restrict(s);
			}
			ng_st_contig(&w, a->v[lv][HG_R] + c0, 4, o);
			ng_st_contig(&w, a->v[lv][HG_E] + c0, 4, z);
		}
}

/* interpolation_p0: level lv's e += level lv + 1's e at the parent cell. */
static void hg_interp(struct ng_block *b, void *p)
{
	const struct hg_args *a = p;
	unsigned int lv = a->lv;

	for (unsigned int it = 0; it < hg_passes(a, lv); it++)
		for (unsigned int wi = 0; wi < b->nwarps; wi++) {
			float fb[NG_WARP], pv[NG_WARP], o[NG_WARP];
			uintptr_t addr[NG_WARP];
			const float *fv;
			struct ng_warp w;
			uint64_t c0;

			ng_warp_get(b, wi, &w);
			if (!hg_cells_of(b, a, lv, it, &w, &c0))
				break;
			for (unsigned int l = 0; l < w.nlanes; l++) {
				uint64_t x, y, z;

				hg_xyz(a->bd[lv], c0 + l, &x, &y, &z);
				addr[l] = (uintptr_t)(a->v[lv + 1][HG_E] +
						      hg_at(a->bd[lv + 1], x / 2, y / 2, z / 2));
			}
			fv = ng_ld_contig_ref(&w, a->v[lv][HG_E] + c0, 4, fb);
			memcpy(fb, fv, w.nlanes * sizeof(float));
			ng_ld(&w, addr, 4, pv);
			ng_warp_wait(&w);
			ng_warp_compute(&w, HG_INSTS_INTERP);
			for (unsigned int l = 0; l < w.nlanes; l++)
				o[l] = fb[l] + pv[l];
			ng_st_contig(&w, a->v[lv][HG_E] + c0, 4, o);
		}
}

static int hg_launch(struct wlc *c, const char *name, ng_kernel_fn fn,
		     struct hg_args *a, unsigned int lv)
{
	a->lv = lv;
	return wlc_launch(c, name, fn, a, HG_NBOX, HG_BLOCK, -1, true);
}

static int hg_gpu_smooth(struct wlc *c, struct hg_args *a, unsigned int lv,
			 int sweeps)
{
	int ret = 0;

	for (int s = 0; s < sweeps && !ret; s++) {
		a->src = s & 1 ? HG_T : HG_E;
		a->dst = s & 1 ? HG_E : HG_T;
		a->sweep = s;
		ret = hg_launch(c, "hpgmg-smooth", hg_smooth, a, lv);
	}
	return ret;
}

static int hg_gpu_vcycle(struct wlc *c, struct hg_args *a)
{
	int ret = 0;

	for (unsigned int lv = 0; lv + 1 < HG_LEVELS && !ret; lv++) {
		ret = hg_gpu_smooth(c, a, lv, 2 * HG_SMOOTHS);
		if (!ret)
			ret = hg_launch(c, "hpgmg-residual", hg_residual, a, lv);
		if (!ret)
			ret = hg_launch(c, "hpgmg-restrict", hg_restriction, a,
					lv + 1);
	}
	if (!ret)
		ret = hg_gpu_smooth(c, a, HG_LEVELS - 1, HG_BOTTOM);
	for (unsigned int lv = HG_LEVELS - 1; lv-- > 0 && !ret;) {
		ret = hg_launch(c, "hpgmg-interp", hg_interp, a, lv);
		if (!ret)
			ret = hg_gpu_smooth(c, a, lv, 2 * HG_SMOOTHS);
	}
	return ret;
}

/* Kernels a V-cycle launches. */
static unsigned int hg_kernels(void)
{
	return (HG_LEVELS - 1) * (4 * HG_SMOOTHS + 3) + HG_BOTTOM;
}

static int hg_run(struct ng_system *sys, const struct ng_bench_opts *o,
		  struct ng_bench_result *r, char *err, size_t errlen)
{
	struct ng_buf bv = { 0 };
	struct hg_cpu h = { { { 0 } } };
	struct hg_args a = { 0 };
	double r0, r1;
	uint64_t n = HG_MIN_N, bytes = 0;
	char ok[160];
	struct wlc c;
	int ret = 0;

	wlc_init(&c, sys, o, r, err, errlen);
	/* the largest power-of-two side whose fine vector fits the size */
	while (2 * n <= HG_MAX_N && 8 * n * n * n * 4 <= o->size)
		n *= 2;
	if (n * n * n * 4 > o->size) {
		ng_seterr(err, errlen,
			  "hpgmg: size must hold %u^3 floats (%u KiB) at least",
			  HG_MIN_N, (unsigned int)(HG_MIN_N * HG_MIN_N * HG_MIN_N * 4 >> 10));
		return -EINVAL;
	}
	for (unsigned int lv = 0; lv < HG_LEVELS; lv++) {
		a.n[lv] = n >> lv;
		a.bd[lv] = (unsigned int)(a.n[lv] / HG_BOXES);
		bytes += HG_NVEC * hg_cells(&a, lv) * 4;
	}
	/* one buffer, as HPGMG allocates a level's vectors together */
	ret = wlc_alloc(&c, &bv, bytes, -1);
	if (ret)
		goto out;
	bytes = 0;
	for (unsigned int lv = 0; lv < HG_LEVELS; lv++)
		for (int v = 0; v < HG_NVEC; v++) {
			a.v[lv][v] = (float *)((char *)bv.ptr + bytes);
			bytes += hg_cells(&a, lv) * 4;
		}
	ret = wlc_launch(&c, "hpgmg-init", hg_init, &a, HG_NBOX, HG_BLOCK, -1,
			 false);
	if (ret)
		goto out;
	r->elements = hg_cells(&a, 0);
	c.total = o->iters * hg_kernels();
	ng_system_reset_counters(sys);
	for (unsigned int it = 0; it < o->iters && !ret; it++)
		ret = hg_gpu_vcycle(&c, &a);
	if (ret)
		goto out;
	wl_collect(sys, r);
	for (unsigned int lv = 0; lv < HG_LEVELS && !ret; lv++)
		for (int v = 0; v < HG_NVEC; v++) {
			h.v[lv][v] = calloc(hg_cells(&a, lv), 4);
			if (!h.v[lv][v])
				ret = -ENOMEM;
		}
	if (ret) {
		ng_seterr(err, errlen, "hpgmg: out of memory");
		goto out;
	}
	r->bytes = 0;
	for (uint64_t cc = 0; cc < hg_cells(&a, 0); cc++) {
		uint64_t x, y, z;

		hg_xyz(a.bd[0], cc, &x, &y, &z);
		h.v[0][HG_F][cc] = h.v[0][HG_R][cc] = hg_f0(n, x, y, z);
	}
	for (unsigned int lv = 0; lv < HG_LEVELS; lv++) {
		uint64_t cl = hg_cells(&a, lv);
		/* per V-cycle: a sweep reads 8 floats a cell, writes 1 */
		uint64_t sweeps = lv + 1 < HG_LEVELS ? 4 * HG_SMOOTHS : HG_BOTTOM;

		r->bytes += 4 * cl * (9 * sweeps + (lv + 1 < HG_LEVELS ? 9 + 2 : 0) +
				      (lv ? 2 + 3 : 0)) * o->iters;
	}
	r0 = hg_resnorm(&a, h.v[0][HG_E], h.v[0][HG_F]);
	for (unsigned int it = 0; it < o->iters; it++)
		hg_cpu_vcycle(&a, &h);
	r1 = hg_resnorm(&a, h.v[0][HG_E], h.v[0][HG_F]);
	snprintf(ok, sizeof(ok),
		 "e after %u V-cycle%s, %llu^3 cells, %u levels, %u boxes: matches the CPU's; rms residual %.4g -> %.4g",
		 o->iters, o->iters == 1 ? "" : "s", (unsigned long long)n,
		 HG_LEVELS, HG_NBOX, r0, r1);
	wl_corrupt_f32(o, a.v[0][HG_E], hg_cells(&a, 0));
	wl_check_f32(r, "e", a.v[0][HG_E], h.v[0][HG_E], hg_cells(&a, 0), 0,
		     1e-4f, 1e-6f, ok);
out:
	for (unsigned int lv = HG_LEVELS; lv-- > 0;)
		for (int v = HG_NVEC; v-- > 0;)
			free(h.v[lv][v]);
	ng_free(c.sp, &bv);
	return ret;
}

/*
 * Table II gives "HPGMG-UVM HPGMG 2.0 GB" and not the inputs; --size
 * paper sizes the fine grid's 4 vectors to it (a side of 512: 2 GiB);
 * --size is one fine vector's bytes, a quarter of the footprint.
 */
const struct ng_workload ng_wl_hpgmg = {
	.name = "hpgmg",
	.desc = "HPGMG-FV-like multigrid: V-cycles of GSRB smooth, residual, restriction, interpolation on boxes of a 3-D grid",
	.default_size = 1ULL << 20,	/* a vector of 64^3 cells */
	.paper_footprint = 2ULL << 30,
	.paper_ref = "CARVE Table II: HPGMG-UVM 2.0 GB",
	.default_iters = 1,
	.narrays = HG_NVEC,
	.run = hg_run,
};
