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
 * Lock order: home page lock, buf->lock, replica page lock.
 */
#define pr_fmt(fmt) KBUILD_MODNAME ": " fmt

#include <linux/anon_inodes.h>
#include <linux/fs.h>
#include <linux/gfp.h>
#include <linux/highmem.h>
#include <linux/mm.h>
#include <linux/module.h>
#include <linux/moduleparam.h>
#include <linux/mutex.h>
#include <linux/nodemask.h>
#include <linux/pagemap.h>
#include <linux/sched.h>
#include <linux/slab.h>
#include <linux/topology.h>
#include <linux/uaccess.h>
#include <linux/vmalloc.h>
#include <linux/workqueue.h>

#include "numagpu.h"

#define CREATE_TRACE_POINTS
#include "numagpu_trace.h"

static unsigned long max_buffer_pages = 1UL << 20;
module_param(max_buffer_pages, ulong, 0644);
MODULE_PARM_DESC(max_buffer_pages,
		 "Most pages one buffer may hold (default 1048576, 4 GiB)");

static unsigned int thrash_window_ms = 1000;
module_param(thrash_window_ms, uint, 0644);
MODULE_PARM_DESC(thrash_window_ms,
		 "Thrashing control: window of the per-page event count (ms, default 1000)");

static unsigned int thrash_threshold = 16;
module_param(thrash_threshold, uint, 0644);
MODULE_PARM_DESC(thrash_threshold,
		 "Migrations + collapses of one page within the window that pin it (0: never, default 16)");

static unsigned int pin_ms = 2000;
module_param(pin_ms, uint, 0644);
MODULE_PARM_DESC(pin_ms, "How long a thrashing page stays pinned (ms, default 2000)");

static unsigned int automigrate_period_ms;
module_param(automigrate_period_ms, uint, 0644);
MODULE_PARM_DESC(automigrate_period_ms,
		 "Automatic migration: period of the view revocation that samples accesses (ms, 0: off, default)");

static unsigned int automigrate_threshold = 2;
module_param(automigrate_threshold, uint, 0644);
MODULE_PARM_DESC(automigrate_threshold,
		 "Automatic migration: consecutive sampled touches from one remote GPU that move a page (default 2)");

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
	atomic64_t populated;
	atomic64_t faults;
	atomic64_t first_touch_local;
	atomic64_t first_touch_remote;
	atomic64_t fallbacks;
	atomic64_t sigbus;
	atomic64_t races;
	atomic64_t mode_changes;
	atomic64_t replicas_created;
	atomic64_t collapses;
	atomic64_t migrations;
	atomic64_t pins;
	atomic64_t replica_pages;
	atomic64_t auto_migrations;
	atomic64_t uring_cmds;
	atomic64_t view_faults[NUMAGPU_MAX_GPUS];
	atomic64_t node_faults[NUMAGPU_MAX_NODES];
	atomic64_t node_pages[NUMAGPU_MAX_NODES];
	struct numagpu_pstate *ps;
	struct page ***reps;	/* per page: NULL or ngpus replica slots */
	struct address_space *mapping;	/* set by the first mmap */
	struct delayed_work scan;	/* automatic migration sampling */
	bool scan_on;
	u64 id;			/* for tracing: creation number */
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

static void numagpu_count_held(struct numagpu_buffer *buf, int nid, long d)
{
	numagpu_count_node(buf->node_pages, nid, d);
	numagpu_count_node(numagpu_dev.node_pages, nid, d);
	atomic64_add(d, &numagpu_dev.pages_held);
}

/* Unmap page @idx from view @view (every process, every mapping). */
static void numagpu_zap_view(struct numagpu_buffer *buf, unsigned long idx,
			     unsigned int view)
{
	struct address_space *mapping = READ_ONCE(buf->mapping);
	loff_t off;

	if (!mapping)
		return;
	off = ((loff_t)view << NUMAGPU_VIEW_SHIFT) + ((loff_t)idx << PAGE_SHIFT);
	unmap_mapping_range(mapping, off, PAGE_SIZE, 1);
}

static void numagpu_zap_all(struct numagpu_buffer *buf, unsigned long idx)
{
	unsigned int v;

	for (v = 0; v < buf->sys->ngpus; v++)
		numagpu_zap_view(buf, idx, v);
}

