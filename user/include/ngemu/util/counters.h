/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Every statistic ngemu keeps, registered by name in this one list: the
 * component that owns it, its name, and what it counts. A component with a
 * header of its own lists its counters there (NG_SCALEGPU_COUNTERS) and
 * this list takes them in at their place. Each emulated SM has
 * a private array of them (no sharing, no atomics on the hot path); a GPU's
 * value is the sum over its SMs, taken after a launch.
 */
#ifndef NGEMU_COUNTERS_H
#define NGEMU_COUNTERS_H

#include <stdint.h>

#include "ngemu/model/mem_side_l2.h"
#include "ngemu/model/l1.h"
#include "ngemu/model/rdma_cache.h"
#include "ngemu/model/scalegpu.h"

#define NG_COUNTERS(X)							\
	X(REQ,		"core",	"requests",	"line requests issued")	\
	X(REQ_LOAD,	"core",	"loads",	"load line requests")	\
	X(REQ_STORE,	"core",	"stores",	"store line requests")	\
	X(REQ_ATOMIC,	"core",	"atomics",	"atomic line requests")	\
	X(LANES,	"core",	"lanes",	"active lane accesses")	\
	X(WORDS,	"core",	"words",	"4-byte words requested") \
	X(INSTS,	"core",	"insts",	"warp instructions of arithmetic issued") \
	X(COMPUTE_TICKS, "core", "compute_ticks", "SM time issuing arithmetic, ticks") \
	X(SM_TICKS,	"core",	"sm_ticks",	"SM time from kernel start to its last completion, ticks") \
	X(LOCAL,	"core",	"local",	"requests homed on this GPU") \
	X(REMOTE,	"core",	"remote",	"requests homed on another GPU") \
	X(HOST,		"core",	"host",		"requests homed in host memory") \
	X(BLOCKS,	"core",	"blocks",	"thread blocks run")	\
	X(STOLEN,	"core",	"stolen",	"blocks taken from another GPU") \
	X(UNBOOKED,	"core",	"unbooked",	"transfers a full calendar shadow could not book") \
	X(REMOTE_TICKS,	"core",	"remote_ticks",	"remote requests' time from issue to completion, ticks") \
	X(WAVE_SHARED,	"core",	"wave_shared",	"lines a wavefront's second warp shared with its first's requests (warp-width 64)") \
	NG_L1_COUNTERS(X)						\
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
	X(L2_REQ_TICKS,	"l2",	"request_ticks", "their time from reaching the L2 to its response, ticks (REC Fig. 16)") \
	X(RDC_HIT,	"rdc",	"hits",		"remote loads served by the RDC") \
	X(RDC_MISS,	"rdc",	"misses",	"remote loads missing the RDC") \
	X(RDC_FILL,	"rdc",	"fills",	"remote lines inserted in the RDC") \
	X(RDC_EVICT,	"rdc",	"evictions",	"valid RDC lines replaced") \
	X(RDC_WUPD,	"rdc",	"write_updates", "RDC lines updated by own stores") \
	X(RDC_INVAL,	"rdc",	"invalidations", "RDC lines dropped by HWC invalidates") \
	X(RDC_FLUSH,	"rdc",	"epoch_flushed", "valid RDC lines dropped by SWC epochs") \
	X(INV_MSGS,	"hwc",	"inv_msgs",	"write-invalidate messages broadcast") \
	X(INV_BYTES,	"hwc",	"inv_bytes",	"link bytes of write-invalidates") \
	X(IMST_RESET,	"hwc",	"imst_resets",	"IMST entries reset to private") \
	X(IMST_READS,	"hwc",	"imst_reads",	"IMST reads at the home for writes without a cached copy") \
	X(IMST_WRITES,	"hwc",	"imst_writes",	"IMST changes written back with a read at the home") \
	X(INV_SAFE,	"hwc",	"race_invals",	"invalidates of same-interval readers of a written line") \
	X(REPL_HIT,	"repl",	"local_hits",	"remote loads served by a local replica") \
	X(REPL_PAGES,	"repl",	"pages",	"pages replicated") \
	X(REPL_BYTES,	"repl",	"copy_bytes",	"link bytes copying replicas") \
	X(REPL_COLLAPSE, "repl", "collapses",	"replicated pages collapsed by a write") \
	X(DIR_ALLOC,	"dir",	"allocations",	"directory entries allocated") \
	X(DIR_EVICT,	"dir",	"evictions",	"valid directory entries replaced") \
	X(DIR_EVICT_LINES, "dir", "evicted_lines", "lines the evicted entries held") \
	X(DIR_INV_WRITE, "dir",	"inv_write",	"write-initiated invalidation messages") \
	X(DIR_INV_EVICT, "dir",	"inv_evict",	"eviction-initiated invalidation messages") \
	X(DIR_INV_WRITE_HIT, "dir", "inv_write_hits", "write-initiated invalidations that found the line in the sharer's L2") \
	X(DIR_INV_EVICT_HIT, "dir", "inv_evict_hits", "eviction-initiated invalidations that found the line in the sharer's L2 (unnecessary ones)") \
	X(DIR_RACE,	"dir",	"race_invals",	"invalidates of same-interval readers of a written line") \
	X(MSHR_HIT,	"mshr",	"hits",		"fine-grained loads merged with an in-flight request covering their words") \
	X(MSHR_PARTIAL,	"mshr",	"partial",	"fine-grained loads of a line in flight whose mask was not covered") \
	X(MSHR_FULL,	"mshr",	"full",		"fine-grained loads that found every MSHR in flight and waited for one") \
	X(FINE_REQ,	"mshr",	"fine_loads",	"fine-grained remote loads sent (L1 bypassed)") \
	X(FINE_UNITS,	"mshr",	"fine_units",	"transfer units (xfer-gran bytes) they fetched") \
	NG_RDMA_COUNTERS(X)						\
	X(CODEC_PKTS,	"codec", "packets",	"CoDec packets of fine-grained responses") \
	X(CODEC_XACTS,	"codec", "transactions", "fine-grained responses' units packed into them") \
	X(CODEC_FULL,	"codec", "full",	"packets sent full (the rest left on their timeout)") \
	X(MIG_PAGES,	"migrate", "pages",	"pages migrated on a first remote touch") \
	X(MIG_BYTES,	"migrate", "bytes",	"link bytes moving them") \
	NG_MSL2_COUNTERS(X)						\
	NG_SCALEGPU_COUNTERS(X)						\
	X(XACT_REQ,	"link",	"requests",	"inter-GPU requests without data (loads, atomics)") \
	X(XACT_DATA,	"link",	"data",		"inter-GPU transfers with data (lines back, stores, atomics' values)") \
	X(LINK_TX,	"link",	"tx_bytes",	"bytes this GPU sent over links") \
	X(LINK_RX,	"link",	"rx_bytes",	"bytes this GPU received over links") \
	X(HOST_BYTES,	"link",	"host_bytes",	"bytes over the CPU-GPU link") \
	X(MEM_ACC,	"mem",	"accesses",	"line accesses to memory, by requester") \
	X(MEM_BYTES,	"mem",	"bytes",	"memory bytes, by requester") \
	X(INJ_NS,	"inject", "ns",		"real delay injected, ns") \
	X(INJ_SPINS,	"inject", "spins",	"injection spins")

