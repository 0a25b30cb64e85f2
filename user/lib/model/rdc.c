// SPDX-License-Identifier: GPL-2.0
/*
 * CARVE (sec. IV-A): the Remote Data Cache, a direct-mapped,
 * line-granular cache of *remote* lines carved out of each GPU's own
 * memory, with real copies of the data (so a coherence mistake gives a
 * wrong result) and the tag/valid/epoch/IMST bits of every line in a
 * sidecar word packed as the spare ECC bits (sidecar.h). It sits after
 * the L2: a remote load that misses the L2 reads the RDC line (a local
 * memory access, serial with the remote fetch on a miss: an RDC makes a
 * missing access slower), and a miss fills it on the way back (a local
 * memory write, off the critical path). Write-through: stores go to the
 * home; a GPU's own store refreshes its copy.
 *
 * Coherence (cfg->rdc.coherence):
 *  - none: copies live until evicted; a line another GPU rewrote is read
 *    stale. An upper bound, and a real mistake.
 *  - swc: a 20-bit epoch per GPU (one kernel stream), stored with every
 *    insert; a hit needs equal epochs; a kernel boundary bumps the epoch,
 *    which invalidates everything at once; on roll-over every sidecar is
 *    cleared.
 *  - hwc: GPU-VI with the IMST, as carve_coherence.c keeps it at the
 *    home; this cache keeps the IMST copy of each line in its sidecar
 *    word (for the writer's broadcast decision) and drops lines when
 *    invalidated.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "model/model_impl.h"
#include "ngemu/model/hwc.h"
#include "ngemu/model/model.h"
#include "ngemu/model/rdc.h"
#include "ngemu/model/sidecar.h"
#include "ngemu/util/err.h"
#include "ngemu/util/format.h"
#include "util/util.h"

struct rdc_cache {
	unsigned char *data;		/* the carve-out */
	_Atomic uint64_t *sc;		/* sidecar, one 56-bit word per line */
	uint32_t epoch;
};

struct rdc {
	struct ng_model *m;
	unsigned int ngpus, line, line_shift;
	uint64_t nlines;
	int nlines_shift;	/* log2(nlines) when a power of two, else -1 */
	int tag_bits;
	enum ng_coherence coh;
	struct rdc_cache c[NG_MAX_GPUS];
};

static void rdc_destroy(void *priv)
{
	struct rdc *d = priv;

	if (!d)
		return;
	for (unsigned int g = 0; g < d->ngpus; g++) {
		ng_space_uncarve(d->m->space, d->c[g].data,
				 d->nlines * d->line);
		ng_table_free((void *)d->c[g].sc, d->nlines * sizeof(uint64_t));
	}
	free(d);
}

static int rdc_create(struct ng_model *m, void **priv, char *err, size_t errlen)
{
	const struct ng_config *c = m->cfg;
	struct rdc *d = calloc(1, sizeof(*d));
	uint64_t space_lines;
	int ret;

	if (!d)
		goto nomem;
	d->m = m;
	d->line = c->line;
	d->line_shift = (unsigned int)__builtin_ctz(c->line);
	d->nlines = c->rdc.size / c->line;
	d->coh = c->rdc.coherence;
	d->nlines_shift = d->nlines && !(d->nlines & (d->nlines - 1)) ?
			  __builtin_ctzll(d->nlines) : -1;
	space_lines = m->space->size >> d->line_shift;
	d->tag_bits = ng_sc_tag_bits(space_lines, d->nlines);
	if (d->tag_bits < 0) {
		ng_seterr(err, errlen,
			  "rdc-size: %llu lines cannot cache %llu lines of address space: the tag needs more than the %d bits left in the 56 spare ECC bits",
			  (unsigned long long)d->nlines,
			  (unsigned long long)space_lines, NG_SC_TAG_MAX_BITS);
		free(d);
		return -EINVAL;
	}
	for (unsigned int g = 0; g < c->gpus; g++) {
		struct rdc_cache *rc = &d->c[g];

		ret = ng_space_carve(m->space, g, d->nlines * d->line,
				     (void **)&rc->data, err, errlen);
		if (ret) {
			rdc_destroy(d);
			return ret;
		}
		d->ngpus = g + 1;
		/* zero pages on demand: a 2 GB RDC's sidecar is 128 MB */
		rc->sc = ng_table_alloc(d->nlines * sizeof(uint64_t));
		if (!rc->sc)
			goto nomem;
	}
	*priv = d;
	return 0;
nomem:
	rdc_destroy(d);
	ng_seterr(err, errlen, "out of memory for the RDC model");
	return -ENOMEM;
}

