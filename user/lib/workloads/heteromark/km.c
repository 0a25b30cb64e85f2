// SPDX-License-Identifier: GPL-2.0
/*
 * km: k-means clustering, after Hetero-Mark's KMeans as MGPUSim runs it
 * (amd/benchmarks/heteromark/kmeans/kernels.cl and its host code
 * kmeans.go): 5 clusters of points with 32 features, at most --iters
 * (MGPUSim's max-iter, 5) iterations. Same work distribution: 1-D grids
 * of one work-item per point, work-groups of 64, two kernels:
 *
 *   kmeans_kernel_swap     once: point p's features, feature[p][0..31]
 *                          (point-major), to swap[0..31][p]: per feature
 *                          a warp gathers 32 words 128 bytes apart and
 *                          stores 32 contiguous ones
 *   kmeans_kernel_compute  per iteration: point p's squared distance to
 *                          each cluster i, sum over l of (swap[l][p] -
 *                          clusters[i][l])^2 in l's order, and the index
 *                          of the first smallest to membership[p]; a warp
 *                          loads swap[l][p..p+31] (contiguous) for each
 *                          cluster and feature, clusters[i][l] at one
 *                          address for every lane (a broadcast; a scalar
 *                          load in MGPUSim's GCN3 code)
 *
 * The host does the rest between the kernels, as Hetero-Mark does: it
 * copies the centroids to every GPU (kmeans.go keeps a copy per GPU,
 * which each GPU's kernel reads: here each block reads the copy of the
 * GPU it runs on), reads the memberships back, counts those that changed
 * and stops when none did, and recomputes the centroids from the
 * point-major features (sums in point order, then a division by the
 * member count). The first 5 points are the first centroids.
 *
 * An init kernel with the kernels' grid writes each point's features and
 * zeros where its columns of swap and its membership go, so first touch
 * homes them with the GPU of the point's block. Differences: the
 * features are the workload's random stream in [0, 1) (MGPUSim's Go
 * rand); the copies of the centroids are an untimed kernel between the
 * timed ones (its stores, one warp a GPU, count in the statistics);
 * the last warp may be short (the kernels' bound check).
 *
 * Verified against a CPU k-means with the same float operations in the
 * same order on the point-major features: the transpose, the number of
 * iterations, every membership and every centroid, exactly.
 */
#include <stdlib.h>

#include "workloads/wl.h"

#define KM_BLOCK	64	/* work-items per work-group, as kmeans.go */
#define KM_NF		32	/* features, MGPUSim's default */
#define KM_NC		5	/* clusters, MGPUSim's default */
/*
 * A work-item's arithmetic, from MGPUSim's GCN3 code of the kernels:
 * swap: its index and bound check (16), per feature two addresses and the
 * loop (18); compute: index, bound check and setup (28), per cluster the
 * comparison and the loop (15), per feature the address, the subtraction,
 * the multiply-add and the loop (17), the store's address (7).
 */
#define KM_INSTS_SWAP0	16
#define KM_INSTS_SWAPF	18
#define KM_INSTS_C0	28
#define KM_INSTS_CL	15
#define KM_INSTS_CF	17
#define KM_INSTS_CEND	7

struct km_args {
	float *feat, *swap;
	int32_t *memb;
	float *clus[NG_MAX_GPUS];
	const float *hclus;		/* what the copy kernels copy */
	uint64_t np;
	uint64_t seed;
};

/* Feature f of point p: [0, 1) in steps of 2^-24. */
static float km_feat(uint64_t seed, uint64_t p, unsigned int f)
{
	return (float)(wlc_hash(seed * 0x6b6d + p * KM_NF + f) >> 40) *
	       (1.0f / 16777216.0f);
}

