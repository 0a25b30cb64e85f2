// SPDX-License-Identifier: GPL-2.0
/*
 * L2 component: per GPU, set-associative, LRU, caching *remote* lines only
 * (NUMA-GPU's remote caching in the LLC) with real copies of their data,
 * so that a coherence mistake shows up as a wrong result. Write-through:
 * a GPU's own stores update its copy and go on to the home. Software
 * coherence: each line carries the epoch it was filled in; a kernel
 * boundary bumps the GPU's epoch (20 bits, as CARVE's), which invalidates
 * every line at once; on roll-over the tags are cleared. Under CARVE's
 * hardware coherence (carve_coherence.c) the L2 keeps its lines across
 * kernels: a write elsewhere invalidates them, and each line keeps a copy
 * of its home's IMST, which tells a writer to broadcast (CARVE IV-C).
 * With l2-local (the default) the L2 caches the GPU's own memory's lines
 * too, as the papers' L2s do, and they compete with the others for its
 * ways: write-back (a store to a line it holds, or allocates, does not
 * reach the memory until a dirty line is replaced) and never flushed (the
 * home's L2 is where its memory is coherent). Only their tags are kept:
 * the data is read from the home, which every store updates at once, so a
 * local line cannot be stale; the L2 decides only the time (its latency,
 * no memory access). Other GPUs' requests to this memory do not look in
 * it (a simplification: the home's L2 would serve them too). Under HWC a
 * local line keeps its IMST with it: a store to a line the L2 held reads
 * none from memory (CARVE IV-C).
 * Host memory has no IMST and no directory entry: no write to it reaches
 * another GPU's copy, so its lines are dropped at every kernel boundary,
 * kept coherent or not (software coherence for system memory, as GPUs keep
 * it), and a kernel reads what the previous one wrote.
 *
 * The SMs of a GPU share its L2; only the GPU's own host thread touches it
 * (its SMs, and its invalidations at the end of an interval), so it needs
 * no lock.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "ngemu/model/dir.h"
#include "ngemu/model/hwc.h"
#include "ngemu/model/model.h"
#include "ngemu/util/err.h"
#include "ngemu/util/format.h"
#include "util/util.h"

#define EPOCH_MASK	0xfffffu
#define IMST_SHIFT	20
/* the epoch of local lines, which no kernel boundary drops */
#define LOCAL_EPOCH	EPOCH_MASK

/*
 * A way's tag word packs the line number with the IMST copy and the
 * epoch it was filled in (0: empty), so that a set's tags are two host
 * cache lines, and LRU stamps live apart: lookups, the frequent
 * operation, touch only tags.
 */
typedef uint64_t l2_tag;

#define TAG(ln, ep)	(((uint64_t)(ln) << 22) | (ep))
#define TAG_EPOCH(t)	((uint32_t)((t) & EPOCH_MASK))
#define TAG_IMST(t)	((unsigned int)((t) >> IMST_SHIFT) & 3u)
#define TAG_KEY(t)	((t) & ~(3ULL << IMST_SHIFT))

struct l2_cache {
	l2_tag *meta;
	uint32_t *lru;
	unsigned char *data;
	uint32_t *stamp;	/* per-set LRU clock */
	uint64_t *seen;		/* a bit per line of the space: ever filled */
	uint8_t *dirty;		/* per way: a local line stores changed */
	uint32_t epoch;
	bool host;		/* host lines filled since the last boundary */
};

struct l2 {
	struct ng_model *m;
	unsigned int ngpus, nsets, ways, line, line_shift;
	uint32_t set_mask;	/* nsets - 1 when a power of two, else 0 */
	unsigned int set_bits;	/* log2(nsets), rounded up */
	bool fold;		/* index as by physical address */
	ng_ticks hit;
	bool keep;		/* lines live across kernels (HWC, directory) */
	bool walloc;		/* own stores insert their line (directory) */
	bool local;		/* local lines too (l2-local) */
	uintptr_t base;		/* the space, for the seen bits */
	uint64_t nlines;
	struct l2_cache c[NG_MAX_GPUS];
};

static void l2_destroy(void *priv)
{
	struct l2 *l = priv;

	if (!l)
		return;
	for (unsigned int g = 0; g < l->ngpus; g++) {
		size_t n = (size_t)l->nsets * l->ways;

		ng_table_free(l->c[g].meta, n * sizeof(*l->c[g].meta));
		ng_table_free(l->c[g].lru, n * sizeof(*l->c[g].lru));
		ng_table_free(l->c[g].data, n * l->line);
		ng_table_free(l->c[g].stamp, l->nsets * sizeof(*l->c[g].stamp));
		ng_table_free(l->c[g].seen, (l->nlines + 63) / 64 * 8);
		ng_table_free(l->c[g].dirty, n);
	}
	free(l);
}

