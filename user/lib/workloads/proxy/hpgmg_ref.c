// SPDX-License-Identifier: GPL-2.0
/*
 * hpgmg's CPU side: the grid's layout and the operator's arithmetic,
 * which its kernels (hpgmg.c) also run, and the same V-cycle on the host
 * that its result is checked against.
 */
#include "workloads/proxy/hpgmg.h"

/* Cell (x, y, z) of a level of side @bd boxes: its index in the vector. */
uint64_t hg_at(unsigned int bd, uint64_t x, uint64_t y, uint64_t z)
{
	uint64_t box = ((z / bd) * HG_BOXES + y / bd) * HG_BOXES + x / bd;

	return box * bd * bd * bd + ((z % bd) * bd + y % bd) * bd + x % bd;
}

/* The inverse of hg_at(): cell @c's coordinates. */
void hg_xyz(unsigned int bd, uint64_t c, uint64_t *x, uint64_t *y,
	    uint64_t *z)
{
	uint64_t box = c / ((uint64_t)bd * bd * bd), in = c % ((uint64_t)bd * bd * bd);

	*x = (box % HG_BOXES) * bd + in % bd;
	*y = (box / HG_BOXES % HG_BOXES) * bd + in / bd % bd;
	*z = (box / (HG_BOXES * HG_BOXES)) * bd + in / ((uint64_t)bd * bd);
}

/* The right-hand side F: a smooth pattern with a few sign changes. */
float hg_f0(uint64_t n, uint64_t x, uint64_t y, uint64_t z)
{
	float fx = (float)(x * 4 % n) / (float)n - 0.5f;
	float fy = (float)(y * 2 % n) / (float)n - 0.5f;
	float fz = (float)z / (float)n - 0.5f;

	return fx * fy + fz;
}

/*
 * The operator at a cell (the kernel's and the CPU's): @nb the 6
 * neighbours (-x, +x, -y, +y, -z, +z; zero outside the domain).
 */
float hg_ax(float c, const float nb[6], float h2inv)
{
	float s = nb[0] + nb[1];

	s = s + nb[2];
	s = s + nb[3];
	s = s + nb[4];
	s = s + nb[5];
	return (6.0f * c - s) * h2inv;
}

/*
 * gsrb.c's GSRB_FP update: x + RedBlack Dinv (rhs - A x), the mask 1 on
 * the sweep's colour and 0 on the other (whose cells copy their value).
 */
float hg_gsrb(float c, float rhs, float ax, float dinv, float rb)
{
	return c + rb * (dinv * (rhs - ax));
}

/* Sweep @s's colour mask at cell (x, y, z): red on even sweeps. */
float hg_color(uint64_t x, uint64_t y, uint64_t z, int s)
{
	return (x ^ y ^ z ^ (uint64_t)s) & 1 ? 0.0f : 1.0f;
}

float hg_restrict(const float v[8])
{
	return (v[0] + v[1] + v[2] + v[3] + v[4] + v[5] + v[6] + v[7]) * 0.125f;
}

/* 1/h^2 of level @lv (h = 1/n) */
float hg_h2inv(const struct hg_args *a, unsigned int lv)
{
	return (float)a->n[lv] * (float)a->n[lv];
}

/* Cells of a level, and its vectors' bytes. */
uint64_t hg_cells(const struct hg_args *a, unsigned int lv)
{
	return a->n[lv] * a->n[lv] * a->n[lv];
}

/*
 * The i-th of the 6 neighbours of (x, y, z) on a level of side @n: its
 * index, or false outside the domain.
 */
bool hg_nbr(unsigned int bd, uint64_t n, uint64_t x, uint64_t y,
	    uint64_t z, int i, uint64_t *at)
{
	int64_t p[3] = { (int64_t)x, (int64_t)y, (int64_t)z };

	p[i / 2] += i & 1 ? 1 : -1;
	if (p[i / 2] < 0 || p[i / 2] >= (int64_t)n)
		return false;
	*at = hg_at(bd, (uint64_t)p[0], (uint64_t)p[1], (uint64_t)p[2]);
	return true;
}

