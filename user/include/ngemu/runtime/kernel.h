/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Kernels and their launch. A kernel is a C function run once per thread
 * block; it walks its block's warps (32 lanes each) and does its memory
 * accesses warp-wide through the functions below, which coalesce the
 * lanes into line requests and pass each through the hardware model once.
 * Loads return the data the model says they read (from the home memory or
 * from a cached copy).
 *
 * With the config's warp-width 64 (GCN's wavefronts) a kernel is written
 * the same way: warps 2k and 2k + 1 of a block are the two halves of one
 * wavefront. When the first half's k-th memory operation since
 * ng_warp_get() and the second half's are loads, the second sends no
 * request for a line the first requested and waits for that request
 * instead, as one 64-lane access would (runtime/wave.h); it reads the
 * line from the home memory. A wavefront's arithmetic costs 64 lanes'
 * issue even when its block leaves the second half empty.
 *
 * A block's warps run one after another in its code, so a block barrier
 * is a phase boundary in the kernel's code: finish a loop over all warps,
 * call ng_block_sync() (which charges the barrier's wait), then start the
 * next loop. Shared memory is ng_block.shared.
 *
 * An SM holds several blocks at once (blocks-per-sm), interleaved in
 * modeled time: a wait holds only the block that waits, and the SM's other
 * blocks hide its latency. For its own warps to overlap, a kernel issues
 * the loads of all its warps, then waits for them (ng_warp_wait() per
 * warp): a block then pays one latency per such step. A load whose
 * address comes from an earlier load must wait for that load first.
 */
#ifndef NGEMU_KERNEL_H
#define NGEMU_KERNEL_H

#include <stdbool.h>
#include <stdint.h>

#include "ngemu/runtime/coalesce.h"
#include "ngemu/util/counters.h"
#include "ngemu/model/model.h"

struct ng_system;

struct ng_dim {
	unsigned int x, y;
};

struct ng_block {
	struct ng_sm *sm;
	struct ng_space *space;
	struct ng_dim idx;		/* block index in the grid */
	struct ng_dim dim;		/* threads per block */
	struct ng_dim grid;
	uint64_t id;			/* idx.y * grid.x + idx.x */
	unsigned int nthreads, nwarps;
	void *shared;
	uint64_t shared_bytes;
	bool modeled;			/* false: native run, no model */
	bool checked;			/* config checked: every access checked */
	const char *kernel;		/* the launch's name, for messages */
	/*
	 * warp-width 64: per pair of warps (wave_pairs of them), the first
	 * warp's latest line requests (runtime/wave.h); NULL: 32 lanes
	 */
	struct ng_wave *wave;
	unsigned int wave_pairs;
};

struct ng_warp {
	struct ng_block *b;
	unsigned int id;		/* warp in the block */
	unsigned int tid0;		/* thread index of lane 0 in the block */
	unsigned int nlanes;		/* threads in this warp (last may be short) */
	uint32_t active;
	ng_ticks ready;			/* when this warp's loads have arrived */
	unsigned int seq;		/* memory operations since ng_warp_get() */
	/* 2: the lone half of a 64-lane wavefront, which issues for both */
	unsigned int inst_mul;
};

typedef void (*ng_kernel_fn)(struct ng_block *b, void *args);

struct ng_launch {
	const char *name;
	ng_kernel_fn fn;
	void *args;
	struct ng_dim grid, block;	/* y = 0 is taken as 1 */
	int only_gpu;			/* >= 0: run every block on this GPU */
	bool native;			/* no model: the native comparison */
	/*
	 * Bytes of ng_block.shared a block uses (at most the config's
	 * shared-bytes; 0: none): with shared-per-sm, what limits how many
	 * blocks an SM holds at once (ng_resident_blocks()).
	 */
	unsigned int shared;
};

struct ng_launch_result {
	ng_ticks modeled;		/* this kernel's modeled time */
	double wall_s;
	uint64_t requests;
};

/* Run a kernel to completion (a kernel boundary follows). 0 or -errno. */
int ng_launch(struct ng_system *sys, const struct ng_launch *l,
	      struct ng_launch_result *res);

/* Warp @w of block @b. */
static inline void ng_warp_get(struct ng_block *b, unsigned int w,
			       struct ng_warp *out)
{
	unsigned int t0 = w * NG_WARP;
	unsigned int n = b->nthreads - t0 < NG_WARP ? b->nthreads - t0 : NG_WARP;

	out->b = b;
	out->id = w;
	out->tid0 = t0;
	out->nlanes = n;
	out->active = n == 32 ? ~0u : (1u << n) - 1;
	out->ready = 0;
	out->seq = 0;
	out->inst_mul = b->wave && !(w & 1) && w + 1 >= b->nwarps ? 2 : 1;
}

/* Global x and y of @lane's thread. */
static inline unsigned int ng_lane_x(const struct ng_warp *w, unsigned int lane)
{
	const struct ng_block *b = w->b;

	return b->idx.x * b->dim.x + (w->tid0 + lane) % b->dim.x;
}

static inline unsigned int ng_lane_y(const struct ng_warp *w, unsigned int lane)
{
	const struct ng_block *b = w->b;

	return b->idx.y * b->dim.y + (w->tid0 + lane) / b->dim.x;
}

/*
 * Warp-wide memory access: active lanes access @size bytes (1..line) at
 * addr[lane]; lane data is packed in @buf at lane * size. A @size of 0 or
 * over the line stops the run (below), in every mode.
 *
 * Misuse stops the run: a message on stderr naming the kernel, block,
 * warp (and lane) and address, then abort(). An address outside the
 * device address space (a host pointer, one just below the first buffer)
 * is caught in every mode, by the location table's lookup. With the
 * config key checked (--checked, or NGEMU_CHECKED=1 in the environment)
 * every access of every lane is also checked against the live buffers
 * before it is made: an access outside them (a buffer's padding, a freed
 * buffer) names the lane and the nearest buffer. An access that lands in
 * another live buffer cannot be told from a right one.
 */
void ng_ld(struct ng_warp *w, const uintptr_t addr[NG_WARP], unsigned int size,
	   void *buf);
void ng_st(struct ng_warp *w, const uintptr_t addr[NG_WARP], unsigned int size,
	   const void *buf);
/* Contiguous lanes: lane l at base + l * size, for w->nlanes lanes. */
void ng_ld_contig(struct ng_warp *w, const void *base, unsigned int size,
		  void *buf);
void ng_st_contig(struct ng_warp *w, void *base, unsigned int size,
		  const void *buf);
/*
 * Where the warp's GPU reaches device address @p: its own view of the
 * memory (kmod backend: p + gpu * view_stride; user backend: @p). Kernels
 * that write in place write here, then call ng_st_contig_done() with the
 * device address.
 */
static inline void *ng_warp_view(const struct ng_warp *w, const void *p)
{
	return (void *)((uintptr_t)p + w->b->sm->view_delta);
}

/*
 * Zero-copy forms for streaming kernels. ng_ld_contig_ref() returns where
 * the lanes' data is: the warp GPU's view of @base (ng_warp_view()) when
 * every line was read from its home (the usual case), else @buf, filled
 * from the cached copies. The data is valid until the warp's next memory
 * operation.
 * ng_st_contig_done() is a store whose data the kernel has already written
 * at ng_warp_view(@base) (in place): only the model's side of the store
 * happens.
 */
static inline const void *ng_ld_contig_ref(struct ng_warp *w,
					    const void *base,
					    unsigned int size, void *buf);
static inline void ng_st_contig_done(struct ng_warp *w, void *base,
				     unsigned int size);

/*
 * Block-wide forms of the two above, for streaming phases in which every
 * warp of block @b accesses its own part of one contiguous range: @n
 * elements of @size bytes at @base, element i in lane i % 32 of warp
 * i / 32. The model sees what it would see if each warp made its access
 * in turn (warp 0 first), and ng_block_ld_contig_ref() returns where the
 * block's data is (its GPU's view of @base, or @buf of n * size bytes);
 * one call does the work of nwarps, which keeps the emulator close to
 * native speed on streaming kernels.
 */
const void *ng_block_ld_contig_ref(struct ng_block *b, const void *base,
				   unsigned int n, unsigned int size,
				   void *buf);
void ng_block_st_contig_done(struct ng_block *b, void *base, unsigned int n,
			     unsigned int size);
/* Every warp of @b covering part of @n threads issues @insts (see below). */
void ng_block_compute(struct ng_block *b, unsigned int n, unsigned int insts);

/*
 * Atomics: each active lane's operation is done at the home (on the real
 * memory, with the host's atomic instructions), lane after lane in lane
 * order, and the warp's lines go through the model once each as atomic
 * requests. @old (NULL: not wanted) gets each lane's value from before
 * its operation. An address must be a multiple of the operand's size.
 */
enum ng_atomic_op {
	NG_ATOMIC_ADD,		/* old + val, wrapping */
	NG_ATOMIC_MIN,		/* unsigned */
	NG_ATOMIC_MAX,
	NG_ATOMIC_SMIN,		/* signed (two's complement) */
	NG_ATOMIC_SMAX,
	NG_ATOMIC_EXCH,		/* val */
	NG_ATOMIC_CAS,		/* val where old == cmp, else old */
	NG_ATOMIC_FADD,		/* IEEE 754 add: binary32, or binary64 */
};

/* @op on 32-bit words; @cmp is read for NG_ATOMIC_CAS only. */
void ng_atomic_u32(struct ng_warp *w, enum ng_atomic_op op,
		   const uintptr_t addr[NG_WARP], const uint32_t val[NG_WARP],
		   const uint32_t cmp[NG_WARP], uint32_t old[NG_WARP]);
/* @op on 64-bit words; @cmp is read for NG_ATOMIC_CAS only. */
void ng_atomic_u64(struct ng_warp *w, enum ng_atomic_op op,
		   const uintptr_t addr[NG_WARP], const uint64_t val[NG_WARP],
		   const uint64_t cmp[NG_WARP], uint64_t old[NG_WARP]);
/* ng_atomic_u32() with NG_ATOMIC_ADD. */
void ng_atomic_add_u32(struct ng_warp *w, const uintptr_t addr[NG_WARP],
		       const uint32_t val[NG_WARP], uint32_t old[NG_WARP]);
/* CUDA's atomicAdd on floats: NG_ATOMIC_FADD on binary32 words. */
void ng_atomic_add_f32(struct ng_warp *w, const uintptr_t addr[NG_WARP],
		       const float val[NG_WARP], float old[NG_WARP]);
/*
 * The warp consumes its loaded values: its block waits until they have
 * arrived (the SM's other resident blocks go on).
 */
void ng_warp_wait(struct ng_warp *w);

/*
 * The warp's arithmetic: @insts warp instructions (not its memory
 * accesses, which the calls above count). The SM issues them at its rate
 * (ipc a cycle for each of the sm-scale real SMs it stands for), in
 * between its memory requests, whose latency they overlap, as a GPU's
 * other warps do. Each workload says what its threads compute.
 */
static inline void ng_warp_compute(struct ng_warp *w, unsigned int insts)
{
	struct ng_sm *sm = w->b->sm;
	uint64_t fp;

	if (!w->b->modeled)
		return;
	insts *= w->inst_mul;
	fp = insts * sm->inst_fp + sm->inst_frac;
	sm->inst_frac = fp & 0xffff;
	sm->now += fp >> 16;
	/* arithmetic takes the SM's issue slots from its other blocks too */
	sm->port = sm->now;
	sm->ctr.v[NG_CTR_INSTS] += insts;
	sm->ctr.v[NG_CTR_COMPUTE_TICKS] += fp >> 16;
	ng_sm_maybe_yield(sm);
}
/*
 * Block barrier: the block waits for every request it has in flight (not
 * for those of the SM's other resident blocks).
 */
void ng_block_sync(struct ng_block *b);

/*
 * The hot path, inline: streaming kernels spend most of their time here,
 * and calls per request cost as much as the model's work itself.
 */

/*
 * Stop the run: warp @w's @op of @size bytes at @addr (by @lane; -1:
 * not known) is outside the device address space, or wrong for @why
 * (runtime/check.c). Prints the kernel, block, warp, lane and address,
 * then abort()s.
 */
void ng_warp_fault(const struct ng_warp *w, int lane, uintptr_t addr,
		   uint64_t size, const char *op, const char *why)
	__attribute__((noreturn, cold));
/*
 * Checked mode (ng_block.checked): stop the run unless bytes [p, end) of
 * warp @w's @op lie in one live buffer; lane l has the bytes from
 * p + l * @size (runtime/check.c). The inline paths below need no test
 * of their own: in checked mode the SM's local_inline is off, so every
 * contiguous access takes the out-of-line path, which checks.
 */
void ng_check_range(const struct ng_warp *w, uintptr_t p, uintptr_t end,
		    unsigned int size, const char *op);

/* One request of warp @w through the model; @nwords set in its mask. */
static inline __attribute__((always_inline)) void
ng_warp_send(struct ng_warp *w, struct ng_req *r, unsigned int nwords)
{
	struct ng_sm *sm = w->b->sm;
	/* an address below the space wraps to a large page number too */
	uint64_t pg = (r->line - sm->space_base) >> sm->page_shift;
	unsigned int e;

	if (__builtin_expect(pg >= sm->loc_pages, 0))
		ng_warp_fault(w, -1, r->line, 0,
			      r->op == NG_OP_STORE ? "store" : "load", NULL);
	e = atomic_load_explicit(&sm->loc[pg], memory_order_relaxed);

	r->gpu = sm->gpu;
	/* ng_home(), with the table's coordinates kept in the SM */
	r->home = e <= NG_HOME_HOST ? e : ng_home_at(w->b->space, r->line,
						     sm->gpu, sm->now);
	r->flags = 0;
	ng_model_access(sm, r);
	/* a warp waits for what it reads, not for its stores to land */
	if (r->op != NG_OP_STORE && r->t > w->ready)
		w->ready = r->t;
	sm->ctr.v[NG_CTR_WORDS] += nwords;
	ng_sm_maybe_yield(sm);
}

/* Words of line @l that bytes [from, to) touch. */
static inline uint64_t ng_words(uintptr_t from, uintptr_t to, uintptr_t l)
{
	unsigned int w0 = (unsigned int)((from - l) >> 2);
	unsigned int w1 = (unsigned int)((to - 1 - l) >> 2);

	return (w1 >= 63 ? ~0ULL : (2ULL << w1) - 1) & ~((1ULL << w0) - 1);
}

/*
 * The general case of ng_ld_contig_ref() and ng_st_contig_done(), out of
 * line (warp.c): whatever the fast path below does not take.
 */
const void *ng_ld_contig_slow(struct ng_warp *w, uintptr_t p, uintptr_t end,
			      void *buf);
void ng_st_contig_slow(struct ng_warp *w, uintptr_t p, uintptr_t end);

/*
 * The fastest path: a warp's whole aligned line, homed on its own GPU,
 * with only the memory component in the way and the SM's slice of its
 * memory's bandwidth covering it. Exactly what ng_ld_contig_slow() would do
 * through ng_model_access() in that case, without building a request.
 * Returns false (having done nothing) when any condition does not hold.
 */
static inline __attribute__((always_inline)) bool
ng_warp_local_line(struct ng_warp *w, uintptr_t line, unsigned int ctr_op)
{
	struct ng_sm *sm = w->b->sm;
	uint64_t pg = (line - sm->space_base) >> sm->page_shift;
	struct ng_window *win = sm->own_mem;
	unsigned int slot = sm->ring_pos;
	ng_ticks t, s, done, dur = sm->line_dur;
	uint64_t a;

	/* outside the table: ng_warp_send() on the slow path says so */
	if (pg >= sm->loc_pages || !sm->local_inline ||
	    atomic_load_explicit(&sm->loc[pg], memory_order_relaxed) != sm->gpu)
		return false;
	t = sm->now > sm->ring[slot] ? sm->now : sm->ring[slot];
	s = t > win->cur ? t : win->cur;
	if (!ng_window_take(win, sm->own_mem_shift, sm->time_base + s, dur, &a))
		return false;
	s = a - sm->time_base;
	win->cur = s + dur;
	done = s + dur + sm->mem_latency;
	sm->ring[slot] = done;
	sm->ring_pos = slot + 1 == sm->mlp ? 0 : slot + 1;
	sm->port = sm->now + sm->issue_ticks;
	sm->now = t + sm->issue_ticks;
	if (done > sm->done_max)
		sm->done_max = done;
	if (ctr_op == NG_CTR_REQ_LOAD && done > w->ready)
		w->ready = done;
	sm->ctr.v[NG_CTR_LOCAL]++;
	sm->ctr.v[NG_CTR_MEM_ACC]++;
	sm->ctr.v[NG_CTR_MEM_TICKS] += done - t;
	sm->ctr.v[ctr_op]++;
	sm->ctr.v[NG_CTR_LANES] += w->nlanes;
	sm->ctr.v[NG_CTR_WORDS] += sm->line_words;
	/* an aligned whole line per warp: no line for a wavefront to share */
	w->seq++;
	ng_sm_maybe_yield(sm);
	return true;
}

static inline const void *ng_ld_contig_ref(struct ng_warp *w,
					    const void *base,
					    unsigned int size, void *buf)
{
	uintptr_t p = (uintptr_t)base, end = p + (uintptr_t)w->nlanes * size;

	const void *view;

	if (!w->b->modeled)
		return base;
	view = (const void *)(p + w->b->sm->view_delta);
	if (end - p == w->b->sm->line_bytes && !(p & (end - p - 1)) &&
	    ng_warp_local_line(w, p, NG_CTR_REQ_LOAD))
		return view;
	return ng_ld_contig_slow(w, p, end, buf);
}

static inline void ng_st_contig_done(struct ng_warp *w, void *base,
				     unsigned int size)
{
	uintptr_t p = (uintptr_t)base, end = p + (uintptr_t)w->nlanes * size;

	if (!w->b->modeled)
		return;
	if (end - p == w->b->sm->line_bytes && !(p & (end - p - 1)) &&
	    ng_warp_local_line(w, p, NG_CTR_REQ_STORE))
		return;
	ng_st_contig_slow(w, p, end);
}

#endif /* NGEMU_KERNEL_H */