/* Lanes of @w store @n words of @src at @dst, 32 at a time. */
static void km_put(struct ng_warp *w, void *dst, const void *src, uint64_t n)
{
	for (uint64_t o = 0; o < n; o += NG_WARP) {
		unsigned int k = n - o < NG_WARP ? (unsigned int)(n - o) : NG_WARP;
		struct ng_warp t = *w;

		t.nlanes = k;
		t.active = k == NG_WARP ? ~0u : (1u << k) - 1;
		ng_st_contig(&t, (char *)dst + 4 * o, 4, (const char *)src + 4 * o);
	}
}

/* Untimed, the kernels' grid: the points' features, zeros for the rest. */
static void km_init(struct ng_block *b, void *p)
{
	const struct km_args *a = p;

	for (unsigned int wi = 0; wi < b->nwarps; wi++) {
		float v[NG_WARP * KM_NF], z[NG_WARP] = { 0 };
		struct ng_warp w;
		uint64_t p0;

		ng_warp_get(b, wi, &w);
		if (!wlc_lanes(&w, a->np, KM_BLOCK, &p0))
			break;
		for (unsigned int l = 0; l < w.nlanes; l++)
			for (unsigned int f = 0; f < KM_NF; f++)
				v[l * KM_NF + f] = km_feat(a->seed, p0 + l, f);
		km_put(&w, a->feat + p0 * KM_NF, v, (uint64_t)w.nlanes * KM_NF);
		for (unsigned int f = 0; f < KM_NF; f++)
			ng_st_contig(&w, a->swap + f * a->np + p0, 4, z);
		ng_st_contig(&w, a->memb + p0, 4, z);
	}
}

/*
 * Untimed, a block per GPU: block g writes the host's centroids to GPU
 * g's copy (homed there whoever writes it: with --steal a launch's blocks
 * may run on any GPU, even those of an only_gpu launch).
 */
static void km_copy(struct ng_block *b, void *p)
{
	const struct km_args *a = p;
	struct ng_warp w;

	ng_warp_get(b, 0, &w);
	km_put(&w, a->clus[b->id], a->hclus, KM_NC * KM_NF);
}

static void km_swap(struct ng_block *b, void *p)
{
	const struct km_args *a = p;

	for (unsigned int wi = 0; wi < b->nwarps; wi++) {
		uintptr_t addr[NG_WARP];
		float v[NG_WARP];
		struct ng_warp w;
		uint64_t p0;

		ng_warp_get(b, wi, &w);
		if (!wlc_lanes(&w, a->np, KM_BLOCK, &p0))
			break;
		ng_warp_compute(&w, KM_INSTS_SWAP0);
		for (unsigned int f = 0; f < KM_NF; f++) {
			for (unsigned int l = 0; l < w.nlanes; l++)
				addr[l] = (uintptr_t)(a->feat + (p0 + l) * KM_NF + f);
			ng_ld(&w, addr, 4, v);
			ng_st_contig(&w, a->swap + f * a->np + p0, 4, v);
			ng_warp_compute(&w, KM_INSTS_SWAPF);
		}
	}
}

/* Squared distances of the warp's points to cluster @i, the kernel's loop. */
static void km_dist(struct ng_warp *w, const struct km_args *a,
		    const float *clus, uint64_t p0, unsigned int i, float *ans)
{
	for (unsigned int l = 0; l < w->nlanes; l++)
		ans[l] = 0;
	for (unsigned int f = 0; f < KM_NF; f++) {
		float c = wl_bcast(w, clus + i * KM_NF + f), buf[NG_WARP];
		const float *x = ng_ld_contig_ref(w, a->swap + f * a->np + p0, 4, buf);

		for (unsigned int l = 0; l < w->nlanes; l++)
			ans[l] += (x[l] - c) * (x[l] - c);
		ng_warp_compute(w, KM_INSTS_CF);
	}
}

