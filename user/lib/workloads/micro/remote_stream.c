// SPDX-License-Identifier: GPL-2.0
/* remote-stream: GPU 0 streams GPU 1's memory; the model should give link-bw. */
#include <errno.h>

#include "ngemu/runtime/system.h"
#include "ngemu/util/err.h"
#include "workloads/micro/stream.h"

static int remote_run(struct ng_system *sys, const struct ng_bench_opts *o,
		      struct ng_bench_result *r, char *err, size_t errlen)
{
	if (ng_system_config(sys)->gpus < 2) {
		ng_seterr(err, errlen, "%s needs at least 2 GPUs", r->workload);
		return -EINVAL;
	}
	return wl_stream_run(sys, o, r, err, errlen, 1);
}

const struct ng_workload ng_wl_remote_stream = {
	.name = "remote-stream",
	.desc = "calibration: GPU 0 streams GPU 1's memory; expect link-bw (--rdc-size 0)",
	.default_size = 64ULL << 20,
	.default_iters = 2,
	.narrays = 1,
	.run = remote_run,
};
