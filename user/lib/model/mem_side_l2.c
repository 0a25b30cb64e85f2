// SPDX-License-Identifier: GPL-2.0
/*
 * Memory-side L2 (MGPUSim's, as DualOpt's Table 1 has it: 2 MB 16-way per
 * GPU, 0.5 MB beside the RDMA cache for equal area): each GPU's L2 sits in
 * front of its memory and serves every request that reaches the memory,
 * the GPU's own and other GPUs' alike. A hit is served in msl2-latency
 * without a DRAM access; a miss goes to DRAM and allocates the line (LRU).
 * The home's memory holds the data, so the L2 keeps tags only: it can
 * never be stale. Stores and atomics allocate like loads and are charged
 * to DRAM as they are without it (write-through timing: the dirty
 * evictions of a write-back L2 are not modeled).
 *
 * An L2 is shared by every GPU that reaches its memory, and GPUs run on
 * host threads of their own. So that hits do not depend on how the host
 * ran them, the tags change only at the end of an interval of modeled
 * time (pipeline.h, ng_model_sync()): a requester logs its hits and fills
 * for the home (event_log.c), keeps the lines it filled meanwhile in a small
 * table of its own (its later requests hit them), and the home's thread
 * applies every requester's log in (time, requester, issue) order.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "model/event_log.h"
#include "ngemu/model/model.h"
#include "ngemu/util/err.h"
#include "util/util.h"

#define RECENT_BITS	12	/* a requester's fills of one interval, per home */
#define RECENT		(1u << RECENT_BITS)

enum { EV_HIT, EV_FILL };

struct msl2_ev {
	struct ng_ev ev;
	uint64_t li;
	uint8_t kind;
};

/* Lines a requester filled at a home this interval: key li + 1, gen. */
struct recent {
	uint64_t li[RECENT];
	uint32_t gen[RECENT];
	uint32_t cur;
};

struct msl2 {
	struct ng_model *m;
	unsigned int ngpus, nsets, ways, line_shift;
	uintptr_t base;
	ng_ticks hit;
	uint64_t *tag[NG_MAX_GPUS];	/* per home: line index + 1 per way */
	uint32_t *lru[NG_MAX_GPUS];
	uint32_t clock[NG_MAX_GPUS];
	struct ng_evlog log[NG_MAX_GPUS][NG_MAX_GPUS];	/* [requester][home] */
	struct ng_evlog gather[NG_MAX_GPUS];
	uint32_t seq[NG_MAX_GPUS];
	struct recent *recent[NG_MAX_GPUS];		/* [requester][home] */
};

static void msl2_destroy(void *priv)
{
	struct msl2 *d = priv;
	size_t ways;

	if (!d)
		return;
	ways = (size_t)d->nsets * d->ways;
	for (unsigned int g = 0; g < d->ngpus; g++) {
		ng_table_free(d->tag[g], ways * sizeof(*d->tag[g]));
		ng_table_free(d->lru[g], ways * sizeof(*d->lru[g]));
		for (unsigned int h = 0; h < d->ngpus; h++)
			ng_evlog_free(&d->log[g][h]);
		ng_evlog_free(&d->gather[g]);
		free(d->recent[g]);
	}
	free(d);
}

static int msl2_create(struct ng_model *m, void **priv, char *err,
		       size_t errlen)
{
	const struct ng_config *c = m->cfg;
	struct msl2 *d = calloc(1, sizeof(*d));
	size_t ways;

	if (!d)
		goto nomem;
	d->m = m;
	d->ngpus = m->ngpus;
	d->ways = c->msl2.ways;
	d->nsets = (unsigned int)(c->msl2.size / c->line / c->msl2.ways);
	if (!d->nsets)
		d->nsets = 1;
	d->line_shift = (unsigned int)__builtin_ctz(c->line);
	d->base = (uintptr_t)m->space->base;
	d->hit = (ng_ticks)(c->msl2.latency_ns * NG_TICKS_PER_NS);
	ways = (size_t)d->nsets * d->ways;
	for (unsigned int g = 0; g < d->ngpus; g++) {
		d->tag[g] = ng_table_alloc(ways * sizeof(*d->tag[g]));
		d->lru[g] = ng_table_alloc(ways * sizeof(*d->lru[g]));
		d->recent[g] = calloc(d->ngpus, sizeof(*d->recent[g]));
		if (!d->tag[g] || !d->lru[g] || !d->recent[g])
			goto nomem;
		for (unsigned int h = 0; h < d->ngpus; h++)
			d->recent[g][h].cur = 1;
	}
	*priv = d;
	return 0;
nomem:
	msl2_destroy(d);
	ng_seterr(err, errlen, "out of memory for the memory-side L2 model");
	return -ENOMEM;
}

static uint64_t set0(const struct msl2 *d, uint64_t li)
{
	return ng_fold_index(li, 48) % d->nsets * d->ways;
}

static int64_t find(const struct msl2 *d, unsigned int home, uint64_t li)
{
	uint64_t s0 = set0(d, li);

	for (unsigned int w = 0; w < d->ways; w++)
		if (d->tag[home][s0 + w] == li + 1)
			return (int64_t)(s0 + w);
	return -1;
}

static struct recent *recent_of(struct msl2 *d, unsigned int gpu,
				unsigned int home)
{
	return &d->recent[gpu][home];
}

static bool recent_has(const struct recent *r, uint64_t li)
{
	unsigned int i = (unsigned int)(li & (RECENT - 1));

	return r->gen[i] == r->cur && r->li[i] == li;
}

