// SPDX-License-Identifier: GPL-2.0
/*
 * comd: a CoMD-like molecular dynamics step (ECP-copa/CoMD, the ExMatEx
 * classical MD proxy; src-openmp: timestep.c, ljForce.c, linkCells.c,
 * initAtoms.c), with CoMD's Lennard-Jones copper.
 *
 * Where it follows CoMD:
 *   - the potential: ljForce.c's initLjPot and ljForce (sigma 2.315 A,
 *     epsilon 0.167 eV, cutoff 2.5 sigma, mass 63.55 amu; for every pair
 *     within the cutoff, 1/r^2, r6 = s6 / r^6, the shifted energy
 *     r6 (r6 - 1) - eShift, half of it to each atom's U, and the force
 *     -4 epsilon r6 / r^2 (12 r6 - 6) times the displacement), full
 *     neighbour sums (each pair computed by both its atoms, as CoMD's
 *     threaded ljForce does, no Newton's-third-law halving);
 *   - link cells (linkCells.c): the box cut into cells of at least the
 *     cutoff a side, the atoms of a cell kept in its CM_MAXATOMS slots
 *     (CoMD's MAXATOMS, 64) of the position, momentum and force arrays,
 *     with a count per cell (nAtoms); a cell's force sums run over its 27
 *     neighbouring cells (nbrBoxes), periodic;
 *   - the lattice (initAtoms.c's createFccLattice): FCC at CoMD's
 *     equilibrium 3.615 A, gids in its loop order, each atom put in its
 *     cell in gid order (putAtomInBox), displaced by up to delta = 0.1 A in
 *     each coordinate (randomDisplacements, as CoMD's documented
 *     "--delta 0.1 -T 0" start), momenta zero;
 *   - the step (timestep.c): advanceVelocity by dt/2, advancePosition by
 *     dt (dt = 1 fs), computeForce, advanceVelocity by dt/2; the force of
 *     the initial positions is computed before the first step.
 *
 * Where it differs: floats (CoMD: doubles); a position, momentum or force
 * is a 16-byte vector (the force's fourth word is the atom's U); the
 * displacement's random numbers are ngemu's hash of the gid (CoMD's
 * lcg61); no redistributeAtoms: atoms stay in their cells over the run's
 * few femtoseconds (an atom moves far less than the cell's margin over
 * the cutoff), and periodic images come from the neighbour cell's shift,
 * not halo cells. As a GPU code: a block of 64 threads per cell, a
 * thread per slot (lanes past nAtoms masked, as the bound check masks
 * them); the force kernel loads each neighbour cell's count, waits for it
 * (the positions' loop bound comes from it), then the block stages the
 * neighbour's positions (each warp its 32 slots, as a shared-memory
 * staging does), barriers, and every thread sums its pairs with them.
 *
 * Multi-GPU sharing: an untimed init kernel on the cell grid writes every
 * cell's slots, so first touch homes each cell with the GPU whose blocks
 * run it (cells in z-major order: a z-slab of cells per GPU). The force
 * kernel reads the positions of the cells next to its own: across a
 * slab's two faces they are another GPU's, rewritten by their home in
 * every step's advance kernel (read-write sharing between neighbouring
 * GPUs across kernels, the face planes' pages); the counts, written once,
 * are read by every GPU (read-only shared); momenta and forces are
 * private. A GPU's slab is 2.5 cell planes at the default size, so most
 * of its cells border another GPU's: at bench --compare's 64 KiB pages,
 * by line, 44.6% of the accesses are to read-write shared lines (the
 * positions), 36.3% read-shared (the counts), 19.2% private. With pages
 * larger than an array (the carve preset's 2 MB, an array being 1000 KiB
 * at the default size) an array is homed on one GPU and the other GPUs'
 * accesses to it are remote.
 *
 * Verification: the CPU runs the same steps on the same cells and slots
 * with the same helpers (same float operations in the same order), and
 * every atom's position, momentum and force must match within 1e-4
 * relative; the message gives the total momentum and energies.
 */
#include "workloads/proxy/comd.h"

struct cm_init {
	const struct cm_args *a;
	const struct cm_vec *r;
	const uint32_t *natoms;
};

/* A cell's warp @wi with its lanes cut to the cell's atoms; false: none. */
static bool cm_warp(struct ng_block *b, unsigned int wi, uint32_t nat,
		    struct ng_warp *w)
{
	ng_warp_get(b, wi, w);
	if (nat <= wi * NG_WARP)
		return false;
	if (nat - wi * NG_WARP < NG_WARP) {
		w->nlanes = nat - wi * NG_WARP;
		w->active = (1u << w->nlanes) - 1;
	}
	return true;
}

