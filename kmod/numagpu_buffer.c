// SPDX-License-Identifier: GPL-2.0
/*
 * Buffers: the device memory of the emulated GPUs.
 *
 * A buffer is an anonymous file with an inode (and address_space) of its
 * own, so that a later change can revoke one view's PTEs with
 * unmap_mapping_range(). Its pages are allocated on first fault, on the
 * node the page's placement mode names, and kept in a page array until the
 * file is released; every view maps the same physical page. A location
 * table (vmalloc_user(), mapped read-only) publishes each page's node and
 * flags under a sequence counter.
 *
 * Locking: buf->lock (a mutex) serialises installing pages, changing the
 * placement policy and writing the location table. Faults allocate outside
 * the lock and install under it; the loser of a race frees its page.
 * Readers of buf->pages[] outside the lock pair smp_load_acquire() with the
 * installer's smp_store_release(), so a page is zeroed before it is seen.
 */
#define pr_fmt(fmt) KBUILD_MODNAME ": " fmt

#include <linux/anon_inodes.h>
#include <linux/fs.h>
#include <linux/gfp.h>
#include <linux/mm.h>
#include <linux/module.h>
#include <linux/moduleparam.h>
#include <linux/mutex.h>
#include <linux/nodemask.h>
#include <linux/sched.h>
#include <linux/slab.h>
#include <linux/topology.h>
#include <linux/uaccess.h>
#include <linux/vmalloc.h>

#include "numagpu.h"

static unsigned long max_buffer_pages = 1UL << 20;
module_param(max_buffer_pages, ulong, 0644);
MODULE_PARM_DESC(max_buffer_pages,
		 "Most pages one buffer may hold (default 1048576, 4 GiB)");

#define NUMAGPU_VIEW_PGSHIFT	(NUMAGPU_VIEW_SHIFT - PAGE_SHIFT)
#define NUMAGPU_VIEW_PGMASK	((1UL << NUMAGPU_VIEW_PGSHIFT) - 1)
#define NUMAGPU_LOCTAB_PGOFF	(NUMAGPU_LOCTAB_OFFSET >> PAGE_SHIFT)
#define NUMAGPU_MAX_PAGES	(1UL << NUMAGPU_VIEW_PGSHIFT)

/* Per-page policy word: the node to allocate on (or NO_NODE: the view's). */
#define POL_NODE(p)		((p) & 0xffff)
#define POL_MODE(p)		((p) >> 16)
#define POL(mode, node)		(((u32)(mode) << 16) | (u32)(node))

#define NUMAGPU_GFP	(GFP_HIGHUSER | __GFP_ZERO | __GFP_THISNODE |	\
			 __GFP_ACCOUNT | __GFP_NOWARN | __GFP_NORETRY)

/* A placement mode with its arguments checked and resolved. */
struct numagpu_placement {
	u32 mode;
	int node;		/* CGP, HOST */
	unsigned long chunk;	/* CGP_CHUNK, in pages */
};

struct numagpu_buffer {
	const struct numagpu_system *sys;
	unsigned long npages;
	u32 flags;
	struct mutex lock;	/* pages[] installs, policy[], location table */
	struct page **pages;
	u32 *policy;
	struct numagpu_loctab_header *loctab;
	struct numagpu_loc *loc;
	atomic64_t populated;
	atomic64_t faults;
	atomic64_t first_touch_local;
	atomic64_t first_touch_remote;
	atomic64_t fallbacks;
	atomic64_t sigbus;
	atomic64_t races;
	atomic64_t mode_changes;
	atomic64_t view_faults[NUMAGPU_MAX_GPUS];
	atomic64_t node_faults[NUMAGPU_MAX_NODES];
	atomic64_t node_pages[NUMAGPU_MAX_NODES];
};

static bool numagpu_is_gpu_node(const struct numagpu_system *sys, int nid)
{
	unsigned int g;

	for (g = 0; g < sys->ngpus; g++)
		if (sys->node[g] == nid)
			return true;
	return false;
}

static int numagpu_host_node(const struct numagpu_system *sys, u32 target)
{
	int nid;

	if (target == NUMAGPU_HOST_AUTO) {
		for_each_node_state(nid, N_MEMORY)
			if (!numagpu_is_gpu_node(sys, nid))
				return nid;
		return -EINVAL;
	}
	if (target >= MAX_NUMNODES || target >= NUMAGPU_LOC_NO_NODE ||
	    !node_state(target, N_MEMORY))
		return -EINVAL;
	return target;
}

