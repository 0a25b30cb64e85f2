// SPDX-License-Identifier: GPL-2.0
/*
 * /dev/numagpu and its topology ioctl, held against the kernel's own view
 * of the NUMA nodes in /sys/devices/system/node.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdint.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <sys/sysmacros.h>
#include <sys/wait.h>
#include <unistd.h>

#include "kselftest_harness.h"

#include "ngemu/util/cpulist.h"
#include "ngemu/backend/topology.h"
#include "numagpu_test.h"

FIXTURE(dev) {
	int fd;
	struct numagpu_topology topo;
	struct ng_topology sys;
};

FIXTURE_SETUP(dev)
{
	char err[512];

	self->fd = open(NUMAGPU_DEVICE_PATH, O_RDWR | O_CLOEXEC);
	ASSERT_LE(0, self->fd) TH_LOG("open: %s", strerror(errno));
	memset(&self->topo, 0xa5, sizeof(self->topo));
	ASSERT_EQ(0, ioctl(self->fd, NUMAGPU_IOC_GET_TOPOLOGY, &self->topo))
		TH_LOG("ioctl: %s", strerror(errno));
	ASSERT_EQ(0, ng_topology_from_sysfs(&self->sys, "/sys", err,
					    sizeof(err)))
		TH_LOG("sysfs: %s", err);
}

FIXTURE_TEARDOWN(dev)
{
	if (self->fd >= 0)
		close(self->fd);
}

TEST_F(dev, version)
{
	char v[64];

	EXPECT_EQ(NUMAGPU_UAPI_VERSION, self->topo.uapi_version);
	ASSERT_EQ(0, read_text("/sys/module/numagpu/version", v, sizeof(v)));
	EXPECT_STREQ(NUMAGPU_VERSION_STRING, v);
	EXPECT_EQ(0u, self->topo.reserved);
}

/* One GPU per node with memory, in node order. */
TEST_F(dev, one_gpu_per_memory_node)
{
	ASSERT_EQ(self->sys.hw.ngpus, self->topo.ngpus);
	for (unsigned int g = 0; g < self->topo.ngpus; g++)
		EXPECT_EQ(self->sys.hw.gpu[g].node, self->topo.gpu[g].node);
	TH_LOG("%u GPUs", self->topo.ngpus);
}

TEST_F(dev, cpus_match_sysfs)
{
	EXPECT_EQ(self->sys.hw.nr_cpu_ids, self->topo.nr_cpu_ids);
	for (unsigned int g = 0; g < self->topo.ngpus; g++) {
		const struct numagpu_gpu_info *k = &self->topo.gpu[g];
		const struct numagpu_gpu_info *s = &self->sys.hw.gpu[g];

		EXPECT_EQ(0, memcmp(s->cpumask, k->cpumask, sizeof(k->cpumask)))
			TH_LOG("GPU %u", g);
		EXPECT_EQ(s->nr_cpus, k->nr_cpus);
		EXPECT_EQ(ng_cpumask_weight(k->cpumask), k->nr_cpus);
	}
}

TEST_F(dev, memory_matches_sysfs)
{
	for (unsigned int g = 0; g < self->topo.ngpus; g++) {
		const struct numagpu_gpu_info *k = &self->topo.gpu[g];
		const struct numagpu_gpu_info *s = &self->sys.hw.gpu[g];
		/* free memory moves between the two reads; 16 MiB is plenty */
		uint64_t slack = 16ULL << 20;

		EXPECT_EQ(s->mem_total, k->mem_total) TH_LOG("GPU %u", g);
		EXPECT_LT(0, k->mem_total);
		EXPECT_LE(k->mem_free, k->mem_total);
		EXPECT_LE(k->mem_free, s->mem_free + slack);
		EXPECT_LE(s->mem_free, k->mem_free + slack);
	}
}

TEST_F(dev, distances_match_sysfs)
{
	for (unsigned int g = 0; g < NUMAGPU_MAX_GPUS; g++) {
		for (unsigned int h = 0; h < NUMAGPU_MAX_GPUS; h++) {
			if (g < self->topo.ngpus && h < self->topo.ngpus) {
				EXPECT_EQ(self->sys.hw.distance[g][h],
					  self->topo.distance[g][h]);
				EXPECT_EQ(g == h ? 10 : self->topo.distance[h][g],
					  self->topo.distance[g][h]);
			} else {
				EXPECT_EQ(0, self->topo.distance[g][h]);
			}
		}
	}
}

/* Entries past ngpus are cleared, not left as the caller's 0xa5 bytes. */
TEST_F(dev, unused_entries_zeroed)
{
	for (unsigned int g = self->topo.ngpus; g < NUMAGPU_MAX_GPUS; g++) {
		const struct numagpu_gpu_info *k = &self->topo.gpu[g];

		EXPECT_EQ(0u, k->node);
		EXPECT_EQ(0u, k->nr_cpus);
		EXPECT_EQ(0u, k->mem_total);
		EXPECT_EQ(0u, k->cpumask[0]);
	}
}

