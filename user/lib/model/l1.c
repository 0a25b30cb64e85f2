// SPDX-License-Identifier: GPL-2.0
/*
 * L1 component (REC Table 2: 16 KB, 4-way per CU): a private cache of each
 * real SM, for local and remote lines alike, with real copies of the data.
 * An emulated SM stands for sm_scale real ones, so it holds sm_scale L1s
 * and a block uses the one of the real SM it would run on (its index mod
 * sm_scale): blocks on different real SMs share no L1, as on the GPU.
 *
 * Software coherent, as GPUs keep their L1s: every line carries the epoch
 * it was filled in and a kernel boundary bumps the epoch, which drops
 * every line at once (on roll-over the tags are cleared). Write-through
 * and write-no-allocate (GPU-VI): a store refreshes the words of the
 * SM's own copy and goes on; atomics drop it.
 *
 * A line keeps when its fill arrives: a hit on a line still in flight
 * waits for it, as a hit in the MSHR would.
 *
 * For DualOpt's decision engine (remote-opt auto) a remote line also
 * keeps the words its SM used while it stayed, tallied per GPU when it
 * leaves (l1.h); DualOpt's fine-grained loads bypass the L1 (its SCBU).
 *
 * Only the SM's own host thread touches its L1s: no lock.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "model/model_impl.h"
#include "model/l1.h"
#include "ngemu/model/model.h"
#include "ngemu/util/err.h"
#include "ngemu/util/format.h"
#include "util/util.h"

#define EPOCH_BITS	20
#define EPOCH_MASK	((1u << EPOCH_BITS) - 1)

/* line number above the fill epoch (0: empty) */
#define TAG(ln, ep)	(((uint64_t)(ln) << EPOCH_BITS) | (ep))

struct l1 {
	unsigned int ncache, nsets, ways, line, line_shift, scale, words;
	unsigned int per_gpu;		/* caches of a GPU */
	ng_ticks hit;
	uint32_t epoch;
	size_t nways;			/* ncache x nsets x ways */
	uint64_t *tag;
	uint32_t *lru;
	uint32_t *stamp;		/* per set */
	ng_ticks *ready;		/* when the fill arrives */
	unsigned char *data;
	/* remote lines' words used (0: a local line, or not tracked) */
	uint64_t *used;
	uint64_t tally_used[NG_MAX_GPUS], tally_fetched[NG_MAX_GPUS];
};

static void l1_destroy(void *priv)
{
	struct l1 *c = priv;

	if (!c)
		return;
	ng_table_free(c->tag, c->nways * sizeof(*c->tag));
	ng_table_free(c->lru, c->nways * sizeof(*c->lru));
	ng_table_free(c->stamp, c->nways / c->ways * sizeof(*c->stamp));
	ng_table_free(c->ready, c->nways * sizeof(*c->ready));
	ng_table_free(c->data, c->nways * c->line);
	if (c->used)
		ng_table_free(c->used, c->nways * sizeof(*c->used));
	free(c);
}

static int l1_create(struct ng_model *m, void **priv, char *err, size_t errlen)
{
	const struct ng_config *cfg = m->cfg;
	struct l1 *c = calloc(1, sizeof(*c));

	if (!c)
		goto nomem;
	c->scale = cfg->sm_scale;
	c->ncache = cfg->gpus * cfg->sms * cfg->sm_scale;
	c->ways = cfg->l1.ways;
	c->line = cfg->line;
	c->line_shift = (unsigned int)__builtin_ctz(cfg->line);
	c->words = cfg->line / 4;
	c->per_gpu = cfg->sms * cfg->sm_scale;
	c->nsets = (unsigned int)(cfg->l1.size / cfg->line / cfg->l1.ways);
	c->hit = (ng_ticks)(cfg->l1.latency_ns * NG_TICKS_PER_NS);
	c->epoch = 1;
	c->nways = (size_t)c->ncache * c->nsets * c->ways;
	c->tag = ng_table_alloc(c->nways * sizeof(*c->tag));
	c->lru = ng_table_alloc(c->nways * sizeof(*c->lru));
	c->stamp = ng_table_alloc(c->nways / c->ways * sizeof(*c->stamp));
	c->ready = ng_table_alloc(c->nways * sizeof(*c->ready));
	c->data = ng_table_alloc(c->nways * c->line);
	if (cfg->remote_opt == NG_RO_AUTO)
		c->used = ng_table_alloc(c->nways * sizeof(*c->used));
	if (!c->tag || !c->lru || !c->stamp || !c->ready || !c->data ||
	    (cfg->remote_opt == NG_RO_AUTO && !c->used))
		goto nomem;
	*priv = c;
	return 0;
nomem:
	l1_destroy(c);
	ng_seterr(err, errlen, "out of memory for the L1 model");
	return -ENOMEM;
}

