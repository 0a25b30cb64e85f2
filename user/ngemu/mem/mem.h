/* SPDX-License-Identifier: GPL-2.0 */
/* What ngemu mem's files share: its options, a run's result, the reports. */
#ifndef NGEMU_CMD_MEM_H
#define NGEMU_CMD_MEM_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "ngemu/backend/kbuf.h"
#include "ngemu/backend/topology.h"

#define MEM_MAX_PAGES	NUMAGPU_QUERY_MAX

struct mem_opts {
	int mode;
	uint64_t pages;
	uint32_t target;
	bool target_set;
	uint64_t chunk;
	__u64 gpus[NUMAGPU_CPUMASK_WORDS];
	bool gpus_set;
	bool touch;
	bool fallback;
	bool json;
	bool read_mostly;
	int migrate;		/* GPU, or -1 */
	int prefetch;		/* GPU, or -1 */
	const char *device;
};

struct mem_result {
	struct numagpu_loc *loc;
	int *kernel_node;	/* move_pages(2) answer, -errno if none */
	int *toucher;		/* GPU that wrote the page, -1 if none */
	size_t agree;		/* pages where loc and the kernel agree */
	bool replicas;		/* views read replicas: expect their nodes */
	uint64_t moved;		/* pages moved by --migrate / --prefetch */
	struct numagpu_buf_stats st;
};

/* GPU index of a node, -1 for a node that is not a GPU. */
int mem_node_gpu(const struct numagpu_topology *t, unsigned int node);

/* report.c */
void mem_print_human(const struct mem_opts *o, const struct ng_kbuf *b,
		     const struct numagpu_topology *t,
		     const struct mem_result *r);
void mem_print_json(const struct mem_opts *o, const struct ng_kbuf *b,
		    const struct numagpu_topology *t,
		    const struct mem_result *r);

#endif /* NGEMU_CMD_MEM_H */
