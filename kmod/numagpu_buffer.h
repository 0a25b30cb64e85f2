/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Buffers: the device memory of the emulated GPUs, and what the files of
 * numagpu.ko that handle them share.
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
 * placement policy, the per-page state (hints, replicas, pins) and writing
 * the location table. Faults allocate outside the lock and install under
 * it; the loser of a race frees its page. Readers of buf->pages[] outside
 * the lock pair smp_load_acquire() with the installer's
 * smp_store_release(), so a page is zeroed before it is seen.
 *
 * Replication, collapse and migration follow the page cache's protocol
 * (see Documentation/kmod.rst, "Replicas and migration"):
 *  - the fault handler takes a speculative reference on the page it maps
 *    (get_page_unless_zero()), locks it, re-checks that it is still the
 *    page of that slot, and returns it locked (VM_FAULT_LOCKED): the core
 *    installs the PTE before it unlocks the page;
 *  - whoever replaces or drops a page (migration, collapse) first removes
 *    it from its slot, then locks it (waiting for in-flight installs), then
 *    unmaps it from every view with unmap_mapping_range() on the buffer's
 *    own address_space, and only then frees it;
 *  - vm_ops->page_mkwrite makes the first write through each PTE visible:
 *    the VMAs are write-notify, so read faults install read-only PTEs.
 *    page_mkwrite locks the home page, drops every replica and marks the
 *    page write-mapped; replication locks the home page, unmaps it from
 *    every view if it may be mapped writable, and only then copies it.
 * Other kernel code may hold a page too (O_DIRECT and vmsplice take plain
 * references through GUP on 6.1, devices pin): its writes can land after
 * any copy. So, as folio_migrate_mapping() does, migration freezes the
 * home's reference count at what the slot, the migrator and the faults
 * waiting for its lock (counted on the page) hold once the page is locked
 * and unmapped (numagpu_home_freeze()), and tries again, then skips the
 * page, if anyone else holds it; replication copies only a page that
 * nobody but those and its PTEs holds (numagpu_home_held_elsewhere()).
 *
 * Lock order: home page lock, buf->lock, replica page lock.
 *
 * Names: numagpu_buf_* are a buffer's entry points (create, the ioctls,
 * mmap, io_uring, stats); the helpers inside are named by what they work
 * on (numagpu_loc_* the table, numagpu_home_* a slot's page,
 * numagpu_replica* the replicas, numagpu_zap_* the views' PTEs).
 */
#ifndef _NUMAGPU_BUFFER_H
#define _NUMAGPU_BUFFER_H

#include <linux/atomic.h>
#include <linux/fs.h>
#include <linux/kfifo.h>
#include <linux/mm_types.h>
#include <linux/mutex.h>
#include <linux/spinlock.h>
#include <linux/types.h>
#include <linux/workqueue.h>

#include "numagpu.h"

struct vm_fault;

#define NUMAGPU_VIEW_PGSHIFT	(NUMAGPU_VIEW_SHIFT - PAGE_SHIFT)
#define NUMAGPU_VIEW_PGMASK	((1UL << NUMAGPU_VIEW_PGSHIFT) - 1)
#define NUMAGPU_LOCTAB_PGOFF	(NUMAGPU_LOCTAB_OFFSET >> PAGE_SHIFT)
#define NUMAGPU_MAX_PAGES	(1UL << NUMAGPU_VIEW_PGSHIFT)

/* Loops over pages under buf->lock yield the CPU this often */
#define NUMAGPU_RESCHED_PAGES	4096

/* Per-page policy word: the node to allocate on (or NO_NODE: the view's). */
#define POL_NODE(p)		((p) & 0xffff)
#define POL_MODE(p)		((p) >> 16)
#define POL(mode, node)		(((u32)(mode) << 16) | (u32)(node))

#define NUMAGPU_GFP	(GFP_HIGHUSER | __GFP_ZERO | __GFP_THISNODE |	\
			 __GFP_ACCOUNT | __GFP_NOWARN | __GFP_NORETRY)
/* replicas and migration targets are overwritten whole: no zeroing */
#define NUMAGPU_GFP_COPY (NUMAGPU_GFP & ~__GFP_ZERO)

/* Per-page state, under buf->lock (some fields read locklessly as hints). */
#define PS_READ_MOSTLY	(1u << 0)
#define PS_PREFERRED	(1u << 1)