static int l2_create(struct ng_model *m, void **priv, char *err, size_t errlen)
{
	const struct ng_config *c = m->cfg;
	struct l2 *l = calloc(1, sizeof(*l));

	if (!l)
		goto nomem;
	l->m = m;
	l->keep = ng_hwc_enabled(c) || c->dir.kind != NG_DIR_OFF;
	l->walloc = c->dir.kind != NG_DIR_OFF;
	l->local = c->l2.local;
	l->base = (uintptr_t)m->space->base;
	l->nlines = m->space->size / c->line;
	l->ngpus = c->gpus;
	l->ways = c->l2.ways;
	l->line = c->line;
	l->nsets = (unsigned int)(c->l2.size / c->line / c->l2.ways);
	l->line_shift = (unsigned int)__builtin_ctz(c->line);
	if (!(l->nsets & (l->nsets - 1)))
		l->set_mask = l->nsets - 1;
	while ((1u << l->set_bits) < l->nsets)
		l->set_bits++;
	l->fold = c->dir.kind != NG_DIR_OFF;
	l->hit = (ng_ticks)(c->l2.latency_ns * NG_TICKS_PER_NS);
	for (unsigned int g = 0; g < l->ngpus; g++) {
		struct l2_cache *lc = &l->c[g];
		size_t n = (size_t)l->nsets * l->ways;

		lc->meta = ng_table_alloc(n * sizeof(*lc->meta));
		lc->lru = ng_table_alloc(n * sizeof(*lc->lru));
		lc->data = ng_table_alloc(n * l->line);
		lc->stamp = ng_table_alloc(l->nsets * sizeof(*lc->stamp));
		lc->seen = ng_table_alloc((l->nlines + 63) / 64 * 8);
		lc->dirty = ng_table_alloc(n);
		lc->epoch = 1;
		if (!lc->meta || !lc->lru || !lc->data || !lc->stamp || !lc->seen ||
		    !lc->dirty)
			goto nomem;
	}
	*priv = l;
	return 0;
nomem:
	l2_destroy(l);
	ng_seterr(err, errlen, "out of memory for the L2 model");
	return -ENOMEM;
}

/*
 * Every access indexes a set: a mask, not two divisions, when it can.
 * Under a directory (REC's MGPUSim system) the index folds the upper
 * bits in, as physical addresses would place lines (ng_fold_index()).
 */
static unsigned int set_of(const struct l2 *l, uintptr_t line)
{
	uint64_t n = line >> l->line_shift;

	if (l->fold)
		n = ng_fold_index(n, l->set_bits);
	return (unsigned int)(l->set_mask ? n & l->set_mask : n % l->nsets);
}

/* The way of @line in @set, valid in epoch @ep, or -1. */
static int find(struct l2 *l, struct l2_cache *lc, unsigned int set,
		uintptr_t line, uint32_t ep)
{
	const l2_tag *w = &lc->meta[(size_t)set * l->ways];
	l2_tag want = TAG(line >> l->line_shift, ep);

	for (unsigned int i = 0; i < l->ways; i++)
		if (TAG_KEY(w[i]) == want)
			return (int)i;
	return -1;
}

/*
 * Way-major data: consecutive sets are adjacent, so a stream of lines
 * fills contiguous memory instead of striding by ways x line (which
 * would fight over the host's own cache sets).
 */
static unsigned char *data_of(struct l2 *l, struct l2_cache *lc,
			      unsigned int set, int way)
{
	return lc->data + ((size_t)way * l->nsets + set) * l->line;
}

/* A way that holds a line: a local one, or one of this epoch. */
static bool live(const struct l2_cache *lc, l2_tag t)
{
	return t && (TAG_EPOCH(t) == lc->epoch || TAG_EPOCH(t) == LOCAL_EPOCH);
}

/*
 * Insert @line (data at @src; a local line, epoch LOCAL_EPOCH, keeps no
 * data) in GPU @gpu's L2 at time @t: one pass over the set finds the line
 * (another SM may have filled it), else the first empty or stale way,
 * else the least recently used, written back first if dirty. @dirty: a
 * store puts it there.
 */
