// SPDX-License-Identifier: GPL-2.0
/*
 * Migration: a page copied to another node and published in its slot,
 * one page at a time or in batches that unmap a range once per view.
 */
#include <linux/bitmap.h>
#include <linux/cpuset.h>
#include <linux/highmem.h>
#include <linux/jiffies.h>
#include <linux/lockdep.h>
#include <linux/mm.h>
#include <linux/mmdebug.h>
#include <linux/moduleparam.h>
#include <linux/mutex.h>
#include <linux/nodemask.h>
#include <linux/pagemap.h>
#include <linux/sched.h>
#include <linux/sched/signal.h>
#include <linux/slab.h>
#include <linux/topology.h>

#include "numagpu.h"
#include "numagpu_buffer.h"
#include "numagpu_trace.h"

/* Tries at a page that someone else holds for a moment, as migrate_pages() */
#define NUMAGPU_MIGRATE_TRIES	3

/*
 * A test hook, 0 (off) outside tests: a migration batch waits this long,
 * its pages locked, at the two points where faults queue on them: after
 * it unmaps them, before it freezes them, and after it publishes their
 * successors, before it retries the first page someone else held (the old
 * pages after that one still locked). Both windows exist without the
 * hook, for microseconds; with it a selftest places a fault, a GUP and
 * another migration in them every time (numagpu_direct_test). Read at
 * each wait; a fatal signal ends one. At most 10 s: a fault waits for
 * both, and stays well below the hung-task timeout.
 */
#define NUMAGPU_HOLD_MAX_MS	10000

static unsigned int debug_hold_ms;

static int numagpu_hold_set(const char *val, const struct kernel_param *kp)
{
	return param_set_uint_minmax(val, kp, 0, NUMAGPU_HOLD_MAX_MS);
}

static const struct kernel_param_ops numagpu_hold_ops = {
	.set = numagpu_hold_set,
	.get = param_get_uint,
};

module_param_cb(debug_hold_ms, &numagpu_hold_ops, &debug_hold_ms, 0644);
MODULE_PARM_DESC(debug_hold_ms,
		 "Test hook: ms a migration batch waits with its pages locked before freezing them and before retrying a busy page (0: off, default; at most 10000)");

static void numagpu_debug_hold(void)
{
	unsigned int ms = READ_ONCE(debug_hold_ms);
	unsigned long end;

	if (likely(!ms))
		return;
	end = jiffies + msecs_to_jiffies(ms);
	/* a wakeup may end a sleep early: sleep again, unless killed */
	while (time_before(jiffies, end) && !fatal_signal_pending(current))
		schedule_timeout_killable(end - jiffies);
}

static void numagpu_free_unused(struct page *page)
{
	put_page(page);
	numagpu_dev_inc(pages_freed);
}

/* Locked, references frozen: the copy goes in the slot of @old. */
static void numagpu_publish_locked(struct numagpu_buffer *buf,
				   unsigned long idx, int nid,
				   struct page *old, int refs,
				   struct page *newp)
{
	lockdep_assert_held(&buf->lock);
	buf->ps[idx].wmapped = 0;
	buf->ps[idx].touches = 0;
	numagpu_loc_set(buf, idx, nid,
			(buf->loc[idx].flags & ~NUMAGPU_LOC_FALLBACK) |
			NUMAGPU_LOC_MIGRATED);
	/* the copy before the page: pairs with smp_load_acquire() */
	smp_store_release(&buf->pages[idx], newp);
	numagpu_home_unfreeze(old, refs);
	numagpu_thrash_event(buf, idx);
}

/* @old, locked, left its slot for a page on @nid: release and count it. */
static void numagpu_moved(struct numagpu_buffer *buf, unsigned long idx,
			  struct page *old, int nid, bool automatic)
{
	int from = page_to_nid(old);

