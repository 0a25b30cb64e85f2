/* SPDX-License-Identifier: GPL-2.0 */
/*
 * CoDec's settings (DualOpt sec. 4.1: fine-grained responses packed into
 * packets at the home; the component is lib/model/codec.c, used by the
 * link for coalesced remote loads). They sit in struct ng_config as its
 * member .codec; the keys codec-pack and codec-timeout set them.
 */
#ifndef NGEMU_MODEL_CODEC_H
#define NGEMU_MODEL_CODEC_H

struct ng_codec_config {
	unsigned int pack;		/* transactions per packet; 0: no CoDec */
	unsigned int timeout;		/* cycles a packet waits to fill */
};

/* DualOpt Table 1: 10 transactions a packet, a 30-cycle timeout. */
#define NG_CODEC_DEFAULTS	{ .pack = 10, .timeout = 30 }

/*
 * Its counters, in the form of ngemu/util/counters.h's list (which takes
 * them in): X(ID, component, name, what it counts).
 */
#define NG_CODEC_COUNTERS(X)						\
	X(CODEC_PKTS,	"codec", "packets",	"CoDec packets of fine-grained responses") \
	X(CODEC_XACTS,	"codec", "transactions", "fine-grained responses' units packed into them") \
	X(CODEC_FULL,	"codec", "full",	"packets sent full (the rest left on their timeout)")

#endif /* NGEMU_MODEL_CODEC_H */
