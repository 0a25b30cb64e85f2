// SPDX-License-Identifier: GPL-2.0
/*
 * Buffers: the device memory of the emulated GPUs. Creation (checked
 * arguments, metadata), release, the placement-mode and ioctl entry
 * points. The design and the lock order are in numagpu_buffer.h.
 */
#include <linux/fs.h>
#include <linux/mm.h>
#include <linux/module.h>
#include <linux/moduleparam.h>
#include <linux/mutex.h>
#include <linux/percpu.h>
#include <linux/sched/signal.h>
#include <linux/slab.h>
#include <linux/uaccess.h>
#include <linux/vmalloc.h>
#include <linux/workqueue.h>

#include "numagpu.h"
#include "numagpu_buffer.h"
#include "numagpu_compat.h"

#define CREATE_TRACE_POINTS
#include "numagpu_trace.h"

static unsigned long max_buffer_pages = 1UL << 20;
module_param(max_buffer_pages, ulong, 0644);
MODULE_PARM_DESC(max_buffer_pages,
		 "Most pages one buffer may hold (default 1048576, 4 GiB)");

/* Creation numbers: one atomic step, so two creations never share one */
static atomic64_t numagpu_next_id = ATOMIC64_INIT(0);

static void numagpu_buffer_free(struct numagpu_buffer *buf)
{
	unsigned long i;
	unsigned int g;

	/* release: no VMA is left, the work items are the last users */
	numagpu_automigrate_stop(buf);
	if (buf->reps) {
		for (i = 0; i < buf->npages; i++) {
			if (!buf->reps[i])
				continue;
			for (g = 0; g < buf->sys->ngpus; g++) {
				struct page *rep = buf->reps[i][g];

				if (!rep)
					continue;
				numagpu_count_node(numagpu_node_pages,
						   page_to_nid(rep), -1);
				numagpu_dev_add(pages_held, -1);
				numagpu_dev_add(replica_pages, -1);
				numagpu_dev_inc(pages_freed);
				put_page(rep);
			}
			kfree(buf->reps[i]);
		}
	}
	if (buf->pages) {
		for (i = 0; i < buf->npages; i++) {
			struct page *page = buf->pages[i];
			int nid;

			if (!page)
				continue;
			nid = page_to_nid(page);
			numagpu_count_node(numagpu_node_pages, nid, -1);
			numagpu_dev_add(pages_held, -1);
			numagpu_dev_inc(pages_freed);
			put_page(page);
			if (!(i % 4096))
				cond_resched();
		}
	}
	numagpu_account_release(buf);
	vfree(buf->loctab);
	kvfree(buf->reps);
	kvfree(buf->ps);
	kvfree(buf->policy);
	kvfree(buf->pages);
	free_percpu(buf->ctr);
	mutex_destroy(&buf->lock);
	kfree(buf);
	numagpu_dev_add(buffers, -1);
}

static int numagpu_buf_release(struct inode *inode, struct file *file)
{
	numagpu_buffer_free(file->private_data);
	return 0;
}