	VM_WARN_ON_ONCE_PAGE(!PageLocked(old), old);
	unlock_page(old);
	/* our reference, then the slot's: faults holding one retry */
	put_page(old);
	put_page(old);
	numagpu_dev_inc(pages_freed);
	numagpu_count_held(buf, from, -1);
	numagpu_count_held(buf, nid, 1);
	numagpu_count(buf, migrations);
	if (automatic)
		numagpu_count(buf, auto_migrations);
	trace_numagpu_migrate(buf->id, idx, from, nid, automatic);
}

/* Install zeroed @newp in empty slot @idx: 1, or 0 if a fault won. */
static int numagpu_migrate_populate(struct numagpu_buffer *buf,
				    unsigned long idx, int nid,
				    struct page *newp)
{
	mutex_lock(&buf->lock);
	if (buf->pages[idx]) {
		mutex_unlock(&buf->lock);
		numagpu_free_unused(newp);
		numagpu_uncharge(buf, 1);
		return 0;
	}
	numagpu_loc_begin(buf);
	numagpu_loc_set(buf, idx, nid, NUMAGPU_LOC_POPULATED |
			POL_MODE(buf->policy[idx]) << NUMAGPU_LOC_MODE_SHIFT);
	numagpu_loc_end(buf);
	numagpu_loc_update(buf, idx);
	/* publish a zeroed page: pairs with smp_load_acquire() */
	smp_store_release(&buf->pages[idx], newp);
	mutex_unlock(&buf->lock);
	numagpu_page_installed(buf, nid, numa_node_id(), false);
	return 1;
}

/*
 * Copy the home page of @idx into @newp and publish it: 1 moved, 0 nothing
 * to do, -EBUSY pinned by a hint or hardware-poisoned, -EAGAIN held by
 * someone else (its writes could land in the old page after the copy: a
 * lost write).
 * @newp is consumed only on 1.
 */
static int numagpu_move_page(struct numagpu_buffer *buf, unsigned long idx,
			     int nid, struct page *newp, bool automatic)
{
	struct page *reps[NUMAGPU_MAX_GPUS];
	struct page *home;
	int refs;

	home = numagpu_home_lock(buf, idx);
	mutex_lock(&buf->lock);
	/* a poisoned page is never copied: it stays, skipped */
	if (!home || page_to_nid(home) == nid || numagpu_pinned(buf, idx) ||
	    PageHWPoison(home)) {
		int ret = home && page_to_nid(home) != nid ? -EBUSY : 0;

		mutex_unlock(&buf->lock);
		if (home) {
			unlock_page(home);
			put_page(home);
		}
		return ret;
	}
	numagpu_collapse_locked(buf, idx, NUMAGPU_MAX_GPUS, reps);
	mutex_unlock(&buf->lock);
	numagpu_replicas_free(buf, idx, reps);
	/* home is locked: no PTE of it can be installed again */
	numagpu_zap_all(buf, idx);
	mutex_lock(&buf->lock);
	refs = numagpu_home_freeze(home);
	if (!refs) {
		mutex_unlock(&buf->lock);
		unlock_page(home);
		put_page(home);
		return -EAGAIN;
	}
	copy_highpage(newp, home);
	numagpu_loc_begin(buf);
	numagpu_publish_locked(buf, idx, nid, home, refs, newp);
	numagpu_loc_end(buf);
	mutex_unlock(&buf->lock);
	numagpu_moved(buf, idx, home, nid, automatic);
	return 1;
}

/*
 * Move page @idx to node @nid: 1 moved (or allocated, with @populate),
 * 0 nothing to do, -EBUSY pinned or held by other kernel code, -ENOMEM no
 * room on @nid.
 */
