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
#include <math.h>
#include <stdlib.h>

#include "workloads/wl.h"

#define CFD_BLOCK	192		/* Rodinia's BLOCK_SIZE_0..4 */
#define CFD_WARPS	(CFD_BLOCK / NG_WARP)
#define CFD_NNB		4
#define CFD_NDIM	3
#define CFD_NVAR	5		/* density, momentum x, y, z, energy */
#define CFD_RK		3
#define CFD_GAMMA	1.4f
#define CFD_MACH	1.2f
/* step factor: velocity, speed, pressure, sound, two roots, a divide (~30) */
#define CFD_STEP_INSTS	30
/* flux: the cell's own velocity, pressure and flux contributions (~40) */
#define CFD_FLUX_INSTS	40
/* flux, per neighbour: its normal's length, branch, 30 multiply-adds (~80) */
#define CFD_NB_INSTS	80
/* time step: a divide and five multiply-adds with their indices (~15) */
#define CFD_TS_INSTS	15
/* the copy of the variables: an index and a move per variable (~6) */
#define CFD_COPY_INSTS	6

/* Rodinia's far-field constants (__constant__ there) */
struct cfd_ff {
	float var[CFD_NVAR];
	float fc_x[3], fc_y[3], fc_z[3], fc_e[3];
};

struct cfd_args {
	float *var, *old, *flux, *step, *area, *normals;
	int32_t *nb;
	uint64_t nel, nelr, side, seed;
	unsigned int stage;		/* time_step's j */
	struct cfd_ff ff;
};

static void cfd_fc(const float *mom, float de, float pr, const float *vel,
		   float *fx, float *fy, float *fz, float *fe)
{
	float de_p;

	fx[0] = vel[0] * mom[0] + pr;
	fx[1] = vel[0] * mom[1];
	fx[2] = vel[0] * mom[2];
	fy[0] = fx[1];
	fy[1] = vel[1] * mom[1] + pr;
	fy[2] = vel[1] * mom[2];
	fz[0] = fx[2];
	fz[1] = fy[2];
	fz[2] = vel[2] * mom[2] + pr;
	de_p = de + pr;
	fe[0] = vel[0] * de_p;
	fe[1] = vel[1] * de_p;
	fe[2] = vel[2] * de_p;
}

static float cfd_pressure(float d, float de, float sq)
{
	return (CFD_GAMMA - 1.0f) * (de - 0.5f * d * sq);
}

/* velocity, speed squared and pressure of the variables @v */
static float cfd_state(const float *v, float *vel, float *sq)
{
	vel[0] = v[1] / v[0];
	vel[1] = v[2] / v[0];
	vel[2] = v[3] / v[0];
	*sq = vel[0] * vel[0] + vel[1] * vel[1] + vel[2] * vel[2];
	return cfd_pressure(v[0], v[4], *sq);
}

/* cuda_compute_step_factor's cell */
static float cfd_step_cell(const float *v, float area)
{
	float vel[3], sq, pr, c;

	pr = cfd_state(v, vel, &sq);
	c = sqrtf(CFD_GAMMA * pr / v[0]);
	return 0.5f / (sqrtf(area) * (sqrtf(sq) + c));
}

/*
 * cuda_compute_flux's cell: @vi its variables, @nb its neighbours,
 * @n[j] neighbour j's normal, @vn[j] its variables (when nb[j] >= 0).
 */