static int numagpu_placement_check(const struct numagpu_system *sys,
				   u32 mode, u32 target, u64 chunk,
				   struct numagpu_placement *pl)
{
	u64 group = (u64)sys->ngpus << PAGE_SHIFT;

	pl->mode = mode;
	pl->node = NUMAGPU_LOC_NO_NODE;
	pl->chunk = 0;
	switch (mode) {
	case NUMAGPU_MODE_FIRST_TOUCH:
	case NUMAGPU_MODE_FGP:
		if (target || chunk)
			return -EINVAL;
		return 0;
	case NUMAGPU_MODE_CGP:
		if (chunk || target >= sys->ngpus)
			return -EINVAL;
		pl->node = sys->node[target];
		return 0;
	case NUMAGPU_MODE_CGP_CHUNK:
		if (target || !chunk || chunk % group)
			return -EINVAL;
		pl->chunk = chunk >> PAGE_SHIFT;
		return 0;
	case NUMAGPU_MODE_HOST:
		if (chunk)
			return -EINVAL;
		pl->node = numagpu_host_node(sys, target);
		return pl->node < 0 ? pl->node : 0;
	default:
		return -EINVAL;
	}
}

static u32 numagpu_page_policy(const struct numagpu_system *sys,
			       const struct numagpu_placement *pl,
			       unsigned long idx)
{
	switch (pl->mode) {
	case NUMAGPU_MODE_FGP:
		return POL(pl->mode, sys->node[idx % sys->ngpus]);
	case NUMAGPU_MODE_CGP_CHUNK:
		return POL(pl->mode, sys->node[(idx / pl->chunk) % sys->ngpus]);
	case NUMAGPU_MODE_CGP:
	case NUMAGPU_MODE_HOST:
		return POL(pl->mode, pl->node);
	default:
		return POL(pl->mode, NUMAGPU_LOC_NO_NODE);
	}
}

/* Writers hold buf->lock; the table is consistent while seq is even. */
static void numagpu_loc_begin(struct numagpu_buffer *buf)
{
	WRITE_ONCE(buf->loctab->seq, buf->loctab->seq + 1);
	/* odd seq before entries: pairs with the reader's smp_rmb() */
	smp_wmb();
}

static void numagpu_loc_end(struct numagpu_buffer *buf)
{
	/* entries before even seq: pairs with the reader's smp_rmb() */
	smp_wmb();
	WRITE_ONCE(buf->loctab->seq, buf->loctab->seq + 1);
}

static void numagpu_loc_set(struct numagpu_buffer *buf, unsigned long idx,
			    u16 node, u16 flags)
{
	WRITE_ONCE(buf->loc[idx].node, node);
	WRITE_ONCE(buf->loc[idx].flags, flags);
}

static struct page *numagpu_alloc_on(int nid)
{
	return alloc_pages_node(nid, NUMAGPU_GFP, 0);
}

/* The nearest other node with memory that has a free page, by distance. */
static struct page *numagpu_alloc_fallback(int nid, int *got)
{
	nodemask_t tried = NODE_MASK_NONE;
	struct page *page;
	int n, best;

	node_set(nid, tried);
	for (;;) {
		best = NUMA_NO_NODE;
		for_each_node_state(n, N_MEMORY) {
			if (node_isset(n, tried))
				continue;
			if (best == NUMA_NO_NODE ||
			    node_distance(nid, n) < node_distance(nid, best))
				best = n;
		}
		if (best == NUMA_NO_NODE)
			return NULL;
		node_set(best, tried);
		page = numagpu_alloc_on(best);
		if (page) {
			*got = best;
			return page;
		}
	}
}

static void numagpu_count_node(atomic64_t *arr, int nid, long delta)
{
	if (nid >= 0 && nid < NUMAGPU_MAX_NODES)
		atomic64_add(delta, &arr[nid]);
}

