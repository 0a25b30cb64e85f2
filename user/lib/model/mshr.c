// SPDX-License-Identifier: GPL-2.0
/*
 * DualOpt's MSHR extension (section 4.1.2, Fig. 8): fine-grained remote
 * loads bypass the L1, so the L1's MSHRs are their only meeting point. An
 * entry holds a line, the mask of the words its request fetches and when
 * they arrive; a new fine-grained load merges with an entry in flight
 * only if the entry's mask covers its own (same address, same or larger
 * mask), else it takes an entry of its own and goes to the link. Each
 * real SM (CU) has mshr-entries of them; a block uses its CU's, as it
 * uses its L1 (l1.c). An entry whose request has arrived is free; when
 * none is, the request waits for the first to arrive, and so does its
 * block (only its block: the SM's other blocks go on).
 *
 * Also counts the transfer units a fine-grained load fetches: its words
 * rounded out to xfer-gran bytes (the link charges them, link.c).
 *
 * Only the SM's own host thread touches its CU's entries: no lock.
 */
#include <errno.h>
#include <stdlib.h>

#include "model/codec.h"
#include "ngemu/model/model.h"
#include "ngemu/util/err.h"
#include "util/util.h"

struct mshr_entry {
	uintptr_t line;
	uint64_t mask;
	/*
	 * When the words arrive, in absolute time (sm->time_base + t): each
	 * kernel's times start at 0, and an entry of an earlier kernel must
	 * look arrived, not in flight until some time of the new one.
	 */
	uint64_t ready;
};

struct mshr {
	unsigned int n, scale;
	size_t ncu;
	struct mshr_entry *e;
	unsigned int *last;		/* per CU: the entry of its last miss */
};

static void mshr_destroy(void *priv)
{
	struct mshr *s = priv;

	if (!s)
		return;
	ng_table_free(s->e, s->ncu * s->n * sizeof(*s->e));
	free(s->last);
	free(s);
}

static int mshr_create(struct ng_model *m, void **priv, char *err, size_t errlen)
{
	const struct ng_config *c = m->cfg;
	struct mshr *s = calloc(1, sizeof(*s));

	if (!s)
		goto nomem;
	s->n = c->mshr_entries;
	s->scale = c->sm_scale;
	s->ncu = (size_t)c->gpus * c->sms * c->sm_scale;
	s->e = ng_table_alloc(s->ncu * s->n * sizeof(*s->e));
	s->last = calloc(s->ncu, sizeof(*s->last));
	if (!s->e || !s->last)
		goto nomem;
	*priv = s;
	return 0;
nomem:
	mshr_destroy(s);
	ng_seterr(err, errlen, "out of memory for the MSHR model");
	return -ENOMEM;
}

/*
 * The transfer units of @mask: words grouped by @gran bytes, a group
 * counting once if any of its words is used.
 */
unsigned int ng_fine_units(uint64_t mask, unsigned int gran)
{
	unsigned int per = gran / 4, n = 0;
	uint64_t group = per >= 64 ? ~0ULL : (1ULL << per) - 1;

	for (; mask; mask = per >= 64 ? 0 : mask >> per)
		n += (mask & group) != 0;
	return n;
}

/*
 * The words a fine-grained load of @mask brings: its own rounded out to
 * @gran-byte groups, as the link carries them. A later load of the other
 * words of a group merges with it; at xfer-gran = the line, any load of
 * the line in flight does, as a whole-line miss's MSHR entry would.
 */
static uint64_t fine_cover(uint64_t mask, unsigned int gran)
{
	unsigned int per = gran / 4;
	uint64_t group, cover = 0;

	if (per >= 64)
		return mask ? ~0ULL : 0;
	group = (1ULL << per) - 1;
	for (unsigned int at = 0; at < 64; at += per)
		if (mask & (group << at))
			cover |= group << at;
	return cover;
}

static bool mshr_access(void *priv, struct ng_sm *sm, struct ng_req *r)
{
	struct mshr *s = priv;
	size_t cu = (size_t)sm->id * s->scale + sm->cu;
	struct mshr_entry *e = &s->e[cu * s->n];
	uint64_t now = sm->time_base + r->t;
	unsigned int victim = 0;
	bool partial = false;

	if (!(r->flags & NG_REQ_FINE))
		return false;
	for (unsigned int i = 0; i < s->n; i++) {
		if (e[i].ready > now && e[i].line == r->line) {
			if ((e[i].mask & r->mask) == r->mask) {
				/* Fig. 8(a): the words are on their way */
				r->t = e[i].ready - sm->time_base;
				r->src = (const void *)(r->line + sm->view_delta);
				sm->ctr.v[NG_CTR_MSHR_HIT]++;
				return true;
			}
			partial = true;
		}
		if (e[i].ready < e[victim].ready)
			victim = i;
	}
	if (e[victim].ready > now) {
		/* every entry in flight: wait for one */
		r->t = e[victim].ready - sm->time_base;
		if (sm->now < r->t)
			sm->now = r->t;
		sm->ctr.v[NG_CTR_MSHR_FULL]++;
	}
	/* Fig. 8(b) and (c): an entry of its own */
	sm->ctr.v[NG_CTR_MSHR_PARTIAL] += partial;
	sm->ctr.v[NG_CTR_FINE_REQ]++;
	sm->ctr.v[NG_CTR_FINE_UNITS] += ng_fine_units(r->mask,
						      sm->model->cfg->xfer_gran);
	e[victim].line = r->line;
	e[victim].mask = fine_cover(r->mask, sm->model->cfg->xfer_gran);
	e[victim].ready = UINT64_MAX;
	s->last[cu] = victim;
	return false;
}

static void mshr_respond(void *priv, struct ng_sm *sm, struct ng_req *r)
{
	struct mshr *s = priv;
	size_t cu = (size_t)sm->id * s->scale + sm->cu;

	if (r->flags & NG_REQ_FINE)
		s->e[cu * s->n + s->last[cu]].ready = sm->time_base + r->t;
}

static bool mshr_enabled(const struct ng_config *c)
{
	return c->remote_opt == NG_RO_COALESCE || c->remote_opt == NG_RO_AUTO;
}

static const struct ng_key mshr_keys[] = {
	NG_KEY_NUM("xfer-gran", NG_KEY_UINT, xfer_gran, 4, 256,
		   "DualOpt: fine-grained remote transfer unit, bytes (4, 8, 16, 32, 64)"),
	{ .name = NULL },
};

/* fine-grained loads merged with one in flight: served without the link */
static const unsigned int mshr_off_link[] = { NG_CTR_MSHR_HIT, NG_CTR_MAX };

const struct ng_component ng_mshr_component = {
	.name = "mshr",
	.desc = "DualOpt's MSHRs for fine-grained remote loads: merge only when an in-flight mask covers the new one",
	.keys = mshr_keys,
	.counters = "mshr",
	.off_link = mshr_off_link,
	.enabled = mshr_enabled,
	.remote_only = true,
	.create = mshr_create,
	.destroy = mshr_destroy,
	.access = mshr_access,
	.respond = mshr_respond,
};