int numagpu_migrate_one(struct numagpu_buffer *buf, unsigned long idx,
			int nid, bool populate, bool automatic)
{
	struct page *home, *newp;
	int tries, ret;

	home = numagpu_home_get(buf, idx);
	if (home && page_to_nid(home) == nid) {
		put_page(home);
		return 0;
	}
	if (!home && !populate)
		return 0;
	/* a new page is locked memory; a moved one replaces its charge */
	if (!home && numagpu_charge(buf, 1))
		return -ENOMEM;
	newp = home ? numagpu_alloc_copy(nid, home) : numagpu_alloc_on(nid);
	if (!newp) {
		if (home)
			put_page(home);
		else
			numagpu_uncharge(buf, 1);
		return -ENOMEM;
	}
	numagpu_dev_inc(pages_allocated);
	if (!home)
		return numagpu_migrate_populate(buf, idx, nid, newp);
	put_page(home);
	for (tries = 0;; tries++) {
		ret = numagpu_move_page(buf, idx, nid, newp, automatic);
		if (ret != -EAGAIN)
			break;
		if (tries + 1 == NUMAGPU_MIGRATE_TRIES) {
			ret = -EBUSY;
			break;
		}
		/* let a fault waiting for the page lock map it and go */
		cond_resched();
	}
	if (ret <= 0)
		numagpu_free_unused(newp);
	return ret;
}

#define NUMAGPU_MIGRATE_BATCH	64

/* A batch's pages, off the stack (one per migration request). */
struct numagpu_batch {
	struct page *old[NUMAGPU_MIGRATE_BATCH];
	struct page *newp[NUMAGPU_MIGRATE_BATCH];
	unsigned long busy[BITS_TO_LONGS(NUMAGPU_MIGRATE_BATCH)];
};

/* Unmap the runs of pages the batch holds from every view, not the rest. */
static void numagpu_batch_unmap(struct numagpu_buffer *buf,
				struct numagpu_batch *b, unsigned long start,
				unsigned long n)
{
	struct address_space *mapping = READ_ONCE(buf->mapping);
	unsigned long k = 0, run;
	unsigned int v;

	if (!mapping)
		return;
	while (k < n) {
		if (!b->old[k]) {
			k++;
			continue;
		}
		for (run = k; run < n && b->old[run]; run++)
			;
		for (v = 0; v < buf->sys->ngpus; v++)
			unmap_mapping_range(mapping,
					    ((loff_t)v << NUMAGPU_VIEW_SHIFT) +
					    ((loff_t)(start + k) << PAGE_SHIFT),
					    (loff_t)(run - k) << PAGE_SHIFT, 1);
		k = run;
	}
}

/*
 * Move the pages of [@start, @end) that are not on @nid yet, up to a batch
 * of them at a time: lock them (the first waits, the others are tried, so
 * batches never wait for each other), unmap the batch's pages from each
 * view at once (one TLB shootdown per run and view, not per page), copy,
 * and publish the new pages together. A page someone else holds is tried
 * again alone. Returns where the next batch starts.
 */
