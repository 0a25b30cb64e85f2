// SPDX-License-Identifier: GPL-2.0
/*
 * Warp-wide memory operations: coalesce, send each line request through
 * the model once, move the data. Data moves through the warp's GPU's own
 * view of the memory (ng_warp_view(): the kmod backend's per-GPU views). The contiguous-lane hot path is inline in
 * ngemu/kernel.h.
 */
#include <string.h>

#include "ngemu/runtime/kernel.h"

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
static void resolve(struct ng_warp *w, uintptr_t p, uintptr_t end)
{
	struct ng_space *sp = w->b->space;
	uintptr_t step = (uintptr_t)1 << sp->page_shift;

	if (!w->b->modeled || p >= end)
		return;
	for (uintptr_t a = p & ~(step - 1); a < end; a += step)
		(void)ng_home(sp, a, w->b->sm->gpu);
}

void ng_st_contig(struct ng_warp *w, void *base, unsigned int size,
		  const void *buf)
{
	size_t n = (size_t)w->nlanes * size;

	resolve(w, (uintptr_t)base, (uintptr_t)base + n);
	/* write-through to the home first (through this GPU's view), so
	 * caches refresh from it */
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
	unsigned int line, n;
	char *out = buf;

	if (!w->b->modeled) {
		for (uint32_t a = w->active; a; a &= a - 1) {
			unsigned int lane = (unsigned int)__builtin_ctz(a);

			memcpy(out + lane * size,
			       ng_warp_view(w, (const void *)addr[lane]), size);
		}
		return;
	}
	line = sm->model->cfg->line;
	n = ng_coalesce(addr, w->active, size, line, lr);
	sm->ctr.v[NG_CTR_LANES] += (unsigned int)__builtin_popcount(w->active);
	for (unsigned int i = 0; i < n; i++) {
		struct ng_req r = { .line = lr[i].line, .mask = lr[i].mask,
				    .op = NG_OP_LOAD };

		send(w, &r);
		sm->ctr.v[NG_CTR_REQ_LOAD]++;
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

	for (uint32_t a = w->active; a; a &= a - 1) {
		unsigned int lane = (unsigned int)__builtin_ctz(a);

		resolve(w, addr[lane], addr[lane] + size);
	}
	/* lanes in order: the highest lane wins a conflict, as on GPUs */
	for (uint32_t a = w->active; a; a &= a - 1) {
		unsigned int lane = (unsigned int)__builtin_ctz(a);

		memcpy(ng_warp_view(w, (void *)addr[lane]), in + lane * size,
		       size);
	}
	if (!w->b->modeled)
		return;
	n = ng_coalesce(addr, w->active, size, sm->model->cfg->line, lr);
	sm->ctr.v[NG_CTR_LANES] += (unsigned int)__builtin_popcount(w->active);
	for (unsigned int i = 0; i < n; i++) {
		struct ng_req r = { .line = lr[i].line, .mask = lr[i].mask,
				    .op = NG_OP_STORE };

		send(w, &r);
		sm->ctr.v[NG_CTR_REQ_STORE]++;
	}
}

void ng_atomic_add_u32(struct ng_warp *w, const uintptr_t addr[NG_WARP],
		       const uint32_t val[NG_WARP], uint32_t old[NG_WARP])
{
	struct ng_sm *sm = w->b->sm;
	struct ng_line_req lr[NG_MAX_LINE_REQS];
	unsigned int n;

	for (uint32_t a = w->active; a; a &= a - 1) {
		unsigned int lane = (unsigned int)__builtin_ctz(a);

		resolve(w, addr[lane], addr[lane] + 4);
	}
	for (uint32_t a = w->active; a; a &= a - 1) {
		unsigned int lane = (unsigned int)__builtin_ctz(a);
		uint32_t *a32 = ng_warp_view(w, (void *)addr[lane]);
		uint32_t o = __atomic_fetch_add(a32, val[lane], __ATOMIC_RELAXED);

		if (old)
			old[lane] = o;
	}
	if (!w->b->modeled)
		return;
	n = ng_coalesce(addr, w->active, 4, sm->model->cfg->line, lr);
	sm->ctr.v[NG_CTR_LANES] += (unsigned int)__builtin_popcount(w->active);
	for (unsigned int i = 0; i < n; i++) {
		struct ng_req r = { .line = lr[i].line, .mask = lr[i].mask,
				    .op = NG_OP_ATOMIC };

		send(w, &r);
		sm->ctr.v[NG_CTR_REQ_ATOMIC]++;
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
