/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Helpers shared by the numagpu selftests: the device, the module's
 * (re)loading, and the kernel's own view of the nodes in sysfs.
 */
#ifndef NUMAGPU_SELFTEST_H
#define NUMAGPU_SELFTEST_H

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/syscall.h>
#include <unistd.h>

#include <linux/numagpu.h>

#include "kselftest.h"

/*
 * Exit with KSFT_SKIP, as kselftest expects, when the module is absent.
 * Skips are decided before the harness runs: the 6.1 harness runs a test's
 * body even after its fixture setup called SKIP().
 */
static inline void numagpu_require_device(void)
{
	if (access(NUMAGPU_DEVICE_PATH, F_OK)) {
		ksft_print_header();
		ksft_exit_skip("%s: %s (numagpu.ko not loaded)\n",
			       NUMAGPU_DEVICE_PATH, strerror(errno));
	}
}

/* The module's "nodes" parameter, "" when it was loaded without one. */
static inline void numagpu_nodes_param(char *buf, size_t len)
{
	FILE *f = fopen("/sys/module/numagpu/parameters/nodes", "r");
	size_t n = 0;

	if (f) {
		n = fread(buf, 1, len - 1, f);
		fclose(f);
	}
	buf[n] = '\0';
	if (n && buf[n - 1] == '\n')
		buf[--n] = '\0';
	if (!strcmp(buf, "(null)"))
		buf[0] = '\0';
}

static inline int numagpu_get_topology(struct numagpu_topology *t)
{
	int fd = open(NUMAGPU_DEVICE_PATH, O_RDWR | O_CLOEXEC);
	int ret;

	if (fd < 0)
		return -errno;
	ret = ioctl(fd, NUMAGPU_IOC_GET_TOPOLOGY, t) ? -errno : 0;
	close(fd);
	return ret;
}

/* Load the module at $NUMAGPU_KO with @params; 0 or -errno. */
static inline int numagpu_load(const char *params)
{
	const char *ko = getenv("NUMAGPU_KO");
	int fd, ret;

	if (!ko)
		return -ENOENT;
	fd = open(ko, O_RDONLY | O_CLOEXEC);
	if (fd < 0)
		return -errno;
	ret = syscall(SYS_finit_module, fd, params, 0) ? -errno : 0;
	close(fd);
	return ret;
}

/* Unload without waiting; 0 or -errno (EWOULDBLOCK/EBUSY while in use). */
static inline int numagpu_unload(void)
{
	return syscall(SYS_delete_module, "numagpu", O_NONBLOCK) ? -errno : 0;
}

static inline int numagpu_loaded(void)
{
	return access("/sys/module/numagpu", F_OK) == 0;
}

/* Read a small sysfs/proc file, trailing newline removed; 0 or -errno. */
static inline int read_text(const char *path, char *buf, size_t len)
{
	FILE *f = fopen(path, "r");
	size_t n;

	if (!f)
		return -errno;
	n = fread(buf, 1, len - 1, f);
	fclose(f);
	buf[n] = '\0';
	if (n && buf[n - 1] == '\n')
		buf[n - 1] = '\0';
	return 0;
}

#endif /* NUMAGPU_SELFTEST_H */
