// SPDX-License-Identifier: GPL-2.0
/*
 * numagpu buffers: page-group mode changes, per-GPU views of the same
 * pages, the location table, the arguments the module must refuse, its
 * debugfs counters, and random ioctls. Placement per mode is in
 * numagpu_place_test.c.
 */
#include <errno.h>
#include <stdint.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/mman.h>
#include <sys/mount.h>
#include <unistd.h>

#include "kselftest_harness.h"

#include "ngemu/backend/kbuf.h"
#include "numagpu_test.h"

/* ---------------------------------------------------------------------- */

FIXTURE(buf) {
	struct numagpu_topology topo;
	unsigned int ngpus;
	int dev;
	long page;
};

FIXTURE_SETUP(buf)
{
	ASSERT_EQ(0, numagpu_get_topology(&self->topo));
	self->ngpus = self->topo.ngpus;
	self->page = page_size();
	self->dev = ng_kbuf_open_device(NULL);
	ASSERT_LE(0, self->dev);
}

FIXTURE_TEARDOWN(buf)
{
	close(self->dev);
}

static int create(int dev, __u64 size, __u32 mode, __u32 flags, __u32 target,
		  __u64 chunk)
{
	struct numagpu_buf_create c = {
		.size = size, .mode = mode, .flags = flags, .target = target,
		.chunk = chunk,
	};
	int fd = ioctl(dev, NUMAGPU_IOC_BUF_CREATE, &c);

	return fd < 0 ? -errno : fd;
}

TEST_F(buf, mode_change_by_page_group)
{
	unsigned int n = self->ngpus;
	/* 8 whole groups and a partial one of n - 1 pages (if n > 1) */
	size_t npages = 8 * n + (n > 1 ? n - 1 : 0);
	struct numagpu_buf_create c = {
		.size = npages * self->page, .mode = NUMAGPU_MODE_FIRST_TOUCH,
	};
	struct numagpu_loc *loc = calloc(npages, sizeof(*loc));
	struct ng_kbuf b;
	char *v;

	ASSERT_NE(NULL, loc);
	ASSERT_EQ(0, ng_kbuf_create(&b, self->dev, &c));
	ASSERT_EQ(0, ng_kbuf_map_view(&b, 0, (void **)&v));

	/* touch the last page of group 1 */
	v[(2 * n - 1) * self->page] = 1;
	EXPECT_EQ(-EBUSY, ng_kbuf_set_mode(&b, n, n, NUMAGPU_MODE_FGP, 0, 0));
	EXPECT_EQ(-EBUSY, ng_kbuf_set_mode(&b, 0, 2 * n, NUMAGPU_MODE_FGP, 0,
					   0));
	EXPECT_EQ(-EBUSY, ng_kbuf_set_mode(&b, 0, npages, NUMAGPU_MODE_FGP, 0,
					   0));
	EXPECT_EQ(0, loctab_matches_query(&b));
	/* empty groups change */
	EXPECT_EQ(0, ng_kbuf_set_mode(&b, 0, n, NUMAGPU_MODE_CGP, n - 1, 0));
	EXPECT_EQ(0, ng_kbuf_set_mode(&b, 2 * n, npages - 2 * n,
				      NUMAGPU_MODE_FGP, 0, 0));
	EXPECT_EQ(0, loctab_matches_query(&b));
	if (n > 1) {
		/* not group aligned */
		EXPECT_EQ(-EINVAL, ng_kbuf_set_mode(&b, 1, n,
						    NUMAGPU_MODE_FGP, 0, 0));
		EXPECT_EQ(-EINVAL, ng_kbuf_set_mode(&b, 2 * n, n + 1,
						    NUMAGPU_MODE_FGP, 0, 0));
		/* the partial last group is a unit of its own */
		EXPECT_EQ(0, ng_kbuf_set_mode(&b, 8 * n, n - 1,
					      NUMAGPU_MODE_HOST,
					      self->topo.gpu[0].node, 0));
	}
	ASSERT_EQ(0, ng_kbuf_loctab_read(&b, 0, npages, loc));
	for (size_t p = 0; p < npages; p++) {
		__u32 want = p < n ? NUMAGPU_MODE_CGP :
			     p < 2 * n ? NUMAGPU_MODE_FIRST_TOUCH :
			     p < 8 * n ? NUMAGPU_MODE_FGP : NUMAGPU_MODE_HOST;

		EXPECT_EQ(want, NUMAGPU_LOC_MODE(loc[p].flags)) TH_LOG("%zu", p);
	}

	/* the new modes take effect: group 0 on the last GPU, FGP spreads */
	v[0] = 1;
	v[(2 * n + 1) * self->page] = 1;
	ASSERT_EQ(0, ng_kbuf_loctab_read(&b, 0, npages, loc));
	EXPECT_EQ(self->topo.gpu[n - 1].node, loc[0].node);
	EXPECT_EQ(self->topo.gpu[1 % n].node, loc[2 * n + 1].node);
	EXPECT_EQ(self->topo.gpu[0].node, loc[2 * n - 1].node);
	EXPECT_EQ(-EBUSY, ng_kbuf_set_mode(&b, 0, n, NUMAGPU_MODE_FGP, 0, 0));
	EXPECT_EQ(0, loctab_matches_query(&b));
	ng_kbuf_destroy(&b);
	free(loc);
	EXPECT_EQ(0, numagpu_wait_pages_zero(1000));
}

