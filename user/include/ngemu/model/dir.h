/* SPDX-License-Identifier: GPL-2.0 */
/*
 * REC's coherence directory at each home GPU (REC sections
 * 2.3 and 4): set-associative entries that record which GPUs' L2s cache
 * the home's lines, in one of three organizations (`directory` key):
 *
 *   dir  one line per entry: tag + a sharer bit per other GPU (the
 *        paper's baseline; `dir-2x` in compare mode is twice the entries)
 *   hmg  one entry per 4 lines with one sharer field (HMG): a write to
 *        any of them invalidates all four at every sharer
 *   rec  one entry per aligned range of rec-range bytes: a base address,
 *        then per line of the range a position bit and (ngpus - 1)
 *        sharer bits; bit (tag mod range) / line * (nsharers + 1) is the
 *        line's position bit, its sharers follow it
 *
 * Entries are bit-packed exactly as the paper sizes them (REC Table 1)
 * in a storage array of their own, most significant first:
 *
 *   valid | base | group[P-1] .. group[0]     group = [sharers][position]
 *
 * with the position bit at the bottom of each group (rec only; a per-line
 * entry's position is its valid bit, hmg's one group has no position).
 * The paper counts addresses as dir-addr-bits (48) wide: a per-line entry
 * keeps all of them, an entry of a range of R bytes drops log2(R). For 4
 * GPUs that gives 52 (64 B), 50 (128 B), 57 (256 B), 103 (1 KB) and 293
 * (4 KB) bits, REC Table 1; 167 and 295 bits at 1 KB for 8 and 16 GPUs,
 * as REC section 4.3 gives.
 */
#ifndef NGEMU_MODEL_DIR_H
#define NGEMU_MODEL_DIR_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "ngemu/config.h"

struct ng_model;

/* The most lines one entry covers (its positions in a 64-bit mask). */
#define NG_DIR_MAX_POSITIONS	64

/* Whether @c keeps remote lines in the L2 coherent with a directory. */
static inline bool ng_dir_enabled(const struct ng_config *c)
{
	return ng_l2_on(&c->l2) && c->dir.kind >= NG_DIR_LINE;
}

/* What one entry of a configuration's directory holds, and its size. */
struct ng_dir_geom {
	unsigned int positions;		/* lines an entry covers */
	unsigned int pos_bits;		/* position bits (rec: positions) */
	unsigned int groups;		/* sharer fields (hmg: 1) */
	unsigned int sharers;		/* bits per field: ngpus - 1 */
	unsigned int group_bits;	/* pos bit (if any) + sharers */
	unsigned int base_bits;
	unsigned int bits;		/* the whole entry, valid bit included */
	unsigned int range_shift;	/* log2(bytes an entry covers) */
	uint64_t storage_bits;		/* entries x bits, per home GPU */
};

/*
 * The entry format of @c's directory. -EINVAL (message in @err) when it
 * cannot hold what the configuration asks: a range that is no power-of-
 * two multiple of the line or covers more than NG_DIR_MAX_POSITIONS
 * lines, or an address space wider than dir-addr-bits.
 */
int ng_dir_geometry(const struct ng_config *c, struct ng_dir_geom *g,
		    char *err, size_t errlen);

/* One entry as the directory holds it, for tests and reports. */
struct ng_dir_entry {
	bool valid;
	uint64_t base;			/* line index >> log2(positions) */
	uint64_t pos;			/* positions set (hmg, dir: all if valid) */
	uint32_t sharers[NG_DIR_MAX_POSITIONS];	/* GPU bits per position */
};

/*
 * The entry of home @home's directory that covers device line @line: 1
 * (filled in), 0 (no valid entry covers it) or -ENOENT (no directory).
 */
int ng_dir_lookup(const struct ng_model *m, unsigned int home,
		  uintptr_t line, struct ng_dir_entry *e);

/* The sharer bit of GPU @gpu in home @home's entries (the home has none). */
static inline unsigned int ng_dir_sharer_bit(unsigned int home, unsigned int gpu)
{
	return gpu < home ? gpu : gpu - 1;
}

#endif /* NGEMU_MODEL_DIR_H */