static void fill(struct l2 *l, struct ng_sm *sm, unsigned int gpu,
		 uintptr_t line, const void *src, uint32_t ep, bool dirty,
		 ng_ticks t)
{
	struct l2_cache *lc = &l->c[gpu];
	unsigned int set = set_of(l, line);
	size_t w0 = (size_t)set * l->ways;
	l2_tag *w = &lc->meta[w0];
	uint32_t *lru = &lc->lru[w0];
	l2_tag want = TAG(line >> l->line_shift, ep);
	int hit = -1, empty = -1, lru_way = 0, v;
	uint32_t oldest = UINT32_MAX;
	uint64_t li = (line - l->base) >> l->line_shift;

	for (unsigned int i = 0; i < l->ways; i++) {
		if (TAG_KEY(w[i]) == want) {
			hit = (int)i;
			break;
		}
		if (!live(lc, w[i])) {
			if (empty < 0)
				empty = (int)i;
		} else if (lru[i] < oldest) {
			oldest = lru[i];
			lru_way = (int)i;
		}
	}
	v = hit >= 0 ? hit : empty >= 0 ? empty : lru_way;
	if (hit < 0) {
		if (empty < 0)
			sm->ctr.v[NG_CTR_L2_EVICT]++;
		sm->ctr.v[NG_CTR_L2_FILL]++;
		if (lc->dirty[w0 + v]) {
			/* in the background: nobody waits for a write-back */
			(void)ng_reserve_dur(sm, ng_res_mem(l->m, gpu), t,
					     l->m->mem_line_dur);
			sm->ctr.v[NG_CTR_MEM_ACC]++;
			sm->ctr.v[NG_CTR_L2_WRITEBACK]++;
			lc->dirty[w0 + v] = 0;
		}
	}
	lc->dirty[w0 + v] |= dirty;
	if (ep == LOCAL_EPOCH) {
		/* the home's own line: its data stays in memory */
		w[v] = want;
	} else {
		/* the home's sharing state as this read leaves it */
		w[v] = want | (uint64_t)ng_hwc_copy_state(l->m, line) << IMST_SHIFT;
		memcpy(data_of(l, lc, set, v), src, l->line);
	}
	lru[v] = ++lc->stamp[set];
	lc->seen[li / 64] |= 1ULL << (li % 64);
}

static void l2_respond(void *priv, struct ng_sm *sm, struct ng_req *r)
{
	struct l2 *l = priv;

	/* the way back reaches the L2 at r->t: its request's latency ends */
	sm->ctr.v[NG_CTR_L2_REQ_TICKS] += r->t;
	if (!(r->flags & NG_REQ_FILL))
		return;
	/*
	 * a write-back it causes is booked from the request's issue: the
	 * SM books a server in time order, and the fill's time is later
	 * than its next requests'
	 */
	fill(l, sm, r->gpu, r->line, r->src,
	     r->home == r->gpu ? LOCAL_EPOCH : l->c[r->gpu].epoch, false, r->t0);
	if (r->home == NG_HOME_HOST)
		l->c[r->gpu].host = true;
}

/*
 * A request to the GPU's own memory (l2-local): a load the L2 holds is
 * served at its latency, one it does not goes on to the memory and is
 * filled on the way back; a store is taken in (write-back, allocating
 * without a read: the word masks say what it wrote). Atomics happen at
 * the memory. The request still goes on, through the coherence
 * components, to the memory, which NG_REQ_HELD tells not to charge.
 */
static bool local_access(struct l2 *l, struct ng_sm *sm, struct ng_req *r)
{
	struct l2_cache *lc = &l->c[r->gpu];
	unsigned int set = set_of(l, r->line);
	int e = find(l, lc, set, r->line, LOCAL_EPOCH);

	if (r->op != NG_OP_LOAD && r->op != NG_OP_STORE)
		return false;
	r->t += l->hit;
	if (e >= 0) {
		size_t i = (size_t)set * l->ways + (unsigned int)e;

		lc->lru[i] = ++lc->stamp[set];
		if (r->op == NG_OP_STORE)
			lc->dirty[i] = 1;
		r->flags |= NG_REQ_HELD | NG_REQ_L2_HIT;
		sm->ctr.v[NG_CTR_L2_LOCAL_HIT]++;
		return false;
	}
	sm->ctr.v[NG_CTR_L2_LOCAL_MISS]++;
	if (r->op == NG_OP_LOAD) {
		r->flags |= NG_REQ_FILL;
		return false;
	}
	fill(l, sm, r->gpu, r->line, NULL, LOCAL_EPOCH, true, r->t0);
	r->flags |= NG_REQ_HELD;
	return false;
}

