/* SPDX-License-Identifier: GPL-2.0 */
/*
 * A workload's context, struct wlc, and the wlc_* helpers that take it
 * (private to lib/workloads): what a run has at hand (its system, space,
 * config, result, options and error buffer), buffers allocated with the
 * configured placement or distributed by the host code, and launches
 * whose timed kernels add to the result (wl_timed.h).
 */
#ifndef NGEMU_LIB_WL_CTX_H
#define NGEMU_LIB_WL_CTX_H

#include <stdint.h>
#include <string.h>

#include "ngemu/runtime/kernel.h"
#include "ngemu/runtime/space.h"
#include "ngemu/runtime/system.h"
#include "ngemu/util/err.h"
#include "ngemu/workloads/workload.h"
#include "workloads/wl_timed.h"

/* What a workload's run has at hand; wlc_init() fills it. */
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

#endif /* NGEMU_LIB_WL_CTX_H */
