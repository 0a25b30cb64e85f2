// SPDX-License-Identifier: GPL-2.0
/*
 * cfd: Rodinia's CFD solver (cfd/euler3d.cu, Corrigan et al.'s
 * cell-centred finite-volume Euler solver), single precision. Its data
 * as Rodinia lays it out, structure of arrays over nelr cells (nel
 * rounded up to the 192-thread block, the padding cells copies of the
 * last one): five variables (density, momentum x/y/z, density-energy),
 * an area, four neighbour indices (elements_surrounding_elements[i + j
 * nelr]) and four face normals of three components each. An iteration is
 * Rodinia's: old_variables = variables (a device-to-device copy there, a
 * copy kernel here), cuda_compute_step_factor, then for each of its RK = 3
 * stages cuda_compute_flux and cuda_time_step, every kernel a thread per
 * cell in blocks of 192 (BLOCK_SIZE_*). compute_flux reads each cell's
 * four neighbour indices and normals, waits for the indices, then
 * gathers the neighbours' five variables; a neighbour -1 is a wing
 * boundary (pressure only), -2 the far field (Rodinia's ff_* constants,
 * kernel arguments here, as __constant__ there). Every formula follows
 * Rodinia's, in its order.
 *
 * Where it differs: Rodinia reads its meshes (fvcorr.domn.*, each element
 * with 4 neighbours) from files; here the mesh is generated: an s x s
 * grid, each cell's left, right, lower and upper neighbours in an order
 * shuffled per cell (splitmix64 of the seed), the lower edge a wing and
 * the other edges far field, face normals of length 1 to 1.1 (opposite
 * on the two sides of a face) and areas of 1 to 1.5. Rodinia starts from
 * the uniform far field, which such a regular mesh would leave nearly
 * unchanged; here density and density-energy are perturbed by up to 1%
 * per cell. Rodinia runs 2000 iterations; here --iters (default 1).
 * Rodinia's padding loop copies the last cell's normals onto themselves,
 * leaving the padding cells' normals unset; here they are the last
 * cell's.
 *
 * CODA (Table 2) counts CFD-M core-exclusive: each block writes its own
 * cells and reads its own cells' geometry, and its neighbour reads reach
 * the next rows of the mesh, held by the same or the next block. Verified
 * against the CPU's iterations, the same functions in the same order,
 * every variable within 1e-4 relative.
 */
#include "workloads/rodinia/cfd.h"

/* Untimed: the mesh and the initial variables, a thread per cell. */
static void cfd_init(struct ng_block *b, void *p)
{
	const struct cfd_args *a = p;

	for (unsigned int wi = 0; wi < b->nwarps; wi++) {
		float f[NG_WARP];
		int32_t n[NG_WARP];
		struct ng_warp w;
		uint64_t i0;

		ng_warp_get(b, wi, &w);
		if (!wlc_lanes(&w, a->nelr, CFD_BLOCK, &i0))
			break;
		for (unsigned int l = 0; l < w.nlanes; l++)
			f[l] = cfd_area0(a, i0 + l);
		ng_st_contig(&w, a->area + i0, 4, f);
		for (unsigned int v = 0; v < CFD_NVAR; v++) {
			for (unsigned int l = 0; l < w.nlanes; l++)
				f[l] = cfd_var0(a, i0 + l, v);
			ng_st_contig(&w, a->var + v * a->nelr + i0, 4, f);
		}
		for (unsigned int j = 0; j < CFD_NNB; j++) {
			for (unsigned int l = 0; l < w.nlanes; l++)
				n[l] = cfd_nb0(a, i0 + l, j);
			ng_st_contig(&w, a->nb + j * a->nelr + i0, 4, n);
			for (unsigned int k = 0; k < CFD_NDIM; k++) {
				for (unsigned int l = 0; l < w.nlanes; l++)
					f[l] = cfd_normal0(a, i0 + l, j, k);
				ng_st_contig(&w, a->normals +
					     (j + k * CFD_NNB) * a->nelr + i0,
					     4, f);
			}
		}
	}
}

/*
 * Load @n arrays of the warps' cells, array v at base + v * nelr, into
 * @buf[wi][v]; the block's warps issue before any waits.
 */
