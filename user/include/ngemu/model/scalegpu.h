/* SPDX-License-Identifier: GPL-2.0 */
/*
 * ScaleGPU's settings (CAL 2013, sec. 3: device memory as a cache of host
 * memory; the component is lib/model/scalegpu.c). They sit in struct
 * ng_config as its member .sg, so the component's keys ("device-mem",
 * "tag-bytes", "tmh-queue", ...) address them as sg.FIELD, and every
 * preset starts from NG_SCALEGPU_DEFAULTS.
 */
#ifndef NGEMU_MODEL_SCALEGPU_H
#define NGEMU_MODEL_SCALEGPU_H

#include <stdbool.h>
#include <stdint.h>

struct ng_scalegpu_config {
	uint64_t device_mem;		/* per GPU; 0 (and no %): off */
	double device_mem_pct;		/* > 0: this % of the data instead */
	unsigned int tag_bytes;		/* data per tag (a DRAM row) */
	unsigned int tmh_queue;		/* pending queue entries */
	unsigned int tmh_scoreboard;	/* scoreboard entries */
	unsigned int tmh_units;		/* memory partitions, a TMH each */
};

/*
 * Off (no device memory given); when on, 2 KB rows (the largest the paper
 * studies) and a tag miss handler of 32 + 32 entries in one partition.
 */
#define NG_SCALEGPU_DEFAULTS						\
	{ .tag_bytes = 2048, .tmh_queue = 32, .tmh_scoreboard = 32,	\
	  .tmh_units = 1 }

/*
 * Its counters, in the form of ngemu/util/counters.h's list (which takes
 * them in): X(ID, component, name, what it counts).
 */
#define NG_SCALEGPU_COUNTERS(X)						\
	X(SG_HIT,	"scalegpu", "hits",	"host-homed requests served by device memory (tag hits)") \
	X(SG_MISS,	"scalegpu", "misses",	"read and atomic tag misses, each through the TMH's pending queue") \
	X(SG_FETCH,	"scalegpu", "fetches",	"rows fetched from the host (scoreboard entries made)") \
	X(SG_COLD_WR,	"scalegpu", "cold_writes", "writes to a row not in device memory: written there and sent to the host") \
	X(SG_CONFL_WR,	"scalegpu", "conflict_writes", "writes to a slot holding another row: relayed to the host") \
	X(SG_EVICT,	"scalegpu", "evictions", "rows replaced by a fetch") \
	X(SG_WB_BYTES,	"scalegpu", "writeback_bytes", "dirty bytes written back to the host") \
	X(SG_INVAL,	"scalegpu", "invalidations", "rows dropped because another GPU wrote them in the kernel") \
	X(SG_STALL,	"scalegpu", "stall_ticks", "SM time held by a full pending queue or scoreboard, ticks")

/* True when device memory caches host memory: the component is in use. */
static inline bool ng_scalegpu_on(const struct ng_scalegpu_config *sg)
{
	return sg->device_mem || sg->device_mem_pct > 0;
}

#endif /* NGEMU_MODEL_SCALEGPU_H */