/* A write through one view is read back through every other view. */
TEST_F(buf, views_share_pages)
{
	size_t npages = 4 * self->ngpus;
	struct numagpu_buf_create c = {
		.size = npages * self->page, .mode = NUMAGPU_MODE_FGP,
	};
	char *v[NUMAGPU_MAX_GPUS], *part;
	struct ng_kbuf b;

	ASSERT_EQ(0, ng_kbuf_create(&b, self->dev, &c));
	for (unsigned int g = 0; g < self->ngpus; g++)
		ASSERT_EQ(0, ng_kbuf_map_view(&b, g, (void **)&v[g]));
	for (unsigned int w = 0; w < self->ngpus; w++) {
		for (size_t i = 0; i < b.size; i += 512)
			v[w][i] = (char)(w * 31 + i / 512);
		for (unsigned int rd = 0; rd < self->ngpus; rd++) {
			size_t bad = 0;

			for (size_t i = 0; i < b.size; i += 512)
				bad += (char)(w * 31 + i / 512) != v[rd][i];
			EXPECT_EQ(0, bad) TH_LOG("written by %u read by %u", w, rd);
		}
		EXPECT_EQ(0, loctab_matches_query(&b));
	}
	/* a partial mapping at an offset inside the last view */
	part = mmap(NULL, 2 * self->page, PROT_READ, MAP_SHARED, b.fd,
		    NUMAGPU_VIEW_OFFSET(self->ngpus - 1) + 3 * self->page);
	ASSERT_NE(MAP_FAILED, part);
	EXPECT_EQ(v[0][3 * self->page], part[0]);
	EXPECT_EQ(v[0][4 * self->page + 512], part[self->page + 512]);
	munmap(part, 2 * self->page);
	ng_kbuf_destroy(&b);
	EXPECT_EQ(0, numagpu_wait_pages_zero(1000));
}

/* Zero-filled pages, and the location table updates while mapped. */
TEST_F(buf, zeroed_and_live_loctab)
{
	struct numagpu_buf_create c = {
		.size = 64 * self->page, .mode = NUMAGPU_MODE_FIRST_TOUCH,
	};
	struct numagpu_loc l;
	struct ng_kbuf b;
	__u32 seq;
	char *v;

	ASSERT_EQ(0, ng_kbuf_create(&b, self->dev, &c));
	EXPECT_EQ(64u, b.loctab->npages);
	EXPECT_EQ(sizeof(struct numagpu_loc), b.loctab->entry_size);
	EXPECT_EQ(sizeof(struct numagpu_loctab_header),
		  b.loctab->entries_offset);
	seq = b.loctab->seq;
	EXPECT_EQ(0u, seq & 1);
	ASSERT_EQ(0, ng_kbuf_map_view(&b, 0, (void **)&v));
	for (size_t i = 0; i < b.size; i++)
		ASSERT_EQ(0, v[i]);
	EXPECT_LT(seq, b.loctab->seq);
	EXPECT_EQ(0u, b.loctab->seq & 1);
	ASSERT_EQ(0, ng_kbuf_loctab_read(&b, 63, 1, &l));
	EXPECT_EQ(self->topo.gpu[0].node, l.node);
	EXPECT_EQ(NUMAGPU_LOC_POPULATED, l.flags & 0xff);
	ng_kbuf_destroy(&b);
}

