/* SPDX-License-Identifier: GPL-2.0 */
/*
 * A line request (ngemu/model/model.h): what the coalescer makes of a
 * warp's access to one line, and what passes the model's components on
 * its way to its home and back. Its flags are how components ask each
 * other for something on the way back (a fill) or tell the ones after
 * them what they found.
 */
#ifndef NGEMU_MODEL_REQUEST_H
#define NGEMU_MODEL_REQUEST_H

#include <stdint.h>

#include "ngemu/model/ticks.h"

/* The largest line, in bytes: the line key's bound, a line buffer's size. */
#define NG_MAX_LINE	256

/* What a request does to its line. */
enum ng_op { NG_OP_LOAD, NG_OP_STORE, NG_OP_ATOMIC };

#define NG_REQ_FILL	1u	/* a cache above wants the line on the way back */
#define NG_REQ_RDC_FILL	2u	/* the RDC wants it too */
/*
 * A write found a copy of its line in the writer's own caches; bits
 * NG_REQ_COPY_SHIFT.. hold the IMST state kept with it (CARVE HWC).
 */
#define NG_REQ_COPY	4u
#define NG_REQ_COPY_SHIFT 3
#define NG_REQ_L1_FILL	32u	/* the SM's L1 wants the line on the way back */
/* DualOpt: a fine-grained remote load (past the L1, masked words only) */
#define NG_REQ_FINE	64u
#define NG_REQ_RDMA	128u	/* the RDMA cache serves this GPU's remote lines */
#define NG_REQ_RDMA_FILL 256u	/* ... and wants this one on the way back */
/*
 * The GPU's own L2 holds this local line (l2-local): the memory is not
 * accessed (a hit, or a store the write-back L2 takes in); with
 * NG_REQ_L2_HIT it held the line before this request.
 */
#define NG_REQ_HELD	512u
#define NG_REQ_L2_HIT	1024u

/* One line request, as the coalescer emits it. */
struct ng_req {
	uintptr_t line;		/* line-aligned device address */
	uint64_t mask;		/* 4-byte words used, bit i = word i */
	unsigned int op;	/* enum ng_op */
	unsigned int gpu;	/* requesting GPU */
	unsigned int home;	/* GPU index or NG_HOME_HOST */
	unsigned int flags;
	ng_ticks t;		/* running time: issue, then completion */
	ng_ticks t0;		/* when it was issued */
	const void *src;	/* where the line's data is to be read */
};

/* Note a copy of the request's line, with IMST state @imst, at the writer. */
static inline void ng_req_copy(struct ng_req *r, unsigned int imst)
{
	r->flags |= NG_REQ_COPY | (imst & 3u) << NG_REQ_COPY_SHIFT;
}

#endif /* NGEMU_MODEL_REQUEST_H */
