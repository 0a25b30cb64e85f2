// SPDX-License-Identifier: GPL-2.0
/*
 * The software page replication baselines of CARVE's section II, as a
 * component that routes requests before anything else sees them:
 * replicate = ro gives a GPU that reads a page homed elsewhere its own
 * copy, replicate = all (the ideal) serves every access locally.
 *
 * So that no result depends on the host's threads, what one GPU does to
 * the page table reaches the others at the end of the interval, as HWC's
 * IMST does: a GPU sees its own copies at once, the other GPUs' copies
 * and every collapse from the next interval on (ng_model_sync()).
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>

#include "ngemu/model/model.h"
#include "ngemu/util/err.h"
#include "ngemu/util/format.h"
#include "util/util.h"

#define REPL_RW		(1u << 31)	/* read-write shared: never replicated */

struct page_log {
	uint64_t *pg;
	size_t n, cap;
};

struct repl {
	struct ng_model *m;
	bool ideal;			/* replicate = all */
	unsigned int ngpus;
	/* replica mask per page, | REPL_RW; changed at interval ends only */
	_Atomic uint32_t *page;
	uint64_t *own[NG_MAX_GPUS];	/* per GPU: the pages it copied */
	uint64_t npages;
	struct page_log copied[NG_MAX_GPUS];		/* this interval */
	struct page_log written[NG_MAX_GPUS][NG_MAX_GPUS]; /* [writer][home] */
};

static void repl_destroy(void *priv)
{
	struct repl *p = priv;

	if (!p)
		return;
	for (unsigned int g = 0; g < NG_MAX_GPUS; g++) {
		free(p->own[g]);
		free(p->copied[g].pg);
		for (unsigned int h = 0; h < NG_MAX_GPUS; h++)
			free(p->written[g][h].pg);
	}
	free((void *)p->page);
	free(p);
}

static int repl_create(struct ng_model *m, void **priv, char *err, size_t errlen)
{
	struct repl *p = calloc(1, sizeof(*p));
	bool ok = p;

	if (p) {
		p->m = m;
		p->ideal = m->cfg->replicate == NG_REPL_ALL;
		p->ngpus = m->cfg->gpus;
		p->npages = m->space->npages;
	}
	/* the ideal keeps only which pages each GPU holds a copy of */
	if (ok && !p->ideal) {
		p->page = calloc(p->npages, sizeof(*p->page));
		ok = p->page;
	}
	if (ok) {
		for (unsigned int g = 0; ok && g < p->ngpus; g++) {
			p->own[g] = calloc((p->npages + 63) / 64, sizeof(uint64_t));
			ok = p->own[g];
		}
	}
	if (!ok) {
		repl_destroy(p);
		ng_seterr(err, errlen, "out of memory for the replication model");
		return -ENOMEM;
	}
	*priv = p;
	return 0;
}

static void log_page(struct page_log *l, uint64_t pg)
{
	/* a stream of writes to one page logs it once */
	if (l->n && l->pg[l->n - 1] == pg)
		return;
	if (ng_grow((void **)&l->pg, &l->cap, l->n + 1, sizeof(*l->pg)))
		l->pg[l->n++] = pg;
}

/*
 * replicate = all: the ideal, every GPU-homed access local. replicate =
 * ro: a page read by a GPU that is not its home gets a local copy on that
 * first read (the copy crosses the link once and costs a page of memory);
 * later reads are local. A write to a page with copies collapses them
 * (at no cost) and marks the page read-write shared: it is not
 * replicated again. Replicas hold what the home holds, so the data is
 * read from the home memory itself.
 */
