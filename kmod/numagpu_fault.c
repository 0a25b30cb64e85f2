// SPDX-License-Identifier: GPL-2.0
/*
 * The views: mmap, the fault handler (first touch allocates the page by
 * its policy; read-mostly pages homed elsewhere are replicated) and
 * page_mkwrite (the first write through a PTE collapses the replicas).
 */
#include <linux/fs.h>
#include <linux/mm.h>
#include <linux/mutex.h>
#include <linux/pagemap.h>
#include <linux/topology.h>

#include "numagpu.h"
#include "numagpu_buffer.h"
#include "numagpu_compat.h"
#include "numagpu_trace.h"

/* Allocate and install page @idx for view @view; 0 or VM_FAULT_SIGBUS. */
static vm_fault_t numagpu_populate(struct numagpu_buffer *buf,
				   unsigned long idx, unsigned int view)
{
	int cpu_nid = numa_node_id();
	struct page *page;
	bool fallback;
	int want, got;
	u16 flags;
	u32 pol;

retry:
	pol = READ_ONCE(buf->policy[idx]);
	want = POL_NODE(pol);
	if (want == NUMAGPU_LOC_NO_NODE) {
		struct numagpu_pstate *ps = &buf->ps[idx];

		want = buf->sys->node[view];
		if (READ_ONCE(ps->hints) & PS_PREFERRED)
			want = buf->sys->node[READ_ONCE(ps->pref_gpu)];
	}
	got = want;
	fallback = false;
	page = NULL;
	/* locked memory of the buffer's creator: past its limit, SIGBUS */
	if (!numagpu_charge(buf, 1)) {
		bool skip = numagpu_alloc_full_recently(buf, want);

		page = skip ? NULL : numagpu_alloc_on(want);
		/* only a real failure re-arms the back-off: it must expire */
		if (!page && !skip)
			numagpu_alloc_failed(buf, want);
		if (!page && (buf->flags & NUMAGPU_BUF_FALLBACK)) {
			page = numagpu_alloc_fallback(want, &got);
			fallback = !!page;
		}
		if (!page)
			numagpu_uncharge(buf, 1);
	}
	if (!page) {
		numagpu_count(buf, sigbus);
		return VM_FAULT_SIGBUS;
	}
	numagpu_dev_inc(pages_allocated);

	mutex_lock(&buf->lock);
	if (buf->pages[idx] || buf->policy[idx] != pol) {
		/* another fault won, or the mode changed under us */
		bool won = !!buf->pages[idx];

		mutex_unlock(&buf->lock);
		put_page(page);
		numagpu_uncharge(buf, 1);
		numagpu_dev_inc(pages_freed);
		numagpu_buf_inc(buf, races);
		if (!won)
			goto retry;
		return 0;
	}
	flags = NUMAGPU_LOC_POPULATED | POL_MODE(pol) << NUMAGPU_LOC_MODE_SHIFT;
	if (fallback)
		flags |= NUMAGPU_LOC_FALLBACK;
	numagpu_loc_begin(buf);
	numagpu_loc_set(buf, idx, got, flags);
	numagpu_loc_end(buf);
	numagpu_loc_update(buf, idx);
	/* publish a zeroed page: pairs with smp_load_acquire() of readers */
	smp_store_release(&buf->pages[idx], page);
	mutex_unlock(&buf->lock);
	numagpu_page_installed(buf, got, cpu_nid, fallback);
	return 0;
}