static inline uint64_t line_index(const struct rdc *d, uintptr_t line)
{
	return (line - (uintptr_t)d->m->space->base) >> d->line_shift;
}

/*
 * Direct-mapped: slot and tag of line index @li. Every request needs
 * them; a shift and a mask for the usual power-of-two size, not two
 * 64-bit divisions.
 */
static inline uint64_t slot_of(const struct rdc *d, uint64_t li, uint64_t *tag)
{
	if (d->nlines_shift >= 0) {
		*tag = li >> d->nlines_shift;
		return li & (d->nlines - 1);
	}
	*tag = li / d->nlines;
	return li % d->nlines;
}

static inline unsigned char *data_of(const struct rdc *d,
				     const struct rdc_cache *rc, uint64_t slot)
{
	return rc->data + slot * d->line;
}

/* A line access in a GPU's own memory that nothing waits for. */
static void charge_mem_bg(struct ng_sm *sm, unsigned int gpu, ng_ticks t)
{
	struct ng_model *m = sm->model;

	(void)ng_reserve_dur(sm, ng_res_mem(m, gpu), t, m->mem_line_dur);
	sm->ctr.v[NG_CTR_MEM_ACC]++;
}

static bool rdc_access(void *priv, struct ng_sm *sm, struct ng_req *r)
{
	struct rdc *d = priv;
	struct ng_model *m = sm->model;
	struct rdc_cache *rc;
	uint64_t li, slot, tag, w;
	ng_ticks s;

	if (r->home >= NG_HOME_HOST)
		return false;		/* host memory is not cached here */
	if (r->home == r->gpu)
		return false;		/* never holds a local line */
	li = line_index(d, r->line);
	rc = &d->c[r->gpu];
	slot = slot_of(d, li, &tag);
	w = atomic_load_explicit(&rc->sc[slot], memory_order_relaxed);
	switch (r->op) {
	case NG_OP_LOAD:
		if (ng_sc_hit(w, tag, rc->epoch)) {
			memcpy(sm->linebuf, data_of(d, rc, slot), d->line);
			r->src = sm->linebuf;
			s = ng_reserve_dur(sm, ng_res_mem(m, r->gpu), r->t,
					   m->mem_line_dur);
			r->t = s + m->mem_line_dur + m->mem_latency;
			sm->ctr.v[NG_CTR_RDC_HIT]++;
			sm->ctr.v[NG_CTR_MEM_ACC]++;
			return true;
		}
		/*
		 * The probe reads the line and its ECC, then the request goes
		 * remote. The fill's write is reserved now too: an SM's
		 * reservations must not jump to the far completion time, or
		 * its later requests would queue behind it (resource.h).
		 */
		s = ng_reserve_dur(sm, ng_res_mem(m, r->gpu), r->t,
				   2 * m->mem_line_dur);
		r->t = s + m->mem_line_dur + m->mem_latency;
		sm->ctr.v[NG_CTR_RDC_MISS]++;
		sm->ctr.v[NG_CTR_MEM_ACC] += 2;
		r->flags |= NG_REQ_RDC_FILL;
		return false;
	case NG_OP_STORE:
		/* write-through: our copy takes the words the home now has */
		if (ng_sc_hit(w, tag, rc->epoch)) {
			ng_req_copy(r, ng_sc_imst(w));
			unsigned char *dd = data_of(d, rc, slot);
			const unsigned char *h = (const unsigned char *)(r->line + sm->view_delta);

			for (uint64_t mk = r->mask; mk; mk &= mk - 1) {
				unsigned int wd = (unsigned int)__builtin_ctzll(mk);

				memcpy(dd + 4 * wd, h + 4 * wd, 4);
			}
			charge_mem_bg(sm, r->gpu, r->t);
			sm->ctr.v[NG_CTR_RDC_WUPD]++;
			return false;
		}
		break;
	default:
		/* atomics happen at the home: our copy would be stale */
		if (ng_sc_hit(w, tag, rc->epoch)) {
			ng_req_copy(r, ng_sc_imst(w));
			atomic_store_explicit(&rc->sc[slot], 0,
					      memory_order_relaxed);
		}
		break;
	}
	return false;
}