static long numagpu_buf_set_mode(struct numagpu_buffer *buf, void __user *arg)
{
	const struct numagpu_system *sys = buf->sys;
	struct numagpu_placement pl;
	struct numagpu_buf_mode m;
	unsigned long i, end;
	int err;

	if (copy_from_user(&m, arg, sizeof(m)))
		return -EFAULT;
	if (m.reserved[0] || m.reserved[1])
		return -EINVAL;
	if (!m.npages || m.first_page >= buf->npages ||
	    m.npages > buf->npages - m.first_page)
		return -EINVAL;
	end = m.first_page + m.npages;
	if (m.first_page % sys->ngpus ||
	    (m.npages % sys->ngpus && end != buf->npages))
		return -EINVAL;
	err = numagpu_placement_check(sys, m.mode, m.target, m.chunk, &pl);
	if (err)
		return err;

	/* the range is whole page groups: its pages are the groups' pages */
	mutex_lock(&buf->lock);
	for (i = m.first_page; i < end; i++) {
		if (buf->pages[i]) {
			mutex_unlock(&buf->lock);
			return -EBUSY;
		}
		/* nothing is changed yet: a killed caller may go */
		if (!(i % NUMAGPU_RESCHED_PAGES)) {
			if (fatal_signal_pending(current)) {
				mutex_unlock(&buf->lock);
				return -EINTR;
			}
			cond_resched();
		}
	}
	numagpu_loc_begin(buf);
	for (i = m.first_page; i < end; i++) {
		buf->policy[i] = numagpu_page_policy(sys, &pl, i);
		numagpu_loc_set(buf, i, NUMAGPU_LOC_NO_NODE,
				pl.mode << NUMAGPU_LOC_MODE_SHIFT |
				(buf->ps[i].hints & PS_READ_MOSTLY ?
				 NUMAGPU_LOC_READ_MOSTLY : 0));
		/* a whole buffer is up to 2^27 pages: let others run */
		if (!(i % NUMAGPU_RESCHED_PAGES))
			cond_resched();
	}
	numagpu_loc_end(buf);
	mutex_unlock(&buf->lock);
	numagpu_buf_inc(buf, mode_changes);
	return 0;
}

static long numagpu_buf_advise_ioctl(struct numagpu_buffer *buf,
				     void __user *arg)
{
	struct numagpu_buf_advise a;

	if (copy_from_user(&a, arg, sizeof(a)))
		return -EFAULT;
	if (a.reserved[0] || a.reserved[1])
		return -EINVAL;
	return numagpu_buf_advise(buf, a.first_page, a.npages, a.advice,
				  a.target);
}

static long numagpu_buf_migrate_ioctl(struct numagpu_buffer *buf,
				      void __user *arg)
{
	struct numagpu_buf_migrate m;
	u64 moved, skipped;
	int err;

	if (copy_from_user(&m, arg, sizeof(m)))
		return -EFAULT;
	if (m.reserved[0] || m.reserved[1] || m.moved || m.skipped)
		return -EINVAL;
	err = numagpu_buf_migrate(buf, m.first_page, m.npages, m.target,
				  m.flags, false, &moved, &skipped);
	m.moved = moved;
	m.skipped = skipped;
	if (copy_to_user(arg, &m, sizeof(m)))
		return -EFAULT;
	return err;
}

static long numagpu_buf_ioctl(struct file *file, unsigned int cmd,
			      unsigned long arg)
{
	struct numagpu_buffer *buf = file->private_data;

	switch (cmd) {
	case NUMAGPU_BUF_IOC_SET_MODE:
		return numagpu_buf_set_mode(buf, (void __user *)arg);
	case NUMAGPU_BUF_IOC_QUERY:
		return numagpu_buf_query(buf, (void __user *)arg);
	case NUMAGPU_BUF_IOC_STATS:
		return numagpu_buf_stats(buf, (void __user *)arg);
	case NUMAGPU_BUF_IOC_ADVISE:
		return numagpu_buf_advise_ioctl(buf, (void __user *)arg);
	case NUMAGPU_BUF_IOC_MIGRATE:
		return numagpu_buf_migrate_ioctl(buf, (void __user *)arg);
	default:
		return -ENOTTY;
	}
}

static const struct file_operations numagpu_buf_fops = {
	/* a buffer pins the module: rmmod fails while one exists */
	.owner = THIS_MODULE,
	.release = numagpu_buf_release,
	.mmap = numagpu_buf_mmap,
	.unlocked_ioctl = numagpu_buf_ioctl,
	.compat_ioctl = compat_ptr_ioctl,
	.uring_cmd = numagpu_buf_uring_cmd,
	.llseek = noop_llseek,
};