static unsigned int cfd_load(struct ng_block *b, const struct cfd_args *a,
			     struct ng_warp *w, const float *base,
			     unsigned int n, float buf[][CFD_NVAR][NG_WARP],
			     uint64_t *i0)
{
	unsigned int nw = 0;

	for (unsigned int wi = 0; wi < b->nwarps; wi++) {
		ng_warp_get(b, wi, &w[wi]);
		if (!wlc_lanes(&w[wi], a->nelr, CFD_BLOCK, &i0[wi]))
			break;
		for (unsigned int v = 0; v < n; v++)
			ng_ld_contig(&w[wi], base + v * a->nelr + i0[wi], 4,
				     buf[wi][v]);
		nw++;
	}
	return nw;
}

/* old_variables = variables (Rodinia's cudaMemcpy, device to device) */
static void cfd_copy(struct ng_block *b, void *p)
{
	const struct cfd_args *a = p;
	float v[CFD_WARPS][CFD_NVAR][NG_WARP];
	struct ng_warp w[CFD_WARPS];
	uint64_t i0[CFD_WARPS];
	unsigned int nw = cfd_load(b, a, w, a->var, CFD_NVAR, v, i0);

	for (unsigned int wi = 0; wi < nw; wi++) {
		ng_warp_wait(&w[wi]);
		ng_warp_compute(&w[wi], CFD_COPY_INSTS);
		for (unsigned int k = 0; k < CFD_NVAR; k++)
			ng_st_contig(&w[wi], a->old + k * a->nelr + i0[wi], 4,
				     v[wi][k]);
	}
}

static void cfd_step(struct ng_block *b, void *p)
{
	const struct cfd_args *a = p;
	float v[CFD_WARPS][CFD_NVAR][NG_WARP], ar[CFD_WARPS][NG_WARP];
	struct ng_warp w[CFD_WARPS];
	uint64_t i0[CFD_WARPS];
	unsigned int nw = cfd_load(b, a, w, a->var, CFD_NVAR, v, i0);

	for (unsigned int wi = 0; wi < nw; wi++)
		ng_ld_contig(&w[wi], a->area + i0[wi], 4, ar[wi]);
	for (unsigned int wi = 0; wi < nw; wi++) {
		float s[NG_WARP];

		ng_warp_wait(&w[wi]);
		ng_warp_compute(&w[wi], CFD_STEP_INSTS);
		for (unsigned int l = 0; l < w[wi].nlanes; l++) {
			float c[CFD_NVAR];

			for (unsigned int k = 0; k < CFD_NVAR; k++)
				c[k] = v[wi][k][l];
			s[l] = cfd_step_cell(c, ar[wi][l]);
		}
		ng_st_contig(&w[wi], a->step + i0[wi], 4, s);
	}
}

static void cfd_flux(struct ng_block *b, void *p)
{
	const struct cfd_args *a = p;
	float v[CFD_WARPS][CFD_NVAR][NG_WARP];
	float n[CFD_WARPS][CFD_NNB * CFD_NDIM][NG_WARP];
	float vn[CFD_WARPS][CFD_NNB][CFD_NVAR][NG_WARP];
	int32_t nb[CFD_WARPS][CFD_NNB][NG_WARP];
	struct ng_warp w[CFD_WARPS];
	uint64_t i0[CFD_WARPS];
	unsigned int nw = cfd_load(b, a, w, a->var, CFD_NVAR, v, i0);

	/* each warp's neighbour indices and normals */
	for (unsigned int wi = 0; wi < nw; wi++) {
		ng_warp_compute(&w[wi], CFD_FLUX_INSTS);
		for (unsigned int j = 0; j < CFD_NNB; j++) {
			ng_ld_contig(&w[wi], a->nb + j * a->nelr + i0[wi], 4,
				     nb[wi][j]);
			for (unsigned int k = 0; k < CFD_NDIM; k++)
				ng_ld_contig(&w[wi], a->normals +
					     (j + k * CFD_NNB) * a->nelr +
					     i0[wi], 4,
					     n[wi][j * CFD_NDIM + k]);
		}
	}
	/* the gathers' addresses come from the indices: wait for them */
	for (unsigned int wi = 0; wi < nw; wi++) {
		struct ng_warp g = w[wi];

		ng_warp_wait(&w[wi]);
		for (unsigned int j = 0; j < CFD_NNB; j++) {
			uintptr_t addr[NG_WARP] = { 0 };

			g.active = 0;
			for (unsigned int l = 0; l < w[wi].nlanes; l++)
				if (nb[wi][j][l] >= 0) {
					g.active |= 1u << l;
					addr[l] = (uintptr_t)(a->var +
							      nb[wi][j][l]);
				}
			ng_warp_compute(&w[wi], CFD_NB_INSTS);
			if (!g.active)
				continue;
			g.ready = 0;
			for (unsigned int k = 0; k < CFD_NVAR; k++) {
				ng_ld(&g, addr, 4, vn[wi][j][k]);
				for (unsigned int l = 0; l < w[wi].nlanes; l++)
					addr[l] += a->nelr * 4;
			}
			if (g.ready > w[wi].ready)
				w[wi].ready = g.ready;
		}
	}
	for (unsigned int wi = 0; wi < nw; wi++) {
		float out[CFD_NVAR][NG_WARP];

		ng_warp_wait(&w[wi]);
		for (unsigned int l = 0; l < w[wi].nlanes; l++) {
			float ci[CFD_NVAR], cn[CFD_NNB][CFD_NDIM];
			float cv[CFD_NNB][CFD_NVAR], o[CFD_NVAR];
			int32_t cb[CFD_NNB];

			for (unsigned int k = 0; k < CFD_NVAR; k++)
				ci[k] = v[wi][k][l];
			for (unsigned int j = 0; j < CFD_NNB; j++) {
				cb[j] = nb[wi][j][l];
				for (unsigned int k = 0; k < CFD_NDIM; k++)
					cn[j][k] = n[wi][j * CFD_NDIM + k][l];
				for (unsigned int k = 0; k < CFD_NVAR; k++)
					cv[j][k] = cb[j] >= 0 ?
						   vn[wi][j][k][l] : 0.0f;
			}
			cfd_flux_cell(&a->ff, ci, cb, cn, cv, o);
			for (unsigned int k = 0; k < CFD_NVAR; k++)
				out[k][l] = o[k];
		}
		for (unsigned int k = 0; k < CFD_NVAR; k++)
			ng_st_contig(&w[wi], a->flux + k * a->nelr + i0[wi], 4,
				     out[k]);
	}
}

