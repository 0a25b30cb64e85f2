// SPDX-License-Identifier: GPL-2.0
/*
 * DualOpt's decision engine (ngemu/model/dualopt.h), and the switch that
 * applies an optimization: it sits ahead of the L1, sees every request,
 * and marks a GPU's remote ones for the optimization its GPU runs
 * (NG_REQ_FINE: a fine-grained load past the L1, for the MSHR, the link
 * and its CoDec; NG_REQ_RDMA: for the RDMA cache). With remote-opt =
 * coalesce or rdma-cache that is all it does.
 *
 * With auto, each GPU counts its remote accesses: after de-warmup of
 * them it watches the next de-window (remote lines still move whole,
 * the L1 caching them), then classifies. The L1's hits are seen on the
 * way back (a load that did not ask the L1 for a fill hit it); the
 * utilization of remote lines comes from the L1 (l1.h). A GPU's state is
 * touched only by its own host thread, so decisions do not depend on how
 * the host ran the threads. A counter reset (before the timed kernels)
 * starts the engine over.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "model/model_impl.h"
#include "model/l1.h"
#include "ngemu/model/dualopt.h"
#include "ngemu/model/model.h"
#include "ngemu/util/err.h"

enum phase { WARMUP, WATCH, DECIDED };

struct de_gpu {
	enum phase phase;
	unsigned int mode;		/* enum ng_remote_opt in force */
	uint64_t requests, remote;	/* since the reset */
	uint64_t w_acc, w_remote, w_hits, w_loads;
	uint64_t used0, fetched0;	/* the L1's tallies at the window's start */
	unsigned int kernels;
	struct ng_de_gpu out;
	/* keep GPUs' state on separate host cache lines */
	char pad[64];
};

struct de {
	struct ng_model *m;
	const struct ng_config *c;
	bool l1;
	struct de_gpu g[NG_MAX_GPUS];
};

static const char *const class_names[NG_NCLASS] = {
	[NG_CLASS_UNDECIDED] = "undecided",
	[NG_CLASS_LOCAL] = "local-dominated",
	[NG_CLASS_INSENSITIVE] = "cache-insensitive",
	[NG_CLASS_FRIENDLY] = "cache-friendly",
};

const char *ng_class_name(enum ng_locality_class c)
{
	return (unsigned int)c < NG_NCLASS ? class_names[c] : "?";
}

enum ng_locality_class ng_de_classify(const struct ng_de_measure *v,
				      const struct ng_config *c)
{
	if (v->remote_ratio < c->de.remote_thresh)
		return NG_CLASS_LOCAL;
	if (v->utilization < c->de.block_thresh && v->hit_rate < c->de.hit_thresh)
		return NG_CLASS_INSENSITIVE;
	return NG_CLASS_FRIENDLY;
}

static double ratio(uint64_t a, uint64_t b)
{
	return b ? (double)a / (double)b : 0;
}

static void start(struct de *d, unsigned int g)
{
	struct de_gpu *s = &d->g[g];

	memset(s, 0, sizeof(*s));
	s->mode = d->c->remote_opt == NG_RO_AUTO ? NG_RO_OFF : d->c->remote_opt;
	s->phase = d->c->remote_opt == NG_RO_AUTO ? WARMUP : DECIDED;
	if (s->phase == WARMUP && !d->c->de.warmup) {
		s->phase = WATCH;
		ng_l1_remote_words(d->m, g, false, &s->used0, &s->fetched0);
	}
}

