// SPDX-License-Identifier: GPL-2.0
/*
 * Which NUMA nodes play GPUs, and what user space is told about them.
 *
 * Every node with memory is a GPU unless the "nodes" parameter narrows the
 * set; a node without memory cannot back device memory, so naming one is an
 * error rather than something silently skipped.
 */
#define pr_fmt(fmt) KBUILD_MODNAME ": " fmt

#include <linux/cpumask.h>
#include <linux/errno.h>
#include <linux/mm.h>
#include <linux/mmzone.h>
#include <linux/vmstat.h>
#include <linux/nodemask.h>
#include <linux/printk.h>
#include <linux/slab.h>
#include <linux/string.h>
#include <linux/topology.h>

#include "numagpu.h"

static int numagpu_parse_nodes(const char *nodelist, nodemask_t *mask)
{
	char *buf;
	int err;

	/* nodelist_parse() rejects trailing garbage but not a lone newline */
	buf = kstrdup(nodelist, GFP_KERNEL);
	if (!buf)
		return -ENOMEM;
	strim(buf);
	if (!*buf) {
		kfree(buf);
		return -EINVAL;
	}
	err = nodelist_parse(buf, *mask);
	kfree(buf);
	return err;
}

/*
 * Whether @nid has memory the module can allocate: its pages are not
 * movable (__GFP_MOVABLE is not in NUMAGPU_GFP), so a node whose memory
 * is all ZONE_MOVABLE (hot-added memory onlined movable) never holds one.
 */
static bool numagpu_node_usable(int nid)
{
	pg_data_t *pgdat = NODE_DATA(nid);
	int z;

	for (z = 0; z < ZONE_MOVABLE; z++)
		if (zone_managed_pages(&pgdat->node_zones[z]))
			return true;
	return false;
}

int numagpu_system_init(struct numagpu_system *sys, const char *nodelist)
{
	nodemask_t mask;
	int nid;

	if (nodelist && *nodelist) {
		int err = numagpu_parse_nodes(nodelist, &mask);

		if (err) {
			pr_err("nodes=\"%s\" is not a node list\n", nodelist);
			return -EINVAL;
		}
		for_each_node_mask(nid, mask) {
			if (!node_state(nid, N_MEMORY)) {
				pr_err("nodes=\"%s\": node %d has no memory\n",
				       nodelist, nid);
				return -EINVAL;
			}
			if (!numagpu_node_usable(nid)) {
				pr_err("nodes=\"%s\": node %d has only movable memory\n",
				       nodelist, nid);
				return -EINVAL;
			}
		}
	} else {
		mask = node_states[N_MEMORY];
		for_each_node_mask(nid, mask) {
			if (numagpu_node_usable(nid))
				continue;
			pr_info("node %d has only movable memory: not a GPU\n",
				nid);
			node_clear(nid, mask);
		}
	}

	if (nodes_weight(mask) > NUMAGPU_MAX_GPUS) {
		pr_err("%u memory nodes, at most %d GPUs: use nodes=\n",
		       nodes_weight(mask), NUMAGPU_MAX_GPUS);
		return -E2BIG;
	}
	if (nodes_empty(mask))
		return -ENODEV;

	sys->ngpus = 0;
	for_each_node_mask(nid, mask)
		sys->node[sys->ngpus++] = nid;
	return 0;
}

/*
 * The same sums as si_meminfo_node(), which is not exported, so that the
 * numbers equal MemTotal/MemFree of /sys/devices/system/node/nodeN/meminfo.
 */
static void numagpu_node_mem(int nid, u64 *total, u64 *free)
{
	pg_data_t *pgdat = NODE_DATA(nid);
	unsigned long managed = 0, nfree = 0;
	int z;

	for (z = 0; z < MAX_NR_ZONES; z++) {
		struct zone *zone = &pgdat->node_zones[z];

		managed += zone_managed_pages(zone);
		nfree += zone_page_state(zone, NR_FREE_PAGES);
	}
	*total = (u64)managed << PAGE_SHIFT;
	*free = (u64)nfree << PAGE_SHIFT;
}

static void numagpu_gpu_fill(int nid, struct numagpu_gpu_info *gi)
{
	int cpu;

	gi->node = nid;
	numagpu_node_mem(nid, &gi->mem_total, &gi->mem_free);
	for_each_cpu_and(cpu, cpumask_of_node(nid), cpu_online_mask) {
		if (cpu >= NUMAGPU_MAX_CPUS)
			break;
		gi->cpumask[cpu / 64] |= 1ULL << (cpu % 64);
		gi->nr_cpus++;
	}
}

void numagpu_topology_fill(const struct numagpu_system *sys,
			   struct numagpu_topology *topo)
{
	unsigned int i, j;

	memset(topo, 0, sizeof(*topo));
	topo->uapi_version = NUMAGPU_UAPI_VERSION;
	topo->ngpus = sys->ngpus;
	topo->nr_cpu_ids = nr_cpu_ids;
	for (i = 0; i < sys->ngpus; i++) {
		numagpu_gpu_fill(sys->node[i], &topo->gpu[i]);
		for (j = 0; j < sys->ngpus; j++)
			topo->distance[i][j] =
				node_distance(sys->node[i], sys->node[j]);
	}
}
