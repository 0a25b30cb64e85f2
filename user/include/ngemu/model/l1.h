/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The L1's settings: an L1 per real SM (a CU), for local and remote lines,
 * write-through and dropped at kernel boundaries (software coherence, as
 * REC's and DualOpt's GPUs; the component is lib/model/l1.c). They sit in
 * struct ng_config as its member .l1; the keys l1-size, l1-ways and
 * l1-latency set them.
 */
#ifndef NGEMU_MODEL_L1_H
#define NGEMU_MODEL_L1_H

#include <stdbool.h>
#include <stdint.h>

struct ng_l1_config {
	uint64_t size;			/* per real SM; 0: no L1 */
	unsigned int ways;
	double latency_ns;		/* a hit's (a miss pays it too) */
};

/* None; when given a size, 4 ways and 20 ns. */
#define NG_L1_DEFAULTS	{ .ways = 4, .latency_ns = 20 }

/*
 * Its counters, in the form of ngemu/util/counters.h's list (which takes
 * them in): X(ID, component, name, what it counts).
 */
#define NG_L1_COUNTERS(X)						\
	X(L1_HIT,	"l1",	"hits",		"loads served by the SM's L1") \
	X(L1_MISS,	"l1",	"misses",	"loads missing the L1") \
	X(L1_RHIT,	"l1",	"remote_hits",	"loads of remote lines served by the L1") \
	X(L1_RMISS,	"l1",	"remote_misses", "loads of remote lines missing the L1") \
	X(L1_FILL,	"l1",	"fills",	"lines inserted in an L1")

/* True when the SMs have an L1: the component is in use. */
static inline bool ng_l1_on(const struct ng_l1_config *l1)
{
	return l1->size != 0;
}

#endif /* NGEMU_MODEL_L1_H */
