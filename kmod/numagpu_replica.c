// SPDX-License-Identifier: GPL-2.0
/*
 * Read-only replicas of read-mostly pages, one per view at most, made on a
 * view's read fault and collapsed (detached, unmapped, freed) before the
 * home page can be written.
 */
#include <linux/delay.h>
#include <linux/highmem.h>
#include <linux/lockdep.h>
#include <linux/mm.h>
#include <linux/mutex.h>
#include <linux/pagemap.h>
#include <linux/slab.h>

#include "numagpu.h"
#include "numagpu_buffer.h"
#include "numagpu_trace.h"

/*
 * Locked: take every replica of page @idx out of its slot into @out (one
 * slot per GPU); the caller releases them with numagpu_replicas_free()
 * once it may sleep on page locks. Returns how many there were.
 */
unsigned int numagpu_replicas_detach(struct numagpu_buffer *buf,
				     unsigned long idx,
				     struct page **out)
{
	struct numagpu_pstate *ps = &buf->ps[idx];
	unsigned int g, n = 0;

	lockdep_assert_held(&buf->lock);
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
void numagpu_replicas_free(struct numagpu_buffer *buf,
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
		numagpu_count_add(buf, replica_pages, -1);
		numagpu_dev_inc(pages_freed);
		put_page(rep);
		numagpu_uncharge(buf, 1);
	}
}

/*
 * Locked: drop the replicas of @idx, counted as a collapse. A collapse by a
 * write (@view the writer's) is a thrashing event; one on the way to a
 * migration (@view NUMAGPU_MAX_GPUS) is not: the migration counts one.
 */
unsigned int numagpu_collapse_locked(struct numagpu_buffer *buf,
				     unsigned long idx,
				     unsigned int view,
				     struct page **reps)
{
	unsigned int n;

	lockdep_assert_held(&buf->lock);
	n = numagpu_replicas_detach(buf, idx, reps);
	if (!n)
		return 0;
	numagpu_count(buf, collapses);
	trace_numagpu_collapse(buf->id, idx, view, n);
	if (view < NUMAGPU_MAX_GPUS)
		numagpu_thrash_event(buf, idx);
	return n;
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

/* Locked: does view @view still want a replica of @idx? */
static bool numagpu_replica_wanted(struct numagpu_buffer *buf,
				   unsigned long idx, unsigned int view)
{
	struct numagpu_pstate *ps = &buf->ps[idx];

	lockdep_assert_held(&buf->lock);
	return (ps->hints & PS_READ_MOSTLY) && !numagpu_pinned(buf, idx) &&
	       !(ps->accessed_by & BIT(view));
}

/*
 * Tries at a home that someone holds for a moment (see held_elsewhere):
 * another view's fault between its reference and counting itself a
 * waiter is a window of a few instructions, unless its CPU is preempted
 * there (a vCPU can be, for milliseconds): the later tries sleep.
 */
#define NUMAGPU_REPLICA_TRIES	12
#define NUMAGPU_REPLICA_SPINS	3

/*
 * Read fault of view @view on a read-mostly page homed elsewhere: map the
 * view's replica, making it first. Returns VM_FAULT_LOCKED with vmf->page
 * set, or 0 when the home page should be mapped instead.
 */
vm_fault_t numagpu_replica_fault(struct numagpu_buffer *buf,
				 struct vm_fault *vmf,
				 unsigned long idx, unsigned int view)
{
	struct numagpu_pstate *ps = &buf->ps[idx];
	int nid = buf->sys->node[view];
	struct page *rep, *home, *newp = NULL;
	bool zapped = false;
	int tries = 0;

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
			numagpu_uncharge(buf, 1);
			numagpu_dev_inc(pages_freed);
		}
		if (unlikely(PageHWPoison(rep))) {
			/* a copy: the view maps the home page instead */
			unlock_page(rep);
			put_page(rep);
			return 0;
		}
		vmf->page = rep;
		return VM_FAULT_LOCKED;
	}

	if (!newp) {
		/* past the creator's locked-memory limit: map the home page */
		if (numagpu_charge(buf, 1))
			return 0;
		newp = alloc_pages_node(nid, NUMAGPU_GFP_COPY, 0);
		if (!newp) {
			numagpu_uncharge(buf, 1);
			return 0;	/* no room here: map the home page */
		}
		numagpu_dev_inc(pages_allocated);
	}
	home = numagpu_home_lock(buf, idx);
	if (!home)
		goto give_up;
	mutex_lock(&buf->lock);
	/* a poisoned page is never copied: its fault says so instead */
	if (!numagpu_replica_wanted(buf, idx, view) ||
	    page_to_nid(home) == nid || PageHWPoison(home)) {
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
		/* no OOM kill from a fault: no room means no replica */
		struct page **slots = kcalloc(buf->sys->ngpus, sizeof(*slots),
					      GFP_KERNEL_ACCOUNT |
					      __GFP_NORETRY | __GFP_NOWARN);

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
	if (numagpu_home_held_elsewhere(home)) {
		/* its holder may write (O_DIRECT, a device): no copy */
		unlock_page(home);
		put_page(home);
		if (++tries < NUMAGPU_REPLICA_TRIES) {
			if (tries < NUMAGPU_REPLICA_SPINS)
				cond_resched();
			else
				usleep_range(100, 1000);
			goto again;
		}
		goto give_up;
	}
	copy_highpage(newp, home);
	/* unpublished: nobody else can hold its lock */
	lock_page(newp);
	get_page(newp);		/* the PTE's; the buffer keeps the first */
	mutex_lock(&buf->lock);
	if (!numagpu_replica_wanted(buf, idx, view)) {
		/* the hint went (or a pin came) while we copied */
		mutex_unlock(&buf->lock);
		unlock_page(newp);
		put_page(newp);
		unlock_page(home);
		put_page(home);
		goto give_up;
	}
	WRITE_ONCE(buf->reps[idx][view], newp);
	ps->nreps++;
	numagpu_loc_update(buf, idx);
	mutex_unlock(&buf->lock);
	trace_numagpu_replicate(buf->id, idx, view, page_to_nid(home), nid,
				zapped);
	unlock_page(home);
	put_page(home);
	numagpu_count_held(buf, nid, 1);
	numagpu_count(buf, replica_pages);
	numagpu_count(buf, replicas_created);
	vmf->page = newp;
	return VM_FAULT_LOCKED;

give_up:
	put_page(newp);
	numagpu_uncharge(buf, 1);
	numagpu_dev_inc(pages_freed);
	return 0;
}