static void km_compute(struct ng_block *b, void *p)
{
	const struct km_args *a = p;
	/* the centroids of the GPU this block runs on, as kmeans.go's copies */
	const float *clus = a->clus[b->sm->gpu];

	for (unsigned int wi = 0; wi < b->nwarps; wi++) {
		float min[NG_WARP], ans[NG_WARP];
		int32_t idx[NG_WARP] = { 0 };
		struct ng_warp w;
		uint64_t p0;

		ng_warp_get(b, wi, &w);
		if (!wlc_lanes(&w, a->np, KM_BLOCK, &p0))
			break;
		ng_warp_compute(&w, KM_INSTS_C0);
		for (unsigned int l = 0; l < w.nlanes; l++)
			min[l] = 3.40282347e+38f;	/* FLT_MAX */
		for (unsigned int i = 0; i < KM_NC; i++) {
			km_dist(&w, a, clus, p0, i, ans);
			for (unsigned int l = 0; l < w.nlanes; l++)
				if (ans[l] < min[l]) {
					min[l] = ans[l];
					idx[l] = (int32_t)i;
				}
			ng_warp_compute(&w, KM_INSTS_CL);
		}
		ng_warp_compute(&w, KM_INSTS_CEND);
		ng_st_contig(&w, a->memb + p0, 4, idx);
	}
}

/* The host's step: centroids from the memberships (kmeans.go's order). */
static void km_centroids(const float *feat, const int32_t *memb, uint64_t np,
			 float *clus)
{
	uint64_t count[KM_NC] = { 0 };

	memset(clus, 0, KM_NC * KM_NF * sizeof(*clus));
	for (uint64_t p = 0; p < np; p++) {
		for (unsigned int f = 0; f < KM_NF; f++)
			clus[memb[p] * KM_NF + f] += feat[p * KM_NF + f];
		count[memb[p]]++;
	}
	for (unsigned int i = 0; i < KM_NC; i++)
		for (unsigned int f = 0; f < KM_NF; f++)
			if (count[i])
				clus[i * KM_NF + f] /= (float)count[i];
}

/* The host's other step: take @got as the memberships, count the changes. */
static uint64_t km_update(int32_t *memb, const int32_t *got, uint64_t np)
{
	uint64_t delta = 0;

	for (uint64_t p = 0; p < np; p++)
		if (got[p] != memb[p]) {
			delta++;
			memb[p] = got[p];
		}
	return delta;
}

/* The CPU's membership of point @p: the kernel's float operations. */
static int32_t km_nearest(const float *feat, const float *clus, uint64_t p)
{
	float min = 3.40282347e+38f;
	int32_t idx = 0;

	for (unsigned int i = 0; i < KM_NC; i++) {
		float ans = 0;

		for (unsigned int f = 0; f < KM_NF; f++) {
			float x = feat[p * KM_NF + f], c = clus[i * KM_NF + f];

			ans += (x - c) * (x - c);
		}
		if (ans < min) {
			min = ans;
			idx = (int32_t)i;
		}
	}
	return idx;
}

/* The CPU k-means: memberships, centroids and its iterations. */
static unsigned int km_ref(const float *feat, uint64_t np, unsigned int maxit,
			   int32_t *memb, int32_t *tmp, float *clus)
{
	uint64_t delta = 1;
	unsigned int it = 0;

	memcpy(clus, feat, KM_NC * KM_NF * sizeof(*clus));
	for (uint64_t p = 0; p < np; p++)
		memb[p] = -1;
	while (delta && it < maxit) {
		for (uint64_t p = 0; p < np; p++)
			tmp[p] = km_nearest(feat, clus, p);
		delta = km_update(memb, tmp, np);
		it++;
		km_centroids(feat, memb, np, clus);
	}
	return it;
}

/* The host's side of the run: its copy of the features and its state. */
struct km_host {
	float *feat, *clus;		/* point-major; the centroids */
	int32_t *memb;
	unsigned int iters;		/* iterations run */
};

static void km_host_free(struct km_host *h)
{
	free(h->feat);
	free(h->clus);
	free(h->memb);
}