/* Dropped by MADV_DONTNEED, the table's pages fault back, still live. */
TEST_F(buf, loctab_after_madv_dontneed)
{
	struct numagpu_buf_create c = {
		.size = 4 * self->ngpus * self->page, .mode = NUMAGPU_MODE_FGP,
	};
	struct numagpu_loc e;
	struct ng_kbuf b;
	char *v;

	ASSERT_EQ(0, ng_kbuf_create(&b, self->dev, &c));
	ASSERT_EQ(0, ng_kbuf_map_view(&b, 0, (void **)&v));
	v[0] = 1;
	ASSERT_EQ(0, madvise((void *)b.loctab, b.loctab_len, MADV_DONTNEED));
	EXPECT_EQ(b.npages, b.loctab->npages);
	EXPECT_EQ(0, loctab_matches_query(&b));
	/* a page populated after the drop shows in the table */
	v[(b.npages - 1) * self->page] = 1;
	EXPECT_EQ(0, loctab_matches_query(&b));
	ASSERT_EQ(0, ng_kbuf_loctab_read(&b, b.npages - 1, 1, &e));
	EXPECT_TRUE(e.flags & NUMAGPU_LOC_POPULATED);
	ng_kbuf_destroy(&b);
}

TEST_F(buf, bad_create_args)
{
	struct numagpu_buf_create c;
	long p = self->page;
	unsigned int n = self->ngpus;
	char maxp[32];
	unsigned long max = 0;
	int fd;

	EXPECT_EQ(-EINVAL, create(self->dev, 0, 0, 0, 0, 0));
	EXPECT_EQ(-EINVAL, create(self->dev, 1, 0, 0, 0, 0));
	EXPECT_EQ(-EINVAL, create(self->dev, p + 1, 0, 0, 0, 0));
	EXPECT_EQ(-EINVAL, create(self->dev, ~0ULL & ~(p - 1), 0, 0, 0, 0));
	EXPECT_EQ(-EINVAL, create(self->dev, 1ULL << 41, 0, 0, 0, 0));
	ASSERT_EQ(0, read_text("/sys/module/numagpu/parameters/max_buffer_pages",
			       maxp, sizeof(maxp)));
	max = strtoul(maxp, NULL, 10);
	EXPECT_EQ(-E2BIG, create(self->dev, (max + 1) * p, 0, 0, 0, 0));
	EXPECT_EQ(-EINVAL, create(self->dev, p, NUMAGPU_MODE_COUNT, 0, 0, 0));
	EXPECT_EQ(-EINVAL, create(self->dev, p, ~0u, 0, 0, 0));
	EXPECT_EQ(-EINVAL, create(self->dev, p, 0, 2, 0, 0));
	EXPECT_EQ(-EINVAL, create(self->dev, p, 0, 1u << 31, 0, 0));
	EXPECT_EQ(-EINVAL, create(self->dev, p, NUMAGPU_MODE_FIRST_TOUCH, 0,
				  1, 0));
	EXPECT_EQ(-EINVAL, create(self->dev, p, NUMAGPU_MODE_FGP, 0, 0, p));
	EXPECT_EQ(-EINVAL, create(self->dev, p, NUMAGPU_MODE_CGP, 0, n, 0));
	EXPECT_EQ(-EINVAL, create(self->dev, p, NUMAGPU_MODE_CGP, 0, 0, p * n));
	EXPECT_EQ(-EINVAL, create(self->dev, p, NUMAGPU_MODE_CGP_CHUNK, 0, 0,
				  0));
	if (n > 1)
		EXPECT_EQ(-EINVAL, create(self->dev, p, NUMAGPU_MODE_CGP_CHUNK,
					  0, 0, p));
	EXPECT_EQ(-EINVAL, create(self->dev, p, NUMAGPU_MODE_CGP_CHUNK, 0, 0,
				  p * n + 1));
	EXPECT_EQ(-EINVAL, create(self->dev, p, NUMAGPU_MODE_CGP_CHUNK, 0, 1,
				  p * n));
	/* nodes without memory, or not nodes at all */
	EXPECT_EQ(-EINVAL, create(self->dev, p, NUMAGPU_MODE_HOST, 0, 63, 0));
	EXPECT_EQ(-EINVAL, create(self->dev, p, NUMAGPU_MODE_HOST, 0, 4096, 0));
	EXPECT_EQ(-EINVAL, create(self->dev, p, NUMAGPU_MODE_HOST, 0,
				  0xfffffffe, 0));
	/* every memory node is a GPU here: no automatic host node */
	EXPECT_EQ(-EINVAL, create(self->dev, p, NUMAGPU_MODE_HOST, 0,
				  NUMAGPU_HOST_AUTO, 0));
	EXPECT_EQ(-EINVAL, create(self->dev, p, NUMAGPU_MODE_HOST, 0,
				  self->topo.gpu[0].node, p));

	memset(&c, 0, sizeof(c));
	c.size = p;
	c.reserved = 1;
	EXPECT_EQ(-1, ioctl(self->dev, NUMAGPU_IOC_BUF_CREATE, &c));
	EXPECT_EQ(EINVAL, errno);
	c.reserved = 0;
	c.reserved2[1] = 1;
	EXPECT_EQ(-1, ioctl(self->dev, NUMAGPU_IOC_BUF_CREATE, &c));
	EXPECT_EQ(EINVAL, errno);
	EXPECT_EQ(-1, ioctl(self->dev, NUMAGPU_IOC_BUF_CREATE, NULL));
	EXPECT_EQ(EFAULT, errno);

	/* good ones */
	fd = create(self->dev, p, NUMAGPU_MODE_HOST, NUMAGPU_BUF_FALLBACK,
		    self->topo.gpu[n - 1].node, 0);
	ASSERT_LE(0, fd);
	EXPECT_EQ(FD_CLOEXEC, fcntl(fd, F_GETFD) & FD_CLOEXEC);
	close(fd);
	fd = create(self->dev, (max < 4096 ? max : 4096) * p,
		    NUMAGPU_MODE_CGP_CHUNK, 0, 0, p * n * 2);
	ASSERT_LE(0, fd);
	close(fd);
}

