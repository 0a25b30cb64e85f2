// SPDX-License-Identifier: GPL-2.0
/*
 * Page-access tracking (ngemu/model/page_access.h): per page, the block and
 * the GPU that touched it, or "several", and the distinct blocks that
 * touched it, up to 65 (a set of block ids per page); per line, its block
 * in the first timed kernel that touched it, or "several". A measurement, not
 * hardware: it routes nothing and costs no modeled time. Each entry only
 * moves from empty to one owner to "several" (a set only gains ids, its
 * count stops past 64), so the outcome does not
 * depend on the order of the accesses: it is as deterministic as the rest.
 * A page's first access is the earliest in modeled time (kernel, time,
 * GPU, reads first), not the first the host ran.
 */
#include <errno.h>
#include <stdlib.h>
#include <sys/mman.h>

#include "model/model_impl.h"
#include "ngemu/model/model.h"
#include "ngemu/model/page_access.h"
#include "ngemu/util/err.h"
#include "util/util.h"

#define ID_BITS		40
#define ID_MASK		((1ULL << ID_BITS) - 1)
#define SEVERAL		ID_MASK		/* of blocks */
#define GPU_SEVERAL	0xffULL

struct pageacc {
	struct ng_space *sp;
	unsigned int line_shift, page_shift;
	uint64_t nlines, npages;
	_Atomic uint64_t *line;		/* (kernel + 1) << 40 | block + 1 */
	_Atomic uint64_t *page;		/* (gpu + 1) << 40 | block + 1 */
	uint64_t kernel;		/* timed kernels ended since the reset */
	/* per page: the last kernel (+ 1) that read it (low half), wrote it */
	_Atomic uint32_t *rw;
	_Atomic uint8_t *written;	/* per page: WRITTEN */
	_Atomic uint64_t *first;	/* per page: ~first_key(), the first */
	_Atomic uint64_t cur_in, cur_out;	/* this kernel's pages */
	struct ng_copies copies;
	/* per page: SET_SLOTS block ids (+ 1, 0 empty), and how many */
	_Atomic uint32_t *set;
	_Atomic uint8_t *nblk;
};

/* Open addressing at most half full: 65 ids of 128 slots. */
#define SET_SLOTS	128
#define SET_FULL	(NG_PAGEACC_MAX_COUNTED + 1)

#define WRITTEN		4

/*
 * The order of a page's accesses: kernel, issue time, GPU, reads before
 * writes, in one word; a page keeps the complement of its smallest, so
 * that 0 is "untouched" and the outcome does not depend on the order in
 * which the host ran the GPUs.
 */
#define KEY_KERNEL_BITS	20
#define KEY_TIME_BITS	39
static uint64_t first_key(uint64_t kernel, uint64_t t, unsigned int gpu,
			  bool write)
{
	const uint64_t kmax = (1ULL << KEY_KERNEL_BITS) - 2;
	const uint64_t tmax = (1ULL << KEY_TIME_BITS) - 1;

	return (kernel < kmax ? kernel : kmax) << (KEY_TIME_BITS + 5) |
	       (t < tmax ? t : tmax) << 5 | (uint64_t)(gpu & 15) << 1 | write;
}

extern const struct ng_component ng_page_access_component;

static void pa_destroy(void *priv)
{
	struct pageacc *p = priv;

	if (!p)
		return;
	ng_table_free((void *)p->line, p->nlines * sizeof(*p->line));
	ng_table_free((void *)p->page, p->npages * sizeof(*p->page));
	ng_table_free((void *)p->rw, p->npages * sizeof(*p->rw));
	ng_table_free((void *)p->first, p->npages * sizeof(*p->first));
	ng_table_free((void *)p->written, p->npages * sizeof(*p->written));
	ng_table_free((void *)p->set, p->npages * SET_SLOTS * sizeof(*p->set));
	ng_table_free((void *)p->nblk, p->npages * sizeof(*p->nblk));
	free(p);
}

