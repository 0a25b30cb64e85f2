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
 *    each CPU-GPU link direction) are bandwidth servers (calendars, below)
 *    that a GPU's SMs reserve in its own shadow, with no lock and no
 *    atomic operation, merged at the end of every interval;
 *  - a kernel's modeled time is the latest completion over its SMs.
 *
 * Components (component.h) are listed in lib/model/registry.c and chosen
 * by config; later mechanisms (directories, coalescing links) are more
 * components of the same kind.
 */
#ifndef NGEMU_MODEL_H
#define NGEMU_MODEL_H

#include <stdatomic.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "ngemu/config.h"
#include "ngemu/model/component.h"
#include "ngemu/runtime/space.h"
#include "ngemu/util/counters.h"

#define NG_TICKS_PER_NS	1024
#define NG_MAX_LINE	256
#define NG_MAX_COMPONENTS 24

typedef uint64_t ng_ticks;

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

struct ng_model;
struct ng_sm;

/*
 * A bandwidth server as a calendar: time is cut into bins of 2^bin_shift
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
#define NG_NBINS	4096
#define NG_BIN_USED_BITS 28

struct ng_shadow;

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

struct ng_model {
	const struct ng_config *cfg;
	struct ng_space *space;
	unsigned int ngpus;
	unsigned int ncomp;		/* the enabled components, in order */
	const struct ng_component *comp[NG_MAX_COMPONENTS];
	void *priv[NG_MAX_COMPONENTS];
	bool remote_only[NG_MAX_COMPONENTS];	/* this run skips local ones */
	bool routes;			/* some component has a route op */
	unsigned int nres;
	struct ng_resource *res;	/* see ng_res_*() for the layout */
	ng_ticks issue_ticks;		/* SM issue interval per request */
	uint64_t inst_fp;		/* ticks per warp instruction, 16.16 */
	ng_ticks time_base;		/* kernels follow each other in bins */
	unsigned int max_shift;
	bool local_inline;		/* local requests: memory only */
	unsigned int mlp;
	ng_ticks mem_latency;
	ng_ticks mem_line_dur;
	/*
	 * Per GPU: what components count outside any SM (ng_model_sync()'s
	 * phases, run by the GPU's own host thread); added to the GPU's.
	 */
	struct ng_counters *gctr;
	/*
	 * The home memory's sidecar, one ECC word per line of the space,
	 * when a component keeps it (CARVE HWC: the IMST in its low bits).
	 */
	_Atomic uint64_t *home_sc;
	unsigned int line_shift;
	/*
	 * Per GPU, at link_stride words apart: what the fabric carried since
	 * the counters' reset (ngemu/model/linkuse.h), bytes per ordered pair
	 * then busy ticks per server; link_ticks is the kernels' time.
	 */
	uint64_t *link_use;
	size_t link_stride;
	ng_ticks link_ticks;
};

/* Note a copy of the request's line, with IMST state @imst, at the writer. */
static inline void ng_req_copy(struct ng_req *r, unsigned int imst)
{
	r->flags |= NG_REQ_COPY | (imst & 3u) << NG_REQ_COPY_SHIFT;
}

/* The model's own counters (outside SMs), summed into @out: GPU @gpu or all. */
void ng_model_counters(const struct ng_model *m, int gpu,
		       struct ng_counters *out);
void ng_model_reset_counters(struct ng_model *m);

/*
 * Coherence: drop @line from GPU @gpu's caches (every component with an
 * invalidate op); true when some cache held it. Only from
 * ng_model_sync()'s phases, for the GPU whose thread runs them.
 */
bool ng_model_invalidate(struct ng_model *m, unsigned int gpu, uintptr_t line);

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
 * The bandwidth servers data from GPU @from to GPU @to crosses, in order:
 * the pair's own link on a mesh; on a switch or a hub, the sender's port
 * out and the receiver's port in.
 */
struct ng_route {
	unsigned int n;
	unsigned int ri[2];
};

static inline struct ng_route ng_link_route(const struct ng_model *m,
					    unsigned int from, unsigned int to)
{
	if (m->cfg->topology == NG_TOPO_MESH)
		return (struct ng_route){ 1, { ng_res_link(m, from, to), 0 } };
	return (struct ng_route){ 2, { ng_res_port(m, from, false),
				       ng_res_port(m, to, true) } };
}

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
	 * clock reaches yield_at, the next model call gives way (yield()).
	 */
	ng_ticks yield_at;
	ng_ticks block_at;		/* before a block: give way if past it */ 
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
	if (__builtin_expect(sm->now >= sm->yield_at, 0))
		sm->yield(sm);
}

