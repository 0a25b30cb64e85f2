// SPDX-License-Identifier: GPL-2.0
/*
 * Misuse of the warp access functions stops the run (kernel.h). A kernel
 * has no error to return, and by the time a bad address reaches memory it
 * is a bare SIGSEGV far from its cause (or, for a host pointer inside a
 * mapping, no error at all), so the message names the access itself: the
 * kernel, block, warp, lane, address and the nearest buffer.
 *
 * Checked mode looks each access up in the space's allocation records:
 * a linear search, as a run has a few buffers and checked mode trades
 * speed for the answer. Allocation happens outside kernels, so the
 * records do not change while workers read them.
 */
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>

#include "runtime/check.h"
#include "ngemu/runtime/space.h"

static uint64_t nrecs(const struct ng_space *s)
{
	return s->nallocs < s->cap_allocs ? s->nallocs : s->cap_allocs;
}

/* The live buffer holding [a, a + n), or NULL. */
static const struct ng_alloc_rec *holding(const struct ng_space *s,
					  uintptr_t a, uint64_t n)
{
	for (uint64_t i = nrecs(s); i-- > 0;) {
		const struct ng_alloc_rec *r = &s->allocs[i];

		if (r->live && a >= r->start && a - r->start < r->size &&
		    n <= r->size - (a - r->start))
			return r;
	}
	return NULL;
}

/* The live buffer nearest @a (below or above), or NULL when none. */
static const struct ng_alloc_rec *nearest(const struct ng_space *s,
					  uintptr_t a, uint64_t *dist)
{
	const struct ng_alloc_rec *best = NULL;

	for (uint64_t i = 0; i < nrecs(s); i++) {
		const struct ng_alloc_rec *r = &s->allocs[i];
		uint64_t d;

		if (!r->live)
			continue;
		d = a < r->start ? r->start - a :
		    a - r->start < r->size ? 0 : a - (r->start + r->size) + 1;
		if (!best || d < *dist) {
			best = r;
			*dist = d;
		}
	}
	return best;
}

static void describe_nearest(const struct ng_space *s, uintptr_t a)
{
	uint64_t d = 0;
	const struct ng_alloc_rec *r = nearest(s, a, &d);

	if (!r) {
		fprintf(stderr, "ngemu: no device buffer is allocated\n");
		return;
	}
	fprintf(stderr,
		"ngemu: nearest buffer: allocation %u, %" PRIu64 " bytes at %#" PRIxPTR ", the address is ",
		(unsigned int)(r - s->allocs), r->size, r->start);
	if (a < r->start)
		fprintf(stderr, "%" PRIu64 " bytes below its start\n", d);
	else if (!d)
		fprintf(stderr, "inside it at offset %" PRIu64 " (the access runs past its end)\n",
			(uint64_t)(a - r->start));
	else if (d == 1)
		fprintf(stderr, "its end\n");
	else
		fprintf(stderr, "%" PRIu64 " bytes past its end\n", d - 1);
}

void ng_warp_fault(const struct ng_warp *w, int lane, uintptr_t addr,
		   uint64_t size, const char *op, const char *why)
{
	const struct ng_block *b = w->b;
	const struct ng_space *s = b->space;

	/* one message: other workers that fault meanwhile wait for abort() */
	flockfile(stderr);
	fprintf(stderr, "ngemu: kernel '%s', block %" PRIu64 " (%u,%u), warp %u, ",
		b->kernel ? b->kernel : "?", b->id, b->idx.x, b->idx.y, w->id);
	if (lane >= 0)
		fprintf(stderr, "lane %d: %s of %" PRIu64 " bytes at %#" PRIxPTR ": ",
			lane, op, size, addr);
	else
		fprintf(stderr, "lane not known: %s of the line at %#" PRIxPTR ": ",
			op, addr);
	if (why) {
		fprintf(stderr, "%s\n", why);
	} else {
		if (addr >= (uintptr_t)s->base &&
		    addr - (uintptr_t)s->base < s->size)
			fprintf(stderr, "outside every live device buffer\n");
		else
			fprintf(stderr,
				"outside the device address space [%p, %p)\n",
				(void *)s->base, (void *)(s->base + s->size));
		describe_nearest(s, addr);
		if (lane < 0)
			fprintf(stderr, "ngemu: the config key checked (--checked, NGEMU_CHECKED=1) names the lane\n");
	}
	fprintf(stderr, "ngemu: the run stops here (abort)\n");
	abort();
}

void ng_check_range(const struct ng_warp *w, uintptr_t p, uintptr_t end,
		    unsigned int size, const char *op)
{
	const struct ng_space *s = w->b->space;
	const struct ng_alloc_rec *r;
	unsigned int lane = 0;

	if (end <= p || holding(s, p, end - p))
		return;
	r = holding(s, p, 1);
	/* the first lane whose bytes leave the buffer @p starts in */
	if (r && size)
		lane = (unsigned int)((r->start + r->size - p) / size);
	ng_warp_fault(w, (int)lane, p + (uintptr_t)lane * size, size, op, NULL);
}

void ng_check_lanes(const struct ng_warp *w, const uintptr_t *addr,
		    unsigned int size, const char *op)
{
	const struct ng_space *s = w->b->space;
	const struct ng_alloc_rec *r = NULL;

	for (uint32_t a = w->active; a; a &= a - 1) {
		unsigned int lane = (unsigned int)__builtin_ctz(a);
		uintptr_t x = addr[lane];

		/* lanes mostly share a buffer: try the last one first */
		if (r && x >= r->start && x - r->start < r->size &&
		    size <= r->size - (x - r->start))
			continue;
		r = holding(s, x, size);
		if (!r)
			ng_warp_fault(w, (int)lane, x, size, op, NULL);
	}
}

void ng_check_block(struct ng_block *b, uintptr_t p, unsigned int n,
		    unsigned int size, const char *op)
{
	const struct ng_alloc_rec *r;
	uint64_t i = 0;
	struct ng_warp w;

	if (!n || holding(b->space, p, (uint64_t)n * size))
		return;
	r = holding(b->space, p, 1);
	if (r && size)
		i = (r->start + r->size - p) / size;
	ng_warp_get(b, (unsigned int)(i / NG_WARP), &w);
	ng_warp_fault(&w, (int)(i % NG_WARP), p + i * size, size, op, NULL);
}
