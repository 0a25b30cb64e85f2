// SPDX-License-Identifier: GPL-2.0
/*
 * hybridsort: Rodinia's hybrid sort (hybridsort/bucketsort_kernel.cu,
 * mergesort_kernel.cu; Sintorn and Assarsson's GPU sort), n floats in
 * [0, 1) into 1024 buckets (DIVISIONS), then a merge sort within each.
 * As Rodinia launches it:
 *  - bucketcount: blocks of one warp (BUCKET_THREAD_N 32), each thread
 *    taking every (blocks x 32)-th element (BUCKET_BAND 128 a thread): a
 *    binary search of the pivots (10 fetches, each address from the
 *    last comparison), a per-block count per bucket in shared memory
 *    (addOffset), the element's offset in its bucket in indice[], and the
 *    block's 1024 counts in prefixoffsets[block][];
 *  - bucketprefixoffset: a thread per bucket (blocks of 128) turns the
 *    blocks' counts into offsets and writes the bucket's size;
 *  - on the host, each bucket's size rounded up to float4s (its null
 *    elements, zeros) and the buckets' start offsets;
 *  - bucketsort: bucketcount's grid scatters each element to its bucket;
 *  - mergeSortFirst (256 threads) sorts each float4; mergeSortPass
 *    (208 threads, or 8 blocks when fewer would do) merges runs of
 *    nrElems / 2 float4s pairwise within each bucket, doubling nrElems
 *    until one thread spans the largest bucket, reading the previous
 *    pass's list (a texture there) and writing the other;
 *  - mergepack (256 x 1024 grid, a row per bucket) drops the null
 *    elements into the final list.
 *
 * Where it differs: Rodinia's pivots come from a 1024-bin histogram
 * kernel of the input and a host pass (calcPivotPoints); the input here
 * is uniform in [0, 1) (Rodinia's rand() / RAND_MAX; splitmix64 of the
 * seed here), for which those pivots are the bucket bounds (k + 1) /
 * 1024 this uses, so neither the histogram kernel nor its host pass is
 * built. addOffset's retry loop orders a warp's lanes that hit one
 * bucket as the hardware happens to; here in lane order (the sorted
 * result is the same). mergeSortFirst here sorts every float4 of the
 * buckets, null elements included (Rodinia's stops at n / 4), and a
 * merge thread fetches the next float4 of a run only while the run has
 * one (Rodinia's texture fetches past it and discards the value).
 *
 * CODA (Table 2) counts HS as sharing: bucketcount's and bucketsort's
 * blocks stride over the whole input, every block writes into every
 * bucket, and the merge passes' threads reach across pages that other
 * blocks' threads write in the next pass. Verified against the CPU's
 * sort of the same input, every element exactly.
 */
#include "workloads/rodinia/hybridsort.h"

/* Rodinia's sortElem, getLowest and getHighest, on float4s */
static void hs_sort4(float *r)
{
	float n[4];

	n[0] = r[0] > r[1] ? r[1] : r[0];
	n[1] = r[1] > r[0] ? r[1] : r[0];
	n[2] = r[2] > r[3] ? r[3] : r[2];
	n[3] = r[3] > r[2] ? r[3] : r[2];
	r[0] = n[0] > n[2] ? n[2] : n[0];
	r[1] = n[1] > n[3] ? n[3] : n[1];
	r[2] = n[2] > n[0] ? n[2] : n[0];
	r[3] = n[3] > n[1] ? n[3] : n[1];
	n[0] = r[0];
	n[1] = r[1] > r[2] ? r[2] : r[1];
	n[2] = r[2] > r[1] ? r[2] : r[1];
	n[3] = r[3];
	memcpy(r, n, sizeof(n));
}

static void hs_lowest(float *a, const float *b)
{
	for (unsigned int k = 0; k < 4; k++)
		a[k] = a[k] < b[3 - k] ? a[k] : b[3 - k];
}

static void hs_highest(const float *a, float *b)
{
	for (unsigned int k = 0; k < 4; k++)
		b[k] = a[3 - k] >= b[k] ? a[3 - k] : b[k];
}

