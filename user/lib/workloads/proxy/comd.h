/* SPDX-License-Identifier: GPL-2.0 */
/* comd: what its kernels (comd.c) and its CPU side (comd_ref.c) share. */
#ifndef NGEMU_LIB_WL_PROXY_COMD_H
#define NGEMU_LIB_WL_PROXY_COMD_H

#include <math.h>
#include <stdlib.h>

#include "workloads/wl.h"

#define CM_MAXATOMS	64		/* linkCells.h's MAXATOMS */
#define CM_WARPS	(CM_MAXATOMS / NG_WARP)
#define CM_LAT		3.615f		/* Cu, A */
#define CM_SIGMA	2.315f
#define CM_EPSILON	0.167f		/* eV */
#define CM_CUTOFF	(2.5f * CM_SIGMA)
#define CM_AMU		103.642697f	/* amuToInternalMass, eV fs^2 / A^2 */
#define CM_MASS		(63.55f * CM_AMU)
#define CM_DT		1.0f		/* fs */
#define CM_DELTA	0.1f		/* A */
#define CM_MIN_NX	5		/* 3 cells a side */
#define CM_MAX_NX	128
/*
 * Warp instructions, per thread. A pair: 3 subtracts and adds of the
 * shift, 3 multiply-adds for r^2, the cutoff's two tests, the reciprocal
 * (~4), r6 (3), the energy (3) and U's add (1), fr (4), the 3 force
 * multiply-adds, the loop (2): ~30 (CM_INSTS_PAIR). A neighbour cell: its
 * coordinates, periodic wrap and shift (~20), the staging's addresses
 * (4) and the loop (2) (CM_INSTS_NBR). advance: the two half-kicks'
 * 3 multiply-adds, the 1/m multiply and 3 position multiply-adds, the
 * slot's address (~12); kick: 3 multiply-adds and the address (~6).
 */
#define CM_INSTS_PAIR	30
#define CM_INSTS_NBR	26
#define CM_INSTS_ADV	12
#define CM_INSTS_KICK	6

struct cm_vec {
	float x[4];
};

struct cm_args {
	struct cm_vec *r, *p, *f;	/* cells x CM_MAXATOMS slots */
	uint32_t *natoms;		/* per cell */
	unsigned int nc;		/* cells a side */
	uint64_t ncells;
	float extent, s6, rcut2, eshift;
};

uint64_t cm_cell(const struct cm_args *a, unsigned int x, unsigned int y,
		 unsigned int z);

uint64_t cm_nbr(const struct cm_args *a, uint64_t c, int n,
		float shift[3]);

void cm_pair(const struct cm_args *a, const struct cm_vec *ri,
	     const struct cm_vec *rj, const float sh[3],
	     struct cm_vec *fu);

void cm_kick(struct cm_vec *p, const struct cm_vec *f, float dt);

void cm_drift(struct cm_vec *r, const struct cm_vec *p, float dt);

struct cm_vec cm_atom(uint64_t gid, const unsigned int u[3], int ib);

uint64_t cm_cell_of(const struct cm_args *a, const struct cm_vec *v);

void cm_lattice(const struct cm_args *a, unsigned int nx,
		struct cm_vec *r, uint32_t *natoms);

void cm_cpu_force(const struct cm_args *a, const uint32_t *natoms,
		  const struct cm_vec *r, struct cm_vec *f);

void cm_cpu_step(const struct cm_args *a, const uint32_t *natoms,
		 struct cm_vec *r, struct cm_vec *p, struct cm_vec *f);

unsigned int cm_cells(unsigned int nx);

float *cm_pack(const struct cm_args *a, const uint32_t *natoms,
	       const struct cm_vec *v, uint64_t *n);

#endif /* NGEMU_LIB_WL_PROXY_COMD_H */
