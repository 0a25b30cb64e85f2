// SPDX-License-Identifier: GPL-2.0
/*
 * The device address space and its location table (see space.h). The real
 * memory behind buffers is the backend's (backend/backend.h), reached
 * through its ops; where a page's home is comes from placement.c.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>

#include "backend/backend.h"
#include "runtime/placement.h"
#include "runtime/touch.h"
#include "ngemu/runtime/space.h"
#include "ngemu/util/err.h"
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

static void backend_fini(struct ng_space *s)
{
	if (s->ops && s->ops->fini)
		s->ops->fini(s);
	s->ops = NULL;
}

/* The backend @cfg asks for; auto: the module when it can run the config. */
static int backend_init(struct ng_space *s, const struct ng_config *cfg,
			char *err, size_t errlen)
{
	char msg[256];
	int ret;

	if (cfg->backend != NG_MEM_USER) {
		ret = ng_backend_kmod.init(s, cfg, msg, sizeof(msg));
		if (!ret) {
			s->ops = &ng_backend_kmod;
			s->backend = NG_MEM_KMOD;
			return 0;
		}
		if (cfg->backend == NG_MEM_KMOD) {
			ng_seterr(err, errlen, "kmod memory backend: %s", msg);
			return ret == -ENOENT ? -ENOTSUP : ret;
		}
		/* auto: no module, or one that cannot run this config */
	}
	ret = ng_backend_user.init(s, cfg, err, errlen);
	if (ret)
		return ret;
	s->ops = &ng_backend_user;
	s->backend = NG_MEM_USER;
	return 0;
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
	s->chunk_capped = cfg->coda_chunk == NG_CODA_CHUNK_CAP;
	s->host_share = cfg->host_share / 100;
	s->capacity = cfg->mem_per_gpu * cfg->gpus;
	/* as much again for host memory; it is only address space */
	s->size = 2 * s->capacity;
	s->nnodes = nnodes;
	for (unsigned int g = 0; g < cfg->gpus; g++)
		s->node_of_gpu[g] = node_of_gpu ? node_of_gpu[g] : 0;
	ret = backend_init(s, cfg, err, errlen);
	if (ret)
		return ret;
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
		backend_fini(s);
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
		backend_fini(s);
		ng_seterr(err, errlen, "cannot map the location table: %s",
			  strerror(errno));
		return -ENOMEM;
	}
	s->glive = ng_table_alloc(s->npages / s->ngpus + 1);
	if (!s->glive) {
		munmap((void *)s->loc, tablebytes);
		munmap(s->map, map_bytes(s));
		backend_fini(s);
		ng_seterr(err, errlen, "cannot map the page-group table");
		return -ENOMEM;
	}
	return 0;
}

void ng_space_fini(struct ng_space *s)
{
	ng_claims_free(s);
	free(s->allocs);
	if (s->glive)
		ng_table_free(s->glive, s->npages / s->ngpus + 1);
	backend_fini(s);
	if (s->map)
		munmap(s->map, map_bytes(s));
	if (s->loc && (void *)s->loc != MAP_FAILED)
		munmap((void *)s->loc, (s->npages + 4095) & ~4095ULL);
	memset(s, 0, sizeof(*s));
}

void ng_space_set_plan(struct ng_space *s, const uint64_t *b, unsigned int n)
{
	s->plan = b;
	s->nplan = b ? n : 0;
	s->plan_base = s->nallocs;
}

