// SPDX-License-Identifier: GPL-2.0
/*
 * hotspot3d: Rodinia's hotspot3D (3D/opt1.cu, hotspotOpt1): a 3-D thermal
 * stencil over nx x ny x nz cells, each step tOut = cc c + cn N + cs S +
 * ce E + cw W + ct T + cb B + sdc power + ct amb, with edges clamped, and
 * the two temperature arrays swapped between steps. As Rodinia launches
 * it: blocks of 64 x 4 threads over the x-y plane, each thread walking
 * its column through all z, keeping the cell below, at and above it in
 * registers (so per z it reads the plane above, its four neighbours in
 * the plane and the power). The coefficients are fixed stand-ins for
 * Rodinia's (derived there from the chip's physics); nx = ny = 256, nz
 * from the size. Each block touches 4 rows of every plane: CODA counts
 * hotspot3d as sharing. Verified against the CPU's steps, same
 * arithmetic in the same order, within 1e-5 relative.
 */
#include <math.h>
#include <stdlib.h>

#include "workloads/wl.h"

#define H3_NX		256
#define H3_NY		256
#define H3_BX		64
#define H3_BY		4
/* per cell: 8 multiply-adds, 6 clamped indices (~20) */
#define H3_INSTS	20

static const float h3_cc = 0.4f, h3_cn = 0.1f, h3_ce = 0.1f, h3_ct = 0.05f;
static const float h3_sdc = 0.01f, h3_amb = 80.0f;

struct h3_args {
	float *in, *out, *pw;
	uint64_t nz;
};

static uint64_t h3_at(uint64_t x, uint64_t y, uint64_t z)
{
	return (z * H3_NY + y) * H3_NX + x;
}

static float h3_t0(uint64_t i)
{
	return 320.0f + (float)(i % 97) * 0.25f;
}

static float h3_p0(uint64_t i)
{
	return (float)((i * 13) % 101) * 0.01f;
}

/* One cell from its neighbours (the kernel's and the CPU's). */
static float h3_cell(float c, float n, float s, float e, float w, float t,
		     float b, float p)
{
	return h3_cc * c + h3_cn * n + h3_cn * s + h3_ce * e + h3_ce * w +
	       h3_ct * t + h3_ct * b + h3_sdc * p + h3_ct * h3_amb;
}

static void h3_init(struct ng_block *b, void *p)
{
	const struct h3_args *a = p;

	for (unsigned int wi = 0; wi < b->nwarps; wi++) {
		uint64_t x0 = b->idx.x * H3_BX + (wi % 2) * NG_WARP;
		uint64_t y = b->idx.y * H3_BY + wi / 2;
		struct ng_warp w;

		ng_warp_get(b, wi, &w);
		for (uint64_t z = 0; z < a->nz; z++) {
			uint64_t i0 = h3_at(x0, y, z);
			float t[NG_WARP], pw[NG_WARP];

			for (unsigned int l = 0; l < NG_WARP; l++) {
				t[l] = h3_t0(i0 + l);
				pw[l] = h3_p0(i0 + l);
			}
			ng_st_contig(&w, a->in + i0, 4, t);
			ng_st_contig(&w, a->out + i0, 4, t);
			ng_st_contig(&w, a->pw + i0, 4, pw);
		}
	}
}

/* A warp's row of 32 cells at (x0.., y, z) of @src, into @buf. */
static const float *h3_row(struct ng_warp *w, const float *src, uint64_t x0,
			   uint64_t y, uint64_t z, float *buf)
{
	return ng_ld_contig_ref(w, src + h3_at(x0, y, z), 4, buf);
}

static void h3_kernel(struct ng_block *b, void *p)
{
	const struct h3_args *a = p;

	for (unsigned int wi = 0; wi < b->nwarps; wi++) {
		uint64_t x0 = b->idx.x * H3_BX + (wi % 2) * NG_WARP;
		uint64_t y = b->idx.y * H3_BY + wi / 2;
		uint64_t yn = y ? y - 1 : 0, ys = y + 1 < H3_NY ? y + 1 : y;
		float bot[NG_WARP], mid[NG_WARP], top[NG_WARP], o[NG_WARP];
		float bn[NG_WARP], bs[NG_WARP], bw[NG_WARP + 2], bp[NG_WARP];
		struct ng_warp w;

		ng_warp_get(b, wi, &w);
		memcpy(mid, h3_row(&w, a->in, x0, y, 0, bn), sizeof(mid));
		memcpy(bot, mid, sizeof(bot));
		for (uint64_t z = 0; z < a->nz; z++) {
			uint64_t zt = z + 1 < a->nz ? z + 1 : z;
			const float *n, *s, *pp;
			uint64_t xl = x0 ? x0 - 1 : 0;
			unsigned int wide = x0 + NG_WARP < H3_NX ? NG_WARP + 1 : NG_WARP;
			struct ng_warp t = w;

			ng_warp_compute(&w, H3_INSTS);
			memcpy(top, h3_row(&w, a->in, x0, y, zt, o), sizeof(top));
			n = h3_row(&w, a->in, x0, yn, z, bn);
			s = h3_row(&w, a->in, x0, ys, z, bs);
			pp = h3_row(&w, a->pw, x0, y, z, bp);
			/* the cells left and right of the row: one more line */
			t.nlanes = 1;
			t.active = 1;
			ng_ld_contig(&t, a->in + h3_at(xl, y, z), 4, &bw[0]);
			ng_ld_contig(&t, a->in + h3_at(x0 + wide - 1, y, z), 4,
				     &bw[NG_WARP + 1]);
			if (t.ready > w.ready)
				w.ready = t.ready;
			for (unsigned int l = 0; l < NG_WARP; l++) {
				float e = l + 1 < NG_WARP ? mid[l + 1] :
					  bw[NG_WARP + 1];
				float wv = l ? mid[l - 1] : x0 ? bw[0] : mid[0];

				o[l] = h3_cell(mid[l], n[l], s[l], e, wv, top[l],
					       bot[l], pp[l]);
			}
			ng_st_contig(&w, a->out + h3_at(x0, y, z), 4, o);
			memcpy(bot, mid, sizeof(bot));
			memcpy(mid, top, sizeof(mid));
		}
	}
}

