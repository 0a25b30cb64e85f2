/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The device address space: every buffer of a run lives in one reserved
 * range, so a device address is the same on every GPU and its home is one
 * table lookup (like a GPU's physical address decode) instead of a search
 * of buffers. The *location table* holds one byte per page: the home GPU,
 * host memory, "interleaved inside the page" (FGP) or "not touched yet"
 * (first-touch resolves it on the first access, from any GPU).
 *
 * Backends (lib/backend/): "user" maps anonymous memory and places the
 * real pages with libnuma on the home GPU's node; "kmod" makes every
 * buffer a numagpu.ko buffer. The kmod backend reserves one region per GPU,
 * all of the same size (view_stride bytes apart): GPU g's view of a buffer
 * is mapped at its device address + g * view_stride, so GPU g reaches
 * device address a at host address a + g * view_stride (one add: the SM
 * keeps its delta, ng_sm.view_delta). Region 0 is the device address space
 * itself, so host code (init, verification) uses device addresses, i.e.
 * GPU 0's view. A first touch by GPU g faults the page in through g's
 * view, so that the module places it. The user backend has one region and
 * a stride of 0.
 * The table here stays the model's; the module's own location table is
 * compared with it by ng_space_check_kmod().
 */
#ifndef NGEMU_SPACE_H
#define NGEMU_SPACE_H

#include <stdatomic.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "ngemu/config.h"

struct ng_backend_ops;
struct ng_kbuf;
struct ng_claims;

#define NG_HOME_HOST	16	/* home id of host memory */
#define NG_LOC_BUSY	0xfd	/* first touch being placed (kmod backend) */
#define NG_LOC_FGP	0xfe	/* home = interleave function of the address */
#define NG_LOC_NONE	0xff	/* first-touch page nobody touched yet */

struct ng_space {
	enum ng_mem_backend backend;	/* the one in use: user or kmod */
	uint8_t *base;			/* device address 0 (a host address) */
	void *map;			/* the reservation base is aligned in */
	uint64_t size;			/* reserved bytes (of one view region) */
	uint64_t view_stride;		/* GPU g's view: + g * stride (kmod) */
	uint64_t used;			/* bump allocation pointer */
	uint64_t used_max;		/* the most it has been */
	uint64_t capacity;		/* device memory of all GPUs */
	uint64_t allocated;		/* live device bytes */
	uint64_t host_allocated;
	unsigned int ngpus;
	unsigned int page_shift;
	unsigned int fgp_shift;
	unsigned int nnodes;		/* real NUMA nodes with memory */
	int node_of_gpu[NG_MAX_GPUS];
	int host_node;			/* host memory's node; -1: the GPUs' */
	_Atomic uint8_t *loc;		/* the location table */
	uint64_t npages;
	uint8_t *glive;			/* per page group: a live buffer's */
	const struct ng_backend_ops *ops;	/* the backend's (lib/backend/) */
	void *bk;			/* and its state */
	/* CARVE: the RDCs' carve-outs, taken from the device capacity */
	uint64_t carved;
	uint64_t fallback;		/* buffer bytes placed in host memory instead */
	uint64_t peak;			/* most device + host bytes allocated */
	/* kmod backend: prefetch buffers to their homes before kernels */
	bool prefetch;
	/* every allocation so far, by order (CODA's profile reads them) */
	struct ng_alloc_rec *allocs;
	unsigned int nallocs;
	size_t cap_allocs;
	const uint64_t *plan;		/* CODA's B by allocation order */
	unsigned int nplan, plan_base;	/* from allocation plan_base on */
	bool chunk_capped;		/* CODA's min(4 KB, B x N) */
	double host_share;		/* host-share, as a fraction */
	/*
	 * First touches deferred to the end of the interval (user backend,
	 * inside a modeled kernel): per GPU, the untouched pages it claimed.
	 */
	bool defer_touch;
	struct ng_claims *claims;
};

/* One allocation of a run: where it was and how big. */
struct ng_alloc_rec {
	uintptr_t start;
	uint64_t size;
	bool live;			/* not freed yet (checked mode's buffers) */
};

/* A buffer: @ptr is its device address (usable by the CPU as is). */
struct ng_buf {
	void *ptr;
	uint64_t size;			/* as asked */
	uint64_t span;			/* reserved, whole page groups */
	enum ng_placement place;
	unsigned int node;		/* NG_PLACE_NODE: the GPU */
	uint64_t chunk;			/* NG_PLACE_CODA: bytes per GPU chunk */
	unsigned int seq;		/* the run's allocations before it */
	struct ng_kbuf *kbuf;		/* kmod backend: the module's buffer */
	bool prefetched;		/* kmod: every page prefetched home */
};

/*
 * The module's counters over the space's buffers (kmod backend): buffers
 * freed so far plus the live ones (NUMAGPU_BUF_IOC_STATS), and what the
 * runtime asked of it (hints, prefetches).
 */
struct ng_kmod_stats {
	uint64_t faults;
	uint64_t view_faults[NG_MAX_GPUS];	/* faults per GPU's view */
	uint64_t replicas;		/* read replicas made */
	uint64_t collapses;		/* replicated pages collapsed by writes */
	uint64_t migrations;		/* pages moved (prefetch included) */
	uint64_t pins;			/* pages pinned by thrashing control */
	uint64_t read_mostly_pages;	/* pages given the read-mostly hint */
	uint64_t prefetched;		/* pages moved or allocated by prefetch */
	uint64_t prefetch_calls;	/* prefetch commands sent */
};

/* The module's placement against the model's, page by page (kmod). */
struct ng_kmod_check {
	uint64_t pages;			/* kernel pages of the buffer */
	uint64_t populated;		/* of them, allocated by the module */
	uint64_t agree;			/* on the node of the model's home */
	uint64_t fallback;		/* placed elsewhere: the node was full */
	bool comparable;		/* false: the model interleaves finer */
	/* the module's counters over a run (ng_bench_run fills them) */
	struct ng_kmod_stats stats;
};

/* Placement details beyond the config's default. */
struct ng_alloc_opts {
	enum ng_placement place;
	unsigned int node;		/* for NG_PLACE_NODE */
	uint64_t block_bytes;		/* CODA: bytes each block touches */
	uint64_t blocks_per_gpu;	/* CODA: sms x resident blocks */
};

/*
 * Reserve the address space for @cfg (gpus x mem-per-gpu, plus as much for
 * host memory). @node_of_gpu maps GPUs to real nodes. Returns 0 or a
 * negative errno with a message naming the problem in @err.
 */
int ng_space_init(struct ng_space *s, const struct ng_config *cfg,
		  const int *node_of_gpu, unsigned int nnodes,
		  char *err, size_t errlen);
void ng_space_fini(struct ng_space *s);

/* Allocate @size bytes placed per @o. -ENOMEM with a message if too big. */
int ng_malloc(struct ng_space *s, struct ng_buf *b, uint64_t size,
	      const struct ng_alloc_opts *o, char *err, size_t errlen);
void ng_free(struct ng_space *s, struct ng_buf *b);

/*
 * Carve @bytes out of @gpu's memory for its RDC: the capacity left for
 * buffers shrinks by as much (buffers that no longer fit then fall back
 * to host memory, counted in s->fallback) and the carve-out's pages are
 * placed on the GPU's node. The carve-out is not device-addressable.
 */
int ng_space_carve(struct ng_space *s, unsigned int gpu, uint64_t bytes,
		   void **out, char *err, size_t errlen);
void ng_space_uncarve(struct ng_space *s, void *p, uint64_t bytes);

/*
 * Resolve a first touch of the page at @off by @gpu, whose clock is @t;
 * returns the home.
 *
 * Inside a modeled kernel on the user backend (ng_space_defer_touch()),
 * which GPU touched a page first must not depend on how the host ran the
 * GPUs' threads, so the table does not change during an interval: a GPU
 * that touches an untouched page takes it as its own at once (its claim,
 * seen by its own requests only, as its own calendar bookings are), and
 * at the interval's end the claim with the earliest clock wins the page,
 * the lower GPU among equal clocks (ng_space_touch_resolve()). Outside
 * kernels, and with the kmod backend (whose first fault places the page),
 * the first caller wins at once.
 */
unsigned int ng_space_first_touch_at(struct ng_space *s, uint64_t off,
				     unsigned int gpu, uint64_t t);
/* The same for a caller without a clock: it comes after any that has one. */
unsigned int ng_space_first_touch(struct ng_space *s, uint64_t off,
				  unsigned int gpu);

/*
 * Start (@on) or end deferring first touches; ending decides and places
 * every claim left. From the launching thread, outside intervals.
 */
void ng_space_defer_touch(struct ng_space *s, bool on);

/*
 * The end of an interval for GPU @gpu (ng_model_sync() phase 0, on the
 * GPU's thread; GPUs may run it at once): the pages it won in the
 * interval before are placed on its node.
 */
void ng_space_touch_sync(struct ng_space *s, unsigned int gpu);
/*
 * Whether any GPU claimed a page this interval (then the interval's end
 * has a phase 1, where the claims are decided). Stable from the end of
 * the interval's run to its phase 1.
 */
bool ng_space_touch_pending(const struct ng_space *s);
/*
 * Phase 1 of the interval's end, for GPU @gpu once every GPU's phase 0
 * is done (GPUs may run it at once): its claims that are the earliest of
 * their pages join the location table.
 */
void ng_space_touch_resolve(struct ng_space *s, unsigned int gpu);

/*
 * Whether the page of @addr was claimed in this interval but is not
 * published yet: the home its requests see is their own GPU's, for
 * this interval only.
 */
static inline bool ng_space_unplaced(const struct ng_space *s, uintptr_t addr)
{
	uint64_t off = addr - (uintptr_t)s->base;

	return s->defer_touch &&
	       atomic_load_explicit(&s->loc[off >> s->page_shift],
				    memory_order_relaxed) == NG_LOC_NONE;
}

/*
 * FGP's GPU of space offset @off: the bits just above the interleave
 * granularity (fgp-granularity, 2^@fgp_shift bytes). The one definition:
 * the location table, CODA's dual-mode decode (ng_coda_gpu_bits()) and the
 * module's interleave (backend/kmod.c) agree with it.
 */
static inline unsigned int ng_fgp_gpu(uint64_t off, unsigned int fgp_shift,
				      unsigned int ngpus)
{
	return (unsigned int)((off >> fgp_shift) % ngpus);
}

/*
 * Home of a device address as seen by @gpu, whose clock is @t (a first
 * access homes a first-touch page there). The hot path: one relaxed byte
 * load.
 */
static inline unsigned int ng_home_at(struct ng_space *s, uintptr_t addr,
				      unsigned int gpu, uint64_t t)
{
	uint64_t off = addr - (uintptr_t)s->base;
	unsigned int e = atomic_load_explicit(&s->loc[off >> s->page_shift],
					      memory_order_relaxed);

	if (e <= NG_HOME_HOST)
		return e;
	if (e == NG_LOC_FGP)
		return ng_fgp_gpu(off, s->fgp_shift, s->ngpus);
	return ng_space_first_touch_at(s, off, gpu, t);
}

/* The same without a clock (ng_space_first_touch()). */
static inline unsigned int ng_home(struct ng_space *s, uintptr_t addr,
				   unsigned int gpu)
{
	return ng_home_at(s, addr, gpu, UINT64_MAX);
}

/* Home without side effects: NG_LOC_NONE for an untouched page. */
static inline unsigned int ng_space_peek(const struct ng_space *s,
					 uintptr_t addr)
{
	uint64_t off = addr - (uintptr_t)s->base;
	unsigned int e = atomic_load_explicit(&s->loc[off >> s->page_shift],
					      memory_order_relaxed);

	if (e == NG_LOC_FGP)
		return ng_fgp_gpu(off, s->fgp_shift, s->ngpus);
	return e == NG_LOC_BUSY ? NG_LOC_NONE : e;
}

/*
 * kmod backend: compare the module's location table for @b with the
 * model's homes. Returns 0, or -ENOTSUP on the user backend.
 */
int ng_space_check_kmod(const struct ng_space *s, const struct ng_buf *b,
			struct ng_kmod_check *out);

/* kmod backend: the counters above; -ENOTSUP on the user backend. */
int ng_space_kmod_stats(const struct ng_space *s, struct ng_kmod_stats *out);

/*
 * kmod backend with s->prefetch: before a kernel, prefetch the kernel
 * pages of every buffer whose model homes are all known to their home
 * GPUs (ng_kbuf_prefetch: absent pages are allocated there, others move),
 * once per buffer. First-touch buffers qualify once their pages have been
 * touched. A no-op on the user backend.
 */
void ng_space_prefetch(struct ng_space *s);

/*
 * CODA's dual-mode physical address decode (CODA sec. 4.2, Fig. 7):
 * the GPU of a physical address is the low log2(ngpus) bits of the page
 * number for a CGP page, the bits above the interleave granularity
 * (2^@fgp_shift bytes, inside the page) for an FGP page: ng_fgp_gpu().
 * @ngpus must be a power of two.
 */
unsigned int ng_coda_gpu_bits(uint64_t paddr, bool cgp,
			      unsigned int page_shift, unsigned int fgp_shift,
			      unsigned int ngpus);

/*
 * CODA's chunk (its Equation 2): min(4 KB, @block_bytes x
 * @blocks_per_gpu) rounded up to pages when @capped, as the paper writes
 * it; the product itself in whole pages otherwise. One page at least.
 */
uint64_t ng_coda_chunk(uint64_t block_bytes, uint64_t blocks_per_gpu,
		       uint64_t page, bool capped);

/*
 * CODA's placement plan: the bytes each block touches (B) of the
 * structures allocated from now on, in allocation order, 0 for a
 * structure that stays FGP; ng_malloc() with placement coda follows it
 * instead of the allocation's block_bytes. NULL, 0: none.
 */
void ng_space_set_plan(struct ng_space *s, const uint64_t *b, unsigned int n);

/*
 * CODA's page groups (CODA sec. 4.2): ngpus consecutive pages, all FGP or
 * all CGP. Switch group @group (its index from the space's start) to FGP
 * (@cgp false: every page interleaved) or CGP (each page whole, on the
 * GPU of its page number's low bits); -EBUSY while a live buffer holds a
 * page of it (a group switches only when all its pages are free), -EINVAL
 * past the space. Buffers hold whole groups: ng_malloc() places a new
 * buffer's groups, ng_free() frees them.
 */
int ng_space_switch_group(struct ng_space *s, uint64_t group, bool cgp);

#endif /* NGEMU_SPACE_H */
