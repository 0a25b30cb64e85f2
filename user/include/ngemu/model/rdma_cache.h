/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The RDMA cache's settings (DualOpt sec. 4.2: a cache of remote lines
 * beside each GPU's L2, filled by its remote loads, write-back, dropped
 * at kernel boundaries; the component is lib/model/rdma_cache.c, on when
 * remote-opt is rdma or auto and its size is not 0). They sit in struct
 * ng_config as its member .rdma; the keys rdma-size, rdma-ways and
 * rdma-latency set them.
 */
#ifndef NGEMU_MODEL_RDMA_CACHE_H
#define NGEMU_MODEL_RDMA_CACHE_H

#include <stdint.h>

struct ng_rdma_config {
	uint64_t size;			/* per GPU */
	unsigned int ways;
	double latency_ns;		/* a hit's */
};

/* DualOpt Table 1: 1.5 MB, 16 ways (a hit in 20 ns: not given there) */
#define NG_RDMA_DEFAULTS	{ .size = 1536 << 10, .ways = 16, .latency_ns = 20 }

/*
 * Its counters, in the form of ngemu/util/counters.h's list (which takes
 * them in): X(ID, component, name, what it counts).
 */
#define NG_RDMA_COUNTERS(X)						\
	X(RDMA_HIT,	"rdma",	"hits",		"remote loads served by the RDMA cache") \
	X(RDMA_MISS,	"rdma",	"misses",	"remote loads missing the RDMA cache") \
	X(RDMA_FILL,	"rdma",	"fills",	"remote lines inserted") \
	X(RDMA_EVICT,	"rdma",	"evictions",	"valid lines replaced") \
	X(RDMA_WHIT,	"rdma",	"write_hits",	"remote stores absorbed by a cached line (write-back)") \
	X(RDMA_WB_BYTES, "rdma", "writeback_bytes", "link bytes writing dirty words back to their homes") \
	X(RDMA_INVAL,	"rdma",	"invalidations", "lines dropped at kernel boundaries")

#endif /* NGEMU_MODEL_RDMA_CACHE_H */