static int km_host_make(struct km_host *h, uint64_t np, uint64_t seed)
{
	h->feat = malloc(np * KM_NF * sizeof(*h->feat));
	h->clus = malloc(KM_NC * KM_NF * sizeof(*h->clus));
	h->memb = malloc(np * sizeof(*h->memb));
	if (!h->feat || !h->clus || !h->memb)
		return -ENOMEM;
	for (uint64_t p = 0; p < np; p++) {
		for (unsigned int f = 0; f < KM_NF; f++)
			h->feat[p * KM_NF + f] = km_feat(seed, p, f);
		h->memb[p] = -1;
	}
	/* the first points are the first centroids */
	memcpy(h->clus, h->feat, KM_NC * KM_NF * sizeof(*h->clus));
	return 0;
}

static int km_alloc(struct wlc *c, struct km_args *a, struct ng_buf *bf,
		    struct ng_buf *bs, struct ng_buf *bm, struct ng_buf *bc)
{
	uint64_t fb = a->np * KM_NF * 4;
	int ret = wlc_alloc(c, bf, fb, -1);

	if (!ret)
		ret = wlc_alloc(c, bs, fb, -1);
	if (!ret)
		ret = wlc_alloc(c, bm, a->np * 4, -1);
	for (unsigned int g = 0; g < c->cfg->gpus && !ret; g++) {
		ret = wlc_alloc(c, &bc[g], KM_NC * KM_NF * 4, (int)g);
		a->clus[g] = bc[g].ptr;
	}
	a->feat = bf->ptr;
	a->swap = bs->ptr;
	a->memb = bm->ptr;
	return ret;
}

/*
 * The timed part: the transpose, then iterations of the centroids' copies,
 * the memberships and the host's update until none changed or @maxit.
 */
static int km_iterate(struct wlc *c, struct km_args *a, struct km_host *h,
		      unsigned int maxit)
{
	uint64_t nblocks = (a->np + KM_BLOCK - 1) / KM_BLOCK, delta = 1;
	int ret;

	ret = wlc_launch(c, "km-swap", km_swap, a, nblocks, KM_BLOCK, -1, true);
	while (!ret && delta && h->iters < maxit) {
		ret = wlc_launch(c, "km-centroids", km_copy, a, c->cfg->gpus,
				 NG_WARP, -1, false);
		if (!ret)
			ret = wlc_launch(c, "km", km_compute, a, nblocks, KM_BLOCK,
					 -1, true);
		if (ret)
			break;
		delta = km_update(h->memb, a->memb, a->np);
		h->iters++;
		km_centroids(h->feat, h->memb, a->np, h->clus);
	}
	return ret;
}

/* --corrupt-one: move the middle point to the next cluster. */
static void km_corrupt(const struct ng_bench_opts *o, int32_t *got, uint64_t n)
{
	if (o->corrupt && n)
		got[n / 2] = (got[n / 2] + 1) % KM_NC;
}

/* Integers against the CPU's, worded as wl_check_f32. */
static bool km_check_i32(struct ng_bench_result *r, const char *what,
			 const int32_t *got, const int32_t *want, uint64_t n)
{
	for (uint64_t i = 0; i < n; i++) {
		if (got[i] == want[i])
			continue;
		r->verified = false;
		snprintf(r->verify, sizeof(r->verify),
			 "%s[%llu] = %d, the CPU reference says %d", what,
			 (unsigned long long)i, got[i], want[i]);
		return false;
	}
	return true;
}

