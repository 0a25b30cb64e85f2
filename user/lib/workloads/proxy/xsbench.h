/* SPDX-License-Identifier: GPL-2.0 */
/*
 * XSBench's arithmetic and data (private to lib/workloads/proxy): what
 * the kernel (xsbench.c) and the CPU's reference share, so that both
 * round alike, and the host's making of the data (xsbench_data.c).
 */
#ifndef NGEMU_LIB_WL_PROXY_XSBENCH_H
#define NGEMU_LIB_WL_PROXY_XSBENCH_H

#include <stdint.h>

#define XS_MATS		12
#define XS_SMALL	68		/* H-M small's nuclides */
#define XS_LARGE	355		/* H-M large's */
#define XS_SEED		1070ULL		/* STARTING_SEED */

/* NuclideGridPoint: an energy and its 5 micro cross sections */
struct xs_point {
	double energy, total, elastic, absorb, fission, nu_fission;
};

struct xs_data {
	struct xs_point *grid;		/* niso x g, each nuclide by energy */
	double *egrid;			/* the unionized grid: niso x g */
	int32_t *index;			/* niso x g rows of niso */
	int32_t *num_nucs;		/* XS_MATS */
	int32_t *mats;			/* XS_MATS x xs_max_nucs() */
	double *concs;			/* XS_MATS x xs_max_nucs() */
};

/* The most nuclides of a material: the fuel's. */
static inline uint32_t xs_max_nucs(uint64_t niso)
{
	return niso == XS_SMALL ? 34 : 321;
}

/* XSBench's data for @niso nuclides (XS_SMALL, XS_LARGE) of @g gridpoints, bytes. */
uint64_t wl_xs_bytes(uint64_t niso, uint64_t g);
/*
 * GridInit.c and Materials.c: @h's arrays malloc'd and filled as XSBench
 * fills them; 0 or -ENOMEM (wl_xs_free() frees what was made).
 */
int wl_xs_build(struct xs_data *h, uint64_t niso, uint64_t g);
void wl_xs_free(struct xs_data *h);

/* LCG_random_double */
static inline double xs_lcg(uint64_t *seed)
{
	const uint64_t m = 9223372036854775808ULL;	/* 2^63 */
	const uint64_t a = 2806196910506780709ULL;

	*seed = (a * *seed + 1) % m;
	return (double)*seed / (double)m;
}

/* XSBench's fast_forward_LCG: the seed n draws on, in log(n) steps. */
static inline uint64_t xs_forward(uint64_t seed, uint64_t n)
{
	const uint64_t m = 9223372036854775808ULL;
	uint64_t a = 2806196910506780709ULL, c = 1, an = 1, cn = 0;

	n %= m;
	while (n > 0) {
		if (n & 1) {
			an *= a;
			cn = cn * a + c;
		}
		c *= a + 1;
		a *= a;
		n >>= 1;
	}
	return (an * seed + cn) % m;
}

/* pick_mat, its running sums in its order (material 0 takes the rest) */
static inline uint32_t xs_pick_mat(uint64_t *seed)
{
	static const double dist[XS_MATS] = {
		0.140, 0.052, 0.275, 0.134, 0.154, 0.064,
		0.066, 0.055, 0.008, 0.015, 0.025, 0.013,
	};
	double roll = xs_lcg(seed);

	for (uint32_t i = 0; i < XS_MATS; i++) {
		double running = 0;

		for (uint32_t j = i; j > 0; j--)
			running += dist[j];
		if (roll < running)
			return i;
	}
	return 0;
}

/* Lookup @i's energy and material: two draws from its own seed. */
static inline void xs_sample(uint64_t i, double *e, uint32_t *mat)
{
	uint64_t seed = xs_forward(XS_SEED, 2 * i);

	*e = xs_lcg(&seed);
	*mat = xs_pick_mat(&seed);
}

/*
 * calculate_micro_xs's interpolation between @lo and @lo + 1, times the
 * concentration, added to @macro: the kernel's and the CPU's, so that
 * both round alike.
 */
static inline void xs_accumulate(const struct xs_point *lo, double e,
				 double conc, double macro[5])
{
	const struct xs_point *hi = lo + 1;
	double f = (hi->energy - e) / (hi->energy - lo->energy), xs[5];

	xs[0] = hi->total - f * (hi->total - lo->total);
	xs[1] = hi->elastic - f * (hi->elastic - lo->elastic);
	xs[2] = hi->absorb - f * (hi->absorb - lo->absorb);
	xs[3] = hi->fission - f * (hi->fission - lo->fission);
	xs[4] = hi->nu_fission - f * (hi->nu_fission - lo->nu_fission);
	for (int k = 0; k < 5; k++)
		macro[k] += xs[k] * conc;
}

/* XSBench's verification: the largest macro XS's index, plus one. */
static inline uint64_t xs_vhash(const double macro[5])
{
	double max = -1.0;
	int max_idx = 0;

	for (int j = 0; j < 5; j++)
		if (macro[j] > max) {
			max = macro[j];
			max_idx = j;
		}
	return (uint64_t)max_idx + 1;
}

#endif /* NGEMU_LIB_WL_PROXY_XSBENCH_H */
