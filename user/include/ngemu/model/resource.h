/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The model's bandwidth servers (ngemu/model/model.h; lib/model/resource.c):
 * each GPU's memory, each direction of each inter-GPU link, of each
 * CPU-GPU link and of each GPU's fabric port, and how a transfer books
 * time on one.
 *
 * A bandwidth server is a calendar: time is cut into bins of 2^bin_shift
 * ticks (at least ~1000 line transfers each) and each bin holds how much
 * of its time is taken. A request takes capacity from the first bin at or
 * after its ready time that has room, and starts at the later of its ready
 * time and the bin's start plus the time already taken in it. Aggregate
 * bandwidth never exceeds the configured one, and capacity one SM left
 * idle is found by an SM whose clock lags behind.
 *
 * So that a run's modeled time does not depend on how the host ran its
 * threads, what one GPU's SMs take in an interval of modeled time (see
 * runtime/pool.c) goes to the GPU's own *shadow* of the calendar; the
 * global bins, read-only meanwhile, take every GPU's shadow at the end of
 * the interval (ng_model_sync()), in any order with the same result: a
 * bin's overflow is carried to the next bins. A GPU therefore sees the
 * other GPUs' use of a shared server (another GPU's memory, a link both
 * ends use) one interval late, and its own at once.
 *
 * Bins form a ring; a bin word packs its absolute bin number (high bits)
 * with the ticks taken (low bits), so a reused slot is recognised without
 * clearing the ring between kernels.
 */
#ifndef NGEMU_MODEL_RESOURCE_H
#define NGEMU_MODEL_RESOURCE_H

#include <stdatomic.h>
#include <stdbool.h>
#include <stdint.h>

#include "ngemu/model/pipeline.h"
#include "ngemu/model/sm.h"
#include "ngemu/model/ticks.h"

/* Bins in a server's ring. */
#define NG_NBINS	4096
/* The low bits of a bin word: the ticks taken in the bin. */
#define NG_BIN_USED_BITS 28

/* One GPU's use of a server in the current interval (resource.c's own). */
struct ng_shadow;

/* One bandwidth server: its calendar and its cost per byte. */
struct ng_resource {
	_Atomic uint64_t *bins;		/* global, changed only by merges */
	_Atomic uint64_t last;		/* the latest bin with a booking */
	uint64_t cost_fp;		/* ticks per byte, 16.16 fixed point */
	unsigned int bin_shift;
	struct ng_shadow *sh;		/* per GPU: this interval's use */
};

/*
 * An SM's view of its last bin of one server: the global use (fixed until
 * the next merge) and the GPU's shadow counter of the bin.
 */
struct ng_window {
	uint64_t bin;		/* absolute bin number; 0: none */
	uint64_t gused;		/* the global bin's ticks taken */
	uint32_t *used;		/* the GPU's ticks taken in it, this interval */
	ng_ticks cur;		/* when the SM's last transfer here ends */
};

/*
 * Where each server is in m->res[]: the GPUs' memories, then the
 * inter-GPU links, the CPU-GPU links and the fabric ports.
 */

/* GPU @g's memory. */
static inline unsigned int ng_res_mem(const struct ng_model *m, unsigned int g)
{
	(void)m;
	return g;
}

/* The link direction carrying data from @from to @to. */
static inline unsigned int ng_res_link(const struct ng_model *m,
				       unsigned int from, unsigned int to)
{
	return m->ngpus + from * m->ngpus + to;
}

/* CPU-GPU link of @g: @to_gpu selects the direction host -> GPU. */
static inline unsigned int ng_res_host(const struct ng_model *m,
				       unsigned int g, bool to_gpu)
{
	return m->ngpus + m->ngpus * m->ngpus + 2 * g + (to_gpu ? 1 : 0);
}

/*
 * GPU @g's one port into the fabric (topology switch or hub): @in selects
 * the direction fabric -> GPU.
 */
static inline unsigned int ng_res_port(const struct ng_model *m,
				       unsigned int g, bool in)
{
	return m->ngpus + m->ngpus * m->ngpus + 2 * m->ngpus + 2 * g +
	       (in ? 1 : 0);
}

/*
 * Charge @dur ticks on resource @ri for a request ready at @t; returns when
 * the transfer starts. The hot path uses the SM's window on the bin of its
 * last transfer there.
 */
ng_ticks ng_reserve_slow(struct ng_sm *sm, unsigned int ri, ng_ticks t,
			 ng_ticks dur);

/*
 * Charge @dur ticks at time @t on resource @ri outside any SM (the
 * background work of ng_model_sync()'s phases): nobody waits for it.
 */
void ng_resource_charge(struct ng_model *m, unsigned int ri, ng_ticks t,
			ng_ticks dur);

/* The ticks @bytes take on resource @ri. */
static inline ng_ticks ng_cost(const struct ng_model *m, unsigned int ri,
			       uint64_t bytes)
{
	return (bytes * m->res[ri].cost_fp) >> 16;
}

/*
 * Take @dur in window @w's bin for a transfer ready at absolute time @abs:
 * true with the absolute start in *start, false when the bin is not @w's
 * or has no room (then the slow path finds one).
 */
static inline bool ng_window_take(struct ng_window *w, unsigned int shift,
				  uint64_t abs, ng_ticks dur, uint64_t *start)
{
	uint64_t u, q;

	if ((abs >> shift) != w->bin)
		return false;
	u = w->gused + *w->used;
	if (u + dur > (1ULL << shift))
		return false;
	*w->used += (uint32_t)dur;
	q = (w->bin << shift) + u;
	*start = abs > q ? abs : q;
	return true;
}

/* ng_reserve() for a transfer of known duration. */
static inline ng_ticks ng_reserve_dur(struct ng_sm *sm, unsigned int ri,
				      ng_ticks t, ng_ticks dur)
{
	struct ng_model *m = sm->model;
	struct ng_window *w = &sm->win[ri];
	ng_ticks s = t > w->cur ? t : w->cur;
	uint64_t a;

	if (ng_window_take(w, m->res[ri].bin_shift, m->time_base + s, dur, &a)) {
		w->cur = a - m->time_base + dur;
		return a - m->time_base;
	}
	return ng_reserve_slow(sm, ri, t, dur);
}

/*
 * Book @bytes on resource @ri for SM @sm, ready at @t: returns when the
 * transfer starts, its duration in *@dur_out.
 */
static inline ng_ticks ng_reserve(struct ng_sm *sm, unsigned int ri,
				  ng_ticks t, uint64_t bytes, ng_ticks *dur_out)
{
	*dur_out = ng_cost(sm->model, ri, bytes);
	return ng_reserve_dur(sm, ri, t, *dur_out);
}

#endif /* NGEMU_MODEL_RESOURCE_H */
