// SPDX-License-Identifier: GPL-2.0
/*
 * mt: matrix transpose, after the AMD APP SDK 3.0 sample MatrixTranspose
 * as MGPUSim runs it (amd/benchmarks/amdappsdk/matrixtranspose/
 * native/MatrixTranspose_Kernels.cl, matrixTranspose, and
 * matrixtranspose.go; benchmarks/amdappsdk/matrixtranspose/ in MGPUSim
 * 2.x). out[c][r] = in[r][c] for a square W x W matrix of 32-bit words
 * (MGPUSim's uint32 values in[i] = i, moved as float4 by the kernel).
 *
 * Work distribution as MGPUSim's: work-groups of 16 x 16 work-items
 * (blockSize 16), each work-item moving a 4 x 4 sub-block (four float4
 * rows), so a work-group moves a 64 x 64 tile through local memory
 * (16 KiB): the global size is W / 4 x W / 4, W / 64 x W / 64 groups.
 * The kernel "reshuffles" the group ids against bank conflicts: group
 * (gix_t, giy_t) reads the input tile at tile row giy = gix_t and tile
 * column gix = (gix_t + giy_t) % (W / 64), writes it to local memory
 * (block[liy * 64 + lix + 16 k] = input row 4 iy + k, float4 column ix),
 * waits at the barrier, reads its transposed float4s back (block[lix *
 * 64 + liy + 16 k]) and stores four float4 rows of the output tile at
 * tile row gix, tile column giy. A warp is two rows of 16 work-items
 * (liy, liy + 1): each of its float4 accesses is two runs of 256 bytes,
 * 4 rows of the matrix apart.
 *
 * MGPUSim launches one kernel per GPU, each over a band of gix_t (its
 * group_x_offset); here one launch whose block id is gix_t * (W / 64) +
 * giy_t, so batch scheduling gives each GPU the same band (in gix_t-major
 * order within it, where MGPUSim's dispatcher goes x first). Each GPU
 * reads its row band of the input, local under the init kernel's first
 * touch (MGPUSim distributes both buffers in row bands too), and writes a
 * column band of the output across every GPU's rows: mostly remote.
 * Verified against a CPU reference (the host's transpose), word for word.
 */
#include <stdlib.h>

#include "workloads/wl.h"

#define MT_BS		16		/* MGPUSim's blockSize */
#define MT_E		4		/* elemsPerThread1Dim: a float4 */
#define MT_TILE		(MT_BS * MT_E)	/* 64 words a side */
#define MT_SHARED	(MT_TILE * MT_TILE * 4)
/*
 * A work-item's arithmetic. Before the barrier: the local and group ids,
 * the reshuffle (a modulo, ~8), the two global and the local index (8),
 * four global addresses and local stores (8). After it: the transposed
 * indices (6), four local loads and their addresses (6), four global
 * addresses (4); the float4 shuffles are register moves.
 */
#define MT_INSTS_IN	30
#define MT_INSTS_OUT	16

struct mt_args {
	uint32_t *in, *out;
	uint64_t w;			/* words a side */
	unsigned int ntiles;		/* tiles a side: W / 64 */
};

/* Word (r, c) of the input: MGPUSim's hInputData[i] = i. */
static uint32_t mt_val(uint64_t w, uint64_t r, uint64_t c)
{
	return (uint32_t)(r * w + c);
}

/* Lane @l of warp @wi: its (lix, liy) in the 16 x 16 work-group. */
static void mt_lane(unsigned int wi, unsigned int l, unsigned int *lix,
		    unsigned int *liy)
{
	*lix = l % MT_BS;
	*liy = wi * (NG_WARP / MT_BS) + l / MT_BS;
}

/*
 * Untimed, the kernel's grid: group (gix_t, giy_t) writes the input tile
 * and zeros in the output tile at tile row gix_t, column giy_t, so each
 * GPU's band of gix_t homes a row band of both matrices.
 */