/* The first way of @line's set in the L1 of the SM's current block. */
static size_t set_base(const struct l1 *c, const struct ng_sm *sm,
		       uintptr_t line)
{
	size_t cache = (size_t)sm->id * c->scale + sm->cu;
	unsigned int set = (unsigned int)(line >> c->line_shift) & (c->nsets - 1);

	return (cache * c->nsets + set) * c->ways;
}

static int find(const struct l1 *c, size_t s0, uintptr_t line)
{
	uint64_t want = TAG(line >> c->line_shift, c->epoch);

	for (unsigned int i = 0; i < c->ways; i++)
		if (c->tag[s0 + i] == want)
			return (int)i;
	return -1;
}

/* A tracked remote line leaves way @i: tally the words its SM used. */
static void retire(struct l1 *c, size_t i)
{
	unsigned int g = (unsigned int)(i / ((size_t)c->nsets * c->ways) /
					c->per_gpu);

	if (!c->used || !c->used[i])
		return;
	c->tally_used[g] += ng_popcount64(c->used[i]);
	c->tally_fetched[g] += c->words;
	c->used[i] = 0;
}

static bool live(const struct l1 *c, size_t i)
{
	uint64_t t = c->tag[i];

	return t && (uint32_t)(t & EPOCH_MASK) == c->epoch;
}

void ng_l1_remote_words(const struct ng_model *m, unsigned int gpu,
			bool resident, uint64_t *used, uint64_t *fetched)
{
	extern const struct ng_component ng_l1_component;
	const struct l1 *c = ng_model_priv(m, &ng_l1_component);
	size_t per = c ? (size_t)c->nsets * c->ways * c->per_gpu : 0;

	*used = 0;
	*fetched = 0;
	if (!c || !c->used)
		return;
	*used = c->tally_used[gpu];
	*fetched = c->tally_fetched[gpu];
	for (size_t i = gpu * per; resident && i < (gpu + 1) * per; i++)
		if (c->used[i] && live(c, i)) {
			*used += ng_popcount64(c->used[i]);
			*fetched += c->words;
		}
}

static bool l1_access(void *priv, struct ng_sm *sm, struct ng_req *r)
{
	struct l1 *c = priv;
	size_t s0;
	int e;
	bool remote = r->home != r->gpu;

	/* DualOpt's SCBU: fine-grained remote loads go past the L1 */
	if (r->flags & NG_REQ_FINE)
		return false;
	s0 = set_base(c, sm, r->line);
	e = find(c, s0, r->line);
	switch (r->op) {
	case NG_OP_LOAD:
		r->t += c->hit;
		if (e >= 0) {
			size_t i = s0 + (unsigned int)e;

			/* a line still on its way: the hit waits for it */
			if (c->ready[i] > r->t)
				r->t = c->ready[i];
			if (c->used && c->used[i])
				c->used[i] |= r->mask;
			c->lru[s0 + (unsigned int)e] = ++c->stamp[s0 / c->ways];
			memcpy(sm->linebuf, c->data + (s0 + (unsigned int)e) * c->line,
			       c->line);
			r->src = sm->linebuf;
			sm->ctr.v[NG_CTR_L1_HIT]++;
			sm->ctr.v[NG_CTR_L1_RHIT] += remote;
			return true;
		}
		r->flags |= NG_REQ_L1_FILL;
		sm->ctr.v[NG_CTR_L1_MISS]++;
		sm->ctr.v[NG_CTR_L1_RMISS] += remote;
		break;
	case NG_OP_STORE:
		/* write-through, no allocate: our copy takes the home's words */
		if (e >= 0) {
			unsigned char *d = c->data + (s0 + (unsigned int)e) * c->line;
			const unsigned char *h =
				(const unsigned char *)(r->line + sm->view_delta);

			for (uint64_t mk = r->mask; mk; mk &= mk - 1) {
				unsigned int w = (unsigned int)__builtin_ctzll(mk);

				memcpy(d + 4 * w, h + 4 * w, 4);
			}
		}
		break;
	default:
		/* atomics happen at the home: our copy would be stale */
		if (e >= 0) {
			retire(c, s0 + (unsigned int)e);
			c->tag[s0 + (unsigned int)e] = 0;
		}
		break;
	}
	return false;
}

