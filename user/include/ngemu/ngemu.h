/* SPDX-License-Identifier: GPL-2.0 */
/*
 * libngemu: emulate a multi-GPU NUMA system on a CPU NUMA machine and run
 * GPU-style kernels on it, with a hardware model that supplies what the
 * CPU lacks. One include for a program of one's own:
 *
 *   ng_config_from_args()   a configuration (preset, file, --key value)
 *   ng_system_create()      the emulated GPUs, their memory and the model
 *   ng_malloc()             device memory, placed by policy
 *   ng_launch()             a kernel: a C function run once per block,
 *                           doing its memory accesses warp by warp
 *   ng_system_counters()    what the model counted
 *   ng_main()               the ngemu command line with workloads of one's
 *                           own (ngemu/cli.h; libngemu-cli.a)
 *
 * examples/ holds a complete program; Documentation/runtime.rst describes
 * the kernel-writing API. Link with `pkg-config --libs ngemu`.
 */
#ifndef NGEMU_NGEMU_H
#define NGEMU_NGEMU_H

#include "ngemu/cli.h"
#include "ngemu/config.h"
#include "ngemu/runtime/kernel.h"
#include "ngemu/runtime/space.h"
#include "ngemu/runtime/system.h"
#include "ngemu/util/counters.h"
#include "ngemu/util/err.h"
#include "ngemu/util/format.h"
#include "ngemu/workloads/workload.h"

#endif /* NGEMU_NGEMU_H */
