// SPDX-License-Identifier: GPL-2.0
/*
 * The CoDec of every GPU's link port (DualOpt section 4.1.3, Fig. 9): the
 * responses a home sends to one GPU are staged per destination and
 * packed, up to codec-pack transactions of xfer-gran bytes plus a 2-byte
 * response id per packet, flushed when full or on the timeout.
 *
 * A GPU's SMs are stepped one after another through an interval of
 * modeled time (runtime/pool.c), so responses do not reach a port in
 * time order. The timeout is therefore kept as fixed windows of
 * codec-timeout cycles: the responses that leave a home for one GPU in
 * the same window share packets, whatever order they come in, and a
 * packet leaves at the end of its window unless it fills first (then at
 * its last unit's time). A packet waits at most one timeout either way.
 * The link is booked for a packet's flits as its units come in (a flit
 * is sent once full, which the window end may follow).
 *
 * Only the destination GPU's host thread (its SMs' loads) touches the
 * slots of packets towards it: no lock.
 */
#include <errno.h>
#include <stdlib.h>

#include "model/codec.h"

#define NG_CODEC_SLOTS	64	/* windows kept per direction: a ring */
#define NG_CODEC_ID	2	/* bytes of a transaction's response id */

struct ng_codec_slot {
	uint64_t win;			/* absolute window number + 1; 0: none */
	unsigned int n;			/* units packed in the window so far */
	ng_ticks end;			/* when the open packet's last flit is sent */
};

int ng_codec_init(struct ng_codec *c, const struct ng_config *cfg)
{
	double ns = cfg->codec.timeout / cfg->freq_ghz;

	c->ngpus = cfg->gpus;
	c->pack = cfg->codec.pack;
	c->xbytes = cfg->xfer_gran + NG_CODEC_ID;
	c->flit = cfg->flit;
	c->window = (ng_ticks)(ns * NG_TICKS_PER_NS + 0.5);
	if (!c->window)
		c->window = 1;
	c->slot = calloc((size_t)c->ngpus * c->ngpus * NG_CODEC_SLOTS,
			 sizeof(*c->slot));
	return c->slot ? 0 : -ENOMEM;
}

void ng_codec_fini(struct ng_codec *c)
{
	free(c->slot);
	c->slot = NULL;
}

static uint64_t flits(const struct ng_codec *c, uint64_t bytes)
{
	return (bytes + c->flit - 1) / c->flit * c->flit;
}

ng_ticks ng_codec_send(struct ng_codec *c, struct ng_sm *sm, unsigned int home,
		       ng_ticks t, unsigned int units)
{
	struct ng_model *m = sm->model;
	ng_ticks lat = ng_link_latency(m);
	uint64_t k = (sm->time_base + t) / c->window;
	struct ng_codec_slot *s = &c->slot[((size_t)home * c->ngpus + sm->gpu) *
					   NG_CODEC_SLOTS + k % NG_CODEC_SLOTS];
	/* the window's end, back in the SM's kernel-relative time */
	ng_ticks wend = (k + 1) * c->window - sm->time_base;
	ng_ticks last = t;

	if (s->win != k + 1) {
		s->win = k + 1;
		s->n = 0;
		s->end = 0;
	}
	for (unsigned int u = 0; u < units; u++) {
		unsigned int pos = s->n++ % c->pack;
		bool full = pos + 1 == c->pack;
		uint64_t add = flits(c, (uint64_t)(pos + 1) * c->xbytes) -
			       flits(c, (uint64_t)pos * c->xbytes);
		ng_ticks done = s->end;

		if (!pos) {
			s->end = 0;
			done = 0;
			sm->ctr.v[NG_CTR_CODEC_PKTS]++;
			sm->ctr.v[NG_CTR_XACT_DATA]++;
		}
		sm->ctr.v[NG_CTR_CODEC_XACTS]++;
		sm->ctr.v[NG_CTR_CODEC_FULL] += full;
		/* the link carries the packet's flits as its units come */
		if (add) {
			done = ng_link_xfer(sm, home, sm->gpu, t, add, NULL);
			if (done > s->end)
				s->end = done;
			sm->ctr.v[NG_CTR_LINK_RX] += add;
		}
		/* a packet that does not fill leaves at its window's end */
		if (!full && done < wend)
			done = wend;
		if (done > last)
			last = done;
	}
	return last + lat;
}
