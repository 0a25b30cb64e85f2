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

/* buffers (numagpu_buffer.h has what their files share) */
struct numagpu_buffer;
struct io_uring_cmd;

long numagpu_buffer_create(const struct numagpu_system *sys,
			   void __user *arg);
int numagpu_buf_advise(struct numagpu_buffer *buf, u64 first, u64 n,
		       u32 advice, u32 target);
int numagpu_buf_migrate(struct numagpu_buffer *buf, u64 first, u64 n,
			u32 target, u32 flags, bool nowait, u64 *moved,
			u64 *skipped);
int numagpu_buf_query1(struct numagpu_buffer *buf, u64 idx, bool nowait);
void numagpu_buf_count_uring(struct numagpu_buffer *buf);

/* numagpu_uring.c: IORING_OP_URING_CMD on a buffer fd */
int numagpu_buf_uring_cmd(struct io_uring_cmd *ioucmd,
			  unsigned int issue_flags);

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
	atomic64_t replicas_created;
	atomic64_t collapses;
	atomic64_t migrations;
	atomic64_t pins;
	atomic64_t replica_pages;
	atomic64_t auto_migrations;
	atomic64_t memlock_refusals;
	atomic64_t node_pages[NUMAGPU_MAX_NODES];
};

extern struct numagpu_dev_counters numagpu_dev;

void numagpu_stats_fill(struct numagpu_dev_stats *st);
void numagpu_debugfs_init(void);
void numagpu_debugfs_exit(void);

#endif /* _NUMAGPU_H */
