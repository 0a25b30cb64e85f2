/* SPDX-License-Identifier: GPL-2.0 */
/* hpgmg: what its kernels (hpgmg.c) and its CPU side (hpgmg_ref.c) share. */
#ifndef NGEMU_LIB_WL_PROXY_HPGMG_H
#define NGEMU_LIB_WL_PROXY_HPGMG_H

#include <math.h>
#include <stdlib.h>

#include "workloads/wl.h"

#define HG_BOXES	4		/* boxes a side */
#define HG_NBOX		(HG_BOXES * HG_BOXES * HG_BOXES)
#define HG_BLOCK	256
#define HG_LEVELS	4
#define HG_SMOOTHS	2		/* NUM_SMOOTHS: 2 GSRB, 4 sweeps */
#define HG_BOTTOM	8		/* the bottom level's sweeps: even */
#define HG_NVEC		4		/* e, R, the temporary, F */
#define HG_MIN_N	(HG_BOXES << HG_LEVELS)
#define HG_MAX_N	512
/*
 * Warp instructions, per thread, of each kernel as compiled: a cell's
 * i, j, k and box from the thread index (~10, every kernel); the smooth
 * and the residual: the 6 neighbours' box-face tests and addresses
 * (~24), the boundary's selects (6), the 6 adds, the multiplies by 6 and
 * 1/h^2 and the subtract (9), the store's address (2); then the smooth's
 * colour parity and mask (3) and GSRB's multiplies and add (3), the
 * residual's subtract (1). Restriction: the 8 children's addresses (8),
 * 7 adds and the multiply (8), the two stores' addresses (2).
 * Interpolation: the parent's address (4), the add and the load and
 * store addresses (4).
 */
#define HG_INSTS_SMOOTH	57
#define HG_INSTS_RESID	52
#define HG_INSTS_RESTR	28
#define HG_INSTS_INTERP	18

enum { HG_E, HG_R, HG_T, HG_F };

struct hg_args {
	float *v[HG_LEVELS][HG_NVEC];
	uint64_t n[HG_LEVELS];		/* cells a side */
	unsigned int bd[HG_LEVELS];	/* a box's side */
	unsigned int lv;		/* the level a kernel works on */
	int src, dst;			/* the smooth's ping-pong */
	int sweep;			/* its colour: the sweep's parity */
};

/* The CPU's levels: the same vectors on the host. */
struct hg_cpu {
	float *v[HG_LEVELS][HG_NVEC];
};

uint64_t hg_at(unsigned int bd, uint64_t x, uint64_t y, uint64_t z);

void hg_xyz(unsigned int bd, uint64_t c, uint64_t *x, uint64_t *y,
	    uint64_t *z);

float hg_f0(uint64_t n, uint64_t x, uint64_t y, uint64_t z);

float hg_ax(float c, const float nb[6], float h2inv);

float hg_gsrb(float c, float rhs, float ax, float dinv, float rb);

float hg_color(uint64_t x, uint64_t y, uint64_t z, int s);

float hg_restrict(const float v[8]);

float hg_h2inv(const struct hg_args *a, unsigned int lv);

uint64_t hg_cells(const struct hg_args *a, unsigned int lv);

bool hg_nbr(unsigned int bd, uint64_t n, uint64_t x, uint64_t y,
	    uint64_t z, int i, uint64_t *at);

float hg_cpu_ax(const struct hg_args *a, unsigned int lv,
		const float *x, uint64_t c);

void hg_cpu_smooth(const struct hg_args *a, struct hg_cpu *h,
		   unsigned int lv, int sweeps);

void hg_cpu_vcycle(const struct hg_args *a, struct hg_cpu *h);

double hg_resnorm(const struct hg_args *a, const float *e,
		  const float *f);
void hg_children(const struct hg_args *a, unsigned int lv, uint64_t cc,
		 uint64_t ch[8]);

#endif /* NGEMU_LIB_WL_PROXY_HPGMG_H */