int ng_model_init(struct ng_model *m, const struct ng_config *cfg,
		  struct ng_space *space, char *err, size_t errlen);
void ng_model_fini(struct ng_model *m);

int ng_sm_init(struct ng_sm *sm, struct ng_model *m, unsigned int gpu,
	       unsigned int index, unsigned int id);
void ng_sm_fini(struct ng_sm *sm);

/*
 * The end of an interval, for GPU @gpu, once every SM has reached it
 * (runtime/pool.c): phase 0 merges the GPU's shadow calendars into the
 * global ones and runs the components' first phase (HWC: the home's IMST
 * and broadcasts); phase 1, after every GPU's phase 0, decides the pages
 * first touched in the interval (the earliest claim wins) and runs the
 * components' second phase (invalidations reach the GPU's caches). Then
 * ng_sm_resync() each SM. Phases of different GPUs may run at once on
 * different threads.
 */
void ng_model_sync(struct ng_model *m, unsigned int phase, unsigned int gpu);
/*
 * Whether this interval's end has a phase 1: a component has one, or a
 * GPU touched a page first. The same answer on every thread, asked after
 * the interval's run and before phase 1.
 */
bool ng_model_sync_phase1(const struct ng_model *m);
void ng_sm_resync(struct ng_sm *sm);

/* Start of a kernel: clocks and resources back to zero. */
void ng_model_kernel_begin(struct ng_model *m, struct ng_sm *const *sms,
			   unsigned int nsm);
/* End of a kernel: boundary actions; returns the kernel's modeled time. */
ng_ticks ng_model_kernel_end(struct ng_model *m, struct ng_sm *const *sms,
			     unsigned int nsm);

/* The pipeline, for any request (see ng_model_access()). */
void ng_model_access_pipeline(struct ng_sm *sm, struct ng_req *r);

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

static inline ng_ticks ng_reserve(struct ng_sm *sm, unsigned int ri,
				  ng_ticks t, uint64_t bytes, ng_ticks *dur_out)
{
	*dur_out = ng_cost(sm->model, ri, bytes);
	return ng_reserve_dur(sm, ri, t, *dur_out);
}

/*
 * Send @bytes from GPU @from to GPU @to, ready at @t, over the topology's
 * route: each server is booked in turn, a hop starting no earlier than the
 * one before it (cut-through). Returns when the last byte has left the
 * last server; latency is the caller's (ng_link_latency()). With @start,
 * when the first byte left the first one.
 */
static inline ng_ticks ng_link_xfer(struct ng_sm *sm, unsigned int from,
				    unsigned int to, ng_ticks t, uint64_t bytes,
				    ng_ticks *start)
{
	struct ng_route rt = ng_link_route(sm->model, from, to);
	ng_ticks s = t, end = 0, dur;

	sm->link_bytes[from * sm->model->ngpus + to] += bytes;
	for (unsigned int i = 0; i < rt.n; i++) {
		s = ng_reserve(sm, rt.ri[i], s, bytes, &dur);
		sm->link_busy[rt.ri[i]] += dur;
		if (!i && start)
			*start = s;
		if (s + dur > end)
			end = s + dur;
	}
	return end;
}

/*
 * ng_resource_charge() on every server of the route (background work, on
 * @from's host thread: the phases of its home, model/link.c).
 */
void ng_link_charge(struct ng_model *m, unsigned int from, unsigned int to,
		    ng_ticks t, uint64_t bytes);

/* What @bytes from @from to @to take on the route's slowest server. */
static inline ng_ticks ng_link_cost(const struct ng_model *m,
				    unsigned int from, unsigned int to,
				    uint64_t bytes)
{
	struct ng_route rt = ng_link_route(m, from, to);
	ng_ticks worst = 0;

	for (unsigned int i = 0; i < rt.n; i++) {
		ng_ticks d = ng_cost(m, rt.ri[i], bytes);

		if (d > worst)
			worst = d;
	}
	return worst;
}

/*
 * One way, GPU to GPU: link-latency, twice on a hub (through the CPU's
 * two links).
 */