static void l1_respond(void *priv, struct ng_sm *sm, struct ng_req *r)
{
	struct l1 *c = priv;
	size_t s0;
	int v = -1;
	uint32_t oldest = UINT32_MAX;

	if (!(r->flags & NG_REQ_L1_FILL))
		return;
	s0 = set_base(c, sm, r->line);
	/* an empty or stale way first, else the least recently used */
	for (unsigned int i = 0; i < c->ways; i++) {
		uint64_t t = c->tag[s0 + i];

		if (!t || (uint32_t)(t & EPOCH_MASK) != c->epoch) {
			v = (int)i;
			break;
		}
		if (c->lru[s0 + i] < oldest) {
			oldest = c->lru[s0 + i];
			v = (int)i;
		}
	}
	if (c->used && live(c, s0 + (unsigned int)v))
		retire(c, s0 + (unsigned int)v);
	c->tag[s0 + (unsigned int)v] = TAG(r->line >> c->line_shift, c->epoch);
	memcpy(c->data + (s0 + (unsigned int)v) * c->line, r->src, c->line);
	c->lru[s0 + (unsigned int)v] = ++c->stamp[s0 / c->ways];
	c->ready[s0 + (unsigned int)v] = r->t;
	if (c->used)
		c->used[s0 + (unsigned int)v] = r->home != r->gpu ? r->mask : 0;
	sm->ctr.v[NG_CTR_L1_FILL]++;
}

static void l1_kernel_end(void *priv, struct ng_sm *const *sms, unsigned int nsm)
{
	struct l1 *c = priv;

	(void)sms;
	(void)nsm;
	for (size_t i = 0; c->used && i < c->nways; i++)
		if (c->used[i] && live(c, i))
			retire(c, i);
	/* software coherence: the next kernel finds every L1 empty */
	c->epoch = (c->epoch + 1) & EPOCH_MASK;
	if (!c->epoch) {
		memset(c->tag, 0, c->nways * sizeof(*c->tag));
		c->epoch = 1;
	}
}

static bool l1_enabled(const struct ng_config *c)
{
	return ng_l1_on(&c->l1);
}

static const struct ng_key l1_keys[] = {
	NG_KEY_NUM("l1-size", NG_KEY_SIZE, l1.size, 0, (double)(1ULL << 24),
		   "L1 per real SM (CU), local and remote lines, software coherent (0: off)"),
	NG_KEY_NUM("l1-ways", NG_KEY_UINT, l1.ways, 1, 64, "L1 associativity"),
	NG_KEY_NUM("l1-latency", NG_KEY_DOUBLE, l1.latency_ns, 0, 1e6,
		   "L1 hit latency, ns (a miss pays it too)"),
	{ .name = NULL },
};

static double frac(uint64_t a, uint64_t b)
{
	return b ? (double)a / (double)b : 0;
}

static void l1_describe(const struct ng_config *c, FILE *f)
{
	char b[32];

	fprintf(f, "L1 %s per real SM, dropped per kernel; ",
		ng_format_bytes(c->l1.size, b, sizeof(b)));
}

/* The hit rates, of all loads and of remote ones. */
static void l1_report(const struct ng_config *c, const struct ng_counters *t,
		      FILE *f)
{
	uint64_t hit = t->v[NG_CTR_L1_HIT], miss = t->v[NG_CTR_L1_MISS];
	uint64_t rhit = t->v[NG_CTR_L1_RHIT], rmiss = t->v[NG_CTR_L1_RMISS];
	char b1[32], b2[32];

	(void)c;
	fprintf(f, "l1         hit rate %.1f%% of %s loads, %.1f%% of %s remote ones\n",
		100 * frac(hit, hit + miss),
		ng_format_si((double)(hit + miss), b1, sizeof(b1)),
		100 * frac(rhit, rhit + rmiss),
		ng_format_si((double)(rhit + rmiss), b2, sizeof(b2)));
}

/* remote lines an L1 held: served without the link */
static const unsigned int l1_off_link[] = { NG_CTR_L1_RHIT, NG_CTR_MAX };

const struct ng_component ng_l1_component = {
	.name = "l1",
	.desc = "an L1 per real SM for local and remote lines, write-through, dropped at kernel boundaries",
	.keys = l1_keys,
	.counters = "l1",
	.off_link = l1_off_link,
	.enabled = l1_enabled,
	.describe = l1_describe,
	.report = l1_report,
	.remote_only = false,
	.create = l1_create,
	.destroy = l1_destroy,
	.access = l1_access,
	.respond = l1_respond,
	.kernel_end = l1_kernel_end,
};