static void cfd_time_step(struct ng_block *b, void *p)
{
	const struct cfd_args *a = p;
	float old[CFD_WARPS][CFD_NVAR][NG_WARP], fl[CFD_WARPS][CFD_NVAR][NG_WARP];
	float sf[CFD_WARPS][NG_WARP];
	struct ng_warp w[CFD_WARPS];
	uint64_t i0[CFD_WARPS];
	unsigned int nw = cfd_load(b, a, w, a->old, CFD_NVAR, old, i0);

	for (unsigned int wi = 0; wi < nw; wi++) {
		ng_ld_contig(&w[wi], a->step + i0[wi], 4, sf[wi]);
		for (unsigned int k = 0; k < CFD_NVAR; k++)
			ng_ld_contig(&w[wi], a->flux + k * a->nelr + i0[wi], 4,
				     fl[wi][k]);
	}
	for (unsigned int wi = 0; wi < nw; wi++) {
		float out[CFD_NVAR][NG_WARP];

		ng_warp_wait(&w[wi]);
		ng_warp_compute(&w[wi], CFD_TS_INSTS);
		for (unsigned int l = 0; l < w[wi].nlanes; l++) {
			float f = sf[wi][l] / (float)(CFD_RK + 1 - a->stage);

			for (unsigned int k = 0; k < CFD_NVAR; k++)
				out[k][l] = cfd_ts(old[wi][k][l], f,
						   fl[wi][k][l]);
		}
		for (unsigned int k = 0; k < CFD_NVAR; k++)
			ng_st_contig(&w[wi], a->var + k * a->nelr + i0[wi], 4,
				     out[k]);
	}
}

static int cfd_run(struct ng_system *sys, const struct ng_bench_opts *o,
		   struct ng_bench_result *r, char *err, size_t errlen)
{
	struct ng_buf bv = { 0 }, bo = { 0 }, bf = { 0 }, bs = { 0 };
	struct ng_buf ba = { 0 }, bn = { 0 }, bb = { 0 };
	struct cfd_args a = { 0 };
	float *want = NULL;
	uint64_t blocks;
	struct wlc c;
	char ok[112];
	int ret;

