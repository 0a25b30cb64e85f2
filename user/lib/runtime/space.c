// SPDX-License-Identifier: GPL-2.0
/*
 * The device address space and its location table, user backend (the kmod
 * backend is a stub until the module's buffer API wrapper exists).
 */
#include <errno.h>
#include <numa.h>
#include <numaif.h>
#include <sched.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

#include "ngemu/runtime/space.h"
#include "backend/backend.h"
#include "util/util.h"

#define NG_SPACE_ALIGN	(1ULL << 30)

static unsigned int ilog2_u64(uint64_t v)
{
	return 63u - (unsigned int)__builtin_clzll(v);
}

/* The reservation: every GPU's view region (kmod) and the alignment. */
static uint64_t map_bytes(const struct ng_space *s)
{
	return (s->view_stride ? s->ngpus : 1) * s->size + NG_SPACE_ALIGN;
}

int ng_space_init(struct ng_space *s, const struct ng_config *cfg,
		  const int *node_of_gpu, unsigned int nnodes,
		  char *err, size_t errlen)
{
	uint64_t tablebytes;
	int ret;

	memset(s, 0, sizeof(*s));
	s->ngpus = cfg->gpus;
	s->page_shift = ilog2_u64(cfg->page);
	s->fgp_shift = ilog2_u64(cfg->fgp_granularity);
	s->capacity = cfg->mem_per_gpu * cfg->gpus;
	/* as much again for host memory; it is only address space */
	s->size = 2 * s->capacity;
	s->nnodes = nnodes;
	for (unsigned int g = 0; g < cfg->gpus; g++)
		s->node_of_gpu[g] = node_of_gpu ? node_of_gpu[g] : 0;
	s->backend = NG_MEM_USER;
	if (cfg->backend != NG_MEM_USER) {
		char msg[256];

		ret = ng_kmod_init(s, cfg, msg, sizeof(msg));
		if (!ret) {
			s->backend = NG_MEM_KMOD;
		} else if (cfg->backend == NG_MEM_KMOD) {
			ng_seterr(err, errlen, "kmod memory backend: %s", msg);
			return ret == -ENOENT ? -ENOTSUP : ret;
		}
		/* auto: no module, or one that cannot run this config */
	}
	/* kmod: one region per GPU's views, GPU 0's the device addresses */
	if (s->kmod)
		s->view_stride = s->size;
	/*
	 * Align the space to 1 GiB: buffers are page-group aligned from its
	 * start, so they can get transparent huge pages whatever the page
	 * size (fewer TLB misses, and the same for every run).
	 */
	s->map = mmap(NULL, map_bytes(s), PROT_NONE,
		      MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE, -1, 0);
	if (s->map == MAP_FAILED) {
		ng_seterr(err, errlen, "cannot reserve %llu GiB of address space: %s",
			  (unsigned long long)(map_bytes(s) >> 30), strerror(errno));
		s->map = NULL;
		ng_kmod_fini(s);
		return -ENOMEM;
	}
	s->base = (uint8_t *)(((uintptr_t)s->map + NG_SPACE_ALIGN - 1) &
			      ~(uintptr_t)(NG_SPACE_ALIGN - 1));
	s->npages = s->size >> s->page_shift;
	tablebytes = (s->npages + 4095) & ~4095ULL;
	s->loc = mmap(NULL, tablebytes, PROT_READ | PROT_WRITE,
		      MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE, -1, 0);
	if (s->loc == MAP_FAILED) {
		munmap(s->map, map_bytes(s));
		ng_kmod_fini(s);
		ng_seterr(err, errlen, "cannot map the location table: %s",
			  strerror(errno));
		return -ENOMEM;
	}
	return 0;
}

void ng_space_fini(struct ng_space *s)
{
	ng_kmod_fini(s);
	if (s->map)
		munmap(s->map, map_bytes(s));
	if (s->loc && (void *)s->loc != MAP_FAILED)
		munmap((void *)s->loc, (s->npages + 4095) & ~4095ULL);
	memset(s, 0, sizeof(*s));
}

/* Put the real pages of [addr, addr+len) on @gpu's node (multi-node only). */
static void place_real(struct ng_space *s, void *addr, uint64_t len,
		       unsigned int home)
{
	unsigned long mask;
	int node;

	if (s->kmod || s->nnodes < 2 || home >= NG_MAX_GPUS)
		return;
	node = s->node_of_gpu[home];
	if (node < 0 || node >= (int)(8 * sizeof(mask)))
		return;
	mask = 1UL << node;
	/* best effort: the model's numbers do not depend on it */
	(void)mbind(addr, len, MPOL_BIND, &mask, 8 * sizeof(mask),
		    MPOL_MF_MOVE);
}

