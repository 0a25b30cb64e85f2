/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The coalescer: a warp's lane addresses become one request per touched
 * line, each with a mask of the 4-byte words the warp uses in it (the
 * DualOpt BGU's mask, for lines up to 256 B) and the lanes it serves.
 * Requests come out in the order of their lines' first appearance.
 */
#ifndef NGEMU_COALESCE_H
#define NGEMU_COALESCE_H

#include <stdint.h>

#include "ngemu/config.h"

#define NG_WARP		NG_CONFIG_WARP
/* each lane touches at most two lines (an access never exceeds a line) */
#define NG_MAX_LINE_REQS (2 * NG_WARP)

struct ng_line_req {
	uintptr_t line;		/* line-aligned address */
	uint64_t mask;		/* 4-byte words touched */
	uint32_t lanes;		/* lanes with at least one byte here */
};

/*
 * Lanes in @active read or write @size bytes (1..line) at addr[lane].
 * @line is a power of two <= 256. Returns the number of requests in @out.
 */
unsigned int ng_coalesce(const uintptr_t addr[NG_WARP], uint32_t active,
			 unsigned int size, unsigned int line,
			 struct ng_line_req out[NG_MAX_LINE_REQS]);

/*
 * The fast path for contiguous lanes: lane l at base + l * size, lanes
 * 0..nlanes-1. Same result as ng_coalesce() on those addresses, without
 * looking at lanes one by one.
 */
unsigned int ng_coalesce_contig(uintptr_t base, unsigned int nlanes,
				unsigned int size, unsigned int line,
				struct ng_line_req out[NG_MAX_LINE_REQS]);

#endif /* NGEMU_COALESCE_H */
