// SPDX-License-Identifier: GPL-2.0
/*
 * A buffer's pages: allocation on a node (or the nearest with room), the
 * counts of pages held, the home page of a slot taken with a speculative
 * reference and locked, and unmapping a page from the views.
 */
#include <linux/atomic.h>
#include <linux/build_bug.h>
#include <linux/gfp.h>
#include <linux/jiffies.h>
#include <linux/memcontrol.h>
#include <linux/mm.h>
#include <linux/mmdebug.h>
#include <linux/nodemask.h>
#include <linux/page_ref.h>
#include <linux/pagemap.h>
#include <linux/rcupdate.h>
#include <linux/sched/mm.h>
#include <linux/topology.h>

#include "numagpu.h"
#include "numagpu_buffer.h"
#include "numagpu_compat.h"

struct page *numagpu_alloc_on(int nid)
{
	return alloc_pages_node(nid, NUMAGPU_GFP, 0);
}

/*
 * A page on @nid to take @old's data, charged where @old is, as mm's own
 * migration keeps a page's charge with its data: from an automatic
 * migration's work item the charge would otherwise go nowhere (a kworker
 * has no memcg) while @old's is dropped, and from a MIGRATE it would move
 * to the caller's.
 */
struct page *numagpu_alloc_copy(int nid, struct page *old)
{
	struct mem_cgroup *memcg, *prev;
	struct page *page;

	rcu_read_lock();
	memcg = numagpu_page_memcg(old);
	if (memcg && !css_tryget(&memcg->css))
		memcg = NULL;
	rcu_read_unlock();
	prev = set_active_memcg(memcg);
	page = alloc_pages_node(nid, NUMAGPU_GFP_COPY, 0);
	set_active_memcg(prev);
	if (memcg)
		css_put(&memcg->css);
	return page;
}

/*
 * A buffer that may fall back skips a node whose allocation just failed:
 * each failed attempt runs direct reclaim first, and made a page that
 * falls back cost about 20 times a local one.
 */
#define NUMAGPU_FULL_MS	10

bool numagpu_alloc_full_recently(struct numagpu_buffer *buf, int nid)
{
	return (buf->flags & NUMAGPU_BUF_FALLBACK) &&
	       nid < NUMAGPU_MAX_NODES &&
	       time_before(jiffies, READ_ONCE(buf->full_until[nid]));
}

void numagpu_alloc_failed(struct numagpu_buffer *buf, int nid)
{
	if (nid < NUMAGPU_MAX_NODES)
		WRITE_ONCE(buf->full_until[nid],
			   jiffies + msecs_to_jiffies(NUMAGPU_FULL_MS));
}

/* The nearest other node with memory that has a free page, by distance. */
struct page *numagpu_alloc_fallback(int nid, int *got)
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

void numagpu_count_node(atomic64_t *arr, int nid, long delta)
{
	if (nid >= 0 && nid < NUMAGPU_MAX_NODES)
		atomic64_add(delta, &arr[nid]);
}

void numagpu_count_held(struct numagpu_buffer *buf, int nid, long d)
{
	numagpu_count_node(buf->node_pages, nid, d);
	numagpu_count_node(numagpu_node_pages, nid, d);
	numagpu_dev_add(pages_held, d);
}

/* Unmap page @idx from view @view (every process, every mapping). */
void numagpu_zap_view(struct numagpu_buffer *buf, unsigned long idx,
		      unsigned int view)
{
	struct address_space *mapping = READ_ONCE(buf->mapping);
	loff_t off;

	if (!mapping)
		return;
	off = ((loff_t)view << NUMAGPU_VIEW_SHIFT) + ((loff_t)idx << PAGE_SHIFT);
	unmap_mapping_range(mapping, off, PAGE_SIZE, 1);
}

void numagpu_zap_all(struct numagpu_buffer *buf, unsigned long idx)
{
	unsigned int v;

	for (v = 0; v < buf->sys->ngpus; v++)
		numagpu_zap_view(buf, idx, v);
}