int ng_space_carve(struct ng_space *s, unsigned int gpu, uint64_t bytes,
		   void **out, char *err, size_t errlen)
{
	uint64_t per_gpu = s->ngpus ? (s->capacity + s->carved) / s->ngpus : 0;
	void *p;

	*out = NULL;
	if (gpu >= s->ngpus || bytes >= per_gpu || bytes > s->capacity) {
		ng_seterr(err, errlen,
			  "a carve-out of %llu bytes does not fit in GPU %u's memory",
			  (unsigned long long)bytes, gpu);
		return -EINVAL;
	}
	p = mmap(NULL, bytes, PROT_READ | PROT_WRITE,
		 MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE, -1, 0);
	if (p == MAP_FAILED) {
		ng_seterr(err, errlen, "cannot map a carve-out of %llu bytes: %s",
			  (unsigned long long)bytes, strerror(errno));
		return -ENOMEM;
	}
	/* on the GPU's own node, as the user backend places its pages */
	place_real(s, p, bytes, gpu);
	s->capacity -= bytes;
	s->carved += bytes;
	*out = p;
	return 0;
}

void ng_space_uncarve(struct ng_space *s, void *p, uint64_t bytes)
{
	if (!p)
		return;
	munmap(p, bytes);
	s->capacity += bytes;
	s->carved -= bytes;
}

unsigned int ng_space_first_touch(struct ng_space *s, uint64_t off,
				  unsigned int gpu)
{
	uint64_t pg = off >> s->page_shift;
	uint8_t expect = NG_LOC_NONE;

	if (s->kmod) {
		/*
		 * The module places the page where the first fault comes from:
		 * fault it in through our GPU's view before anyone else may
		 * touch it (they wait while it is BUSY).
		 */
		if (atomic_compare_exchange_strong(&s->loc[pg], &expect,
						   NG_LOC_BUSY)) {
			ng_kmod_touch(s, pg << s->page_shift,
				      1ULL << s->page_shift, gpu);
			atomic_store(&s->loc[pg], (uint8_t)gpu);
			return gpu;
		}
		while (expect == NG_LOC_BUSY) {
			sched_yield();
			expect = atomic_load(&s->loc[pg]);
		}
	} else if (atomic_compare_exchange_strong(&s->loc[pg], &expect,
						  (uint8_t)gpu)) {
		place_real(s, s->base + (pg << s->page_shift),
			   1ULL << s->page_shift, gpu);
		return gpu;
	}
	return expect == NG_LOC_FGP
		       ? (unsigned int)((off >> s->fgp_shift) % s->ngpus)
		       : expect;
}

unsigned int ng_space_peek(const struct ng_space *s, uintptr_t addr)
{
	uint64_t off = addr - (uintptr_t)s->base;
	unsigned int e = atomic_load_explicit(&s->loc[off >> s->page_shift],
					      memory_order_relaxed);

	if (e == NG_LOC_FGP)
		return (unsigned int)((off >> s->fgp_shift) % s->ngpus);
	return e == NG_LOC_BUSY ? NG_LOC_NONE : e;
}

unsigned int ng_coda_gpu_bits(uint64_t paddr, bool cgp,
			      unsigned int page_shift, unsigned int ngpus)
{
	unsigned int bits = ilog2_u64(ngpus);
	unsigned int lo = cgp ? page_shift : page_shift - bits;

	return (unsigned int)((paddr >> lo) & (ngpus - 1));
}

uint64_t ng_coda_chunk(uint64_t block_bytes, uint64_t blocks_per_gpu,
		       uint64_t page)
{
	uint64_t c = block_bytes * blocks_per_gpu;

	/*
	 * MECHANISMS 6 writes min(4 KB, B x nblocks_per_gpu) rounded up to
	 * pages; with 4 KB pages that is always one page. What keeps the data
	 * of the blocks with affinity g on GPU g is the product itself, so the
	 * chunk is that, in whole pages (one page at least).
	 */
	if (c < page)
		c = page;
	return (c + page - 1) / page * page;
}