/* Untimed: each cell's slots and count, by its block (first touch). */
static void cm_init_kernel(struct ng_block *b, void *p)
{
	const struct cm_init *in = p;
	const struct cm_args *a = in->a;
	static const struct cm_vec z[NG_WARP];
	uint64_t s0 = b->id * CM_MAXATOMS;

	for (unsigned int wi = 0; wi < b->nwarps; wi++) {
		struct ng_warp w;

		ng_warp_get(b, wi, &w);
		ng_st_contig(&w, a->r + s0 + wi * NG_WARP, 16, in->r + s0 + wi * NG_WARP);
		ng_st_contig(&w, a->p + s0 + wi * NG_WARP, 16, z);
		ng_st_contig(&w, a->f + s0 + wi * NG_WARP, 16, z);
		if (wi == 0) {
			w.nlanes = 1;
			w.active = 1;
			ng_st_contig(&w, a->natoms + b->id, 4, in->natoms + b->id);
		}
	}
}

/* The cell's count, loaded by every warp (one word: a broadcast). */
static uint32_t cm_count(struct ng_warp *w, const uint32_t *at)
{
	struct ng_warp one = *w;
	uint32_t v;

	one.nlanes = 1;
	one.active = 1;
	ng_ld_contig(&one, at, 4, &v);
	if (one.ready > w->ready)
		w->ready = one.ready;
	return v;
}

/* ljForce for the block's cell: f and U of its atoms from the 27 cells. */
static void cm_force(struct ng_block *b, void *p)
{
	const struct cm_args *a = p;
	struct cm_vec ri[CM_MAXATOMS], rj[CM_MAXATOMS], fu[CM_MAXATOMS];
	uint64_t s0 = b->id * CM_MAXATOMS;
	struct ng_warp w[CM_WARPS];
	uint32_t ni = 0;

	for (unsigned int wi = 0; wi < CM_WARPS; wi++) {
		ng_warp_get(b, wi, &w[wi]);
		ni = cm_count(&w[wi], a->natoms + b->id);
	}
	for (unsigned int wi = 0; wi < CM_WARPS; wi++) {
		struct ng_warp t;

		ng_warp_wait(&w[wi]);
		if (!cm_warp(b, wi, ni, &t))
			continue;
		t.ready = w[wi].ready;
		ng_ld_contig(&t, a->r + s0 + wi * NG_WARP, 16, ri + wi * NG_WARP);
		w[wi] = t;
	}
	memset(fu, 0, sizeof(fu));
	/* an empty cell: every thread fails its bound check */
	if (!ni)
		return;
	for (int n = 0; n < 27; n++) {
		float sh[3];
		uint64_t jc = cm_nbr(a, b->id, n, sh);
		uint32_t nj = 0;

		/* every warp stages its 32 slots of the neighbour's atoms */
		for (unsigned int wi = 0; wi < CM_WARPS; wi++)
			nj = cm_count(&w[wi], a->natoms + jc);
		/* the staging's addresses and loop need the count */
		for (unsigned int wi = 0; wi < CM_WARPS; wi++) {
			struct ng_warp t;

			ng_warp_wait(&w[wi]);
			ng_warp_compute(&w[wi], CM_INSTS_NBR);
			if (!cm_warp(b, wi, nj, &t))
				continue;
			t.ready = w[wi].ready;
			t.seq = w[wi].seq;
			ng_ld_contig(&t, a->r + jc * CM_MAXATOMS + wi * NG_WARP, 16,
				     rj + wi * NG_WARP);
			w[wi].ready = t.ready;
			w[wi].seq = t.seq;
		}
		ng_block_sync(b);
		for (unsigned int wi = 0; wi < CM_WARPS; wi++) {
			if (wi * NG_WARP >= ni)
				continue;
			ng_warp_compute(&w[wi], CM_INSTS_PAIR * nj);
			for (uint32_t i = wi * NG_WARP; i < ni && i < (wi + 1) * NG_WARP; i++)
				for (uint32_t j = 0; j < nj; j++)
					cm_pair(a, &ri[i], &rj[j], sh, &fu[i]);
		}
	}
	for (unsigned int wi = 0; wi < CM_WARPS; wi++) {
		struct ng_warp t;

		if (!cm_warp(b, wi, ni, &t))
			continue;
		ng_st_contig(&t, a->f + s0 + wi * NG_WARP, 16, fu + wi * NG_WARP);
	}
}

/*
 * The step's first half: advanceVelocity (dt/2) and advancePosition (dt);
 * with @drift false, the second half's advanceVelocity alone.
 */
