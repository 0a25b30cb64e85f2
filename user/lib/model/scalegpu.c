// SPDX-License-Identifier: GPL-2.0
/*
 * ScaleGPU (CAL 2013, sec. 3): each GPU's device memory
 * is a cache of host memory. Buffers live in host memory (placement host,
 * as large as the host has); a GPU's requests for them go to its memory
 * first, which keeps one tag per DRAM row (tag-bytes of data, 2 KB by
 * default, 256 B to 2 KB studied), direct-mapped: the row's slot is its
 * number modulo the rows that device-mem holds. Tags sit in banks of
 * their own (a sidecar, as the paper's separate tag banks): a tag read is
 * a 64 B DRAM access, in parallel with the data's.
 *
 * A tag miss of a read or atomic goes to the tag miss handler (Fig. 2a)
 * of the row's memory partition (tmh-units of them: the paper's six
 * memory controllers, rows interleaved across them):
 * it takes one of tmh-queue pending-queue entries until it is replayed;
 * the first miss to a row sends one fetch of the whole row to the host and
 * takes one of tmh-scoreboard scoreboard entries until the row arrives;
 * later misses to that row only wait for it. A full queue or scoreboard
 * holds the SM until an entry frees. Writes (Fig. 2b): to a row not in
 * device memory (cold) they are written there and also sent to the host;
 * to a slot holding another row (conflict) they are relayed to the host
 * and acknowledged at once; to a held row they stay in device memory, and
 * the row's dirty 64 B sectors go back to the host when it is replaced
 * (the paper does not say; a write-back cache must).
 *
 * Real data: each slot holds a copy of its row. The host copy is always
 * current (runtime/warp.c writes through to the home first), so a copy
 * taken at a fetch is the row as it is then, and a write or atomic
 * refreshes the held copy's words from the home. A row only partly
 * written while not held is held with only those sectors valid; a read of
 * another sector fetches the row.
 *
 * The paper has one GPU. With more, each caches the host on its own: a
 * row one GPU wrote in a kernel is dropped by every other GPU at the
 * kernel's end, its dirty sectors written back first (the software
 * coherence GPUs keep at kernel boundaries).
 *
 * The device memory is sized at a GPU's first request, when the buffers
 * are allocated: device-mem bytes per GPU, or device-mem % of the data
 * (every buffer's bytes). The counters' reset (before the timed kernels)
 * empties it: the host wrote the data, and the GPU starts cold.
 *
 * A GPU's slots and TMH are touched only by its SMs, which one host
 * thread steps: no lock. Times in the TMH are absolute (time_base + t),
 * as the kernels' own restart at 0.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "model/link.h"
#include "ngemu/model/model.h"
#include "ngemu/util/err.h"
#include "ngemu/util/format.h"
#include "util/util.h"

#define SG_SECTOR	64	/* the DRAM's access granularity */
#define SG_TAG_BYTES	64	/* a tag read: one DRAM access */
#define SG_MAX_TMH	256
#define SG_MAX_PARTS	16

struct sg_sb {
	uint64_t row;		/* row number + 1 */
	uint64_t arrive;	/* absolute */
};

struct sg_gpu {
	uint64_t nrows;		/* 0: not sized yet */
	uint64_t *tag;		/* per slot: row number + 1; 0: empty */
	uint64_t *ready;	/* per slot: when its data arrives (absolute) */
	uint32_t *valid;	/* per slot: sectors held */
	uint32_t *dirty;	/* per slot: sectors written since the fetch */
	unsigned char *data;
	/* per memory partition: pending entries' release (absolute) */
	uint64_t queue[SG_MAX_PARTS][SG_MAX_TMH];
	struct sg_sb sb[SG_MAX_PARTS][SG_MAX_TMH];
	/* rows written in this kernel (more than one GPU: kernel_end) */
	uint64_t *written;
	size_t nwritten, capwritten;
};

