// SPDX-License-Identifier: GPL-2.0
/*
 * DualOpt's RDMA cache (section 4.2): per GPU, at the RDMA unit, holding
 * only remote lines, with real copies of their data; it serves the
 * remote loads that miss the L1s of every CU of the GPU (so CUs share
 * what one of them fetched) and fills on the way back. Write-back: a
 * remote store to a line it holds stays here (the words are marked dirty
 * and reach the home when the line leaves: evicted, hit by an atomic, or
 * flushed at the kernel's end); a store to a line it does not hold goes
 * to the home (no allocation). Software coherent: every line carries the
 * epoch it was filled in and a kernel boundary bumps the GPU's epoch
 * after writing the dirty words back; the writing back lengthens the
 * kernel by the time the busiest link direction needs for it.
 *
 * It serves only requests the decision engine marked (NG_REQ_RDMA: the
 * GPU runs remote data caching). The functional data a store writes is
 * at its home already (runtime/warp.c writes through), so the copy here
 * takes the stored words from there; the model charges the link when the
 * write-back happens, which is what a write-back cache costs.
 *
 * Only the GPU's own host thread touches its cache: no lock.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "model/link.h"
#include "ngemu/model/model.h"
#include "ngemu/util/err.h"
#include "util/util.h"

#define EPOCH_BITS	20
#define EPOCH_MASK	((1u << EPOCH_BITS) - 1)
#define TAG(ln, ep)	(((uint64_t)(ln) << EPOCH_BITS) | (ep))

struct rdma_cache {
	uint64_t *tag;
	uint32_t *lru;
	uint32_t *stamp;		/* per set */
	ng_ticks *ready;		/* when the fill arrives */
	uint64_t *dirty;		/* words written here, not at the home */
	unsigned char *data;
	uint32_t epoch;
};

struct rdma {
	struct ng_model *m;
	unsigned int ngpus, nsets, ways, line, line_shift;
	ng_ticks hit;
	struct rdma_cache c[NG_MAX_GPUS];
};

static size_t nways(const struct rdma *d)
{
	return (size_t)d->nsets * d->ways;
}

static void rdma_destroy(void *priv)
{
	struct rdma *d = priv;

	if (!d)
		return;
	for (unsigned int g = 0; g < d->ngpus; g++) {
		struct rdma_cache *c = &d->c[g];

		ng_table_free(c->tag, nways(d) * sizeof(*c->tag));
		ng_table_free(c->lru, nways(d) * sizeof(*c->lru));
		ng_table_free(c->stamp, d->nsets * sizeof(*c->stamp));
		ng_table_free(c->ready, nways(d) * sizeof(*c->ready));
		ng_table_free(c->dirty, nways(d) * sizeof(*c->dirty));
		ng_table_free(c->data, nways(d) * d->line);
	}
	free(d);
}

static int rdma_create(struct ng_model *m, void **priv, char *err,
		       size_t errlen)
{
	const struct ng_config *cfg = m->cfg;
	struct rdma *d = calloc(1, sizeof(*d));

	if (!d)
		goto nomem;
	d->m = m;
	d->ngpus = cfg->gpus;
	d->ways = cfg->rdma.ways;
	d->line = cfg->line;
	d->line_shift = (unsigned int)__builtin_ctz(cfg->line);
	d->nsets = (unsigned int)(cfg->rdma.size / cfg->line / cfg->rdma.ways);
	d->hit = (ng_ticks)(cfg->rdma.latency_ns * NG_TICKS_PER_NS);
	for (unsigned int g = 0; g < d->ngpus; g++) {
		struct rdma_cache *c = &d->c[g];

		c->tag = ng_table_alloc(nways(d) * sizeof(*c->tag));
		c->lru = ng_table_alloc(nways(d) * sizeof(*c->lru));
		c->stamp = ng_table_alloc(d->nsets * sizeof(*c->stamp));
		c->ready = ng_table_alloc(nways(d) * sizeof(*c->ready));
		c->dirty = ng_table_alloc(nways(d) * sizeof(*c->dirty));
		c->data = ng_table_alloc(nways(d) * d->line);
		c->epoch = 1;
		if (!c->tag || !c->lru || !c->stamp || !c->ready || !c->dirty ||
		    !c->data)
			goto nomem;
	}
	*priv = d;
	return 0;
nomem:
	rdma_destroy(d);
	ng_seterr(err, errlen, "out of memory for the RDMA cache model");
	return -ENOMEM;
}

static size_t set_base(const struct rdma *d, uintptr_t line)
{
	uint64_t n = line >> d->line_shift;

	return (size_t)(n % d->nsets) * d->ways;
}

static bool live(const struct rdma *d, const struct rdma_cache *c, size_t i)
{
	(void)d;
	return c->tag[i] && (uint32_t)(c->tag[i] & EPOCH_MASK) == c->epoch;
}