static void cfd_flux_cell(const struct cfd_ff *ff, const float *vi,
			  const int32_t *nb, float n[CFD_NNB][CFD_NDIM],
			  float vn[CFD_NNB][CFD_NVAR], float *out)
{
	float vel_i[3], sq_i, speed_i, pr_i, c_i;
	float fx_i[3], fy_i[3], fz_i[3], fe_i[3];
	float f_d = 0.0f, f_m[3] = { 0.0f, 0.0f, 0.0f }, f_e = 0.0f;

	pr_i = cfd_state(vi, vel_i, &sq_i);
	speed_i = sqrtf(sq_i);
	c_i = sqrtf(CFD_GAMMA * pr_i / vi[0]);
	cfd_fc(vi + 1, vi[4], pr_i, vel_i, fx_i, fy_i, fz_i, fe_i);
	for (unsigned int j = 0; j < CFD_NNB; j++) {
		const float *nr = n[j];
		float len = sqrtf(nr[0] * nr[0] + nr[1] * nr[1] +
				  nr[2] * nr[2]);
		float factor;

		if (nb[j] >= 0) {
			const float *v = vn[j];
			float vel[3], sq, pr, c;
			float fx[3], fy[3], fz[3], fe[3];

			pr = cfd_state(v, vel, &sq);
			c = sqrtf(CFD_GAMMA * pr / v[0]);
			cfd_fc(v + 1, v[4], pr, vel, fx, fy, fz, fe);
			/* artificial viscosity */
			factor = -len * 0.2f * 0.5f *
				 (speed_i + sqrtf(sq) + c_i + c);
			f_d += factor * (vi[0] - v[0]);
			f_e += factor * (vi[4] - v[4]);
			f_m[0] += factor * (vi[1] - v[1]);
			f_m[1] += factor * (vi[2] - v[2]);
			f_m[2] += factor * (vi[3] - v[3]);
			/* cell-centred fluxes, x, y then z */
			for (unsigned int k = 0; k < CFD_NDIM; k++) {
				factor = 0.5f * nr[k];
				f_d += factor * (v[1 + k] + vi[1 + k]);
				f_e += factor * (fe[k] + fe_i[k]);
				f_m[0] += factor * (fx[k] + fx_i[k]);
				f_m[1] += factor * (fy[k] + fy_i[k]);
				f_m[2] += factor * (fz[k] + fz_i[k]);
			}
		} else if (nb[j] == -1) {	/* a wing boundary */
			f_m[0] += nr[0] * pr_i;
			f_m[1] += nr[1] * pr_i;
			f_m[2] += nr[2] * pr_i;
		} else {			/* -2: the far field */
			for (unsigned int k = 0; k < CFD_NDIM; k++) {
				factor = 0.5f * nr[k];
				f_d += factor * (ff->var[1 + k] + vi[1 + k]);
				f_e += factor * (ff->fc_e[k] + fe_i[k]);
				f_m[0] += factor * (ff->fc_x[k] + fx_i[k]);
				f_m[1] += factor * (ff->fc_y[k] + fy_i[k]);
				f_m[2] += factor * (ff->fc_z[k] + fz_i[k]);
			}
		}
	}
	out[0] = f_d;
	out[1] = f_m[0];
	out[2] = f_m[1];
	out[3] = f_m[2];
	out[4] = f_e;
}

/* cuda_time_step's variable: @factor is step_factors[i] / (RK + 1 - j) */
static float cfd_ts(float old, float factor, float flux)
{
	return old + factor * flux;
}

/* Rodinia's far-field set-up, on the host */
static void cfd_ff_init(struct cfd_ff *ff)
{
	float pr = 1.0f, c, speed, vel[3];

	ff->var[0] = 1.4f;
	c = (float)sqrt((double)(CFD_GAMMA * pr / ff->var[0]));
	speed = CFD_MACH * c;
	vel[0] = speed;
	vel[1] = 0.0f;
	vel[2] = 0.0f;
	ff->var[1] = ff->var[0] * vel[0];
	ff->var[2] = ff->var[0] * vel[1];
	ff->var[3] = ff->var[0] * vel[2];
	ff->var[4] = ff->var[0] * (0.5f * (speed * speed)) +
		     pr / (CFD_GAMMA - 1.0f);
	cfd_fc(ff->var + 1, ff->var[4], pr, vel, ff->fc_x, ff->fc_y, ff->fc_z,
	       ff->fc_e);
}

/*
 * The generated mesh. Base neighbour order: left, right, lower, upper;
 * cell c's slot j holds base neighbour cfd_perm(c)[j]. Padding cells are
 * the last cell.
 */
static void cfd_perm(uint64_t seed, uint64_t c, unsigned int p[CFD_NNB])
{
	uint64_t h = wlc_hash(seed * 0xcfd + c) % 24;
	unsigned int left[CFD_NNB] = { 0, 1, 2, 3 }, n = CFD_NNB;

	/* the h-th of the 24 orders (factorial number system) */
	for (unsigned int j = 0; j < CFD_NNB; j++) {
		unsigned int f = n == 4 ? 6 : n == 3 ? 2 : 1;
		unsigned int k = (unsigned int)(h / f);

		h %= f;
		p[j] = left[k];
		for (unsigned int m = k; m + 1 < n; m++)
			left[m] = left[m + 1];
		n--;
	}
}

/* neighbour @d (base order) of cell (x, y), or -1 (wing), -2 (far field) */
static int32_t cfd_base_nb(uint64_t s, uint64_t x, uint64_t y, unsigned int d)
{
	switch (d) {
	case 0:
		return x ? (int32_t)(y * s + x - 1) : -2;
	case 1:
		return x + 1 < s ? (int32_t)(y * s + x + 1) : -2;
	case 2:
		return y ? (int32_t)((y - 1) * s + x) : -1;
	default:
		return y + 1 < s ? (int32_t)((y + 1) * s + x) : -2;
	}
}

