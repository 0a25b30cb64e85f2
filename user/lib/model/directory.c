// SPDX-License-Identifier: GPL-2.0
/*
 * REC's hardware coherence for remote lines in the L2 (REC
 * sections 2.3 and 4.2): a directory at each home GPU records which GPUs'
 * L2s hold its lines, in the organization the configuration names (dir,
 * hmg or rec; entries in ngemu/model/dir.h). Two stable states, no
 * transient states, no acknowledgements. Flows, at the home:
 *
 *   remote read   find the entry of the line's base (else allocate one,
 *                 evicting the set's least recently used, or oldest with
 *                 dir-policy fifo), set the line's position and the
 *                 reader's sharer bit
 *   local write   if the line's position is set: invalidate its sharers,
 *                 clear the position; the entry goes invalid with its
 *                 last position (hmg: all four lines at every sharer)
 *   remote write  if the position is set: the writer becomes the only
 *                 sharer, the others are invalidated; else as a read
 *                 (the writer's L2 took the write, l2.c). Atomics too.
 *   eviction      every line the entry recorded is rebuilt from base and
 *                 position and invalidated at each of its sharers
 *
 * An invalidation is one flit from the home to the sharer (hmg: one per
 * 4-line region) and really drops the line from the sharer's L2; the
 * L1s drop theirs at the next kernel boundary (l1.c).
 *
 * So that the result does not depend on the host's threads, as in
 * carve_coherence.c: what reaches a home in an interval of modeled time
 * is applied at its end (phase 0, by the home's own thread, in order of
 * arrival time), the invalidations reach the sharers' caches in phase 1.
 * A local write looks at the directory as the interval found it (only the
 * home's own thread reads it meanwhile). A GPU that copied a line into
 * its L2 (reading it, or writing part of it) in the interval in which
 * another GPU wrote it may hold the data in host order rather than
 * modeled order (or, for a local write to a line nobody held when the
 * interval began, miss the invalidation): its copy is dropped too
 * (dir.race_invals, no link cost). The lines written in an interval are
 * kept exactly, per home, so that no other line is dropped.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "model/directory_entry.h"
#include "model/event_log.h"
#include "model/model_impl.h"
#include "ngemu/model/model.h"
#include "ngemu/util/err.h"
#include "ngemu/util/format.h"
#include "util/util.h"

enum { EV_READ, EV_RWRITE, EV_LWRITE };
/* what an invalidation is for (low bits of an inv_list item) */
enum { INV_WRITE, INV_EVICT, INV_RACE };
#define INV_REGION	4u	/* hmg: the 4-line region of the line */
#define INV_SHIFT	3

struct dir_ev {
	struct ng_ev ev;
	uint64_t li;		/* line index in the space */
	uint8_t kind;
};

struct inv_list {
	uint64_t *it;
	size_t n, cap;
};

/*
 * The lines of a home written in an interval, with the GPUs that wrote
 * each: an open-addressing table whose keys carry a generation, so that
 * clearing it at the end of an interval is one increment.
 */
struct wset {
	uint64_t *key;		/* li << 16 | generation */
	uint32_t *gpus;
	size_t cap, n;
	uint16_t gen;
};

struct dir {
	struct ng_model *m;
	struct ng_dir_geom g;
	unsigned int ngpus, nsets, ways, line_shift, pos_shift, set_bits;
	bool fifo, coarse;
	uintptr_t base;
	uint64_t flit, words;
	uint64_t *st[NG_MAX_GPUS];		/* the entries, bit-packed */
	uint32_t *stamp[NG_MAX_GPUS];		/* replacement order */
	uint32_t clock[NG_MAX_GPUS];
	struct ng_evlog log[NG_MAX_GPUS][NG_MAX_GPUS];	/* [requester][home] */
	uint32_t seq[NG_MAX_GPUS];
	struct ng_evlog gather[NG_MAX_GPUS];
	struct inv_list inv[NG_MAX_GPUS][NG_MAX_GPUS];	/* [source][target] */
	struct wset written[NG_MAX_GPUS];		/* per home */
};