struct scalegpu {
	struct ng_model *m;
	unsigned int ngpus, tb, sectors;
	ng_ticks tag_dur, row_dur;
	struct sg_gpu g[NG_MAX_GPUS];
};

static void sg_free_rows(struct sg_gpu *g, unsigned int tb)
{
	ng_table_free(g->tag, g->nrows * sizeof(*g->tag));
	ng_table_free(g->ready, g->nrows * sizeof(*g->ready));
	ng_table_free(g->valid, g->nrows * sizeof(*g->valid));
	ng_table_free(g->dirty, g->nrows * sizeof(*g->dirty));
	ng_table_free(g->data, g->nrows * tb);
	g->tag = NULL;
	g->ready = NULL;
	g->valid = NULL;
	g->dirty = NULL;
	g->data = NULL;
	g->nrows = 0;
}

static void sg_destroy(void *priv)
{
	struct scalegpu *d = priv;

	if (!d)
		return;
	for (unsigned int i = 0; i < d->ngpus; i++) {
		sg_free_rows(&d->g[i], d->tb);
		free(d->g[i].written);
	}
	free(d);
}

static int sg_create(struct ng_model *m, void **priv, char *err,
		     size_t errlen)
{
	const struct ng_config *c = m->cfg;
	struct scalegpu *d = calloc(1, sizeof(*d));

	if (!d) {
		ng_seterr(err, errlen, "out of memory for the ScaleGPU model");
		return -ENOMEM;
	}
	d->m = m;
	d->ngpus = m->ngpus;
	d->tb = c->sg.tag_bytes;
	d->sectors = c->sg.tag_bytes / SG_SECTOR;
	d->tag_dur = ng_cost(m, ng_res_mem(m, 0), SG_TAG_BYTES);
	d->row_dur = ng_cost(m, ng_res_mem(m, 0), c->sg.tag_bytes);
	*priv = d;
	return 0;
}

/* The rows of a GPU's device memory, from the data now allocated. */
static int sg_size(struct scalegpu *d, struct sg_gpu *g)
{
	const struct ng_config *c = d->m->cfg;
	const struct ng_space *sp = d->m->space;
	uint64_t bytes = c->sg.device_mem;

	if (c->sg.device_mem_pct > 0)
		bytes = (uint64_t)((double)(sp->allocated + sp->host_allocated) *
				   c->sg.device_mem_pct / 100);
	g->nrows = bytes / d->tb ? bytes / d->tb : 1;
	g->tag = ng_table_alloc(g->nrows * sizeof(*g->tag));
	g->ready = ng_table_alloc(g->nrows * sizeof(*g->ready));
	g->valid = ng_table_alloc(g->nrows * sizeof(*g->valid));
	g->dirty = ng_table_alloc(g->nrows * sizeof(*g->dirty));
	g->data = ng_table_alloc(g->nrows * d->tb);
	if (!g->tag || !g->ready || !g->valid || !g->dirty || !g->data) {
		sg_free_rows(g, d->tb);
		return -ENOMEM;
	}
	return 0;
}

/* Sectors of a row that words @mask of the line at @off touch. */
static uint32_t sg_sectors(uint64_t off, uint64_t mask)
{
	uint32_t s = 0;

	for (; mask; mask &= mask - 1) {
		uint64_t b = off + 4 * (uint64_t)__builtin_ctzll(mask);

		s |= 1u << (b / SG_SECTOR);
	}
	return s;
}

/* The home's words @r->mask, into the held copy of the row at @dst. */
static void sg_take_words(struct ng_sm *sm, const struct ng_req *r,
			  unsigned char *dst)
{
	const unsigned char *h = (const unsigned char *)(r->line +
							  sm->view_delta);

	for (uint64_t mk = r->mask; mk; mk &= mk - 1) {
		unsigned int w = (unsigned int)__builtin_ctzll(mk);

		memcpy(dst + 4 * w, h + 4 * w, 4);
	}
}