TEST_F(buf, bad_mmap_and_ioctl_args)
{
	size_t npages = 2 * self->ngpus;
	long p = self->page;
	struct numagpu_buf_create c = {
		.size = npages * p, .mode = NUMAGPU_MODE_FGP,
	};
	struct numagpu_buf_query q = { 0 };
	struct numagpu_buf_mode m = { 0 };
	struct numagpu_loc loc[4];
	struct ng_kbuf b;
	void *a;
	char *t;

	ASSERT_EQ(0, ng_kbuf_create(&b, self->dev, &c));
	/* MAP_PRIVATE, views past the GPUs, past the end, misaligned */
	EXPECT_EQ(MAP_FAILED, mmap(NULL, b.size, PROT_READ | PROT_WRITE,
				   MAP_PRIVATE, b.fd, 0));
	EXPECT_EQ(EINVAL, errno);
	EXPECT_EQ(MAP_FAILED, mmap(NULL, p, PROT_READ, MAP_SHARED, b.fd,
				   NUMAGPU_VIEW_OFFSET(self->ngpus)));
	EXPECT_EQ(EINVAL, errno);
	EXPECT_EQ(MAP_FAILED, mmap(NULL, p, PROT_READ, MAP_SHARED, b.fd,
				   NUMAGPU_VIEW_OFFSET(NUMAGPU_MAX_GPUS + 1)));
	EXPECT_EQ(EINVAL, errno);
	EXPECT_EQ(MAP_FAILED, mmap(NULL, b.size + p, PROT_READ, MAP_SHARED,
				   b.fd, 0));
	EXPECT_EQ(EINVAL, errno);
	EXPECT_EQ(MAP_FAILED, mmap(NULL, p, PROT_READ, MAP_SHARED, b.fd,
				   b.size));
	EXPECT_EQ(EINVAL, errno);
	EXPECT_EQ(MAP_FAILED, mmap(NULL, p, PROT_READ, MAP_SHARED, b.fd, 100));
	EXPECT_EQ(EINVAL, errno);
	/* the location table is shared, read-only, and only that large */
	EXPECT_EQ(MAP_FAILED, mmap(NULL, p, PROT_READ | PROT_WRITE,
				   MAP_SHARED, b.fd, NUMAGPU_LOCTAB_OFFSET));
	EXPECT_EQ(EPERM, errno);
	EXPECT_EQ(MAP_FAILED, mmap(NULL, p, PROT_READ | PROT_EXEC,
				   MAP_SHARED, b.fd, NUMAGPU_LOCTAB_OFFSET));
	EXPECT_EQ(EPERM, errno);
	EXPECT_EQ(MAP_FAILED, mmap(NULL, p, PROT_READ, MAP_PRIVATE, b.fd,
				   NUMAGPU_LOCTAB_OFFSET));
	EXPECT_EQ(EINVAL, errno);
	EXPECT_EQ(MAP_FAILED, mmap(NULL, b.loctab_len + p, PROT_READ,
				   MAP_SHARED, b.fd, NUMAGPU_LOCTAB_OFFSET));
	EXPECT_EQ(EINVAL, errno);
	t = mmap(NULL, p, PROT_READ, MAP_SHARED, b.fd, NUMAGPU_LOCTAB_OFFSET);
	ASSERT_NE(MAP_FAILED, t);
	EXPECT_EQ(-1, mprotect(t, p, PROT_READ | PROT_WRITE));
	EXPECT_EQ(EACCES, errno);
	EXPECT_EQ(-1, mprotect(t, p, PROT_READ | PROT_EXEC));
	EXPECT_EQ(EACCES, errno);
	munmap(t, p);
	/* mremap cannot grow a view */
	ASSERT_EQ(0, ng_kbuf_map_view(&b, 0, &a));
	EXPECT_EQ(MAP_FAILED, mremap(a, b.size, b.size + p, 0));

	/* query */
	q.entries = (uintptr_t)loc;
	EXPECT_EQ(-1, ioctl(b.fd, NUMAGPU_BUF_IOC_QUERY, &q));
	EXPECT_EQ(EINVAL, errno);
	q.npages = 4;
	q.flags = 1;
	EXPECT_EQ(-1, ioctl(b.fd, NUMAGPU_BUF_IOC_QUERY, &q));
	EXPECT_EQ(EINVAL, errno);
	q.flags = 0;
	q.first_page = npages - 3;
	EXPECT_EQ(-1, ioctl(b.fd, NUMAGPU_BUF_IOC_QUERY, &q));
	EXPECT_EQ(EINVAL, errno);
	q.first_page = ~0ULL;
	EXPECT_EQ(-1, ioctl(b.fd, NUMAGPU_BUF_IOC_QUERY, &q));
	EXPECT_EQ(EINVAL, errno);
	q.first_page = 0;
	q.npages = NUMAGPU_QUERY_MAX + 1;
	EXPECT_EQ(-1, ioctl(b.fd, NUMAGPU_BUF_IOC_QUERY, &q));
	EXPECT_EQ(E2BIG, errno);
	q.npages = 4;
	q.entries = 8;
	EXPECT_EQ(-1, ioctl(b.fd, NUMAGPU_BUF_IOC_QUERY, &q));
	EXPECT_EQ(EFAULT, errno);
	q.entries = (uintptr_t)loc;
	EXPECT_EQ(0, ioctl(b.fd, NUMAGPU_BUF_IOC_QUERY, &q));

	/* set mode */
	m.npages = self->ngpus;
	m.mode = NUMAGPU_MODE_COUNT;
	EXPECT_EQ(-1, ioctl(b.fd, NUMAGPU_BUF_IOC_SET_MODE, &m));
	EXPECT_EQ(EINVAL, errno);
	m.mode = NUMAGPU_MODE_FGP;
	m.reserved[0] = 1;
	EXPECT_EQ(-1, ioctl(b.fd, NUMAGPU_BUF_IOC_SET_MODE, &m));
	EXPECT_EQ(EINVAL, errno);
	m.reserved[0] = 0;
	m.npages = 0;
	EXPECT_EQ(-1, ioctl(b.fd, NUMAGPU_BUF_IOC_SET_MODE, &m));
	EXPECT_EQ(EINVAL, errno);
	m.npages = ~0ULL;
	EXPECT_EQ(-1, ioctl(b.fd, NUMAGPU_BUF_IOC_SET_MODE, &m));
	EXPECT_EQ(EINVAL, errno);
	m.first_page = npages;
	m.npages = self->ngpus;
	EXPECT_EQ(-1, ioctl(b.fd, NUMAGPU_BUF_IOC_SET_MODE, &m));
	EXPECT_EQ(EINVAL, errno);
	m.first_page = 0;
	m.mode = NUMAGPU_MODE_CGP;
	m.target = self->ngpus;
	EXPECT_EQ(-1, ioctl(b.fd, NUMAGPU_BUF_IOC_SET_MODE, &m));
	EXPECT_EQ(EINVAL, errno);
	m.target = 0;
	EXPECT_EQ(0, ioctl(b.fd, NUMAGPU_BUF_IOC_SET_MODE, &m));
	EXPECT_EQ(-1, ioctl(b.fd, NUMAGPU_BUF_IOC_SET_MODE, NULL));
	EXPECT_EQ(EFAULT, errno);

	/* unknown commands, and device commands on a buffer */
	EXPECT_EQ(-1, ioctl(b.fd, NUMAGPU_IOC_GET_TOPOLOGY, &self->topo));
	EXPECT_EQ(ENOTTY, errno);
	EXPECT_EQ(-1, ioctl(b.fd, _IO(NUMAGPU_IOC_MAGIC, 0x13)));
	EXPECT_EQ(ENOTTY, errno);
	EXPECT_EQ(-1, ioctl(self->dev, NUMAGPU_BUF_IOC_STATS, &q));
	EXPECT_EQ(ENOTTY, errno);
	ng_kbuf_destroy(&b);
}

