/* SPDX-License-Identifier: GPL-2.0 */
/*
 * numagpu.ko internals shared between its files.
 */
#ifndef _NUMAGPU_H
#define _NUMAGPU_H

#include <linux/atomic.h>
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

extern struct numagpu_system numagpu_sys;

int numagpu_system_init(struct numagpu_system *sys, const char *nodelist);
void numagpu_topology_fill(const struct numagpu_system *sys,
			   struct numagpu_topology *topo);

/* numagpu_buffer.c */
long numagpu_buffer_create(const struct numagpu_system *sys,
			   void __user *arg);

/* numagpu_stats.c: module-wide counters */
struct numagpu_dev_counters {
	atomic64_t buffers;
	atomic64_t buffers_created;
	atomic64_t pages_held;
	atomic64_t pages_allocated;
	atomic64_t pages_freed;
	atomic64_t faults;
	atomic64_t first_touch_local;
	atomic64_t first_touch_remote;
	atomic64_t fallbacks;
	atomic64_t sigbus;
	atomic64_t node_pages[NUMAGPU_MAX_NODES];
};

extern struct numagpu_dev_counters numagpu_dev;

void numagpu_stats_fill(struct numagpu_dev_stats *st);
void numagpu_debugfs_init(void);
void numagpu_debugfs_exit(void);

#endif /* _NUMAGPU_H */
