/* SPDX-License-Identifier: GPL-2.0 */
/* cfd: what its kernels (cfd.c) and its CPU side (cfd_ref.c) share. */
#ifndef NGEMU_LIB_WL_RODINIA_CFD_H
#define NGEMU_LIB_WL_RODINIA_CFD_H

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

void cfd_fc(const float *mom, float de, float pr, const float *vel,
	    float *fx, float *fy, float *fz, float *fe);

float cfd_pressure(float d, float de, float sq);

float cfd_state(const float *v, float *vel, float *sq);

float cfd_step_cell(const float *v, float area);

void cfd_flux_cell(const struct cfd_ff *ff, const float *vi,
		   const int32_t *nb, float n[CFD_NNB][CFD_NDIM],
		   float vn[CFD_NNB][CFD_NVAR], float *out);

float cfd_ts(float old, float factor, float flux);

void cfd_ff_init(struct cfd_ff *ff);

void cfd_perm(uint64_t seed, uint64_t c, unsigned int p[CFD_NNB]);

int32_t cfd_base_nb(uint64_t s, uint64_t x, uint64_t y, unsigned int d);

float cfd_face(uint64_t seed, bool vert, uint64_t x, uint64_t y);

float cfd_base_normal(uint64_t seed, uint64_t x, uint64_t y,
		      unsigned int d, unsigned int k);

uint64_t cfd_cell(const struct cfd_args *a, uint64_t i);

int32_t cfd_nb0(const struct cfd_args *a, uint64_t i, unsigned int j);

float cfd_normal0(const struct cfd_args *a, uint64_t i, unsigned int j,
		  unsigned int k);

float cfd_area0(const struct cfd_args *a, uint64_t i);

float cfd_var0(const struct cfd_args *a, uint64_t i, unsigned int v);

int cfd_reference(const struct cfd_args *a, unsigned int iters,
		  float *var);

#endif /* NGEMU_LIB_WL_RODINIA_CFD_H */