static void mt_init(struct ng_block *b, void *p)
{
	const struct mt_args *a = p;
	uint64_t tr = b->id / a->ntiles, tc = b->id % a->ntiles;

	for (unsigned int wi = 0; wi < b->nwarps; wi++) {
		uint32_t v[NG_WARP * MT_E], z[NG_WARP * MT_E] = { 0 };
		uintptr_t ai[NG_WARP], ao[NG_WARP];
		struct ng_warp w;

		ng_warp_get(b, wi, &w);
		for (unsigned int k = 0; k < MT_E; k++) {
			for (unsigned int l = 0; l < NG_WARP; l++) {
				unsigned int lix, liy;
				uint64_t r, c;

				mt_lane(wi, l, &lix, &liy);
				r = tr * MT_TILE + liy * MT_E + k;
				c = tc * MT_TILE + lix * MT_E;
				for (unsigned int e = 0; e < MT_E; e++)
					v[l * MT_E + e] = mt_val(a->w, r, c + e);
				ai[l] = (uintptr_t)(a->in + r * a->w + c);
				ao[l] = (uintptr_t)(a->out + r * a->w + c);
			}
			ng_st(&w, ai, MT_E * 4, v);
			ng_st(&w, ao, MT_E * 4, z);
		}
	}
}

static void mt_kernel(struct ng_block *b, void *p)
{
	const struct mt_args *a = p;
	unsigned int gix_t = (unsigned int)(b->id / a->ntiles);
	unsigned int giy_t = (unsigned int)(b->id % a->ntiles);
	/* break memory banks dependency by "reshuffling" global indices */
	uint64_t giy = gix_t, gix = (gix_t + giy_t) % a->ntiles;
	uint32_t *blk = b->shared;	/* 16 x 64 float4s */
	struct ng_warp w;

	/* coalesced copy from the input into local memory */
	for (unsigned int wi = 0; wi < b->nwarps; wi++) {
		uint32_t v[NG_WARP * MT_E];
		uintptr_t addr[NG_WARP];

		ng_warp_get(b, wi, &w);
		ng_warp_compute(&w, MT_INSTS_IN);
		for (unsigned int k = 0; k < MT_E; k++) {
			for (unsigned int l = 0; l < NG_WARP; l++) {
				unsigned int lix, liy;

				mt_lane(wi, l, &lix, &liy);
				/* index_in + k wiWidth, in words */
				addr[l] = (uintptr_t)(a->in +
					(giy * MT_TILE + liy * MT_E + k) * a->w +
					(gix * MT_BS + lix) * MT_E);
			}
			ng_ld(&w, addr, MT_E * 4, v);
			for (unsigned int l = 0; l < NG_WARP; l++) {
				unsigned int lix, liy;

				mt_lane(wi, l, &lix, &liy);
				memcpy(blk + (liy * MT_TILE + lix + MT_BS * k) * MT_E,
				       v + l * MT_E, MT_E * 4);
			}
		}
	}
	ng_block_sync(b);
	/* the transposed 4 x 4 sub-blocks, coalesced into the output */
	for (unsigned int wi = 0; wi < b->nwarps; wi++) {
		uint32_t o[MT_E][NG_WARP * MT_E];
		uintptr_t addr[MT_E][NG_WARP];

		ng_warp_get(b, wi, &w);
		ng_warp_compute(&w, MT_INSTS_OUT);
		for (unsigned int l = 0; l < NG_WARP; l++) {
			unsigned int lix, liy;

			mt_lane(wi, l, &lix, &liy);
			for (unsigned int k = 0; k < MT_E; k++) {
				/* v_k = block[ind + 16 k]: output word (e, k) */
				const uint32_t *v =
					blk + (lix * MT_TILE + liy + MT_BS * k) * MT_E;

				for (unsigned int e = 0; e < MT_E; e++)
					o[e][l * MT_E + k] = v[e];
			}
			for (unsigned int e = 0; e < MT_E; e++)
				addr[e][l] = (uintptr_t)(a->out +
					(gix * MT_TILE + liy * MT_E + e) * a->w +
					(giy * MT_BS + lix) * MT_E);
		}
		for (unsigned int e = 0; e < MT_E; e++)
			ng_st(&w, addr[e], MT_E * 4, o[e]);
	}
}

