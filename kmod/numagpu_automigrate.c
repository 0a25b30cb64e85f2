// SPDX-License-Identifier: GPL-2.0
/*
 * Automatic migration: every period the views are revoked, as NUMA
 * balancing does, and a page that keeps being touched from one remote GPU
 * moves there. The fault only decides: the move, which locks pages and
 * allocates, is queued for a work item, so that a fault never waits for
 * it (nor ignores FAULT_FLAG_RETRY_NOWAIT, as a fault that may not sleep
 * on page locks would have to).
 */
#include <linux/build_bug.h>
#include <linux/cpuset.h>
#include <linux/jiffies.h>
#include <linux/kfifo.h>
#include <linux/mm.h>
#include <linux/moduleparam.h>
#include <linux/spinlock.h>
#include <linux/workqueue.h>

#include "numagpu.h"
#include "numagpu_buffer.h"

static unsigned int automigrate_period_ms;
module_param(automigrate_period_ms, uint, 0644);
MODULE_PARM_DESC(automigrate_period_ms,
		 "Automatic migration: period of the view revocation that samples accesses (ms, 0: off, default)");

static unsigned int automigrate_threshold = 2;
module_param(automigrate_threshold, uint, 0644);
MODULE_PARM_DESC(automigrate_threshold,
		 "Automatic migration: consecutive sampled touches from one remote GPU that move a page (default 2)");

/* Queue entries: page index (below NUMAGPU_MAX_PAGES), GPU on top */
#define NUMAGPU_AUTO_GPU_SHIFT	28
#define NUMAGPU_AUTO_IDX_MASK	(BIT(NUMAGPU_AUTO_GPU_SHIFT) - 1)
static_assert(!((NUMAGPU_MAX_PAGES - 1) >> NUMAGPU_AUTO_GPU_SHIFT));
static_assert(!((NUMAGPU_MAX_GPUS - 1) >> (32 - NUMAGPU_AUTO_GPU_SHIFT)));

/* Sampled remote touch of @idx by @view: migrate when it keeps coming. */
static void numagpu_auto_touch(struct numagpu_buffer *buf, unsigned long idx,
			       unsigned int view)
{
	struct numagpu_pstate *ps = &buf->ps[idx];
	struct page *home = READ_ONCE(buf->pages[idx]);
	int nid = buf->sys->node[view];
	u8 hints = READ_ONCE(ps->hints);

	/*
	 * Decided here, in the faulting task: the work item that moves the
	 * page runs in a kworker, whose cpuset is not the task's.
	 */
	if (!home || page_to_nid(home) == nid || READ_ONCE(ps->pinned) ||
	    !node_isset(nid, cpuset_current_mems_allowed) ||
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
	if (READ_ONCE(ps->touches) < max(1u, READ_ONCE(automigrate_threshold)))
		return;
	WRITE_ONCE(ps->touches, 0);
	/* a full queue drops the decision: the next samples make it again */
	spin_lock(&buf->auto_lock);
	if (kfifo_put(&buf->auto_q, (u32)idx | view << NUMAGPU_AUTO_GPU_SHIFT))
		queue_work(system_unbound_wq, &buf->auto_work);
	spin_unlock(&buf->auto_lock);
}

/* Make the queued automatic migrations. */
static void numagpu_auto_work(struct work_struct *work)
{
	struct numagpu_buffer *buf = container_of(work, struct numagpu_buffer,
						  auto_work);
	u32 e;

	for (;;) {
		spin_lock(&buf->auto_lock);
		if (!kfifo_get(&buf->auto_q, &e)) {
			spin_unlock(&buf->auto_lock);
			return;
		}
		spin_unlock(&buf->auto_lock);
		numagpu_migrate_one(buf, e & NUMAGPU_AUTO_IDX_MASK,
				    buf->sys->node[e >> NUMAGPU_AUTO_GPU_SHIFT],
				    false, true);
		cond_resched();
	}
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

void numagpu_scan_kick(struct numagpu_buffer *buf)
{
	unsigned int period = READ_ONCE(automigrate_period_ms);

	if (period && !READ_ONCE(buf->scan_on)) {
		WRITE_ONCE(buf->scan_on, true);
		schedule_delayed_work(&buf->scan, msecs_to_jiffies(period));
	}
}

/* A fault on a populated page: a sample, when automatic migration is on. */
void numagpu_automigrate_fault(struct numagpu_buffer *buf, unsigned long idx,
			       unsigned int view)
{
	if (!READ_ONCE(automigrate_period_ms))
		return;
	numagpu_scan_kick(buf);
	numagpu_auto_touch(buf, idx, view);
}

void numagpu_automigrate_init(struct numagpu_buffer *buf)
{
	INIT_DELAYED_WORK(&buf->scan, numagpu_scan_work);
	INIT_WORK(&buf->auto_work, numagpu_auto_work);
	spin_lock_init(&buf->auto_lock);
	INIT_KFIFO(buf->auto_q);
}

/* Release: no VMA is left, so no fault queues anything again. */
void numagpu_automigrate_stop(struct numagpu_buffer *buf)
{
	cancel_delayed_work_sync(&buf->scan);
	cancel_work_sync(&buf->auto_work);
}