static int find(const struct rdma *d, const struct rdma_cache *c, size_t s0,
		uintptr_t line)
{
	uint64_t want = TAG(line >> d->line_shift, c->epoch);

	for (unsigned int i = 0; i < d->ways; i++)
		if (c->tag[s0 + i] == want)
			return (int)i;
	return -1;
}

static uintptr_t line_of(const struct rdma *d, const struct rdma_cache *c,
			 size_t i)
{
	(void)c;
	return (uintptr_t)(c->tag[i] >> EPOCH_BITS) << d->line_shift;
}

/* The dirty words of way @i go home, sent at @t; nobody waits for them. */
static void write_back(struct rdma *d, struct ng_sm *sm, struct rdma_cache *c,
		       size_t i, ng_ticks t)
{
	struct ng_model *m = d->m;
	uintptr_t line = line_of(d, c, i);
	unsigned int home = ng_home_at(m->space, line, sm->gpu, sm->now);
	uint64_t bytes;

	if (!c->dirty[i])
		return;
	bytes = ((uint64_t)ng_popcount64(c->dirty[i]) * 4 + m->cfg->flit - 1) /
		m->cfg->flit * m->cfg->flit;
	c->dirty[i] = 0;
	if (home == sm->gpu || home == NG_HOME_HOST)
		return;
	(void)ng_link_xfer(sm, sm->gpu, home, t, bytes, NULL);
	sm->ctr.v[NG_CTR_LINK_TX] += bytes;
	sm->ctr.v[NG_CTR_RDMA_WB_BYTES] += bytes;
	sm->ctr.v[NG_CTR_XACT_DATA]++;
}

/* The words of @mask of our copy take the home's (just written there). */
static void take_words(unsigned char *dst, const struct ng_sm *sm,
		       const struct ng_req *r)
{
	const unsigned char *h = (const unsigned char *)(r->line + sm->view_delta);

	for (uint64_t mk = r->mask; mk; mk &= mk - 1) {
		unsigned int w = (unsigned int)__builtin_ctzll(mk);

		memcpy(dst + 4 * w, h + 4 * w, 4);
	}
}

static bool rdma_access(void *priv, struct ng_sm *sm, struct ng_req *r)
{
	struct rdma *d = priv;
	struct rdma_cache *c = &d->c[r->gpu];
	size_t s0, i;
	int e;

	if (!(r->flags & NG_REQ_RDMA))
		return false;
	s0 = set_base(d, r->line);
	e = find(d, c, s0, r->line);
	i = s0 + (size_t)(e < 0 ? 0 : e);
	switch (r->op) {
	case NG_OP_LOAD:
		r->t += d->hit;
		if (e < 0) {
			r->flags |= NG_REQ_RDMA_FILL;
			sm->ctr.v[NG_CTR_RDMA_MISS]++;
			return false;
		}
		if (c->ready[i] > r->t)
			r->t = c->ready[i];
		c->lru[i] = ++c->stamp[s0 / d->ways];
		memcpy(sm->linebuf, c->data + i * d->line, d->line);
		r->src = sm->linebuf;
		sm->ctr.v[NG_CTR_RDMA_HIT]++;
		return true;
	case NG_OP_STORE:
		if (e < 0)
			return false;
		r->t += d->hit;
		take_words(c->data + i * d->line, sm, r);
		c->dirty[i] |= r->mask;
		c->lru[i] = ++c->stamp[s0 / d->ways];
		sm->ctr.v[NG_CTR_RDMA_WHIT]++;
		return true;
	default:
		/* atomics happen at the home: what we hold goes back first */
		if (e >= 0) {
			write_back(d, sm, c, i, r->t);
			c->tag[i] = 0;
		}
		return false;
	}
}

static void rdma_respond(void *priv, struct ng_sm *sm, struct ng_req *r)
{
	struct rdma *d = priv;
	struct rdma_cache *c = &d->c[r->gpu];
	size_t s0, v = 0;
	uint32_t oldest = UINT32_MAX;

	if (!(r->flags & NG_REQ_RDMA_FILL))
		return;
	s0 = set_base(d, r->line);
	/* an empty or stale way first, else the least recently used */
	for (unsigned int k = 0; k < d->ways; k++) {
		if (!live(d, c, s0 + k)) {
			v = s0 + k;
			oldest = 0;
			break;
		}
		if (c->lru[s0 + k] < oldest) {
			oldest = c->lru[s0 + k];
			v = s0 + k;
		}
	}
	if (live(d, c, v)) {
		write_back(d, sm, c, v, r->t);
		sm->ctr.v[NG_CTR_RDMA_EVICT]++;
	}
	c->tag[v] = TAG(r->line >> d->line_shift, c->epoch);
	c->dirty[v] = 0;
	c->ready[v] = r->t;
	memcpy(c->data + v * d->line, r->src, d->line);
	c->lru[v] = ++c->stamp[s0 / d->ways];
	sm->ctr.v[NG_CTR_RDMA_FILL]++;
}

