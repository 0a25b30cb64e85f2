// SPDX-License-Identifier: GPL-2.0
/*
 * Page placement: where each page of a buffer lives, by policy
 * (config.h's enum ng_placement): first touch, NUMA-GPU's fine-grained
 * interleave (FGP), CODA's coarse-grained pages (CGP) and chunks, one GPU,
 * or host memory. The address space writes the result in its location
 * table; first-touch pages are resolved later, on their first access.
 */
#include "runtime/placement.h"

static unsigned int ilog2_u64(uint64_t v)
{
	return 63u - (unsigned int)__builtin_clzll(v);
}

uint8_t ng_placement_loc(const struct ng_space *s, const struct ng_buf *b,
			 uint64_t pg0, uint64_t i)
{
	uint64_t page = 1ULL << s->page_shift;

	switch (b->place) {
	case NG_PLACE_FGP:
		return NG_LOC_FGP;
	case NG_PLACE_CGP:
		/* CODA's CGP: the low bits of the page number */
		return (uint8_t)((pg0 + i) % s->ngpus);
	case NG_PLACE_CODA:
		return (uint8_t)((i * page / b->chunk) % s->ngpus);
	case NG_PLACE_HOST:
		return NG_HOME_HOST;
	case NG_PLACE_NODE:
		return (uint8_t)b->node;
	case NG_PLACE_FIRST_TOUCH:
	default:
		return NG_LOC_NONE;
	}
}

unsigned int ng_coda_gpu_bits(uint64_t paddr, bool cgp,
			      unsigned int page_shift, unsigned int ngpus)
{
	unsigned int bits = ilog2_u64(ngpus);
	unsigned int lo = cgp ? page_shift : page_shift - bits;

	return (unsigned int)((paddr >> lo) & (ngpus - 1));
}

uint64_t ng_coda_chunk(uint64_t block_bytes, uint64_t blocks_per_gpu,
		       uint64_t page)
{
	uint64_t c = block_bytes * blocks_per_gpu;

	/*
	 * MECHANISMS 6 writes min(4 KB, B x nblocks_per_gpu) rounded up to
	 * pages; with 4 KB pages that is always one page. What keeps the data
	 * of the blocks with affinity g on GPU g is the product itself, so the
	 * chunk is that, in whole pages (one page at least).
	 */
	if (c < page)
		c = page;
	return (c + page - 1) / page * page;
}
