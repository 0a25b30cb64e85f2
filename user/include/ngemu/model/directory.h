/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The directory's settings (REC: how the L2 keeps its remote lines
 * coherent, and with a directory at each home, its entries; the component
 * is lib/model/directory.c, its geometry ngemu/model/dir.h). They sit in
 * struct ng_config as its member .dir; the keys directory, dir-entries,
 * dir-ways, dir-policy, rec-range and dir-addr-bits set them.
 */
#ifndef NGEMU_MODEL_DIRECTORY_H
#define NGEMU_MODEL_DIRECTORY_H

#include <stdint.h>

/*
 * How the L2 keeps its remote lines coherent (REC, model/directory.c): flushed
 * at kernel boundaries (software), kept with no coherence at all (an
 * upper bound; stale data possible), or by a directory at each home.
 */
enum ng_directory {
	NG_DIR_OFF,		/* software: the L2 drops remote lines per kernel */
	NG_DIR_NONE,		/* kept, never invalidated */
	NG_DIR_LINE,		/* per-line entries (REC's baseline) */
	NG_DIR_HMG,		/* one entry per 4 lines, one sharer field */
	NG_DIR_REC,		/* range-coalesced entries */
};

enum ng_dir_policy {
	NG_DIR_LRU,
	NG_DIR_FIFO,
};

struct ng_dir_config {
	enum ng_directory kind;
	unsigned int entries;		/* per home GPU */
	unsigned int ways;
	enum ng_dir_policy policy;
	uint64_t rec_range;		/* bytes one rec entry covers */
	unsigned int addr_bits;		/* address bits an entry tags */
};

/* Off (the L2 drops remote lines at kernel boundaries); 8192 entries of 8 ways, LRU. */
#define NG_DIR_DEFAULTS							\
	{ .kind = NG_DIR_OFF, .entries = 8192, .ways = 8,		\
	  .policy = NG_DIR_LRU, .rec_range = 1024, .addr_bits = 48 }

/*
 * Its counters, in the form of ngemu/util/counters.h's list (which takes
 * them in): X(ID, component, name, what it counts).
 */
#define NG_DIR_COUNTERS(X)						\
	X(DIR_ALLOC,	"dir",	"allocations",	"directory entries allocated") \
	X(DIR_EVICT,	"dir",	"evictions",	"valid directory entries replaced") \
	X(DIR_EVICT_LINES, "dir", "evicted_lines", "lines the evicted entries held") \
	X(DIR_INV_WRITE, "dir",	"inv_write",	"write-initiated invalidation messages") \
	X(DIR_INV_EVICT, "dir",	"inv_evict",	"eviction-initiated invalidation messages") \
	X(DIR_INV_WRITE_HIT, "dir", "inv_write_hits", "write-initiated invalidations that found the line in the sharer's L2") \
	X(DIR_INV_EVICT_HIT, "dir", "inv_evict_hits", "eviction-initiated invalidations that found the line in the sharer's L2 (unnecessary ones)") \
	X(DIR_RACE,	"dir",	"race_invals",	"invalidates of same-interval readers of a written line")

#endif /* NGEMU_MODEL_DIRECTORY_H */
