/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The fields of a directory entry in its bit-packed storage (the format
 * is in ngemu/model/dir.h): entry e starts at bit e x bits of the array,
 * fields from the least significant bit up:
 *
 *   group[0] .. group[groups-1] | base | valid
 *   group = position bit (rec only) | sharer bits (ngpus - 1)
 */
#ifndef NGEMU_LIB_MODEL_DIRECTORY_ENTRY_H
#define NGEMU_LIB_MODEL_DIRECTORY_ENTRY_H

#include <stdbool.h>
#include <stdint.h>

#include "ngemu/model/dir.h"

/* @n (<= 64) bits at bit @off of @st; the array has a spare word. */
uint64_t ng_dirent_get(const uint64_t *st, uint64_t off, unsigned int n);
void ng_dirent_put(uint64_t *st, uint64_t off, unsigned int n, uint64_t v);

static inline uint64_t ng_dirent_bit0(const struct ng_dir_geom *g, uint64_t e)
{
	return e * g->bits;
}

static inline bool ng_dirent_valid(const struct ng_dir_geom *g,
				   const uint64_t *st, uint64_t e)
{
	return ng_dirent_get(st, ng_dirent_bit0(g, e) + g->bits - 1, 1);
}

static inline uint64_t ng_dirent_base(const struct ng_dir_geom *g,
				      const uint64_t *st, uint64_t e)
{
	return ng_dirent_get(st, ng_dirent_bit0(g, e) +
			     (uint64_t)g->groups * g->group_bits, g->base_bits);
}

/* A new entry for @base: valid, nothing recorded. */
static inline void ng_dirent_init(const struct ng_dir_geom *g, uint64_t *st,
				  uint64_t e, uint64_t base)
{
	uint64_t b0 = ng_dirent_bit0(g, e);

	for (uint64_t o = 0; o < g->bits; o += 64)
		ng_dirent_put(st, b0 + o, g->bits - o < 64 ? (unsigned int)(g->bits - o)
							   : 64, 0);
	ng_dirent_put(st, b0 + (uint64_t)g->groups * g->group_bits,
		      g->base_bits, base);
	ng_dirent_put(st, b0 + g->bits - 1, 1, 1);
}

static inline void ng_dirent_clear(const struct ng_dir_geom *g, uint64_t *st,
				   uint64_t e)
{
	ng_dirent_put(st, ng_dirent_bit0(g, e) + g->bits - 1, 1, 0);
}

/* Group @p: its position bit (1 where the format has none) and sharers. */
static inline bool ng_dirent_pos(const struct ng_dir_geom *g,
				 const uint64_t *st, uint64_t e, unsigned int p)
{
	return !g->pos_bits ||
	       ng_dirent_get(st, ng_dirent_bit0(g, e) +
			     (uint64_t)p * g->group_bits, 1);
}

static inline uint32_t ng_dirent_sharers(const struct ng_dir_geom *g,
					 const uint64_t *st, uint64_t e,
					 unsigned int p)
{
	return (uint32_t)ng_dirent_get(st, ng_dirent_bit0(g, e) +
				       (uint64_t)p * g->group_bits +
				       (g->pos_bits ? 1 : 0), g->sharers);
}

static inline void ng_dirent_set_group(const struct ng_dir_geom *g,
				       uint64_t *st, uint64_t e,
				       unsigned int p, bool pos,
				       uint32_t sharers)
{
	uint64_t o = ng_dirent_bit0(g, e) + (uint64_t)p * g->group_bits;

	if (g->pos_bits)
		ng_dirent_put(st, o++, 1, pos);
	ng_dirent_put(st, o, g->sharers, sharers);
}

#endif /* NGEMU_LIB_MODEL_DIRECTORY_ENTRY_H */