static bool l2_access(void *priv, struct ng_sm *sm, struct ng_req *r)
{
	struct l2 *l = priv;
	struct l2_cache *lc = &l->c[r->gpu];
	unsigned int set;
	int e;

	/*
	 * REC's Fig. 16 "L2 cache lookup latency" (MGPUSim's average
	 * request latency of an L2): from here to the response's way back
	 * through l2_respond(), which every request that ran this sees
	 */
	sm->ctr.v[NG_CTR_L2_REQS]++;
	sm->ctr.v[NG_CTR_L2_REQ_TICKS] -= r->t;
	if (r->home == r->gpu)
		return local_access(l, sm, r);
	set = set_of(l, r->line);
	e = find(l, lc, set, r->line, lc->epoch);
	switch (r->op) {
	case NG_OP_LOAD:
		if (e >= 0) {
			lc->lru[(size_t)set * l->ways + (unsigned int)e] =
				++lc->stamp[set];
			memcpy(sm->linebuf, data_of(l, lc, set, e), l->line);
			r->src = sm->linebuf;
			r->t += l->hit;
			sm->ctr.v[NG_CTR_L2_HIT]++;
			return true;
		}
		r->flags |= NG_REQ_FILL;
		/*
		 * The fill (l2_respond) picks its victim by the set's LRU
		 * stamps, which a lookup does not read: fetch them while
		 * the request goes on to the home.
		 */
		__builtin_prefetch(&lc->lru[(size_t)set * l->ways], 1);
		r->t += l->hit;
		sm->ctr.v[NG_CTR_L2_MISS]++;
		{
			uint64_t li = (r->line - l->base) >> l->line_shift;

			/* REC counts misses without cold ones */
			if (!(lc->seen[li / 64] >> (li % 64) & 1))
				sm->ctr.v[NG_CTR_L2_COLD]++;
		}
		break;
	case NG_OP_STORE:
		/* write-through: refresh our copy's words from the home */
		if (e >= 0) {
			ng_req_copy(r, TAG_IMST(lc->meta[(size_t)set * l->ways +
							 (unsigned int)e]));
			unsigned char *d = data_of(l, lc, set, e);
			const unsigned char *h = (const unsigned char *)(r->line + sm->view_delta);

			for (uint64_t mk = r->mask; mk; mk &= mk - 1) {
				unsigned int w = (unsigned int)__builtin_ctzll(mk);

				memcpy(d + 4 * w, h + 4 * w, 4);
			}
			sm->ctr.v[NG_CTR_L2_WUPD]++;
		} else if (l->walloc) {
			/*
			 * REC: a remote write is performed in the writer's
			 * L2 too, which the directory records as a sharer;
			 * the rest of the line comes with it (the home has
			 * it all, the store went there first).
			 */
			fill(l, sm, r->gpu, r->line,
			     (const void *)(r->line + sm->view_delta),
			     lc->epoch, false, r->t);
			if (r->home == NG_HOME_HOST)
				lc->host = true;
			sm->ctr.v[NG_CTR_L2_WALLOC]++;
		}
		break;
	default:
		/* atomics happen at the home; our copy would be stale */
		if (e >= 0) {
			l2_tag *t = &lc->meta[(size_t)set * l->ways + (unsigned int)e];

			ng_req_copy(r, TAG_IMST(*t));
			*t = 0;
		}
		break;
	}
	return false;
}

/* Drop the host lines of @lc (the coherent ones stay); how many there were. */
static uint64_t drop_host_lines(struct l2 *l, struct l2_cache *lc)
{
	size_t n = (size_t)l->nsets * l->ways;
	uint64_t dropped = 0;

	for (size_t i = 0; i < n; i++) {
		l2_tag t = lc->meta[i];
		uintptr_t line = (uintptr_t)(t >> 22) << l->line_shift;

		if (t && TAG_EPOCH(t) == lc->epoch &&
		    ng_space_peek(l->m->space, line) == NG_HOME_HOST) {
			lc->meta[i] = 0;
			dropped++;
		}
	}
	lc->host = false;
	return dropped;
}

/* Every valid line of @lc but the local ones dropped at once; how many. */
static uint64_t flush(struct l2 *l, struct l2_cache *lc)
{
	size_t n = (size_t)l->nsets * l->ways;
	uint64_t valid = 0;

	for (size_t i = 0; i < n; i++)
		valid += lc->meta[i] && TAG_EPOCH(lc->meta[i]) == lc->epoch;
	lc->epoch = (lc->epoch + 1) & EPOCH_MASK;
	if (lc->epoch == LOCAL_EPOCH) {
		/* roll-over: every tag but the local lines' cleared */
		for (size_t i = 0; i < n; i++)
			if (TAG_EPOCH(lc->meta[i]) != LOCAL_EPOCH)
				lc->meta[i] = 0;
		lc->epoch = 1;
	}
	lc->host = false;
	return valid;
}