/* The module's counters in debugfs agree with the ioctl. */
TEST_F(buf, debugfs_counters)
{
	const char *f = "/sys/kernel/debug/numagpu/pages_held";
	struct numagpu_buf_create c = {
		.size = 8 * self->page, .mode = NUMAGPU_MODE_FGP,
	};
	char text[4096], want[64];
	struct ng_kbuf b;
	char *v;

	if (access(f, R_OK))
		mount("debugfs", "/sys/kernel/debug", "debugfs", 0, NULL);
	if (access(f, R_OK))
		SKIP(return, "no debugfs");
	ASSERT_EQ(0, ng_kbuf_create(&b, self->dev, &c));
	ASSERT_EQ(0, ng_kbuf_map_view(&b, 0, (void **)&v));
	for (int i = 0; i < 8; i++)
		v[i * self->page] = 1;
	ASSERT_EQ(0, read_text(f, text, sizeof(text)));
	snprintf(want, sizeof(want), "%lld", numagpu_pages_held());
	EXPECT_STREQ(want, text);
	EXPECT_STREQ("8", text);
	ASSERT_EQ(0, read_text("/sys/kernel/debug/numagpu/stats", text,
			       sizeof(text)));
	EXPECT_NE(NULL, strstr(text, "buffers 1\n"));
	EXPECT_NE(NULL, strstr(text, "pages_held 8\n"));
	ng_kbuf_destroy(&b);
	ASSERT_EQ(0, read_text(f, text, sizeof(text)));
	EXPECT_STREQ("0", text);
}