struct numagpu_pstate {
	u8 hints;		/* PS_* */
	u8 pref_gpu;		/* PS_PREFERRED: the GPU */
	u8 nreps;		/* replicas in buf->reps[idx] */
	u8 wmapped;		/* the home page may be mapped writable */
	u8 pinned;		/* until @pin_until */
	u8 last_gpu;		/* automatic migration: last remote toucher */
	u8 touches;		/* ... and its consecutive sampled touches */
	u8 pad;
	u16 accessed_by;	/* GPU mask */
	u16 events;		/* migrations + collapses in this window */
	unsigned long win_start;
	unsigned long pin_until;
};

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
	unsigned int loc_depth;	/* open write sections (numagpu_loc_begin) */
	struct numagpu_counters __percpu *ctr;	/* numagpu.h */
	atomic64_t node_pages[NUMAGPU_MAX_NODES];
	struct numagpu_pstate *ps;
	struct page ***reps;	/* per page: NULL or ngpus replica slots */
	struct address_space *mapping;	/* set by the first mmap */
	unsigned long full_until[NUMAGPU_MAX_NODES];	/* jiffies */
	/* numagpu_account.c: locked memory of the creator (NULL: exempt) */
	struct user_struct *user;
	unsigned long memlock_pages;
	atomic_long_t charged;		/* pages charged now */
	struct delayed_work scan;	/* automatic migration sampling */
	bool scan_on;
	/* automatic migrations decided by faults, made by a work item */
	struct work_struct auto_work;
	spinlock_t auto_lock;
	DECLARE_KFIFO(auto_q, u32, 64);	/* page | GPU << 28 */
	u64 id;			/* for tracing: creation number */
};

/* Validate a page range against the buffer. */
static inline int numagpu_range_check(struct numagpu_buffer *buf, u64 first,
				      u64 n)
{
	if (!n || first >= buf->npages || n > buf->npages - first)
		return -EINVAL;
	return 0;
}

/* numagpu_policy.c */
int numagpu_placement_check(const struct numagpu_system *sys, u32 mode,
			    u32 target, u64 chunk, struct numagpu_placement *pl);
u32 numagpu_page_policy(const struct numagpu_system *sys,
			const struct numagpu_placement *pl, unsigned long idx);

/* numagpu_loctab.c: writers hold buf->lock */
void numagpu_loc_begin(struct numagpu_buffer *buf);
void numagpu_loc_end(struct numagpu_buffer *buf);
void numagpu_loc_set(struct numagpu_buffer *buf, unsigned long idx, u16 node,
		     u16 flags);
void numagpu_loc_update(struct numagpu_buffer *buf, unsigned long idx);
long numagpu_buf_query(struct numagpu_buffer *buf, void __user *arg);
int numagpu_loctab_mmap(struct numagpu_buffer *buf, struct vm_area_struct *vma);

/* numagpu_pin.c: under buf->lock */
bool numagpu_pinned(struct numagpu_buffer *buf, unsigned long idx);
void numagpu_thrash_event(struct numagpu_buffer *buf, unsigned long idx);

/* numagpu_page.c */
struct page *numagpu_alloc_on(int nid);
struct page *numagpu_alloc_copy(int nid, struct page *old);
struct page *numagpu_alloc_fallback(int nid, int *got);
bool numagpu_alloc_full_recently(struct numagpu_buffer *buf, int nid);
void numagpu_alloc_failed(struct numagpu_buffer *buf, int nid);
void numagpu_count_node(atomic64_t *arr, int nid, long delta);
void numagpu_count_held(struct numagpu_buffer *buf, int nid, long d);
void numagpu_zap_view(struct numagpu_buffer *buf, unsigned long idx,
		      unsigned int view);
void numagpu_zap_all(struct numagpu_buffer *buf, unsigned long idx);
struct page *numagpu_home_get(struct numagpu_buffer *buf, unsigned long idx);
struct page *numagpu_home_lock(struct numagpu_buffer *buf, unsigned long idx);
bool numagpu_home_held_elsewhere(struct page *home);
int numagpu_home_freeze(struct page *home);
void numagpu_home_unfreeze(struct page *home, int refs);
void numagpu_page_installed(struct numagpu_buffer *buf, int got, int cpu_nid,
			    bool fallback);

/* numagpu_fault.c */
int numagpu_buf_mmap(struct file *file, struct vm_area_struct *vma);

/* numagpu_replica.c */
unsigned int numagpu_replicas_detach(struct numagpu_buffer *buf,
				     unsigned long idx, struct page **out);
void numagpu_replicas_free(struct numagpu_buffer *buf, unsigned long idx,
			   struct page **reps);
unsigned int numagpu_collapse_locked(struct numagpu_buffer *buf,
				     unsigned long idx, unsigned int view,
				     struct page **reps);
vm_fault_t numagpu_replica_fault(struct numagpu_buffer *buf,
				 struct vm_fault *vmf, unsigned long idx,
				 unsigned int view);

/* numagpu_migrate.c */
int numagpu_migrate_one(struct numagpu_buffer *buf, unsigned long idx,
			int nid, bool populate, bool automatic);

/* numagpu_account.c */
void numagpu_account_init(struct numagpu_buffer *buf);
int numagpu_charge(struct numagpu_buffer *buf, unsigned long n);
void numagpu_uncharge(struct numagpu_buffer *buf, unsigned long n);
void numagpu_account_release(struct numagpu_buffer *buf);

/* numagpu_automigrate.c */
void numagpu_automigrate_init(struct numagpu_buffer *buf);
void numagpu_automigrate_fault(struct numagpu_buffer *buf, unsigned long idx,
			       unsigned int view);
void numagpu_scan_kick(struct numagpu_buffer *buf);
void numagpu_automigrate_stop(struct numagpu_buffer *buf);

/* numagpu_stats.c */
long numagpu_buf_stats(struct numagpu_buffer *buf, void __user *arg);

#endif /* _NUMAGPU_BUFFER_H */
