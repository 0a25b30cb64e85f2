// SPDX-License-Identifier: GPL-2.0
/*
 * Page placement: where each page of a buffer lives, by policy
 * (config.h's enum ng_placement): first touch, NUMA-GPU's fine-grained
 * interleave (FGP), CODA's coarse-grained pages (CGP) and chunks, one GPU,
 * or host memory. The address space writes the result in its location
 * table; first-touch pages are resolved later, on their first access.
 */
#include "runtime/placement.h"

/*
 * Whether page @pg of the space is one of the @share of pages that live
 * in host memory: chosen by a hash of the page's number, so that every
 * buffer, small ones too, spills its share on average and no GPU loses
 * more than another under a round-robin placement (a period of pages
 * would line up with CGP's). Which pages a Unified Memory runtime leaves
 * in host memory depends on its eviction order, which CARVE does not
 * give: uncorrelated with the placement is the choice that favours none.
 */
static bool host_page(double share, uint64_t pg)
{
	uint64_t z = pg + 0x9e3779b97f4a7c15ULL;

	if (share <= 0)
		return false;
	/* splitmix64's finalizer */
	z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
	z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
	z ^= z >> 31;
	return (double)(z >> 11) < share * (double)(1ULL << 53);
}

uint8_t ng_placement_loc(const struct ng_space *s, const struct ng_buf *b,
			 uint64_t pg0, uint64_t i)
{
	uint64_t page = 1ULL << s->page_shift;

	if (host_page(s->host_share, pg0 + i))
		return NG_HOME_HOST;
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
			      unsigned int page_shift, unsigned int fgp_shift,
			      unsigned int ngpus)
{
	if (!cgp)
		return ng_fgp_gpu(paddr, fgp_shift, ngpus);
	return (unsigned int)((paddr >> page_shift) & (ngpus - 1));
}

uint64_t ng_coda_chunk(uint64_t block_bytes, uint64_t blocks_per_gpu,
		       uint64_t page, bool capped)
{
	uint64_t c = block_bytes * blocks_per_gpu;

	/*
	 * With the cap and 4 KB pages that is always one page: consecutive
	 * pages go round-robin from the structure's start, whatever B is.
	 * What keeps the data of the blocks with affinity g on GPU g is the
	 * product itself: the uncapped rule (coda-chunk uncapped).
	 */
	if (capped && c > 4096)
		c = 4096;
	if (c < page)
		c = page;
	return (c + page - 1) / page * page;
}