static int pa_create(struct ng_model *m, void **priv, char *err, size_t errlen)
{
	struct pageacc *p = calloc(1, sizeof(*p));

	if (!p)
		goto nomem;
	p->sp = m->space;
	p->line_shift = (unsigned int)__builtin_ctz(m->cfg->line);
	p->page_shift = m->space->page_shift;
	p->nlines = m->space->size >> p->line_shift;
	p->npages = m->space->size >> p->page_shift;
	/* untouched parts cost nothing: the tables are mapped on demand */
	p->line = ng_table_alloc(p->nlines * sizeof(*p->line));
	p->page = ng_table_alloc(p->npages * sizeof(*p->page));
	p->rw = ng_table_alloc(p->npages * sizeof(*p->rw));
	p->first = ng_table_alloc(p->npages * sizeof(*p->first));
	p->written = ng_table_alloc(p->npages * sizeof(*p->written));
	if (!p->line || !p->page || !p->rw || !p->first || !p->written)
		goto nomem;
	/*
	 * The blocks of each page only for the profile's report: host-copies
	 * runs (ScaleGPU's full and split) need the rest, not the sets'
	 * probes on every request
	 */
	if (m->cfg->page_profile) {
		p->set = ng_table_alloc(p->npages * SET_SLOTS * sizeof(*p->set));
		p->nblk = ng_table_alloc(p->npages * sizeof(*p->nblk));
		if (!p->set || !p->nblk)
			goto nomem;
	}
	*priv = p;
	return 0;
nomem:
	pa_destroy(p);
	ng_seterr(err, errlen, "out of memory for the page-access profile");
	return -ENOMEM;
}

/* The page's first access, whether written, and this kernel's copies. */
static void pa_copies(struct pageacc *p, uint64_t pg, const struct ng_req *r)
{
	bool rd = r->op != NG_OP_STORE, wr = r->op != NG_OP_LOAD;
	uint32_t k = (uint32_t)(p->kernel % 0xffff) + 1;
	uint64_t key = ~first_key(p->kernel, r->t0, r->gpu, !rd);
	uint64_t f = atomic_load_explicit(&p->first[pg], memory_order_relaxed);
	_Atomic uint32_t *e = &p->rw[pg];
	uint32_t old = atomic_load_explicit(e, memory_order_relaxed), nu;

	while (f < key &&
	       !atomic_compare_exchange_weak_explicit(&p->first[pg], &f, key,
						      memory_order_relaxed,
						      memory_order_relaxed))
		;
	if (wr && !(atomic_load_explicit(&p->written[pg],
					 memory_order_relaxed) & WRITTEN))
		atomic_fetch_or_explicit(&p->written[pg], WRITTEN,
					 memory_order_relaxed);
	for (;;) {
		nu = old;
		if (rd)
			nu = (nu & 0xffff0000u) | k;
		if (wr)
			nu = (nu & 0xffffu) | k << 16;
		if (nu == old)
			return;
		if (atomic_compare_exchange_weak_explicit(e, &old, nu,
							  memory_order_relaxed,
							  memory_order_relaxed))
			break;
	}
	/* whoever changed a half first counts the page for this kernel */
	if (rd && (old & 0xffffu) != k)
		atomic_fetch_add_explicit(&p->cur_in, 1, memory_order_relaxed);
	if (wr && old >> 16 != k)
		atomic_fetch_add_explicit(&p->cur_out, 1, memory_order_relaxed);
}

/*
 * Block @blk (its id + 1) into page @pg's set, counted when new; nothing
 * once the page has more than NG_PAGEACC_MAX_COUNTED. Grids of more than
 * 2^32 blocks would fold ids together.
 */
static void pa_count_block(struct pageacc *p, uint64_t pg, uint64_t blk)
{
	_Atomic uint32_t *set = &p->set[pg * SET_SLOTS];
	uint32_t id = (uint32_t)blk ? (uint32_t)blk : 1;
	unsigned int h = (id * 2654435761u) >> 25;

	if (atomic_load_explicit(&p->nblk[pg], memory_order_relaxed) >= SET_FULL)
		return;
	for (unsigned int i = 0; i < SET_SLOTS; i++) {
		_Atomic uint32_t *e = &set[(h + i) % SET_SLOTS];
		uint32_t old = atomic_load_explicit(e, memory_order_relaxed);

		if (!old &&
		    atomic_compare_exchange_strong_explicit(e, &old, id,
							    memory_order_relaxed,
							    memory_order_relaxed)) {
			atomic_fetch_add_explicit(&p->nblk[pg], 1,
						  memory_order_relaxed);
			return;
		}
		if (old == id)
			return;
	}
}

