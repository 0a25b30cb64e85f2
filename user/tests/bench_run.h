/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Run one workload on a system of its own, for tests of what a whole run
 * reports (the result `ngemu bench` prints), without a command line.
 */
#ifndef NGEMU_TEST_BENCH_RUN_H
#define NGEMU_TEST_BENCH_RUN_H

#include <errno.h>
#include <stddef.h>

#include "ngemu/config.h"
#include "ngemu/runtime/system.h"
#include "ngemu/workloads/workload.h"

/*
 * The sizes of `ngemu bench --compare`'s scaled regime: 64 KiB pages, so
 * that MiB arrays spread over the GPUs, a 256 KiB L2 and 64 MiB a GPU.
 */
#define BENCH_SCALED	0x1u
/* one SM a GPU, to stay quick */
#define BENCH_ONE_SM	0x2u
/*
 * The smallest of BENCH_SMALL_SIZE, twice that, ... up to its default
 * size that the workload takes (one that needs more says so: -EINVAL),
 * unless @o gives a size: for the loops over every workload whose check
 * (a wrong element is caught, a home or a width still verifies) holds at
 * any size. At the defaults such loops took 2 to 5 minutes each under the
 * sanitizers; each workload's own test and its paper's suite run it at
 * its default size.
 */
#define BENCH_SMALL	0x4u
#define BENCH_SMALL_SIZE	(128u << 10)

/*
 * Run @wl under @preset, deterministic, with @flags' changes and then
 * @kv's keys and values (NULL-terminated; NULL: none) on top; @o: the
 * options (NULL: the workload's defaults). -EINVAL for a preset or key
 * that is not one, else what ng_system_create() or ng_bench_run() say.
 */
static inline int bench_run(const char *preset, unsigned int flags,
			    const char *const *kv,
			    const struct ng_workload *wl,
			    const struct ng_bench_opts *o,
			    struct ng_bench_result *r, char *err,
			    size_t errlen)
{
	const struct ng_bench_opts defaults = { 0 };
	struct ng_bench_opts opts;
	struct ng_config cfg;
	struct ng_system *sys;
	uint64_t size;
	int ret;

	if (ng_config_preset(&cfg, preset, err, errlen))
		return -EINVAL;
	if (flags & BENCH_ONE_SM)
		cfg.sms = 1;
	if (flags & BENCH_SCALED) {
		cfg.page = 64 << 10;
		cfg.l2.size = 256 << 10;
		cfg.mem_per_gpu = 64 << 20;
	}
	cfg.deterministic = true;
	for (; kv && kv[0]; kv += 2)
		if (ng_config_set(&cfg, kv[0], kv[1], err, errlen))
			return -EINVAL;
	opts = o ? *o : defaults;
	size = (flags & BENCH_SMALL) && !opts.size ? BENCH_SMALL_SIZE : 0;
	for (;; size *= 2) {
		if (size)
			opts.size = size < wl->default_size ? size : 0;
		ret = ng_system_create(&sys, &cfg, err, errlen);
		if (ret)
			return ret;
		ret = ng_bench_run(sys, wl, &opts, r, err, errlen);
		ng_system_destroy(sys);
		/* not small, or already at the default: nothing to retry */
		if (ret != -EINVAL || !size || !opts.size)
			return ret;
	}
}

#endif /* NGEMU_TEST_BENCH_RUN_H */
