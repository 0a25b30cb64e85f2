// SPDX-License-Identifier: GPL-2.0
/*
 * STREAM triad, a[i] = b[i] + s * c[i] on floats, one thread per element,
 * 256 threads per block. An init kernel writes the arrays first, so that
 * first-touch placement homes each page at the GPU whose blocks use it
 * (as NUMA-GPU intends); the counters cover the timed kernels only. The
 * same triad then runs natively on the same arrays, as fast as the
 * machine allows: a plain loop split over every CPU this process may use,
 * the best of at least TRIAD_NATIVE_REPS warm runs (STREAM's rule), so
 * that the emulated / native ratio never flatters the emulator.
 */
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <string.h>
#include <stdlib.h>

#include "ngemu/runtime/kernel.h"
#include "ngemu/runtime/space.h"
#include "workloads/native.h"
#include "workloads/wl.h"

#define TRIAD_NATIVE_REPS 10

#define TRIAD_BLOCK	256
#define TRIAD_SCALAR	3.0f
/*
 * A thread's arithmetic in the CUDA triad: its index (2), the bound check
 * (2), three addresses (3) and the multiply-add (1).
 */
#define TRIAD_INSTS	8

struct triad_args {
	float *a, *b, *c;
	uint64_t n;
};

static float init_b(uint64_t i)
{
	return (float)(i % 1024) * 0.5f;
}

static float init_c(uint64_t i)
{
	return (float)((i * 7) % 512) * 0.25f;
}

static void triad_init(struct ng_block *b, void *p)
{
	struct triad_args *t = p;

	for (unsigned int wi = 0; wi < b->nwarps; wi++) {
		float vb[NG_WARP], vc[NG_WARP], va[NG_WARP] = { 0 };
		struct ng_warp w;
		uint64_t i0;

		ng_warp_get(b, wi, &w);
		if (!wlc_lanes(&w, t->n, TRIAD_BLOCK, &i0))
			break;
		for (unsigned int l = 0; l < w.nlanes; l++) {
			vb[l] = init_b(i0 + l);
			vc[l] = init_c(i0 + l);
		}
		ng_st_contig(&w, t->a + i0, 4, va);
		ng_st_contig(&w, t->b + i0, 4, vb);
		ng_st_contig(&w, t->c + i0, 4, vc);
	}
}

/*
 * One block: 256 threads, warps 0-7, each lane one element. A streaming
 * kernel, written with the block-wide accesses: the model sees every warp's
 * lines in turn, at a fraction of the per-warp calls' cost.
 */
static void triad_kernel(struct ng_block *b, void *p)
{
	struct triad_args *t = p;
	float bufb[TRIAD_BLOCK], bufc[TRIAD_BLOCK];
	const float *restrict vb, *restrict vc;
	float *restrict va;
	uint64_t i0 = b->id * TRIAD_BLOCK;
	unsigned int n;

	if (i0 >= t->n)
		return;
	n = t->n - i0 < TRIAD_BLOCK ? (unsigned int)(t->n - i0) : TRIAD_BLOCK;
	/* zero-copy: the data is read where the model says */
	vb = ng_block_ld_contig_ref(b, t->b + i0, n, 4, bufb);
	vc = ng_block_ld_contig_ref(b, t->c + i0, n, 4, bufc);
	/* in place, through this GPU's own view of a[] */
	va = (float *)((uintptr_t)(t->a + i0) + b->sm->view_delta);
	for (unsigned int l = 0; l < n; l++)
		va[l] = vb[l] + TRIAD_SCALAR * vc[l];
	ng_block_st_contig_done(b, t->a + i0, n, 4);
	ng_block_compute(b, n, TRIAD_INSTS);
}

/* The native triad: part @part of @nparts of the arrays, vectorized. */
static void triad_native(void *p, unsigned int part, unsigned int nparts)
{
	const struct triad_args *t = p;
	uint64_t i0 = t->n * part / nparts, i1 = t->n * (part + 1) / nparts;
	float *restrict a = t->a;
	const float *restrict bb = t->b, *restrict c = t->c;

	for (uint64_t i = i0; i < i1; i++)
		a[i] = bb[i] + TRIAD_SCALAR * c[i];
}

static int verify(const struct triad_args *t, char *msg, size_t len)
{
	for (uint64_t i = 0; i < t->n; i++) {
		float want = init_b(i) + TRIAD_SCALAR * init_c(i);

		if (t->b[i] != init_b(i) || t->c[i] != init_c(i) ||
		    fabsf(t->a[i] - want) > 1e-6f * fabsf(want)) {
			snprintf(msg, len,
				 "a[%llu] = %g, the CPU reference says %g",
				 (unsigned long long)i, (double)t->a[i],
				 (double)want);
			return -1;
		}
	}
	snprintf(msg, len, "a[i] = b[i] + %g * c[i] for all %llu elements",
		 (double)TRIAD_SCALAR, (unsigned long long)t->n);
	return 0;
}

