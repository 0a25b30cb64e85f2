/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The memory-side L2's settings (MGPUSim's L2, as REC and DualOpt model
 * their GPUs: a cache in front of each GPU's memory that serves every
 * request to it, the GPU's own and other GPUs' alike; the component is
 * lib/model/mem_side_l2.c). They sit in struct ng_config as its member
 * .msl2; the keys msl2-size, msl2-ways and msl2-latency set them.
 */
#ifndef NGEMU_MODEL_MEM_SIDE_L2_H
#define NGEMU_MODEL_MEM_SIDE_L2_H

#include <stdbool.h>
#include <stdint.h>

struct ng_msl2_config {
	uint64_t size;			/* per GPU; 0: none */
	unsigned int ways;
	double latency_ns;		/* a hit's, instead of the memory's */
};

/* None; when given a size, 16 ways and 100 ns hits. */
#define NG_MSL2_DEFAULTS	{ .ways = 16, .latency_ns = 100 }

/*
 * Its counters, in the form of ngemu/util/counters.h's list (which takes
 * them in): X(ID, component, name, what it counts).
 */
#define NG_MSL2_COUNTERS(X)						\
	X(MSL2_HIT,	"msl2",	"hits",		"requests a memory-side L2 served (by requester)") \
	X(MSL2_MISS,	"msl2",	"misses",	"requests that went on to memory (by requester)")

/* True when a memory-side L2 is configured: the component is in use. */
static inline bool ng_msl2_on(const struct ng_msl2_config *l2)
{
	return l2->size != 0;
}

#endif /* NGEMU_MODEL_MEM_SIDE_L2_H */
