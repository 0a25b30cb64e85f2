// SPDX-License-Identifier: GPL-2.0
/*
 * Thrashing control: a page that is migrated or collapsed too often within
 * a window is pinned where it is for a while.
 */
#include <linux/jiffies.h>
#include <linux/lockdep.h>
#include <linux/moduleparam.h>

#include "numagpu.h"
#include "numagpu_buffer.h"
#include "numagpu_trace.h"

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

/* Locked: is page @idx pinned? Expired pins are dropped here. */
bool numagpu_pinned(struct numagpu_buffer *buf, unsigned long idx)
{
	struct numagpu_pstate *ps = &buf->ps[idx];

	lockdep_assert_held(&buf->lock);
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
void numagpu_thrash_event(struct numagpu_buffer *buf, unsigned long idx)
{
	struct numagpu_pstate *ps = &buf->ps[idx];
	unsigned int thr = READ_ONCE(thrash_threshold);
	unsigned long now = jiffies;

	lockdep_assert_held(&buf->lock);
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
	numagpu_count(buf, pins);
	numagpu_loc_update(buf, idx);
	trace_numagpu_pin(buf->id, idx, ps->events, true);
}
