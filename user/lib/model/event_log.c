// SPDX-License-Identifier: GPL-2.0
/*
 * Per-home event logs, gathered in one order (event_log.h).
 */
#include <stdbool.h>
#include <stdint.h>
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

/* An event's place in ev_cmp()'s order, and where it is. */
struct ng_evlog_key {
	ng_ticks t;
	uint64_t tie;		/* requester, then issue order */
	size_t i;
};

static bool key_before(const struct ng_evlog_key *a,
		       const struct ng_evlog_key *b)
{
	return a->t < b->t || (a->t == b->t && a->tie < b->tie);
}

/*
 * Merge the sorted runs of @k (run ends in @end, @nr of them) pairwise
 * until one is left, through @w; returns the array that holds it.
 */
static struct ng_evlog_key *merge_runs(struct ng_evlog_key *k,
				       struct ng_evlog_key *w, size_t *end,
				       size_t nr)
{
	while (nr > 1) {
		struct ng_evlog_key *s = k;
		size_t lo = 0, out = 0;

		for (size_t r = 0; r < nr; r += 2) {
			size_t mid = end[r], hi = r + 1 < nr ? end[r + 1] : mid;
			size_t a = lo, b = mid, o = lo;

			while (a < mid && b < hi)
				w[o++] = key_before(&k[b], &k[a]) ? k[b++] : k[a++];
			while (a < mid)
				w[o++] = k[a++];
			while (b < hi)
				w[o++] = k[b++];
			end[out++] = hi;
			lo = hi;
		}
		nr = out;
		k = w;
		w = s;
	}
	return k;
}

/*
 * Sort @all in ev_cmp()'s order, a total one (a requester's issue order
 * is unique), so any sort gives the same: qsort() with its comparator
 * call per step took a tenth of a DualOpt run. The gathered logs are
 * each nearly in time order already (a GPU's slots stay within a slice
 * of each other): a natural merge sort of the keys takes their runs as
 * they come, then the events are moved once. False when memory is short.
 */
static bool sort_events(struct ng_evlog *all, size_t size)
{
	size_t n = all->n, nr = 0, *end, c;
	struct ng_evlog_key *k, *w;
	void *old;

	/* keys, merge space, and the runs' ends after them */
	if (!ng_grow((void **)&all->key, &all->key_cap, 2 * n + n / 2 + 1,
		     sizeof(*all->key)) ||
	    !ng_grow(&all->tmp, &all->tmp_cap, n, size))
		return false;
	k = all->key;
	w = k + n;
	end = (size_t *)(w + n);
	for (size_t i = 0; i < n; i++) {
		const struct ng_ev *e = (const void *)((char *)all->e + i * size);

		k[i] = (struct ng_evlog_key){
			.t = e->t, .tie = (uint64_t)e->gpu << 32 | e->seq, .i = i };
		if (i && key_before(&k[i], &k[i - 1]))
			end[nr++] = i;
	}
	end[nr++] = n;
	if (nr == 1)
		return true;
	k = merge_runs(k, w, end, nr);
	for (size_t i = 0; i < n; i++)
		memcpy((char *)all->tmp + i * size,
		       (char *)all->e + k[i].i * size, size);
	old = all->e;
	all->e = all->tmp;
	all->tmp = old;
	c = all->cap;
	all->cap = all->tmp_cap;
	all->tmp_cap = c;
	return true;
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
	if (all->n > 1 && !sort_events(all, size))
		qsort(all->e, all->n, size, ev_cmp);
	return all->n;
}
