// SPDX-License-Identifier: GPL-2.0
/* CARVE's ECC-sidecar metadata and the IMST state machine (sidecar.h). */
#include "ngemu/model/sidecar.h"

int ng_sc_tag_bits(uint64_t space_lines, uint64_t rdc_lines)
{
	uint64_t tags;
	int bits = 0;

	if (!rdc_lines)
		return -1;
	/* the tags a slot can hold: 0 .. (space_lines - 1) / rdc_lines */
	tags = space_lines ? (space_lines - 1) / rdc_lines : 0;
	while (bits < 64 && (tags >> bits))
		bits++;
	return bits > NG_SC_TAG_MAX_BITS ? -1 : bits;
}

/*
 * CARVE Fig. 12. No remote cache can hold a copy of an uncached or private
 * line (a remote read would have made it read-shared, and a reset to
 * private comes after a broadcast), so writes to those need no broadcast.
 *
 *   state     local read  local write           remote read  remote write
 *   U         P           P                     RS           RW
 *   P         P           P                     RS           RW
 *   RS        RS          bcast, RW (1%: P)     RS           bcast, RW
 *   RW        RW          bcast, RW (1%: P)     RW           bcast, RW
 */
unsigned int ng_imst_next(unsigned int state, bool local, bool write,
			  bool reset, bool *broadcast)
{
	bool shared = state == NG_IMST_RSHARED || state == NG_IMST_RWSHARED;

	*broadcast = write && shared;
	if (!write) {
		if (local)
			return state == NG_IMST_UNCACHED ? NG_IMST_PRIVATE : state;
		return state == NG_IMST_RWSHARED ? NG_IMST_RWSHARED
						 : NG_IMST_RSHARED;
	}
	if (!local)
		return NG_IMST_RWSHARED;
	if (!shared || reset)
		return NG_IMST_PRIVATE;
	return NG_IMST_RWSHARED;
}

const char *ng_imst_name(unsigned int state)
{
	static const char *const names[] = { "uncached", "private",
					     "read-shared", "rw-shared" };

	return state < 4 ? names[state] : "?";
}
