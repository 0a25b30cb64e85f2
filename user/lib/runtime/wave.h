/* SPDX-License-Identifier: GPL-2.0 */
/*
 * 64-lane wavefronts (warp-width 64) out of the kernel API's 32-lane
 * warps: warps 2k and 2k + 1 of a block are one wavefront. Kernels run a
 * block's warps one after another, so the first half's requests are made
 * before the second half's: the first half keeps the lines of its latest
 * loads here, and the second half's load of the same number shares those
 * lines instead of requesting them again, as the wavefront's one
 * coalesced access would (GCN's coalescer works on 64 lanes). Stores and
 * atomics are numbered too but share nothing: a store's request is also
 * what refreshes the caches' copies of its line with the data this half
 * wrote, so each half sends its own. Operations are numbered from ng_warp_get(), so a kernel that
 * walks all warps through one loop body at a time, or runs each warp's
 * few operations in turn, pairs them right; a half whose partner ran more
 * than NG_WAVE_OPS operations since shares nothing.
 */
#ifndef NGEMU_LIB_RUNTIME_WAVE_H
#define NGEMU_LIB_RUNTIME_WAVE_H

#include "ngemu/runtime/kernel.h"

#define NG_WAVE_OPS	8	/* a first half's operations kept */
#define NG_WAVE_LINES	8	/* lines kept of each (gathers share few) */
#define NG_WAVE_PAIRS	32	/* wavefronts of a block: 2048 threads */

struct ng_wave_op {
	uint32_t seq;			/* the operation's number; ~0: none */
	uint8_t op;			/* enum ng_op */
	uint8_t n;			/* lines kept */
	uintptr_t line[NG_WAVE_LINES];
	ng_ticks t[NG_WAVE_LINES];	/* when each line's request completes */
};

struct ng_wave {
	struct ng_wave_op ops[NG_WAVE_OPS];
};

/* An operation's side of the wavefront: what it keeps, or what it meets. */
struct ng_wave_at {
	struct ng_wave_op *keep;	/* first half: its lines go here */
	const struct ng_wave_op *meet;	/* second half: its partner's */
};

/* Warp @w begins its next memory operation, of kind @op. */
static inline struct ng_wave_at ng_wave_begin(struct ng_warp *w,
					      enum ng_op op)
{
	struct ng_wave_at at = { NULL, NULL };
	unsigned int seq = w->seq++;
	struct ng_wave_op *o;

	if (!w->b->wave || w->id / 2 >= w->b->wave_pairs)
		return at;
	o = &w->b->wave[w->id / 2].ops[seq % NG_WAVE_OPS];
	if (!(w->id & 1)) {
		o->seq = seq;
		o->op = (uint8_t)op;
		o->n = 0;
		if (op == NG_OP_LOAD)
			at.keep = o;
	} else if (o->seq == seq && o->op == op && op == NG_OP_LOAD) {
		at.meet = o;
	}
	return at;
}

/* The first half requested line @l, done at @t. */
static inline void ng_wave_keep(const struct ng_wave_at *at, uintptr_t l,
				ng_ticks t)
{
	struct ng_wave_op *o = at->keep;

	if (o && o->n < NG_WAVE_LINES) {
		o->line[o->n] = l;
		o->t[o->n] = t;
		o->n++;
	}
}

/*
 * Whether the second half @w shares line @l with its partner's load; if
 * so it waits for it, and the line is counted as shared.
 */
static inline bool ng_wave_shares(struct ng_warp *w,
				  const struct ng_wave_at *at, uintptr_t l)
{
	const struct ng_wave_op *o = at->meet;

	if (!o)
		return false;
	for (unsigned int i = 0; i < o->n; i++)
		if (o->line[i] == l) {
			if (o->t[i] > w->ready)
				w->ready = o->t[i];
			w->b->sm->ctr.v[NG_CTR_WAVE_SHARED]++;
			return true;
		}
	return false;
}

/* Set up @b's wavefronts in @wave (NG_WAVE_PAIRS of them). */
static inline void ng_wave_init(struct ng_block *b, struct ng_wave *wave)
{
	unsigned int pairs = (b->nwarps + 1) / 2;

	b->wave = wave;
	b->wave_pairs = pairs < NG_WAVE_PAIRS ? pairs : NG_WAVE_PAIRS;
	for (unsigned int p = 0; p < b->wave_pairs; p++)
		for (unsigned int i = 0; i < NG_WAVE_OPS; i++)
			wave[p].ops[i].seq = ~0u;
}

#endif /* NGEMU_LIB_RUNTIME_WAVE_H */