static vm_fault_t numagpu_buf_fault(struct vm_fault *vmf)
{
	struct numagpu_buffer *buf = vmf->vma->vm_file->private_data;
	unsigned long view = vmf->pgoff >> NUMAGPU_VIEW_PGSHIFT;
	unsigned long idx = vmf->pgoff & NUMAGPU_VIEW_PGMASK;
	int cpu_nid = numa_node_id();
	struct page *page, *cur;
	bool fallback;
	int want, got;
	u16 flags;
	u32 pol;

	if (view >= buf->sys->ngpus || idx >= buf->npages)
		return VM_FAULT_SIGBUS;
	atomic64_inc(&buf->faults);
	atomic64_inc(&numagpu_dev.faults);
	atomic64_inc(&buf->view_faults[view]);
	numagpu_count_node(buf->node_faults, cpu_nid, 1);

	/* pairs with smp_store_release() below: the page is zeroed */
	page = smp_load_acquire(&buf->pages[idx]);
	if (page)
		goto map;
retry:
	pol = READ_ONCE(buf->policy[idx]);
	want = POL_NODE(pol);
	if (want == NUMAGPU_LOC_NO_NODE)
		want = buf->sys->node[view];
	got = want;
	fallback = false;
	page = numagpu_alloc_on(want);
	if (!page && (buf->flags & NUMAGPU_BUF_FALLBACK)) {
		page = numagpu_alloc_fallback(want, &got);
		fallback = !!page;
	}
	if (!page) {
		atomic64_inc(&buf->sigbus);
		atomic64_inc(&numagpu_dev.sigbus);
		return VM_FAULT_SIGBUS;
	}
	atomic64_inc(&numagpu_dev.pages_allocated);

	mutex_lock(&buf->lock);
	cur = buf->pages[idx];
	if (cur || buf->policy[idx] != pol) {
		/* another fault won, or the mode changed under us */
		mutex_unlock(&buf->lock);
		put_page(page);
		atomic64_inc(&numagpu_dev.pages_freed);
		atomic64_inc(&buf->races);
		if (!cur)
			goto retry;
		page = cur;
		goto map;
	}
	flags = NUMAGPU_LOC_POPULATED | POL_MODE(pol) << NUMAGPU_LOC_MODE_SHIFT;
	if (fallback)
		flags |= NUMAGPU_LOC_FALLBACK;
	numagpu_loc_begin(buf);
	numagpu_loc_set(buf, idx, got, flags);
	numagpu_loc_end(buf);
	/* publish a zeroed page: pairs with smp_load_acquire() above */
	smp_store_release(&buf->pages[idx], page);
	mutex_unlock(&buf->lock);

	atomic64_inc(&buf->populated);
	atomic64_inc(&numagpu_dev.pages_held);
	numagpu_count_node(buf->node_pages, got, 1);
	numagpu_count_node(numagpu_dev.node_pages, got, 1);
	if (got == cpu_nid) {
		atomic64_inc(&buf->first_touch_local);
		atomic64_inc(&numagpu_dev.first_touch_local);
	} else {
		atomic64_inc(&buf->first_touch_remote);
		atomic64_inc(&numagpu_dev.first_touch_remote);
	}
	if (fallback) {
		atomic64_inc(&buf->fallbacks);
		atomic64_inc(&numagpu_dev.fallbacks);
	}
map:
	/* the PTE's reference; the buffer keeps its own until release */
	get_page(page);
	vmf->page = page;
	return 0;
}

static const struct vm_operations_struct numagpu_buf_vm_ops = {
	.fault = numagpu_buf_fault,
};

static int numagpu_buf_mmap(struct file *file, struct vm_area_struct *vma)
{
	struct numagpu_buffer *buf = file->private_data;
	unsigned long pgoff = vma->vm_pgoff, n = vma_pages(vma);
	unsigned long view = pgoff >> NUMAGPU_VIEW_PGSHIFT;
	unsigned long off = pgoff & NUMAGPU_VIEW_PGMASK;

	if (pgoff == NUMAGPU_LOCTAB_PGOFF) {
		if (vma->vm_flags & VM_WRITE)
			return -EPERM;
		vma->vm_flags &= ~(VM_MAYWRITE | VM_MAYEXEC);
		return remap_vmalloc_range(vma, buf->loctab, 0);
	}
	if (!(vma->vm_flags & VM_SHARED))
		return -EINVAL;
	if (view >= buf->sys->ngpus || off >= buf->npages ||
	    n > buf->npages - off)
		return -EINVAL;
	vma->vm_flags |= VM_DONTEXPAND | VM_DONTDUMP;
	vma->vm_ops = &numagpu_buf_vm_ops;
	return 0;
}