TEST_F(dev, device_node)
{
	char dev[32], want[32];
	struct stat st;

	ASSERT_EQ(0, stat(NUMAGPU_DEVICE_PATH, &st));
	EXPECT_TRUE(S_ISCHR(st.st_mode));
	EXPECT_EQ(0660, st.st_mode & 07777);
	ASSERT_EQ(0, read_text("/sys/class/misc/numagpu/dev", dev, sizeof(dev)));
	snprintf(want, sizeof(want), "%u:%u", major(st.st_rdev),
		 minor(st.st_rdev));
	EXPECT_STREQ(want, dev);
}

/* Mode 0660 root:root keeps other users out. */
TEST_F(dev, other_users_denied)
{
	int status;
	pid_t pid;

	if (geteuid() != 0)
		SKIP(return, "needs root to drop privileges");
	pid = fork();
	ASSERT_LE(0, pid);
	if (pid == 0) {
		if (setgid(65534) || setuid(65534))
			_exit(2);
		_exit(open(NUMAGPU_DEVICE_PATH, O_RDWR) < 0 && errno == EACCES ?
		      0 : 1);
	}
	ASSERT_EQ(pid, waitpid(pid, &status, 0));
	ASSERT_TRUE(WIFEXITED(status));
	EXPECT_EQ(0, WEXITSTATUS(status));
}

TEST_F(dev, unknown_ioctl_enotty)
{
	const unsigned long cmds[] = {
		0,
		_IO(NUMAGPU_IOC_MAGIC, 0x00),
		_IOR(NUMAGPU_IOC_MAGIC, 0x01, struct numagpu_topology),
		_IOR(NUMAGPU_IOC_MAGIC, 0xff, struct numagpu_topology),
		_IOW(NUMAGPU_IOC_MAGIC, 0x00, struct numagpu_topology),
		_IOWR(NUMAGPU_IOC_MAGIC, 0x00, struct numagpu_topology),
		_IOR(NUMAGPU_IOC_MAGIC, 0x00, __u32),
		_IOR('X', 0x00, struct numagpu_topology),
		_IOC(_IOC_READ, NUMAGPU_IOC_MAGIC, 0x00, 0),
	};

	for (size_t i = 0; i < sizeof(cmds) / sizeof(cmds[0]); i++) {
		errno = 0;
		EXPECT_EQ(-1, ioctl(self->fd, cmds[i], &self->topo))
			TH_LOG("cmd %#lx", cmds[i]);
		EXPECT_EQ(ENOTTY, errno) TH_LOG("cmd %#lx", cmds[i]);
	}
}

TEST_F(dev, bad_pointer_efault)
{
	const size_t sz = sizeof(struct numagpu_topology);
	long page = sysconf(_SC_PAGESIZE);
	void *bad[] = {
		NULL,
		(void *)1,
		(void *)-4096L,			/* top of the address space */
		(void *)0xffffffff81000000UL,	/* kernel text */
	};
	char *ro, *edge;

	for (size_t i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
		errno = 0;
		EXPECT_EQ(-1, ioctl(self->fd, NUMAGPU_IOC_GET_TOPOLOGY, bad[i]));
		EXPECT_EQ(EFAULT, errno) TH_LOG("pointer %p", bad[i]);
	}

	/* a read-only mapping cannot take the answer */
	ro = mmap(NULL, sz, PROT_READ, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	ASSERT_NE(MAP_FAILED, ro);
	errno = 0;
	EXPECT_EQ(-1, ioctl(self->fd, NUMAGPU_IOC_GET_TOPOLOGY, ro));
	EXPECT_EQ(EFAULT, errno);
	munmap(ro, sz);

	/* the struct runs off the end of a mapping */
	edge = mmap(NULL, 2 * page, PROT_READ | PROT_WRITE,
		    MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	ASSERT_NE(MAP_FAILED, edge);
	ASSERT_EQ(0, munmap(edge + page, page));
	errno = 0;
	EXPECT_EQ(-1, ioctl(self->fd, NUMAGPU_IOC_GET_TOPOLOGY,
			    edge + page - 64));
	EXPECT_EQ(EFAULT, errno);
	munmap(edge, page);

	/* the device still answers */
	EXPECT_EQ(0, ioctl(self->fd, NUMAGPU_IOC_GET_TOPOLOGY, &self->topo));
}

/* The answer does not depend on how the device was opened. */
TEST_F(dev, read_only_open_works)
{
	struct numagpu_topology t;
	int fd = open(NUMAGPU_DEVICE_PATH, O_RDONLY);

	ASSERT_LE(0, fd);
	ASSERT_EQ(0, ioctl(fd, NUMAGPU_IOC_GET_TOPOLOGY, &t));
	EXPECT_EQ(self->topo.ngpus, t.ngpus);
	EXPECT_EQ(0, memcmp(self->topo.distance, t.distance,
			    sizeof(t.distance)));
	close(fd);
}

int main(int argc, char **argv)
{
	char param[256];

	numagpu_require_device();
	/* the comparisons with sysfs assume the default GPU set */
	numagpu_nodes_param(param, sizeof(param));
	if (param[0]) {
		ksft_print_header();
		ksft_exit_skip("module loaded with nodes=%s\n", param);
	}
	return test_harness_run(argc, argv);
}