extern const struct ng_component ng_directory_component;

static void dir_destroy(void *priv)
{
	struct dir *d = priv;

	if (!d)
		return;
	for (unsigned int a = 0; a < NG_MAX_GPUS; a++) {
		for (unsigned int b = 0; b < NG_MAX_GPUS; b++) {
			ng_evlog_free(&d->log[a][b]);
			free(d->inv[a][b].it);
		}
		ng_evlog_free(&d->gather[a]);
		free(d->written[a].key);
		free(d->written[a].gpus);
		ng_table_free(d->st[a], d->words * 8);
		free(d->stamp[a]);
	}
	free(d);
}

static int dir_create(struct ng_model *m, void **priv, char *err, size_t errlen)
{
	const struct ng_config *c = m->cfg;
	struct dir *d = calloc(1, sizeof(*d));
	int ret;

	if (!d)
		goto nomem;
	ret = ng_dir_geometry(c, &d->g, err, errlen);
	if (ret) {
		free(d);
		return ret;
	}
	d->m = m;
	d->ngpus = c->gpus;
	d->ways = c->dir.ways;
	d->nsets = c->dir.entries / c->dir.ways;
	/* the index's width: log2 of the sets, rounded up */
	while ((1u << d->set_bits) < d->nsets)
		d->set_bits++;
	d->line_shift = (unsigned int)__builtin_ctz(c->line);
	d->pos_shift = (unsigned int)__builtin_ctz(d->g.positions);
	d->fifo = c->dir.policy == NG_DIR_FIFO;
	d->coarse = c->dir.kind == NG_DIR_HMG;
	d->base = (uintptr_t)m->space->base;
	d->flit = c->flit;
	/* one spare word: a field may straddle the last one */
	d->words = (d->g.storage_bits + 63) / 64 + 1;
	for (unsigned int g = 0; g < d->ngpus; g++) {
		d->st[g] = ng_table_alloc(d->words * 8);
		d->stamp[g] = calloc(c->dir.entries, sizeof(*d->stamp[g]));
		d->written[g].gen = 1;
		if (!d->st[g] || !d->stamp[g])
			goto nomem;
	}
	*priv = d;
	return 0;
nomem:
	dir_destroy(d);
	ng_seterr(err, errlen, "out of memory for the coherence directory");
	return -ENOMEM;
}

static uint64_t line_index(const struct dir *d, uintptr_t line)
{
	return (line - d->base) >> d->line_shift;
}

/* The first entry of @base's set (indexed as by physical address). */
static uint64_t set0(const struct dir *d, uint64_t base)
{
	return ng_fold_index(base, d->set_bits) % d->nsets * d->ways;
}

/* The entry of @home's directory holding @base, or -1. */
static int64_t find(const struct dir *d, unsigned int home, uint64_t base)
{
	uint64_t e0 = set0(d, base);

	for (unsigned int w = 0; w < d->ways; w++)
		if (ng_dirent_valid(&d->g, d->st[home], e0 + w) &&
		    ng_dirent_base(&d->g, d->st[home], e0 + w) == base)
			return (int64_t)(e0 + w);
	return -1;
}

/* The group of line @li in its entry (hmg: the one group). */
static unsigned int group_of(const struct dir *d, uint64_t li)
{
	return d->coarse ? 0 : (unsigned int)(li & (d->g.positions - 1));
}

static size_t ws_slot(const struct wset *w, uint64_t li)
{
	return (size_t)((li * 0x9e3779b97f4a7c15ULL) >> 32) & (w->cap - 1);
}