enum ng_counter {
#define NG_CTR_ENUM(id, comp, name, help) NG_CTR_##id,
	NG_COUNTERS(NG_CTR_ENUM)
#undef NG_CTR_ENUM
	NG_CTR_MAX
};

struct ng_counter_info {
	const char *component;
	const char *name;
	const char *help;
};

extern const struct ng_counter_info ng_counter_info[NG_CTR_MAX];

/* A set of counters: one per SM, or summed per GPU or system. */
struct ng_counters {
	uint64_t v[NG_CTR_MAX];
};

/*
 * Counters the hot path does not keep, derived from others: call on a
 * summed set. @line is the modeled line size.
 */
static inline void ng_counters_derive(struct ng_counters *c, unsigned int line)
{
	c->v[NG_CTR_REQ] = c->v[NG_CTR_LOCAL] + c->v[NG_CTR_REMOTE] +
			   c->v[NG_CTR_HOST];
	c->v[NG_CTR_MEM_BYTES] = c->v[NG_CTR_MEM_ACC] * line;
}

static inline void ng_counters_add(struct ng_counters *to,
				   const struct ng_counters *from)
{
	for (int i = 0; i < NG_CTR_MAX; i++)
		to->v[i] += from->v[i];
}

#endif /* NGEMU_COUNTERS_H */
