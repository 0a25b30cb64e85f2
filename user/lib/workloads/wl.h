/* SPDX-License-Identifier: GPL-2.0 */
/*
 * What the workloads share (private to lib/workloads): the statistics of
 * the timed kernels, the module's placement check, progress, and for the
 * workloads that use them, allocation with the configured placement,
 * launches that add to the result's modeled and wall time, and a
 * deterministic random stream. Workloads reach the system only through
 * the public kernel-writing API, as a user's own kernels would.
 */
#ifndef NGEMU_LIB_WL_H
#define NGEMU_LIB_WL_H

#include <errno.h>
#include <stdio.h>
#include <string.h>

#include "ngemu/runtime/kernel.h"
#include "ngemu/runtime/space.h"
#include "ngemu/runtime/system.h"
#include "ngemu/util/err.h"
#include "ngemu/workloads/workload.h"

/* Take the counters of the timed kernels, per GPU and in total. */
static inline void wl_collect(struct ng_system *sys, struct ng_bench_result *r)
{
	ng_system_counters(sys, -1, &r->total);
	for (unsigned int g = 0; g < r->ngpus; g++)
		ng_system_counters(sys, (int)g, &r->gpu[g]);
}

/*
 * kmod backend: add the module's placement of @b, compared with the
 * model's homes, to the result; a disagreement fails the verification.
 */
static inline void wl_check_kmod(struct ng_system *sys, const struct ng_buf *b,
				 struct ng_bench_result *r)
{
	struct ng_kmod_check c;

	if (ng_space_check_kmod(ng_system_space(sys), b, &c))
		return;
	r->kmod = true;
	r->placement.pages += c.pages;
	r->placement.populated += c.populated;
	r->placement.agree += c.agree;
	r->placement.fallback += c.fallback;
	r->placement.comparable = c.comparable;
	if (c.comparable && c.agree != c.populated && r->verified) {
		r->verified = false;
		snprintf(r->verify, sizeof(r->verify),
			 "numagpu.ko placed %llu of %llu pages elsewhere than the model's homes",
			 (unsigned long long)(c.populated - c.agree),
			 (unsigned long long)c.populated);
	}
}

/*
 * The calibration workloads measure the NUMA-GPU baseline's parameters;
 * a remote data cache and its coherence add costs of their own.
 */
static inline int wl_calibration_baseline(struct ng_system *sys,
					  const struct ng_bench_result *r,
					  char *err, size_t errlen)
{
	if (!ng_system_config(sys)->rdc_size)
		return 0;
	ng_seterr(err, errlen,
		  "%s calibrates the baseline model, which the remote data cache and its coherence would change: run it with --rdc-size 0",
		  r->workload);
	return -EINVAL;
}

static inline void wl_progress(const struct ng_bench_opts *o, unsigned int d,
			       unsigned int n)
{
	if (o->progress)
		o->progress(o->ctx, d, n);
}

/* A timed kernel's modeled and wall time, added to the result. */
static inline void wl_add_time(struct ng_bench_result *r,
			       const struct ng_launch_result *lr)
{
	r->modeled_s += (double)lr->modeled / NG_TICKS_PER_NS * 1e-9;
	r->wall_s += lr->wall_s;
}

/*
 * The timed kernels of a workload that launches one kernel @o->iters
 * times: counters from the first, progress after each; 0 or the failed
 * launch's error.
 */
static inline int wl_run_timed(struct ng_system *sys, const struct ng_launch *l,
			       const struct ng_bench_opts *o,
			       struct ng_bench_result *r)
{
	struct ng_launch_result lr;
	int ret = 0;

	ng_system_reset_counters(sys);
	for (unsigned int i = 0; i < o->iters && !ret; i++) {
		ret = ng_launch(sys, l, &lr);
		if (!ret)
			wl_add_time(r, &lr);
		wl_progress(o, i + 1, o->iters);
	}
	wl_collect(sys, r);
	return ret;
}

struct wlc {
	struct ng_system *sys;
	struct ng_space *sp;
	const struct ng_config *cfg;
	struct ng_bench_result *r;
	const struct ng_bench_opts *o;
	char *err;
	size_t errlen;
	unsigned int done, total;	/* kernels, for progress */
};

static inline void wlc_init(struct wlc *c, struct ng_system *sys,
			    const struct ng_bench_opts *o,
			    struct ng_bench_result *r, char *err, size_t errlen)
{
	memset(c, 0, sizeof(*c));
	c->sys = sys;
	c->sp = ng_system_space(sys);
	c->cfg = ng_system_config(sys);
	c->r = r;
	c->o = o;
	c->err = err;
	c->errlen = errlen;
}

/* @node < 0: the configured placement; else every page on that GPU. */
static inline int wlc_alloc(struct wlc *c, struct ng_buf *b, uint64_t bytes,
			    int node)
{
	struct ng_alloc_opts ao = {
		.place = node < 0 ? c->cfg->placement : NG_PLACE_NODE,
		.node = node < 0 ? c->cfg->place_node : (unsigned int)node,
		.block_bytes = 256 * 4,
		.blocks_per_gpu = (uint64_t)c->cfg->sms * c->cfg->blocks_per_sm,
	};

	return ng_malloc(c->sp, b, bytes, &ao, c->err, c->errlen);
}