static void h3_cpu_step(const float *in, float *out, const float *pw,
			uint64_t nz)
{
	for (uint64_t z = 0; z < nz; z++)
		for (uint64_t y = 0; y < H3_NY; y++)
			for (uint64_t x = 0; x < H3_NX; x++) {
				uint64_t c = h3_at(x, y, z);

				out[c] = h3_cell(in[c],
					in[h3_at(x, y ? y - 1 : 0, z)],
					in[h3_at(x, y + 1 < H3_NY ? y + 1 : y, z)],
					in[h3_at(x + 1 < H3_NX ? x + 1 : x, y, z)],
					in[h3_at(x ? x - 1 : 0, y, z)],
					in[h3_at(x, y, z + 1 < nz ? z + 1 : z)],
					in[h3_at(x, y, z ? z - 1 : 0)], pw[c]);
			}
}

static int h3_run(struct ng_system *sys, const struct ng_bench_opts *o,
		  struct ng_bench_result *r, char *err, size_t errlen)
{
	struct ng_buf b0 = { 0 }, b1 = { 0 }, bp = { 0 };
	struct h3_args a = { 0 };
	float *ra = NULL, *rb = NULL, *rp = NULL;
	uint64_t n;
	struct wlc c;
	char ok[96];
	int ret;

	wlc_init(&c, sys, o, r, err, errlen);
	a.nz = o->size / 4 / (H3_NX * H3_NY);
	if (a.nz < 2) {
		ng_seterr(err, errlen,
			  "hotspot3d: size must hold 2 planes of %u x %u floats (%u bytes) at least",
			  H3_NX, H3_NY, 2 * H3_NX * H3_NY * 4);
		return -EINVAL;
	}
	n = a.nz * H3_NX * H3_NY;
	ret = wlc_alloc_each(&c, (struct ng_buf *const[]){ &b0, &b1, &bp }, 3,
			     n * 4);
	if (ret)
		goto out;
	a.in = b0.ptr;
	a.out = b1.ptr;
	a.pw = bp.ptr;
	r->elements = n;
	r->bytes = 4ULL * 3 * n * o->iters;
	c.total = o->iters;
	ret = wlc_launch_2d(&c, "h3-init", h3_init, &a,
			    (struct ng_dim){ H3_NX / H3_BX, H3_NY / H3_BY },
			    (struct ng_dim){ H3_BX, H3_BY }, -1, false);
	if (ret)
		goto out;
	ng_system_reset_counters(sys);
	for (unsigned int it = 0; it < o->iters && !ret; it++) {
		float *t;

		ret = wlc_launch_2d(&c, "hotspot3d", h3_kernel, &a,
				    (struct ng_dim){ H3_NX / H3_BX, H3_NY / H3_BY },
				    (struct ng_dim){ H3_BX, H3_BY }, -1, true);
		t = a.in;
		a.in = a.out;
		a.out = t;
	}
	if (ret)
		goto out;
	wl_collect(sys, r);
	ra = malloc(n * 4);
	rb = malloc(n * 4);
	rp = malloc(n * 4);
	if (!ra || !rb || !rp) {
		ng_seterr(err, errlen, "hotspot3d: out of memory");
		ret = -ENOMEM;
		goto out;
	}
	for (uint64_t i = 0; i < n; i++) {
		ra[i] = h3_t0(i);
		rp[i] = h3_p0(i);
	}
	for (unsigned int it = 0; it < o->iters; it++) {
		float *t;

		h3_cpu_step(ra, rb, rp, a.nz);
		t = ra;
		ra = rb;
		rb = t;
	}
	snprintf(ok, sizeof(ok), "%u steps over %u x %u x %llu cells match the CPU's",
		 o->iters, H3_NX, H3_NY, (unsigned long long)a.nz);
	wl_corrupt_f32(o, a.in, n);
	wl_check_f32(r, "cell", a.in, ra, n, H3_NX, 1e-5f, 0, ok);
out:
	free(ra);
	free(rb);
	free(rp);
	ng_free(c.sp, &bp);
	ng_free(c.sp, &b1);
	ng_free(c.sp, &b0);
	return ret;
}

const struct ng_workload ng_wl_hotspot3d = {
	.name = "hotspot3d",
	.desc = "3-D thermal stencil (Rodinia hotspot3D): 64x4 blocks walking z, two temperature arrays in turn",
	.default_size = 2ULL << 20,	/* 256 x 256 x 8 cells */
	.default_iters = 4,
	.narrays = 3,
	.run = h3_run,
};
