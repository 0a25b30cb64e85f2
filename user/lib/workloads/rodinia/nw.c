// SPDX-License-Identifier: GPL-2.0
/*
 * nw: Needleman-Wunsch global alignment, after Rodinia's nw
 * (needle_kernel.cu): the (n + 1) x (n + 1) score matrix is cut into
 * 16 x 16 tiles and filled one anti-diagonal of tiles per launch,
 * needle_cuda_shared_1 over the upper-left half, needle_cuda_shared_2
 * over the lower-right: 2 n / 16 - 1 launches of a 16-thread block per
 * tile. A block loads its tile's substitution scores and the score row
 * above and column left of its tile into shared memory, fills the tile
 * cell by cell in anti-diagonal order (score = max(diagonal + reference,
 * up - penalty, left - penalty), penalty 10 as Rodinia's default) and
 * writes it back. Rodinia's substitution scores come from BLOSUM62 and
 * random sequences; here splitmix64 of the seed gives scores in BLOSUM62's
 * range, -4 to 11. CODA counts nw as block-exclusive: each tile's cells
 * are written by one block only. Verified against the CPU's dynamic
 * programming, every cell.
 */
#include <stdlib.h>

#include "workloads/wl.h"

#define NW_B		16
#define NW_PENALTY	10
/* a cell: three candidates, two compares, the shared-memory index (~8) */
#define NW_CELL_INSTS	8

struct nw_args {
	int32_t *score, *ref;
	uint64_t n, cols;		/* n + 1 columns */
	unsigned int diag;		/* tiles bi + bj == diag */
	unsigned int first;		/* bi of the diagonal's first tile */
};

static int32_t nw_ref(uint64_t seed, uint64_t i, uint64_t j)
{
	return (int32_t)(wlc_hash(seed * 0x6e77 + (i << 32) + j) % 16) - 4;
}

static int32_t nw_max3(int32_t a, int32_t b, int32_t c)
{
	int32_t m = a > b ? a : b;

	return m > c ? m : c;
}

/*
 * Untimed (the host's copies): the substitution scores (@ref), or the
 * score matrix's first row and column with zeros elsewhere.
 */
struct nw_fill {
	int32_t *dst;
	uint64_t cols, seed;
	bool ref;
};

static void nw_fill(struct ng_block *b, void *p)
{
	const struct nw_fill *f = p;

	for (unsigned int wi = 0; wi < b->nwarps; wi++) {
		int32_t s[NG_WARP];
		struct ng_warp w;
		uint64_t i0;

		ng_warp_get(b, wi, &w);
		if (!wlc_lanes(&w, f->cols * f->cols, 256, &i0))
			break;
		for (unsigned int l = 0; l < w.nlanes; l++) {
			uint64_t i = (i0 + l) / f->cols, j = (i0 + l) % f->cols;

			s[l] = f->ref ? nw_ref(f->seed, i, j) :
			       !i ? -(int32_t)j * NW_PENALTY :
			       !j ? -(int32_t)i * NW_PENALTY : 0;
		}
		ng_st_contig(&w, f->dst + i0, 4, s);
	}
}

static void nw_kernel(struct ng_block *b, void *p)
{
	const struct nw_args *a = p;
	uint64_t bi = a->first + b->id, bj = a->diag - bi;
	uint64_t r0 = bi * NW_B, c0 = bj * NW_B;	/* the cell above-left */
	int32_t t[NW_B + 1][NW_B + 1], rf[NW_B][NW_B];
	uintptr_t addr[NG_WARP];
	int32_t col[NG_WARP];
	struct ng_warp w, one;

	ng_warp_get(b, 0, &w);		/* Rodinia: 16 threads */
	w.nlanes = NW_B;
	w.active = (1u << NW_B) - 1;
	/* the row above the tile: 17 cells, the last by one thread */
	ng_ld_contig(&w, a->score + r0 * a->cols + c0, 4, &t[0][0]);
	one = w;
	one.nlanes = 1;
	one.active = 1;
	ng_ld_contig(&one, a->score + r0 * a->cols + c0 + NW_B, 4, &t[0][NW_B]);
	if (one.ready > w.ready)
		w.ready = one.ready;
	/* the column left of it, a thread a row */
	for (unsigned int l = 0; l < NW_B; l++)
		addr[l] = (uintptr_t)(a->score + (r0 + 1 + l) * a->cols + c0);
	ng_ld(&w, addr, 4, col);
	for (unsigned int l = 0; l < NW_B; l++)
		t[l + 1][0] = col[l];
	/* the tile's substitution scores, a row at a time */
	for (unsigned int k = 0; k < NW_B; k++)
		ng_ld_contig(&w, a->ref + (r0 + 1 + k) * a->cols + c0 + 1, 4,
			     rf[k]);
	ng_block_sync(b);
	/* anti-diagonal order: thread x takes cell (d - x, x) */
	for (unsigned int d = 0; d < 2 * NW_B - 1; d++) {
		ng_warp_compute(&w, NW_CELL_INSTS);
		for (unsigned int x = 0; x < NW_B; x++) {
			unsigned int y = d - x;

			if (x > d || y >= NW_B)
				continue;
			t[y + 1][x + 1] = nw_max3(t[y][x] + rf[y][x],
						  t[y][x + 1] - NW_PENALTY,
						  t[y + 1][x] - NW_PENALTY);
		}
	}
	ng_block_sync(b);
	for (unsigned int k = 0; k < NW_B; k++)
		ng_st_contig(&w, a->score + (r0 + 1 + k) * a->cols + c0 + 1, 4,
			     &t[k + 1][1]);
}