static void cm_advance_block(struct ng_block *b, const struct cm_args *a,
			     bool drift)
{
	uint64_t s0 = b->id * CM_MAXATOMS;
	struct ng_warp w[CM_WARPS];
	uint32_t ni = 0;

	for (unsigned int wi = 0; wi < CM_WARPS; wi++) {
		ng_warp_get(b, wi, &w[wi]);
		ni = cm_count(&w[wi], a->natoms + b->id);
	}
	for (unsigned int wi = 0; wi < CM_WARPS; wi++) {
		struct cm_vec pb[NG_WARP], fb[NG_WARP], rb[NG_WARP];
		uint64_t s = s0 + wi * NG_WARP;
		struct ng_warp t;

		ng_warp_wait(&w[wi]);
		if (!cm_warp(b, wi, ni, &t))
			continue;
		ng_ld_contig(&t, a->p + s, 16, pb);
		ng_ld_contig(&t, a->f + s, 16, fb);
		if (drift)
			ng_ld_contig(&t, a->r + s, 16, rb);
		ng_warp_wait(&t);
		ng_warp_compute(&t, drift ? CM_INSTS_ADV : CM_INSTS_KICK);
		for (unsigned int l = 0; l < t.nlanes; l++) {
			cm_kick(&pb[l], &fb[l], 0.5f * CM_DT);
			if (drift)
				cm_drift(&rb[l], &pb[l], CM_DT);
		}
		ng_st_contig(&t, a->p + s, 16, pb);
		if (drift)
			ng_st_contig(&t, a->r + s, 16, rb);
	}
}

static void cm_advance(struct ng_block *b, void *p)
{
	cm_advance_block(b, p, true);
}

static void cm_kick_kernel(struct ng_block *b, void *p)
{
	cm_advance_block(b, p, false);
}
static int cm_run(struct ng_system *sys, const struct ng_bench_opts *o,
		  struct ng_bench_result *r, char *err, size_t errlen)
{
	struct ng_buf br = { 0 }, bp = { 0 }, bf = { 0 }, bn = { 0 };
	struct cm_vec *hr = NULL, *hp = NULL, *hf = NULL;
	float *got = NULL, *want = NULL;
	uint32_t *hn = NULL;
	struct cm_args a = { 0 };
	double pt[3] = { 0 }, ke = 0, pe = 0;
	unsigned int nx = CM_MIN_NX;
	uint64_t slots, bytes, natoms, n;
	struct cm_init in;
	char ok[160];
	struct wlc c;
	float rc6;
	int ret;