/*
 * A buffer the workload's host code distributes over the GPUs itself, as
 * MGPUSim's benchmarks do with Distribute() after AllocateMemory (its
 * driver gives each GPU a band of consecutive pages): first touch,
 * whatever device placement is configured, so that an untimed init
 * kernel on the compute kernel's grid homes each block's data on the GPU
 * that runs the block. Host placement stays host: it stands for their
 * unified memory (AllocateUnifiedMemory), which is not distributed.
 */
static inline int wlc_alloc_dist(struct wlc *c, struct ng_buf *b,
				 uint64_t bytes)
{
	struct ng_alloc_opts ao = {
		.place = c->cfg->placement == NG_PLACE_HOST ?
			 NG_PLACE_HOST : NG_PLACE_FIRST_TOUCH,
	};

	return ng_malloc(c->sp, b, bytes, &ao, c->err, c->errlen);
}

/* @n buffers @b[i] of @bytes each, with the configured placement. */
static inline int wlc_alloc_each(struct wlc *c, struct ng_buf *const b[],
				 unsigned int n, uint64_t bytes)
{
	int ret = 0;

	for (unsigned int i = 0; i < n && !ret; i++)
		ret = wlc_alloc(c, b[i], bytes, -1);
	return ret;
}

/*
 * Run a kernel on a @grid of @block threads (y = 0 is taken as 1); @timed
 * ones count in the result.
 */
static inline int wlc_launch_2d(struct wlc *c, const char *name,
				ng_kernel_fn fn, void *args, struct ng_dim grid,
				struct ng_dim block, int only_gpu, bool timed)
{
	struct ng_launch l = { .name = name, .fn = fn, .args = args,
			       .grid = grid, .block = block,
			       .only_gpu = only_gpu };
	struct ng_launch_result lr;
	int ret = ng_launch(c->sys, &l, &lr);

	if (ret) {
		ng_seterr(c->err, c->errlen, "%s: launch of %s failed: %s",
			  c->r->workload, name, strerror(-ret));
		return ret;
	}
	if (timed) {
		wl_add_time(c->r, &lr);
		wl_progress(c->o, ++c->done, c->total);
	}
	return 0;
}

/* The same on a 1-D grid of @nblocks blocks of @block threads. */
static inline int wlc_launch(struct wlc *c, const char *name, ng_kernel_fn fn,
			     void *args, uint64_t nblocks, unsigned int block,
			     int only_gpu, bool timed)
{
	return wlc_launch_2d(c, name, fn, args,
			     (struct ng_dim){ (unsigned int)nblocks, 1 },
			     (struct ng_dim){ block, 1 }, only_gpu, timed);
}

/*
 * --corrupt-one: change element n / 2 of a float result before it is
 * verified, by more than any tolerance, so that the check must fail.
 */
static inline void wl_corrupt_f32(const struct ng_bench_opts *o, float *got,
				  uint64_t n)
{
	if (o->corrupt && n)
		got[n / 2] += 1.0f + 2.0f * (got[n / 2] < 0 ? -got[n / 2]
							    : got[n / 2]);
}

/*
 * Verify @n floats of a result against the CPU reference @want: element i
 * passes when |got - want| <= rtol * |want| + atol. Sets r->verified and
 * r->verify: @ok (what was checked) or the first element that differs,
 * named @what[i], or @what[row][col] for a matrix of @cols columns
 * (@cols 0: a vector).
 */
static inline bool wl_check_f32(struct ng_bench_result *r, const char *what,
				const float *got, const float *want, uint64_t n,
				uint64_t cols, float rtol, float atol,
				const char *ok)
{
	for (uint64_t i = 0; i < n; i++) {
		float d = got[i] - want[i], m = want[i] < 0 ? -want[i] : want[i];

		if (d <= rtol * m + atol && -d <= rtol * m + atol)
			continue;
		r->verified = false;
		if (cols)
			snprintf(r->verify, sizeof(r->verify),
				 "%s[%llu][%llu] = %g, the CPU reference says %g",
				 what, (unsigned long long)(i / cols),
				 (unsigned long long)(i % cols), (double)got[i],
				 (double)want[i]);
		else
			snprintf(r->verify, sizeof(r->verify),
				 "%s[%llu] = %g, the CPU reference says %g", what,
				 (unsigned long long)i, (double)got[i],
				 (double)want[i]);
		return false;
	}
	r->verified = true;
	snprintf(r->verify, sizeof(r->verify), "%s", ok);
	return true;
}

/*
 * --corrupt-one for a word result, as wl_corrupt_f32() does for floats:
 * element n / 2 changes before it is verified.
 */
static inline void wl_corrupt_u32(const struct ng_bench_opts *o,
				  uint32_t *got, uint64_t n)
{
	if (o->corrupt && n)
		got[n / 2] += 1;
}

/*
 * Words must match exactly; the failure worded as wl_check_f32()'s
 * (@cols 0: a vector).
 */
