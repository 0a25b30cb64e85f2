/* SPDX-License-Identifier: GPL-2.0 */
/*
 * kbuf: a thin wrapper of numagpu.ko's buffer API (see
 * include/uapi/linux/numagpu.h and Documentation/kmod.rst).
 *
 * A buffer is device memory owned by the module: created with a placement
 * mode, reached by each GPU through its own view (a mapping of the buffer
 * file at NUMAGPU_VIEW_OFFSET(gpu)), with a read-only location table that
 * gives every page's node and flags. Every view maps the same pages.
 *
 * Functions return 0 (or a count) on success and a negative errno on
 * failure; they never print. A struct ng_kbuf is used by one thread at a
 * time for create/map/unmap/destroy; the views, ng_kbuf_loctab_read(),
 * queries and counters may be used from any thread.
 */
#ifndef NGEMU_KBUF_H
#define NGEMU_KBUF_H

#include <stddef.h>
#include <stdint.h>

#include <linux/numagpu.h>

/**
 * struct ng_kbuf - one buffer of numagpu.ko, as mapped by this process
 * @fd:       the buffer's file descriptor (close-on-exec)
 * @size:     bytes
 * @npages:   pages of the kernel's page size
 * @ngpus:    GPUs of the module, the page group size
 * @view:     GPU g's mapping of the whole buffer, NULL until mapped
 * @loctab:   the location table, mapped read-only by ng_kbuf_create()
 * @loctab_len: bytes of the @loctab mapping
 */
struct ng_kbuf {
	int fd;
	size_t size;
	size_t npages;
	unsigned int ngpus;
	void *view[NUMAGPU_MAX_GPUS];
	const struct numagpu_loctab_header *loctab;
	size_t loctab_len;
};

/* Open the module's device (NULL: NUMAGPU_DEVICE_PATH); fd or -errno. */
int ng_kbuf_open_device(const char *path);

/*
 * Create a buffer through the device @devfd and map its location table.
 * @args as for NUMAGPU_IOC_BUF_CREATE. On failure @b is left closed
 * (fd -1) and nothing leaks.
 */
int ng_kbuf_create(struct ng_kbuf *b, int devfd,
		   const struct numagpu_buf_create *args);

/*
 * Unmap every view and the table and close the fd; the buffer's pages are
 * freed when no other process holds it. Safe on a closed ng_kbuf.
 */
void ng_kbuf_destroy(struct ng_kbuf *b);

/* Map GPU @gpu's view of the whole buffer (read/write); *@addr gets it. */
int ng_kbuf_map_view(struct ng_kbuf *b, unsigned int gpu, void **addr);
int ng_kbuf_unmap_view(struct ng_kbuf *b, unsigned int gpu);

/*
 * Copy entries [@first, @first + @n) of the location table into @out,
 * consistently (retrying while the kernel updates it, via its seq
 * counter). No system call.
 */
int ng_kbuf_loctab_read(const struct ng_kbuf *b, size_t first, size_t n,
			struct numagpu_loc *out);

/* Change the mode of whole page groups (EBUSY if any page exists). */
int ng_kbuf_set_mode(const struct ng_kbuf *b, uint64_t first_page,
		     uint64_t npages, uint32_t mode, uint32_t target,
		     uint64_t chunk);

/* The kernel's answer for pages [@first, @first + @n), n <= QUERY_MAX. */
int ng_kbuf_query(const struct ng_kbuf *b, size_t first, size_t n,
		  struct numagpu_loc *out);

/* Counters of the buffer, and of the whole module through @devfd. */
int ng_kbuf_stats(const struct ng_kbuf *b, struct numagpu_buf_stats *st);
int ng_kbuf_dev_stats(int devfd, struct numagpu_dev_stats *st);

/*
 * Hints on pages [@first_page, @first_page + @npages): @advice is a
 * NUMAGPU_ADVISE_* (read-mostly: replicate on read; preferred: allocate on
 * GPU @target; accessed-by: view @target maps remotely), @target a GPU
 * index for PREFERRED and (UNSET_)ACCESSED_BY, else 0.
 */
int ng_kbuf_advise(const struct ng_kbuf *b, uint64_t first_page,
		   uint64_t npages, uint32_t advice, uint32_t target);

/*
 * Move pages to NUMA node @target (or GPU @target with NUMAGPU_MIGRATE_GPU
 * in @flags). *@moved (may be NULL) gets the pages moved. Pinned pages are
 * left where they are.
 */
int ng_kbuf_migrate(const struct ng_kbuf *b, uint64_t first_page,
		    uint64_t npages, uint32_t target, uint32_t flags,
		    uint64_t *moved);

/* Prefetch to GPU @gpu: move the range there, allocating absent pages. */
int ng_kbuf_prefetch(const struct ng_kbuf *b, uint64_t first_page,
		     uint64_t npages, unsigned int gpu, uint64_t *moved);

/*
 * io_uring batches: fill @sqe (a struct io_uring_sqe from
 * <linux/io_uring.h>, e.g. from liburing's io_uring_get_sqe()) with the
 * NUMAGPU_URING_* command @op on buffer @b. liburing 2.3 has no uring_cmd
 * helper; this is it. The completion's res is the command's result (see
 * numagpu.h). @arg and @arg2 as in struct numagpu_uring_cmd.
 */
struct io_uring_sqe;
void ng_kbuf_uring_prep(struct io_uring_sqe *sqe, const struct ng_kbuf *b,
			uint32_t op, uint64_t first_page, uint32_t npages,
			uint16_t arg, uint16_t arg2);

/* "first-touch", "fgp", "cgp", "cgp-chunk", "host"; NULL if unknown. */
const char *ng_kbuf_mode_name(uint32_t mode);
/* Parse a mode name; -EINVAL when it is none of them. */
int ng_kbuf_mode_parse(const char *name);

#endif /* NGEMU_KBUF_H */
