// SPDX-License-Identifier: GPL-2.0
/*
 * Warp-wide memory operations: coalesce, send each line request through
 * the model once, move the data. Data moves through the warp's GPU's own
 * view of the memory (ng_warp_view(): the kmod backend's per-GPU views). The contiguous-lane hot path is inline in
 * ngemu/kernel.h.
 */
#include <stdio.h>
#include <string.h>

#include "runtime/check.h"
#include "runtime/warp.h"
#include "runtime/wave.h"
#include "ngemu/runtime/kernel.h"

/*
 * Model the lines of [p, end) for @op; for loads copy what did not come
 * from home memory into @buf (at the same offsets as from p), and return
 * whether anything did.
 */
static bool contig(struct ng_warp *w, uintptr_t p, uintptr_t end, unsigned int op,
	       char *buf)
{
	struct ng_sm *sm = w->b->sm;
	unsigned int line = sm->model->cfg->line;
	uintptr_t base = p;
	bool copied = false;
	struct ng_wave_at at = ng_wave_begin(w, (enum ng_op)op);
	struct ng_req r;

	if (__builtin_expect(w->b->checked, 0) && w->nlanes)
		ng_check_range(w, p, end, (unsigned int)((end - p) / w->nlanes),
			       op == NG_OP_LOAD ? "load" : "store");
	sm->ctr.v[NG_CTR_LANES] += w->nlanes;
	r.op = op;
	/* one whole aligned line: the common case of 32 x 4 B on 128 B */
	if (!(p & (line - 1)) && end - p == line) {
		/* a shared line's data is the home's, already in place */
		if (ng_wave_shares(w, &at, p))
			return false;
		r.line = p;
		r.mask = line >= 256 ? ~0ULL : (1ULL << (line / 4)) - 1;
		ng_warp_send(w, &r, line / 4);
		ng_wave_keep(&at, r.line, r.t);
		sm->ctr.v[op == NG_OP_LOAD ? NG_CTR_REQ_LOAD : NG_CTR_REQ_STORE]++;
		if (op == NG_OP_LOAD &&
		    r.src != (const void *)(r.line + sm->view_delta)) {
			__builtin_memcpy(buf, r.src, line);
			copied = true;
		}
		return copied;
	}
	while (p < end) {
		uintptr_t l = p & ~(uintptr_t)(line - 1);
		uintptr_t stop = l + line < end ? l + line : end;

		if (ng_wave_shares(w, &at, l)) {
			if (copied)
				__builtin_memcpy(buf + (p - base),
						 (const void *)(p + sm->view_delta),
						 stop - p);
			p = stop;
			continue;
		}
		r.line = l;
		r.mask = ng_words(p, stop, l);
		ng_warp_send(w, &r, ng_popcount64(r.mask));
		ng_wave_keep(&at, r.line, r.t);
		sm->ctr.v[op == NG_OP_LOAD ? NG_CTR_REQ_LOAD : NG_CTR_REQ_STORE]++;
		if (op == NG_OP_LOAD &&
		    r.src != (const void *)(r.line + sm->view_delta)) {
			/* earlier lines came from home: they go to buf too */
			if (!copied)
				__builtin_memcpy(buf, (const void *)(base + sm->view_delta),
						 p - base);
			copied = true;
		}
		if (copied)
			__builtin_memcpy(buf + (p - base),
					 (const char *)r.src + (p - l), stop - p);
		p = stop;
	}
	return copied;
}

const void *ng_ld_contig_slow(struct ng_warp *w, uintptr_t p, uintptr_t end,
			      void *buf)
{
	return contig(w, p, end, NG_OP_LOAD, buf) ? buf :
	       (const void *)(p + w->b->sm->view_delta);
}

void ng_st_contig_slow(struct ng_warp *w, uintptr_t p, uintptr_t end)
{
	contig(w, p, end, NG_OP_STORE, NULL);
}

static inline void send(struct ng_warp *w, struct ng_req *r)
{
	ng_warp_send(w, r, ng_popcount64(r->mask));
}

void ng_ld_contig(struct ng_warp *w, const void *base, unsigned int size,
		  void *buf)
{
	const void *src = ng_ld_contig_ref(w, base, size, buf);

	if (src != buf)
		memcpy(buf, src, (size_t)w->nlanes * size);
}

/*
 * Home the pages a store is about to write, before it writes them: with
 * the kmod backend the first fault decides where the module puts a page,
 * and it must come through the storing GPU's view (ng_space_first_touch).
 */