/* The GPUs that wrote @li in this interval (0: none). */
static uint32_t ws_get(const struct wset *w, uint64_t li)
{
	for (size_t i = w->cap ? ws_slot(w, li) : 0; w->cap; i = (i + 1) & (w->cap - 1)) {
		if ((uint16_t)w->key[i] != w->gen)
			return 0;
		if (w->key[i] >> 16 == li)
			return w->gpus[i];
	}
	return 0;
}

static void ws_put(struct wset *w, uint64_t li, uint32_t gpus)
{
	size_t i = ws_slot(w, li);

	while ((uint16_t)w->key[i] == w->gen && w->key[i] >> 16 != li)
		i = (i + 1) & (w->cap - 1);
	if ((uint16_t)w->key[i] != w->gen) {
		w->key[i] = li << 16 | w->gen;
		w->gpus[i] = 0;
		w->n++;
	}
	w->gpus[i] |= gpus;
}

/* Record that @gpus wrote @li; false when out of memory (then a no-op). */
static bool ws_add(struct wset *w, uint64_t li, uint32_t gpus)
{
	if (2 * (w->n + 1) > w->cap) {
		struct wset n = { .cap = w->cap ? 2 * w->cap : 1024, .gen = 1 };

		n.key = calloc(n.cap, sizeof(*n.key));
		n.gpus = calloc(n.cap, sizeof(*n.gpus));
		if (!n.key || !n.gpus) {
			free(n.key);
			free(n.gpus);
			return false;
		}
		for (size_t i = 0; i < w->cap; i++)
			if ((uint16_t)w->key[i] == w->gen)
				ws_put(&n, w->key[i] >> 16, w->gpus[i]);
		free(w->key);
		free(w->gpus);
		*w = n;
	}
	ws_put(w, li, gpus);
	return true;
}

static void ws_clear(struct wset *w)
{
	if (!w->n)
		return;
	w->n = 0;
	if (!++w->gen) {
		/* the generations wrapped: old keys could look current */
		memset(w->key, 0, w->cap * sizeof(*w->key));
		w->gen = 1;
	}
}

static void log_event(struct dir *d, const struct ng_req *r, uint64_t li,
		      unsigned int kind)
{
	struct dir_ev *e = ng_evlog_add(&d->log[r->gpu][r->home], sizeof(*e));

	if (!e)
		return;
	*e = (struct dir_ev){ .ev = { .t = r->t, .seq = d->seq[r->gpu]++,
				      .gpu = (uint8_t)r->gpu },
			      .li = li, .kind = (uint8_t)kind };
}

static bool dir_access(void *priv, struct ng_sm *sm, struct ng_req *r)
{
	struct dir *d = priv;
	bool local = r->home == r->gpu;
	uint64_t li;
	int64_t e;

	(void)sm;
	if (r->home >= NG_HOME_HOST)
		return false;
	li = line_index(d, r->line);
	if (r->op == NG_OP_LOAD) {
		if (!local)
			log_event(d, r, li, EV_READ);
		return false;
	}
	if (!local) {
		log_event(d, r, li, EV_RWRITE);
		return false;
	}
	/* only the home's own thread touches its set until the interval ends */
	(void)ws_add(&d->written[r->home], li, 1u << r->home);
	/* a local write matters only to a line some other GPU holds */
	e = find(d, r->home, li >> d->pos_shift);
	if (e >= 0 && ng_dirent_pos(&d->g, d->st[r->home], (uint64_t)e,
				    group_of(d, li)))
		log_event(d, r, li, EV_LWRITE);
	return false;
}

static void inv_add(struct inv_list *l, uint64_t item)
{
	if (ng_grow((void **)&l->it, &l->cap, l->n + 1, sizeof(*l->it)))
		l->it[l->n++] = item;
}

/*
 * Home @home invalidates line @li (hmg: its region) at every GPU of
 * @gpus, @why: one flit each over the link to that GPU.
 */
