/* SPDX-License-Identifier: GPL-2.0 */
/*
 * What the inter-GPU fabric carried (lib/model/link.c): the bytes each
 * ordered pair of GPUs sent, whatever servers they crossed, and for each
 * server of the topology (ng_link_route(): a mesh's link per ordered
 * pair, a switch's or a hub's port per GPU and direction) the bytes it
 * carried and its busy time, the sum of its transfers' durations. Kept
 * from the last counter reset (the timed kernels), as the counters are,
 * with the kernels' modeled time since then; a server's utilization is
 * its busy time over that. Every transfer counts: loads' lines,
 * stores, invalidations, write-backs, page copies, CoDec packets. A
 * booking nobody waits for (an invalidation, a posted write-back) may end
 * after its kernel, so a saturated server may show a little over 1.
 */
#ifndef NGEMU_MODEL_LINKUSE_H
#define NGEMU_MODEL_LINKUSE_H

#include <stdbool.h>
#include <stdint.h>

#include "ngemu/config.h"
#include "ngemu/model/model.h"

/* One server of the fabric. */
struct ng_link_server {
	/* mesh: the link from GPU @from to GPU @to */
	unsigned int from, to;
	/* switch, hub: GPU @gpu's port, into the GPU (@in) or out of it */
	unsigned int gpu;
	bool in;
	uint64_t bytes;			/* what it carried */
	ng_ticks busy;			/* its transfers' time on it */
};

#define NG_LINK_MAX_SERVERS	(NG_MAX_GPUS * NG_MAX_GPUS)

struct ng_link_usage {
	enum ng_link_topology topology;
	unsigned int ngpus;
	ng_ticks ticks;			/* the kernels' modeled time, summed */
	/*
	 * mesh: a link per ordered pair, by sender then receiver; switch,
	 * hub: each GPU's port out, then in
	 */
	unsigned int nservers;
	struct ng_link_server server[NG_LINK_MAX_SERVERS];
	uint64_t pair[NG_MAX_GPUS][NG_MAX_GPUS];	/* bytes GPU i sent GPU j */
};

/* The fabric's use since the last counter reset. */
void ng_link_usage(const struct ng_model *m, struct ng_link_usage *out);

/* Server @s's busy time over the kernels' time (0 before any kernel). */
static inline double ng_link_util(const struct ng_link_usage *u,
				  const struct ng_link_server *s)
{
	return u->ticks ? (double)s->busy / (double)u->ticks : 0;
}

/* The index of @u's busiest server (the first of equals). */
static inline unsigned int ng_link_busiest(const struct ng_link_usage *u)
{
	unsigned int best = 0;

	for (unsigned int i = 1; i < u->nservers; i++)
		if (u->server[i].busy > u->server[best].busy)
			best = i;
	return best;
}

#endif /* NGEMU_MODEL_LINKUSE_H */
