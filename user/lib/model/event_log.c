// SPDX-License-Identifier: GPL-2.0
/*
 * Per-home event logs, gathered in one order (event_log.h).
 */
#include <stdlib.h>
#include <string.h>

#include "model/event_log.h"
#include "util/util.h"

void *ng_evlog_add(struct ng_evlog *l, size_t size)
{
	if (!ng_grow(&l->e, &l->cap, l->n + 1, size))
		return NULL;
	return (char *)l->e + l->n++ * size;
}

static int ev_cmp(const void *a, const void *b)
{
	const struct ng_ev *x = a, *y = b;

	if (x->t != y->t)
		return x->t < y->t ? -1 : 1;
	if (x->gpu != y->gpu)
		return x->gpu < y->gpu ? -1 : 1;
	return (x->seq > y->seq) - (x->seq < y->seq);
}

size_t ng_evlog_gather(struct ng_evlog *all,
		       struct ng_evlog logs[][NG_MAX_GPUS], unsigned int ngpus,
		       unsigned int home, size_t size)
{
	all->n = 0;
	for (unsigned int g = 0; g < ngpus; g++) {
		struct ng_evlog *l = &logs[g][home];

		if (l->n && ng_grow(&all->e, &all->cap, all->n + l->n, size)) {
			memcpy((char *)all->e + all->n * size, l->e, l->n * size);
			all->n += l->n;
		}
		l->n = 0;
	}
	if (all->n > 1)
		qsort(all->e, all->n, size, ev_cmp);
	return all->n;
}