static void invalidate(struct dir *d, unsigned int home, uint32_t gpus,
		       uint64_t li, unsigned int why, ng_ticks t)
{
	struct ng_model *m = d->m;
	struct ng_counters *c = &m->gctr[home];
	uint64_t item = li << INV_SHIFT | (d->coarse ? INV_REGION : 0) | why;

	for (unsigned int g = 0; gpus; g++, gpus >>= 1) {
		if (!(gpus & 1))
			continue;
		ng_link_charge(m, home, g, t, d->flit);
		inv_add(&d->inv[home][g], item);
		c->v[why == INV_EVICT ? NG_CTR_DIR_INV_EVICT
				      : NG_CTR_DIR_INV_WRITE]++;
		c->v[NG_CTR_LINK_TX] += d->flit;
	}
}

/* Sharer bits of @home's entries as GPU numbers, and back. */
static uint32_t gpus_of(unsigned int home, uint32_t sharers)
{
	uint32_t low = sharers & ((1u << home) - 1);

	return low | (sharers & ~((1u << home) - 1)) << 1;
}

static uint32_t sharers_of(unsigned int home, uint32_t gpus)
{
	uint32_t low = gpus & ((1u << home) - 1);

	return low | (gpus >> 1 & ~((1u << home) - 1));
}

/* Entry @e of @home is replaced: what it recorded is invalidated. */
static void evict(struct dir *d, unsigned int home, uint64_t e, ng_ticks t)
{
	const struct ng_dir_geom *g = &d->g;
	uint64_t *st = d->st[home];
	uint64_t base = ng_dirent_base(g, st, e);
	struct ng_counters *c = &d->m->gctr[home];

	c->v[NG_CTR_DIR_EVICT]++;
	for (unsigned int p = 0; p < g->groups; p++) {
		if (!ng_dirent_pos(g, st, e, p))
			continue;
		c->v[NG_CTR_DIR_EVICT_LINES]++;
		invalidate(d, home, gpus_of(home, ng_dirent_sharers(g, st, e, p)),
			   base << d->pos_shift | p, INV_EVICT, t);
	}
}

/* A new entry for @base in @home's directory, evicting if the set is full. */
static uint64_t allocate(struct dir *d, unsigned int home, uint64_t base,
			 ng_ticks t)
{
	uint64_t e0 = set0(d, base), v = e0;
	uint32_t *stamp = d->stamp[home];

	for (unsigned int w = 0; w < d->ways; w++) {
		if (!ng_dirent_valid(&d->g, d->st[home], e0 + w)) {
			v = e0 + w;
			goto found;
		}
		if (stamp[e0 + w] < stamp[v])
			v = e0 + w;
	}
	evict(d, home, v, t);
found:
	ng_dirent_init(&d->g, d->st[home], v, base);
	stamp[v] = ++d->clock[home];
	d->m->gctr[home].v[NG_CTR_DIR_ALLOC]++;
	return v;
}

static bool any_position(const struct dir *d, unsigned int home, uint64_t e)
{
	for (unsigned int p = 0; p < d->g.groups; p++)
		if (ng_dirent_pos(&d->g, d->st[home], e, p) &&
		    (d->g.pos_bits || ng_dirent_sharers(&d->g, d->st[home], e, p)))
			return true;
	return false;
}