/*
 * Kernel end, GPU @g: dirty words go home, then every line is dropped.
 * Returns the time the busiest link direction needs for the write-back.
 */
static ng_ticks flush(struct rdma *d, struct ng_sm *sm, unsigned int g)
{
	struct ng_model *m = d->m;
	struct rdma_cache *c = &d->c[g];
	uint64_t bytes[NG_MAX_GPUS] = { 0 };
	uint64_t valid = 0;
	ng_ticks longest = 0;

	for (size_t i = 0; i < nways(d); i++) {
		unsigned int home;

		if (!live(d, c, i))
			continue;
		valid++;
		if (!c->dirty[i])
			continue;
		home = ng_home(m->space, line_of(d, c, i), g);
		if (home < m->ngpus && home != g)
			bytes[home] += ((uint64_t)ng_popcount64(c->dirty[i]) * 4 +
					m->cfg->flit - 1) / m->cfg->flit * m->cfg->flit;
		c->dirty[i] = 0;
	}
	for (unsigned int h = 0; h < m->ngpus; h++) {
		ng_ticks t = ng_link_cost(m, g, h, bytes[h]);

		if (t > longest)
			longest = t;
		/* not booked, but the links carry it: the fabric's use says so */
		if (bytes[h])
			ng_link_count(m, g, h, bytes[h]);
		sm->ctr.v[NG_CTR_LINK_TX] += bytes[h];
		sm->ctr.v[NG_CTR_RDMA_WB_BYTES] += bytes[h];
	}
	sm->ctr.v[NG_CTR_RDMA_INVAL] += valid;
	c->epoch = (c->epoch + 1) & EPOCH_MASK;
	if (!c->epoch) {
		memset(c->tag, 0, nways(d) * sizeof(*c->tag));
		c->epoch = 1;
	}
	return longest;
}

static void rdma_kernel_end(void *priv, struct ng_sm *const *sms,
			    unsigned int nsm)
{
	struct rdma *d = priv;

	for (unsigned int g = 0; g < d->ngpus; g++) {
		struct ng_sm *first = NULL;
		ng_ticks end = 0, wb;

		for (unsigned int s = 0; s < nsm; s++) {
			ng_ticks t;

			if (sms[s]->gpu != g)
				continue;
			first = first ? first : sms[s];
			t = sms[s]->now > sms[s]->done_max ? sms[s]->now
							   : sms[s]->done_max;
			end = t > end ? t : end;
		}
		if (!first)
			continue;
		/* the kernel ends when the GPU's write-back has left */
		wb = flush(d, first, g);
		if (wb && end + wb > first->done_max)
			first->done_max = end + wb;
	}
}

static bool rdma_enabled(const struct ng_config *c)
{
	return (c->remote_opt == NG_RO_RDMA || c->remote_opt == NG_RO_AUTO) &&
	       c->rdma.size;
}

static int rdma_validate(const struct ng_config *c, char *err, size_t errlen)
{
	uint64_t sets = c->rdma.size / c->line / c->rdma.ways;

	if (!sets || sets * c->line * c->rdma.ways != c->rdma.size) {
		ng_seterr(err, errlen,
			  "rdma-size %llu: not a whole number of %u-way sets of %u-byte lines",
			  (unsigned long long)c->rdma.size, c->rdma.ways, c->line);
		return -EINVAL;
	}
	return 0;
}

static const struct ng_key rdma_keys[] = {
	NG_KEY_NUM("rdma-size", NG_KEY_SIZE, rdma.size, 0, (double)(1ULL << 32),
		   "DualOpt: RDMA cache of remote lines per GPU (0: off)"),
	NG_KEY_NUM("rdma-ways", NG_KEY_UINT, rdma.ways, 1, 64,
		   "DualOpt: RDMA cache associativity"),
	NG_KEY_NUM("rdma-latency", NG_KEY_DOUBLE, rdma.latency_ns, 0, 1e6,
		   "DualOpt: RDMA cache hit latency, ns (a miss pays it too)"),
	{ .name = NULL },
};

/* remote lines the RDMA cache held: served without the link */
static const unsigned int rdma_off_link[] = { NG_CTR_RDMA_HIT, NG_CTR_MAX };

const struct ng_component ng_rdma_cache_component = {
	.name = "rdma",
	.desc = "DualOpt's RDMA cache: remote lines only, shared by the GPU's CUs, write-back, flushed at kernel boundaries",
	.keys = rdma_keys,
	.counters = "rdma",
	.off_link = rdma_off_link,
	.enabled = rdma_enabled,
	.remote_only = true,
	.validate = rdma_validate,
	.create = rdma_create,
	.destroy = rdma_destroy,
	.access = rdma_access,
	.respond = rdma_respond,
	.kernel_end = rdma_kernel_end,
};
