// SPDX-License-Identifier: GPL-2.0
/*
 * A 32-bit client of numagpu.ko (built with gcc -m32, static, from the
 * uapi header alone): the header promises one ABI for 32- and 64-bit user
 * space. Every structure has the 64-bit size, the ioctls go through
 * compat_ioctl, and the views and the location table map through mmap2()'s
 * 32-bit page offset.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdint.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/mman.h>
#include <unistd.h>

#include <linux/numagpu.h>

#include "kselftest_harness.h"

/* the sizes the 64-bit build sees (user/tests/kbuf_test.c) */
_Static_assert(sizeof(void *) == 4, "a 32-bit build");
_Static_assert(sizeof(struct numagpu_buf_create) == 48, "buf_create");
_Static_assert(sizeof(struct numagpu_buf_mode) == 48, "buf_mode");
_Static_assert(sizeof(struct numagpu_buf_query) == 24, "buf_query");
_Static_assert(sizeof(struct numagpu_loctab_header) == 64, "loctab_header");
_Static_assert(sizeof(struct numagpu_buf_advise) == 40, "buf_advise");
_Static_assert(sizeof(struct numagpu_buf_migrate) == 56, "buf_migrate");
_Static_assert(sizeof(struct numagpu_buf_stats) == (16 + 16 + 64 + 64) * 8,
	       "buf_stats");
_Static_assert(sizeof(struct numagpu_dev_stats) == (16 + 64) * 8, "dev_stats");
_Static_assert(sizeof(off_t) == 8, "_FILE_OFFSET_BITS=64");

FIXTURE(m32) {
	struct numagpu_topology topo;
	int dev, fd;
	long page;
	size_t npages;
};

FIXTURE_SETUP(m32)
{
	struct numagpu_buf_create c = { .mode = NUMAGPU_MODE_FGP };

	self->page = sysconf(_SC_PAGESIZE);
	self->dev = open(NUMAGPU_DEVICE_PATH, O_RDWR | O_CLOEXEC);
	ASSERT_LE(0, self->dev) TH_LOG("%s: %s", NUMAGPU_DEVICE_PATH,
				       strerror(errno));
	ASSERT_EQ(0, ioctl(self->dev, NUMAGPU_IOC_GET_TOPOLOGY, &self->topo));
	self->npages = 4 * self->topo.ngpus;
	c.size = self->npages * self->page;
	self->fd = ioctl(self->dev, NUMAGPU_IOC_BUF_CREATE, &c);
	ASSERT_LE(0, self->fd) TH_LOG("create: %s", strerror(errno));
}

FIXTURE_TEARDOWN(m32)
{
	close(self->fd);
	close(self->dev);
}

TEST_F(m32, topology)
{
	EXPECT_EQ(NUMAGPU_UAPI_VERSION, self->topo.uapi_version);
	EXPECT_LE(1, self->topo.ngpus);
	EXPECT_GE(NUMAGPU_MAX_GPUS, self->topo.ngpus);
}

TEST_F(m32, views_and_table)
{
	unsigned int last = self->topo.ngpus - 1;
	size_t len = self->npages * self->page;
	size_t tlen = (NUMAGPU_LOCTAB_SIZE(self->npages) + self->page - 1) /
		      self->page * self->page;
	struct numagpu_loc q[64];
	struct numagpu_buf_query bq = {
		.npages = self->npages, .entries = (uintptr_t)q,
	};
	const struct numagpu_loctab_header *t;
	const struct numagpu_loc *e;
	char *v0, *vl;

	v0 = mmap(NULL, len, PROT_READ | PROT_WRITE, MAP_SHARED, self->fd,
		  NUMAGPU_VIEW_OFFSET(0));
	ASSERT_NE(MAP_FAILED, v0);
	/* the last view lies far above 4 GiB of file offset */
	vl = mmap(NULL, len, PROT_READ | PROT_WRITE, MAP_SHARED, self->fd,
		  NUMAGPU_VIEW_OFFSET(last));
	ASSERT_NE(MAP_FAILED, vl) TH_LOG("view %u: %s", last, strerror(errno));
	for (size_t p = 0; p < self->npages; p++)
		v0[p * self->page] = (char)(p + 1);
	for (size_t p = 0; p < self->npages; p++)
		EXPECT_EQ((char)(p + 1), vl[p * self->page]);

	t = mmap(NULL, tlen, PROT_READ, MAP_SHARED, self->fd,
		 NUMAGPU_LOCTAB_OFFSET);
	ASSERT_NE(MAP_FAILED, t) TH_LOG("table: %s", strerror(errno));
	EXPECT_EQ(self->npages, t->npages);
	EXPECT_EQ(self->topo.ngpus, t->ngpus);
	ASSERT_GE(64, self->npages);
	ASSERT_EQ(0, ioctl(self->fd, NUMAGPU_BUF_IOC_QUERY, &bq));
	e = (const void *)((const char *)t + t->entries_offset);
	for (size_t p = 0; p < self->npages; p++) {
		EXPECT_TRUE(e[p].flags & NUMAGPU_LOC_POPULATED);
		EXPECT_EQ(q[p].node, e[p].node);
		EXPECT_EQ(q[p].flags, e[p].flags);
	}
	munmap((void *)t, tlen);
	munmap(vl, len);
	munmap(v0, len);
}

TEST_F(m32, migrate_and_stats)
{
	size_t len = self->npages * self->page;
	struct numagpu_buf_migrate m = {
		.npages = self->npages, .target = self->topo.ngpus - 1,
		.flags = NUMAGPU_MIGRATE_GPU,
	};
	struct numagpu_buf_stats st;
	struct numagpu_dev_stats ds;
	char *v;

	v = mmap(NULL, len, PROT_READ | PROT_WRITE, MAP_SHARED, self->fd, 0);
	ASSERT_NE(MAP_FAILED, v);
	memset(v, 7, len);
	ASSERT_EQ(0, ioctl(self->fd, NUMAGPU_BUF_IOC_MIGRATE, &m));
	EXPECT_EQ(self->npages, m.moved + m.skipped + self->npages /
		  self->topo.ngpus) TH_LOG("moved %llu skipped %llu",
					  (unsigned long long)m.moved,
					  (unsigned long long)m.skipped);
	for (size_t i = 0; i < len; i += 997)
		ASSERT_EQ(7, v[i]);
	ASSERT_EQ(0, ioctl(self->fd, NUMAGPU_BUF_IOC_STATS, &st));
	EXPECT_EQ(self->npages, st.npages);
	EXPECT_EQ(self->npages, st.populated);
	EXPECT_EQ(m.moved, st.migrations);
	ASSERT_EQ(0, ioctl(self->dev, NUMAGPU_IOC_GET_STATS, &ds));
	EXPECT_LE(self->npages, ds.pages_held);
	/* a bad argument is refused the same way */
	m.reserved[0] = 1;
	EXPECT_EQ(-1, ioctl(self->fd, NUMAGPU_BUF_IOC_MIGRATE, &m));
	EXPECT_EQ(EINVAL, errno);
	munmap(v, len);
}

TEST_HARNESS_MAIN