	wlc_init(&c, sys, o, r, err, errlen);
	/* the most unit cells a side whose position array fits the size */
	while (nx < CM_MAX_NX &&
	       (uint64_t)cm_cells(nx + 1) * cm_cells(nx + 1) * cm_cells(nx + 1) *
	       CM_MAXATOMS * sizeof(struct cm_vec) <= o->size)
		nx++;
	a.nc = cm_cells(nx);
	a.ncells = (uint64_t)a.nc * a.nc * a.nc;
	slots = a.ncells * CM_MAXATOMS;
	bytes = slots * sizeof(struct cm_vec);
	if (bytes > o->size) {
		ng_seterr(err, errlen,
			  "comd: size must hold %u^3 cells of %u atoms' positions (%llu KiB) at least",
			  cm_cells(CM_MIN_NX), CM_MAXATOMS,
			  (unsigned long long)(bytes >> 10));
		return -EINVAL;
	}
	a.extent = (float)nx * CM_LAT;
	a.rcut2 = CM_CUTOFF * CM_CUTOFF;
	a.s6 = CM_SIGMA * CM_SIGMA * CM_SIGMA * CM_SIGMA * CM_SIGMA * CM_SIGMA;
	rc6 = a.s6 / (a.rcut2 * a.rcut2 * a.rcut2);
	a.eshift = 1.0f * rc6 * (rc6 - 1.0f);	/* POT_SHIFT 1.0 */
	natoms = 4ULL * nx * nx * nx;
	hr = calloc(slots, sizeof(*hr));
	hp = calloc(slots, sizeof(*hp));
	hf = calloc(slots, sizeof(*hf));
	hn = calloc(a.ncells, sizeof(*hn));
	if (!hr || !hp || !hf || !hn) {
		ng_seterr(err, errlen, "comd: out of memory for the host's atoms");
		ret = -ENOMEM;
		goto out;
	}
	cm_lattice(&a, nx, hr, hn);
	for (uint64_t i = 0; i < a.ncells; i++)
		if (hn[i] > CM_MAXATOMS) {
			ng_seterr(err, errlen, "comd: cell %llu holds %u atoms, over %u",
				  (unsigned long long)i, hn[i], CM_MAXATOMS);
			ret = -EINVAL;
			goto out;
		}
	ret = wlc_alloc_each(&c, (struct ng_buf *const[]){ &br, &bp, &bf }, 3,
			     bytes);
	if (!ret)
		ret = wlc_alloc(&c, &bn, a.ncells * 4, -1);
	if (ret)
		goto out;
	a.r = br.ptr;
	a.p = bp.ptr;
	a.f = bf.ptr;
	a.natoms = bn.ptr;
	in = (struct cm_init){ .a = &a, .r = hr, .natoms = hn };
	ret = wlc_launch(&c, "comd-init", cm_init_kernel, &in, a.ncells,
			 CM_MAXATOMS, -1, false);
	/* CoMD's computeForce before the first step */
	if (!ret)
		ret = wlc_launch(&c, "comd-force0", cm_force, &a, a.ncells,
				 CM_MAXATOMS, -1, false);
	if (ret)
		goto out;
	r->elements = natoms;
	c.total = 3 * o->iters;
	ng_system_reset_counters(sys);
	for (unsigned int it = 0; it < o->iters && !ret; it++) {
		ret = wlc_launch(&c, "comd-advance", cm_advance, &a, a.ncells,
				 CM_MAXATOMS, -1, true);
		if (!ret)
			ret = wlc_launch(&c, "comd-force", cm_force, &a, a.ncells,
					 CM_MAXATOMS, -1, true);
		if (!ret)
			ret = wlc_launch(&c, "comd-kick", cm_kick_kernel, &a,
					 a.ncells, CM_MAXATOMS, -1, true);
	}
	if (ret)
		goto out;
	wl_collect(sys, r);
	/*
	 * per atom and step: advance's p, f, r in and p, r out, the force's
	 * own r, 27 cells' staged positions (a cell's atoms over its 64
	 * slots' share) and f out, kick's p, f in and p out
	 */
	r->bytes = 16ULL * natoms * (5 + 1 + 27 + 1 + 3) * o->iters;
	cm_cpu_force(&a, hn, hr, hf);
	for (unsigned int it = 0; it < o->iters; it++)
		cm_cpu_step(&a, hn, hr, hp, hf);
	for (uint64_t s = 0; s < slots; s++) {
		if (s % CM_MAXATOMS >= hn[s / CM_MAXATOMS])
			continue;
		for (int m = 0; m < 3; m++) {
			pt[m] += hp[s].x[m];
			ke += 0.5 * (double)hp[s].x[m] * hp[s].x[m] / CM_MASS;
		}
		pe += hf[s].x[3];
	}
	pe *= 4.0 * CM_EPSILON;
	snprintf(ok, sizeof(ok),
		 "%u step%s, %llu atoms, %u^3 cells: r, p, f match the CPU's; momentum (%.2g, %.2g, %.2g), eK %.5g eU %.5g eV",
		 o->iters, o->iters == 1 ? "" : "s", (unsigned long long)natoms,
		 a.nc, pt[0], pt[1], pt[2], ke, pe);
	{
		struct cm_vec *dev[3] = { a.r, a.p, a.f }, *host[3] = { hr, hp, hf };
		static const char *const what[3] = { "r", "p", "f" };

		for (int k = 0; k < 3; k++) {
			free(got);
			free(want);
			got = cm_pack(&a, hn, dev[k], &n);
			want = cm_pack(&a, hn, host[k], &n);
			if (!got || !want) {
				ng_seterr(err, errlen, "comd: out of memory");
				ret = -ENOMEM;
				goto out;
			}
			if (k == 1)
				wl_corrupt_f32(o, got, n);
			/* element [atom][word]: the atom in cell-slot order */
			if (!wl_check_f32(r, what[k], got, want, n, 4, 1e-4f,
					  k == 2 ? 1e-5f : 1e-7f, ok))
				break;
		}
	}
out:
	free(got);
	free(want);
	free(hr);
	free(hp);
	free(hf);
	free(hn);
	ng_free(c.sp, &bn);
	ng_free(c.sp, &bf);
	ng_free(c.sp, &bp);
	ng_free(c.sp, &br);
	return ret;
}

/*
 * Table II: "CoMD-xyz64 warp CoMD 910 MB" (64^3 unit cells, 1 Mi atoms
 * in CoMD's doubles); --size is the bytes of the position array, a third
 * of the footprint, which sets the unit cells a side.
 */
const struct ng_workload ng_wl_comd = {
	.name = "comd",
	.desc = "CoMD-like molecular dynamics: Lennard-Jones forces over 27 link cells, velocity and position steps",
	.default_size = 1ULL << 20,	/* 17^3 unit cells: 10^3 cells */
	.paper_footprint = 910ULL << 20,
	.paper_ref = "CARVE Table II: CoMD-xyz64 warp 910 MB",
	.default_iters = 1,
	.narrays = 3,
	.run = cm_run,
};
