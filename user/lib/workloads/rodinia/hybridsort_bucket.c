// SPDX-License-Identifier: GPL-2.0
/*
 * hybridsort's first half, as Rodinia's bucketsort.cu: the input's upload,
 * the bucket counts by pivot search, their prefix sums and the scatter into
 * the buckets. The merge sort of each bucket is hybridsort.c's.
 */
#include "workloads/rodinia/hybridsort.h"

float hs_in0(uint64_t seed, uint64_t i)
{
	return (float)(wlc_hash(seed * 0x4b5 + i) >> 40) / 16777216.0f;
}

/* Untimed: @n words at dst from @src (NULL: zeros), Rodinia's cudaMemcpy */
struct hs_upload {
	uint32_t *dst;
	const uint32_t *src;
	uint64_t n;
};

void hs_upload(struct ng_block *b, void *p)
{
	const struct hs_upload *u = p;

	for (unsigned int wi = 0; wi < b->nwarps; wi++) {
		uint32_t z[NG_WARP] = { 0 };
		struct ng_warp w;
		uint64_t i0;

		ng_warp_get(b, wi, &w);
		if (!wlc_lanes(&w, u->n, 256, &i0))
			break;
		ng_st_contig(&w, u->dst + i0, 4, u->src ? u->src + i0 : z);
	}
}

int hs_up(struct wlc *c, void *dst, const void *src, uint64_t n)
{
	struct hs_upload u = { .dst = dst, .src = src, .n = n };

	return wlc_launch(c, "hs-upload", hs_upload, &u, (n + 255) / 256, 256,
			  -1, false);
}

/* Untimed: the input list. */
void hs_init(struct ng_block *b, void *p)
{
	const struct hs_args *a = p;

	for (unsigned int wi = 0; wi < b->nwarps; wi++) {
		float v[NG_WARP];
		struct ng_warp w;
		uint64_t i0;

		ng_warp_get(b, wi, &w);
		if (!wlc_lanes(&w, a->n, 256, &i0))
			break;
		for (unsigned int l = 0; l < w.nlanes; l++)
			v[l] = hs_in0(a->seed, i0 + l);
		ng_st_contig(&w, a->in + i0, 4, v);
	}
}

/* Rodinia's binary search: the bucket of each lane's @e */
void hs_search(struct ng_warp *w, const float *pivot, const float *e,
	       uint32_t *idx)
{
	uintptr_t addr[NG_WARP];
	float piv[NG_WARP], p0;

	ng_warp_compute(w, HS_SEARCH_INSTS);
	p0 = wl_bcast(w, pivot + HS_DIV / 2 - 1);
	for (unsigned int l = 0; l < w->nlanes; l++) {
		idx[l] = HS_DIV / 2 - 1;
		piv[l] = p0;
	}
	for (unsigned int jump = HS_DIV / 4; jump >= 1; jump /= 2) {
		ng_warp_wait(w);
		ng_warp_compute(w, HS_SEARCH_INSTS);
		for (unsigned int l = 0; l < w->nlanes; l++) {
			idx[l] = e[l] < piv[l] ? idx[l] - jump : idx[l] + jump;
			addr[l] = (uintptr_t)(pivot + idx[l]);
		}
		ng_ld(w, addr, 4, piv);
	}
	ng_warp_wait(w);
	for (unsigned int l = 0; l < w->nlanes; l++)
		idx[l] = e[l] < piv[l] ? idx[l] : idx[l] + 1;
}

/* the elements of warp @w's lanes at step @k of the grid-stride loop */
unsigned int hs_stride(const struct hs_args *a, struct ng_warp *w,
		       unsigned int k, uint64_t *i0)
{
	uint64_t first = ((uint64_t)k * a->blocks + w->b->id) * HS_BUCKET_T;

	*i0 = first;
	if (first >= a->n)
		return 0;
	w->nlanes = a->n - first < HS_BUCKET_T ? (unsigned int)(a->n - first)
					       : HS_BUCKET_T;
	w->active = w->nlanes == NG_WARP ? ~0u : (1u << w->nlanes) - 1;
	return w->nlanes;
}

