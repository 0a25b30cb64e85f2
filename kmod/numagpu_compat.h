/* SPDX-License-Identifier: GPL-2.0 */
/*
 * numagpu_compat.h - what differs between the kernel lines the module
 * builds for (Debian 12's 6.1 and 6.12 LTS). Every version test lives
 * here, so that the rest of the module is written once, against the
 * newest interface.
 */
#ifndef _NUMAGPU_COMPAT_H
#define _NUMAGPU_COMPAT_H

#include <linux/anon_inodes.h>
#include <linux/file.h>
#include <linux/fs.h>
#include <linux/memcontrol.h>
#include <linux/mm.h>
#include <linux/version.h>

/* 6.8 moved struct io_uring_cmd out of <linux/io_uring.h> */
#if LINUX_VERSION_CODE >= KERNEL_VERSION(6, 8, 0)
#include <linux/io_uring/cmd.h>
#else
#include <linux/io_uring.h>
#endif

/* 6.3 made vma->vm_flags read-only behind helpers that assert the lock */
static inline void numagpu_vm_flags_mod(struct vm_area_struct *vma,
					vm_flags_t set, vm_flags_t clear)
{
#if LINUX_VERSION_CODE >= KERNEL_VERSION(6, 3, 0)
	vm_flags_mod(vma, set, clear);
#else
	vma->vm_flags = (vma->vm_flags | set) & ~clear;
#endif
}

/* 6.5 dropped io_uring_cmd->cmd for io_uring_sqe_cmd(ioucmd->sqe) */
static inline const void *numagpu_uring_cmd_payload(struct io_uring_cmd *c)
{
#if LINUX_VERSION_CODE >= KERNEL_VERSION(6, 5, 0)
	return io_uring_sqe_cmd(c->sqe);
#else
	return c->cmd;
#endif
}

/*
 * Complete a uring command with result @res >= 0 and tell io_uring so.
 * 6.1 takes a positive value returned by ->uring_cmd() for an error: issued
 * inline, io_queue_async() completes the request as failed (its CQE holds
 * the value, but the SQEs linked after it get -ECANCELED); in an io-wq
 * worker the value is dropped and the command never completes. Completing
 * it here and returning -EIOCBQUEUED is right on every kernel.
 */
static inline int numagpu_uring_cmd_complete(struct io_uring_cmd *c, int res,
					     unsigned int issue_flags)
{
	io_uring_cmd_done(c, res, 0, issue_flags);
	return -EIOCBQUEUED;
}

/* The memory cgroup a page is charged to (under rcu_read_lock()). */
static inline struct mem_cgroup *numagpu_page_memcg(struct page *page)
{
#ifdef CONFIG_MEMCG
	return folio_memcg(page_folio(page));
#else
	return NULL;
#endif
}

/* 6.12 counts a small page's mappings through its folio only */
static inline int numagpu_page_mapcount(struct page *page)
{
#if LINUX_VERSION_CODE >= KERNEL_VERSION(6, 9, 0)
	return folio_mapcount(page_folio(page));
#else
	return page_mapcount(page);
#endif
}

/*
 * An fd on a new anonymous inode of its own (its address_space maps one
 * buffer only). 6.8 stopped exporting anon_inode_getfd_secure(); its
 * replacement returns the file, installed here as the old call did.
 */
static inline int numagpu_anon_inode_fd(const char *name,
					const struct file_operations *fops,
					void *priv, int flags)
{
#if LINUX_VERSION_CODE >= KERNEL_VERSION(6, 8, 0)
	struct file *file;
	int fd;

	fd = get_unused_fd_flags(flags);
	if (fd < 0)
		return fd;
	file = anon_inode_create_getfile(name, fops, priv, flags, NULL);
	if (IS_ERR(file)) {
		put_unused_fd(fd);
		return PTR_ERR(file);
	}
	fd_install(fd, file);
	return fd;
#else
	return anon_inode_getfd_secure(name, fops, priv, flags, NULL);
#endif
}

#endif /* _NUMAGPU_COMPAT_H */
