// SPDX-License-Identifier: GPL-2.0
/*
 * The kmod backend of the device address space: every buffer is a
 * numagpu.ko buffer (through the kbuf wrapper, ngemu/backend/kbuf.h). GPU g's view
 * is mapped at the buffer's device address + g * view_stride (one region
 * per GPU, reserved by ng_space_init()), so GPU 0's view is at the device
 * address (host code uses it) and an SM of GPU g adds its view_delta to
 * every device address it dereferences (runtime/kernel.h, warp.c). The
 * module places first-touch pages on the node of the view that faults, so
 * the model's first touch by GPU g (ng_space_first_touch()) faults the
 * page's kernel pages in through g's view before anything else touches
 * them. Other modes need no touch: the module places by mode.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <linux/capability.h>
#include <sys/mman.h>
#include <sys/resource.h>
#include <sys/syscall.h>
#include <unistd.h>

#include "backend/backend.h"
#include "ngemu/backend/kbuf.h"
#include "ngemu/backend/topology.h"
#include "ngemu/util/err.h"

#define MAX_BUFS 256

struct ng_kmod {
	int devfd;
	unsigned int module_gpus;
	long kpage;
	bool read_mostly;		/* --replicate ro: the module replicates */
	unsigned int nbufs;
	struct ng_buf *bufs[MAX_BUFS];	/* live buffers, for first touch */
	struct ng_kmod_stats freed;	/* counters of destroyed buffers */
};

static struct ng_kmod *kmod_of(const struct ng_space *s)
{
	return s->bk;
}

static int kmod_init(struct ng_space *s, const struct ng_config *cfg,
		     char *err, size_t errlen)
{
	struct ng_topology topo;
	struct ng_kmod *k;
	int ret;

	if (cfg->host_share > 0) {
		/* the module homes a device buffer's pages on GPUs only */
		ng_seterr(err, errlen,
			  "host-share puts single pages of a device buffer in host memory, which numagpu.ko does not; use --backend user");
		return -EINVAL;
	}
	ret = ng_topology_from_kmod(&topo, NULL, err, errlen);
	if (ret)
		return ret;
	if (cfg->gpus > topo.hw.ngpus) {
		ng_seterr(err, errlen,
			  "numagpu.ko has %u GPUs, the configuration %u; use --gpus %u or --backend user",
			  topo.hw.ngpus, cfg->gpus, topo.hw.ngpus);
		return -EINVAL;
	}
	k = calloc(1, sizeof(*k));
	if (!k) {
		ng_seterr(err, errlen, "out of memory");
		return -ENOMEM;
	}
	k->devfd = ng_kbuf_open_device(NULL);
	if (k->devfd < 0) {
		ret = k->devfd;
		ng_seterr(err, errlen, "%s: %s", NUMAGPU_DEVICE_PATH,
			  strerror(-ret));
		free(k);
		return ret;
	}
	k->module_gpus = topo.hw.ngpus;
	k->kpage = sysconf(_SC_PAGESIZE);
	/*
	 * The CARVE paper's "replicate read-only shared pages" baseline, done
	 * by the module: every buffer is read-mostly, so a read fault in a
	 * GPU's view on a page homed elsewhere makes a replica on that GPU's
	 * node, and the first write collapses the page's replicas (a page
	 * that keeps being written and read is pinned by thrashing control):
	 * the same decision the user backend's model makes page by page.
	 */
	k->read_mostly = cfg->replicate == NG_REPL_RO;
	for (unsigned int g = 0; g < cfg->gpus; g++)
		s->node_of_gpu[g] = (int)topo.hw.gpu[g].node;
	s->bk = k;
	/* one region per GPU's views, GPU 0's the device addresses */
	s->view_stride = s->size;
	return 0;
}

static void kmod_fini(struct ng_space *s)
{
	struct ng_kmod *k = kmod_of(s);

	if (!k)
		return;
	close(k->devfd);
	free(k);
	s->bk = NULL;
}