static void l2_kernel_end(void *priv, struct ng_sm *const *sms, unsigned int nsm)
{
	struct l2 *l = priv;

	for (unsigned int g = 0; g < l->ngpus; g++) {
		struct l2_cache *lc = &l->c[g];
		uint64_t n;

		/* hardware coherence keeps remote lines across kernels */
		if (!l->keep)
			n = flush(l, lc);
		else if (lc->host)
			n = drop_host_lines(l, lc);
		else
			continue;
		/* charge the flush to the GPU's first SM */
		for (unsigned int s = 0; s < nsm; s++)
			if (sms[s]->gpu == g) {
				sms[s]->ctr.v[NG_CTR_L2_INVAL] += n;
				break;
			}
	}
}

static bool l2_invalidate(void *priv, unsigned int gpu, uintptr_t line)
{
	struct l2 *l = priv;
	struct l2_cache *lc = &l->c[gpu];
	unsigned int set = set_of(l, line);
	int e;

	e = find(l, lc, set, line, lc->epoch);
	if (e >= 0) {
		lc->meta[(size_t)set * l->ways + (unsigned int)e] = 0;
		l->m->gctr[gpu].v[NG_CTR_L2_COH_INVAL]++;
		return true;
	}
	return false;
}

static bool l2_enabled(const struct ng_config *c)
{
	return ng_l2_on(&c->l2);
}

/* "dir, 8192 entries x 52 bits (52.0 KiB)": the directory keeping it */
static void describe_directory(const struct ng_config *c, FILE *f)
{
	struct ng_dir_geom g;
	char b1[32], b2[32];

	if (ng_dir_geometry(c, &g, NULL, 0))
		return;
	fprintf(f, ", coherent by a directory (%s",
		ng_directory_names[c->dir.kind]);
	if (c->dir.kind == NG_DIR_REC)
		fprintf(f, " of %s ranges",
			ng_format_bytes(c->dir.rec_range, b1, sizeof(b1)));
	fprintf(f, ", %u entries x %u bits = %s, %u-way %s)", c->dir.entries,
		g.bits, ng_format_bytes(g.storage_bits / 8, b2, sizeof(b2)),
		c->dir.ways, ng_dir_policy_names[c->dir.policy]);
}

/* Its size, the lines it holds and how they are kept coherent. */
static void l2_describe(const struct ng_config *c, FILE *f)
{
	char b[32];

	fprintf(f, "L2 %s/GPU of %s lines",
		ng_format_bytes(c->l2.size, b, sizeof(b)),
		c->l2.local ? "local, remote and host" : "remote and host");
	if (ng_dir_enabled(c))
		describe_directory(c, f);
	else if (c->dir.kind == NG_DIR_NONE)
		fprintf(f, ", kept with no coherence");
	else if (!ng_hwc_enabled(c))
		fprintf(f, ", flushed per kernel");
	fprintf(f, "; ");
}

static bool l2_sees_local(const struct ng_config *c)
{
	return c->l2.local;
}

static const struct ng_key l2_keys[] = {
	NG_KEY_NUM("l2-size", NG_KEY_SIZE, l2.size, 0, (double)(1ULL << 32),
		   "L2 per GPU caching remote lines (0: off)"),
	NG_KEY_NUM("l2-ways", NG_KEY_UINT, l2.ways, 1, 64,
		   "L2 associativity"),
	NG_KEY_NUM("l2-latency", NG_KEY_DOUBLE, l2.latency_ns, 0, 1e6,
		   "L2 hit latency, ns"),
	NG_KEY_NUM("l2-local", NG_KEY_BOOL, l2.local, 0, 0,
		   "the L2 caches the GPU's own memory's lines too, write-back (no: remote and host lines only)"),
	{ .name = NULL },
};

/* remote and host lines the L2 held: served without the link */
static const unsigned int l2_off_link[] = { NG_CTR_L2_HIT, NG_CTR_MAX };

const struct ng_component ng_l2_component = {
	.name = "l2",
	.desc = "per-GPU L2: local lines (l2-local, write-back, kept) and remote and host lines (write-through; flushed at kernel boundaries, or kept coherent by HWC or a directory, host lines still dropped)",
	.keys = l2_keys,
	.counters = "l2",
	.off_link = l2_off_link,
	.enabled = l2_enabled,
	.describe = l2_describe,
	.remote_only = true,
	.sees_local = l2_sees_local,
	.create = l2_create,
	.destroy = l2_destroy,
	.access = l2_access,
	.respond = l2_respond,
	.kernel_end = l2_kernel_end,
	.invalidate = l2_invalidate,
};