static unsigned long numagpu_migrate_batch(struct numagpu_buffer *buf,
					   struct numagpu_batch *b,
					   unsigned long start,
					   unsigned long end, int nid,
					   bool populate, u64 *moved,
					   u64 *skipped)
{
	struct page *reps[NUMAGPU_MAX_GPUS];
	unsigned long i, k, stop;
	unsigned int nb = 0, locked = 0;	/* published old pages, locked */
	bool waited = false;
	int ret;

	bitmap_zero(b->busy, NUMAGPU_MIGRATE_BATCH);
	for (i = start; i < end && i - start < NUMAGPU_MIGRATE_BATCH; i++) {
		struct page *home = numagpu_home_get(buf, i), *np;

		k = i - start;
		b->old[k] = NULL;
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
		np = numagpu_alloc_copy(nid, home);
		if (!np) {
			unlock_page(home);
			put_page(home);
			(*skipped)++;
			continue;
		}
		numagpu_dev_inc(pages_allocated);
		mutex_lock(&buf->lock);
		if (numagpu_pinned(buf, i) || PageHWPoison(home)) {
			mutex_unlock(&buf->lock);
			unlock_page(home);
			put_page(home);
			numagpu_free_unused(np);
			(*skipped)++;
			continue;
		}
		numagpu_collapse_locked(buf, i, NUMAGPU_MAX_GPUS, reps);
		mutex_unlock(&buf->lock);
		numagpu_replicas_free(buf, i, reps);
		b->old[k] = home;
		b->newp[k] = np;
		nb++;
	}
	stop = i;
	if (!nb)
		return stop;

	/* the homes are locked: none can be mapped again meanwhile */
	numagpu_batch_unmap(buf, b, start, stop - start);
	numagpu_debug_hold();
	mutex_lock(&buf->lock);
	numagpu_loc_begin(buf);
	for (k = 0; k < stop - start; k++) {
		int refs;

		if (!b->old[k])
			continue;
		refs = numagpu_home_freeze(b->old[k]);
		if (!refs) {
			/* GUP, O_DIRECT, a fault waiting: try it alone */
			unlock_page(b->old[k]);
			put_page(b->old[k]);
			numagpu_free_unused(b->newp[k]);
			b->old[k] = NULL;
			__set_bit(k, b->busy);
			continue;
		}
		copy_highpage(b->newp[k], b->old[k]);
		numagpu_publish_locked(buf, start + k, nid, b->old[k], refs,
				       b->newp[k]);
		locked++;
	}
	numagpu_loc_end(buf);
	mutex_unlock(&buf->lock);

	for (k = 0; k < stop - start; k++) {
		if (b->old[k]) {
			numagpu_moved(buf, start + k, b->old[k], nid, false);
			(*moved)++;
			locked--;
		} else if (test_bit(k, b->busy)) {
			/* the first: the old pages published after it stay locked */
			if (!waited && locked)
				numagpu_debug_hold();
			waited = true;
			ret = numagpu_migrate_one(buf, start + k, nid, false,
						  false);
			if (ret > 0)
				(*moved)++;
			else if (ret < 0)
				(*skipped)++;
		}
	}
	return stop;
}

/* Most pages a caller that must not block has checked for it */
#define NUMAGPU_NOWAIT_SCAN	64

/* Without sleeping: is every page of [@first, @first + @n) on @nid? */
static bool numagpu_resident(struct numagpu_buffer *buf, u64 first, u64 n,
			     int nid)
{
	u64 i;

	if (n > NUMAGPU_NOWAIT_SCAN)
		return false;
	for (i = first; i < first + n; i++) {
		/* pairs with smp_store_release() of installers */
		struct page *page = smp_load_acquire(&buf->pages[i]);

		if (!page || page_to_nid(page) != nid)
			return false;
	}
	return true;
}

/*
 * Move [@first, @first + @n) to @target (a node, or with NUMAGPU_MIGRATE_GPU
 * a GPU). With @nowait (io_uring's non-blocking issue) it only answers
 * when nothing is to move, and returns -EAGAIN otherwise.
 */
int numagpu_buf_migrate(struct numagpu_buffer *buf, u64 first, u64 n,
			u32 target, u32 flags, bool nowait, u64 *moved,
			u64 *skipped)
{
	struct numagpu_batch *b;
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
	/* as move_pages(2): no node outside the caller's cpuset */
	if (!node_isset(nid, cpuset_current_mems_allowed))
		return -EACCES;
	if (nowait)
		return numagpu_resident(buf, first, n, nid) ? 0 : -EAGAIN;
	b = kmalloc(sizeof(*b), GFP_KERNEL);
	if (!b)
		return -ENOMEM;
	for (i = first; i < first + n;) {
		i = numagpu_migrate_batch(buf, b, i, first + n, nid,
					  flags & NUMAGPU_MIGRATE_POPULATE,
					  moved, skipped);
		if (fatal_signal_pending(current)) {
			err = -EINTR;
			break;
		}
		cond_resched();
	}
	kfree(b);
	return err;
}
