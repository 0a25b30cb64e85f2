/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Bit arithmetic the model's components and the runtime share
 * (ngemu/model/model.h): a cache's set index from a line number, and the
 * set bits of a word mask.
 */
#ifndef NGEMU_MODEL_BITS_H
#define NGEMU_MODEL_BITS_H

#include <stdint.h>

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

#endif /* NGEMU_MODEL_BITS_H */