float hg_cpu_ax(const struct hg_args *a, unsigned int lv,
		const float *x, uint64_t c)
{
	unsigned int bd = a->bd[lv];
	uint64_t k = c % ((uint64_t)bd * bd * bd), at;
	uint64_t in[3] = { k % bd, k / bd % bd, k / ((uint64_t)bd * bd) };
	uint64_t step[3] = { 1, bd, (uint64_t)bd * bd }, px, py, pz;
	float nb[6];

	for (int i = 0; i < 6; i++) {
		int dim = i / 2;

		if (i & 1 ? in[dim] + 1 < bd : in[dim] > 0) {
			nb[i] = x[i & 1 ? c + step[dim] : c - step[dim]];
			continue;
		}
		hg_xyz(bd, c, &px, &py, &pz);
		nb[i] = hg_nbr(bd, a->n[lv], px, py, pz, i, &at) ? x[at] : -x[c];
	}
	return hg_ax(x[c], nb, hg_h2inv(a, lv));
}

void hg_cpu_smooth(const struct hg_args *a, struct hg_cpu *h,
		   unsigned int lv, int sweeps)
{
	float dinv = 1.0f / (6.0f * hg_h2inv(a, lv));

	for (int s = 0; s < sweeps; s++) {
		const float *src = h->v[lv][s & 1 ? HG_T : HG_E];
		float *dst = h->v[lv][s & 1 ? HG_E : HG_T];

		for (uint64_t c = 0; c < hg_cells(a, lv); c++) {
			uint64_t x, y, z;

			hg_xyz(a->bd[lv], c, &x, &y, &z);
			dst[c] = hg_gsrb(src[c], h->v[lv][HG_R][c],
					 hg_cpu_ax(a, lv, src, c), dinv,
					 hg_color(x, y, z, s));
		}
	}
}

void hg_cpu_vcycle(const struct hg_args *a, struct hg_cpu *h)
{
	for (unsigned int lv = 0; lv + 1 < HG_LEVELS; lv++) {
		hg_cpu_smooth(a, h, lv, 2 * HG_SMOOTHS);
		for (uint64_t c = 0; c < hg_cells(a, lv); c++)
			h->v[lv][HG_T][c] = h->v[lv][HG_R][c] -
					    hg_cpu_ax(a, lv, h->v[lv][HG_E], c);
		for (uint64_t c = 0; c < hg_cells(a, lv + 1); c++) {
			uint64_t ch[8];
			float s[8];

			hg_children(a, lv + 1, c, ch);
			for (int k = 0; k < 8; k++)
				s[k] = h->v[lv][HG_T][ch[k]];
			h->v[lv + 1][HG_R][c] = hg_restrict(s);
			h->v[lv + 1][HG_E][c] = 0;
		}
	}
	hg_cpu_smooth(a, h, HG_LEVELS - 1, HG_BOTTOM);
	for (unsigned int lv = HG_LEVELS - 1; lv-- > 0;) {
		for (uint64_t c = 0; c < hg_cells(a, lv); c++) {
			uint64_t x, y, z;

			hg_xyz(a->bd[lv], c, &x, &y, &z);
			h->v[lv][HG_E][c] = h->v[lv][HG_E][c] +
				h->v[lv + 1][HG_E][hg_at(a->bd[lv + 1], x / 2, y / 2, z / 2)];
		}
		hg_cpu_smooth(a, h, lv, 2 * HG_SMOOTHS);
	}
}

/* the root mean square of F - A e on the finest level */
double hg_resnorm(const struct hg_args *a, const float *e,
		  const float *f)
{
	double m = 0;

	for (uint64_t c = 0; c < hg_cells(a, 0); c++) {
		double r = (double)f[c] - (double)hg_cpu_ax(a, 0, e, c);

		m += r * r;
	}
	return sqrt(m / (double)hg_cells(a, 0));
}

/* Coarse cell @cc's 8 fine cells' indices (its box's, on level lv - 1). */
void hg_children(const struct hg_args *a, unsigned int lv, uint64_t cc,
		 uint64_t ch[8])
{
	uint64_t x, y, z;

	hg_xyz(a->bd[lv], cc, &x, &y, &z);
	for (int k = 0; k < 8; k++)
		ch[k] = hg_at(a->bd[lv - 1], 2 * x + (k & 1), 2 * y + (k >> 1 & 1),
			      2 * z + (k >> 2));
}
