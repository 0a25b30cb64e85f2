// SPDX-License-Identifier: GPL-2.0
/*
 * The matrix product of PolyBench/GPU's 2mm and 3mm (CUDA/2MM/2mm.cu,
 * CUDA/3MM/3mm.cu): blocks of 32 x 8 threads on a 2-D grid over the
 * output, one thread per output element (row i = y, column j = x), each
 * looping over k:
 *
 *   out[i][j] = 0 (or beta * out[i][j]);
 *   for (k = 0; k < n; k++) out[i][j] += [alpha *] a[i][k] * b[k][j];
 *
 * A warp is 32 consecutive columns of one row: per k it reads one word of
 * a (the same address in every lane, a broadcast) and one row segment of
 * b (contiguous lanes), one warp request each, as a GPU warp issues them;
 * the 8 warps of a block read the same segment of b, at about the same
 * time on a GPU, and so do they here (see pb_mm_kernel()).
 * The running sum stays in a register and is stored once at the end, as
 * the source means (a compiler that cannot prove out distinct from a and
 * b would also store it at every k; those stores are not modeled).
 * The init kernel fills the inputs over the same grid, so that first touch
 * homes every row band on the GPU whose blocks use it: a and out are then
 * local, and b is read whole by every GPU (remote from all but its homes).
 */
#include <stdlib.h>
#include <string.h>

#include "workloads/polybench/polybench.h"

/*
 * A thread's arithmetic outside the k loop: its i and j (4), the bounds
 * check (3), the base addresses of a, b and out (3), the start value and
 * the final store's address (2).
 */
#define PB_MM_SETUP	12
/*
 * Per k: the two addresses (2), the multiply-add (1, and a multiply for
 * alpha), the loop's increment, compare and branch (3).
 */
#define PB_MM_K		6

/*
 * The factor of a[i][k] in every product of step k: alpha * a[i][k] * b[k][j]
 * is (alpha * a[i][k]) * b[k][j] in C and CUDA alike, so the kernel and
 * the reference compute it once per k and add s * b[k][j] to each sum.
 */
static inline float pb_mm_factor(const struct pb_mm *m, float a)
{
	return m->scale ? m->alpha * a : a;
}

/* acc[l] += s * b[l] over @n lanes or columns: the kernel's and the CPU's */
static inline void pb_mm_row(float *restrict acc, float s,
			     const float *restrict b, uint64_t n)
{
	for (uint64_t l = 0; l < n; l++)
		acc[l] = acc[l] + s * b[l];
}

static void pb_mm_kernel(struct ng_block *b, void *args)
{
	const struct pb_mm *m = args;
	uint64_t n = m->n, i[PB_WARPS], j0;
	float acc[PB_WARPS][NG_WARP], bb[NG_WARP];
	struct ng_warp w[PB_WARPS];
	const float *v;

	/*
	 * n is a multiple of the block's sides: every warp is whole and
	 * inside, and all of them share the block's 32 columns j0..
	 */
	for (unsigned int wi = 0; wi < PB_WARPS; wi++) {
		ng_warp_get(b, wi, &w[wi]);
		i[wi] = ng_lane_y(&w[wi], 0);
		ng_warp_compute(&w[wi], PB_MM_SETUP);
		if (!m->accum) {
			memset(acc[wi], 0, sizeof(acc[wi]));
			continue;
		}
		v = ng_ld_contig_ref(&w[wi], m->out + i[wi] * n + b->idx.x * PB_BX,
				     4, bb);
		for (unsigned int l = 0; l < NG_WARP; l++)
			acc[wi][l] = v[l] * m->beta;
	}
	j0 = ng_lane_x(&w[0], 0);
	/*
	 * The block's warps go through k together, as a GPU's SM schedules
	 * them: the 8 requests for row k's segment of b come one after the
	 * other (warps run to completion one by one would each stream all of
	 * b through the L2 before the next warp reads it again).
	 */
	for (uint64_t k = 0; k < n; k++) {
		for (unsigned int wi = 0; wi < PB_WARPS; wi++) {
			float s = pb_mm_factor(m, wl_bcast(&w[wi],
							   m->a + i[wi] * n + k));

			v = ng_ld_contig_ref(&w[wi], m->b + k * n + j0, 4, bb);
			pb_mm_row(acc[wi], s, v, NG_WARP);
			ng_warp_compute(&w[wi], PB_MM_K + m->scale);
		}
	}
	for (unsigned int wi = 0; wi < PB_WARPS; wi++)
		ng_st_contig(&w[wi], m->out + i[wi] * n + j0, 4, acc[wi]);
}

int pb_mm_launch(struct wlc *c, const char *name, struct pb_mm *m)
{
	return pb_launch(c, name, pb_mm_kernel, m, (unsigned int)(m->n / PB_BX),
			 (unsigned int)(m->n / PB_BY), PB_BX, PB_BY, true);
}

/*
 * Row by row, k outer and j inner (fast on the CPU): each element still
 * sums its products in ascending k, as its GPU thread does.
 */
void pb_mm_ref(const struct pb_mm *m)
{
	uint64_t n = m->n;

	for (uint64_t i = 0; i < n; i++) {
		float *o = m->out + i * n;

		for (uint64_t j = 0; j < n; j++)
			o[j] = m->accum ? o[j] * m->beta : 0;
		for (uint64_t k = 0; k < n; k++)
			pb_mm_row(o, pb_mm_factor(m, m->a[i * n + k]),
				  m->b + k * n, n);
	}
}

uint64_t pb_mm_bytes(const struct pb_mm *m)
{
	return m->n * m->n * 4 * (2 * m->n + 1 + m->accum);
}

static void pb_fill_kernel(struct ng_block *b, void *args)
{
	const struct pb_fill *f = args;

	for (unsigned int wi = 0; wi < b->nwarps; wi++) {
		float v[NG_WARP];
		struct ng_warp w;
		uint64_t i, j0;

		ng_warp_get(b, wi, &w);
		i = ng_lane_y(&w, 0);
		j0 = ng_lane_x(&w, 0);
		if (i >= f->n || j0 >= f->n)
			continue;
		for (unsigned int a = 0; a < f->narrays; a++) {
			for (unsigned int l = 0; l < NG_WARP; l++)
				v[l] = f->c[a] < 0 ? 0 :
				       pb_val(i, j0 + l, (unsigned int)f->c[a]);
			ng_st_contig(&w, f->dst[a] + i * f->n + j0, 4, v);
		}
	}
}

int pb_fill_launch(struct wlc *c, struct pb_fill *f)
{
	return pb_launch(c, "pb-init", pb_fill_kernel, f,
			 (unsigned int)(f->n / PB_BX),
			 (unsigned int)(f->n / PB_BY), PB_BX, PB_BY, false);
}

void pb_fill_ref(float *dst, uint64_t n, int c)
{
	for (uint64_t i = 0; i < n; i++)
		for (uint64_t j = 0; j < n; j++)
			dst[i * n + j] = c < 0 ? 0 : pb_val(i, j, (unsigned int)c);
}