/* The window's measurements so far, and the class they give. */
static void measure(struct de *d, unsigned int g, bool complete)
{
	struct de_gpu *s = &d->g[g];
	uint64_t used = 0, fetched = 0;

	/* a GPU still warming up at the end: what it saw in all */
	if (s->phase == WARMUP) {
		s->w_acc = s->requests;
		s->w_remote = s->remote;
	}
	ng_l1_remote_words(d->m, g, true, &used, &fetched);
	s->out.v.remote_ratio = ratio(s->w_remote, s->w_acc);
	s->out.v.utilization = ratio(used - s->used0, fetched - s->fetched0);
	s->out.v.hit_rate = ratio(s->w_hits, s->w_loads);
	s->out.window_remote = s->w_remote;
	s->out.window_accesses = s->w_acc;
	s->out.complete = complete;
	s->out.at_request = s->requests;
	s->out.at_kernel = s->kernels;
	s->out.cls = s->w_acc ? ng_de_classify(&s->out.v, d->c)
			      : NG_CLASS_UNDECIDED;
}

static void decide(struct de *d, unsigned int g)
{
	struct de_gpu *s = &d->g[g];

	measure(d, g, true);
	s->phase = DECIDED;
	s->mode = s->out.cls == NG_CLASS_INSENSITIVE ? NG_RO_COALESCE :
		  s->out.cls == NG_CLASS_FRIENDLY ? NG_RO_RDMA : NG_RO_OFF;
}

static void watch(struct de *d, struct de_gpu *s, unsigned int g, bool remote)
{
	if (s->phase == WARMUP) {
		if (remote && s->remote >= d->c->de.warmup) {
			s->phase = WATCH;
			ng_l1_remote_words(d->m, g, false, &s->used0,
					   &s->fetched0);
		}
		return;
	}
	s->w_acc++;
	s->w_remote += remote;
}

static bool de_access(void *priv, struct ng_sm *sm, struct ng_req *r)
{
	struct de *d = priv;
	struct de_gpu *s = &d->g[r->gpu];
	bool remote = r->home != r->gpu && r->home != NG_HOME_HOST;

	(void)sm;
	s->requests++;
	s->remote += remote;
	if (s->phase != DECIDED)
		watch(d, s, r->gpu, remote);
	if (!remote)
		return false;
	if (s->mode == NG_RO_COALESCE && r->op == NG_OP_LOAD)
		r->flags |= NG_REQ_FINE;
	else if (s->mode == NG_RO_RDMA)
		r->flags |= NG_REQ_RDMA;
	return false;
}

/*
 * On the way back: a watched remote load that asked the L1 for no fill
 * hit it. The window's last access decides, for the requests after it.
 */
static void de_respond(void *priv, struct ng_sm *sm, struct ng_req *r)
{
	struct de *d = priv;
	struct de_gpu *s = &d->g[r->gpu];

	(void)sm;
	if (s->phase != WATCH)
		return;
	if (r->op == NG_OP_LOAD && r->home != r->gpu &&
	    r->home != NG_HOME_HOST) {
		s->w_loads++;
		s->w_hits += d->l1 && !(r->flags & NG_REQ_L1_FILL);
	}
	if (s->w_remote >= d->c->de.window)
		decide(d, r->gpu);
}

static void de_kernel_end(void *priv, struct ng_sm *const *sms,
			  unsigned int nsm)
{
	struct de *d = priv;

	(void)sms;
	(void)nsm;
	for (unsigned int g = 0; g < d->m->ngpus; g++)
		d->g[g].kernels++;
}

static void de_reset(void *priv)
{
	struct de *d = priv;

	for (unsigned int g = 0; g < d->m->ngpus; g++)
		start(d, g);
}

static int de_create(struct ng_model *m, void **priv, char *err, size_t errlen)
{
	struct de *d = calloc(1, sizeof(*d));

	if (!d) {
		ng_seterr(err, errlen, "out of memory for the decision engine");
		return -ENOMEM;
	}
	d->m = m;
	d->c = m->cfg;
	d->l1 = m->cfg->l1.size != 0;
	*priv = d;
	de_reset(d);
	return 0;
}