static void numagpu_buffer_free(struct numagpu_buffer *buf)
{
	unsigned long i;

	if (buf->pages) {
		for (i = 0; i < buf->npages; i++) {
			struct page *page = buf->pages[i];
			int nid;

			if (!page)
				continue;
			nid = page_to_nid(page);
			numagpu_count_node(numagpu_dev.node_pages, nid, -1);
			atomic64_dec(&numagpu_dev.pages_held);
			atomic64_inc(&numagpu_dev.pages_freed);
			put_page(page);
			if (!(i % 4096))
				cond_resched();
		}
	}
	vfree(buf->loctab);
	kvfree(buf->policy);
	kvfree(buf->pages);
	mutex_destroy(&buf->lock);
	kfree(buf);
	atomic64_dec(&numagpu_dev.buffers);
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
	}
	numagpu_loc_begin(buf);
	for (i = m.first_page; i < end; i++) {
		buf->policy[i] = numagpu_page_policy(sys, &pl, i);
		numagpu_loc_set(buf, i, NUMAGPU_LOC_NO_NODE,
				pl.mode << NUMAGPU_LOC_MODE_SHIFT);
	}
	numagpu_loc_end(buf);
	mutex_unlock(&buf->lock);
	atomic64_inc(&buf->mode_changes);
	return 0;
}

static long numagpu_buf_query(struct numagpu_buffer *buf, void __user *arg)
{
	struct numagpu_buf_query q;
	struct numagpu_loc *tmp;
	size_t bytes;
	long ret = 0;

	if (copy_from_user(&q, arg, sizeof(q)))
		return -EFAULT;
	if (q.flags || !q.npages)
		return -EINVAL;
	if (q.npages > NUMAGPU_QUERY_MAX)
		return -E2BIG;
	if (q.first_page >= buf->npages || q.npages > buf->npages - q.first_page)
		return -EINVAL;
	bytes = (size_t)q.npages * sizeof(*tmp);
	tmp = kvmalloc(bytes, GFP_KERNEL);
	if (!tmp)
		return -ENOMEM;
	mutex_lock(&buf->lock);
	memcpy(tmp, &buf->loc[q.first_page], bytes);
	mutex_unlock(&buf->lock);
	if (copy_to_user(u64_to_user_ptr(q.entries), tmp, bytes))
		ret = -EFAULT;
	kvfree(tmp);
	return ret;
}

static long numagpu_buf_stats(struct numagpu_buffer *buf, void __user *arg)
{
	struct numagpu_buf_stats *st;
	long ret = 0;
	int i;

	st = kzalloc(sizeof(*st), GFP_KERNEL);
	if (!st)
		return -ENOMEM;
	st->npages = buf->npages;
	st->populated = atomic64_read(&buf->populated);
	st->faults = atomic64_read(&buf->faults);
	st->first_touch_local = atomic64_read(&buf->first_touch_local);
	st->first_touch_remote = atomic64_read(&buf->first_touch_remote);
	st->fallbacks = atomic64_read(&buf->fallbacks);
	st->sigbus = atomic64_read(&buf->sigbus);
	st->races = atomic64_read(&buf->races);
	st->mode_changes = atomic64_read(&buf->mode_changes);
	for (i = 0; i < NUMAGPU_MAX_GPUS; i++)
		st->view_faults[i] = atomic64_read(&buf->view_faults[i]);
	for (i = 0; i < NUMAGPU_MAX_NODES; i++) {
		st->node_faults[i] = atomic64_read(&buf->node_faults[i]);
		st->node_pages[i] = atomic64_read(&buf->node_pages[i]);
	}
	if (copy_to_user(arg, st, sizeof(*st)))
		ret = -EFAULT;
	kfree(st);
	return ret;
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
	.llseek = noop_llseek,
};

static int numagpu_buffer_init(struct numagpu_buffer *buf,
			       const struct numagpu_placement *pl)
{
	const gfp_t gfp = GFP_KERNEL_ACCOUNT | __GFP_NOWARN;
	size_t loctab_size;
	unsigned long i;
	u32 pol;

	buf->pages = kvcalloc(buf->npages, sizeof(*buf->pages), gfp);
	buf->policy = kvmalloc_array(buf->npages, sizeof(*buf->policy), gfp);
	loctab_size = PAGE_ALIGN(NUMAGPU_LOCTAB_SIZE(buf->npages));
	buf->loctab = vmalloc_user(loctab_size);
	if (!buf->pages || !buf->policy || !buf->loctab)
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

long numagpu_buffer_create(const struct numagpu_system *sys, void __user *arg)
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
	atomic64_inc(&numagpu_dev.buffers);
	err = numagpu_buffer_init(buf, &pl);
	if (err) {
		numagpu_buffer_free(buf);
		return err;
	}
	/* an inode of its own: its address_space maps this buffer only */
	fd = anon_inode_getfd_secure("[numagpu-buffer]", &numagpu_buf_fops, buf,
				     O_RDWR | O_CLOEXEC, NULL);
	if (fd < 0) {
		numagpu_buffer_free(buf);
		return fd;
	}
	atomic64_inc(&numagpu_dev.buffers_created);
	return fd;
}