int ng_malloc(struct ng_space *s, struct ng_buf *b, uint64_t size,
	      const struct ng_alloc_opts *o, char *err, size_t errlen)
{
	uint64_t page = 1ULL << s->page_shift;
	/* whole page groups, so that page-group rules hold per buffer */
	uint64_t group = page * s->ngpus;
	uint64_t span, pg0, np;
	bool host = o->place == NG_PLACE_HOST;
	struct ng_alloc_opts fb;
	void *p;

	memset(b, 0, sizeof(*b));
	if (!size) {
		ng_seterr(err, errlen, "cannot allocate 0 bytes");
		return -EINVAL;
	}
	span = (size + group - 1) / group * group;
	if (span < size || s->used + span > s->size) {
		ng_seterr(err, errlen,
			  "%llu bytes do not fit in the emulated address space",
			  (unsigned long long)size);
		return -ENOMEM;
	}
	if (!host && s->carved && s->allocated + span > s->capacity &&
	    s->allocated + span <= s->capacity + s->carved) {
		/* it fitted before the carve-out: host memory instead */
		fb = *o;
		fb.place = NG_PLACE_HOST;
		o = &fb;
		host = true;
		s->fallback += span;
	}
	if (!host && s->allocated + span > s->capacity) {
		ng_seterr(err, errlen,
			  "%llu MiB do not fit in the emulated device memory (%u GPUs x %llu MiB, %llu MiB in use)",
			  (unsigned long long)(size >> 20), s->ngpus,
			  (unsigned long long)(s->capacity / s->ngpus >> 20),
			  (unsigned long long)(s->allocated >> 20));
		return -ENOMEM;
	}
	if (o->place == NG_PLACE_NODE &&
	    (o->node >= s->ngpus || span > s->capacity / s->ngpus)) {
		ng_seterr(err, errlen,
			  "%llu MiB do not fit on GPU %u (%llu MiB per GPU)",
			  (unsigned long long)(size >> 20), o->node,
			  (unsigned long long)(s->capacity / s->ngpus >> 20));
		return -ENOMEM;
	}
	p = s->base + s->used;
	b->ptr = p;
	b->size = size;
	b->span = span;
	b->place = o->place;
	b->node = o->node;
	if (o->place == NG_PLACE_CODA)
		b->chunk = ng_coda_chunk(o->block_bytes ? o->block_bytes : page,
					 o->blocks_per_gpu ? o->blocks_per_gpu : 1,
					 page);
	if (s->kmod) {
		int ret = ng_kmod_map(s, b, p, o, err, errlen);

		if (ret) {
			/* put the reservation back over whatever was mapped */
			mmap(p, span, PROT_NONE, MAP_PRIVATE | MAP_ANONYMOUS |
			     MAP_FIXED | MAP_NORESERVE, -1, 0);
			memset(b, 0, sizeof(*b));
			return ret;
		}
	} else {
		p = mmap(p, span, PROT_READ | PROT_WRITE, MAP_PRIVATE |
			 MAP_ANONYMOUS | MAP_FIXED | MAP_NORESERVE, -1, 0);
		if (p == MAP_FAILED) {
			ng_seterr(err, errlen, "cannot map %llu bytes: %s",
				  (unsigned long long)span, strerror(errno));
			memset(b, 0, sizeof(*b));
			return -ENOMEM;
		}
		/* ask for huge pages; not fatal where THP is off */
		(void)madvise(p, span, MADV_HUGEPAGE);
	}
	pg0 = s->used >> s->page_shift;
	np = span >> s->page_shift;
	for (uint64_t i = 0; i < np; i++) {
		uint8_t e;

		switch (o->place) {
		case NG_PLACE_FGP:
			e = NG_LOC_FGP;
			break;
		case NG_PLACE_CGP:
			/* CODA's CGP: the low bits of the page number */
			e = (uint8_t)((pg0 + i) % s->ngpus);
			break;
		case NG_PLACE_CODA:
			e = (uint8_t)((i * page / b->chunk) % s->ngpus);
			break;
		case NG_PLACE_HOST:
			e = NG_HOME_HOST;
			break;
		case NG_PLACE_NODE:
			e = (uint8_t)o->node;
			break;
		case NG_PLACE_FIRST_TOUCH:
		default:
			e = NG_LOC_NONE;
			break;
		}
		atomic_store_explicit(&s->loc[pg0 + i], e, memory_order_relaxed);
		if (e < NG_MAX_GPUS && s->nnodes > 1)
			place_real(s, (uint8_t *)p + i * page, page, e);
	}
	if (o->place == NG_PLACE_FGP && !s->kmod && s->nnodes > 1 &&
	    numa_available() >= 0) {
		struct bitmask *bm = numa_allocate_nodemask();

		for (unsigned int g = 0; g < s->ngpus; g++)
			numa_bitmask_setbit(bm, (unsigned int)s->node_of_gpu[g]);
		numa_interleave_memory(p, span, bm);
		numa_free_nodemask(bm);
	}
	s->used += span;
	if (host)
		s->host_allocated += span;
	else
		s->allocated += span;
	if (s->allocated + s->host_allocated > s->peak)
		s->peak = s->allocated + s->host_allocated;
	return 0;
}

void ng_free(struct ng_space *s, struct ng_buf *b)
{
	uint8_t *p = b->ptr;

	if (!p)
		return;
	/* give the memory back; the address range is not reused */
	mmap(p, b->span, PROT_NONE,
	     MAP_PRIVATE | MAP_ANONYMOUS | MAP_FIXED | MAP_NORESERVE, -1, 0);
	if (s->kmod)
		ng_kmod_unmap(s, b);
	if (b->place == NG_PLACE_HOST)
		s->host_allocated -= b->span;
	else
		s->allocated -= b->span;
	if (p + b->span == s->base + s->used)
		s->used -= b->span;
	memset(b, 0, sizeof(*b));
}
