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
	struct ng_config cfg;
	struct ng_system *sys;
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
	ret = ng_system_create(&sys, &cfg, err, errlen);
	if (ret)
		return ret;
	ret = ng_bench_run(sys, wl, o ? o : &defaults, r, err, errlen);
	ng_system_destroy(sys);
	return ret;
}

#endif /* NGEMU_TEST_BENCH_RUN_H */