int ng_space_switch_group(struct ng_space *s, uint64_t group, bool cgp)
{
	uint64_t pg0 = group * s->ngpus;

	if (pg0 + s->ngpus > s->npages)
		return -EINVAL;
	if (s->glive[group])
		return -EBUSY;
	for (unsigned int i = 0; i < s->ngpus; i++)
		atomic_store_explicit(&s->loc[pg0 + i],
				      cgp ? (uint8_t)((pg0 + i) % s->ngpus)
					  : NG_LOC_FGP,
				      memory_order_relaxed);
	return 0;
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
	/* device memory, as the buffers are: huge pages where the host has them */
	(void)madvise(p, bytes, MADV_HUGEPAGE);
	if (s->ops->place)
		s->ops->place(s, p, bytes, gpu);
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

/* Where @b would go, or -errno with a message. Host fallback may apply. */
static int check_fit(struct ng_space *s, uint64_t size, uint64_t span,
		     struct ng_alloc_opts *o, char *err, size_t errlen)
{
	if (span < size || s->used + span > s->size) {
		ng_seterr(err, errlen,
			  "%llu bytes do not fit in the emulated address space",
			  (unsigned long long)size);
		return -ENOMEM;
	}
	if (o->place != NG_PLACE_HOST && s->carved &&
	    s->allocated + span > s->capacity &&
	    s->allocated + span <= s->capacity + s->carved) {
		/* it fitted before the carve-out: host memory instead */
		o->place = NG_PLACE_HOST;
		s->fallback += span;
	}
	if (o->place != NG_PLACE_HOST && s->allocated + span > s->capacity) {
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
	return 0;
}

int ng_malloc(struct ng_space *s, struct ng_buf *b, uint64_t size,
	      const struct ng_alloc_opts *opts, char *err, size_t errlen)
{
	uint64_t page = 1ULL << s->page_shift;
	/* whole page groups, so that page-group rules hold per buffer */
	uint64_t group = page * s->ngpus;
	struct ng_alloc_opts o = *opts;
	uint64_t span, pg0, np;
	void *p;
	int ret;

	memset(b, 0, sizeof(*b));
	if (!size) {
		ng_seterr(err, errlen, "cannot allocate 0 bytes");
		return -EINVAL;
	}
	span = (size + group - 1) / group * group;
	ret = check_fit(s, size, span, &o, err, errlen);
	if (ret)
		return ret;
	p = s->base + s->used;
	b->ptr = p;
	b->size = size;
	b->span = span;
	b->seq = s->nallocs;
	if (o.place == NG_PLACE_CODA && b->seq - s->plan_base < s->nplan) {
		/* the profile's B; a shared or irregular structure stays FGP */
		o.block_bytes = s->plan[b->seq - s->plan_base];
		if (!o.block_bytes)
			o.place = NG_PLACE_FGP;
	}
	b->place = o.place;
	b->node = o.node;
	if (o.place == NG_PLACE_CODA)
		b->chunk = ng_coda_chunk(o.block_bytes ? o.block_bytes : page,
					 o.blocks_per_gpu ? o.blocks_per_gpu : 1,
					 page, s->chunk_capped);
	pg0 = s->used >> s->page_shift;
	np = span >> s->page_shift;
	for (uint64_t i = 0; i < np; i++)
		atomic_store_explicit(&s->loc[pg0 + i],
				      ng_placement_loc(s, b, pg0, i),
				      memory_order_relaxed);
	ret = s->ops->map(s, b, p, err, errlen);
	if (ret) {
		/* put the reservation back over whatever was mapped */
		mmap(p, span, PROT_NONE, MAP_PRIVATE | MAP_ANONYMOUS |
		     MAP_FIXED | MAP_NORESERVE, -1, 0);
		memset(b, 0, sizeof(*b));
		return ret;
	}
	memset(s->glive + (pg0 / s->ngpus), 1, np / s->ngpus);
	s->used += span;
	if (s->used > s->used_max)
		s->used_max = s->used;
	if (ng_grow((void **)&s->allocs, &s->cap_allocs, s->nallocs + 1,
		    sizeof(*s->allocs)))
		s->allocs[s->nallocs] = (struct ng_alloc_rec){
			.start = (uintptr_t)p, .size = size, .live = true };
	s->nallocs++;
	if (o.place == NG_PLACE_HOST)
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
	if (s->ops->unmap)
		s->ops->unmap(s, b);
	if (b->seq < s->nallocs && b->seq < s->cap_allocs)
		s->allocs[b->seq].live = false;
	memset(s->glive + (((uint64_t)(p - s->base) >> s->page_shift) /
			   s->ngpus), 0, (b->span >> s->page_shift) / s->ngpus);
	if (b->place == NG_PLACE_HOST)
		s->host_allocated -= b->span;
	else
		s->allocated -= b->span;
	if (p + b->span == s->base + s->used)
		s->used -= b->span;
	memset(b, 0, sizeof(*b));
}

void ng_space_prefetch(struct ng_space *s)
{
	if (s->prefetch && s->ops->prefetch)
		s->ops->prefetch(s);
}

int ng_space_kmod_stats(const struct ng_space *s, struct ng_kmod_stats *out)
{
	memset(out, 0, sizeof(*out));
	return s->ops && s->ops->stats ? s->ops->stats(s, out) : -ENOTSUP;
}

int ng_space_check_kmod(const struct ng_space *s, const struct ng_buf *b,
			struct ng_kmod_check *out)
{
	memset(out, 0, sizeof(*out));
	return s->ops && s->ops->check ? s->ops->check(s, b, out) : -ENOTSUP;
}