static inline ng_ticks ng_link_latency(const struct ng_model *m)
{
	double ns = m->cfg->link_latency_ns;

	if (m->cfg->topology == NG_TOPO_HUB)
		ns *= 2;
	return (ng_ticks)(ns * NG_TICKS_PER_NS);
}

/*
 * A set index for line (or range) number @n in a structure of 2^@bits
 * sets that hardware indexes by physical address: ngemu's addresses
 * interleave pages over the GPUs, so the lines one GPU holds (or is home
 * to) would use only some of the sets; folding the upper bits in (XOR)
 * spreads them as a GPU's dense physical addresses would.
 */
static inline uint64_t ng_fold_index(uint64_t n, unsigned int bits)
{
	uint64_t idx = n;

	if (!bits)
		return 0;
	for (n >>= bits; n; n >>= bits)
		idx ^= n;
	return idx;
}

/* Set bits; a libgcc call without -mpopcnt, so by hand. */
static inline unsigned int ng_popcount64(uint64_t x)
{
	x = x - ((x >> 1) & 0x5555555555555555ULL);
	x = (x & 0x3333333333333333ULL) + ((x >> 2) & 0x3333333333333333ULL);
	x = (x + (x >> 4)) & 0x0f0f0f0f0f0f0f0fULL;
	return (unsigned int)((x * 0x0101010101010101ULL) >> 56);
}

/*
 * Bytes on the CPU-GPU link for @payload bytes of data (model/link.c):
 * with host-header, the data in packets of at most host-payload bytes,
 * each behind its header (a request without data: one header); else the
 * data in flits.
 */
uint64_t ng_host_bytes(const struct ng_config *c, uint64_t payload);

/*
 * The memory component's work (model/mem.c), inline so that the local
 * fast path below can use it too.
 */
static inline void ng_mem_charge(struct ng_sm *sm, struct ng_req *r)
{
	struct ng_model *m = sm->model;
	ng_ticks start;

	r->src = (const void *)(r->line + sm->view_delta);
	if (r->home == NG_HOME_HOST)
		return;
	/* every access moves a whole line: its duration is precomputed */
	start = ng_reserve_dur(sm, ng_res_mem(m, r->home), r->t, m->mem_line_dur);
	r->t = start + m->mem_line_dur + m->mem_latency;
	/* mem.bytes is accesses x line, derived when counters are read */
	sm->ctr.v[NG_CTR_MEM_ACC]++;
}

/*
 * Send one request through the model; r->t is its completion after, r->src
 * where its data is. A request homed on its own GPU skips the remote-only
 * components; when only the memory component is left (the baseline), it
 * is handled inline here: that is most requests of a well-placed run.
 */
static inline void ng_model_access(struct ng_sm *sm, struct ng_req *r)
{
	struct ng_model *m = sm->model;
	unsigned int slot;
	ng_ticks t;

	if (r->home != r->gpu || !sm->local_inline) {
		ng_model_access_pipeline(sm, r);
		return;
	}
	slot = sm->ring_pos;
	t = sm->now > sm->ring[slot] ? sm->now : sm->ring[slot];
	r->src = (const void *)(r->line + sm->view_delta);
	{
		/* ng_mem_charge() on the SM's own memory, constants at hand */
		struct ng_window *w = sm->own_mem;
		ng_ticks dur = sm->line_dur;
		ng_ticks s = t > w->cur ? t : w->cur;
		uint64_t a;

		if (ng_window_take(w, sm->own_mem_shift, sm->time_base + s, dur,
				   &a)) {
			s = a - sm->time_base;
			w->cur = s + dur;
		} else {
			s = ng_reserve_slow(sm, ng_res_mem(m, r->gpu), t, dur);
		}
		r->t = s + dur + sm->mem_latency;
	}
	sm->ctr.v[NG_CTR_MEM_ACC]++;
	sm->ring[slot] = r->t;
	sm->ring_pos = slot + 1 == sm->mlp ? 0 : slot + 1;
	/* a full ring holds the block, not the port (the SM's other blocks) */
	sm->port = sm->now + sm->issue_ticks;
	sm->now = t + sm->issue_ticks;
	if (r->t > sm->done_max)
		sm->done_max = r->t;
	/* core.requests is local + remote + host, derived when read */
	sm->ctr.v[NG_CTR_LOCAL]++;
}

/* Spin off owed injected delay once a batch is due. */
void ng_inject_settle(struct ng_sm *sm, bool force);

#endif /* NGEMU_MODEL_H */