void hs_bucketcount(struct ng_block *b, void *p)
{
	const struct hs_args *a = p;
	uint32_t cnt[HS_DIV] = { 0 };	/* s_offset */
	struct ng_warp w;
	uint64_t i0;

	ng_warp_get(b, 0, &w);
	ng_block_sync(b);
	for (unsigned int k = 0; hs_stride(a, &w, k, &i0); k++) {
		uint32_t idx[NG_WARP], ind[NG_WARP];
		float e[NG_WARP];

		ng_ld_contig(&w, a->in + i0, 4, e);
		hs_search(&w, a->pivot, e, idx);
		ng_warp_compute(&w, HS_COUNT_INSTS);
		for (unsigned int l = 0; l < w.nlanes; l++)
			ind[l] = (cnt[idx[l]]++ << HS_LOG_DIV) + idx[l];
		ng_st_contig(&w, a->indice + i0, 4, ind);
	}
	ng_block_sync(b);
	ng_warp_get(b, 0, &w);
	for (unsigned int i = 0; i < HS_DIV; i += NG_WARP)
		ng_st_contig(&w, a->prefix + (uint64_t)b->id * HS_DIV + i, 4,
			     cnt + i);
}

void hs_prefix(struct ng_block *b, void *p)
{
	const struct hs_args *a = p;
	uint32_t sum[HS_PREFIX_T / NG_WARP][NG_WARP] = { { 0 } };
	uint32_t x[HS_PREFIX_T / NG_WARP][NG_WARP];
	struct ng_warp w[HS_PREFIX_T / NG_WARP];
	uint64_t t0 = (uint64_t)b->id * HS_PREFIX_T;

	for (unsigned int wi = 0; wi < b->nwarps; wi++)
		ng_warp_get(b, wi, &w[wi]);
	/* thread t walks bucket t's count in every block, in block order */
	for (unsigned int blk = 0; blk < a->blocks; blk++) {
		uint32_t *at = a->prefix + (uint64_t)blk * HS_DIV + t0;

		for (unsigned int wi = 0; wi < b->nwarps; wi++)
			ng_ld_contig(&w[wi], at + wi * NG_WARP, 4, x[wi]);
		for (unsigned int wi = 0; wi < b->nwarps; wi++) {
			uint32_t y[NG_WARP];

			ng_warp_wait(&w[wi]);
			ng_warp_compute(&w[wi], HS_PREFIX_INSTS);
			for (unsigned int l = 0; l < NG_WARP; l++) {
				y[l] = sum[wi][l];
				sum[wi][l] += x[wi][l];
			}
			ng_st_contig(&w[wi], at + wi * NG_WARP, 4, y);
		}
	}
	for (unsigned int wi = 0; wi < b->nwarps; wi++)
		ng_st_contig(&w[wi], a->offsets + t0 + wi * NG_WARP, 4,
			     sum[wi]);
}

void hs_bucketsort(struct ng_block *b, void *p)
{
	const struct hs_args *a = p;
	uint32_t off[HS_DIV], pre[NG_WARP];
	struct ng_warp w;
	uint64_t i0;

	ng_warp_get(b, 0, &w);
	for (unsigned int i = 0; i < HS_DIV; i += NG_WARP) {
		ng_ld_contig(&w, a->loff + i, 4, off + i);
		ng_ld_contig(&w, a->prefix + (uint64_t)b->id * HS_DIV + i, 4,
			     pre);
		ng_warp_wait(&w);
		for (unsigned int l = 0; l < NG_WARP; l++)
			off[i + l] += pre[l];
	}
	ng_block_sync(b);
	for (unsigned int k = 0; hs_stride(a, &w, k, &i0); k++) {
		uint32_t id[NG_WARP];
		uintptr_t addr[NG_WARP];
		float e[NG_WARP];

		ng_ld_contig(&w, a->in + i0, 4, e);
		ng_ld_contig(&w, a->indice + i0, 4, id);
		ng_warp_wait(&w);
		ng_warp_compute(&w, HS_SORT_INSTS);
		for (unsigned int l = 0; l < w.nlanes; l++)
			addr[l] = (uintptr_t)(a->out + off[id[l] & (HS_DIV - 1)] +
					      (id[l] >> HS_LOG_DIV));
		ng_st(&w, addr, 4, e);
	}
}