static void hs_first(struct ng_block *b, void *p)
{
	const struct hs_args *a = p;

	for (unsigned int wi = 0; wi < b->nwarps; wi++) {
		float v[NG_WARP][4];
		struct ng_warp w;
		uint64_t i0;

		ng_warp_get(b, wi, &w);
		if (!wlc_lanes(&w, a->total4, HS_FIRST_T, &i0))
			break;
		ng_ld_contig(&w, a->src + i0 * 4, 16, v);
		ng_warp_wait(&w);
		ng_warp_compute(&w, HS_FIRST_INSTS);
		for (unsigned int l = 0; l < w.nlanes; l++)
			hs_sort4(v[l]);
		ng_st_contig(&w, a->dst + i0 * 4, 16, v);
	}
}

/* one merge thread's state (mergeSortPass's locals) */
struct hs_lane {
	int mode;			/* 0 done, 1 copy, 2 merge */
	uint64_t astart, bstart, end, aidx, bidx, out;
	float a[4], b[4];
};

static void hs_lane_init(const struct hs_args *a, uint64_t tid,
			 struct hs_lane *s)
{
	uint64_t div = tid / a->per_div, it = tid - div * a->per_div;

	s->mode = 0;
	if (div >= HS_DIV)
		return;
	s->astart = a->start[div] + it * a->nr;
	s->bstart = s->astart + a->nr / 2;
	s->end = a->start[div + 1];
	s->aidx = 0;
	s->bidx = 0;
	s->out = 0;
	if (s->astart >= s->end)
		return;
	s->mode = s->bstart >= s->end ? 1 : 2;
}

/* The addresses of the float4s base[i[lane]] of the lanes in @mask. */
static void hs_addrs(const float *base, uint32_t mask, const uint64_t *i,
		     uintptr_t *addr)
{
	for (uint32_t m = mask; m; m &= m - 1) {
		unsigned int l = (unsigned int)__builtin_ctz(m);

		addr[l] = (uintptr_t)(base + i[l] * 4);
	}
}

/*
 * Lanes of @w in @mask gather the float4s at src[i[lane]] into v; the
 * warp's ready time is the latest.
 */
static void hs_gather(struct ng_warp *w, const float *src, uint32_t mask,
		      const uint64_t *i, float v[][4])
{
	uintptr_t addr[NG_WARP] = { 0 };
	struct ng_warp g = *w;

	if (!mask)
		return;
	hs_addrs(src, mask, i, addr);
	g.active = mask;
	ng_ld(&g, addr, 16, v);
	if (g.ready > w->ready)
		w->ready = g.ready;
}

static void hs_scatter(struct ng_warp *w, float *dst, uint32_t mask,
		       const uint64_t *i, float v[][4])
{
	uintptr_t addr[NG_WARP] = { 0 };
	struct ng_warp g = *w;

	if (!mask)
		return;
	hs_addrs(dst, mask, i, addr);
	g.active = mask;
	ng_st(&g, addr, 16, v);
}

