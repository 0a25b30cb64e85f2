// SPDX-License-Identifier: GPL-2.0
/*
 * Hints on a range of pages: read-mostly (replicate on read), a preferred
 * GPU (first touch goes there), accessed-by (never migrate or replicate
 * towards that GPU).
 */
#include <linux/mm.h>
#include <linux/mutex.h>
#include <linux/sched.h>
#include <linux/sched/signal.h>

#include "numagpu.h"
#include "numagpu_buffer.h"
#include "numagpu_trace.h"

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
			numagpu_count(buf, collapses);
			trace_numagpu_collapse(buf->id, i, NUMAGPU_MAX_GPUS,
					       dropped);
		}
		if (!(i % 1024)) {
			/* a hint per page: what is done stays done */
			if (fatal_signal_pending(current))
				return -EINTR;
			cond_resched();
		}
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
