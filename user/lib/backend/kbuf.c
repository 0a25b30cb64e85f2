// SPDX-License-Identifier: GPL-2.0
/* kbuf: numagpu.ko's buffers, views and location table (see kbuf.h). */
#include <errno.h>
#include <fcntl.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/mman.h>
#include <unistd.h>

#include <linux/io_uring.h>

#include "ngemu/backend/kbuf.h"

static const char *const mode_names[NUMAGPU_MODE_COUNT] = {
	[NUMAGPU_MODE_FIRST_TOUCH] = "first-touch",
	[NUMAGPU_MODE_FGP] = "fgp",
	[NUMAGPU_MODE_CGP] = "cgp",
	[NUMAGPU_MODE_CGP_CHUNK] = "cgp-chunk",
	[NUMAGPU_MODE_HOST] = "host",
};

const char *ng_kbuf_mode_name(uint32_t mode)
{
	return mode < NUMAGPU_MODE_COUNT ? mode_names[mode] : NULL;
}

int ng_kbuf_mode_parse(const char *name)
{
	if (!name)
		return -EINVAL;
	for (int i = 0; i < NUMAGPU_MODE_COUNT; i++)
		if (!strcmp(name, mode_names[i]))
			return i;
	return -EINVAL;
}

int ng_kbuf_open_device(const char *path)
{
	int fd = open(path ? path : NUMAGPU_DEVICE_PATH, O_RDWR | O_CLOEXEC);

	return fd < 0 ? -errno : fd;
}

static void kbuf_reset(struct ng_kbuf *b)
{
	memset(b, 0, sizeof(*b));
	b->fd = -1;
}

int ng_kbuf_create(struct ng_kbuf *b, int devfd,
		   const struct numagpu_buf_create *args)
{
	struct numagpu_buf_create c;
	long page = sysconf(_SC_PAGESIZE);
	void *t;
	int fd;

	if (!b)
		return -EINVAL;
	kbuf_reset(b);
	if (!args || devfd < 0 || page <= 0)
		return -EINVAL;
	c = *args;
	fd = ioctl(devfd, NUMAGPU_IOC_BUF_CREATE, &c);
	if (fd < 0)
		return -errno;
	b->fd = fd;
	b->size = c.size;
	b->npages = c.size / (size_t)page;
	b->loctab_len = (NUMAGPU_LOCTAB_SIZE(b->npages) + page - 1) &
			~(uint64_t)(page - 1);
	t = mmap(NULL, b->loctab_len, PROT_READ, MAP_SHARED, fd,
		 NUMAGPU_LOCTAB_OFFSET);
	if (t == MAP_FAILED) {
		int err = -errno;

		close(fd);
		kbuf_reset(b);
		return err;
	}
	b->loctab = t;
	b->ngpus = b->loctab->ngpus;
	return 0;
}

void ng_kbuf_destroy(struct ng_kbuf *b)
{
	if (!b)
		return;
	for (unsigned int g = 0; g < NUMAGPU_MAX_GPUS; g++)
		if (b->view[g])
			munmap(b->view[g], b->size);
	if (b->loctab)
		munmap((void *)b->loctab, b->loctab_len);
	if (b->fd >= 0)
		close(b->fd);
	kbuf_reset(b);
}

int ng_kbuf_map_view(struct ng_kbuf *b, unsigned int gpu, void **addr)
{
	void *p;

	if (!b || !addr || b->fd < 0 || gpu >= b->ngpus)
		return -EINVAL;
	if (!b->view[gpu]) {
		p = mmap(NULL, b->size, PROT_READ | PROT_WRITE, MAP_SHARED,
			 b->fd, NUMAGPU_VIEW_OFFSET(gpu));
		if (p == MAP_FAILED)
			return -errno;
		b->view[gpu] = p;
	}
	*addr = b->view[gpu];
	return 0;
}

int ng_kbuf_unmap_view(struct ng_kbuf *b, unsigned int gpu)
{
	if (!b || gpu >= NUMAGPU_MAX_GPUS || !b->view[gpu])
		return -EINVAL;
	if (munmap(b->view[gpu], b->size))
		return -errno;
	b->view[gpu] = NULL;
	return 0;
}

int ng_kbuf_loctab_read(const struct ng_kbuf *b, size_t first, size_t n,
			struct numagpu_loc *out)
{
	const struct numagpu_loc *e;
	uint32_t s1, s2;

