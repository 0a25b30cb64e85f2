// SPDX-License-Identifier: GPL-2.0
/*
 * cfd's CPU side: euler3d's cell functions, which its kernels (cfd.c)
 * also run, the generated mesh and initial variables, and the reference
 * iterations its result is checked against.
 */
#include "workloads/rodinia/cfd.h"

void cfd_fc(const float *mom, float de, float pr, const float *vel,
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

float cfd_pressure(float d, float de, float sq)
{
	return (CFD_GAMMA - 1.0f) * (de - 0.5f * d * sq);
}

/* velocity, speed squared and pressure of the variables @v */
float cfd_state(const float *v, float *vel, float *sq)
{
	vel[0] = v[1] / v[0];
	vel[1] = v[2] / v[0];
	vel[2] = v[3] / v[0];
	*sq = vel[0] * vel[0] + vel[1] * vel[1] + vel[2] * vel[2];
	return cfd_pressure(v[0], v[4], *sq);
}

/* cuda_compute_step_factor's cell */
float cfd_step_cell(const float *v, float area)
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
void cfd_flux_cell(const struct cfd_ff *ff, const float *vi,
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
float cfd_ts(float old, float factor, float flux)
{
	return old + factor * flux;
}

/* Rodinia's far-field set-up, on the host */
void cfd_ff_init(struct cfd_ff *ff)
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
void cfd_perm(uint64_t seed, uint64_t c, unsigned int p[CFD_NNB])
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
int32_t cfd_base_nb(uint64_t s, uint64_t x, uint64_t y, unsigned int d)
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
float cfd_face(uint64_t seed, bool vert, uint64_t x, uint64_t y)
{
	uint64_t h = wlc_hash((seed << 1 | vert) * 0x9e37 + (x << 32) + y);

	return 1.0f + (float)(h % 64) / 640.0f;
}

/* normal component @k of cell (x, y)'s face @d (base order), outward */
float cfd_base_normal(uint64_t seed, uint64_t x, uint64_t y,
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

uint64_t cfd_cell(const struct cfd_args *a, uint64_t i)
{
	return i < a->nel ? i : a->nel - 1;
}

int32_t cfd_nb0(const struct cfd_args *a, uint64_t i, unsigned int j)
{
	uint64_t c = cfd_cell(a, i);
	unsigned int p[CFD_NNB];

	cfd_perm(a->seed, c, p);
	return cfd_base_nb(a->side, c % a->side, c / a->side, p[j]);
}

float cfd_normal0(const struct cfd_args *a, uint64_t i, unsigned int j,
		  unsigned int k)
{
	uint64_t c = cfd_cell(a, i);
	unsigned int p[CFD_NNB];

	cfd_perm(a->seed, c, p);
	return cfd_base_normal(a->seed, c % a->side, c / a->side, p[j], k);
}

float cfd_area0(const struct cfd_args *a, uint64_t i)
{
	return 1.0f + (float)(wlc_hash(a->seed * 0xa4ea +
				       cfd_cell(a, i)) % 32) / 64.0f;
}

float cfd_var0(const struct cfd_args *a, uint64_t i, unsigned int v)
{
	float d = (float)(wlc_hash(a->seed * 0xde25 + cfd_cell(a, i)) % 201);

	/* density and energy within 1% of the far field */
	if (v == 0 || v == 4)
		return a->ff.var[v] * (1.0f + (d - 100.0f) / 10000.0f);
	return a->ff.var[v];
}

/* The same iterations on the CPU, into @var (nelr x 5, initialised). */
int cfd_reference(const struct cfd_args *a, unsigned int iters,
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