/* ---------------------------------------------------------------------- */
/* Fuzz: random commands with random arguments on the device and buffers. */

static uint64_t rnd_state = 0x9e3779b97f4a7c15ULL;

static uint64_t rnd(void)
{
	rnd_state ^= rnd_state << 13;
	rnd_state ^= rnd_state >> 7;
	rnd_state ^= rnd_state << 17;
	return rnd_state;
}

/* Mostly small and interesting values, sometimes anything. */
static uint64_t rnd_val(long page, unsigned int ngpus)
{
	switch (rnd() % 8) {
	case 0: return rnd();
	case 1: return rnd() % 8;
	case 2: return (rnd() % 64) * page;
	case 3: return (rnd() % 16) * page * ngpus;
	case 4: return ~0ULL - rnd() % 4;
	case 5: return 1ULL << (rnd() % 64);
	case 6: return rnd() % 70000;
	default: return 0;
	}
}

TEST_F(buf, fuzz_ioctls)
{
	static const unsigned long cmds[] = {
		NUMAGPU_IOC_GET_TOPOLOGY, NUMAGPU_IOC_BUF_CREATE,
		NUMAGPU_IOC_GET_STATS, NUMAGPU_BUF_IOC_SET_MODE,
		NUMAGPU_BUF_IOC_QUERY, NUMAGPU_BUF_IOC_STATS,
		_IOWR(NUMAGPU_IOC_MAGIC, 0x10, struct numagpu_buf_mode),
		_IO(NUMAGPU_IOC_MAGIC, 0x11), 0,
	};
	void *const bad[] = {
		NULL, (void *)1, (void *)-4096L, (void *)0xffffffff81000000UL,
	};
	long taint0 = numagpu_tainted(), taint1;
	int fds[8], nfds = 0, created = 0, calls = 0;
	char *scratch = malloc(1 << 20);
	long p = self->page;

	ASSERT_NE(NULL, scratch);
	ASSERT_LE(0, taint0);
	for (int i = 0; i < 12000; i++) {
		/* larger than any argument: topology is 2.7 KiB */
		uint64_t arg[512];
		unsigned long cmd = cmds[rnd() % (sizeof(cmds) / sizeof(cmds[0]))];
		int fd = self->dev, ret;
		void *ptr = arg;

		for (size_t k = 0; k < sizeof(arg) / sizeof(arg[0]); k++)
			arg[k] = rnd_val(p, self->ngpus);
		/* plausible structs half of the time */
		if (rnd() % 2) {
			arg[1] &= 0xffffffff00000000ULL | (rnd() % 6);
			arg[1] &= ~(0xfffffffeULL << 32);
			arg[2] = rnd() % 2 ? arg[2] % (self->ngpus + 1) : arg[2];
			arg[3] = rnd() % 2 ? 0 : arg[3];
			arg[4] = arg[5] = 0;
			if (rnd() % 2)
				arg[0] = (rnd() % 256 + 1) * p;
		}
		if (cmd == NUMAGPU_BUF_IOC_QUERY) {
			/* never a pointer into this process's other memory */
			struct numagpu_buf_query *q = (void *)arg;

			q->entries = rnd() % 4 ? (uintptr_t)scratch :
				     (uintptr_t)bad[rnd() % 4];
			if (rnd() % 2)
				q->npages %= (1 << 18);
		}
		if (rnd() % 16 == 0)
			ptr = bad[rnd() % 4];
		if (nfds && (cmd == NUMAGPU_BUF_IOC_SET_MODE ||
			     cmd == NUMAGPU_BUF_IOC_QUERY ||
			     cmd == NUMAGPU_BUF_IOC_STATS || rnd() % 4 == 0))
			fd = fds[rnd() % nfds];
		ret = ioctl(fd, cmd, ptr);
		calls++;
		if (ret >= 0 && cmd == NUMAGPU_IOC_BUF_CREATE &&
		    fd == self->dev) {
			created++;
			if (nfds == 8) {
				int k = rnd() % nfds;

				close(fds[k]);
				fds[k] = ret;
			} else {
				fds[nfds++] = ret;
			}
			/* touch a few pages through a random view */
			{
				struct numagpu_buf_create *c = (void *)arg;
				size_t len = c->size < (__u64)(64 * p) ?
					     c->size : (size_t)(64 * p);
				char *v = mmap(NULL, len, PROT_READ | PROT_WRITE,
					       MAP_SHARED, ret,
					       NUMAGPU_VIEW_OFFSET(rnd() %
							self->ngpus));

				if (v != MAP_FAILED) {
					for (size_t o = 0; o < len; o += 3 * p)
						if (rnd() % 2)
							v[o] = 1;
					munmap(v, len);
				}
			}
		}
	}
	for (int k = 0; k < nfds; k++)
		close(fds[k]);
	free(scratch);
	TH_LOG("%d ioctls, %d buffers created", calls, created);
	EXPECT_LE(10000, calls);
	EXPECT_LT(0, created);
	EXPECT_EQ(0, numagpu_wait_pages_zero(2000));
	taint1 = numagpu_tainted();
	EXPECT_EQ(taint0, taint1);
	EXPECT_EQ(0, taint1 & ~NUMAGPU_TAINT_OK);
}

int main(int argc, char **argv)
{
	numagpu_require_device();
	return test_harness_run(argc, argv);
}