static void recent_put(struct recent *r, uint64_t li)
{
	unsigned int i = (unsigned int)(li & (RECENT - 1));

	r->li[i] = li;
	r->gen[i] = r->cur;
}

static void log_ev(struct msl2 *d, const struct ng_req *r, unsigned int home,
		   uint64_t li, unsigned int kind)
{
	struct msl2_ev *e = ng_evlog_add(&d->log[r->gpu][home], sizeof(*e));

	if (!e)
		return;
	*e = (struct msl2_ev){ .ev = { .t = r->t, .seq = d->seq[r->gpu]++,
				       .gpu = (uint8_t)r->gpu },
			       .li = li, .kind = (uint8_t)kind };
}

static bool msl2_access(void *priv, struct ng_sm *sm, struct ng_req *r)
{
	struct msl2 *d = priv;
	unsigned int home = r->home;
	uint64_t li;
	bool hit;

	if (home >= d->ngpus)
		return false;		/* host memory has no L2 here */
	li = (r->line - d->base) >> d->line_shift;
	hit = find(d, home, li) >= 0 ||
	      recent_has(recent_of(d, r->gpu, home), li);
	log_ev(d, r, home, li, hit ? EV_HIT : EV_FILL);
	if (!hit) {
		recent_put(recent_of(d, r->gpu, home), li);
		sm->ctr.v[NG_CTR_MSL2_MISS]++;
		return false;
	}
	sm->ctr.v[NG_CTR_MSL2_HIT]++;
	if (r->op != NG_OP_LOAD)
		return false;		/* write-through timing: DRAM too */
	r->t += d->hit;
	r->src = (const void *)(r->line + sm->view_delta);
	return true;
}

static void apply(struct msl2 *d, unsigned int home, const struct msl2_ev *e)
{
	int64_t f = find(d, home, e->li);
	uint64_t s0, v;
	uint32_t oldest = UINT32_MAX;

	if (f >= 0) {
		d->lru[home][f] = ++d->clock[home];
		return;
	}
	s0 = set0(d, e->li);
	v = s0;
	for (unsigned int w = 0; w < d->ways; w++) {
		if (!d->tag[home][s0 + w]) {
			v = s0 + w;
			break;
		}
		if (d->lru[home][s0 + w] < oldest) {
			oldest = d->lru[home][s0 + w];
			v = s0 + w;
		}
	}
	d->tag[home][v] = e->li + 1;
	d->lru[home][v] = ++d->clock[home];
}

/* Phase 0, GPU @gpu's thread: its L2 takes every requester's log. */
static void msl2_sync(void *priv, unsigned int phase, unsigned int gpu)
{
	struct msl2 *d = priv;
	const struct msl2_ev *all;
	size_t n;

	(void)phase;
	n = ng_evlog_gather(&d->gather[gpu], d->log, d->ngpus, gpu,
			    sizeof(*all));
	all = d->gather[gpu].e;
	for (size_t i = 0; i < n; i++)
		apply(d, gpu, &all[i]);
	/* this GPU's own fills of the interval are in the homes' logs now */
	for (unsigned int h = 0; h < d->ngpus; h++)
		if (!++d->recent[gpu][h].cur) {
			memset(d->recent[gpu][h].gen, 0,
			       sizeof(d->recent[gpu][h].gen));
			d->recent[gpu][h].cur = 1;
		}
}

/* Before the timed kernels: an empty L2. */
static void msl2_reset(void *priv)
{
	struct msl2 *d = priv;
	size_t ways = (size_t)d->nsets * d->ways;

	for (unsigned int g = 0; g < d->ngpus; g++) {
		memset(d->tag[g], 0, ways * sizeof(*d->tag[g]));
		for (unsigned int h = 0; h < d->ngpus; h++)
			d->log[g][h].n = 0;
	}
}

static bool msl2_enabled(const struct ng_config *c)
{
	return ng_msl2_on(&c->msl2);
}

static bool msl2_sees_local(const struct ng_config *c)
{
	(void)c;
	return true;
}

static int msl2_validate(const struct ng_config *c, char *err, size_t errlen)
{
	if (c->msl2.size < (uint64_t)c->line * c->msl2.ways) {
		ng_seterr(err, errlen,
			  "msl2-size %llu holds less than one set of %u lines",
			  (unsigned long long)c->msl2.size, c->msl2.ways);
		return -EINVAL;
	}
	return 0;
}

static const struct ng_key msl2_keys[] = {
	NG_KEY_NUM("msl2-size", NG_KEY_SIZE, msl2.size, 0, (double)(1ULL << 34),
		   "memory-side L2 per GPU, serving every request to its memory (0: none)"),
	NG_KEY_NUM("msl2-ways", NG_KEY_UINT, msl2.ways, 1, 64,
		   "memory-side L2 associativity"),
	NG_KEY_NUM("msl2-latency", NG_KEY_DOUBLE, msl2.latency_ns, 0, 1e6,
		   "memory-side L2 hit latency, ns (instead of the memory's)"),
	{ .name = NULL },
};

const struct ng_component ng_mem_side_l2_component = {
	.name = "msl2",
	.desc = "memory-side L2 of each GPU (MGPUSim's): tags only, every requester's hits skip the memory",
	.keys = msl2_keys,
	.counters = "msl2",
	.enabled = msl2_enabled,
	.remote_only = true,
	.sees_local = msl2_sees_local,
	.validate = msl2_validate,
	.create = msl2_create,
	.destroy = msl2_destroy,
	.access = msl2_access,
	.sync = msl2_sync,
	.sync_phases = 1,
	.reset = msl2_reset,
};
