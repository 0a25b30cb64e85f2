/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Fabricated /sys trees for tests of the user backend, so that topologies
 * this machine does not have (4 nodes, memoryless nodes, sparse node ids,
 * broken files) can be checked anywhere.
 */
#ifndef NGEMU_TEST_FAKE_SYSFS_H
#define NGEMU_TEST_FAKE_SYSFS_H

#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

struct fake_sysfs {
	char root[64];
};

static inline void fake_mkdirs(const char *path)
{
	char tmp[512];

	snprintf(tmp, sizeof(tmp), "%s", path);
	for (char *p = tmp + 1; *p; p++) {
		if (*p != '/')
			continue;
		*p = '\0';
		mkdir(tmp, 0755);
		*p = '/';
	}
	mkdir(tmp, 0755);
}

/* Write @fmt... to ROOT/@rel, creating directories; 0 or -1. */
static inline int fake_write(const struct fake_sysfs *fs, const char *rel,
			     const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));
static inline int fake_write(const struct fake_sysfs *fs, const char *rel,
			     const char *fmt, ...)
{
	char path[512], dir[512];
	va_list ap;
	FILE *f;

	snprintf(path, sizeof(path), "%s/%s", fs->root, rel);
	snprintf(dir, sizeof(dir), "%s", path);
	*strrchr(dir, '/') = '\0';
	fake_mkdirs(dir);
	f = fopen(path, "w");
	if (!f)
		return -1;
	va_start(ap, fmt);
	vfprintf(f, fmt, ap);
	va_end(ap);
	return fclose(f) ? -1 : 0;
}

static inline int fake_sysfs_create(struct fake_sysfs *fs)
{
	snprintf(fs->root, sizeof(fs->root), "/tmp/ngemu-sysfs-XXXXXX");
	return mkdtemp(fs->root) ? 0 : -1;
}

static inline void fake_sysfs_destroy(struct fake_sysfs *fs)
{
	char cmd[128];

	/* a fixed prefix under /tmp: never removes anything else */
	if (strncmp(fs->root, "/tmp/ngemu-sysfs-", 17) != 0)
		return;
	snprintf(cmd, sizeof(cmd), "rm -rf '%s'", fs->root);
	if (system(cmd) != 0)
		fprintf(stderr, "could not remove %s\n", fs->root);
}

/*
 * Node @node with @cpulist, @total_kb / @free_kb of memory and the given
 * distance row (one value per online node, space separated).
 */
static inline int fake_node(const struct fake_sysfs *fs, int node,
			    const char *cpulist, unsigned long total_kb,
			    unsigned long free_kb, const char *distance)
{
	char rel[128];
	int err = 0;

	snprintf(rel, sizeof(rel), "devices/system/node/node%d/cpulist", node);
	err |= fake_write(fs, rel, "%s\n", cpulist);
	snprintf(rel, sizeof(rel), "devices/system/node/node%d/meminfo", node);
	err |= fake_write(fs, rel,
			  "Node %d MemTotal:       %lu kB\n"
			  "Node %d MemFree:        %lu kB\n"
			  "Node %d MemUsed:        %lu kB\n",
			  node, total_kb, node, free_kb, node,
			  total_kb - free_kb);
	snprintf(rel, sizeof(rel), "devices/system/node/node%d/distance", node);
	err |= fake_write(fs, rel, "%s\n", distance);
	return err;
}

/* The common case: @n nodes with memory, one CPU each, ring distances. */
static inline int fake_uniform(const struct fake_sysfs *fs, int n)
{
	char list[32], cpu[16], row[256];
	int err = 0;

	snprintf(list, sizeof(list), n > 1 ? "0-%d" : "0", n - 1);
	err |= fake_write(fs, "devices/system/node/online", "%s\n", list);
	err |= fake_write(fs, "devices/system/node/has_memory", "%s\n", list);
	err |= fake_write(fs, "devices/system/cpu/possible", "%s\n", list);
	for (int i = 0; i < n; i++) {
		size_t len = 0;

		for (int j = 0; j < n; j++) {
			int d = i == j ? 10 : 10 + 10 * abs(i - j);

			len += (size_t)snprintf(row + len, sizeof(row) - len,
						"%s%d", j ? " " : "", d);
		}
		snprintf(cpu, sizeof(cpu), "%d", i);
		err |= fake_node(fs, i, cpu, 1048576UL * (i + 1),
				 524288UL * (i + 1), row);
	}
	return err;
}

#endif /* NGEMU_TEST_FAKE_SYSFS_H */