static void sg_log_write(struct scalegpu *d, struct sg_gpu *g, uint64_t row)
{
	if (d->ngpus < 2 || (g->nwritten && g->written[g->nwritten - 1] == row))
		return;
	if (ng_grow((void **)&g->written, &g->capwritten, g->nwritten + 1,
		    sizeof(*g->written)))
		g->written[g->nwritten++] = row;
}

/* Device memory's access of a line (tag in parallel): its completion. */
static ng_ticks sg_dram(struct ng_sm *sm, struct scalegpu *d, ng_ticks t)
{
	struct ng_model *m = sm->model;
	ng_ticks s = ng_reserve_dur(sm, ng_res_mem(m, sm->gpu), t,
				    m->mem_line_dur + d->tag_dur);

	sm->ctr.v[NG_CTR_MEM_ACC]++;
	return s + m->mem_line_dur + d->tag_dur + m->mem_latency;
}

/*
 * Hold the SM until one of @n entries, busy until @busy[i] (absolute),
 * is free at kernel time @t; returns the entry and moves @t on.
 */
static unsigned int sg_entry(struct ng_sm *sm, const uint64_t *busy,
			     size_t stride, unsigned int n, ng_ticks *t)
{
	uint64_t now = sm->time_base + *t, first = UINT64_MAX;
	unsigned int best = 0;

	for (unsigned int i = 0; i < n; i++) {
		uint64_t b = *(const uint64_t *)((const char *)busy + i * stride);

		if (b <= now)
			return i;
		if (b < first) {
			first = b;
			best = i;
		}
	}
	sm->ctr.v[NG_CTR_SG_STALL] += first - now;
	*t = first - sm->time_base;
	if (sm->now < *t)
		sm->now = *t;
	return best;
}

/* Write back slot @i's dirty sectors (GPU to host, from @t). */
static void sg_writeback(struct ng_sm *sm, struct sg_gpu *g, uint64_t i,
			 ng_ticks t)
{
	uint64_t bytes = (uint64_t)__builtin_popcount(g->dirty[i]) * SG_SECTOR;

	if (!bytes)
		return;
	(void)ng_host_xfer(sm, false, t, bytes);
	sm->ctr.v[NG_CTR_SG_WB_BYTES] += bytes;
	g->dirty[i] = 0;
}

/*
 * A read or atomic that missed (Fig. 2a): a pending entry, then the
 * row's fetch or the wait for one in flight; the replay's completion.
 */
static ng_ticks sg_miss(struct ng_sm *sm, struct scalegpu *d,
			struct sg_gpu *g, uint64_t row, uint64_t i,
			ng_ticks t)
{
	const struct ng_scalegpu_config *c = &d->m->cfg->sg;
	/* rows interleave across the partitions, each with its TMH */
	unsigned int p = (unsigned int)(row % c->tmh_units);
	uint64_t *queue = g->queue[p];
	struct sg_sb *sb = g->sb[p], *e = NULL;
	unsigned int q = sg_entry(sm, queue, sizeof(*queue), c->tmh_queue, &t);
	uint64_t now = sm->time_base + t, arrive = 0;
	uint32_t all = d->sectors >= 32 ? ~0u : (1u << d->sectors) - 1;
	bool held = g->tag[i] == row + 1 && g->valid[i] == all;
	ng_ticks done;

	sm->ctr.v[NG_CTR_SG_MISS]++;
	/* a fetch of the row in flight, its slot not taken since */
	for (unsigned int k = 0; k < c->tmh_scoreboard && held; k++)
		if (sb[k].row == row + 1 && sb[k].arrive > now) {
			e = &sb[k];
			break;
		}
	if (e) {
		arrive = e->arrive;	/* the counter: wait for that fetch */
	} else if (held) {
		/*
		 * Arrived while the SM was held, or on its way with its
		 * scoreboard entry taken since by a request later in modeled
		 * time (blocks run up to a slice apart: runtime/pool.c).
		 */
		arrive = g->ready[i];
	} else {
		unsigned int k = sg_entry(sm, &sb[0].arrive, sizeof(*sb),
					  c->tmh_scoreboard, &t);
		ng_ticks at;

		if (g->tag[i])
			sg_writeback(sm, g, i, t);
		if (g->tag[i] && g->tag[i] != row + 1)
			sm->ctr.v[NG_CTR_SG_EVICT]++;
		/* a header to the host, the row back in packets */
		at = ng_host_xfer(sm, false, t, 0);
		at = ng_host_xfer(sm, true, at, d->tb);
		arrive = sm->time_base + at;
		sb[k] = (struct sg_sb){ .row = row + 1, .arrive = arrive };
		memcpy(g->data + i * d->tb,
		       (const void *)(sm->space_base + row * d->tb +
				      sm->view_delta), d->tb);
		g->tag[i] = row + 1;
		g->valid[i] = all;
		g->dirty[i] = 0;
		g->ready[i] = arrive;
		/* the row's DRAM write, booked now (resource.h: no far jumps) */
		(void)ng_reserve_dur(sm, ng_res_mem(d->m, sm->gpu), t, d->row_dur);
		sm->ctr.v[NG_CTR_SG_FETCH]++;
	}
	done = sg_dram(sm, d, t);
	if (done < arrive - sm->time_base + sm->model->mem_latency)
		done = arrive - sm->time_base + sm->model->mem_latency;
	queue[q] = sm->time_base + done;
	return done;
}