/* mergeSortPass: every warp a step at a time, its lanes' merges in step */
static void hs_merge(struct ng_block *b, void *p)
{
	const struct hs_args *a = p;
	struct hs_lane s[HS_MERGE_WARPS][NG_WARP];
	struct ng_warp w[HS_MERGE_WARPS];
	float va[HS_MERGE_WARPS][NG_WARP][4], vb[HS_MERGE_WARPS][NG_WARP][4];
	uint64_t ia[HS_MERGE_WARPS][NG_WARP], ib[HS_MERGE_WARPS][NG_WARP];
	uint32_t live[HS_MERGE_WARPS], any = 0;
	unsigned int nw = b->nwarps;

	/* the first float4 of each run */
	for (unsigned int wi = 0; wi < nw; wi++) {
		uint32_t mm = 0;

		ng_warp_get(b, wi, &w[wi]);
		live[wi] = 0;
		for (unsigned int l = 0; l < w[wi].nlanes; l++) {
			struct hs_lane *t = &s[wi][l];

			hs_lane_init(a, (uint64_t)b->id * b->nthreads +
				     w[wi].tid0 + l, t);
			if (t->mode)
				live[wi] |= 1u << l;
			if (t->mode == 2) {
				mm |= 1u << l;
				ia[wi][l] = t->astart;
				ib[wi][l] = t->bstart;
			}
		}
		hs_gather(&w[wi], a->src, mm, ia[wi], va[wi]);
		hs_gather(&w[wi], a->src, mm, ib[wi], vb[wi]);
		for (uint32_t m = mm; m; m &= m - 1) {
			unsigned int l = (unsigned int)__builtin_ctz(m);

			memcpy(s[wi][l].a, va[wi][l], 16);
			memcpy(s[wi][l].b, vb[wi][l], 16);
		}
		any |= live[wi];
	}
	while (any) {
		uint32_t ma[HS_MERGE_WARPS], mb[HS_MERGE_WARPS];

		/* each lane's next fetches */
		for (unsigned int wi = 0; wi < nw; wi++) {
			ma[wi] = 0;
			mb[wi] = 0;
			for (uint32_t m = live[wi]; m; m &= m - 1) {
				unsigned int l = (unsigned int)__builtin_ctz(m);
				struct hs_lane *t = &s[wi][l];

				if (t->mode == 1) {
					ia[wi][l] = t->astart + t->out;
					ma[wi] |= 1u << l;
					continue;
				}
				ia[wi][l] = t->astart + t->aidx + 1;
				ib[wi][l] = t->bstart + t->bidx + 1;
				if (ia[wi][l] < a->total4)
					ma[wi] |= 1u << l;
				if (ib[wi][l] < a->total4)
					mb[wi] |= 1u << l;
			}
			hs_gather(&w[wi], a->src, ma[wi], ia[wi], va[wi]);
			hs_gather(&w[wi], a->src, mb[wi], ib[wi], vb[wi]);
		}
		any = 0;
		for (unsigned int wi = 0; wi < nw; wi++) {
			uint64_t oa[NG_WARP], ob[NG_WARP];
			float ra[NG_WARP][4], rb[NG_WARP][4];
			uint32_t sa = 0, sb = 0;

			if (!live[wi])
				continue;
			ng_warp_wait(&w[wi]);
			ng_warp_compute(&w[wi], HS_MERGE_INSTS);
			for (uint32_t m = live[wi]; m; m &= m - 1) {
				unsigned int l = (unsigned int)__builtin_ctz(m);
				struct hs_lane *t = &s[wi][l];
				uint64_t half = a->nr / 2;
				float na[4], nb[4];
				bool left_a, left_b;

				sa |= 1u << l;
				oa[l] = t->astart + t->out;
				if (t->mode == 1) {
					memcpy(ra[l], va[wi][l], 16);
					if (++t->out == t->end - t->astart) {
						t->mode = 0;
						live[wi] &= ~(1u << l);
					}
					continue;
				}
				memcpy(na, t->a, 16);
				hs_lowest(na, t->b);
				memcpy(nb, t->b, 16);
				hs_highest(t->a, nb);
				hs_sort4(na);
				hs_sort4(nb);
				memcpy(t->a, na, 16);
				memcpy(t->b, nb, 16);
				memcpy(ra[l], t->a, 16);
				t->out++;
				left_a = t->aidx + 1 < half;
				left_b = t->bidx + 1 < half &&
					 t->bstart + t->bidx + 1 < t->end;
				if (left_a && left_b) {
					if (va[wi][l][0] < vb[wi][l][0]) {
						t->aidx++;
						memcpy(t->a, va[wi][l], 16);
					} else {
						t->bidx++;
						memcpy(t->a, vb[wi][l], 16);
					}
				} else if (left_a) {
					t->aidx++;
					memcpy(t->a, va[wi][l], 16);
				} else if (left_b) {
					t->bidx++;
					memcpy(t->a, vb[wi][l], 16);
				} else {
					/* the last: b after a */
					sb |= 1u << l;
					ob[l] = t->astart + t->out++;
					memcpy(rb[l], t->b, 16);
					t->mode = 0;
					live[wi] &= ~(1u << l);
				}
			}
			hs_scatter(&w[wi], a->dst, sa, oa, ra);
			hs_scatter(&w[wi], a->dst, sb, ob, rb);
			any |= live[wi];
		}
	}
}

static void hs_pack(struct ng_block *b, void *p)
{
	const struct hs_args *a = p;
	unsigned int div = b->idx.y;
	uint64_t lo = a->final[div], hi = a->final[div + 1];

	for (unsigned int wi = 0; wi < b->nwarps; wi++) {
		uint64_t idx = (uint64_t)b->idx.x * HS_FIRST_T + wi * NG_WARP;
		float buf[NG_WARP];
		const float *v;
		struct ng_warp w;

		if (lo + idx >= hi)
			break;
		ng_warp_get(b, wi, &w);
		if (hi - lo - idx < w.nlanes) {
			w.nlanes = (unsigned int)(hi - lo - idx);
			w.active = (1u << w.nlanes) - 1;
		}
		ng_warp_compute(&w, HS_PACK_INSTS);
		v = ng_ld_contig_ref(&w, a->src + a->start[div] * 4 +
				     a->nulls[div] + idx, 4, buf);
		memcpy(buf, v, w.nlanes * 4);
		ng_warp_wait(&w);
		ng_st_contig(&w, a->dst + lo + idx, 4, buf);
	}
}