void ng_warp_resolve(struct ng_warp *w, int lane, uintptr_t p, uintptr_t end,
		     const char *op)
{
	struct ng_space *sp = w->b->space;
	uintptr_t step = (uintptr_t)1 << sp->page_shift;

	if (!w->b->modeled || p >= end)
		return;
	/* the table's bounds, before it is read: its ends cover what lies between */
	if ((p - (uintptr_t)sp->base) >> sp->page_shift >= sp->npages ||
	    (end - 1 - (uintptr_t)sp->base) >> sp->page_shift >= sp->npages)
		ng_warp_fault(w, lane, p, end - p, op, NULL);
	for (uintptr_t a = p & ~(step - 1); a < end; a += step)
		(void)ng_home_at(sp, a, w->b->sm->gpu, w->b->sm->now);
}

/*
 * ng_ld()'s and ng_st()'s lane size (kernel.h), in every mode: a lane
 * over a line would overrun the coalescer's requests and the lane's copy.
 */
static void check_size(const struct ng_warp *w, const uintptr_t *addr,
		       unsigned int size, const char *op)
{
	unsigned int line = w->b->sm->line_bytes;
	int lane = __builtin_ctz(w->active | 1u << 31);
	char why[96];

	if (__builtin_expect(size - 1 < line, 1))
		return;
	snprintf(why, sizeof(why), "a lane accesses 1 to %u bytes (the line)",
		 line);
	ng_warp_fault(w, lane, addr[lane], size, op, why);
}

void ng_st_contig(struct ng_warp *w, void *base, unsigned int size,
		  const void *buf)
{
	size_t n = (size_t)w->nlanes * size;

	if (__builtin_expect(w->b->checked, 0))
		ng_check_range(w, (uintptr_t)base, (uintptr_t)base + n, size,
			       "store");
	ng_warp_resolve(w, -1, (uintptr_t)base, (uintptr_t)base + n, "store");
	/*
	 * write-through to the home first (through this GPU's view), so
	 * caches refresh from it
	 */
	memcpy(ng_warp_view(w, base), buf, n);
	ng_st_contig_done(w, base, size);
}

/* Copy the part of @lane's access that lies in line @l. */
static void lane_bytes(uintptr_t a, unsigned int size, uintptr_t l,
		       unsigned int line, const char *src, char *dst)
{
	uintptr_t s = a > l ? a : l;
	uintptr_t e = a + size < l + line ? a + size : l + line;

	memcpy(dst + (s - a), src + (s - l), e - s);
}

void ng_ld(struct ng_warp *w, const uintptr_t addr[NG_WARP], unsigned int size,
	   void *buf)
{
	struct ng_sm *sm = w->b->sm;
	struct ng_line_req lr[NG_MAX_LINE_REQS];
	struct ng_wave_at at;
	unsigned int line, n;
	char *out = buf;

	check_size(w, addr, size, "load");
	if (__builtin_expect(w->b->checked, 0))
		ng_check_lanes(w, addr, size, "load");
	if (!w->b->modeled) {
		for (uint32_t a = w->active; a; a &= a - 1) {
			unsigned int lane = (unsigned int)__builtin_ctz(a);

			memcpy(out + lane * size,
			       ng_warp_view(w, (const void *)addr[lane]), size);
		}
		return;
	}
	line = sm->model->cfg->line;
	at = ng_wave_begin(w, NG_OP_LOAD);
	n = ng_coalesce(addr, w->active, size, line, lr);
	sm->ctr.v[NG_CTR_LANES] += (unsigned int)__builtin_popcount(w->active);
	for (unsigned int i = 0; i < n; i++) {
		struct ng_req r = { .line = lr[i].line, .mask = lr[i].mask,
				    .op = NG_OP_LOAD };

		if (ng_wave_shares(w, &at, r.line)) {
			r.src = (const void *)(r.line + sm->view_delta);
		} else {
			send(w, &r);
			ng_wave_keep(&at, r.line, r.t);
			sm->ctr.v[NG_CTR_REQ_LOAD]++;
		}
		for (uint32_t a = lr[i].lanes; a; a &= a - 1) {
			unsigned int lane = (unsigned int)__builtin_ctz(a);

			lane_bytes(addr[lane], size, r.line, line, r.src,
				   out + lane * size);
		}
	}
}

