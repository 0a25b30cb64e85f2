// SPDX-License-Identifier: GPL-2.0
/* local-stream: GPU 0 streams its own memory; the model should give local-bw. */
#include "workloads/micro/stream.h"

static int local_run(struct ng_system *sys, const struct ng_bench_opts *o,
		     struct ng_bench_result *r, char *err, size_t errlen)
{
	return wl_stream_run(sys, o, r, err, errlen, 0);
}

const struct ng_workload ng_wl_local_stream = {
	.name = "local-stream",
	.desc = "calibration: GPU 0 streams its own memory; expect local-bw (--rdc-size 0)",
	.default_size = 64ULL << 20,
	.default_iters = 2,
	.narrays = 1,
	.run = local_run,
};