static void rdc_respond(void *priv, struct ng_sm *sm, struct ng_req *r)
{
	struct rdc *d = priv;
	struct rdc_cache *rc;
	uint64_t li, slot, tag, w;
	unsigned int imst;

	if (!(r->flags & NG_REQ_RDC_FILL))
		return;
	/* the home's sharing state as this read leaves it (HWC) */
	imst = ng_hwc_copy_state(d->m, r->line);
	rc = &d->c[r->gpu];
	li = line_index(d, r->line);
	slot = slot_of(d, li, &tag);
	w = atomic_load_explicit(&rc->sc[slot], memory_order_relaxed);
	if (((w >> NG_SC_VALID_SHIFT) & 1) &&
	    ((w >> NG_SC_EPOCH_SHIFT) & NG_SC_EPOCH_MASK) == rc->epoch &&
	    ((w >> NG_SC_TAG_SHIFT) & NG_SC_TAG_MASK) != tag)
		sm->ctr.v[NG_CTR_RDC_EVICT]++;
	memcpy(data_of(d, rc, slot), r->src, d->line);
	atomic_store_explicit(&rc->sc[slot], ng_sc_line(tag, rc->epoch, imst),
			      memory_order_relaxed);
	/* the insert's write to local memory was reserved with the probe */
	sm->ctr.v[NG_CTR_RDC_FILL]++;
}

static uint64_t valid_in_epoch(const struct rdc *d, const struct rdc_cache *rc)
{
	uint64_t n = 0;

	for (uint64_t i = 0; i < d->nlines; i++) {
		uint64_t w = atomic_load_explicit(&rc->sc[i], memory_order_relaxed);

		n += ((w >> NG_SC_VALID_SHIFT) & 1) &&
		     ((w >> NG_SC_EPOCH_SHIFT) & NG_SC_EPOCH_MASK) == rc->epoch;
	}
	return n;
}

static void epoch_bump(struct rdc *d, unsigned int g)
{
	struct rdc_cache *rc = &d->c[g];

	rc->epoch = (rc->epoch + 1) & NG_SC_EPOCH_MASK;
	/* roll-over: the memory controller resets every line */
	if (!rc->epoch)
		memset((void *)rc->sc, 0, d->nlines * sizeof(*rc->sc));
}

static void rdc_kernel_end(void *priv, struct ng_sm *const *sms,
			   unsigned int nsm)
{
	struct rdc *d = priv;

	if (d->coh != NG_COH_SWC)
		return;
	for (unsigned int g = 0; g < d->ngpus; g++) {
		/* counting is a statistic only: small RDCs, or skip it */
		uint64_t valid = d->nlines <= (1u << 22) ?
				 valid_in_epoch(d, &d->c[g]) : 0;

		epoch_bump(d, g);
		for (unsigned int s = 0; s < nsm; s++)
			if (sms[s]->gpu == g) {
				sms[s]->ctr.v[NG_CTR_RDC_FLUSH] += valid;
				break;
			}
	}
}

static bool rdc_enabled(const struct ng_config *c)
{
	return ng_rdc_on(&c->rdc);
}

/* Its size per GPU, the share of memory it takes and its coherence. */
static void rdc_describe(const struct ng_config *c, FILE *f)
{
	char b[32];

	fprintf(f, "RDC %s/GPU (%.2f%% of memory), coherence %s; ",
		ng_format_bytes(c->rdc.size, b, sizeof(b)),
		100.0 * (double)c->rdc.size / (double)c->mem_per_gpu,
		c->rdc.coherence == NG_COH_HWC ? "HWC (GPU-VI, IMST)" :
		c->rdc.coherence == NG_COH_SWC ? "SWC (epochs)" : "none");
}

