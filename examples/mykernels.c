// SPDX-License-Identifier: GPL-2.0
/*
 * mykernels: a workload of one's own in the whole ngemu harness. The
 * program's main() hands its workloads to ng_main() (ngemu/cli.h) and is
 * then ngemu with them added to the built-in ones: bench (verified, with
 * statistics), bench --compare (under a paper's systems), sweep (a grid,
 * each point a child of this program), config, info, mem.
 *
 *   mykernels bench my-saxpy --gpus 2 --placement fgp
 *   mykernels bench --compare my-saxpy --deterministic
 *   mykernels sweep -w my-saxpy -g gpus=2,4 --size 1M --out DIR
 *
 * my-saxpy is y = a * x + y over float arrays, --iters times, checked
 * against the same arithmetic on the CPU. A workload fills the result
 * ng_bench_run() derives its statistics from: the elements and bytes of
 * its timed kernels, their modeled and wall time, the counters and the
 * verdict; --corrupt-one changes one element of y before the check (the
 * check must then fail).
 */
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <ngemu/cli.h>
#include <ngemu/ngemu.h>

#define BLOCK	256
#define A	2.5f

struct saxpy {
	float *x, *y;
	uint64_t n;
};

static float x0(uint64_t i)
{
	return (float)(i % 1000) * 0.001f;
}

static float y0(uint64_t i)
{
	return (float)(i % 7);
}

/* Warp @wi of block @b, its lanes cut at the end of the arrays. */
static bool warp_at(struct ng_block *b, unsigned int wi, uint64_t n,
		    struct ng_warp *w, uint64_t *i0)
{
	*i0 = b->id * BLOCK + wi * NG_WARP;
	if (*i0 >= n)
		return false;
	ng_warp_get(b, wi, w);
	if (n - *i0 < w->nlanes) {
		w->nlanes = (unsigned int)(n - *i0);
		w->active = (1u << w->nlanes) - 1;
	}
	return true;
}

/* The initial values, written by the GPUs (first touch homes the pages). */
static void init_kernel(struct ng_block *b, void *p)
{
	struct saxpy *s = p;

	for (unsigned int wi = 0; wi < b->nwarps; wi++) {
		float x[NG_WARP], y[NG_WARP];
		struct ng_warp w;
		uint64_t i0;

		if (!warp_at(b, wi, s->n, &w, &i0))
			break;
		for (unsigned int l = 0; l < w.nlanes; l++) {
			x[l] = x0(i0 + l);
			y[l] = y0(i0 + l);
		}
		ng_st_contig(&w, s->x + i0, 4, x);
		ng_st_contig(&w, s->y + i0, 4, y);
	}
}

static void saxpy_kernel(struct ng_block *b, void *p)
{
	struct saxpy *s = p;

	for (unsigned int wi = 0; wi < b->nwarps; wi++) {
		float xb[NG_WARP], yb[NG_WARP], y[NG_WARP];
		const float *x, *yin;
		struct ng_warp w;
		uint64_t i0;

		if (!warp_at(b, wi, s->n, &w, &i0))
			break;
		/* a thread's index, bound check, multiply-add */
		ng_warp_compute(&w, 5);
		x = ng_ld_contig_ref(&w, s->x + i0, 4, xb);
		yin = ng_ld_contig_ref(&w, s->y + i0, 4, yb);
		for (unsigned int l = 0; l < w.nlanes; l++)
			y[l] = A * x[l] + yin[l];
		ng_st_contig(&w, s->y + i0, 4, y);
	}
}

/* One kernel; a timed one adds its modeled and wall time to @r. */
static int launch(struct ng_system *sys, const char *name, ng_kernel_fn fn,
		  struct saxpy *s, struct ng_bench_result *r, bool timed)
{
	struct ng_launch l = {
		.name = name, .fn = fn, .args = s, .only_gpu = -1,
		.grid = { (unsigned int)((s->n + BLOCK - 1) / BLOCK), 1 },
		.block = { BLOCK, 1 },
	};
	struct ng_launch_result res;
	int ret = ng_launch(sys, &l, &res);

