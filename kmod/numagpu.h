/* SPDX-License-Identifier: GPL-2.0 */
/*
 * numagpu.ko internals shared between its files.
 */
#ifndef _NUMAGPU_H
#define _NUMAGPU_H

#include <linux/atomic.h>
#include <linux/percpu.h>
#include <linux/stddef.h>
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

long numagpu_buf_create(const struct numagpu_system *sys, void __user *arg);
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

/*
 * numagpu_stats.c: counters of events and gauges, per CPU and summed when
 * read, so that faults on different nodes never bounce a cache line: one
 * set module-wide (numagpu_pcpu) and one per buffer (buf->ctr), with the
 * same fields, so that numagpu_count() counts a buffer's event in both.
 * Pages held per node are exact gauges (atomic64).
 */
struct numagpu_counters {
	s64 buffers;		/* gauges (per-CPU deltas): */
	s64 pages_held;
	s64 replica_pages;
	s64 buffers_created;	/* events: */
	s64 pages_allocated;
	s64 pages_freed;
	s64 populated;
	s64 faults;
	s64 first_touch_local;
	s64 first_touch_remote;
	s64 fallbacks;
	s64 sigbus;
	s64 races;
	s64 mode_changes;
	s64 replicas_created;
	s64 collapses;
	s64 migrations;
	s64 pins;
	s64 auto_migrations;
	s64 uring_cmds;
	s64 memlock_refusals;
	s64 view_faults[NUMAGPU_MAX_GPUS];
	s64 node_faults[NUMAGPU_MAX_NODES];
};

extern struct numagpu_counters __percpu *numagpu_pcpu;
extern atomic64_t numagpu_node_pages[NUMAGPU_MAX_NODES];

#define numagpu_dev_add(field, n)	this_cpu_add(numagpu_pcpu->field, (n))
#define numagpu_dev_inc(field)		numagpu_dev_add(field, 1)
#define numagpu_buf_add(buf, field, n)	this_cpu_add((buf)->ctr->field, (n))
#define numagpu_buf_inc(buf, field)	numagpu_buf_add(buf, field, 1)
/* An event of buffer @buf, counted there and module-wide. */
#define numagpu_count(buf, field)			\
	do {						\
		numagpu_buf_inc(buf, field);		\
		numagpu_dev_inc(field);			\
	} while (0)
#define numagpu_count_add(buf, field, n)		\
	do {						\
		numagpu_buf_add(buf, field, n);		\
		numagpu_dev_add(field, n);		\
	} while (0)

s64 numagpu_sum(struct numagpu_counters __percpu *c, size_t off);
#define NUMAGPU_SUM(c, field) \
	numagpu_sum(c, offsetof(struct numagpu_counters, field))
int numagpu_stats_init(void);
void numagpu_stats_exit(void);

void numagpu_stats_fill(struct numagpu_dev_stats *st);
void numagpu_debugfs_init(void);
void numagpu_debugfs_exit(void);

#endif /* _NUMAGPU_H */