/* HWC (carve_coherence.c): drop @line from @gpu's RDC. */
static bool rdc_invalidate(void *priv, unsigned int gpu, uintptr_t line)
{
	struct rdc *d = priv;
	struct rdc_cache *rc = &d->c[gpu];
	uint64_t li = line_index(d, line);
	uint64_t tag, slot = slot_of(d, li, &tag), w;

	w = atomic_load_explicit(&rc->sc[slot], memory_order_relaxed);
	if ((w >> NG_SC_VALID_SHIFT & 1) &&
	    ((w >> NG_SC_TAG_SHIFT) & NG_SC_TAG_MASK) == tag) {
		atomic_store_explicit(&rc->sc[slot], 0, memory_order_relaxed);
		d->m->gctr[gpu].v[NG_CTR_RDC_INVAL]++;
		return true;
	}
	return false;
}

static const struct ng_key rdc_keys[] = {
	{ .name = "rdc-size", .type = NG_KEY_SIZE_PCT,
	  .off = NG_KEY_OFF(rdc.size), .pct_off = NG_KEY_OFF(rdc.pct),
	  .min = 0, .max = (double)(1ULL << 40),
	  .help = "CARVE remote data cache per GPU, carved out of its memory: bytes or a % of it (0: off)" },
	NG_KEY_CHOICE("coherence", rdc.coherence, ng_coherence_names,
		      "RDC coherence: none, swc, hwc"),
	{ .name = NULL },
};

/* remote lines the RDC held: served without the link */
static const unsigned int rdc_off_link[] = { NG_CTR_RDC_HIT, NG_CTR_MAX };

const struct ng_component ng_rdc_component = {
	.name = "rdc",
	.desc = "CARVE remote data cache in local memory, ECC sidecar, none/SWC/HWC coherence",
	.keys = rdc_keys,
	.counters = "rdc",
	.off_link = rdc_off_link,
	.enabled = rdc_enabled,
	.describe = rdc_describe,
	.remote_only = true,
	.create = rdc_create,
	.destroy = rdc_destroy,
	.access = rdc_access,
	.respond = rdc_respond,
	.kernel_end = rdc_kernel_end,
	.invalidate = rdc_invalidate,
};

/* ---- inspection, for tests and reports ---------------------------- */

static struct rdc *rdc_of(const struct ng_model *m)
{
	return ng_model_priv(m, &ng_rdc_component);
}

int ng_rdc_info(const struct ng_model *m, struct ng_rdc_info *out)
{
	struct rdc *d = rdc_of(m);

	memset(out, 0, sizeof(*out));
	if (!d)
		return -ENOENT;
	out->lines = d->nlines;
	out->tag_bits = (unsigned int)d->tag_bits;
	out->carve_bytes = d->nlines * d->line * d->ngpus;
	return 0;
}

int ng_rdc_lookup(const struct ng_model *m, unsigned int gpu, uintptr_t line,
		  uint64_t *sidecar, const void **data)
{
	struct rdc *d = rdc_of(m);
	uint64_t li, slot, tag, w;

	if (!d || gpu >= d->ngpus)
		return -ENOENT;
	li = line_index(d, line);
	slot = slot_of(d, li, &tag);
	w = atomic_load_explicit(&d->c[gpu].sc[slot], memory_order_relaxed);
	if (sidecar)
		*sidecar = w;
	if (data)
		*data = data_of(d, &d->c[gpu], slot);
	return ng_sc_hit(w, tag, d->c[gpu].epoch);
}

int ng_rdc_valid_lines(const struct ng_model *m, unsigned int gpu,
		       uint64_t *n)
{
	struct rdc *d = rdc_of(m);

	if (!d || gpu >= d->ngpus)
		return -ENOENT;
	*n = valid_in_epoch(d, &d->c[gpu]);
	return 0;
}

int ng_rdc_epoch(const struct ng_model *m, unsigned int gpu, uint32_t *epoch,
		 const uint32_t *set)
{
	struct rdc *d = rdc_of(m);

	if (!d || gpu >= d->ngpus)
		return -ENOENT;
	if (set)
		d->c[gpu].epoch = *set & NG_SC_EPOCH_MASK;
	if (epoch)
		*epoch = d->c[gpu].epoch;
	return 0;
}