	if (!ret && timed) {
		r->modeled_s += (double)res.modeled / NG_TICKS_PER_NS * 1e-9;
		r->wall_s += res.wall_s;
	}
	return ret;
}

/* y after @iters steps, as the kernel computes it, element by element. */
static void check(const struct ng_bench_opts *o, const struct saxpy *s,
		  struct ng_bench_result *r)
{
	uint64_t bad = s->n;

	if (o->corrupt)
		s->y[s->n / 2] += 1.0f;
	for (uint64_t i = 0; i < s->n && bad == s->n; i++) {
		float want = y0(i);

		for (unsigned int it = 0; it < o->iters; it++)
			want = A * x0(i) + want;
		if (fabsf(s->y[i] - want) > 1e-5f * fabsf(want))
			bad = i;
	}
	r->verified = bad == s->n;
	if (r->verified)
		snprintf(r->verify, sizeof(r->verify),
			 "y = %g x + y, %u times, for all %llu elements", A,
			 o->iters, (unsigned long long)s->n);
	else
		snprintf(r->verify, sizeof(r->verify), "y[%llu] is %g, not %g",
			 (unsigned long long)bad, s->y[bad],
			 (double)(y0(bad) + (float)o->iters * A * x0(bad)));
}

static int saxpy_run(struct ng_system *sys, const struct ng_bench_opts *o,
		     struct ng_bench_result *r, char *err, size_t errlen)
{
	const struct ng_config *cfg = ng_system_config(sys);
	struct ng_space *sp = ng_system_space(sys);
	struct ng_alloc_opts ao = { .place = cfg->placement,
				    .node = cfg->place_node };
	struct ng_buf bx = { 0 }, by = { 0 };
	struct saxpy s = { .n = o->size / 4 };
	int ret;

	if (!s.n) {
		snprintf(err, errlen, "my-saxpy: --size must hold a float (4 bytes)");
		return -EINVAL;
	}
	ret = ng_malloc(sp, &bx, s.n * 4, &ao, err, errlen);
	if (!ret)
		ret = ng_malloc(sp, &by, s.n * 4, &ao, err, errlen);
	if (ret)
		goto out;
	s.x = bx.ptr;
	s.y = by.ptr;
	ret = launch(sys, "my-saxpy-init", init_kernel, &s, r, false);
	/* the statistics are the timed kernels' */
	ng_system_reset_counters(sys);
	for (unsigned int it = 0; !ret && it < o->iters; it++) {
		ret = launch(sys, "my-saxpy", saxpy_kernel, &s, r, true);
		if (o->progress)
			o->progress(o->ctx, it + 1, o->iters);
	}
	if (ret) {
		snprintf(err, errlen, "my-saxpy: launch: %s", strerror(-ret));
		goto out;
	}
	r->elements = s.n;
	r->bytes = 3 * s.n * 4 * o->iters;	/* x, y read; y written */
	ng_system_counters(sys, -1, &r->total);
	for (unsigned int g = 0; g < cfg->gpus; g++)
		ng_system_counters(sys, (int)g, &r->gpu[g]);
	check(o, &s, r);
out:
	ng_free(sp, &by);
	ng_free(sp, &bx);
	return ret;
}

static const struct ng_workload my_saxpy = {
	.name = "my-saxpy",
	.desc = "y = a x + y on floats, one thread per element (examples/mykernels.c)",
	.default_size = 4ULL << 20,	/* 1 Mi floats per array */
	.default_iters = 2,
	.narrays = 2,
	.run = saxpy_run,
};

static const struct ng_workload *const mine[] = { &my_saxpy, NULL };

int main(int argc, char **argv)
{
	return ng_main(argc, argv, mine);
}
