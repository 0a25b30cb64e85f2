// SPDX-License-Identifier: GPL-2.0
/*
 * XSBench's data, made on the host as its GridInit.c and Materials.c make
 * them (ANL-CESAR/XSBench, cuda/): the same seeds, the same order of
 * draws and the same sorts, so that a grid of -s and -g is XSBench's.
 */
#include <errno.h>
#include <stdlib.h>

#include "workloads/proxy/xsbench.h"

uint64_t wl_xs_bytes(uint64_t niso, uint64_t g)
{
	return niso * g * (sizeof(struct xs_point) + 8 + 4 * niso) +
	       XS_MATS * (4 + xs_max_nucs(niso) * 12);
}

static int xs_cmp_point(const void *x, const void *y)
{
	const struct xs_point *p = x, *q = y;

	return (p->energy > q->energy) - (p->energy < q->energy);
}

static int xs_cmp_double(const void *x, const void *y)
{
	double p = *(const double *)x, q = *(const double *)y;

	return (p > q) - (p < q);
}

/* GridInit.c: nuclide grids, the unionized grid and its index grid. */
static void xs_grids(struct xs_data *h, uint64_t niso, uint64_t g,
		     int32_t *idx_low, double *energy_high)
{
	uint64_t n = niso * g, seed = 42;

	for (uint64_t i = 0; i < n; i++) {
		h->grid[i].energy = xs_lcg(&seed);
		h->grid[i].total = xs_lcg(&seed);
		h->grid[i].elastic = xs_lcg(&seed);
		h->grid[i].absorb = xs_lcg(&seed);
		h->grid[i].fission = xs_lcg(&seed);
		h->grid[i].nu_fission = xs_lcg(&seed);
	}
	for (uint64_t i = 0; i < niso; i++)
		qsort(&h->grid[i * g], g, sizeof(h->grid[0]), xs_cmp_point);
	for (uint64_t i = 0; i < n; i++)
		h->egrid[i] = h->grid[i].energy;
	qsort(h->egrid, n, sizeof(h->egrid[0]), xs_cmp_double);
	for (uint64_t i = 0; i < niso; i++) {
		idx_low[i] = 0;
		energy_high[i] = h->grid[i * g + 1].energy;
	}
	for (uint64_t e = 0; e < n; e++)
		for (uint64_t i = 0; i < niso; i++) {
			int32_t *ix = &h->index[e * niso + i];

			if (h->egrid[e] < energy_high[i] ||
			    idx_low[i] == (int32_t)g - 2) {
				*ix = idx_low[i];
				continue;
			}
			*ix = ++idx_low[i];
			energy_high[i] = h->grid[i * g + idx_low[i] + 1].energy;
		}
}

/* Materials.c: the nuclides of H-M's 12 materials and concentrations. */
static void xs_materials(struct xs_data *h, uint64_t niso, uint32_t max)
{
	static const int32_t fuel[34] = {
		58, 59, 60, 61, 40, 42, 43, 44, 45, 46, 1, 2, 3, 7, 8, 9, 10,
		29, 57, 47, 48, 0, 62, 15, 33, 34, 52, 53, 54, 55, 56, 18, 23,
		41,
	};
	static const int32_t clad[] = { 63, 64, 65, 66, 67 };
	static const int32_t water[] = { 24, 41, 4, 5 };
	static const int32_t rpv[] = {
		19, 20, 21, 22, 35, 36, 37, 38, 39, 25, 27, 28, 29, 30, 31,
		32, 26, 49, 50, 51, 11, 12, 13, 14, 6, 16, 17,
	};
	static const int32_t refl[] = {
		24, 41, 4, 5, 19, 20, 21, 22, 35, 36, 37, 38, 39, 25, 49, 50,
		51, 11, 12, 13, 14,
	};
	static const int32_t fa[] = { 24, 41, 4, 5, 63, 64, 65, 66, 67 };
	static const int32_t *const list[XS_MATS] = {
		fuel, clad, water, water, rpv, refl, refl, refl, refl, refl,
		fa, fa,
	};
	static const int32_t nn[XS_MATS] = {
		34, 5, 4, 4, 27, 21, 21, 21, 21, 21, 9, 9,
	};
	uint64_t seed = XS_SEED * XS_SEED;

	for (uint32_t m = 0; m < XS_MATS; m++) {
		h->num_nucs[m] = nn[m];
		for (int32_t j = 0; j < nn[m]; j++)
			h->mats[m * max + j] = list[m][j];
	}
	/* H-M large adds its nuclides 68 .. 354 to the fuel only */
	if (niso != XS_SMALL) {
		h->num_nucs[0] = 321;
		for (int32_t j = 34; j < 321; j++)
			h->mats[j] = XS_SMALL + j - 34;
	}
	for (uint32_t m = 0; m < XS_MATS; m++)
		for (int32_t j = 0; j < h->num_nucs[m]; j++)
			h->concs[m * max + j] = xs_lcg(&seed);
}

int wl_xs_build(struct xs_data *h, uint64_t niso, uint64_t g)
{
	uint32_t max = xs_max_nucs(niso);
	uint64_t n = niso * g;
	int32_t *idx_low = calloc(niso, sizeof(*idx_low));
	double *energy_high = calloc(niso, sizeof(*energy_high));

	h->grid = calloc(n, sizeof(*h->grid));
	h->egrid = calloc(n, sizeof(*h->egrid));
	h->index = calloc(n * niso, sizeof(*h->index));
	h->num_nucs = calloc(XS_MATS, sizeof(*h->num_nucs));
	h->mats = calloc(XS_MATS * max, sizeof(*h->mats));
	h->concs = calloc(XS_MATS * max, sizeof(*h->concs));
	if (idx_low && energy_high && h->grid && h->egrid && h->index &&
	    h->num_nucs && h->mats && h->concs) {
		xs_grids(h, niso, g, idx_low, energy_high);
		xs_materials(h, niso, max);
	}
	free(energy_high);
	free(idx_low);
	return h->grid && h->egrid && h->index && h->num_nucs && h->mats &&
	       h->concs ? 0 : -ENOMEM;
}

void wl_xs_free(struct xs_data *h)
{
	free(h->concs);
	free(h->mats);
	free(h->num_nucs);
	free(h->index);
	free(h->egrid);
	free(h->grid);
}

