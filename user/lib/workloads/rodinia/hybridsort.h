/* SPDX-License-Identifier: GPL-2.0 */
/* hybridsort: what its bucket kernels and its merge sort share. */
#ifndef NGEMU_LIB_WL_RODINIA_HYBRIDSORT_H
#define NGEMU_LIB_WL_RODINIA_HYBRIDSORT_H

#include <stdlib.h>
#include <string.h>

#include "workloads/wl.h"

#define HS_LOG_DIV	10
#define HS_DIV		(1u << HS_LOG_DIV)	/* Rodinia's DIVISIONS */
#define HS_BUCKET_T	32			/* BUCKET_THREAD_N */
#define HS_BAND		128			/* BUCKET_BAND */
#define HS_PREFIX_T	128
#define HS_FIRST_T	256			/* mergeSortFirst, mergepack */
#define HS_MERGE_T	208			/* mergeSortPass */
#define HS_MERGE_WARPS	((HS_MERGE_T + NG_WARP - 1) / NG_WARP)
/* bucketcount, per element: a compare and an index update per level (~3) */
#define HS_SEARCH_INSTS	3
/* bucketcount: addOffset's shared-memory loop and indice's shifts (~12) */
#define HS_COUNT_INSTS	12
/* bucketprefixoffset, per block: an add, a move and the loop (~4) */
#define HS_PREFIX_INSTS	4
/* bucketsort, per element: two shared loads, a shift, a mask, adds (~8) */
#define HS_SORT_INSTS	8
/* sortElem: 12 compare-selects (~12) */
#define HS_FIRST_INSTS	12
/* a merge step: getLowest, getHighest, two sortElems, the tests (~44) */
#define HS_MERGE_INSTS	44
/* mergepack: the bound check and two indices (~6) */
#define HS_PACK_INSTS	6

struct hs_args {
	float *in, *out, *pivot;
	uint32_t *indice, *prefix, *offsets, *loff;
	uint64_t n, seed;
	unsigned int blocks;		/* bucketcount's and bucketsort's grid */
	/* the merge sort's (__constant__ there) */
	const float *src;
	float *dst;
	const uint32_t *start, *final, *nulls;
	uint64_t total4;		/* float4s in the bucketed list */
	unsigned int nr, per_div;	/* nrElems, threadsPerDiv */
};

float hs_in0(uint64_t seed, uint64_t i);

void hs_upload(struct ng_block *b, void *p);

int hs_up(struct wlc *c, void *dst, const void *src, uint64_t n);

void hs_init(struct ng_block *b, void *p);

void hs_search(struct ng_warp *w, const float *pivot, const float *e,
	       uint32_t *idx);

unsigned int hs_stride(const struct hs_args *a, struct ng_warp *w,
		       unsigned int k, uint64_t *i0);

void hs_bucketcount(struct ng_block *b, void *p);

void hs_prefix(struct ng_block *b, void *p);

void hs_bucketsort(struct ng_block *b, void *p);

#endif /* NGEMU_LIB_WL_RODINIA_HYBRIDSORT_H */