	if (!b || !b->loctab || !out || first > b->npages ||
	    n > b->npages - first)
		return -EINVAL;
	e = (const void *)((const char *)b->loctab +
			   b->loctab->entries_offset);
	do {
		s1 = __atomic_load_n(&b->loctab->seq, __ATOMIC_ACQUIRE);
		if (s1 & 1)
			continue;
		memcpy(out, e + first, n * sizeof(*out));
		/* the copy completes before seq is read again */
		__atomic_thread_fence(__ATOMIC_ACQUIRE);
		s2 = __atomic_load_n(&b->loctab->seq, __ATOMIC_RELAXED);
		if (s1 == s2)
			return 0;
	} while (1);
}

int ng_kbuf_set_mode(const struct ng_kbuf *b, uint64_t first_page,
		     uint64_t npages, uint32_t mode, uint32_t target,
		     uint64_t chunk)
{
	struct numagpu_buf_mode m = {
		.first_page = first_page, .npages = npages, .mode = mode,
		.target = target, .chunk = chunk,
	};

	if (!b || b->fd < 0)
		return -EINVAL;
	return ioctl(b->fd, NUMAGPU_BUF_IOC_SET_MODE, &m) ? -errno : 0;
}

int ng_kbuf_query(const struct ng_kbuf *b, size_t first, size_t n,
		  struct numagpu_loc *out)
{
	struct numagpu_buf_query q = {
		.first_page = first, .npages = (uint32_t)n,
		.entries = (uintptr_t)out,
	};

	if (!b || b->fd < 0 || !out || !n)
		return -EINVAL;
	if (n > NUMAGPU_QUERY_MAX)
		return -E2BIG;
	return ioctl(b->fd, NUMAGPU_BUF_IOC_QUERY, &q) ? -errno : 0;
}

int ng_kbuf_stats(const struct ng_kbuf *b, struct numagpu_buf_stats *st)
{
	if (!b || b->fd < 0 || !st)
		return -EINVAL;
	return ioctl(b->fd, NUMAGPU_BUF_IOC_STATS, st) ? -errno : 0;
}

int ng_kbuf_dev_stats(int devfd, struct numagpu_dev_stats *st)
{
	if (devfd < 0 || !st)
		return -EINVAL;
	return ioctl(devfd, NUMAGPU_IOC_GET_STATS, st) ? -errno : 0;
}

int ng_kbuf_advise(const struct ng_kbuf *b, uint64_t first_page,
		   uint64_t npages, uint32_t advice, uint32_t target)
{
	struct numagpu_buf_advise a = {
		.first_page = first_page, .npages = npages, .advice = advice,
		.target = target,
	};

	if (!b || b->fd < 0)
		return -EINVAL;
	return ioctl(b->fd, NUMAGPU_BUF_IOC_ADVISE, &a) ? -errno : 0;
}

int ng_kbuf_migrate(const struct ng_kbuf *b, uint64_t first_page,
		    uint64_t npages, uint32_t target, uint32_t flags,
		    uint64_t *moved)
{
	struct numagpu_buf_migrate m = {
		.first_page = first_page, .npages = npages, .target = target,
		.flags = flags,
	};

	if (!b || b->fd < 0)
		return -EINVAL;
	if (ioctl(b->fd, NUMAGPU_BUF_IOC_MIGRATE, &m))
		return -errno;
	if (moved)
		*moved = m.moved;
	return 0;
}

int ng_kbuf_prefetch(const struct ng_kbuf *b, uint64_t first_page,
		     uint64_t npages, unsigned int gpu, uint64_t *moved)
{
	return ng_kbuf_migrate(b, first_page, npages, gpu,
			       NUMAGPU_MIGRATE_PREFETCH, moved);
}

void ng_kbuf_uring_prep(struct io_uring_sqe *sqe, const struct ng_kbuf *b,
			uint32_t op, uint64_t first_page, uint32_t npages,
			uint16_t arg, uint16_t arg2)
{
	struct numagpu_uring_cmd c = {
		.first_page = first_page, .npages = npages, .arg = arg,
		.arg2 = arg2,
	};

	memset(sqe, 0, sizeof(*sqe));
	sqe->opcode = IORING_OP_URING_CMD;
	sqe->fd = b ? b->fd : -1;
	sqe->cmd_op = op;
	memcpy(sqe->cmd, &c, sizeof(c));
}