/* the length of a face: @vert faces between x - 1 and x, else y - 1 and y */
static float cfd_face(uint64_t seed, bool vert, uint64_t x, uint64_t y)
{
	uint64_t h = wlc_hash((seed << 1 | vert) * 0x9e37 + (x << 32) + y);

	return 1.0f + (float)(h % 64) / 640.0f;
}

/* normal component @k of cell (x, y)'s face @d (base order), outward */
static float cfd_base_normal(uint64_t seed, uint64_t x, uint64_t y,
			     unsigned int d, unsigned int k)
{
	bool vert = d < 2;
	float len = vert ? cfd_face(seed, true, x + (d == 1), y) :
			   cfd_face(seed, false, x, y + (d == 3));
	float sign = d == 0 || d == 2 ? -1.0f : 1.0f;

	/* the main axis, and a small z tilt */
	if (k == 2)
		return sign * len * 0.05f;
	return (vert ? k == 0 : k == 1) ? sign * len : 0.0f;
}

static uint64_t cfd_cell(const struct cfd_args *a, uint64_t i)
{
	return i < a->nel ? i : a->nel - 1;
}

static int32_t cfd_nb0(const struct cfd_args *a, uint64_t i, unsigned int j)
{
	uint64_t c = cfd_cell(a, i);
	unsigned int p[CFD_NNB];

	cfd_perm(a->seed, c, p);
	return cfd_base_nb(a->side, c % a->side, c / a->side, p[j]);
}

static float cfd_normal0(const struct cfd_args *a, uint64_t i, unsigned int j,
			 unsigned int k)
{
	uint64_t c = cfd_cell(a, i);
	unsigned int p[CFD_NNB];

	cfd_perm(a->seed, c, p);
	return cfd_base_normal(a->seed, c % a->side, c / a->side, p[j], k);
}

static float cfd_area0(const struct cfd_args *a, uint64_t i)
{
	return 1.0f + (float)(wlc_hash(a->seed * 0xa4ea +
				       cfd_cell(a, i)) % 32) / 64.0f;
}

static float cfd_var0(const struct cfd_args *a, uint64_t i, unsigned int v)
{
	float d = (float)(wlc_hash(a->seed * 0xde25 + cfd_cell(a, i)) % 201);

	/* density and energy within 1% of the far field */
	if (v == 0 || v == 4)
		return a->ff.var[v] * (1.0f + (d - 100.0f) / 10000.0f);
	return a->ff.var[v];
}

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

/* The same iterations on the CPU, into @var (nelr x 5, initialised). */
static int cfd_reference(const struct cfd_args *a, unsigned int iters,
			 float *var)
{
	uint64_t n = a->nelr;
	float *old = malloc(n * CFD_NVAR * 4), *flux = malloc(n * CFD_NVAR * 4);
	float *step = malloc(n * 4);

	if (!old || !flux || !step) {
		free(old);
		free(flux);
		free(step);
		return -ENOMEM;
	}
	for (unsigned int it = 0; it < iters; it++) {
		for (uint64_t x = 0; x < n * CFD_NVAR; x++)
			old[x] = var[x];
		for (uint64_t i = 0; i < n; i++) {
			float c[CFD_NVAR];

			for (unsigned int k = 0; k < CFD_NVAR; k++)
				c[k] = var[k * n + i];
			step[i] = cfd_step_cell(c, cfd_area0(a, i));
		}
		for (unsigned int j = 0; j < CFD_RK; j++) {
			for (uint64_t i = 0; i < n; i++) {
				float ci[CFD_NVAR], cn[CFD_NNB][CFD_NDIM];
				float cv[CFD_NNB][CFD_NVAR], o[CFD_NVAR];
				int32_t cb[CFD_NNB];

				for (unsigned int k = 0; k < CFD_NVAR; k++)
					ci[k] = var[k * n + i];
				for (unsigned int q = 0; q < CFD_NNB; q++) {
					cb[q] = cfd_nb0(a, i, q);
					for (unsigned int k = 0; k < CFD_NDIM; k++)
						cn[q][k] = cfd_normal0(a, i, q, k);
					for (unsigned int k = 0; k < CFD_NVAR; k++)
						cv[q][k] = cb[q] >= 0 ?
							   var[k * n + (uint64_t)cb[q]] :
							   0.0f;
				}
				cfd_flux_cell(&a->ff, ci, cb, cn, cv, o);
				for (unsigned int k = 0; k < CFD_NVAR; k++)
					flux[k * n + i] = o[k];
			}
			for (uint64_t i = 0; i < n; i++) {
				float f = step[i] / (float)(CFD_RK + 1 - j);

				for (unsigned int k = 0; k < CFD_NVAR; k++)
					var[k * n + i] = cfd_ts(old[k * n + i], f,
								flux[k * n + i]);
			}
		}
	}
	free(old);
	free(flux);
	free(step);
	return 0;
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
