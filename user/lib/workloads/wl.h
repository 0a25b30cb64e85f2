/* SPDX-License-Identifier: GPL-2.0 */
/*
 * What the workloads share (private to lib/workloads), one concern per
 * header; a workload includes this one and gets them all, since nearly
 * every workload uses most of them. Workloads reach the system only
 * through the public kernel-writing API, as a user's own kernels would.
 *
 *   wl_timed.h  the timed kernels' counters, time and progress in the
 *               result; a run of one kernel o->iters times (wl_run_timed)
 *   wl_ctx.h    struct wlc, a run's context: allocation with the
 *               configured placement or distributed by the host code,
 *               launches (wlc_alloc*, wlc_launch*)
 *   wl_check.h  the result against the CPU reference (wl_check_f32/u32),
 *               --corrupt-one (wl_corrupt_*), the module's placement
 *               (wl_check_kmod), the calibration workloads' baseline
 *   wl_lanes.h  accesses by some of a warp's lanes: a 1-D grid's lanes
 *               inside the data (wlc_lanes), ranges, one lane, broadcasts
 *   wl_math.h   a square grid's side (wl_isqrt) and the random stream
 *               from the seed (wlc_hash)
 */
#ifndef NGEMU_LIB_WL_H
#define NGEMU_LIB_WL_H

#include "workloads/wl_timed.h"
#include "workloads/wl_ctx.h"
#include "workloads/wl_check.h"
#include "workloads/wl_lanes.h"
#include "workloads/wl_math.h"

#endif /* NGEMU_LIB_WL_H */