static void pa_route(void *priv, struct ng_sm *sm, struct ng_req *r)
{
	struct pageacc *p = priv;
	uint64_t off = r->line - (uintptr_t)p->sp->base;
	uint64_t blk = (sm->block + 1) & ID_MASK;
	uint64_t want = (p->kernel + 1) << ID_BITS | blk;
	_Atomic uint64_t *e = &p->line[off >> p->line_shift];
	uint64_t old = atomic_load_explicit(e, memory_order_relaxed), nu;

	/* the line: its first kernel's block, or several */
	for (;;) {
		if (!old)
			nu = want;
		else if (old >> ID_BITS == p->kernel + 1 &&
			 (old & ID_MASK) != blk)
			nu = (old & ~ID_MASK) | SEVERAL;
		else
			break;
		if (nu == old ||
		    atomic_compare_exchange_weak_explicit(e, &old, nu,
							  memory_order_relaxed,
							  memory_order_relaxed))
			break;
	}
	pa_copies(p, off >> p->page_shift, r);
	if (p->set)
		pa_count_block(p, off >> p->page_shift, blk);
	/* the page: its block and GPU, or several of either */
	e = &p->page[off >> p->page_shift];
	old = atomic_load_explicit(e, memory_order_relaxed);
	want = (uint64_t)(r->gpu + 1) << ID_BITS | blk;
	for (;;) {
		if (!old) {
			nu = want;
		} else {
			nu = old;
			if ((old & ID_MASK) != blk)
				nu |= SEVERAL;
			if (old >> ID_BITS != (uint64_t)r->gpu + 1)
				nu |= GPU_SEVERAL << ID_BITS;
		}
		if (nu == old ||
		    atomic_compare_exchange_weak_explicit(e, &old, nu,
							  memory_order_relaxed,
							  memory_order_relaxed))
			break;
	}
}

static void pa_kernel_end(void *priv, struct ng_sm *const *sms,
			  unsigned int nsm)
{
	struct pageacc *p = priv;

	(void)sms;
	(void)nsm;
	p->kernel++;
	p->copies.kernels++;
	p->copies.split_in_pages += atomic_exchange(&p->cur_in, 0);
	p->copies.split_out_pages += atomic_exchange(&p->cur_out, 0);
}

static void pa_reset(void *priv)
{
	struct pageacc *p = priv;

	/* the kernel gives zero pages back */
	(void)madvise((void *)p->line, p->nlines * sizeof(*p->line),
		      MADV_DONTNEED);
	(void)madvise((void *)p->page, p->npages * sizeof(*p->page),
		      MADV_DONTNEED);
	(void)madvise((void *)p->rw, p->npages * sizeof(*p->rw), MADV_DONTNEED);
	(void)madvise((void *)p->first, p->npages * sizeof(*p->first),
		      MADV_DONTNEED);
	(void)madvise((void *)p->written, p->npages * sizeof(*p->written),
		      MADV_DONTNEED);
	if (p->set) {
		(void)madvise((void *)p->set,
			      p->npages * SET_SLOTS * sizeof(*p->set),
			      MADV_DONTNEED);
		(void)madvise((void *)p->nblk, p->npages * sizeof(*p->nblk),
			      MADV_DONTNEED);
	}
	p->kernel = 0;
	p->copies = (struct ng_copies){ 0 };
	atomic_store(&p->cur_in, 0);
	atomic_store(&p->cur_out, 0);
}

enum ng_coda_category ng_coda_classify(uint64_t pages, uint64_t one_block,
				       uint64_t one_gpu)
{
	double b = pages ? (double)one_block / (double)pages : 0;
	double g = pages ? (double)one_gpu / (double)pages : 0;

	if (b > NG_CODA_EXCLUSIVE)
		return NG_CODA_BLOCK_EXCLUSIVE;
	if (g > NG_CODA_EXCLUSIVE)
		return NG_CODA_CORE_EXCLUSIVE;
	if (b > NG_CODA_MAJORITY)
		return NG_CODA_BLOCK_MAJORITY;
	if (g > NG_CODA_MAJORITY)
		return NG_CODA_CORE_MAJORITY;
	return NG_CODA_SHARING;
}

const char *ng_coda_category_name(enum ng_coda_category c)
{
	static const char *const names[] = {
		"block-exclusive", "core-exclusive", "block-majority",
		"core-majority", "sharing",
	};

	return (unsigned int)c < NG_CODA_NCATEGORY ? names[c] : "?";
}

const char *ng_pageacc_bucket_name(unsigned int i)
{
	static const char *const names[NG_PAGEACC_NBUCKET] = {
		"1", "2", "3-4", "5-8", "9-16", "17-32", "33-64", ">64",
	};

	return i < NG_PAGEACC_NBUCKET ? names[i] : "?";
}

unsigned int ng_pageacc_bucket(uint64_t blocks)
{
	unsigned int b;

	if (blocks <= 1)
		return 0;
	/* the power of two at or above: 2 -> 1, 3-4 -> 2, 5-8 -> 3 ... */
	b = 64 - (unsigned int)__builtin_clzll(blocks - 1);
	return b < NG_PAGEACC_NBUCKET ? b : NG_PAGEACC_NBUCKET - 1;
}