static int nw_run(struct ng_system *sys, const struct ng_bench_opts *o,
		  struct ng_bench_result *r, char *err, size_t errlen)
{
	struct ng_buf bs = { 0 }, br = { 0 };
	struct nw_args a = { 0 };
	struct nw_fill fr, fs;
	int32_t *want = NULL;
	uint64_t nt, cells;
	struct wlc c;
	char ok[96];
	int ret;

	wlc_init(&c, sys, o, r, err, errlen);
	a.n = (wl_isqrt(o->size / 4) - 1) / NW_B * NW_B;
	if (wl_isqrt(o->size / 4) < NW_B + 1 || !a.n) {
		ng_seterr(err, errlen, "nw: size must hold a %u x %u score matrix (%u bytes) at least",
			  NW_B + 1, NW_B + 1, (NW_B + 1) * (NW_B + 1) * 4);
		return -EINVAL;
	}
	a.cols = a.n + 1;
	cells = a.cols * a.cols;
	nt = a.n / NW_B;
	ret = wlc_alloc(&c, &bs, cells * 4, -1);
	if (!ret)
		ret = wlc_alloc(&c, &br, cells * 4, -1);
	if (ret)
		goto out;
	a.score = bs.ptr;
	a.ref = br.ptr;
	r->elements = cells;
	r->bytes = 2ULL * cells * 4 * o->iters;
	fr = (struct nw_fill){ .dst = a.ref, .cols = a.cols,
			       .seed = c.cfg->seed, .ref = true };
	fs = (struct nw_fill){ .dst = a.score, .cols = a.cols };
	ret = wlc_launch(&c, "nw-ref", nw_fill, &fr, (cells + 255) / 256, 256,
			 -1, false);
	if (!ret)
		ret = wlc_launch(&c, "nw-init", nw_fill, &fs, (cells + 255) / 256,
				 256, -1, false);
	if (ret)
		goto out;
	c.total = (unsigned int)(2 * nt - 1) * o->iters;
	ng_system_reset_counters(sys);
	for (unsigned int it = 0; it < o->iters && !ret; it++) {
		if (it)
			ret = wlc_launch(&c, "nw-init", nw_fill, &fs,
					 (cells + 255) / 256, 256, -1, true);
		/* shared_1 over diagonals 0 .. nt - 1, shared_2 after */
		for (a.diag = 0; a.diag < 2 * nt - 1 && !ret; a.diag++) {
			a.first = a.diag < nt ? 0 : a.diag - (unsigned int)nt + 1;
			ret = wlc_launch(&c, a.diag < nt ? "needle_1" : "needle_2",
					 nw_kernel, &a,
					 (a.diag < nt ? a.diag + 1 :
					  2 * nt - 1 - a.diag), NW_B, -1, true);
		}
	}
	if (ret)
		goto out;
	wl_collect(sys, r);
	want = malloc(cells * 4);
	if (!want) {
		ng_seterr(err, errlen, "nw: out of memory");
		ret = -ENOMEM;
		goto out;
	}
	for (uint64_t i = 0; i < a.cols; i++)
		for (uint64_t j = 0; j < a.cols; j++)
			want[i * a.cols + j] =
				!i ? -(int32_t)j * NW_PENALTY :
				!j ? -(int32_t)i * NW_PENALTY :
				nw_max3(want[(i - 1) * a.cols + j - 1] +
					nw_ref(c.cfg->seed, i, j),
					want[(i - 1) * a.cols + j] - NW_PENALTY,
					want[i * a.cols + j - 1] - NW_PENALTY);
	snprintf(ok, sizeof(ok),
		 "the %llu x %llu score matrix matches the CPU's",
		 (unsigned long long)a.cols, (unsigned long long)a.cols);
	wl_corrupt_u32(o, (uint32_t *)a.score, cells);
	wl_check_u32(r, "score", (const uint32_t *)a.score,
		     (const uint32_t *)want, cells, a.cols, ok);
out:
	free(want);
	ng_free(c.sp, &br);
	ng_free(c.sp, &bs);
	return ret;
}

const struct ng_workload ng_wl_nw = {
	.name = "nw",
	.desc = "Needleman-Wunsch (Rodinia nw): 16x16 tiles filled a diagonal of tiles per launch",
	.default_size = 1ULL << 20,	/* a 497 x 497 score matrix */
	.default_iters = 1,
	.narrays = 2,
	.run = nw_run,
};
