/* SPDX-License-Identifier: GPL-2.0 */
/*
 * numagpu.ko internals shared between its files.
 */
#ifndef _NUMAGPU_H
#define _NUMAGPU_H

#include <linux/numagpu.h>
#include <linux/types.h>

/**
 * struct numagpu_system - the emulated GPUs, fixed when the module loads
 * @ngpus: number of emulated GPUs
 * @node:  NUMA node of each GPU, in increasing node order
 */
struct numagpu_system {
	unsigned int ngpus;
	int node[NUMAGPU_MAX_GPUS];
};

int numagpu_system_init(struct numagpu_system *sys, const char *nodelist);
void numagpu_topology_fill(const struct numagpu_system *sys,
			   struct numagpu_topology *topo);

#endif /* _NUMAGPU_H */
