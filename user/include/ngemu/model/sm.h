/* SPDX-License-Identifier: GPL-2.0 */
/*
 * An emulated SM as the model sees it (ngemu/model/model.h; lib/model/sm.c):
 * the clock of the block it runs, its issue port, the ring of its line
 * requests in flight (at most mlp), its windows on the bandwidth servers,
 * its counters, and when it gives way to the runtime. Private to the host
 * thread that runs it, so the hot path takes no lock.
 */
#ifndef NGEMU_MODEL_SM_H
#define NGEMU_MODEL_SM_H

#include <stdatomic.h>
#include <stdbool.h>
#include <stdint.h>

#include "ngemu/model/request.h"
#include "ngemu/model/ticks.h"
#include "ngemu/util/counters.h"

struct ng_model;
struct ng_window;

/* Per emulated SM: private to the thread that runs it. */
struct ng_sm {
	struct ng_model *model;
	unsigned int gpu;		/* emulated GPU */
	unsigned int index;		/* SM within the GPU */
	unsigned int id;		/* SM within the system */
	unsigned int cu;		/* of the sm_scale real SMs: the block's */
	uint64_t block;			/* the block it runs: its id in the grid */
	/* of the resident block running now (runtime/pool.c swaps them) */
	ng_ticks now;			/* its clock: when it issues next */
	ng_ticks done_max;		/* its requests' latest completion */
	/*
	 * The SM's issue port: when it can issue again. Every issue moves it
	 * to the issuing block's clock before the issue plus the issue time;
	 * a block's wait does not. A block that starts running takes the
	 * later of its clock and the port (ng_sm_enter()).
	 */
	ng_ticks port;
	ng_ticks *ring;			/* completion times, mlp slots */
	unsigned int ring_mask;
	unsigned int ring_pos;
	struct ng_window *win;		/* one per resource */
	/* the GPU's link_use: its SMs all run on one host thread */
	uint64_t *link_bytes, *link_busy;
	/* the hot path's constants, next to the SM's own state */
	struct ng_window *own_mem;	/* win[] of this GPU's memory */
	unsigned int own_mem_shift;
	ng_ticks line_dur, mem_latency, issue_ticks;
	uint64_t inst_fp;		/* ticks per warp instruction, 16.16 */
	uint64_t inst_frac;		/* the 16.16 remainder carried over */
	unsigned int mlp;
	unsigned int line_bytes, line_words;
	bool local_inline;
	ng_ticks time_base;		/* the model's, copied per kernel */
	uintptr_t view_delta;		/* device address -> this GPU's view */
	uintptr_t space_base;		/* the location table, at hand */
	_Atomic uint8_t *loc;
	uint64_t loc_pages;		/* its entries: a lookup checks the index */
	unsigned int page_shift;
	struct ng_counters ctr;
	/*
	 * Hits in a cache copy the line here so that eviction cannot tear
	 * it: the running block's own buffer (another resident block may run
	 * before this one has copied its data out), own_linebuf by default.
	 */
	unsigned char *linebuf;
	_Alignas(64) unsigned char own_linebuf[NG_MAX_LINE];
	/* injection */
	double inj_owed_ns;
	void *shared;			/* the running block's shared memory */
	uint64_t rng;			/* xorshift state (IMST resets) */
	/*
	 * The runtime steps SMs through intervals of modeled time: once the
	 * clock reaches yield_at (or waits past the port by wait_slack), the
	 * next model call gives way (yield(); ng_sm_maybe_yield()), and
	 * before a block ng_sm_block_due() asks the same of block_at.
	 */
	ng_ticks yield_at;
	ng_ticks block_at;		/* before a block: give way if past it */
	/*
	 * Where the SM's other blocks wait at its port behind the running
	 * one, it runs on while it issues unhindered and gives way once it
	 * waits past the port by more than wait_slack (0; else never), and
	 * before a block once its clock is block_slack past the port: both
	 * move with the port, which its own issues advance.
	 */
	ng_ticks wait_slack, block_slack;
	void (*yield)(struct ng_sm *sm);
	void *host;			/* the runtime's, for yield() */
};

/*
 * A resident block starts running on @sm with clock @now: it issues no
 * earlier than the SM's port is free. Equivalent to checking the port at
 * every issue, since while a block runs only it issues on its SM.
 */
static inline void ng_sm_enter(struct ng_sm *sm, ng_ticks now,
			       ng_ticks done_max)
{
	sm->now = now > sm->port ? now : sm->port;
	sm->done_max = done_max;
}

/* At the end of a model call: give way if the SM's slice is over. */
static inline void ng_sm_maybe_yield(struct ng_sm *sm)
{
	if (__builtin_expect(sm->now >= sm->yield_at ||
			     (sm->now > sm->port &&
			      sm->now - sm->port > sm->wait_slack), 0))
		sm->yield(sm);
}

/* Before a block: whether the SM gives way first (see block_at). */
static inline bool ng_sm_block_due(const struct ng_sm *sm)
{
	return sm->now > sm->block_at ||
	       (sm->now > sm->port && sm->now - sm->port > sm->block_slack);
}

/*
 * SM @index of GPU @gpu, @id in the system, on model @m: 0 or -ENOMEM.
 * Until the runtime sets its yield, it never gives way (tests drive it
 * by hand).
 */
int ng_sm_init(struct ng_sm *sm, struct ng_model *m, unsigned int gpu,
	       unsigned int index, unsigned int id);
/* Free what ng_sm_init() allocated. */
void ng_sm_fini(struct ng_sm *sm);
/* After an interval's end (ng_model_sync()): the SM's windows look again. */
void ng_sm_resync(struct ng_sm *sm);

/*
 * Real-time injection (--inject; lib/model/inject.c): spin off the delay
 * @sm owes once a batch is due, or whatever it owes with @force.
 */
void ng_inject_settle(struct ng_sm *sm, bool force);

#endif /* NGEMU_MODEL_SM_H */
