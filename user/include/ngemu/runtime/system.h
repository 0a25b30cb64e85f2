/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The emulated system: GPUs as pools of worker threads, one per emulated
 * SM, pinned with libnuma to the CPUs of the GPU's NUMA node (GPU g plays
 * node g mod nodes: on a machine with fewer nodes, GPUs share them and the
 * model supplies all of the asymmetry). It owns the device address space
 * and the hardware model. In deterministic mode there are no workers: the
 * launching thread runs every SM in a fixed order.
 */
#ifndef NGEMU_SYSTEM_H
#define NGEMU_SYSTEM_H

#include <stddef.h>

#include "ngemu/config.h"
#include "ngemu/util/counters.h"
#include "ngemu/runtime/space.h"

struct ng_system;
struct ng_model;

/* Returns 0, or a negative errno with a message in @err. */
int ng_system_create(struct ng_system **out, const struct ng_config *cfg,
		     char *err, size_t errlen);
void ng_system_destroy(struct ng_system *sys);

const struct ng_config *ng_system_config(const struct ng_system *sys);
struct ng_space *ng_system_space(struct ng_system *sys);
/* Real NUMA node of a GPU, and how many nodes the GPUs spread over. */
int ng_system_node(const struct ng_system *sys, unsigned int gpu);
unsigned int ng_system_nnodes(const struct ng_system *sys);
/* The hardware model, for its inspection functions (ngemu/model/). */
const struct ng_model *ng_system_model(const struct ng_system *sys);
/* Worker threads (0 in deterministic mode). */
unsigned int ng_system_threads(const struct ng_system *sys);

/* Counters since creation or the last reset: of @gpu, or all if gpu < 0. */
void ng_system_counters(const struct ng_system *sys, int gpu,
			struct ng_counters *out);
void ng_system_reset_counters(struct ng_system *sys);

#endif /* NGEMU_SYSTEM_H */
