// SPDX-License-Identifier: GPL-2.0
/*
 * Page migration on first remote touch, DualOpt's second comparison
 * (section 6.1, "Page Migration"; the paper's section 2.3 for the costs):
 * the first time a GPU reaches a page homed on another GPU, it faults;
 * the driver moves the page to it (the page crosses the link) and the
 * access waits migrate-latency for the fault. A page moves once: later
 * GPUs reach it where it went, remotely (a shared page does not ping-pong).
 *
 * The move changes the location table that every GPU reads, so it
 * cannot happen when a GPU's thread meets the fault: each GPU logs its
 * faults per home in the interval, and at the interval's end (phase 0)
 * each home's own thread moves its pages in the order the faults came
 * (time, then GPU), the first GPU winning a page. Until then the faulting
 * GPU's other accesses to the page stay remote. Runs and their results
 * therefore do not depend on how the host ran the threads.
 *
 * The table is the model's own with the user backend (one address space:
 * the data need not move). With the kmod backend the module places pages
 * itself, so migration is refused there.
 */
#include <errno.h>
#include <stdlib.h>

#include "model/event_log.h"
#include "ngemu/model/model.h"
#include "ngemu/util/err.h"
#include "util/util.h"

struct fault {
	struct ng_ev ev;
	uint64_t page;
};

struct migrate {
	struct ng_model *m;
	unsigned int ngpus, page_shift;
	uint64_t npages;
	ng_ticks stall;
	uint8_t *moved;			/* per page: moved once (by its home) */
	uint64_t *asked[NG_MAX_GPUS];	/* per GPU, a bit per page: faulted */
	unsigned int seq[NG_MAX_GPUS];
	struct ng_evlog log[NG_MAX_GPUS][NG_MAX_GPUS];	/* [gpu][home] */
	struct ng_evlog gather[NG_MAX_GPUS];
};

static void migrate_destroy(void *priv)
{
	struct migrate *d = priv;

	if (!d)
		return;
	ng_table_free(d->moved, d->npages);
	for (unsigned int g = 0; g < d->ngpus; g++) {
		ng_table_free(d->asked[g], (d->npages + 63) / 64 * 8);
		for (unsigned int h = 0; h < d->ngpus; h++)
			ng_evlog_free(&d->log[g][h]);
		ng_evlog_free(&d->gather[g]);
	}
	free(d);
}

static int migrate_create(struct ng_model *m, void **priv, char *err,
			  size_t errlen)
{
	struct migrate *d;

	if (m->space->backend == NG_MEM_KMOD) {
		ng_seterr(err, errlen,
			  "migrate first-touch moves pages in the model's location table; with the kmod backend numagpu.ko places them: use --backend user");
		return -EINVAL;
	}
	d = calloc(1, sizeof(*d));
	if (!d)
		goto nomem;
	d->m = m;
	d->ngpus = m->ngpus;
	d->page_shift = m->space->page_shift;
	d->npages = m->space->npages;
	d->stall = (ng_ticks)(m->cfg->mig.latency_ns * NG_TICKS_PER_NS);
	d->moved = ng_table_alloc(d->npages);
	if (!d->moved)
		goto nomem;
	for (unsigned int g = 0; g < d->ngpus; g++) {
		d->asked[g] = ng_table_alloc((d->npages + 63) / 64 * 8);
		if (!d->asked[g])
			goto nomem;
	}
	*priv = d;
	return 0;
nomem:
	migrate_destroy(d);
	ng_seterr(err, errlen, "out of memory for the page migration model");
	return -ENOMEM;
}

static bool migrate_access(void *priv, struct ng_sm *sm, struct ng_req *r)
{
	struct migrate *d = priv;
	uint64_t p = (r->line - sm->space_base) >> d->page_shift;
	uint64_t *a = &d->asked[r->gpu][p / 64], bit = 1ULL << (p % 64);
	struct fault *f;

	if (r->home >= d->ngpus || r->home == r->gpu || d->moved[p] || *a & bit)
		return false;
	f = ng_evlog_add(&d->log[r->gpu][r->home], sizeof(*f));
	if (!f)
		return false;	/* no room to log it: the access stays remote */
	*a |= bit;
	*f = (struct fault){ .ev = { .t = r->t, .gpu = (uint8_t)r->gpu,
				     .seq = d->seq[r->gpu]++ },
			     .page = p };
	/* the fault: the access waits for the driver and the copy */
	r->t += d->stall;
	return false;
}

/* Phase 0, home @home's thread: its pages move, first fault first. */
static void migrate_sync(void *priv, unsigned int phase, unsigned int home)
{
	struct migrate *d = priv;
	struct ng_model *m = d->m;
	uint64_t page = 1ULL << d->page_shift;
	const struct fault *all;
	size_t n;

	(void)phase;
	n = ng_evlog_gather(&d->gather[home], d->log, d->ngpus, home,
			    sizeof(*all));
	all = d->gather[home].e;
	for (size_t i = 0; i < n; i++) {
		const struct fault *f = &all[i];
		unsigned int gpu = f->ev.gpu;

		if (d->moved[f->page] ||
		    atomic_load_explicit(&m->space->loc[f->page],
					 memory_order_relaxed) != home)
			continue;
		d->moved[f->page] = 1;
		atomic_store_explicit(&m->space->loc[f->page], (uint8_t)gpu,
				      memory_order_relaxed);
		ng_link_charge(m, home, gpu, f->ev.t, page);
		m->gctr[home].v[NG_CTR_MIG_PAGES]++;
		m->gctr[home].v[NG_CTR_MIG_BYTES] += page;
	}
}

static bool migrate_enabled(const struct ng_config *c)
{
	return c->mig.mode != NG_MIGRATE_OFF;
}

static const struct ng_key migrate_keys[] = {
	NG_KEY_CHOICE("migrate", mig.mode, ng_migrate_names,
		      "page migration: off, or first-touch (a page moves to the first GPU that reaches it remotely)"),
	NG_KEY_NUM("migrate-latency", NG_KEY_DOUBLE, mig.latency_ns, 0, 1e9,
		   "a migrating fault's stall of the access, ns"),
	{ .name = NULL },
};

const struct ng_component ng_migrate_component = {
	.name = "migrate",
	.desc = "page migration on first remote touch, applied at interval ends in fault order",
	.keys = migrate_keys,
	.counters = "migrate",
	.enabled = migrate_enabled,
	.remote_only = true,
	.create = migrate_create,
	.destroy = migrate_destroy,
	.access = migrate_access,
	.sync = migrate_sync,
	.sync_phases = 1,
};
