// SPDX-License-Identifier: GPL-2.0
/*
 * The directory's entry format (ngemu/model/dir.h): its size for a
 * configuration, and the bit-packed storage every entry lives in. The
 * protocol that reads and changes entries is in directory.c.
 */
#include <errno.h>

#include "model/directory_entry.h"
#include "ngemu/util/err.h"

static unsigned int log2u(uint64_t v)
{
	return (unsigned int)__builtin_ctzll(v);
}

int ng_dir_geometry(const struct ng_config *c, struct ng_dir_geom *g,
		    char *err, size_t errlen)
{
	uint64_t range = c->line, space = (uint64_t)c->gpus * c->mem_per_gpu;

	*g = (struct ng_dir_geom){ 0 };
	if (c->dir.kind == NG_DIR_HMG)
		range = 4ULL * c->line;
	else if (c->dir.kind == NG_DIR_REC)
		range = c->dir.rec_range;
	if (c->dir.kind == NG_DIR_REC &&
	    (range & (range - 1) || range < 2ULL * c->line ||
	     range / c->line > NG_DIR_MAX_POSITIONS)) {
		ng_seterr(err, errlen,
			  "rec-range: %llu B must be a power of two from 2 to %d lines of %u B (a 1-line range is the per-line directory, directory dir)",
			  (unsigned long long)range, NG_DIR_MAX_POSITIONS, c->line);
		return -EINVAL;
	}
	if (!c->dir.ways || c->dir.entries % c->dir.ways) {
		ng_seterr(err, errlen,
			  "dir-entries: %u is not a whole number of sets of %u ways",
			  c->dir.entries, c->dir.ways);
		return -EINVAL;
	}
	g->positions = (unsigned int)(range / c->line);
	g->range_shift = log2u(range);
	if (c->dir.addr_bits <= g->range_shift ||
	    (c->dir.addr_bits < 64 && space > 1ULL << c->dir.addr_bits)) {
		ng_seterr(err, errlen,
			  "dir-addr-bits: entries tag %u-bit addresses, which cannot hold the %llu B of device memory (%u GPUs x mem-per-gpu) in ranges of %llu B",
			  c->dir.addr_bits, (unsigned long long)space, c->gpus,
			  (unsigned long long)range);
		return -EINVAL;
	}
	g->pos_bits = c->dir.kind == NG_DIR_REC ? g->positions : 0;
	g->groups = c->dir.kind == NG_DIR_HMG ? 1 : g->positions;
	g->sharers = c->gpus - 1;
	g->group_bits = (g->pos_bits ? 1 : 0) + g->sharers;
	/* REC Table 1: a per-line tag keeps every address bit */
	g->base_bits = c->dir.addr_bits - (g->positions > 1 ? g->range_shift : 0);
	g->bits = g->groups * g->group_bits + g->base_bits + 1;
	g->storage_bits = (uint64_t)c->dir.entries * g->bits;
	return 0;
}

uint64_t ng_dirent_get(const uint64_t *st, uint64_t off, unsigned int n)
{
	uint64_t w = off / 64, v;
	unsigned int sh = (unsigned int)(off % 64);

	if (!n)
		return 0;
	v = st[w] >> sh;
	if (sh + n > 64)
		v |= st[w + 1] << (64 - sh);
	return n == 64 ? v : v & ((1ULL << n) - 1);
}

void ng_dirent_put(uint64_t *st, uint64_t off, unsigned int n, uint64_t v)
{
	uint64_t w = off / 64, mask = n == 64 ? ~0ULL : (1ULL << n) - 1;
	unsigned int sh = (unsigned int)(off % 64);

	if (!n)
		return;
	v &= mask;
	st[w] = (st[w] & ~(mask << sh)) | v << sh;
	if (sh + n > 64)
		st[w + 1] = (st[w + 1] & ~(mask >> (64 - sh))) | v >> (64 - sh);
}
