// SPDX-License-Identifier: GPL-2.0
/*
 * Migration: a page copied to another node and published in its slot,
 * one page at a time or in batches that unmap a range once per view.
 */
#include <linux/highmem.h>
#include <linux/mm.h>
#include <linux/mutex.h>
#include <linux/nodemask.h>
#include <linux/pagemap.h>
#include <linux/sched/signal.h>
#include <linux/topology.h>

#include "numagpu.h"
#include "numagpu_buffer.h"
#include "numagpu_trace.h"

/*
 * Move page @idx to node @nid: 1 moved (or allocated, with @populate),
 * 0 nothing to do, -EBUSY pinned, -ENOMEM no room on @nid.
 */
int numagpu_migrate_one(struct numagpu_buffer *buf, unsigned long idx,
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
