/* SPDX-License-Identifier: GPL-2.0 */
/*
 * CARVE's per-line metadata, packed as it would be in the spare ECC bits
 * of a 128 B HBM line: 16 B of ECC per line, SECDED needs 72 bits, which
 * leaves 56 bits. ngemu keeps the 56 bits in a sidecar word beside each
 * line (bits 56-63 of the word are always 0).
 *
 *   bit  0-1   IMST: the sharing state of the line (U, P, RS, RW). In the
 *              home memory's sidecar it is the In-Memory Sharing Tracker;
 *              in an RDC line it is the copy CARVE keeps with the data.
 *   bit  2     valid (RDC lines)
 *   bits 3-22  epoch the line was inserted in (20 bits, SWC)
 *   bits 23-55 tag: which of the remote lines mapping to this RDC slot
 *              the slot holds (up to 33 bits)
 *
 * A configuration whose tag needs more than 33 bits (an RDC too small for
 * the address space it caches) is rejected: it would not fit in the ECC.
 */
#ifndef NGEMU_SIDECAR_H
#define NGEMU_SIDECAR_H

#include <stdbool.h>
#include <stdint.h>

#define NG_SC_BITS		56
#define NG_SC_IMST_SHIFT	0
#define NG_SC_IMST_BITS		2
#define NG_SC_VALID_SHIFT	2
#define NG_SC_EPOCH_SHIFT	3
#define NG_SC_EPOCH_BITS	20
#define NG_SC_TAG_SHIFT		23
#define NG_SC_TAG_MAX_BITS	(NG_SC_BITS - NG_SC_TAG_SHIFT)	/* 33 */

#define NG_SC_EPOCH_MASK	((1u << NG_SC_EPOCH_BITS) - 1)
#define NG_SC_TAG_MASK		((1ULL << NG_SC_TAG_MAX_BITS) - 1)

/* IMST states (CARVE Fig. 12) */
enum ng_imst {
	NG_IMST_UNCACHED = 0,
	NG_IMST_PRIVATE = 1,
	NG_IMST_RSHARED = 2,
	NG_IMST_RWSHARED = 3,
};

struct ng_sidecar {
	uint64_t tag;
	uint32_t epoch;
	bool valid;
	unsigned int imst;
};

static inline uint64_t ng_sc_pack(const struct ng_sidecar *s)
{
	return (uint64_t)(s->imst & 3u) << NG_SC_IMST_SHIFT |
	       (uint64_t)(s->valid ? 1 : 0) << NG_SC_VALID_SHIFT |
	       (uint64_t)(s->epoch & NG_SC_EPOCH_MASK) << NG_SC_EPOCH_SHIFT |
	       (s->tag & NG_SC_TAG_MASK) << NG_SC_TAG_SHIFT;
}

static inline void ng_sc_unpack(uint64_t w, struct ng_sidecar *s)
{
	s->imst = (unsigned int)(w >> NG_SC_IMST_SHIFT) & 3u;
	s->valid = (w >> NG_SC_VALID_SHIFT) & 1;
	s->epoch = (uint32_t)(w >> NG_SC_EPOCH_SHIFT) & NG_SC_EPOCH_MASK;
	s->tag = (w >> NG_SC_TAG_SHIFT) & NG_SC_TAG_MASK;
}

static inline unsigned int ng_sc_imst(uint64_t w)
{
	return (unsigned int)(w >> NG_SC_IMST_SHIFT) & 3u;
}

/* The word of a valid line with @tag inserted in @epoch. */
static inline uint64_t ng_sc_line(uint64_t tag, uint32_t epoch,
				  unsigned int imst)
{
	struct ng_sidecar s = { .tag = tag, .epoch = epoch, .valid = true,
				.imst = imst };

	return ng_sc_pack(&s);
}

/* Valid, with @tag and @epoch: an RDC hit. */
static inline bool ng_sc_hit(uint64_t w, uint64_t tag, uint32_t epoch)
{
	uint64_t want = (1ULL << NG_SC_VALID_SHIFT) |
			(uint64_t)epoch << NG_SC_EPOCH_SHIFT |
			tag << NG_SC_TAG_SHIFT;
	uint64_t mask = ~((uint64_t)3 << NG_SC_IMST_SHIFT);

	return (w & mask) == want;
}

/*
 * Tag bits an RDC of @rdc_lines slots needs to cache any of @space_lines
 * lines; returns -1 when it does not fit in the ECC's spare bits.
 */
int ng_sc_tag_bits(uint64_t space_lines, uint64_t rdc_lines);

/*
 * IMST transition at the home for an access by the home GPU (@local) or
 * another GPU, a read or a write (@write). @reset: the 1% draw came up
 * (only a local write uses it). Returns the new state; *broadcast says
 * whether the write must invalidate the other GPUs' copies first.
 */
unsigned int ng_imst_next(unsigned int state, bool local, bool write,
			  bool reset, bool *broadcast);

const char *ng_imst_name(unsigned int state);

#endif /* NGEMU_SIDECAR_H */
