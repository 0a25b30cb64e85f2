/* SPDX-License-Identifier: GPL-2.0 */
/*
 * DualOpt's fine-grained remote transfers (private to lib/model): the
 * units a load's mask fetches (mshr.c), and the CoDec that packs the
 * responses a home sends to one GPU into packets (codec.c, for link.c).
 */
#ifndef NGEMU_LIB_MODEL_CODEC_H
#define NGEMU_LIB_MODEL_CODEC_H

#include "ngemu/model/model.h"

/*
 * The transfer units of word mask @mask: its words grouped by @gran bytes
 * (a power of two, 4 to 256), a group counting once if any word is used.
 */
unsigned int ng_fine_units(uint64_t mask, unsigned int gran);

struct ng_codec_slot;

struct ng_codec {
	unsigned int ngpus, pack, xbytes, flit;
	ng_ticks window;		/* the timeout, ticks */
	struct ng_codec_slot *slot;	/* [home][to][NG_CODEC_SLOTS] */
};

int ng_codec_init(struct ng_codec *c, const struct ng_config *cfg);
void ng_codec_fini(struct ng_codec *c);

/*
 * A fine-grained response of @units transfer units from GPU @home to
 * @sm's GPU, leaving the home at @t: each unit (its data and a 2-byte
 * id) joins the packet open towards that GPU in its timeout window,
 * which leaves when its pack-th unit arrives or at the window's end; the
 * link is charged the packet's flits as they fill. Returns when the last
 * unit reaches @sm's GPU.
 */
ng_ticks ng_codec_send(struct ng_codec *c, struct ng_sm *sm, unsigned int home,
		       ng_ticks t, unsigned int units);

#endif /* NGEMU_LIB_MODEL_CODEC_H */