/* One event at home @home, in arrival order. */
static void apply(struct dir *d, unsigned int home, const struct dir_ev *ev)
{
	const struct ng_dir_geom *g = &d->g;
	uint64_t *st = d->st[home];
	uint64_t base = ev->li >> d->pos_shift;
	unsigned int p = group_of(d, ev->li);
	uint32_t me = ev->kind == EV_LWRITE ? 0 : 1u << ev->ev.gpu;
	int64_t f = find(d, home, base);
	uint64_t e;
	bool pos;
	uint32_t held;

	if (f < 0 && ev->kind == EV_LWRITE)
		return;		/* nobody holds it any more */
	e = f >= 0 ? (uint64_t)f : allocate(d, home, base, ev->ev.t);
	pos = f >= 0 && ng_dirent_pos(g, st, e, p);
	held = pos ? gpus_of(home, ng_dirent_sharers(g, st, e, p)) : 0;
	if (!d->fifo)
		d->stamp[home][e] = ++d->clock[home];
	switch (ev->kind) {
	case EV_READ:
		ng_dirent_set_group(g, st, e, p, true, sharers_of(home, held | me));
		break;
	case EV_RWRITE:
		if (held & ~me)
			invalidate(d, home, held & ~me, ev->li, INV_WRITE, ev->ev.t);
		ng_dirent_set_group(g, st, e, p, true, sharers_of(home, me));
		break;
	default:
		if (!pos)
			break;
		invalidate(d, home, held, ev->li, INV_WRITE, ev->ev.t);
		ng_dirent_set_group(g, st, e, p, false, 0);
		if (!any_position(d, home, e))
			ng_dirent_clear(g, st, e);
		return;
	}
	/*
	 * See the top: the copy a reader (or a writer, whose L2 took the
	 * line as the home had it) made may miss another GPU's write of
	 * the same interval, whatever their order.
	 */
	if (ws_get(&d->written[home], ev->li) & ~me) {
		inv_add(&d->inv[home][ev->ev.gpu], ev->li << INV_SHIFT |
			(d->coarse ? INV_REGION : 0) | INV_RACE);
		d->m->gctr[home].v[NG_CTR_DIR_RACE]++;
	}
}

/* Phase 1: the invalidations for GPU @gpu's caches, from every home. */
static void deliver(struct dir *d, unsigned int gpu)
{
	struct ng_counters *c = &d->m->gctr[gpu];

	for (unsigned int s = 0; s < d->ngpus; s++) {
		struct inv_list *l = &d->inv[s][gpu];

		for (size_t i = 0; i < l->n; i++) {
			uint64_t it = l->it[i], li = it >> INV_SHIFT;
			unsigned int n = it & INV_REGION ? 4 : 1;
			bool held = false;

			if (n > 1)
				li &= ~3ULL;
			for (unsigned int k = 0; k < n; k++)
				held |= ng_model_invalidate(d->m, gpu, d->base +
							    ((li + k) << d->line_shift));
			if (held && (it & 3) == INV_WRITE)
				c->v[NG_CTR_DIR_INV_WRITE_HIT]++;
			else if (held && (it & 3) == INV_EVICT)
				c->v[NG_CTR_DIR_INV_EVICT_HIT]++;
		}
		l->n = 0;
	}
}

static void dir_sync(void *priv, unsigned int phase, unsigned int gpu)
{
	struct dir *d = priv;
	const struct dir_ev *all;
	size_t n;

	if (phase == 1) {
		deliver(d, gpu);
		return;
	}
	/* phase 0: this GPU as the home of what every GPU sent it */
	n = ng_evlog_gather(&d->gather[gpu], d->log, d->ngpus, gpu,
			    sizeof(*all));
	all = d->gather[gpu].e;
	/* the remote writers join the home's own in the interval's set */
	for (size_t i = 0; i < n; i++)
		if (all[i].kind == EV_RWRITE)
			(void)ws_add(&d->written[gpu], all[i].li,
				     1u << all[i].ev.gpu);
	for (size_t i = 0; i < n; i++)
		apply(d, gpu, &all[i]);
	ws_clear(&d->written[gpu]);
}

int ng_dir_lookup(const struct ng_model *m, unsigned int home, uintptr_t line,
		  struct ng_dir_entry *out)
{
	const struct dir *d = ng_model_priv(m, &ng_directory_component);
	uint64_t li;
	int64_t e;

