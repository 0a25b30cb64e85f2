/* SPDX-License-Identifier: GPL-2.0 */
/*
 * A workload's timed kernels (private to lib/workloads): their counters,
 * modeled and wall time and progress, added to the result as they run,
 * and the whole timed part of a workload that launches one kernel
 * o->iters times. Only the timed kernels count in the result: an init or
 * a copy kernel does not.
 */
#ifndef NGEMU_LIB_WL_TIMED_H
#define NGEMU_LIB_WL_TIMED_H

#include "ngemu/runtime/kernel.h"
#include "ngemu/runtime/system.h"
#include "ngemu/workloads/workload.h"

/* Take the counters of the timed kernels, per GPU and in total. */
static inline void wl_collect(struct ng_system *sys, struct ng_bench_result *r)
{
	ng_system_counters(sys, -1, &r->total);
	for (unsigned int g = 0; g < r->ngpus; g++)
		ng_system_counters(sys, (int)g, &r->gpu[g]);
}

/* Progress: @d of the run's @n timed kernels are done. */
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

#endif /* NGEMU_LIB_WL_TIMED_H */