static int mt_launch(struct wlc *c, const char *name, ng_kernel_fn fn,
		     struct mt_args *a, bool timed)
{
	return wlc_launch_2d(c, name, fn, a,
			     (struct ng_dim){ a->ntiles, a->ntiles },
			     (struct ng_dim){ MT_BS, MT_BS }, -1, timed);
}

/* The CPU reference: the host's input, transposed. */
static int mt_verify(struct wlc *c, const struct mt_args *a)
{
	uint64_t n = a->w * a->w;
	uint32_t *want = malloc(n * 4);
	char ok[128];

	if (!want) {
		ng_seterr(c->err, c->errlen, "mt: out of memory");
		return -ENOMEM;
	}
	for (uint64_t r = 0; r < a->w; r++)
		for (uint64_t col = 0; col < a->w; col++)
			want[col * a->w + r] = mt_val(a->w, r, col);
	snprintf(ok, sizeof(ok),
		 "the %llu x %llu transpose matches the CPU reference",
		 (unsigned long long)a->w, (unsigned long long)a->w);
	wl_corrupt_u32(c->o, a->out, n);
	wl_check_u32(c->r, "output", a->out, want, n, a->w, ok);
	free(want);
	return 0;
}

static int mt_run(struct ng_system *sys, const struct ng_bench_opts *o,
		  struct ng_bench_result *r, char *err, size_t errlen)
{
	struct ng_buf bi = { 0 }, bo = { 0 };
	struct mt_args a = { 0 };
	struct wlc c;
	int ret;

	wlc_init(&c, sys, o, r, err, errlen);
	a.w = wl_isqrt(o->size / 4) / MT_TILE * MT_TILE;
	/* whole tiles, and block ids (tiles^2) within 32 bits */
	if (!a.w || a.w / MT_TILE > UINT16_MAX) {
		ng_seterr(err, errlen,
			  "mt: size must hold a %u x %u matrix of words (%u bytes) at least",
			  MT_TILE, MT_TILE, MT_TILE * MT_TILE * 4);
		return -EINVAL;
	}
	if (c.cfg->shared_bytes < MT_SHARED) {
		ng_seterr(err, errlen,
			  "mt: a block needs %u bytes of shared memory (shared = %llu)",
			  MT_SHARED, (unsigned long long)c.cfg->shared_bytes);
		return -EINVAL;
	}
	a.ntiles = (unsigned int)(a.w / MT_TILE);
	ret = wlc_alloc(&c, &bi, a.w * a.w * 4, -1);
	if (!ret)
		ret = wlc_alloc(&c, &bo, a.w * a.w * 4, -1);
	if (ret)
		goto out;
	a.in = bi.ptr;
	a.out = bo.ptr;
	r->elements = a.w * a.w;
	/* every word read once and written once */
	r->bytes = 2ULL * a.w * a.w * 4 * o->iters;
	c.total = o->iters;
	ret = mt_launch(&c, "mt-init", mt_init, &a, false);
	if (ret)
		goto out;
	ng_system_reset_counters(sys);
	for (unsigned int it = 0; it < o->iters && !ret; it++)
		ret = mt_launch(&c, "mt", mt_kernel, &a, true);
	if (ret)
		goto out;
	wl_collect(sys, r);
	ret = mt_verify(&c, &a);
out:
	ng_free(c.sp, &bo);
	ng_free(c.sp, &bi);
	return ret;
}

const struct ng_workload ng_wl_mt = {
	.name = "mt",
	.desc = "matrix transpose (AMD APP SDK MatrixTranspose): 64x64 tiles through local memory, reshuffled groups",
	.default_size = 4ULL << 20,	/* 1024^2: 256 groups, 64 per GPU */
	.paper_footprint = 2 * (256ULL << 10),	/* two 256 x 256 matrices */
	.paper_ref = "MGPUSim 2.0.1 samples/matrixtranspose default -width 256 (DualOpt gives no size)",
	.default_iters = 1,
	.narrays = 2,
	.run = mt_run,
};