	wlc_init(&c, sys, o, r, err, errlen);
	/* the size is the variables' array's: 5 floats a cell */
	a.side = wl_isqrt(o->size / (CFD_NVAR * 4));
	if (a.side < 2) {
		ng_seterr(err, errlen, "cfd: size must hold a 2 x 2 mesh's variables (%u bytes) at least",
			  4 * CFD_NVAR * 4);
		return -EINVAL;
	}
	a.nel = a.side * a.side;
	a.nelr = (a.nel + CFD_BLOCK - 1) / CFD_BLOCK * CFD_BLOCK;
	a.seed = c.cfg->seed;
	cfd_ff_init(&a.ff);
	blocks = a.nelr / CFD_BLOCK;
	ret = wlc_alloc(&c, &bv, a.nelr * CFD_NVAR * 4, -1);
	if (!ret)
		ret = wlc_alloc(&c, &bo, a.nelr * CFD_NVAR * 4, -1);
	if (!ret)
		ret = wlc_alloc(&c, &bf, a.nelr * CFD_NVAR * 4, -1);
	if (!ret)
		ret = wlc_alloc(&c, &bs, a.nelr * 4, -1);
	if (!ret)
		ret = wlc_alloc(&c, &ba, a.nelr * 4, -1);
	if (!ret)
		ret = wlc_alloc(&c, &bn, a.nelr * CFD_NNB * CFD_NDIM * 4, -1);
	if (!ret)
		ret = wlc_alloc(&c, &bb, a.nelr * CFD_NNB * 4, -1);
	if (ret)
		goto out;
	a.var = bv.ptr;
	a.old = bo.ptr;
	a.flux = bf.ptr;
	a.step = bs.ptr;
	a.area = ba.ptr;
	a.normals = bn.ptr;
	a.nb = bb.ptr;
	r->elements = a.nelr;
	ret = wlc_launch(&c, "cfd-init", cfd_init, &a, blocks, CFD_BLOCK, -1,
			 false);
	if (ret)
		goto out;
	c.total = (2 + 2 * CFD_RK) * o->iters;
	ng_system_reset_counters(sys);
	for (unsigned int it = 0; it < o->iters && !ret; it++) {
		ret = wlc_launch(&c, "copy", cfd_copy, &a, blocks, CFD_BLOCK, -1,
				 true);
		if (!ret)
			ret = wlc_launch(&c, "compute_step_factor", cfd_step, &a,
					 blocks, CFD_BLOCK, -1, true);
		for (a.stage = 0; a.stage < CFD_RK && !ret; a.stage++) {
			ret = wlc_launch(&c, "compute_flux", cfd_flux, &a,
					 blocks, CFD_BLOCK, -1, true);
			if (!ret)
				ret = wlc_launch(&c, "time_step", cfd_time_step,
						 &a, blocks, CFD_BLOCK, -1, true);
		}
	}
	if (ret)
		goto out;
	wl_collect(sys, r);
	/*
	 * per iteration: the copy (10 words a cell), the step factor (7),
	 * per stage the flux (5 + 16 + 20 + 5) and the time step (16)
	 */
	r->bytes = a.nelr * 4 * (10 + 7 + CFD_RK * (46 + 16)) * o->iters;
	want = malloc(a.nelr * CFD_NVAR * 4);
	if (!want) {
		ret = -ENOMEM;
		goto nomem;
	}
	for (unsigned int k = 0; k < CFD_NVAR; k++)
		for (uint64_t i = 0; i < a.nelr; i++)
			want[k * a.nelr + i] = cfd_var0(&a, i, k);
	ret = cfd_reference(&a, o->iters, want);
	if (ret)
		goto nomem;
	snprintf(ok, sizeof(ok),
		 "the %llu cells' variables (a %llu x %llu mesh) match the CPU's",
		 (unsigned long long)a.nelr, (unsigned long long)a.side,
		 (unsigned long long)a.side);
	wl_corrupt_f32(o, a.var, a.nelr * CFD_NVAR);
	wl_check_f32(r, "variables", a.var, want, a.nelr * CFD_NVAR, a.nelr,
		     1e-4f, 1e-5f, ok);
	goto out;
nomem:
	ng_seterr(err, errlen, "cfd: out of memory");
out:
	free(want);
	ng_free(c.sp, &bb);
	ng_free(c.sp, &bn);
	ng_free(c.sp, &ba);
	ng_free(c.sp, &bs);
	ng_free(c.sp, &bf);
	ng_free(c.sp, &bo);
	ng_free(c.sp, &bv);
	return ret;
}

const struct ng_workload ng_wl_cfd = {
	.name = "cfd",
	.desc = "CFD solver (Rodinia euler3d): step factor, then flux over 4 neighbours and time step per RK stage, on a generated mesh",
	/* a 128 x 128 mesh: 16 K cells, 2.1 MiB over the 7 arrays */
	.default_size = 320ULL << 10,
	.default_iters = 1,
	.narrays = 7,
	.run = cfd_run,
};