/* mergeSortPass's launches for buckets of @size float4s */
static unsigned int hs_passes(const uint32_t *size)
{
	uint64_t largest = 0;
	unsigned int n = 0;

	for (unsigned int i = 0; i < HS_DIV; i++)
		if (size[i] > largest)
			largest = size[i];
	largest *= 4;
	for (uint64_t nr = 2;; nr *= 2) {
		n++;
		if ((largest + nr * 4 - 1) / (nr * 4) <= 1)
			return n;
	}
}

static int hs_cmp(const void *x, const void *y)
{
	float a = *(const float *)x, b = *(const float *)y;

	return a < b ? -1 : a > b;
}

/* Rodinia's merge sort of the bucketed list @a->out; the result list */
static int hs_mergesort(struct wlc *c, struct hs_args *a, const uint32_t *size,
			float **res)
{
	uint32_t start[HS_DIV + 1];
	float *orig = a->out, *result = a->in, *t;
	uint64_t largest = 0;
	int ret;

	start[0] = 0;
	for (unsigned int i = 1; i <= HS_DIV; i++) {
		start[i] = start[i - 1] + size[i - 1];
		if (size[i - 1] > largest)
			largest = size[i - 1];
	}
	largest *= 4;
	a->start = start;
	a->total4 = start[HS_DIV];
	a->src = orig;
	a->dst = result;
	ret = wlc_launch(c, "mergeSortFirst", hs_first, a,
			 (a->total4 + HS_FIRST_T - 1) / HS_FIRST_T, HS_FIRST_T,
			 -1, true);
	for (a->nr = 2; !ret; a->nr *= 2) {
		uint64_t need, grid;
		unsigned int threads = HS_MERGE_T;

		a->per_div = (unsigned int)((largest + a->nr * 4 - 1) /
					    (a->nr * 4));
		need = (uint64_t)a->per_div * HS_DIV;
		grid = (need + threads - 1) / threads;
		if (grid < 8) {
			grid = 8;
			threads = (unsigned int)((need + 7) / 8);
		}
		t = orig;
		orig = result;
		result = t;
		a->src = orig;
		a->dst = result;
		ret = wlc_launch(c, "mergeSortPass", hs_merge, a, grid, threads,
				 -1, true);
		if (a->per_div == 1)
			break;
	}
	if (ret)
		return ret;
	a->src = result;
	a->dst = orig;
	ret = wlc_launch_2d(c, "mergepack", hs_pack, a,
			    (struct ng_dim){
				(unsigned int)((largest + HS_FIRST_T - 1) /
					       HS_FIRST_T), HS_DIV },
			    (struct ng_dim){ HS_FIRST_T, 1 }, -1, true);
	*res = orig;
	return ret;
}

static int hs_run(struct ng_system *sys, const struct ng_bench_opts *o,
		  struct ng_bench_result *r, char *err, size_t errlen)
{
	struct ng_buf bi = { 0 }, bo = { 0 }, bp = { 0 }, bx = { 0 };
	struct ng_buf bf = { 0 }, bs = { 0 }, bl = { 0 };
	uint32_t size[HS_DIV], fin[HS_DIV + 1], nulls[HS_DIV], loff[HS_DIV];
	float piv[HS_DIV], *want = NULL, *res = NULL;
	struct hs_args a = { 0 };
	uint64_t list;
	struct wlc c;
	char ok[96];
	int ret;

