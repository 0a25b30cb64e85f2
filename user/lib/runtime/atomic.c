// SPDX-License-Identifier: GPL-2.0
/*
 * Warp-wide atomics (kernel.h): each active lane's operation is done at
 * the home, on the real memory through the warp GPU's view, with the
 * host's atomic instructions (a GPU's other SMs and the other GPUs run on
 * other host threads), in lane order; then the warp's lines go through
 * the model once each as atomic requests, as ng_st()'s do.
 */
#include <stdio.h>
#include <string.h>

#include "runtime/check.h"
#include "runtime/warp.h"
#include "runtime/wave.h"

#define RLX	__ATOMIC_RELAXED

static uint64_t load(const void *p, unsigned int size)
{
	return size == 4 ? __atomic_load_n((const uint32_t *)p, RLX) :
			   __atomic_load_n((const uint64_t *)p, RLX);
}

/* Compare-and-swap of @size bytes; *@expected gets what was there. */
static bool cas(void *p, unsigned int size, uint64_t *expected,
		uint64_t desired)
{
	uint32_t e32 = (uint32_t)*expected;
	bool ok;

	if (size == 8)
		return __atomic_compare_exchange_n((uint64_t *)p, expected,
						   desired, false, RLX, RLX);
	ok = __atomic_compare_exchange_n((uint32_t *)p, &e32,
					 (uint32_t)desired, false, RLX, RLX);
	*expected = e32;
	return ok;
}

static int64_t sext(uint64_t v, unsigned int size)
{
	return size == 4 ? (int64_t)(int32_t)(uint32_t)v : (int64_t)v;
}

/* What @op leaves in place of @old given the lane's @v. */
static uint64_t combine(enum ng_atomic_op op, unsigned int size, uint64_t old,
			uint64_t v)
{
	switch (op) {
	case NG_ATOMIC_ADD:
		return old + v;
	case NG_ATOMIC_MIN:
		return v < old ? v : old;
	case NG_ATOMIC_MAX:
		return v > old ? v : old;
	case NG_ATOMIC_SMIN:
		return sext(v, size) < sext(old, size) ? v : old;
	case NG_ATOMIC_SMAX:
		return sext(v, size) > sext(old, size) ? v : old;
	case NG_ATOMIC_FADD:
		if (size == 4) {
			float a, b;
			uint32_t a32 = (uint32_t)old, b32 = (uint32_t)v;

			memcpy(&a, &a32, 4);
			memcpy(&b, &b32, 4);
			a += b;
			memcpy(&a32, &a, 4);
			return a32;
		}
		{
			double a, b;

			memcpy(&a, &old, 8);
			memcpy(&b, &v, 8);
			a += b;
			memcpy(&old, &a, 8);
			return old;
		}
	case NG_ATOMIC_EXCH:
	case NG_ATOMIC_CAS:
		break;
	}
	return v;
}

/* One lane's operation at @p; the value it found. */
static uint64_t apply(void *p, unsigned int size, enum ng_atomic_op op,
		      uint64_t v, uint64_t cmp)
{
	uint64_t old;

	if (op == NG_ATOMIC_ADD)
		return size == 4 ? __atomic_fetch_add((uint32_t *)p, (uint32_t)v, RLX) :
				   __atomic_fetch_add((uint64_t *)p, v, RLX);
	if (op == NG_ATOMIC_CAS) {
		old = cmp;
		(void)cas(p, size, &old, v);
		return old;
	}
	old = load(p, size);
	while (!cas(p, size, &old, combine(op, size, old, v)))
		;
	return old;
}

/* Lane @lane's word of array @a (of integers or floats: by its bytes). */
static uint64_t lane_value(const void *a, unsigned int size, unsigned int lane)
{
	uint32_t v32;
	uint64_t v64;

	if (size == 8) {
		memcpy(&v64, (const char *)a + 8 * lane, 8);
		return v64;
	}
	memcpy(&v32, (const char *)a + 4 * lane, 4);
	return v32;
}

static void atomic_lanes(struct ng_warp *w, enum ng_atomic_op op,
			 const uintptr_t *addr, unsigned int size,
			 const void *val, const void *cmp, void *old)
{
	struct ng_sm *sm = w->b->sm;
	struct ng_line_req lr[NG_MAX_LINE_REQS];
	unsigned int n;

	if (__builtin_expect(w->b->checked, 0))
		ng_check_lanes(w, addr, size, "atomic");
	for (uint32_t a = w->active; a; a &= a - 1) {
		unsigned int lane = (unsigned int)__builtin_ctz(a);

		/* the host's atomics, as a GPU's, want natural alignment */
		if (addr[lane] & (size - 1))
			ng_warp_fault(w, (int)lane, addr[lane], size, "atomic",
				      size == 4 ? "an atomic's address is a multiple of 4" :
						  "an atomic's address is a multiple of 8");
		ng_warp_resolve(w, (int)lane, addr[lane], addr[lane] + size,
				"atomic");
	}
	for (uint32_t a = w->active; a; a &= a - 1) {
		unsigned int lane = (unsigned int)__builtin_ctz(a);
		uint64_t o = apply(ng_warp_view(w, (void *)addr[lane]), size, op,
				   lane_value(val, size, lane),
				   cmp ? lane_value(cmp, size, lane) : 0);

		uint32_t o32 = (uint32_t)o;

		if (old)
			memcpy((char *)old + size * lane, size == 4 ?
			       (const void *)&o32 : (const void *)&o, size);
	}
	if (!w->b->modeled)
		return;
	/* numbered for the wavefront's pairing; shares no line (wave.h) */
	(void)ng_wave_begin(w, NG_OP_ATOMIC);
	n = ng_coalesce(addr, w->active, size, sm->model->cfg->line, lr);
	sm->ctr.v[NG_CTR_LANES] += (unsigned int)__builtin_popcount(w->active);
	for (unsigned int i = 0; i < n; i++) {
		struct ng_req r = { .line = lr[i].line, .mask = lr[i].mask,
				    .op = NG_OP_ATOMIC };

		ng_warp_send(w, &r, ng_popcount64(r.mask));
		sm->ctr.v[NG_CTR_REQ_ATOMIC]++;
	}
}

void ng_atomic_u32(struct ng_warp *w, enum ng_atomic_op op,
		   const uintptr_t addr[NG_WARP], const uint32_t val[NG_WARP],
		   const uint32_t cmp[NG_WARP], uint32_t old[NG_WARP])
{
	atomic_lanes(w, op, addr, 4, val, op == NG_ATOMIC_CAS ? cmp : NULL, old);
}

void ng_atomic_u64(struct ng_warp *w, enum ng_atomic_op op,
		   const uintptr_t addr[NG_WARP], const uint64_t val[NG_WARP],
		   const uint64_t cmp[NG_WARP], uint64_t old[NG_WARP])
{
	atomic_lanes(w, op, addr, 8, val, op == NG_ATOMIC_CAS ? cmp : NULL, old);
}

void ng_atomic_add_u32(struct ng_warp *w, const uintptr_t addr[NG_WARP],
		       const uint32_t val[NG_WARP], uint32_t old[NG_WARP])
{
	atomic_lanes(w, NG_ATOMIC_ADD, addr, 4, val, NULL, old);
}

void ng_atomic_add_f32(struct ng_warp *w, const uintptr_t addr[NG_WARP],
		       const float val[NG_WARP], float old[NG_WARP])
{
	_Static_assert(sizeof(float) == 4, "binary32 floats");
	atomic_lanes(w, NG_ATOMIC_FADD, addr, 4, val, NULL, old);
}