/* The transpose, the iterations, the memberships, the centroids. */
static int km_verify(const struct ng_bench_opts *o, struct ng_bench_result *r,
		     const struct km_args *a, const struct km_host *h)
{
	uint64_t np = a->np;
	float *swap = malloc(np * KM_NF * sizeof(*swap));
	float *clus = malloc(KM_NC * KM_NF * sizeof(*clus));
	int32_t *memb = malloc(np * sizeof(*memb));
	int32_t *tmp = malloc(np * sizeof(*tmp));
	unsigned int it;
	char ok[160];
	bool good = false;

	if (!swap || !clus || !memb || !tmp)
		goto out;
	good = true;
	for (uint64_t p = 0; p < np; p++)
		for (unsigned int f = 0; f < KM_NF; f++)
			swap[f * np + p] = h->feat[p * KM_NF + f];
	it = km_ref(h->feat, np, o->iters, memb, tmp, clus);
	snprintf(ok, sizeof(ok),
		 "%llu points, %u clusters, %u iterations: memberships and centroids match the CPU reference",
		 (unsigned long long)np, KM_NC, it);
	km_corrupt(o, a->memb, np);
	if (!wl_check_f32(r, "swap", a->swap, swap, np * KM_NF, np, 0, 0, ok))
		goto out;
	if (it != h->iters) {
		r->verified = false;
		snprintf(r->verify, sizeof(r->verify),
			 "the GPUs' run stopped after %u iterations, the CPU reference says %u",
			 h->iters, it);
		goto out;
	}
	if (km_check_i32(r, "membership", a->memb, memb, np))
		wl_check_f32(r, "centroid", h->clus, clus, KM_NC * KM_NF, KM_NF,
			     0, 0, ok);
out:
	free(swap);
	free(clus);
	free(memb);
	free(tmp);
	return good ? 0 : -ENOMEM;
}

static int km_run(struct ng_system *sys, const struct ng_bench_opts *o,
		  struct ng_bench_result *r, char *err, size_t errlen)
{
	struct wlc c;
	struct ng_buf bf = { 0 }, bs = { 0 }, bm = { 0 };
	struct ng_buf bc[NG_MAX_GPUS] = { { 0 } };
	struct km_args a = { 0 };
	struct km_host h = { 0 };
	int ret;

	wlc_init(&c, sys, o, r, err, errlen);
	a.np = o->size / (KM_NF * 4);
	a.seed = c.cfg->seed;
	if (a.np < KM_BLOCK) {
		ng_seterr(err, errlen, "km: size must hold %u points of %u features (%u bytes) at least",
			  KM_BLOCK, KM_NF, KM_BLOCK * KM_NF * 4);
		return -EINVAL;
	}
	ret = km_host_make(&h, a.np, a.seed);
	if (ret) {
		ng_seterr(err, errlen, "km: out of memory");
		goto out;
	}
	ret = km_alloc(&c, &a, &bf, &bs, &bm, bc);
	if (ret)
		goto out;
	a.hclus = h.clus;
	r->elements = a.np;
	c.total = 1 + o->iters;
	ret = wlc_launch(&c, "km-init", km_init, &a,
			 (a.np + KM_BLOCK - 1) / KM_BLOCK, KM_BLOCK, -1, false);
	if (ret)
		goto out;
	ng_system_reset_counters(sys);
	ret = km_iterate(&c, &a, &h, o->iters);
	wl_collect(sys, r);
	if (ret)
		goto out;
	/* the transpose's loads and stores, per iteration the distances' loads and a store */
	r->bytes = a.np * KM_NF * 8 +
		   h.iters * (a.np * KM_NF * KM_NC * 4 + a.np * 4);
	ret = km_verify(o, r, &a, &h);
	if (ret)
		ng_seterr(err, errlen, "km: out of memory");
out:
	km_host_free(&h);
	for (unsigned int g = 0; g < NG_MAX_GPUS; g++)
		ng_free(c.sp, &bc[g]);
	ng_free(c.sp, &bm);
	ng_free(c.sp, &bs);
	ng_free(c.sp, &bf);
	return ret;
}

const struct ng_workload ng_wl_km = {
	.name = "km",
	.desc = "Hetero-Mark KMeans: a feature transpose, then per iteration a work-item per point's nearest of 5 centroids",
	.default_size = 1ULL << 20,	/* 8192 points of 32 features */
	.paper_footprint = 256ULL << 10,
	.paper_ref = "MGPUSim's default: 1024 points x 32 features and their transpose (DualOpt gives no size)",
	.default_iters = 5,
	.narrays = 2,
	.run = km_run,
};