/* The module's mode for a placement, or -1 with a message. */
static int mode_of(const struct ng_space *s, const struct ng_buf *b,
		   struct numagpu_buf_create *c, char *err, size_t errlen)
{
	uint64_t kpage = (uint64_t)kmod_of(s)->kpage;
	uint64_t group = kpage * kmod_of(s)->module_gpus;
	uint64_t page = 1ULL << s->page_shift, fgp = 1ULL << s->fgp_shift;
	uint64_t chunk = 0;

	switch (b->place) {
	case NG_PLACE_FIRST_TOUCH:
		c->mode = NUMAGPU_MODE_FIRST_TOUCH;
		return 0;
	case NG_PLACE_NODE:
		c->mode = NUMAGPU_MODE_CGP;
		c->target = b->node;
		return 0;
	case NG_PLACE_HOST:
		c->mode = NUMAGPU_MODE_HOST;
		c->target = NUMAGPU_HOST_AUTO;
		return 0;
	case NG_PLACE_FGP:
		chunk = fgp;
		break;
	case NG_PLACE_CGP:
		chunk = page;
		break;
	case NG_PLACE_CODA:
		chunk = b->chunk;
		break;
	}
	if (s->ngpus != kmod_of(s)->module_gpus && chunk <= kpage) {
		ng_seterr(err, errlen,
			  "kmod memory backend: interleaving over %u of the module's %u GPUs: use --gpus %u",
			  s->ngpus, kmod_of(s)->module_gpus, kmod_of(s)->module_gpus);
		return -1;
	}
	/* page-granular or finer: the module interleaves kernel pages */
	if (chunk <= kpage) {
		c->mode = NUMAGPU_MODE_FGP;
		return 0;
	}
	if (chunk % group) {
		ng_seterr(err, errlen,
			  "kmod memory backend: chunks of %llu bytes are not whole page groups (%llu bytes)",
			  (unsigned long long)chunk, (unsigned long long)group);
		return -1;
	}
	c->mode = NUMAGPU_MODE_CGP_CHUNK;
	c->chunk = chunk;
	return 0;
}

/*
 * The module charges a buffer's pages to its creator's RLIMIT_MEMLOCK
 * unless it has CAP_IPC_LOCK: say so before a fault past it is a SIGBUS.
 * Replicas past the limit are simply not made, so home pages count.
 */
static int memlock_check(const struct ng_kmod *k, uint64_t more, char *err,
			 size_t errlen)
{
	struct __user_cap_header_struct h = {
		.version = _LINUX_CAPABILITY_VERSION_3,
	};
	struct __user_cap_data_struct d[2];
	uint64_t need = more;
	struct rlimit rl;

	if (!syscall(SYS_capget, &h, d) &&
	    (d[CAP_IPC_LOCK / 32].effective & (1u << (CAP_IPC_LOCK % 32))))
		return 0;
	if (getrlimit(RLIMIT_MEMLOCK, &rl) || rl.rlim_cur == RLIM_INFINITY)
		return 0;
	for (unsigned int i = 0; i < k->nbufs; i++)
		need += k->bufs[i]->span;
	if (need <= rl.rlim_cur)
		return 0;
	ng_seterr(err, errlen,
		  "kmod memory backend: the buffers need %llu MiB of locked memory, RLIMIT_MEMLOCK allows %llu MiB: raise it (ulimit -l) or run with CAP_IPC_LOCK",
		  (unsigned long long)(need >> 20),
		  (unsigned long long)(rl.rlim_cur >> 20));
	return -ENOMEM;
}

/* Put the reservation back over GPUs 1.. views (region 0: the caller). */
static void unreserve_views(struct ng_space *s, void *at, uint64_t span)
{
	for (unsigned int g = 1; g < s->ngpus; g++)
		mmap((char *)at + g * s->view_stride, span, PROT_NONE,
		     MAP_PRIVATE | MAP_ANONYMOUS | MAP_FIXED | MAP_NORESERVE,
		     -1, 0);
}