int ng_de_report(const struct ng_model *m, struct ng_de_report *out)
{
	extern const struct ng_component ng_decision_component;
	struct de *d = ng_model_priv(m, &ng_decision_component);
	unsigned int votes[NG_NCLASS] = { 0 }, best = NG_CLASS_UNDECIDED;

	memset(out, 0, sizeof(*out));
	if (!d || d->c->remote_opt != NG_RO_AUTO)
		return -ENOENT;
	out->on = true;
	out->ngpus = m->ngpus;
	for (unsigned int g = 0; g < m->ngpus; g++) {
		struct de_gpu *s = &d->g[g];

		/* a window that never filled: what the GPU saw, at the end */
		if (s->phase != DECIDED)
			measure(d, g, false);
		out->gpu[g] = s->out;
		out->gpu[g].requests = s->requests;
		if (s->out.cls != NG_CLASS_UNDECIDED)
			votes[s->out.cls]++;
	}
	/* the class of most GPUs; a tie goes to the lower GPU's */
	for (unsigned int g = 0; g < m->ngpus; g++) {
		unsigned int c = out->gpu[g].cls;

		if (c != NG_CLASS_UNDECIDED && votes[c] > votes[best])
			best = c;
	}
	out->cls = best;
	return 0;
}

static bool de_enabled(const struct ng_config *c)
{
	return c->remote_opt != NG_RO_OFF;
}

static int de_validate(const struct ng_config *c, char *err, size_t errlen)
{
	if (c->remote_opt == NG_RO_AUTO && !c->l1.size) {
		ng_seterr(err, errlen,
			  "remote-opt auto: the decision engine measures the L1's hits of remote lines, so it needs an L1 (l1-size > 0)");
		return -EINVAL;
	}
	if (c->xfer_gran & (c->xfer_gran - 1) || c->xfer_gran > c->line) {
		ng_seterr(err, errlen,
			  "xfer-gran %u: fine-grained transfers are a power of two of bytes, 4 to the line (%u)",
			  c->xfer_gran, c->line);
		return -EINVAL;
	}
	if (c->remote_opt == NG_RO_RDMA && !c->rdma.size) {
		ng_seterr(err, errlen,
			  "remote-opt rdma-cache needs an RDMA cache: rdma-size is 0");
		return -EINVAL;
	}
	if (c->dir.kind != NG_DIR_OFF || ng_rdc_on(&c->rdc)) {
		ng_seterr(err, errlen,
			  "remote-opt %s: DualOpt's caches are software coherent, without a directory or an RDC: set directory off and rdc-size 0",
			  ng_remote_opt_names[c->remote_opt]);
		return -EINVAL;
	}
	return 0;
}

static const struct ng_key de_keys[] = {
	NG_KEY_CHOICE("remote-opt", remote_opt, ng_remote_opt_names,
		      "DualOpt: off (line transfers), coalesce, rdma-cache, or auto (the decision engine's choice per GPU)"),
	NG_KEY_NUM("de-warmup", NG_KEY_UINT, de.warmup, 0, 1e9,
		   "remote accesses per GPU before the engine's window"),
	NG_KEY_NUM("de-window", NG_KEY_UINT, de.window, 1, 1e9,
		   "remote accesses per GPU the engine watches"),
	NG_KEY_NUM("remote-thresh", NG_KEY_DOUBLE, de.remote_thresh, 0, 1,
		   "below this remote-access ratio a GPU is local-dominated"),
	NG_KEY_NUM("block-thresh", NG_KEY_DOUBLE, de.block_thresh, 0, 1,
		   "utilization of remote lines under which coalescing may be chosen"),
	NG_KEY_NUM("hit-thresh", NG_KEY_DOUBLE, de.hit_thresh, 0, 1,
		   "L1 hit rate of remote loads under which coalescing may be chosen"),
	{ .name = NULL },
};

const struct ng_component ng_decision_component = {
	.name = "de",
	.desc = "DualOpt's decision engine: classifies each GPU's locality and marks its remote requests for coalescing or the RDMA cache",
	.keys = de_keys,
	.counters = "",
	.enabled = de_enabled,
	.remote_only = false,
	.validate = de_validate,
	.create = de_create,
	.destroy = free,
	.access = de_access,
	.respond = de_respond,
	.kernel_end = de_kernel_end,
	.reset = de_reset,
};