void ng_st(struct ng_warp *w, const uintptr_t addr[NG_WARP], unsigned int size,
	   const void *buf)
{
	struct ng_sm *sm = w->b->sm;
	struct ng_line_req lr[NG_MAX_LINE_REQS];
	const char *in = buf;
	unsigned int n;

	check_size(w, addr, size, "store");
	if (__builtin_expect(w->b->checked, 0))
		ng_check_lanes(w, addr, size, "store");
	for (uint32_t a = w->active; a; a &= a - 1) {
		unsigned int lane = (unsigned int)__builtin_ctz(a);

		ng_warp_resolve(w, (int)lane, addr[lane], addr[lane] + size,
				"store");
	}
	/* lanes in order: the highest lane wins a conflict, as on GPUs */
	for (uint32_t a = w->active; a; a &= a - 1) {
		unsigned int lane = (unsigned int)__builtin_ctz(a);

		memcpy(ng_warp_view(w, (void *)addr[lane]), in + lane * size,
		       size);
	}
	if (!w->b->modeled)
		return;
	/* numbered for the pairing; a store shares no line (wave.h) */
	(void)ng_wave_begin(w, NG_OP_STORE);
	n = ng_coalesce(addr, w->active, size, sm->model->cfg->line, lr);
	sm->ctr.v[NG_CTR_LANES] += (unsigned int)__builtin_popcount(w->active);
	for (unsigned int i = 0; i < n; i++) {
		struct ng_req r = { .line = lr[i].line, .mask = lr[i].mask,
				    .op = NG_OP_STORE };

		send(w, &r);
		sm->ctr.v[NG_CTR_REQ_STORE]++;
	}
}

void ng_warp_wait(struct ng_warp *w)
{
	struct ng_sm *sm = w->b->sm;

	if (!w->b->modeled)
		return;
	if (w->ready > sm->now)
		sm->now = w->ready;
	ng_sm_maybe_yield(sm);
}

void ng_block_sync(struct ng_block *b)
{
	struct ng_sm *sm = b->sm;

	if (!b->modeled)
		return;
	if (sm->done_max > sm->now)
		sm->now = sm->done_max;
	ng_sm_maybe_yield(sm);
}

/*
 * Lines [p, p + nlines * line) of @b's block-wide access, all homed on its
 * SM's GPU with only the memory in the way: each line as
 * ng_warp_local_line() would take it, the SM's constants at hand. False
 * (having done nothing) when a page is not local or the pipeline must see
 * local requests.
 */
static bool block_local_lines(struct ng_sm *sm, uintptr_t p, unsigned int nlines,
			      unsigned int ctr_op)
{
	struct ng_model *m = sm->model;
	struct ng_window *win = sm->own_mem;
	uintptr_t end = p + (uintptr_t)nlines * sm->line_bytes;
	uintptr_t pg = (uintptr_t)1 << sm->page_shift;
	ng_ticks dur = sm->line_dur, lat = sm->mem_latency;
	unsigned int slot = sm->ring_pos, mlp = sm->mlp;
	ng_ticks now = sm->now, done_max = sm->done_max, port = sm->port;

	/* outside the table: warp by warp, where ng_warp_send() says so */
	if (!sm->local_inline ||
	    (p - sm->space_base) >> sm->page_shift >= sm->loc_pages ||
	    (end - 1 - sm->space_base) >> sm->page_shift >= sm->loc_pages)
		return false;
	for (uintptr_t a = p & ~(pg - 1); a < end; a += pg)
		if (atomic_load_explicit(&sm->loc[(a - sm->space_base) >>
						  sm->page_shift],
					 memory_order_relaxed) != sm->gpu)
			return false;
	/*
	 * ng_window_take() with the window in registers: the ring, the
	 * window's end and its bin's use would otherwise go through memory
	 * for every line (they may alias, as far as the compiler knows).
	 * Nothing else runs on this GPU meanwhile; written back below.
	 */
	unsigned int shift = sm->own_mem_shift;
	uint64_t tb = sm->time_base, cap = 1ULL << shift;
	uint64_t bin = win->bin, gused = win->gused;
	uint32_t used = bin ? *win->used : 0;
	ng_ticks cur = win->cur, issue = sm->issue_ticks, waited = 0;
	ng_ticks *ring = sm->ring;

	for (unsigned int k = 0; k < nlines; k++) {
		ng_ticks t = now > ring[slot] ? now : ring[slot];
		ng_ticks s = t > cur ? t : cur, done;
		uint64_t abs = tb + s;

		if ((abs >> shift) == bin && gused + used + dur <= cap) {
			uint64_t q = (bin << shift) + gused + used;

			used += (uint32_t)dur;
			s = (abs > q ? abs : q) - tb;
			cur = s + dur;
		} else {
			if (bin)
				*win->used = used;
			win->cur = cur;
			s = ng_reserve_slow(sm, ng_res_mem(m, sm->gpu), t, dur);
			bin = win->bin;
			gused = win->gused;
			used = bin ? *win->used : 0;
			cur = win->cur;
		}
		done = s + dur + lat;
		waited += done - t;
		ring[slot] = done;
		slot = slot + 1 == mlp ? 0 : slot + 1;
		port = now + issue;
		now = t + issue;
		if (done > done_max)
			done_max = done;
	}
	if (bin)
		*win->used = used;
	win->cur = cur;
	sm->ring_pos = slot;
	sm->now = now;
	sm->port = port;
	sm->done_max = done_max;
	sm->ctr.v[NG_CTR_LOCAL] += nlines;
	sm->ctr.v[NG_CTR_MEM_ACC] += nlines;
	sm->ctr.v[NG_CTR_MEM_TICKS] += waited;
	sm->ctr.v[ctr_op] += nlines;
	sm->ctr.v[NG_CTR_WORDS] += (uint64_t)nlines * sm->line_words;
	return true;
}

