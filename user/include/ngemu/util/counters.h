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

#include "ngemu/model/codec.h"
#include "ngemu/model/directory.h"
#include "ngemu/model/l1.h"
#include "ngemu/model/l2.h"
#include "ngemu/model/mem_side_l2.h"
#include "ngemu/model/migrate.h"
#include "ngemu/model/rdc.h"
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
	X(MEM_TICKS,	"core",	"mem_ticks",	"every request's time from issue to completion, ticks") \
	X(WAVE_SHARED,	"core",	"wave_shared",	"lines a wavefront's second warp shared with its first's requests (warp-width 64)") \
	NG_L1_COUNTERS(X)						\
	NG_L2_COUNTERS(X)						\
	NG_RDC_COUNTERS(X)						\
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
	NG_DIR_COUNTERS(X)						\
	X(MSHR_HIT,	"mshr",	"hits",		"fine-grained loads merged with an in-flight request covering their words") \
	X(MSHR_PARTIAL,	"mshr",	"partial",	"fine-grained loads of a line in flight whose mask was not covered") \
	X(MSHR_FULL,	"mshr",	"full",		"fine-grained loads that found every MSHR in flight and waited for one") \
	X(FINE_REQ,	"mshr",	"fine_loads",	"fine-grained remote loads sent (L1 bypassed)") \
	X(FINE_UNITS,	"mshr",	"fine_units",	"transfer units (xfer-gran bytes) they fetched") \
	NG_RDMA_COUNTERS(X)						\
	NG_CODEC_COUNTERS(X)						\
	NG_MIGRATE_COUNTERS(X)						\
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