static bool sg_access(void *priv, struct ng_sm *sm, struct ng_req *r)
{
	struct scalegpu *d = priv;
	struct sg_gpu *g = &d->g[r->gpu];
	uint64_t off, row, i;
	uint32_t sec;
	unsigned char *copy;
	bool held;

	if (r->home != NG_HOME_HOST)
		return false;
	if (!g->nrows && sg_size(d, g))
		return false;	/* no memory for it: the host serves it */
	off = r->line - sm->space_base;
	row = off / d->tb;
	i = row % g->nrows;
	sec = sg_sectors(off % d->tb, r->mask);
	copy = g->data + i * d->tb + off % d->tb;
	held = g->tag[i] == row + 1;
	switch (r->op) {
	case NG_OP_LOAD:
	default:
		if (held && (g->valid[i] & sec) == sec &&
		    g->ready[i] <= sm->time_base + r->t) {
			r->t = sg_dram(sm, d, r->t);
			sm->ctr.v[NG_CTR_SG_HIT]++;
		} else {
			r->t = sg_miss(sm, d, g, row, i, r->t);
		}
		if (r->op == NG_OP_LOAD) {
			memcpy(sm->linebuf, copy, sm->model->cfg->line);
			r->src = sm->linebuf;
		} else {
			/* the atomic happened at the home: take its words */
			sg_take_words(sm, r, copy);
			g->dirty[i] |= sec;
			sg_log_write(d, g, row);
		}
		return true;
	case NG_OP_STORE:
		break;
	}
	if (held && (g->valid[i] & sec) == sec) {
		/* a hit: the write stays in device memory */
		r->t = sg_dram(sm, d, r->t);
		sg_take_words(sm, r, copy);
		g->dirty[i] |= sec;
		sm->ctr.v[NG_CTR_SG_HIT]++;
	} else if (held || !g->tag[i]) {
		/* cold: written here, and sent to the host */
		r->t = sg_dram(sm, d, r->t);
		sg_take_words(sm, r, copy);
		if (!held) {
			g->tag[i] = row + 1;
			g->valid[i] = 0;
			g->dirty[i] = 0;
			g->ready[i] = sm->time_base + r->t;
		}
		(void)ng_host_xfer(sm, false, r->t,
				   4 * (uint64_t)ng_popcount64(r->mask));
		sm->ctr.v[NG_CTR_SG_COLD_WR]++;
	} else {
		/* conflict: relayed to the host, acknowledged at once */
		ng_ticks s = ng_reserve_dur(sm, ng_res_mem(d->m, sm->gpu), r->t,
					    d->tag_dur);

		r->t = s + d->tag_dur + sm->model->mem_latency;
		(void)ng_host_xfer(sm, false, r->t,
				   4 * (uint64_t)ng_popcount64(r->mask));
		sm->ctr.v[NG_CTR_SG_CONFL_WR]++;
		return true;
	}
	sg_log_write(d, g, row);
	return true;
}