static vm_fault_t numagpu_buf_fault(struct vm_fault *vmf)
{
	struct numagpu_buffer *buf = vmf->vma->vm_file->private_data;
	unsigned long view = vmf->pgoff >> NUMAGPU_VIEW_PGSHIFT;
	unsigned long idx = vmf->pgoff & NUMAGPU_VIEW_PGMASK;
	bool write = vmf->flags & FAULT_FLAG_WRITE;
	int cpu_nid = numa_node_id();
	struct numagpu_pstate *ps;
	struct page *page;
	vm_fault_t ret;

	if (view >= buf->sys->ngpus || idx >= buf->npages)
		return VM_FAULT_SIGBUS;
	ps = &buf->ps[idx];
	numagpu_count(buf, faults);
	numagpu_buf_inc(buf, view_faults[view]);
	if (cpu_nid >= 0 && cpu_nid < NUMAGPU_MAX_NODES)
		numagpu_buf_inc(buf, node_faults[cpu_nid]);

	if (!READ_ONCE(buf->pages[idx])) {
		ret = numagpu_populate(buf, idx, view);
		if (ret)
			return ret;
	} else {
		numagpu_automigrate_fault(buf, idx, view);
	}
	if (!write && (READ_ONCE(ps->hints) & PS_READ_MOSTLY) &&
	    !READ_ONCE(ps->pinned)) {
		page = READ_ONCE(buf->pages[idx]);
		if (page && page_to_nid(page) != buf->sys->node[view]) {
			ret = numagpu_replica_fault(buf, vmf, idx, view);
			if (ret) {
				trace_numagpu_fault(buf->id, idx, view, write,
						    page_to_nid(vmf->page),
						    true);
				return ret;
			}
		}
	}
	page = numagpu_home_lock(buf, idx);
	if (!page)	/* cannot happen: pages leave their slot replaced */
		return VM_FAULT_SIGBUS;
	if (unlikely(PageHWPoison(page))) {
		/*
		 * Returned locked, the core would unmap it from the other
		 * views through page->mapping, which the module's pages do
		 * not have: the views are unmapped here, and every access
		 * gets SIGBUS (BUS_MCEERR_AR).
		 */
		numagpu_zap_all(buf, idx);
		unlock_page(page);
		put_page(page);
		numagpu_count(buf, sigbus);
		return VM_FAULT_HWPOISON;
	}
	trace_numagpu_fault(buf->id, idx, view, write, page_to_nid(page),
			    false);
	/* the PTE's reference; the buffer keeps its own until release */
	vmf->page = page;
	return VM_FAULT_LOCKED;
}

/*
 * First write through a read-only PTE, or a write fault: drop every
 * replica (unmapping them from every view) before the write can happen.
 */
static vm_fault_t numagpu_buf_mkwrite(struct vm_fault *vmf)
{
	struct numagpu_buffer *buf = vmf->vma->vm_file->private_data;
	unsigned long view = vmf->pgoff >> NUMAGPU_VIEW_PGSHIFT;
	unsigned long idx = vmf->pgoff & NUMAGPU_VIEW_PGMASK;
	struct page *reps[NUMAGPU_MAX_GPUS];
	struct page *home;

	if (view >= buf->sys->ngpus || idx >= buf->npages)
		return VM_FAULT_SIGBUS;
	home = numagpu_home_lock(buf, idx);
	if (!home)
		return VM_FAULT_SIGBUS;
	mutex_lock(&buf->lock);
	numagpu_collapse_locked(buf, idx, view, reps);
	buf->ps[idx].wmapped = 1;
	mutex_unlock(&buf->lock);
	numagpu_replicas_free(buf, idx, reps);
	if (vmf->page != home) {
		/* a replica or a migrated-away page: fault again on home */
		unlock_page(home);
		put_page(home);
		return VM_FAULT_NOPAGE;
	}
	put_page(home);	/* vmf->page holds one */
	return VM_FAULT_LOCKED;
}

static const struct vm_operations_struct numagpu_buf_vm_ops = {
	.fault = numagpu_buf_fault,
	.page_mkwrite = numagpu_buf_mkwrite,
};

int numagpu_buf_mmap(struct file *file, struct vm_area_struct *vma)
{
	struct numagpu_buffer *buf = file->private_data;
	unsigned long pgoff = vma->vm_pgoff, n = vma_pages(vma);
	unsigned long view = pgoff >> NUMAGPU_VIEW_PGSHIFT;
	unsigned long off = pgoff & NUMAGPU_VIEW_PGMASK;

	if (pgoff == NUMAGPU_LOCTAB_PGOFF)
		return numagpu_loctab_mmap(buf, vma);
	if (!(vma->vm_flags & VM_SHARED))
		return -EINVAL;
	if (view >= buf->sys->ngpus || off >= buf->npages ||
	    n > buf->npages - off)
		return -EINVAL;
	numagpu_vm_flags_mod(vma, VM_DONTEXPAND | VM_DONTDUMP, 0);
	/* page_mkwrite makes the VMA write-notify: read faults map read-only */
	vma->vm_ops = &numagpu_buf_vm_ops;
	if (!READ_ONCE(buf->mapping))
		WRITE_ONCE(buf->mapping, file->f_mapping);
	numagpu_scan_kick(buf);
	return 0;
}