	memset(out, 0, sizeof(*out));
	if (!d || home >= d->ngpus)
		return -ENOENT;
	li = line_index(d, line);
	e = find(d, home, li >> d->pos_shift);
	if (e < 0)
		return 0;
	out->valid = true;
	out->base = li >> d->pos_shift;
	for (unsigned int p = 0; p < d->g.groups; p++) {
		if (!ng_dirent_pos(&d->g, d->st[home], (uint64_t)e, p))
			continue;
		out->pos |= 1ULL << p;
		out->sharers[p] = gpus_of(home, ng_dirent_sharers(&d->g, d->st[home],
								  (uint64_t)e, p));
	}
	return 1;
}

static int dir_validate(const struct ng_config *c, char *err, size_t errlen)
{
	struct ng_dir_geom g;

	return ng_dir_geometry(c, &g, err, errlen);
}

static const struct ng_key dir_keys[] = {
	NG_KEY_CHOICE("directory", dir.kind, ng_directory_names,
		      "the L2's coherence for remote lines: off (dropped per kernel), none (kept, never invalidated), dir, hmg, rec (a directory at each home)"),
	NG_KEY_NUM("dir-entries", NG_KEY_UINT, dir.entries, 1, 1 << 24,
		   "directory entries per home GPU"),
	NG_KEY_NUM("dir-ways", NG_KEY_UINT, dir.ways, 1, 64,
		   "directory associativity"),
	NG_KEY_CHOICE("dir-policy", dir.policy, ng_dir_policy_names,
		      "directory replacement: lru or fifo"),
	NG_KEY_NUM("rec-range", NG_KEY_SIZE, dir.rec_range, 1, 1 << 20,
		   "bytes one rec entry covers (128, 256, 1K, 4K at 64 B lines)"),
	NG_KEY_NUM("dir-addr-bits", NG_KEY_UINT, dir.addr_bits, 8, 64,
		   "address bits a directory entry tags (REC Table 1: 48)"),
	{ .name = NULL },
};

/*
 * The L2's misses, the invalidations by cause (and those that hit a
 * copy), the entries evicted and the coherence transactions.
 */
static void dir_report(const struct ng_config *c, const struct ng_counters *t,
		       FILE *f)
{
	char b[10][32];
	uint64_t ev = t->v[NG_CTR_DIR_EVICT];

	(void)c;
	fprintf(f, "directory  L2 misses %s (%s cold); invalidations: %s write-initiated (%s hit), %s eviction-initiated (%s hit), %s races; %s evictions holding %.2f lines each; transactions %s requests, %s data\n",
		ng_format_si((double)t->v[NG_CTR_L2_MISS], b[0], 32),
		ng_format_si((double)t->v[NG_CTR_L2_COLD], b[1], 32),
		ng_format_si((double)t->v[NG_CTR_DIR_INV_WRITE], b[2], 32),
		ng_format_si((double)t->v[NG_CTR_DIR_INV_WRITE_HIT], b[3], 32),
		ng_format_si((double)t->v[NG_CTR_DIR_INV_EVICT], b[4], 32),
		ng_format_si((double)t->v[NG_CTR_DIR_INV_EVICT_HIT], b[5], 32),
		ng_format_si((double)t->v[NG_CTR_DIR_RACE], b[6], 32),
		ng_format_si((double)ev, b[7], 32),
		ev ? (double)t->v[NG_CTR_DIR_EVICT_LINES] / (double)ev : 0,
		ng_format_si((double)t->v[NG_CTR_XACT_REQ], b[8], 32),
		ng_format_si((double)t->v[NG_CTR_XACT_DATA], b[9], 32));
}

const struct ng_component ng_directory_component = {
	.name = "dir",
	.desc = "REC's coherence directory at each home: per-line, HMG or range-coalesced entries, bit-packed",
	.keys = dir_keys,
	.counters = "dir",
	.enabled = ng_dir_enabled,
	.report = dir_report,
	.remote_only = false,
	.validate = dir_validate,
	.create = dir_create,
	.destroy = dir_destroy,
	.access = dir_access,
	.sync = dir_sync,
	.sync_phases = 2,
};
