/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The hardware model: a pipeline of components (L2 -> link -> memory in
 * the baseline) that each line request passes once. A component sees the
 * request on the way to its home (access) and, in reverse order, on the
 * way back (respond), which is where response legs are charged and caches
 * fill. Time is modeled per emulated SM in ticks (1/1024 ns):
 *
 *  - an SM has at most `mlp` line requests in flight (a ring of their
 *    completion times, its miss entries); a new one waits for the oldest
 *    slot;
 *  - an SM holds several resident blocks (runtime/pool.c runs them in
 *    modeled-time order): ng_sm's clock `now` and `done_max` are those of
 *    the block running, swapped in and out by the runtime, while `port`,
 *    the SM's issue port, is shared by its blocks: a request or an
 *    instruction issues no earlier than the port is free, and only the
 *    block that waits (for its loads, its barrier, a miss entry, a full
 *    queue) waits;
 *  - shared resources (each GPU's memory, each direction of each link,
 *    each CPU-GPU link direction) are bandwidth servers (calendars,
 *    resource.h) that a GPU's SMs reserve in its own shadow, with no lock
 *    and no atomic operation, merged at the end of every interval;
 *  - a kernel's modeled time is the latest completion over its SMs.
 *
 * Components (component.h) are listed in lib/model/registry.c and chosen
 * by config; later mechanisms (directories, coalescing links) are more
 * components of the same kind.
 *
 * This header includes the model's parts, one concern each:
 *
 *   ticks.h      modeled time: ng_ticks, NG_TICKS_PER_NS
 *   request.h    a line request (struct ng_req) and its flags
 *   pipeline.h   the model (struct ng_model): init, kernel boundaries,
 *                interval ends, counters, invalidation
 *   sm.h         an emulated SM (struct ng_sm): its clock, port, ring
 *   resource.h   the bandwidth servers as calendars, booking them
 *   link_xfer.h  transfers over the links: routes, costs, latency
 *   access.h     a request through the model (ng_model_access())
 *   bits.h       set indices and population counts
 */
#ifndef NGEMU_MODEL_H
#define NGEMU_MODEL_H

#include "ngemu/config.h"
#include "ngemu/model/component.h"
#include "ngemu/runtime/space.h"
#include "ngemu/util/counters.h"

#include "ngemu/model/ticks.h"
#include "ngemu/model/request.h"
#include "ngemu/model/pipeline.h"
#include "ngemu/model/sm.h"
#include "ngemu/model/resource.h"
#include "ngemu/model/link_xfer.h"
#include "ngemu/model/access.h"
#include "ngemu/model/bits.h"

#endif /* NGEMU_MODEL_H */
