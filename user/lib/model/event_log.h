/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Events a GPU's requests leave for another GPU, the home, to act on at
 * the next synchronization (private to lib/model): REC's directory
 * (directory.c) and page migration (migrate.c). Each requester logs into its
 * own [requester][home] log during an interval, alone on its host thread;
 * the home's thread gathers its column and sorts it by (time, requester,
 * issue order), so the outcome does not depend on how the host scheduled
 * the threads.
 */
#ifndef NGEMU_LIB_MODEL_EVENT_LOG_H
#define NGEMU_LIB_MODEL_EVENT_LOG_H

#include <stdlib.h>

#include "ngemu/model/model.h"

/* The first member of every logged event: what orders it. */
struct ng_ev {
	ng_ticks t;		/* arrival at the home */
	uint32_t seq;		/* per requester, in issue order */
	uint8_t gpu;		/* the requester */
};

struct ng_evlog_key;

struct ng_evlog {
	void *e;
	size_t n, cap;
	/* a gathered log's scratch for sorting (event_log.c) */
	struct ng_evlog_key *key;
	size_t key_cap;
	void *tmp;
	size_t tmp_cap;
};

/* Room for one more event of @size bytes; NULL when memory is short. */
void *ng_evlog_add(struct ng_evlog *l, size_t size);

/*
 * Move logs[g][@home] of GPUs g < @ngpus into @all (emptied first), each
 * log emptied, and sort @all; events that find no memory are dropped, as
 * ng_evlog_add() would have. Returns the number gathered.
 */
size_t ng_evlog_gather(struct ng_evlog *all,
		       struct ng_evlog logs[][NG_MAX_GPUS], unsigned int ngpus,
		       unsigned int home, size_t size);

static inline void ng_evlog_free(struct ng_evlog *l)
{
	free(l->e);
	free(l->key);
	free(l->tmp);
	*l = (struct ng_evlog){ 0 };
}

#endif /* NGEMU_LIB_MODEL_EVENT_LOG_H */