static void repl_route(void *priv, struct ng_sm *sm, struct ng_req *r)
{
	struct repl *p = priv;
	struct ng_model *m = p->m;
	uint64_t pg, *own, bytes = 1ULL << m->space->page_shift;
	uint32_t v;
	bool mine;

	if (r->home >= NG_HOME_HOST)
		return;
	pg = (r->line - (uintptr_t)m->space->base) >> m->space->page_shift;
	own = &p->own[r->gpu][pg / 64];
	mine = *own >> (pg % 64) & 1;
	if (p->ideal) {
		/*
		 * a copy of every page a GPU reaches, free; counted, as
		 * unbounded replication's memory (CARVE sec. I: 2.4x)
		 */
		if (r->home != r->gpu && !mine) {
			*own |= 1ULL << (pg % 64);
			sm->ctr.v[NG_CTR_REPL_PAGES]++;
		}
		r->home = r->gpu;
		return;
	}
	v = atomic_load_explicit(&p->page[pg], memory_order_relaxed);
	if (v & REPL_RW)
		return;
	if (r->op != NG_OP_LOAD) {
		if (v || mine)
			log_page(&p->written[r->gpu][r->home], pg);
		return;
	}
	if (r->home == r->gpu)
		return;
	if (mine) {
		r->home = r->gpu;
		sm->ctr.v[NG_CTR_REPL_HIT]++;
		return;
	}
	*own |= 1ULL << (pg % 64);
	log_page(&p->copied[r->gpu], pg);
	/* the copy crosses the link (in the background) */
	(void)ng_link_xfer(sm, r->home, r->gpu, r->t, bytes, NULL);
	sm->ctr.v[NG_CTR_REPL_PAGES]++;
	sm->ctr.v[NG_CTR_REPL_BYTES] += bytes;
	sm->ctr.v[NG_CTR_LINK_RX] += bytes;
	/* this read is served remotely; the copy serves the next ones */
}

/*
 * Phase 0: every GPU's new copies join the page table (an OR: any order).
 * Phase 1: the home collapses its written pages that have copies, writers
 * in turn, so that each collapse is counted once, at the home.
 */
static void repl_sync(void *priv, unsigned int phase, unsigned int gpu)
{
	struct repl *p = priv;

	if (p->ideal)
		return;
	if (phase == 0) {
		struct page_log *l = &p->copied[gpu];

		for (size_t i = 0; i < l->n; i++)
			atomic_fetch_or_explicit(&p->page[l->pg[i]], 1u << gpu,
						 memory_order_relaxed);
		l->n = 0;
		return;
	}
	for (unsigned int w = 0; w < p->ngpus; w++) {
		struct page_log *l = &p->written[w][gpu];

		for (size_t i = 0; i < l->n; i++) {
			_Atomic uint32_t *e = &p->page[l->pg[i]];
			uint32_t v = atomic_load_explicit(e, memory_order_relaxed);

			if (v & ~REPL_RW) {
				atomic_store_explicit(e, REPL_RW,
						      memory_order_relaxed);
				p->m->gctr[gpu].v[NG_CTR_REPL_COLLAPSE]++;
			}
		}
		l->n = 0;
	}
}

static bool repl_enabled(const struct ng_config *c)
{
	return c->replicate != NG_REPL_NONE;
}

static void repl_describe(const struct ng_config *c, FILE *f)
{
	fprintf(f, "replication %s; ", ng_replicate_name(c->replicate));
}

/* ro: a local write collapses the page's replicas, so it must see them */
static bool repl_sees_local(const struct ng_config *c)
{
	return c->replicate == NG_REPL_RO;
}

static const struct ng_key repl_keys[] = {
	NG_KEY_CHOICE("replicate", replicate, ng_replicate_names,
		      "page replication baseline: none, ro (read-only shared pages), all (ideal)"),
	{ .name = NULL },
};

const struct ng_component ng_replication_component = {
	.name = "repl",
	.desc = "software page replication baselines (CARVE II): read-only shared pages, or all (the ideal)",
	.keys = repl_keys,
	.counters = "repl",
	.enabled = repl_enabled,
	.describe = repl_describe,
	.remote_only = true,
	.sees_local = repl_sees_local,
	.create = repl_create,
	.destroy = repl_destroy,
	.route = repl_route,
	.sync = repl_sync,
	.sync_phases = 2,
};