/* More than one GPU: rows a GPU wrote leave the others' memories. */
static void sg_kernel_end(void *priv, struct ng_sm *const *sms,
			  unsigned int nsm)
{
	struct scalegpu *d = priv;
	struct ng_model *m = d->m;

	for (unsigned int w = 0; w < d->ngpus; w++) {
		struct sg_gpu *g = &d->g[w];
		struct ng_sm *wsm = NULL;

		for (unsigned int s = 0; s < nsm && !wsm; s++)
			if (sms[s]->gpu == w)
				wsm = sms[s];
		for (size_t k = 0; k < g->nwritten; k++) {
			uint64_t row = g->written[k];
			bool shared = false;

			for (unsigned int o = 0; o < d->ngpus; o++) {
				struct sg_gpu *h = &d->g[o];
				uint64_t i = h->nrows ? row % h->nrows : 0;

				if (o == w || !h->nrows || h->tag[i] != row + 1)
					continue;
				h->tag[i] = 0;
				h->dirty[i] = 0;
				m->gctr[o].v[NG_CTR_SG_INVAL]++;
				shared = true;
			}
			if (shared && wsm && g->tag[row % g->nrows] == row + 1)
				sg_writeback(wsm, g, row % g->nrows, wsm->now);
		}
		g->nwritten = 0;
	}
}

/* Before the timed kernels: the host has the data, device memory none. */
static void sg_reset(void *priv)
{
	struct scalegpu *d = priv;

	for (unsigned int i = 0; i < d->ngpus; i++) {
		struct sg_gpu *g = &d->g[i];

		if (g->nrows) {
			memset(g->tag, 0, g->nrows * sizeof(*g->tag));
			memset(g->dirty, 0, g->nrows * sizeof(*g->dirty));
		}
		memset(g->queue, 0, sizeof(g->queue));
		memset(g->sb, 0, sizeof(g->sb));
		g->nwritten = 0;
	}
}

/*
 * On when device-mem is given, except for split code (host-copies
 * per-kernel, the data placed on the GPUs): there device-mem is the
 * memory the program was split for (workloads/bench.c), not a cache.
 */
static bool sg_enabled(const struct ng_config *c)
{
	return ng_scalegpu_on(&c->sg) &&
	       !(c->host_copies == NG_COPIES_PER_KERNEL &&
		 c->placement != NG_PLACE_HOST);
}

static int sg_validate(const struct ng_config *c, char *err, size_t errlen)
{
	if (c->placement != NG_PLACE_HOST) {
		ng_seterr(err, errlen,
			  "device-mem makes device memory a cache of host memory: it needs --placement host (or, for split code, --host-copies per-kernel)");
		return -EINVAL;
	}
	unsigned int tb = c->sg.tag_bytes;

	if (tb & (tb - 1) || tb < c->line || tb < SG_SECTOR) {
		ng_seterr(err, errlen,
			  "tag-bytes %u must be a power of two, at least the line (%u)",
			  tb, c->line);
		return -EINVAL;
	}
	return 0;
}