/* A counted reference on the home page of @idx, or NULL if absent. */
struct page *numagpu_home_get(struct numagpu_buffer *buf,
			      unsigned long idx)
{
	struct page *page;

	for (;;) {
		/* pairs with smp_store_release() of installers */
		page = smp_load_acquire(&buf->pages[idx]);
		if (!page)
			return NULL;
		/*
		 * Speculative, as the page cache: the page may be freed, or
		 * frozen by a migration about to publish its successor.
		 */
		if (!get_page_unless_zero(page)) {
			cpu_relax();
			continue;
		}
		if (READ_ONCE(buf->pages[idx]) == page)
			return page;
		put_page(page);
	}
}

/*
 * Faults that hold a reference on a home page while they wait for its
 * lock, counted on that page: the lock holder can tell their references
 * from other holders'. The count belongs to the page, not to its slot: a
 * fault waiting on a page that migration then replaces still holds the old
 * page, and a count per slot made the next freeze of the new page expect
 * its reference too (a lost write). The module's pages are its own, not in
 * any page cache, so page->private is the module's to use; it is zero
 * again whenever no fault waits, as the page allocator expects of a page
 * it gets back.
 */
static atomic_long_t *numagpu_page_waiters(struct page *page)
{
	BUILD_BUG_ON(sizeof(atomic_long_t) != sizeof(page->private));
	return (atomic_long_t *)&page->private;
}

/* The home page of @idx, referenced and locked, still in its slot. */
struct page *numagpu_home_lock(struct numagpu_buffer *buf,
			       unsigned long idx)
{
	struct page *page;

	for (;;) {
		page = numagpu_home_get(buf, idx);
		if (!page)
			return NULL;
		atomic_long_inc(numagpu_page_waiters(page));
		lock_page(page);
		atomic_long_dec(numagpu_page_waiters(page));
		if (READ_ONCE(buf->pages[idx]) == page)
			return page;
		unlock_page(page);
		put_page(page);
	}
}

/* The references on a home page besides its PTEs': the slot's, the caller's */
#define NUMAGPU_HOME_REFS	2

/*
 * The references a locked home page may have without anyone else holding
 * it: its slot's, the caller's and those of faults waiting for its lock.
 * A waiter counts itself only after it has taken its reference, so one in
 * between looks like another holder: callers try again before they give
 * up.
 */
static int numagpu_home_refs(struct page *home)
{
	return NUMAGPU_HOME_REFS +
	       (int)atomic_long_read(numagpu_page_waiters(home));
}

/*
 * Locked home page @home: does anyone but its slot, the caller, its PTEs
 * and faults waiting for its lock hold it (GUP for O_DIRECT or vmsplice,
 * a device)? Such a holder may write at any time.
 */
bool numagpu_home_held_elsewhere(struct page *home)
{
	VM_WARN_ON_ONCE_PAGE(!PageLocked(home), home);
	return page_count(home) > numagpu_home_refs(home) +
	       numagpu_page_mapcount(home);
}

/*
 * Locked home page @home, unmapped from every view: freeze its references
 * if only its slot, the caller and faults waiting for its lock hold it, so
 * that nobody can take one until numagpu_home_unfreeze(). The waiters'
 * references stay theirs: they find the slot changed and put them. A
 * waiter cannot leave meanwhile (the caller holds the lock). Returns the
 * references frozen, or 0 if another holder exists (a copy could miss its
 * writes) or a fault is between its reference and counting itself.
 */
int numagpu_home_freeze(struct page *home)
{
	int refs;

	VM_WARN_ON_ONCE_PAGE(!PageLocked(home), home);
	refs = numagpu_home_refs(home);
	return page_ref_freeze(home, refs) ? refs : 0;
}

/* After the successor is published: the references frozen, again. */
void numagpu_home_unfreeze(struct page *home, int refs)
{
	page_ref_unfreeze(home, refs);
}

void numagpu_page_installed(struct numagpu_buffer *buf, int got,
			    int cpu_nid, bool fallback)
{
	numagpu_buf_inc(buf, populated);
	numagpu_count_held(buf, got, 1);
	if (got == cpu_nid)
		numagpu_count(buf, first_touch_local);
	else
		numagpu_count(buf, first_touch_remote);
	if (fallback)
		numagpu_count(buf, fallbacks);
}
