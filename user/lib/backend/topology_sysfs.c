// SPDX-License-Identifier: GPL-2.0
/*
 * The user backend's topology, read from sysfs the way numagpu.ko decides
 * it: one GPU per node with memory, in node order. Tests point @root at a
 * fabricated tree, so every path is relative to it.
 */
#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "ngemu/util/cpulist.h"
#include "ngemu/backend/topology.h"
#include "util/util.h"

#define NODE_DIR "devices/system/node"

struct sysfs_ctx {
	const char *root;
	char *err;
	size_t errlen;
	char buf[8192];
};

static int read_rel(struct sysfs_ctx *c, const char *rel)
{
	char path[512];
	ssize_t n;

	snprintf(path, sizeof(path), "%s/%s", c->root, rel);
	n = ng_read_file(path, c->buf, sizeof(c->buf));
	if (n < 0) {
		ng_seterr(c->err, c->errlen, "%s: %s", path, strerror((int)-n));
		return (int)n;
	}
	return 0;
}

/* Node and CPU lists share the cpulist syntax and the 1024-bit limit. */
static int read_list(struct sysfs_ctx *c, const char *rel, __u64 *mask)
{
	int err = read_rel(c, rel);

	if (err)
		return err;
	err = ng_cpulist_parse(c->buf, mask);
	if (err)
		ng_seterr(c->err, c->errlen, "%s/%s: bad list \"%.40s\"",
			  c->root, rel, c->buf);
	return err;
}

/* "Node 0 MemTotal:  2097152 kB" -> bytes */
static int meminfo_field(struct sysfs_ctx *c, int node, const char *field,
			 __u64 *bytes)
{
	char key[64];
	const char *p;
	unsigned long long kb;

	snprintf(key, sizeof(key), " %s:", field);
	p = strstr(c->buf, key);
	if (!p || sscanf(p + strlen(key), "%llu kB", &kb) != 1) {
		ng_seterr(c->err, c->errlen,
			  "%s/" NODE_DIR "/node%d/meminfo: no %s",
			  c->root, node, field);
		return -EINVAL;
	}
	*bytes = (__u64)kb * 1024;
	return 0;
}

static int mask_test(const __u64 *m, unsigned int i)
{
	return (m[i / 64] >> (i % 64)) & 1;
}

/* The distance file of node @node lists one value per online node. */
static int read_distances(struct sysfs_ctx *c, struct numagpu_topology *hw,
			  unsigned int g, const __u64 *online)
{
	char rel[128];
	const char *p;
	unsigned int want = 0;
	int err;

	snprintf(rel, sizeof(rel), NODE_DIR "/node%u/distance",
		 hw->gpu[g].node);
	err = read_rel(c, rel);
	if (err)
		return err;
	p = c->buf;
	for (unsigned int n = 0; n < NUMAGPU_MAX_CPUS; n++) {
		unsigned long d;
		char *end;

		if (!mask_test(online, n))
			continue;
		errno = 0;
		d = strtoul(p, &end, 10);
		if (end == p || errno || d > 255) {
			ng_seterr(c->err, c->errlen,
				  "%s/%s: bad distance list \"%.60s\"",
				  c->root, rel, c->buf);
			return -EINVAL;
		}
		p = end;
		for (unsigned int h = 0; h < hw->ngpus; h++)
			if (hw->gpu[h].node == n) {
				hw->distance[g][h] = (uint8_t)d;
				want++;
			}
	}
	if (want != hw->ngpus) {
		ng_seterr(c->err, c->errlen,
			  "%s/%s: a GPU's node is not online", c->root, rel);
		return -EINVAL;
	}
	return 0;
}

static int last_bit(const __u64 *m)
{
	for (int i = NUMAGPU_MAX_CPUS - 1; i >= 0; i--)
		if (mask_test(m, (unsigned int)i))
			return i;
	return -1;
}

int ng_topology_from_sysfs(struct ng_topology *topo, const char *root,
			   char *err, size_t errlen)
{
	struct sysfs_ctx *c;
	struct numagpu_topology *hw = &topo->hw;
	__u64 has_mem[NUMAGPU_CPUMASK_WORDS], online[NUMAGPU_CPUMASK_WORDS];
	__u64 possible[NUMAGPU_CPUMASK_WORDS];
	int ret;

	if (!root)
		root = "/sys";
	c = calloc(1, sizeof(*c));
	if (!c) {
		ng_seterr(err, errlen, "out of memory");
		return -ENOMEM;
	}
	*c = (struct sysfs_ctx){ .root = root, .err = err, .errlen = errlen };
	memset(topo, 0, sizeof(*topo));
	topo->backend = NG_BACKEND_USER;
	snprintf(topo->source, sizeof(topo->source), "%s", root);
	hw->uapi_version = NUMAGPU_UAPI_VERSION;

	ret = read_list(c, NODE_DIR "/has_memory", has_mem);
	if (!ret)
		ret = read_list(c, NODE_DIR "/online", online);
	if (!ret)
		ret = read_list(c, "devices/system/cpu/possible", possible);
	if (ret)
		goto out;
	hw->nr_cpu_ids = (uint32_t)(last_bit(possible) + 1);

	for (unsigned int n = 0; n < NUMAGPU_MAX_CPUS; n++) {
		if (!mask_test(has_mem, n))
			continue;
		if (hw->ngpus == NUMAGPU_MAX_GPUS) {
			ng_seterr(err, errlen,
				  "more than %d nodes with memory",
				  NUMAGPU_MAX_GPUS);
			ret = -E2BIG;
			goto out;
		}
		hw->gpu[hw->ngpus++].node = n;
	}
	if (hw->ngpus == 0) {
		ng_seterr(err, errlen, "%s/" NODE_DIR "/has_memory: no node",
			  root);
		ret = -ENODEV;
		goto out;
	}

	for (unsigned int g = 0; g < hw->ngpus; g++) {
		struct numagpu_gpu_info *gi = &hw->gpu[g];
		char rel[128];

		snprintf(rel, sizeof(rel), NODE_DIR "/node%u/cpulist",
			 gi->node);
		ret = read_list(c, rel, gi->cpumask);
		if (ret)
			goto out;
		gi->nr_cpus = ng_cpumask_weight(gi->cpumask);

		snprintf(rel, sizeof(rel), NODE_DIR "/node%u/meminfo",
			 gi->node);
		ret = read_rel(c, rel);
		if (!ret)
			ret = meminfo_field(c, (int)gi->node, "MemTotal",
					    &gi->mem_total);
		if (!ret)
			ret = meminfo_field(c, (int)gi->node, "MemFree",
					    &gi->mem_free);
		if (!ret)
			ret = read_distances(c, hw, g, online);
		if (ret)
			goto out;
	}
out:
	free(c);
	return ret;
}
