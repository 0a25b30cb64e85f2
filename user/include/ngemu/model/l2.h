/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The L2's settings: a GPU's L2, holding the lines of other GPUs (and of
 * the host) it reads and, with local, its own memory's lines too; flushed
 * at kernel boundaries unless a coherence mechanism keeps it (CARVE's
 * HWC, a directory). The component is lib/model/l2.c. The settings sit in
 * struct ng_config as its member .l2; the keys l2-size, l2-ways,
 * l2-latency and l2-local set them.
 */
#ifndef NGEMU_MODEL_L2_H
#define NGEMU_MODEL_L2_H

#include <stdbool.h>
#include <stdint.h>

struct ng_l2_config {
	uint64_t size;			/* per GPU; 0: no L2 */
	unsigned int ways;
	double latency_ns;
	bool local;			/* it caches local lines too */
};

/* The common ground's (CARVE's machine, config/presets.c): 8 MB a GPU. */
#define NG_L2_DEFAULTS							\
	{ .size = 8 << 20, .ways = 16, .latency_ns = 120, .local = true }

/*
 * Its counters, in the form of ngemu/util/counters.h's list (which takes
 * them in): X(ID, component, name, what it counts).
 */
#define NG_L2_COUNTERS(X)						\
	X(L2_HIT,	"l2",	"hits",		"remote loads served by the L2") \
	X(L2_MISS,	"l2",	"misses",	"remote loads missing the L2") \
	X(L2_FILL,	"l2",	"fills",	"remote lines inserted")	\
	X(L2_EVICT,	"l2",	"evictions",	"valid lines replaced")	\
	X(L2_WUPD,	"l2",	"write_updates", "cached lines updated by own stores") \
	X(L2_INVAL,	"l2",	"invalidations", "lines dropped at kernel boundaries") \
	X(L2_COH_INVAL,	"l2",	"coherence_invalidations", "lines dropped by coherence invalidates") \
	X(L2_COLD,	"l2",	"cold_misses",	"remote loads missing a line this L2 never held") \
	X(L2_WALLOC,	"l2",	"write_allocs",	"remote lines inserted by own stores (directory)") \
	X(L2_LOCAL_HIT,	"l2",	"local_hits",	"local loads and stores to a line the L2 held (l2-local)") \
	X(L2_LOCAL_MISS, "l2",	"local_misses",	"local loads and stores to a line it did not hold (l2-local)") \
	X(L2_WRITEBACK,	"l2",	"writebacks",	"dirty local lines written to memory when replaced") \
	X(L2_REQS,	"l2",	"requests",	"line requests that reached the L2") \
	X(L2_REQ_TICKS,	"l2",	"request_ticks", "their time from reaching the L2 to its response, ticks (REC Fig. 16)")

/* True when the GPUs have an L2: the component is in use. */
static inline bool ng_l2_on(const struct ng_l2_config *l2)
{
	return l2->size != 0;
}

#endif /* NGEMU_MODEL_L2_H */
