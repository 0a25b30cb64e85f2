/* SPDX-License-Identifier: GPL-2.0 */
/* Helpers shared by the workloads (private to libngemu). */
#ifndef NGEMU_LIB_WL_UTIL_H
#define NGEMU_LIB_WL_UTIL_H

#include "ngemu/runtime/kernel.h"
#include "ngemu/runtime/system.h"
#include "ngemu/workloads/workload.h"
#include "ngemu/runtime/space.h"
#include "util/util.h"

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

static inline void wl_progress(const struct ng_bench_opts *o, unsigned int d,
			       unsigned int n)
{
	if (o->progress)
		o->progress(o->ctx, d, n);
}

#endif /* NGEMU_LIB_WL_UTIL_H */
