// SPDX-License-Identifier: GPL-2.0
/*
 * The location table: each page's node and flags, published to user space
 * (mapped read-only) under a sequence counter, and read back by ioctl and
 * io_uring.
 */
#include <linux/bug.h>
#include <linux/lockdep.h>
#include <linux/mm.h>
#include <linux/mutex.h>
#include <linux/uaccess.h>
#include <linux/vmalloc.h>

#include "numagpu.h"
#include "numagpu_buffer.h"
#include "numagpu_compat.h"

/*
 * Writers hold buf->lock; the table is consistent while seq is even. A
 * section may open inside another (a migration's publish pins a thrashing
 * page, which updates its flags): only the outermost moves seq, or seq
 * would be even in the middle of the outer update.
 */
void numagpu_loc_begin(struct numagpu_buffer *buf)
{
	lockdep_assert_held(&buf->lock);
	if (buf->loc_depth++)
		return;
	WARN_ON_ONCE(buf->loctab->seq & 1);
	WRITE_ONCE(buf->loctab->seq, buf->loctab->seq + 1);
	/* odd seq before entries: pairs with the reader's smp_rmb() */
	smp_wmb();
}

void numagpu_loc_end(struct numagpu_buffer *buf)
{
	lockdep_assert_held(&buf->lock);
	if (WARN_ON_ONCE(!buf->loc_depth) || --buf->loc_depth)
		return;
	/* entries before even seq: pairs with the reader's smp_rmb() */
	smp_wmb();
	WRITE_ONCE(buf->loctab->seq, buf->loctab->seq + 1);
}

void numagpu_loc_set(struct numagpu_buffer *buf, unsigned long idx,
		     u16 node, u16 flags)
{
	lockdep_assert_held(&buf->lock);
	WRITE_ONCE(buf->loc[idx].node, node);
	WRITE_ONCE(buf->loc[idx].flags, flags);
}

/* Locked: recompute the table flags that follow the page's state. */
void numagpu_loc_update(struct numagpu_buffer *buf, unsigned long idx)
{
	struct numagpu_pstate *ps = &buf->ps[idx];
	u16 f = buf->loc[idx].flags;

	lockdep_assert_held(&buf->lock);
	f &= ~(NUMAGPU_LOC_REPLICATED | NUMAGPU_LOC_PINNED |
	       NUMAGPU_LOC_READ_MOSTLY |
	       (0xf << NUMAGPU_LOC_REPLICAS_SHIFT));
	if (ps->nreps)
		f |= NUMAGPU_LOC_REPLICATED |
		     min_t(u16, ps->nreps, 15) << NUMAGPU_LOC_REPLICAS_SHIFT;
	if (ps->pinned)
		f |= NUMAGPU_LOC_PINNED;
	if (ps->hints & PS_READ_MOSTLY)
		f |= NUMAGPU_LOC_READ_MOSTLY;
	if (f == buf->loc[idx].flags)
		return;
	numagpu_loc_begin(buf);
	WRITE_ONCE(buf->loc[idx].flags, f);
	numagpu_loc_end(buf);
}

long numagpu_buf_query(struct numagpu_buffer *buf, void __user *arg)
{
	struct numagpu_buf_query q;
	struct numagpu_loc *tmp;
	unsigned long i;
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
	for (i = q.first_page; i < q.first_page + q.npages; i++)
		if (buf->ps[i].pinned)
			numagpu_pinned(buf, i);	/* drop an expired pin */
	memcpy(tmp, &buf->loc[q.first_page], bytes);
	mutex_unlock(&buf->lock);
	if (copy_to_user(u64_to_user_ptr(q.entries), tmp, bytes))
		ret = -EFAULT;
	kvfree(tmp);
	return ret;
}

/*
 * One entry of the table, packed as the uring QUERY result; with @nowait,
 * -EAGAIN rather than wait for the buffer's lock.
 */
int numagpu_buf_query1(struct numagpu_buffer *buf, u64 idx, bool nowait)
{
	u16 flags;
	int ret;

	if (idx >= buf->npages)
		return -EINVAL;
	if (!nowait)
		mutex_lock(&buf->lock);
	else if (!mutex_trylock(&buf->lock))
		return -EAGAIN;
	numagpu_pinned(buf, idx);	/* drop an expired pin */
	flags = buf->loc[idx].flags;
	/* res must stay positive: the replica count saturates at 7 here */
	if (flags & 0x8000)
		flags = (flags & ~(0xf << NUMAGPU_LOC_REPLICAS_SHIFT)) |
			7 << NUMAGPU_LOC_REPLICAS_SHIFT;
	ret = (int)flags << 16 | buf->loc[idx].node;
	mutex_unlock(&buf->lock);
	return ret;
}

/*
 * The table's pages, from vmalloc, one fault at a time (as relay buffers
 * do) rather than remapped up front: MADV_DONTNEED drops them and the next
 * read faults them back.
 */
static vm_fault_t numagpu_loctab_fault(struct vm_fault *vmf)
{
	struct numagpu_buffer *buf = vmf->vma->vm_file->private_data;
	unsigned long off = vmf->pgoff - NUMAGPU_LOCTAB_PGOFF;
	struct page *page;

	if (off >= PAGE_ALIGN(NUMAGPU_LOCTAB_SIZE(buf->npages)) >> PAGE_SHIFT)
		return VM_FAULT_SIGBUS;
	page = vmalloc_to_page((void *)buf->loctab + (off << PAGE_SHIFT));
	get_page(page);
	vmf->page = page;
	return 0;
}

static const struct vm_operations_struct numagpu_loctab_vm_ops = {
	.fault = numagpu_loctab_fault,
};

/*
 * Map the table: shared and read-only for good (no write, no exec, now or
 * by mprotect()); a private mapping would copy a page on write and keep
 * reading a stale copy.
 */
int numagpu_loctab_mmap(struct numagpu_buffer *buf, struct vm_area_struct *vma)
{
	unsigned long pages;

	if (vma->vm_flags & (VM_WRITE | VM_EXEC))
		return -EPERM;
	if (!(vma->vm_flags & VM_SHARED))
		return -EINVAL;
	pages = PAGE_ALIGN(NUMAGPU_LOCTAB_SIZE(buf->npages)) >> PAGE_SHIFT;
	if (vma_pages(vma) > pages)
		return -EINVAL;
	numagpu_vm_flags_mod(vma, VM_DONTEXPAND | VM_DONTDUMP,
			     VM_MAYWRITE | VM_MAYEXEC);
	vma->vm_ops = &numagpu_loctab_vm_ops;
	return 0;
}
