/* SPDX-License-Identifier: GPL-2.0 */
/* The calibration streams' common run (stream.c), private to lib/workloads. */
#ifndef NGEMU_LIB_WL_MICRO_STREAM_H
#define NGEMU_LIB_WL_MICRO_STREAM_H

#include "ngemu/workloads/workload.h"

/*
 * GPU 0 streams an array homed on GPU @home; the result's calibration
 * holds the bandwidth measured against the one the config implies.
 */
int wl_stream_run(struct ng_system *sys, const struct ng_bench_opts *o,
		  struct ng_bench_result *r, char *err, size_t errlen,
		  unsigned int home);

#endif /* NGEMU_LIB_WL_MICRO_STREAM_H */