static inline bool wl_check_u32(struct ng_bench_result *r, const char *what,
				const uint32_t *got, const uint32_t *want,
				uint64_t n, uint64_t cols, const char *ok)
{
	for (uint64_t i = 0; i < n; i++) {
		if (got[i] == want[i])
			continue;
		r->verified = false;
		if (cols)
			snprintf(r->verify, sizeof(r->verify),
				 "%s[%llu][%llu] = %u, the CPU reference says %u",
				 what, (unsigned long long)(i / cols),
				 (unsigned long long)(i % cols), got[i], want[i]);
		else
			snprintf(r->verify, sizeof(r->verify),
				 "%s[%llu] = %u, the CPU reference says %u", what,
				 (unsigned long long)i, got[i], want[i]);
		return false;
	}
	r->verified = true;
	snprintf(r->verify, sizeof(r->verify), "%s", ok);
	return true;
}

/*
 * Lanes [lo, hi) of @w load a[i0 + lane] (float): the whole warp with the
 * zero-copy form, else a narrower warp (the other lanes inactive, as a
 * kernel's bound check makes them); the data is at buf[lane] then.
 */
static inline const float *wl_ld_lanes(struct ng_warp *w, const float *a,
				       int64_t i0, unsigned int lo,
				       unsigned int hi, float *buf)
{
	struct ng_warp t = *w;

	if (lo == 0 && hi == w->nlanes)
		return ng_ld_contig_ref(w, a + i0, 4, buf);
	t.nlanes = hi - lo;
	t.active = (1u << t.nlanes) - 1;
	ng_ld_contig(&t, a + i0 + lo, 4, buf + lo);
	if (t.ready > w->ready)
		w->ready = t.ready;
	return buf;
}

/* Lanes [lo, hi) of @w store buf[lane] at a[i0 + lane]. */
static inline void wl_st_lanes(struct ng_warp *w, float *a, uint64_t i0,
			       unsigned int lo, unsigned int hi,
			       const float *buf)
{
	struct ng_warp t = *w;

	t.nlanes = hi - lo;
	t.active = t.nlanes == NG_WARP ? ~0u : (1u << t.nlanes) - 1;
	ng_st_contig(&t, a + i0 + lo, 4, buf + lo);
	if (t.ready > w->ready)
		w->ready = t.ready;
}

/*
 * Every active lane of @w loads the float at @p (A[i][k] in a matrix
 * product). Coalesced, that is one request for one word of one line:
 * made here as a one-lane access, the same request for the model at a
 * fraction of the cost of coalescing 32 equal addresses (the lanes
 * counter counts one lane).
 */
static inline float wl_bcast(struct ng_warp *w, const float *p)
{
	struct ng_warp one = *w;
	const float *v;
	float buf;

	one.nlanes = 1;
	one.active = 1;
	v = ng_ld_contig_ref(&one, p, 4, &buf);
	w->ready = one.ready;
	return *v;
}

/* Lane @lane of @w alone loads the float at @a. */
static inline float wl_ld1(struct ng_warp *w, unsigned int lane, const float *a)
{
	uintptr_t addr[NG_WARP] = { 0 };
	float buf[NG_WARP] = { 0 };
	struct ng_warp t = *w;

	addr[lane] = (uintptr_t)a;
	t.active = 1u << lane;
	ng_ld(&t, addr, 4, buf);
	if (t.ready > w->ready)
		w->ready = t.ready;
	return buf[lane];
}

/* Lane @lane of @w alone stores @v at @a. */
static inline void wl_st1(struct ng_warp *w, unsigned int lane, float *a,
			  float v)
{
	uintptr_t addr[NG_WARP] = { 0 };
	float buf[NG_WARP] = { 0 };
	struct ng_warp t = *w;

	addr[lane] = (uintptr_t)a;
	buf[lane] = v;
	t.active = 1u << lane;
	ng_st(&t, addr, 4, buf);
}

/* The largest s with s * s <= n: a square grid's side from a size. */
static inline uint64_t wl_isqrt(uint64_t n)
{
	uint64_t s = (uint64_t)__builtin_sqrt((double)n);

	while (s * s > n)
		s--;
	while ((s + 1) * (s + 1) <= n)
		s++;
	return s;
}

/* splitmix64: the random stream of every workload, from the seed. */
static inline uint64_t wlc_hash(uint64_t x)
{
	x += 0x9e3779b97f4a7c15ULL;
	x = (x ^ (x >> 30)) * 0xbf58476d1ce4e5b9ULL;
	x = (x ^ (x >> 27)) * 0x94d049bb133111ebULL;
	return x ^ (x >> 31);
}

/* Lanes of warp @w inside [0, n) for a 1-D grid of @block threads. */
static inline unsigned int wlc_lanes(struct ng_warp *w, uint64_t n,
				     unsigned int block, uint64_t *i0)
{
	uint64_t first = w->b->id * block + w->tid0;

	*i0 = first;
	if (first >= n)
		return 0;
	if (n - first < w->nlanes) {
		w->nlanes = (unsigned int)(n - first);
		w->active = (1u << w->nlanes) - 1;
	}
	return w->nlanes;
}

#endif /* NGEMU_LIB_WL_H */