/* A block-wide access @b cannot take whole: warp by warp. */
static const void *block_by_warps(struct ng_block *b, uintptr_t base,
				  unsigned int n, unsigned int size, char *buf,
				  bool load)
{
	const void *view = (const void *)(base + b->sm->view_delta);
	bool copied = false;

	for (unsigned int wi = 0; wi * NG_WARP < n; wi++) {
		uintptr_t p = base + (uintptr_t)wi * NG_WARP * size;
		unsigned int lanes = n - wi * NG_WARP < NG_WARP ? n - wi * NG_WARP
								: NG_WARP;
		struct ng_warp w;
		const void *src;

		ng_warp_get(b, wi, &w);
		w.nlanes = lanes;
		w.active = lanes == 32 ? ~0u : (1u << lanes) - 1;
		if (!load) {
			ng_st_contig_done(&w, (void *)p, size);
			continue;
		}
		src = ng_ld_contig_ref(&w, (const void *)p, size,
				       buf + (p - base));
		if (src != (const void *)(p + b->sm->view_delta) && !copied) {
			/* the warps before read from home: into buf as well */
			memcpy(buf, view, p - base);
			copied = true;
		} else if (copied && src != buf + (p - base)) {
			memcpy(buf + (p - base), src, (size_t)lanes * size);
		}
	}
	return copied ? buf : view;
}

static const void *block_contig(struct ng_block *b, uintptr_t base,
				unsigned int n, unsigned int size, char *buf,
				bool load)
{
	struct ng_sm *sm = b->sm;
	unsigned int line = sm->line_bytes;
	uintptr_t bytes = (uintptr_t)n * size;

	/* whole lines, one per warp: the streaming case */
	if (size * NG_WARP == line && !(base & (line - 1)) &&
	    !(bytes & (line - 1)) &&
	    block_local_lines(sm, base, (unsigned int)(bytes / line),
			      load ? NG_CTR_REQ_LOAD : NG_CTR_REQ_STORE)) {
		sm->ctr.v[NG_CTR_LANES] += n;
		ng_sm_maybe_yield(sm);
		return (const void *)(base + sm->view_delta);
	}
	return block_by_warps(b, base, n, size, buf, load);
}

const void *ng_block_ld_contig_ref(struct ng_block *b, const void *base,
				   unsigned int n, unsigned int size, void *buf)
{
	if (__builtin_expect(b->checked, 0))
		ng_check_block(b, (uintptr_t)base, n, size, "load");
	if (!b->modeled || !n)
		return base;
	return block_contig(b, (uintptr_t)base, n, size, buf, true);
}

void ng_block_st_contig_done(struct ng_block *b, void *base, unsigned int n,
			     unsigned int size)
{
	if (__builtin_expect(b->checked, 0))
		ng_check_block(b, (uintptr_t)base, n, size, "store");
	if (b->modeled && n)
		(void)block_contig(b, (uintptr_t)base, n, size, NULL, false);
}

void ng_block_compute(struct ng_block *b, unsigned int n, unsigned int insts)
{
	struct ng_warp w;

	if (!b->modeled || !n)
		return;
	ng_warp_get(b, 0, &w);
	/* 32-lane instructions of whole wavefronts (warp-width 64: pairs) */
	w.inst_mul = b->wave ? 2 : 1;
	ng_warp_compute(&w, insts * ((n + (NG_WARP * w.inst_mul) - 1) /
				     (NG_WARP * w.inst_mul)));
}