	wlc_init(&c, sys, o, r, err, errlen);
	a.n = o->size / 4 / 4 * 4;
	if (a.n < 4) {
		ng_seterr(err, errlen, "hybridsort: size must hold 4 floats (16 bytes) at least");
		return -EINVAL;
	}
	a.blocks = (unsigned int)((a.n - 1) / (HS_BUCKET_T * HS_BAND) + 1);
	list = a.n + HS_DIV * 4;	/* Rodinia's lists, room for nulls */
	ret = wlc_alloc(&c, &bi, list * 4, -1);
	if (!ret)
		ret = wlc_alloc(&c, &bo, list * 4, -1);
	if (!ret)
		ret = wlc_alloc(&c, &bx, a.n * 4, -1);
	if (!ret)
		ret = wlc_alloc(&c, &bp, (uint64_t)a.blocks * HS_DIV * 4, -1);
	if (!ret)
		ret = wlc_alloc(&c, &bf, HS_DIV * 4, -1);
	if (!ret)
		ret = wlc_alloc(&c, &bs, HS_DIV * 4, -1);
	if (!ret)
		ret = wlc_alloc(&c, &bl, HS_DIV * 4, -1);
	if (ret)
		goto out;
	a.in = bi.ptr;
	a.out = bo.ptr;
	a.indice = bx.ptr;
	a.prefix = bp.ptr;
	a.pivot = bf.ptr;
	a.offsets = bs.ptr;
	a.loff = bl.ptr;
	r->elements = a.n;
	a.seed = c.cfg->seed;
	for (unsigned int i = 0; i < HS_DIV; i++)
		piv[i] = (float)(i + 1) / (float)HS_DIV;
	ret = hs_up(&c, a.pivot, piv, HS_DIV);
	if (!ret)
		ret = wlc_launch(&c, "hs-init", hs_init, &a, (a.n + 255) / 256,
				 256, -1, false);
	if (ret)
		goto out;
	ng_system_reset_counters(sys);
	for (unsigned int it = 0; it < o->iters && !ret; it++) {
		/* the merge sort overwrote the input */
		if (it)
			ret = wlc_launch(&c, "hs-init", hs_init, &a,
					 (a.n + 255) / 256, 256, -1, false);
		if (!ret)
			ret = wlc_launch(&c, "bucketcount", hs_bucketcount, &a,
					 a.blocks, HS_BUCKET_T, -1, true);
		if (!ret)
			ret = wlc_launch(&c, "bucketprefixoffset", hs_prefix,
					 &a, HS_DIV / HS_PREFIX_T, HS_PREFIX_T,
					 -1, true);
		if (ret)
			break;
		/* the host's part: bucket sizes in float4s, their offsets */
		fin[0] = 0;
		for (unsigned int i = 0; i < HS_DIV; i++) {
			uint32_t h = a.offsets[i];

			fin[i + 1] = fin[i] + h;
			nulls[i] = h % 4 ? (h & ~3u) + 4 - h : 0;
			size[i] = (h + nulls[i]) / 4;
			loff[i] = i ? loff[i - 1] + size[i - 1] * 4 : 0;
		}
		if (!it)
			c.total = (5 + hs_passes(size)) * o->iters;
		ret = hs_up(&c, a.loff, loff, HS_DIV);
		if (!ret)
			ret = hs_up(&c, a.out, NULL, list);
		if (!ret)
			ret = wlc_launch(&c, "bucketsort", hs_bucketsort, &a,
					 a.blocks, HS_BUCKET_T, -1, true);
		a.final = fin;
		a.nulls = nulls;
		if (!ret)
			ret = hs_mergesort(&c, &a, size, &res);
	}
	if (ret)
		goto out;
	wl_collect(sys, r);
	/*
	 * the input read twice and indice written and read; the list
	 * written by bucketsort, read and written by each merge kernel
	 */
	r->bytes = a.n * 4 * 6 * o->iters;
	want = malloc(a.n * 4);
	if (!want) {
		ng_seterr(err, errlen, "hybridsort: out of memory");
		ret = -ENOMEM;
		goto out;
	}
	for (uint64_t i = 0; i < a.n; i++)
		want[i] = hs_in0(a.seed, i);
	qsort(want, a.n, 4, hs_cmp);
	snprintf(ok, sizeof(ok),
		 "the %llu sorted floats match the CPU's sort of the input",
		 (unsigned long long)a.n);
	wl_corrupt_f32(o, res, a.n);
	wl_check_f32(r, "sorted", res, want, a.n, 0, 0.0f, 0.0f, ok);
out:
	free(want);
	ng_free(c.sp, &bl);
	ng_free(c.sp, &bs);
	ng_free(c.sp, &bf);
	ng_free(c.sp, &bp);
	ng_free(c.sp, &bx);
	ng_free(c.sp, &bo);
	ng_free(c.sp, &bi);
	return ret;
}

const struct ng_workload ng_wl_hybridsort = {
	.name = "hybridsort",
	.desc = "Hybrid sort (Rodinia hybridsort): bucket count, prefix and scatter into 1024 buckets, then a float4 merge sort within each",
	/* 64 K floats: 1.0 MiB over the lists, indice and prefix offsets */
	.default_size = 256ULL << 10,
	.default_iters = 1,
	.narrays = 4,
	.run = hs_run,
};
