// SPDX-License-Identifier: GPL-2.0
/*
 * nn: k-nearest neighbours, after Rodinia's nn (nn_cuda.cu): the GPU
 * computes every record's euclidean distance to a target point (its
 * euclid kernel, a thread per record, records of two floats, latitude and
 * longitude, as Rodinia's LatLong), then the host picks the k nearest, as
 * Rodinia's host does. 256-thread blocks. CODA counts nn as
 * core-exclusive: block b reads records [256 b, 256 b + 256) and writes
 * their distances. Records are splitmix64 of the seed (Rodinia reads
 * hurricane files); verified against the host's distances (relative
 * error 1e-6) and its k nearest (k = 10, Rodinia's default).
 */
#include <math.h>
#include <stdlib.h>

#include "workloads/wl.h"

#define NN_BLOCK	256
#define NN_K		10
/*
 * the index and bound check (3), two subtracts, two multiplies, an add
 * and the square root (~10)
 */
#define NN_INSTS	13

struct nn_args {
	float *rec;			/* lat, lng pairs */
	float *dist;
	uint64_t n, seed;
	float lat, lng;
};

static float nn_coord(uint64_t seed, uint64_t i)
{
	return (float)(wlc_hash(seed * 0x6e6e + i) >> 40) / (float)(1 << 24) *
	       180.0f - 90.0f;
}

static void nn_init(struct ng_block *b, void *p)
{
	const struct nn_args *a = p;

	for (unsigned int wi = 0; wi < b->nwarps; wi++) {
		float v[2 * NG_WARP];
		struct ng_warp w;
		uint64_t i0;

		ng_warp_get(b, wi, &w);
		if (!wlc_lanes(&w, a->n, NN_BLOCK, &i0))
			break;
		for (unsigned int l = 0; l < 2 * w.nlanes; l++)
			v[l] = nn_coord(a->seed, 2 * i0 + l);
		ng_st_contig(&w, a->rec + 2 * i0, 8, v);
	}
}

static void nn_euclid(struct ng_block *b, void *p)
{
	const struct nn_args *a = p;

	for (unsigned int wi = 0; wi < b->nwarps; wi++) {
		float buf[2 * NG_WARP], d[NG_WARP];
		const float *r;
		struct ng_warp w;
		uint64_t i0;

		ng_warp_get(b, wi, &w);
		if (!wlc_lanes(&w, a->n, NN_BLOCK, &i0))
			break;
		ng_warp_compute(&w, NN_INSTS);
		r = ng_ld_contig_ref(&w, a->rec + 2 * i0, 8, buf);
		for (unsigned int l = 0; l < w.nlanes; l++) {
			float x = a->lat - r[2 * l], y = a->lng - r[2 * l + 1];

			d[l] = sqrtf(x * x + y * y);
		}
		ng_st_contig(&w, a->dist + i0, 4, d);
	}
}

/* The k nearest records of @d, nearest first, ties by index. */
static void nn_pick(const float *d, uint64_t n, uint64_t *best)
{
	unsigned int k = 0;

	for (uint64_t i = 0; i < n; i++) {
		unsigned int at = k < NN_K ? k++ : NN_K;

		if (at == NN_K && d[i] >= d[best[NN_K - 1]])
			continue;
		if (at == NN_K)
			at = NN_K - 1;
		while (at && d[best[at - 1]] > d[i]) {
			best[at] = best[at - 1];
			at--;
		}
		best[at] = i;
	}
}

static int nn_run(struct ng_system *sys, const struct ng_bench_opts *o,
		  struct ng_bench_result *r, char *err, size_t errlen)
{
	struct ng_buf br = { 0 }, bd = { 0 };
	struct nn_args a = { 0 };
	uint64_t got[NN_K], want_k[NN_K], nblocks;
	float *want = NULL;
	struct wlc c;
	char ok[112];
	int ret;

	wlc_init(&c, sys, o, r, err, errlen);
	a.n = o->size / 8;
	if (a.n < NN_K) {
		ng_seterr(err, errlen, "nn: size must hold %u records (%u bytes) at least",
			  NN_K, NN_K * 8);
		return -EINVAL;
	}
	a.seed = c.cfg->seed;
	/* Rodinia's command line gives the target: 30, 90 */
	a.lat = 30.0f;
	a.lng = 90.0f;
	nblocks = (a.n + NN_BLOCK - 1) / NN_BLOCK;
	ret = wlc_alloc(&c, &br, a.n * 8, -1);
	if (!ret)
		ret = wlc_alloc(&c, &bd, a.n * 4, -1);
	if (ret)
		goto out;
	a.rec = br.ptr;
	a.dist = bd.ptr;
	r->elements = a.n;
	r->bytes = a.n * 12 * o->iters;
	c.total = o->iters;
	ret = wlc_launch(&c, "nn-init", nn_init, &a, nblocks, NN_BLOCK, -1,
			 false);
	if (ret)
		goto out;
	ng_system_reset_counters(sys);
	for (unsigned int it = 0; it < o->iters && !ret; it++)
		ret = wlc_launch(&c, "euclid", nn_euclid, &a, nblocks, NN_BLOCK,
				 -1, true);
	if (ret)
		goto out;
	wl_collect(sys, r);
	want = malloc(a.n * 4);
	if (!want) {
		ng_seterr(err, errlen, "nn: out of memory");
		ret = -ENOMEM;
		goto out;
	}
	for (uint64_t i = 0; i < a.n; i++) {
		float x = a.lat - nn_coord(a.seed, 2 * i);
		float y = a.lng - nn_coord(a.seed, 2 * i + 1);

		want[i] = sqrtf(x * x + y * y);
	}
	snprintf(ok, sizeof(ok),
		 "the distances of %llu records and their %u nearest match the CPU's",
		 (unsigned long long)a.n, NN_K);
	wl_corrupt_f32(o, a.dist, a.n);
	if (!wl_check_f32(r, "distance", a.dist, want, a.n, 0, 1e-6f, 0, ok))
		goto out;
	nn_pick(a.dist, a.n, got);
	nn_pick(want, a.n, want_k);
	for (unsigned int k = 0; k < NN_K; k++)
		if (got[k] != want_k[k]) {
			r->verified = false;
			snprintf(r->verify, sizeof(r->verify),
				 "neighbour %u is record %llu, the CPU reference says %llu",
				 k, (unsigned long long)got[k],
				 (unsigned long long)want_k[k]);
			break;
		}
out:
	free(want);
	ng_free(c.sp, &bd);
	ng_free(c.sp, &br);
	return ret;
}

const struct ng_workload ng_wl_nn = {
	.name = "nn",
	.desc = "k-nearest neighbours (Rodinia nn): every record's distance on the GPU, the k nearest on the host",
	.default_size = 2ULL << 20,	/* 256 Ki records */
	.default_iters = 1,
	.narrays = 1,
	.run = nn_run,
};
