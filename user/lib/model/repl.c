// SPDX-License-Identifier: GPL-2.0
/*
 * The software page replication baselines of CARVE's section II, as a
 * component that routes requests before anything else sees them:
 * replicate = ro gives a GPU that reads a page homed elsewhere its own
 * copy, replicate = all (the ideal) serves every access locally.
 */
#include <errno.h>
#include <stdlib.h>

#include "ngemu/model/model.h"
#include "ngemu/util/err.h"

#define REPL_RW		(1u << 31)	/* read-write shared: never replicated */

struct repl {
	struct ng_model *m;
	bool ideal;			/* replicate = all */
	_Atomic uint32_t *page;		/* replica mask per page, | REPL_RW */
	uint64_t npages;
};

static void repl_destroy(void *priv)
{
	struct repl *p = priv;

	if (!p)
		return;
	free((void *)p->page);
	free(p);
}

static int repl_create(struct ng_model *m, void **priv, char *err, size_t errlen)
{
	struct repl *p = calloc(1, sizeof(*p));

	if (p) {
		p->m = m;
		p->ideal = m->cfg->replicate == NG_REPL_ALL;
		p->npages = m->space->npages;
		/* the ideal needs no page state */
		p->page = p->ideal ? NULL : calloc(p->npages, sizeof(*p->page));
	}
	if (!p || (!p->ideal && !p->page)) {
		repl_destroy(p);
		ng_seterr(err, errlen, "out of memory for the replication model");
		return -ENOMEM;
	}
	*priv = p;
	return 0;
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
	_Atomic uint32_t *e;
	uint32_t v, bit;

	if (r->home >= NG_HOME_HOST)
		return;
	if (p->ideal) {
		r->home = r->gpu;
		return;
	}
	e = &p->page[(r->line - (uintptr_t)m->space->base) >> m->space->page_shift];
	v = atomic_load_explicit(e, memory_order_relaxed);
	bit = 1u << r->gpu;
	if (r->op != NG_OP_LOAD) {
		if (v & ~REPL_RW) {
			v = atomic_exchange_explicit(e, REPL_RW,
						     memory_order_relaxed);
			if (v & ~REPL_RW)
				sm->ctr.v[NG_CTR_REPL_COLLAPSE]++;
		}
		return;
	}
	if (r->home == r->gpu || (v & REPL_RW))
		return;
	if (v & bit) {
		r->home = r->gpu;
		sm->ctr.v[NG_CTR_REPL_HIT]++;
		return;
	}
	v = atomic_fetch_or_explicit(e, bit, memory_order_relaxed);
	if (!(v & bit) && !(v & REPL_RW)) {
		uint64_t bytes = 1ULL << m->space->page_shift;
		ng_ticks dur;

		/* the copy crosses the link (in the background) */
		(void)ng_reserve(sm, ng_res_link(m, r->home, r->gpu), r->t,
				 bytes, &dur);
		sm->ctr.v[NG_CTR_REPL_PAGES]++;
		sm->ctr.v[NG_CTR_REPL_BYTES] += bytes;
		sm->ctr.v[NG_CTR_LINK_RX] += bytes;
	}
	/* this read is served remotely; the copy serves the next ones */
}

static bool repl_enabled(const struct ng_config *c)
{
	return c->replicate != NG_REPL_NONE;
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

const struct ng_component ng_repl_component = {
	.name = "repl",
	.desc = "software page replication baselines (CARVE II): read-only shared pages, or all (the ideal)",
	.keys = repl_keys,
	.counters = "repl",
	.enabled = repl_enabled,
	.remote_only = true,
	.sees_local = repl_sees_local,
	.create = repl_create,
	.destroy = repl_destroy,
	.route = repl_route,
};
