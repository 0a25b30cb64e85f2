// SPDX-License-Identifier: GPL-2.0
/* The coalescer (see ngemu/coalesce.h). */
#include "ngemu/runtime/coalesce.h"

/* Words [first byte / 4, last byte / 4] of a byte range inside one line. */
static uint64_t word_mask(uintptr_t off, uintptr_t len)
{
	unsigned int w0 = (unsigned int)(off >> 2);
	unsigned int w1 = (unsigned int)((off + len - 1) >> 2);
	uint64_t hi = w1 >= 63 ? ~0ULL : (2ULL << w1) - 1;

	return hi & ~((1ULL << w0) - 1);
}

static unsigned int add(struct ng_line_req *out, unsigned int n,
			uintptr_t line, uint64_t mask, unsigned int lane)
{
	/* a warp touches few lines: a short scan beats hashing */
	for (unsigned int i = n; i-- > 0;)
		if (out[i].line == line) {
			out[i].mask |= mask;
			out[i].lanes |= 1u << lane;
			return n;
		}
	out[n].line = line;
	out[n].mask = mask;
	out[n].lanes = 1u << lane;
	return n + 1;
}

unsigned int ng_coalesce(const uintptr_t addr[NG_WARP], uint32_t active,
			 unsigned int size, unsigned int line,
			 struct ng_line_req out[NG_MAX_LINE_REQS])
{
	uintptr_t lmask = ~(uintptr_t)(line - 1);
	unsigned int n = 0;

	for (uint32_t a = active; a; a &= a - 1) {
		unsigned int lane = (unsigned int)__builtin_ctz(a);
		uintptr_t p = addr[lane], l0 = p & lmask;
		uintptr_t end = p + size - 1, l1 = end & lmask;

		if (l0 == l1) {
			n = add(out, n, l0, word_mask(p - l0, size), lane);
		} else {
			/* misaligned across a line boundary: two requests */
			n = add(out, n, l0, word_mask(p - l0, l1 - p), lane);
			n = add(out, n, l1, word_mask(0, end - l1 + 1), lane);
		}
	}
	return n;
}

unsigned int ng_coalesce_contig(uintptr_t base, unsigned int nlanes,
				unsigned int size, unsigned int line,
				struct ng_line_req out[NG_MAX_LINE_REQS])
{
	uintptr_t lmask = ~(uintptr_t)(line - 1);
	uintptr_t p = base, end = base + (uintptr_t)nlanes * size;
	unsigned int n = 0;

	if (!nlanes)
		return 0;
	while (p < end) {
		uintptr_t l = p & lmask, stop = l + line < end ? l + line : end;
		/* lanes whose bytes overlap [p, stop) */
		unsigned int first = (unsigned int)((p - base) / size);
		unsigned int last = (unsigned int)((stop - 1 - base) / size);
		uint32_t lanes = (last >= 31 ? ~0u : (2u << last) - 1) &
				 ~((1u << first) - 1);

		out[n].line = l;
		out[n].mask = word_mask(p - l, stop - p);
		out[n].lanes = lanes;
		n++;
		p = stop;
	}
	return n;
}