/* Locked: recompute the table flags that follow the page's state. */
static void numagpu_loc_update(struct numagpu_buffer *buf, unsigned long idx)
{
	struct numagpu_pstate *ps = &buf->ps[idx];
	u16 f = buf->loc[idx].flags;

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

/* Locked: is page @idx pinned? Expired pins are dropped here. */
static bool numagpu_pinned(struct numagpu_buffer *buf, unsigned long idx)
{
	struct numagpu_pstate *ps = &buf->ps[idx];

	if (!ps->pinned)
		return false;
	if (time_before(jiffies, ps->pin_until))
		return true;
	ps->pinned = 0;
	ps->events = 0;
	ps->win_start = jiffies;
	numagpu_loc_update(buf, idx);
	trace_numagpu_pin(buf->id, idx, ps->events, false);
	return false;
}

/* Locked: one migration or collapse of page @idx; pins a thrashing page. */
static void numagpu_thrash_event(struct numagpu_buffer *buf, unsigned long idx)
{
	struct numagpu_pstate *ps = &buf->ps[idx];
	unsigned int thr = READ_ONCE(thrash_threshold);
	unsigned long now = jiffies;

	if (!thr || ps->pinned)
		return;
	if (time_after(now, ps->win_start +
		       msecs_to_jiffies(READ_ONCE(thrash_window_ms)))) {
		ps->win_start = now;
		ps->events = 0;
	}
	if (ps->events < U16_MAX)
		ps->events++;
	if (ps->events < thr)
		return;
	ps->pinned = 1;
	ps->pin_until = now + msecs_to_jiffies(READ_ONCE(pin_ms));
	atomic64_inc(&buf->pins);
	atomic64_inc(&numagpu_dev.pins);
	numagpu_loc_update(buf, idx);
	trace_numagpu_pin(buf->id, idx, ps->events, true);
}

/*
 * Locked: take every replica of page @idx out of its slot into @out (one
 * slot per GPU); the caller releases them with numagpu_replicas_free()
 * once it may sleep on page locks. Returns how many there were.
 */
static unsigned int numagpu_replicas_detach(struct numagpu_buffer *buf,
					    unsigned long idx,
					    struct page **out)
{
	struct numagpu_pstate *ps = &buf->ps[idx];
	unsigned int g, n = 0;

	memset(out, 0, sizeof(*out) * NUMAGPU_MAX_GPUS);
	if (!ps->nreps || !buf->reps[idx])
		return 0;
	for (g = 0; g < buf->sys->ngpus; g++) {
		out[g] = buf->reps[idx][g];
		if (out[g]) {
			WRITE_ONCE(buf->reps[idx][g], NULL);
			n++;
		}
	}
	ps->nreps = 0;
	numagpu_loc_update(buf, idx);
	return n;
}

/*
 * Unmap and free detached replicas. Locking each first waits for a fault
 * that is installing it; later faults see its slot empty and retry.
 */
static void numagpu_replicas_free(struct numagpu_buffer *buf,
				  unsigned long idx, struct page **reps)
{
	unsigned int g;

	for (g = 0; g < buf->sys->ngpus; g++) {
		struct page *rep = reps[g];

		if (!rep)
			continue;
		lock_page(rep);
		unlock_page(rep);
		numagpu_zap_view(buf, idx, g);
		numagpu_count_held(buf, page_to_nid(rep), -1);
		atomic64_dec(&buf->replica_pages);
		atomic64_dec(&numagpu_dev.replica_pages);
		atomic64_inc(&numagpu_dev.pages_freed);
		put_page(rep);
	}
}

/* Locked: drop the replicas of @idx, counted as a collapse. */
static unsigned int numagpu_collapse_locked(struct numagpu_buffer *buf,
					    unsigned long idx,
					    unsigned int view,
					    struct page **reps)
{
	unsigned int n = numagpu_replicas_detach(buf, idx, reps);

	if (!n)
		return 0;
	atomic64_inc(&buf->collapses);
	atomic64_inc(&numagpu_dev.collapses);
	trace_numagpu_collapse(buf->id, idx, view, n);
	numagpu_thrash_event(buf, idx);
	return n;
}

/* A counted reference on the home page of @idx, or NULL if absent. */
static struct page *numagpu_home_get(struct numagpu_buffer *buf,
				     unsigned long idx)
{
	struct page *page;

	for (;;) {
		/* pairs with smp_store_release() of installers */
		page = smp_load_acquire(&buf->pages[idx]);
		if (!page)
			return NULL;
		/* speculative, as the page cache: the page may be freed */
		if (!get_page_unless_zero(page))
			continue;
		if (READ_ONCE(buf->pages[idx]) == page)
			return page;
		put_page(page);
	}
}

/* The home page of @idx, referenced and locked, still in its slot. */
static struct page *numagpu_home_lock(struct numagpu_buffer *buf,
				      unsigned long idx)
{
	struct page *page;

	for (;;) {
		page = numagpu_home_get(buf, idx);
		if (!page)
			return NULL;
		lock_page(page);
		if (READ_ONCE(buf->pages[idx]) == page)
			return page;
		unlock_page(page);
		put_page(page);
	}
}

static void numagpu_page_installed(struct numagpu_buffer *buf, int got,
				   int cpu_nid, bool fallback)
{
	atomic64_inc(&buf->populated);
	numagpu_count_held(buf, got, 1);
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
}

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
	if (buf->pages[idx] || buf->policy[idx] != pol) {
		/* another fault won, or the mode changed under us */
		bool won = !!buf->pages[idx];

		mutex_unlock(&buf->lock);
		put_page(page);
		atomic64_inc(&numagpu_dev.pages_freed);
		atomic64_inc(&buf->races);
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

/* A counted reference on view @view's replica of @idx, or NULL. */
static struct page *numagpu_replica_get(struct numagpu_buffer *buf,
					unsigned long idx, unsigned int view)
{
	/* pairs with smp_store_release() of the slots' allocation */
	struct page **slots = smp_load_acquire(&buf->reps[idx]);
	struct page *rep;

	if (!slots)
		return NULL;
	for (;;) {
		rep = READ_ONCE(slots[view]);
		if (!rep)
			return NULL;
		/* speculative: a detached replica may be freed meanwhile */
		if (!get_page_unless_zero(rep))
			continue;
		if (READ_ONCE(slots[view]) == rep)
			return rep;
		put_page(rep);
	}
}

/*
 * Read fault of view @view on a read-mostly page homed elsewhere: map the
 * view's replica, making it first. Returns VM_FAULT_LOCKED with vmf->page
 * set, or 0 when the home page should be mapped instead.
 */
static vm_fault_t numagpu_replica_fault(struct numagpu_buffer *buf,
					struct vm_fault *vmf,
					unsigned long idx, unsigned int view)
{
	struct numagpu_pstate *ps = &buf->ps[idx];
	int nid = buf->sys->node[view];
	struct page *rep, *home, *newp = NULL;
	bool zapped = false;

again:
	rep = numagpu_replica_get(buf, idx, view);
	if (rep) {
		lock_page(rep);
		if (READ_ONCE(buf->reps[idx][view]) != rep) {
			unlock_page(rep);
			put_page(rep);
			goto again;
		}
		if (newp) {
			put_page(newp);
			atomic64_inc(&numagpu_dev.pages_freed);
		}
		vmf->page = rep;
		return VM_FAULT_LOCKED;
	}

	if (!newp) {
		newp = alloc_pages_node(nid, NUMAGPU_GFP_COPY, 0);
		if (!newp)
			return 0;	/* no room here: map the home page */
		atomic64_inc(&numagpu_dev.pages_allocated);
	}
	home = numagpu_home_lock(buf, idx);
	if (!home)
		goto give_up;
	mutex_lock(&buf->lock);
	if (!(ps->hints & PS_READ_MOSTLY) || numagpu_pinned(buf, idx) ||
	    (ps->accessed_by & BIT(view)) || page_to_nid(home) == nid) {
		mutex_unlock(&buf->lock);
		unlock_page(home);
		put_page(home);
		goto give_up;
	}
	if (buf->reps[idx] && buf->reps[idx][view]) {
		/* a concurrent fault made it */
		mutex_unlock(&buf->lock);
		unlock_page(home);
		put_page(home);
		goto again;
	}
	if (!buf->reps[idx]) {
		struct page **slots = kcalloc(buf->sys->ngpus, sizeof(*slots),
					      GFP_KERNEL_ACCOUNT);

		if (!slots) {
			mutex_unlock(&buf->lock);
			unlock_page(home);
			put_page(home);
			goto give_up;
		}
		/* zeroed slots first: pairs with numagpu_replica_get() */
		smp_store_release(&buf->reps[idx], slots);
	}
	zapped = ps->wmapped;
	ps->wmapped = 0;
	mutex_unlock(&buf->lock);
	/*
	 * The home lock keeps writers out (page_mkwrite takes it) and the
	 * slot empty (creators take it): no writable PTE outlives the zap.
	 */
	if (zapped)
		numagpu_zap_all(buf, idx);
	copy_highpage(newp, home);
	/* unpublished: nobody else can hold its lock */
	lock_page(newp);
	get_page(newp);		/* the PTE's; the buffer keeps the first */
	mutex_lock(&buf->lock);
	WRITE_ONCE(buf->reps[idx][view], newp);
	ps->nreps++;
	numagpu_loc_update(buf, idx);
	mutex_unlock(&buf->lock);
	trace_numagpu_replicate(buf->id, idx, view, page_to_nid(home), nid,
				zapped);
	unlock_page(home);
	put_page(home);
	numagpu_count_held(buf, nid, 1);
	atomic64_inc(&buf->replica_pages);
	atomic64_inc(&numagpu_dev.replica_pages);
	atomic64_inc(&buf->replicas_created);
	atomic64_inc(&numagpu_dev.replicas_created);
	vmf->page = newp;
	return VM_FAULT_LOCKED;

give_up:
	put_page(newp);
	atomic64_inc(&numagpu_dev.pages_freed);
	return 0;
}

/*
 * Move page @idx to node @nid: 1 moved (or allocated, with @populate),
 * 0 nothing to do, -EBUSY pinned, -ENOMEM no room on @nid.
 */
static int numagpu_migrate_one(struct numagpu_buffer *buf, unsigned long idx,
			       int nid, bool populate, bool automatic)
{
	struct page *reps[NUMAGPU_MAX_GPUS];
	struct numagpu_pstate *ps = &buf->ps[idx];
	struct page *home, *newp;
	int from;

	home = numagpu_home_get(buf, idx);
	if (home && page_to_nid(home) == nid) {
		put_page(home);
		return 0;
	}
	if (!home && !populate)
		return 0;
	newp = alloc_pages_node(nid, home ? NUMAGPU_GFP_COPY : NUMAGPU_GFP, 0);
	if (!newp) {
		if (home)
			put_page(home);
		return -ENOMEM;
	}
	atomic64_inc(&numagpu_dev.pages_allocated);
	if (!home) {
		mutex_lock(&buf->lock);
		if (buf->pages[idx]) {
			mutex_unlock(&buf->lock);
			put_page(newp);
			atomic64_inc(&numagpu_dev.pages_freed);
			return 0;
		}
		numagpu_loc_begin(buf);
		numagpu_loc_set(buf, idx, nid, NUMAGPU_LOC_POPULATED |
				POL_MODE(buf->policy[idx]) <<
				NUMAGPU_LOC_MODE_SHIFT);
		numagpu_loc_end(buf);
		numagpu_loc_update(buf, idx);
		/* publish a zeroed page: pairs with smp_load_acquire() */
		smp_store_release(&buf->pages[idx], newp);
		mutex_unlock(&buf->lock);
		numagpu_page_installed(buf, nid, numa_node_id(), false);
		return 1;
	}
	put_page(home);
	home = numagpu_home_lock(buf, idx);
	mutex_lock(&buf->lock);
	if (!home || page_to_nid(home) == nid || numagpu_pinned(buf, idx)) {
		int ret = home && page_to_nid(home) != nid ? -EBUSY : 0;

		mutex_unlock(&buf->lock);
		if (home) {
			unlock_page(home);
			put_page(home);
		}
		put_page(newp);
		atomic64_inc(&numagpu_dev.pages_freed);
		return ret;
	}
	numagpu_collapse_locked(buf, idx, NUMAGPU_MAX_GPUS, reps);
	mutex_unlock(&buf->lock);
	numagpu_replicas_free(buf, idx, reps);
	/* home is locked: no PTE of it can be installed again */
	numagpu_zap_all(buf, idx);
	if (page_maybe_dma_pinned(home)) {
		/* pinned by GUP (O_DIRECT, RDMA...): writes may still come */
		unlock_page(home);
		put_page(home);
		put_page(newp);
		atomic64_inc(&numagpu_dev.pages_freed);
		return -EBUSY;
	}
	copy_highpage(newp, home);

	from = page_to_nid(home);
	mutex_lock(&buf->lock);
	ps->wmapped = 0;
	ps->touches = 0;
	numagpu_loc_begin(buf);
	numagpu_loc_set(buf, idx, nid,
			(buf->loc[idx].flags & ~NUMAGPU_LOC_FALLBACK) |
			NUMAGPU_LOC_MIGRATED);
	numagpu_loc_end(buf);
	/* the copy before the page: pairs with smp_load_acquire() */
	smp_store_release(&buf->pages[idx], newp);
	numagpu_thrash_event(buf, idx);
	mutex_unlock(&buf->lock);
	unlock_page(home);
	/* our reference, then the buffer's: faults holding one retry */
	put_page(home);
	put_page(home);
	atomic64_inc(&numagpu_dev.pages_freed);
	numagpu_count_held(buf, from, -1);
	numagpu_count_held(buf, nid, 1);
	atomic64_inc(&buf->migrations);
	atomic64_inc(&numagpu_dev.migrations);
	if (automatic) {
		atomic64_inc(&buf->auto_migrations);
		atomic64_inc(&numagpu_dev.auto_migrations);
	}
	trace_numagpu_migrate(buf->id, idx, from, nid, automatic);
	return 1;
}

#define NUMAGPU_MIGRATE_BATCH	64

/*
 * Move the pages of [@start, @end) that are not on @nid yet, up to a batch
 * of them at a time: lock them (the first waits, the others are tried, so
 * batches never wait for each other), unmap the batch's range from each
 * view at once (one TLB shootdown per view, not per page), copy, and
 * publish the new pages together. Returns where the next batch starts.
 */
static unsigned long numagpu_migrate_batch(struct numagpu_buffer *buf,
					   unsigned long start,
					   unsigned long end, int nid,
					   bool populate, u64 *moved,
					   u64 *skipped)
{
	struct page *old[NUMAGPU_MIGRATE_BATCH], *newp[NUMAGPU_MIGRATE_BATCH];
	struct page *reps[NUMAGPU_MAX_GPUS];
	struct address_space *mapping;
	unsigned long i, k, stop;
	unsigned int nb = 0, v;

	for (i = start; i < end && i - start < NUMAGPU_MIGRATE_BATCH; i++) {
		struct page *home = numagpu_home_get(buf, i), *np;
		int ret;

		k = i - start;
		old[k] = NULL;
		if (!home) {
			if (!populate)
				continue;
			ret = numagpu_migrate_one(buf, i, nid, true, false);
			if (ret > 0)
				(*moved)++;
			else if (ret < 0)
				(*skipped)++;
			continue;
		}
		if (page_to_nid(home) == nid) {
			put_page(home);
			continue;
		}
		if (!nb) {
			lock_page(home);
		} else if (!trylock_page(home)) {
			put_page(home);
			break;	/* the next batch starts here */
		}
		if (READ_ONCE(buf->pages[i]) != home) {
			unlock_page(home);
			put_page(home);
			break;
		}
		np = alloc_pages_node(nid, NUMAGPU_GFP_COPY, 0);
		if (!np) {
			unlock_page(home);
			put_page(home);
			(*skipped)++;
			continue;
		}
		atomic64_inc(&numagpu_dev.pages_allocated);
		mutex_lock(&buf->lock);
		if (numagpu_pinned(buf, i)) {
			mutex_unlock(&buf->lock);
			unlock_page(home);
			put_page(home);
			put_page(np);
			atomic64_inc(&numagpu_dev.pages_freed);
			(*skipped)++;
			continue;
		}
		numagpu_collapse_locked(buf, i, NUMAGPU_MAX_GPUS, reps);
		mutex_unlock(&buf->lock);
		numagpu_replicas_free(buf, i, reps);
		old[k] = home;
		newp[k] = np;
		nb++;
	}
	stop = i;
	if (!nb)
		return stop;

	/* the homes are locked: none can be mapped again meanwhile */
	mapping = READ_ONCE(buf->mapping);
	for (v = 0; mapping && v < buf->sys->ngpus; v++)
		unmap_mapping_range(mapping,
				    ((loff_t)v << NUMAGPU_VIEW_SHIFT) +
				    ((loff_t)start << PAGE_SHIFT),
				    (loff_t)(stop - start) << PAGE_SHIFT, 1);
	for (k = 0; k < stop - start; k++) {
		if (!old[k])
			continue;
		if (page_maybe_dma_pinned(old[k])) {
			/* pinned by GUP (O_DIRECT, RDMA...): writes may come */
			unlock_page(old[k]);
			put_page(old[k]);
			put_page(newp[k]);
			atomic64_inc(&numagpu_dev.pages_freed);
			old[k] = NULL;
			(*skipped)++;
			continue;
		}
		copy_highpage(newp[k], old[k]);
	}

	mutex_lock(&buf->lock);
	numagpu_loc_begin(buf);
	for (k = 0; k < stop - start; k++) {
		if (!old[k])
			continue;
		i = start + k;
		buf->ps[i].wmapped = 0;
		buf->ps[i].touches = 0;
		numagpu_loc_set(buf, i, nid,
				(buf->loc[i].flags & ~NUMAGPU_LOC_FALLBACK) |
				NUMAGPU_LOC_MIGRATED);
		/* the copy before the page: pairs with smp_load_acquire() */
		smp_store_release(&buf->pages[i], newp[k]);
	}
	numagpu_loc_end(buf);
	for (k = 0; k < stop - start; k++)
		if (old[k])
			numagpu_thrash_event(buf, start + k);
	mutex_unlock(&buf->lock);

	for (k = 0; k < stop - start; k++) {
		int from;

		if (!old[k])
			continue;
		from = page_to_nid(old[k]);
		unlock_page(old[k]);
		/* our reference, then the buffer's: faults holding one retry */
		put_page(old[k]);
		put_page(old[k]);
		atomic64_inc(&numagpu_dev.pages_freed);
		numagpu_count_held(buf, from, -1);
		numagpu_count_held(buf, nid, 1);
		atomic64_inc(&buf->migrations);
		atomic64_inc(&numagpu_dev.migrations);
		trace_numagpu_migrate(buf->id, start + k, from, nid, false);
		(*moved)++;
	}
	return stop;
}

/* Sampled remote touch of @idx by @view: migrate when it keeps coming. */
static void numagpu_auto_touch(struct numagpu_buffer *buf, unsigned long idx,
			       unsigned int view)
{
	struct numagpu_pstate *ps = &buf->ps[idx];
	struct page *home = READ_ONCE(buf->pages[idx]);
	int nid = buf->sys->node[view];
	u8 hints = READ_ONCE(ps->hints);

	if (!home || page_to_nid(home) == nid || READ_ONCE(ps->pinned) ||
	    (READ_ONCE(ps->accessed_by) & BIT(view)) ||
	    (hints & PS_READ_MOSTLY) ||
	    ((hints & PS_PREFERRED) &&
	     buf->sys->node[READ_ONCE(ps->pref_gpu)] == page_to_nid(home)))
		return;
	/* a heuristic: racy counts only cost accuracy */
	if (READ_ONCE(ps->last_gpu) != view) {
		WRITE_ONCE(ps->last_gpu, view);
		WRITE_ONCE(ps->touches, 1);
	} else if (READ_ONCE(ps->touches) < U8_MAX) {
		WRITE_ONCE(ps->touches, READ_ONCE(ps->touches) + 1);
	}
	if (READ_ONCE(ps->touches) >= max(1u, READ_ONCE(automigrate_threshold)))
		numagpu_migrate_one(buf, idx, nid, false, true);
}

static void numagpu_scan_work(struct work_struct *work)
{
	struct numagpu_buffer *buf = container_of(to_delayed_work(work),
						  struct numagpu_buffer, scan);
	unsigned int period = READ_ONCE(automigrate_period_ms);
	struct address_space *mapping = READ_ONCE(buf->mapping);

	if (!period) {
		WRITE_ONCE(buf->scan_on, false);
		return;
	}
	/*
	 * Revoke every view (not the location table), as NUMA balancing does:
	 * the next touch of each page faults and is sampled.
	 */
	if (mapping)
		unmap_mapping_range(mapping, 0,
				    (loff_t)buf->sys->ngpus << NUMAGPU_VIEW_SHIFT,
				    1);
	schedule_delayed_work(&buf->scan, msecs_to_jiffies(period));
}

static void numagpu_scan_kick(struct numagpu_buffer *buf)
{
	unsigned int period = READ_ONCE(automigrate_period_ms);

	if (period && !READ_ONCE(buf->scan_on)) {
		WRITE_ONCE(buf->scan_on, true);
		schedule_delayed_work(&buf->scan, msecs_to_jiffies(period));
	}
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
	atomic64_inc(&buf->faults);
	atomic64_inc(&numagpu_dev.faults);
	atomic64_inc(&buf->view_faults[view]);
	numagpu_count_node(buf->node_faults, cpu_nid, 1);

	if (!READ_ONCE(buf->pages[idx])) {
		ret = numagpu_populate(buf, idx, view);
		if (ret)
			return ret;
	} else if (READ_ONCE(automigrate_period_ms)) {
		numagpu_scan_kick(buf);
		numagpu_auto_touch(buf, idx, view);
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
	/* page_mkwrite makes the VMA write-notify: read faults map read-only */
	vma->vm_ops = &numagpu_buf_vm_ops;
	if (!READ_ONCE(buf->mapping))
		WRITE_ONCE(buf->mapping, file->f_mapping);
	numagpu_scan_kick(buf);
	return 0;
}

static void numagpu_buffer_free(struct numagpu_buffer *buf)
{
	unsigned long i;
	unsigned int g;

	/* release: no VMA is left, the work is the last user */
	cancel_delayed_work_sync(&buf->scan);
	if (buf->reps) {
		for (i = 0; i < buf->npages; i++) {
			if (!buf->reps[i])
				continue;
			for (g = 0; g < buf->sys->ngpus; g++) {
				struct page *rep = buf->reps[i][g];

				if (!rep)
					continue;
				numagpu_count_node(numagpu_dev.node_pages,
						   page_to_nid(rep), -1);
				atomic64_dec(&numagpu_dev.pages_held);
				atomic64_dec(&numagpu_dev.replica_pages);
				atomic64_inc(&numagpu_dev.pages_freed);
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
			numagpu_count_node(numagpu_dev.node_pages, nid, -1);
			atomic64_dec(&numagpu_dev.pages_held);
			atomic64_inc(&numagpu_dev.pages_freed);
			put_page(page);
			if (!(i % 4096))
				cond_resched();
		}
	}
	vfree(buf->loctab);
	kvfree(buf->reps);
	kvfree(buf->ps);
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
				pl.mode << NUMAGPU_LOC_MODE_SHIFT |
				(buf->ps[i].hints & PS_READ_MOSTLY ?
				 NUMAGPU_LOC_READ_MOSTLY : 0));
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
	st->replicas_created = atomic64_read(&buf->replicas_created);
	st->collapses = atomic64_read(&buf->collapses);
	st->migrations = atomic64_read(&buf->migrations);
	st->pins = atomic64_read(&buf->pins);
	st->replica_pages = atomic64_read(&buf->replica_pages);
	st->auto_migrations = atomic64_read(&buf->auto_migrations);
	st->uring_cmds = atomic64_read(&buf->uring_cmds);
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

/* Validate a page range against the buffer. */
static int numagpu_range_check(struct numagpu_buffer *buf, u64 first, u64 n)
{
	if (!n || first >= buf->npages || n > buf->npages - first)
		return -EINVAL;
	return 0;
}

int numagpu_buf_advise(struct numagpu_buffer *buf, u64 first, u64 n,
		       u32 advice, u32 target)
{
	struct page *reps[NUMAGPU_MAX_GPUS];
	unsigned long i;
	int err;

	err = numagpu_range_check(buf, first, n);
	if (err)
		return err;
	switch (advice) {
	case NUMAGPU_ADVISE_READ_MOSTLY:
	case NUMAGPU_ADVISE_UNSET_READ_MOSTLY:
	case NUMAGPU_ADVISE_UNSET_PREFERRED:
		if (target)
			return -EINVAL;
		break;
	case NUMAGPU_ADVISE_PREFERRED:
	case NUMAGPU_ADVISE_ACCESSED_BY:
	case NUMAGPU_ADVISE_UNSET_ACCESSED_BY:
		if (target >= buf->sys->ngpus)
			return -EINVAL;
		break;
	default:
		return -EINVAL;
	}
	for (i = first; i < first + n; i++) {
		struct numagpu_pstate *ps = &buf->ps[i];
		unsigned int dropped = 0;

		mutex_lock(&buf->lock);
		switch (advice) {
		case NUMAGPU_ADVISE_READ_MOSTLY:
			ps->hints |= PS_READ_MOSTLY;
			break;
		case NUMAGPU_ADVISE_UNSET_READ_MOSTLY:
			ps->hints &= ~PS_READ_MOSTLY;
			dropped = numagpu_replicas_detach(buf, i, reps);
			break;
		case NUMAGPU_ADVISE_PREFERRED:
			ps->pref_gpu = target;
			ps->hints |= PS_PREFERRED;
			break;
		case NUMAGPU_ADVISE_UNSET_PREFERRED:
			ps->hints &= ~PS_PREFERRED;
			break;
		case NUMAGPU_ADVISE_ACCESSED_BY:
			ps->accessed_by |= BIT(target);
			break;
		case NUMAGPU_ADVISE_UNSET_ACCESSED_BY:
			ps->accessed_by &= ~BIT(target);
			break;
		}
		numagpu_loc_update(buf, i);
		mutex_unlock(&buf->lock);
		if (dropped) {
			numagpu_replicas_free(buf, i, reps);
			atomic64_inc(&buf->collapses);
			atomic64_inc(&numagpu_dev.collapses);
			trace_numagpu_collapse(buf->id, i, NUMAGPU_MAX_GPUS,
					       dropped);
		}
		if (!(i % 1024))
			cond_resched();
	}
	if (advice == NUMAGPU_ADVISE_READ_MOSTLY) {
		struct address_space *mapping = READ_ONCE(buf->mapping);
		unsigned int v;

		/* revoke the views: their next reads fault and replicate */
		for (v = 0; mapping && v < buf->sys->ngpus; v++)
			unmap_mapping_range(mapping,
					    ((loff_t)v << NUMAGPU_VIEW_SHIFT) +
					    ((loff_t)first << PAGE_SHIFT),
					    (loff_t)n << PAGE_SHIFT, 1);
	}
	return 0;
}

int numagpu_buf_migrate(struct numagpu_buffer *buf, u64 first, u64 n,
			u32 target, u32 flags, u64 *moved, u64 *skipped)
{
	unsigned long i;
	int err, nid;

	*moved = 0;
	*skipped = 0;
	err = numagpu_range_check(buf, first, n);
	if (err)
		return err;
	if (flags & ~NUMAGPU_MIGRATE_FLAGS_ALL)
		return -EINVAL;
	if (flags & NUMAGPU_MIGRATE_GPU) {
		if (target >= buf->sys->ngpus)
			return -EINVAL;
		nid = buf->sys->node[target];
	} else {
		if (target >= MAX_NUMNODES || target >= NUMAGPU_LOC_NO_NODE ||
		    !node_state(target, N_MEMORY))
			return -EINVAL;
		nid = target;
	}
	for (i = first; i < first + n;) {
		i = numagpu_migrate_batch(buf, i, first + n, nid,
					  flags & NUMAGPU_MIGRATE_POPULATE,
					  moved, skipped);
		if (fatal_signal_pending(current))
			return -EINTR;
		cond_resched();
	}
	return 0;
}

/* One entry of the table, packed as the uring QUERY result. */
int numagpu_buf_query1(struct numagpu_buffer *buf, u64 idx)
{
	u16 flags;
	int ret;

	if (idx >= buf->npages)
		return -EINVAL;
	mutex_lock(&buf->lock);
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

void numagpu_buf_count_uring(struct numagpu_buffer *buf)
{
	atomic64_inc(&buf->uring_cmds);
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
				  m.flags, &moved, &skipped);
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
	const gfp_t gfp = GFP_KERNEL_ACCOUNT | __GFP_NOWARN;
	size_t loctab_size;
	unsigned long i;
	u32 pol;

	buf->pages = kvcalloc(buf->npages, sizeof(*buf->pages), gfp);
	buf->policy = kvmalloc_array(buf->npages, sizeof(*buf->policy), gfp);
	buf->ps = kvcalloc(buf->npages, sizeof(*buf->ps), gfp);
	buf->reps = kvcalloc(buf->npages, sizeof(*buf->reps), gfp);
	loctab_size = PAGE_ALIGN(NUMAGPU_LOCTAB_SIZE(buf->npages));
	buf->loctab = vmalloc_user(loctab_size);
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
	INIT_DELAYED_WORK(&buf->scan, numagpu_scan_work);
	buf->id = atomic64_read(&numagpu_dev.buffers_created);
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