static int numagpu_buffer_init(struct numagpu_buffer *buf,
			       const struct numagpu_placement *pl)
{
	/* a memory cgroup at its limit fails them (no OOM kill): ENOMEM */
	const gfp_t gfp = GFP_KERNEL_ACCOUNT | __GFP_NOWARN |
			  __GFP_RETRY_MAYFAIL;
	size_t loctab_size;
	unsigned long i;
	u32 pol;

	buf->pages = kvcalloc(buf->npages, sizeof(*buf->pages), gfp);
	buf->policy = kvmalloc_array(buf->npages, sizeof(*buf->policy), gfp);
	buf->ps = kvcalloc(buf->npages, sizeof(*buf->ps), gfp);
	buf->reps = kvcalloc(buf->npages, sizeof(*buf->reps), gfp);
	loctab_size = PAGE_ALIGN(NUMAGPU_LOCTAB_SIZE(buf->npages));
	/* charged to the memory cgroup; mapped page by page (loctab.c) */
	buf->loctab = __vmalloc(loctab_size, gfp | __GFP_ZERO);
	if (!buf->pages || !buf->policy || !buf->loctab || !buf->ps ||
	    !buf->reps)
		return -ENOMEM;
	buf->loc = (void *)buf->loctab + sizeof(*buf->loctab);
	buf->loctab->npages = buf->npages;
	buf->loctab->ngpus = buf->sys->ngpus;
	buf->loctab->entry_size = sizeof(struct numagpu_loc);
	buf->loctab->entries_offset = sizeof(*buf->loctab);
	for (i = 0; i < buf->npages; i++) {
		pol = numagpu_page_policy(buf->sys, pl, i);
		buf->policy[i] = pol;
		buf->loc[i].node = NUMAGPU_LOC_NO_NODE;
		buf->loc[i].flags = pl->mode << NUMAGPU_LOC_MODE_SHIFT;
	}
	return 0;
}

long numagpu_buf_create(const struct numagpu_system *sys, void __user *arg)
{
	struct numagpu_buf_create c;
	struct numagpu_placement pl;
	struct numagpu_buffer *buf;
	unsigned long npages;
	int err, fd;

	if (copy_from_user(&c, arg, sizeof(c)))
		return -EFAULT;
	if (c.reserved || c.reserved2[0] || c.reserved2[1])
		return -EINVAL;
	if (c.flags & ~NUMAGPU_BUF_FLAGS_ALL)
		return -EINVAL;
	if (!c.size || !PAGE_ALIGNED(c.size) ||
	    c.size > (u64)NUMAGPU_MAX_PAGES << PAGE_SHIFT)
		return -EINVAL;
	npages = c.size >> PAGE_SHIFT;
	if (npages > READ_ONCE(max_buffer_pages))
		return -E2BIG;
	/* the metadata of a buffer larger than memory cannot be the problem */
	if (npages > totalram_pages())
		return -ENOMEM;
	err = numagpu_placement_check(sys, c.mode, c.target, c.chunk, &pl);
	if (err)
		return err;

	buf = kzalloc(sizeof(*buf), GFP_KERNEL_ACCOUNT);
	if (!buf)
		return -ENOMEM;
	buf->sys = sys;
	buf->npages = npages;
	buf->flags = c.flags;
	mutex_init(&buf->lock);
	numagpu_account_init(buf);
	numagpu_automigrate_init(buf);
	buf->id = atomic64_inc_return(&numagpu_next_id) - 1;
	numagpu_dev_inc(buffers);
	buf->ctr = alloc_percpu_gfp(struct numagpu_counters,
				    GFP_KERNEL_ACCOUNT);
	err = buf->ctr ? numagpu_buffer_init(buf, &pl) : -ENOMEM;
	if (err) {
		numagpu_buffer_free(buf);
		return err;
	}
	/* an inode of its own: its address_space maps this buffer only */
	fd = numagpu_anon_inode_fd("[numagpu-buffer]", &numagpu_buf_fops, buf,
				   O_RDWR | O_CLOEXEC);
	if (fd < 0) {
		numagpu_buffer_free(buf);
		return fd;
	}
	numagpu_dev_inc(buffers_created);
	return fd;
}