int ng_pageacc_report(const struct ng_model *m, struct ng_pageacc *out)
{
	const struct pageacc *p = ng_model_priv(m, &ng_page_access_component);
	uint64_t n;

	*out = (struct ng_pageacc){ 0 };
	if (!p)
		return -ENOENT;
	/* buffers are allocated from the start of the space */
	n = (p->sp->used_max + (1ULL << p->page_shift) - 1) >> p->page_shift;
	out->blocks = p->nblk != NULL;
	for (uint64_t i = 0; i < n && i < p->npages; i++) {
		uint64_t e = atomic_load_explicit(&p->page[i],
						  memory_order_relaxed);
		uint8_t nb;

		if (!e)
			continue;
		out->pages++;
		out->one_block += (e & ID_MASK) != SEVERAL;
		out->one_gpu += e >> ID_BITS != GPU_SEVERAL;
		if (!p->nblk)
			continue;
		nb = atomic_load_explicit(&p->nblk[i], memory_order_relaxed);
		out->by_blocks[ng_pageacc_bucket(nb)]++;
	}
	out->category = ng_coda_classify(out->pages, out->one_block,
					 out->one_gpu);
	return 0;
}

int ng_pageacc_copies(const struct ng_model *m, struct ng_copies *out)
{
	const struct pageacc *p = ng_model_priv(m, &ng_page_access_component);
	uint64_t n;

	*out = (struct ng_copies){ 0 };
	if (!p)
		return -ENOENT;
	*out = p->copies;
	out->in_pages = 0;
	out->out_pages = 0;
	n = (p->sp->used_max + (1ULL << p->page_shift) - 1) >> p->page_shift;
	for (uint64_t i = 0; i < n && i < p->npages; i++) {
		uint64_t f = atomic_load_explicit(&p->first[i],
						  memory_order_relaxed);
		uint8_t w = atomic_load_explicit(&p->written[i],
						 memory_order_relaxed);

		/* read first: the complement's low bit is set */
		out->in_pages += f && (f & 1);
		out->out_pages += (w & WRITTEN) != 0;
	}
	return 0;
}

int ng_pageacc_block_bytes(const struct ng_model *m, uintptr_t start,
			   uint64_t len, uint64_t *b)
{
	const struct pageacc *p = ng_model_priv(m, &ng_page_access_component);
	uint64_t first, last, touched = 0, single = 0, runs = 0, down = 0;
	uint64_t prev = 0;

	*b = 0;
	if (!p)
		return -ENOENT;
	first = (start - (uintptr_t)p->sp->base) >> p->line_shift;
	last = (start + len - 1 - (uintptr_t)p->sp->base) >> p->line_shift;
	for (uint64_t i = first; i <= last && i < p->nlines; i++) {
		uint64_t e = atomic_load_explicit(&p->line[i],
						  memory_order_relaxed);
		uint64_t blk = e & ID_MASK;

		if (!e)
			continue;
		touched++;
		if (blk == SEVERAL)
			continue;
		single++;
		if (blk != prev) {
			runs++;
			down += prev && blk < prev;
			prev = blk;
		}
	}
	/*
	 * Row-wise: nearly every line one block's, each block's lines one
	 * run, the runs in block order. Then B is the bytes per run.
	 */
	if (runs < 2 || (double)single < NG_CODA_EXCLUSIVE * (double)touched ||
	    (double)down > 0.1 * (double)runs)
		return 0;
	*b = (touched << p->line_shift) / runs;
	return 0;
}

static bool pa_enabled(const struct ng_config *c)
{
	return c->page_profile || c->host_copies != NG_COPIES_NONE;
}

static const struct ng_key pa_keys[] = {
	NG_KEY_NUM("page-profile", NG_KEY_BOOL, page_profile, 0, 0,
		   "keep the page-access profile: CODA's categories and B (slows the run)"),
	NG_KEY_CHOICE("host-copies", host_copies, ng_host_copies_names,
		      "copies the run's time includes: none, once (H2D of the data read, D2H of the data written) or per-kernel (split code); measured by the page profile"),
	{ .name = NULL },
};

const struct ng_component ng_page_access_component = {
	.name = "pageacc",
	.desc = "page-access tracking: blocks and GPUs per page, blocks per line (CODA's categories and B; a measurement)",
	.keys = pa_keys,
	.enabled = pa_enabled,
	.remote_only = false,
	.create = pa_create,
	.destroy = pa_destroy,
	.route = pa_route,
	.kernel_end = pa_kernel_end,
	.reset = pa_reset,
};