static int kmod_map(struct ng_space *s, struct ng_buf *b, void *at, char *err,
		    size_t errlen)
{
	struct ng_kmod *k = kmod_of(s);
	struct numagpu_buf_create c = { .size = b->span,
					.flags = NUMAGPU_BUF_FALLBACK };
	struct ng_kbuf *kb;
	void *p;
	int ret;

	if (k->nbufs == MAX_BUFS) {
		ng_seterr(err, errlen, "kmod memory backend: more than %d buffers", MAX_BUFS);
		return -ENOMEM;
	}
	if (mode_of(s, b, &c, err, errlen))
		return -EINVAL;
	if (memlock_check(k, b->span, err, errlen))
		return -ENOMEM;
	kb = calloc(1, sizeof(*kb));
	if (!kb) {
		ng_seterr(err, errlen, "out of memory");
		return -ENOMEM;
	}
	ret = ng_kbuf_create(kb, k->devfd, &c);
	if (ret) {
		ng_seterr(err, errlen, "kmod memory backend: cannot create a %llu MiB buffer: %s",
			  (unsigned long long)(b->span >> 20), strerror(-ret));
		free(kb);
		return ret == -E2BIG || ret == -ENOMEM ? -ENOMEM : ret;
	}
	/* GPU g's view in g's region: device address + g * view_stride */
	for (unsigned int g = 0; g < s->ngpus; g++) {
		p = mmap((char *)at + g * s->view_stride, b->span,
			 PROT_READ | PROT_WRITE, MAP_SHARED | MAP_FIXED,
			 kb->fd, NUMAGPU_VIEW_OFFSET(g));
		if (p == MAP_FAILED) {
			ret = -errno;
			goto fail;
		}
	}
	if (k->read_mostly) {
		ret = ng_kbuf_advise(kb, 0, kb->npages,
				     NUMAGPU_ADVISE_READ_MOSTLY, 0);
		if (ret)
			goto fail;
		k->freed.read_mostly_pages += kb->npages;
	}
	b->kbuf = kb;
	b->prefetched = false;
	k->bufs[k->nbufs++] = b;
	return 0;
fail:
	ng_seterr(err, errlen, "kmod memory backend: cannot map a buffer's views or advise it: %s",
		  strerror(-ret));
	unreserve_views(s, at, b->span);
	ng_kbuf_destroy(kb);
	free(kb);
	/* the caller puts the reservation back over @at */
	return ret;
}

/* Add the module's counters of @kb to @out. */
static void add_buf_stats(const struct ng_kbuf *kb, struct ng_kmod_stats *out)
{
	struct numagpu_buf_stats st;

	if (ng_kbuf_stats(kb, &st))
		return;
	out->faults += st.faults;
	for (unsigned int g = 0; g < NG_MAX_GPUS && g < NUMAGPU_MAX_GPUS; g++)
		out->view_faults[g] += st.view_faults[g];
	out->replicas += st.replicas_created;
	out->collapses += st.collapses;
	out->migrations += st.migrations;
	out->pins += st.pins;
}

static int kmod_stats(const struct ng_space *s, struct ng_kmod_stats *out)
{
	const struct ng_kmod *k = kmod_of(s);

	*out = k->freed;
	for (unsigned int i = 0; i < k->nbufs; i++)
		add_buf_stats(k->bufs[i]->kbuf, out);
	return 0;
}

/* The GPU whose memory kernel page @kp of @b belongs on, or -1. */
static int kpage_home(const struct ng_space *s, const struct ng_buf *b,
		      uint64_t kp, bool *unknown)
{
	uint64_t kpage = (uint64_t)kmod_of(s)->kpage;
	uint64_t step = 1ULL << s->page_shift;
	uintptr_t a = (uintptr_t)b->ptr + kp * kpage;
	int home = -1;

	/* every model page in the kernel page must agree */
	for (uint64_t o = 0; o < kpage; o += step) {
		unsigned int h = ng_space_peek(s, a + o);

		if (h == NG_LOC_NONE) {
			*unknown = true;
			return -1;
		}
		if (h >= s->ngpus || (home >= 0 && (int)h != home))
			return -1;
		home = (int)h;
		if (step >= kpage)
			break;
	}
	return home;
}

