/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Helpers shared by the numagpu selftests: the device, the module's
 * (re)loading, the kernel's own view of the nodes in sysfs, and a
 * buffer's location table against its query ioctl.
 */
#ifndef NUMAGPU_SELFTEST_H
#define NUMAGPU_SELFTEST_H

#include <errno.h>
#include <sched.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/syscall.h>
#include <unistd.h>

#include <linux/numagpu.h>

#include "kselftest.h"
#include "ngemu/backend/kbuf.h"

/*
 * The harness kills a test after 30 s. In the VM, under software
 * emulation on a loaded 2-CPU host, one ngemu run of a CODA triad (its
 * profiling run and the run itself) has taken longer: a test must not
 * pass or fail by the host's speed. 120 s is several times the longest
 * test measured so (the whole ngemu_bench_test program: 94 s) and stays
 * under the program's limit in settings.
 */
#ifdef TEST_TIMEOUT_DEFAULT
#undef TEST_TIMEOUT_DEFAULT
#define TEST_TIMEOUT_DEFAULT 120
#endif

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

/* Module-wide counters; 0 or -errno. */
static inline int numagpu_dev_stats(struct numagpu_dev_stats *st)
{
	int fd = open(NUMAGPU_DEVICE_PATH, O_RDWR | O_CLOEXEC);
	int ret;

	if (fd < 0)
		return -errno;
	ret = ioctl(fd, NUMAGPU_IOC_GET_STATS, st) ? -errno : 0;
	close(fd);
	return ret;
}

/* Pages held by every buffer of the module, or -1. */
static inline long long numagpu_pages_held(void)
{
	struct numagpu_dev_stats st;

	if (numagpu_dev_stats(&st))
		return -1;
	return (long long)st.pages_held;
}

/*
 * Wait until the module holds no pages: a page freed by another process's
 * exit may take the kernel a moment (its mm is torn down asynchronously
 * after a SIGKILL). Returns the last count.
 */
static inline long long numagpu_wait_pages_zero(int ms)
{
	long long n = numagpu_pages_held();

	while (n != 0 && ms-- > 0) {
		usleep(1000);
		n = numagpu_pages_held();
	}
	return n;
}

/* The NUMA node of each page (move_pages(2) with NULL nodes). */
static inline long numagpu_page_nodes(void *const *addrs, int *status,
				      unsigned long n)
{
	return syscall(SYS_move_pages, 0, n, addrs, NULL, status, 0);
}

/* Pin the calling thread to the CPUs of GPU @g; 0 or -errno. */
static inline int numagpu_pin_gpu(const struct numagpu_topology *t,
				  unsigned int g)
{
	cpu_set_t set;

	CPU_ZERO(&set);
	for (unsigned int c = 0; c < NUMAGPU_MAX_CPUS && c < CPU_SETSIZE; c++)
		if (t->gpu[g].cpumask[c / 64] & (1ULL << (c % 64)))
			CPU_SET(c, &set);
	if (!CPU_COUNT(&set))
		return -ENOENT;
	return sched_setaffinity(0, sizeof(set), &set) ? -errno : 0;
}

/* Kernel taint flags, or -1. */
static inline long numagpu_tainted(void)
{
	char buf[32];

	if (read_text("/proc/sys/kernel/tainted", buf, sizeof(buf)))
		return -1;
	return strtol(buf, NULL, 10);
}

/* Taints a run may carry: out-of-tree (O, 4096) and unsigned (E, 8192). */
#define NUMAGPU_TAINT_OK	(4096L | 8192L)

#define NGROUPS 16

static inline long page_size(void)
{
	return sysconf(_SC_PAGESIZE);
}

/* The location table equals the query ioctl over the whole buffer. */
static inline int loctab_matches_query(struct ng_kbuf *b)
{
	size_t n = b->npages;
	struct numagpu_loc *t = calloc(n, sizeof(*t));
	struct numagpu_loc *q = calloc(n, sizeof(*q));
	int ret = -1;

	if (t && q && !ng_kbuf_loctab_read(b, 0, n, t) &&
	    !ng_kbuf_query(b, 0, n, q))
		ret = memcmp(t, q, n * sizeof(*t)) ? 1 : 0;
	free(t);
	free(q);
	return ret;
}

#endif /* NUMAGPU_SELFTEST_H */