static const struct ng_key sg_keys[] = {
	{ .name = "device-mem", .type = NG_KEY_SIZE_PCT,
	  .off = NG_KEY_OFF(sg.device_mem), .pct_off = NG_KEY_OFF(sg.device_mem_pct),
	  .pct_max = 100, .min = 0, .max = (double)(1ULL << 40),
	  .help = "ScaleGPU: device memory per GPU caching host memory, bytes or a % of the data (0: off); with host-copies=per-kernel and the data on the GPUs, the memory the split code was split for" },
	NG_KEY_NUM("tag-bytes", NG_KEY_UINT, sg.tag_bytes, 64, 2048,
		   "ScaleGPU: data per tag (a DRAM row), bytes"),
	NG_KEY_NUM("tmh-queue", NG_KEY_UINT, sg.tmh_queue, 1, SG_MAX_TMH,
		   "ScaleGPU: the tag miss handler's pending queue entries"),
	NG_KEY_NUM("tmh-scoreboard", NG_KEY_UINT, sg.tmh_scoreboard, 1,
		   SG_MAX_TMH, "ScaleGPU: the tag miss handler's scoreboard entries"),
	NG_KEY_NUM("tmh-units", NG_KEY_UINT, sg.tmh_units, 1, SG_MAX_PARTS,
		   "ScaleGPU: memory partitions, each with a tag miss handler; rows interleave across them"),
	{ .name = NULL },
};

/* For ngemu bench: how much device memory caches the host's data, and how. */
static void sg_describe(const struct ng_config *c, FILE *f)
{
	char b[32];

	if (c->sg.device_mem_pct > 0)
		fprintf(f, "ScaleGPU device memory %g%% of the data", c->sg.device_mem_pct);
	else
		fprintf(f, "ScaleGPU device memory %s/GPU",
			ng_format_bytes(c->sg.device_mem, b, sizeof(b)));
	fprintf(f, " caching host memory, %u B per tag, TMH %u/%u x %u; ",
		c->sg.tag_bytes, c->sg.tmh_queue, c->sg.tmh_scoreboard,
		c->sg.tmh_units);
}

/* The tags' hit rate, the TMH's fetches and stalls, the host link's bytes. */
static void sg_report(const struct ng_config *c, const struct ng_counters *t,
		      FILE *f)
{
	uint64_t hits = t->v[NG_CTR_SG_HIT], miss = t->v[NG_CTR_SG_MISS];
	char b1[32], b2[32], b3[32], b4[32], b5[32], b6[32], b7[32];

	(void)c;
	fprintf(f, "scalegpu   tag hit rate %.1f%% of %s reads and atomics; %s rows fetched (%s misses waited for them), %s evicted; writes %s cold, %s relayed on conflict; host link %s; SM time held by a full TMH %.1f us\n",
		hits + miss ? 100.0 * (double)hits / (double)(hits + miss) : 0,
		ng_format_si((double)(hits + miss), b1, sizeof(b1)),
		ng_format_si((double)t->v[NG_CTR_SG_FETCH], b2, sizeof(b2)),
		ng_format_si((double)miss, b3, sizeof(b3)),
		ng_format_si((double)t->v[NG_CTR_SG_EVICT], b4, sizeof(b4)),
		ng_format_si((double)t->v[NG_CTR_SG_COLD_WR], b5, sizeof(b5)),
		ng_format_si((double)t->v[NG_CTR_SG_CONFL_WR], b6, sizeof(b6)),
		ng_format_bytes(t->v[NG_CTR_HOST_BYTES], b7, sizeof(b7)),
		(double)t->v[NG_CTR_SG_STALL] / NG_TICKS_PER_NS / 1e3);
}

/* host rows device memory held: served without the link */
static const unsigned int sg_off_link[] = { NG_CTR_SG_HIT, NG_CTR_MAX };

const struct ng_component ng_scalegpu_component = {
	.name = "scalegpu",
	.desc = "ScaleGPU: device memory as a cache of host memory, a tag per row, the tag miss handler",
	.keys = sg_keys,
	.counters = "scalegpu",
	.off_link = sg_off_link,
	.enabled = sg_enabled,
	.describe = sg_describe,
	.report = sg_report,
	.remote_only = true,
	.validate = sg_validate,
	.create = sg_create,
	.destroy = sg_destroy,
	.access = sg_access,
	.kernel_end = sg_kernel_end,
	.reset = sg_reset,
};