static int triad_run(struct ng_system *sys, const struct ng_bench_opts *o,
		     struct ng_bench_result *r, char *err, size_t errlen)
{
	const struct ng_config *cfg = ng_system_config(sys);
	struct ng_space *sp = ng_system_space(sys);
	struct ng_alloc_opts ao = {
		.place = cfg->placement,
		.node = cfg->place_node,
		.block_bytes = TRIAD_BLOCK * 4,
		.blocks_per_gpu = (uint64_t)cfg->sms * cfg->blocks_per_sm,
	};
	struct ng_buf ba = { 0 }, bb = { 0 }, bc = { 0 };
	struct triad_args t;
	struct ng_launch l = { .name = "triad", .block = { TRIAD_BLOCK, 1 },
			       .only_gpu = -1 };
	struct ng_launch_result lr;
	unsigned int total = o->iters * (o->native ? 2 : 1), done = 0;
	unsigned int reps = (TRIAD_NATIVE_REPS + o->iters - 1) / o->iters;
	struct ng_native_team team = { .th = NULL };
	int ret;

	t.n = o->size / 4;
	if (!t.n) {
		ng_seterr(err, errlen, "stream-triad: size must hold at least one float");
		return -EINVAL;
	}
	if ((t.n + TRIAD_BLOCK - 1) / TRIAD_BLOCK > UINT32_MAX) {
		ng_seterr(err, errlen, "stream-triad: size is too large for one grid");
		return -EINVAL;
	}
	ret = ng_malloc(sp, &ba, t.n * 4, &ao, err, errlen);
	if (!ret)
		ret = ng_malloc(sp, &bb, t.n * 4, &ao, err, errlen);
	if (!ret)
		ret = ng_malloc(sp, &bc, t.n * 4, &ao, err, errlen);
	if (ret)
		goto out;
	t.a = ba.ptr;
	t.b = bb.ptr;
	t.c = bc.ptr;
	l.grid.x = (unsigned int)((t.n + TRIAD_BLOCK - 1) / TRIAD_BLOCK);
	l.args = &t;
	r->elements = t.n;
	r->bytes = 3 * 4 * t.n * o->iters;

	l.fn = triad_init;
	ret = ng_launch(sys, &l, &lr);
	if (ret)
		goto launch_failed;
	ng_system_reset_counters(sys);
	/*
	 * Modeled and native kernels alternate, so that both see the same
	 * machine (other load, frequency, caches) and their ratio is fair.
	 * Both write the same values to a[]; the modeled result is checked
	 * alone after the first kernel, and again at the end.
	 */
	if (o->native) {
		ret = ng_native_start(&team);
		if (ret) {
			ng_seterr(err, errlen, "stream-triad: no memory for the native run");
			goto out;
		}
	}
	l.fn = triad_kernel;
	for (unsigned int i = 0; i < o->iters; i++) {
		ret = ng_launch(sys, &l, &lr);
		if (ret)
			goto launch_failed;
		wl_add_time(r, &lr);
		wl_progress(o, ++done, total);
		if (!i && verify(&t, r->verify, sizeof(r->verify)))
			break;
		if (!o->native)
			continue;
		ng_native_run(&team, triad_native, &t, reps);
		/* every iteration at the best one's speed: bytes / time holds */
		r->native_wall_s = team.best_s * o->iters;
		r->has_native = true;
		wl_progress(o, ++done, total);
	}
	wl_collect(sys, r);
	wl_corrupt_f32(o, t.a, t.n);
	r->verified = !verify(&t, r->verify, sizeof(r->verify));
	wl_check_kmod(sys, &ba, r);
	wl_check_kmod(sys, &bb, r);
	wl_check_kmod(sys, &bc, r);
	goto out;
launch_failed:
	ng_seterr(err, errlen, "stream-triad: launch failed: %s", strerror(-ret));
out:
	ng_native_stop(&team);
	ng_free(sp, &bc);
	ng_free(sp, &bb);
	ng_free(sp, &ba);
	return ret;
}

const struct ng_workload ng_wl_triad = {
	.name = "stream-triad",
	.desc = "a[i] = b[i] + s*c[i] on floats, verified, with the native triad beside it",
	.default_size = 32ULL << 20,
	.paper_footprint = 3ULL << 30,
	.paper_ref = "CARVE Table II: stream-triad 3.0 GB",
	.default_iters = 10,
	.narrays = 3,
	.run = triad_run,
};