static void kmod_prefetch(struct ng_space *s)
{
	struct ng_kmod *k = kmod_of(s);

	for (unsigned int i = 0; i < k->nbufs; i++) {
		struct ng_buf *b = k->bufs[i];
		uint64_t n = b->kbuf->npages, first = 0;
		bool unknown = false;
		int run = -1;

		if (b->prefetched)
			continue;
		/* the model interleaves inside kernel pages: no single home */
		if (b->place == NG_PLACE_FGP &&
		    (1ULL << s->fgp_shift) < (uint64_t)k->kpage) {
			b->prefetched = true;
			continue;
		}
		for (uint64_t kp = 0; kp <= n; kp++) {
			int h = kp < n ? kpage_home(s, b, kp, &unknown) : -1;
			uint64_t moved = 0;

			if (unknown)
				break;
			if (kp < n && h == run)
				continue;
			if (run >= 0 &&
			    !ng_kbuf_prefetch(b->kbuf, first, kp - first,
					      (unsigned int)run, &moved)) {
				k->freed.prefetched += moved;
				k->freed.prefetch_calls++;
			}
			run = h;
			first = kp;
		}
		/* untouched first-touch pages: try again before the next kernel */
		b->prefetched = !unknown;
	}
}

static void kmod_unmap(struct ng_space *s, struct ng_buf *b)
{
	struct ng_kmod *k = kmod_of(s);

	if (!b->kbuf)
		return;
	add_buf_stats(b->kbuf, &k->freed);
	unreserve_views(s, b->ptr, b->span);
	for (unsigned int i = 0; i < k->nbufs; i++)
		if (k->bufs[i] == b) {
			k->bufs[i] = k->bufs[--k->nbufs];
			break;
		}
	ng_kbuf_destroy(b->kbuf);
	free(b->kbuf);
	b->kbuf = NULL;
}

static void kmod_touch(struct ng_space *s, uint64_t off, uint64_t len,
		       unsigned int gpu)
{
	struct ng_kmod *k = kmod_of(s);
	uintptr_t a = (uintptr_t)s->base + off;

	for (unsigned int i = 0; i < k->nbufs; i++) {
		struct ng_buf *b = k->bufs[i];
		uintptr_t p = (uintptr_t)b->ptr;
		const volatile char *view;

		if (a < p || a >= p + b->span)
			continue;
		view = (const volatile char *)b->ptr + gpu * s->view_stride;
		/* a read fault allocates the page on the view's node */
		for (uint64_t o = a - p; o < a - p + len && o < b->span;
		     o += (uint64_t)k->kpage)
			(void)view[o];
		return;
	}
}

static int kmod_check(const struct ng_space *s, const struct ng_buf *b,
		      struct ng_kmod_check *out)
{
	struct numagpu_loc loc[512];
	uint64_t kpage, n;

	if (!b->kbuf)
		return -ENOTSUP;
	kpage = (uint64_t)kmod_of(s)->kpage;
	n = b->span / kpage;
	out->pages = n;
	out->comparable = b->place != NG_PLACE_FGP || (1ULL << s->fgp_shift) >= kpage;
	for (uint64_t first = 0; first < n; first += 512) {
		size_t cnt = n - first < 512 ? (size_t)(n - first) : 512;

		if (ng_kbuf_loctab_read(b->kbuf, first, cnt, loc))
			return -EIO;
		for (size_t i = 0; i < cnt; i++) {
			uintptr_t a = (uintptr_t)b->ptr + (first + i) * kpage;
			unsigned int home = ng_space_peek(s, a);

			if (!(loc[i].flags & NUMAGPU_LOC_POPULATED))
				continue;
			out->populated++;
			if (loc[i].flags & NUMAGPU_LOC_FALLBACK)
				out->fallback++;
			if (home == NG_HOME_HOST ||
			    (home < s->ngpus &&
			     loc[i].node == (unsigned int)s->node_of_gpu[home]))
				out->agree++;
		}
	}
	return 0;
}

const struct ng_backend_ops ng_backend_kmod = {
	.name = "kmod",
	.kind = NG_MEM_KMOD,
	.init = kmod_init,
	.fini = kmod_fini,
	.map = kmod_map,
	.unmap = kmod_unmap,
	.touch = kmod_touch,
	.prefetch = kmod_prefetch,
	.stats = kmod_stats,
	.check = kmod_check,
};
