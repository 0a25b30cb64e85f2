// SPDX-License-Identifier: GPL-2.0
/*
 * The kmod backend of the device address space: every buffer is a
 * numagpu.ko buffer (through the kbuf wrapper, ngemu/kbuf.h). GPU 0's view
 * is mapped at the buffer's device address, so kernels use device
 * addresses as they are; the other GPUs' views are mapped elsewhere. The
 * module places first-touch pages on the node of the view that faults, so
 * the model's first touch by GPU g (ng_space_first_touch()) faults the
 * page's kernel pages in through g's view before anything else touches
 * them. Other modes need no touch: the module places by mode.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

#include "ngemu/topology.h"
#include "space_kmod.h"
#include "util.h"

#include "ngemu/kbuf.h"

#define MAX_BUFS 256

struct ng_kmod {
	int devfd;
	unsigned int module_gpus;
	long kpage;
	unsigned int nbufs;
	struct ng_buf *bufs[MAX_BUFS];	/* live buffers, for first touch */
};

int ng_kmod_init(struct ng_space *s, const struct ng_config *cfg,
		 char *err, size_t errlen)
{
	struct ng_topology topo;
	struct ng_kmod *k;
	int ret;

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
	for (unsigned int g = 0; g < cfg->gpus; g++)
		s->node_of_gpu[g] = (int)topo.hw.gpu[g].node;
	s->kmod = k;
	return 0;
}

void ng_kmod_fini(struct ng_space *s)
{
	if (!s->kmod)
		return;
	close(s->kmod->devfd);
	free(s->kmod);
	s->kmod = NULL;
}

/* The module's mode for a placement, or -1 with a message. */
static int mode_of(const struct ng_space *s, const struct ng_buf *b,
		   struct numagpu_buf_create *c, char *err, size_t errlen)
{
	uint64_t kpage = (uint64_t)s->kmod->kpage;
	uint64_t group = kpage * s->kmod->module_gpus;
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
	if (s->ngpus != s->kmod->module_gpus && chunk <= kpage) {
		ng_seterr(err, errlen,
			  "kmod memory backend: interleaving over %u of the module's %u GPUs: use --gpus %u",
			  s->ngpus, s->kmod->module_gpus, s->kmod->module_gpus);
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

int ng_kmod_map(struct ng_space *s, struct ng_buf *b, void *at,
		const struct ng_alloc_opts *o, char *err, size_t errlen)
{
	struct ng_kmod *k = s->kmod;
	struct numagpu_buf_create c = { .size = b->span,
					.flags = NUMAGPU_BUF_FALLBACK };
	struct ng_kbuf *kb;
	void *p;
	int ret;

	(void)o;
	if (k->nbufs == MAX_BUFS) {
		ng_seterr(err, errlen, "kmod memory backend: more than %d buffers", MAX_BUFS);
		return -ENOMEM;
	}
	if (mode_of(s, b, &c, err, errlen))
		return -EINVAL;
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
	p = mmap(at, b->span, PROT_READ | PROT_WRITE, MAP_SHARED | MAP_FIXED,
		 kb->fd, NUMAGPU_VIEW_OFFSET(0));
	if (p == MAP_FAILED) {
		ret = -errno;
		goto fail;
	}
	for (unsigned int g = 1; g < s->ngpus; g++) {
		void *v;

		ret = ng_kbuf_map_view(kb, g, &v);
		if (ret)
			goto fail;
	}
	b->kbuf = kb;
	k->bufs[k->nbufs++] = b;
	return 0;
fail:
	ng_seterr(err, errlen, "kmod memory backend: cannot map a buffer's views: %s",
		  strerror(-ret));
	ng_kbuf_destroy(kb);
	free(kb);
	/* the caller puts the reservation back over @at */
	return ret;
}

void ng_kmod_unmap(struct ng_space *s, struct ng_buf *b)
{
	struct ng_kmod *k = s->kmod;

	if (!b->kbuf)
		return;
	for (unsigned int i = 0; i < k->nbufs; i++)
		if (k->bufs[i] == b) {
			k->bufs[i] = k->bufs[--k->nbufs];
			break;
		}
	ng_kbuf_destroy(b->kbuf);
	free(b->kbuf);
	b->kbuf = NULL;
}

void ng_kmod_touch(struct ng_space *s, uint64_t off, uint64_t len,
		   unsigned int gpu)
{
	struct ng_kmod *k = s->kmod;
	uintptr_t a = (uintptr_t)s->base + off;

	for (unsigned int i = 0; i < k->nbufs; i++) {
		struct ng_buf *b = k->bufs[i];
		uintptr_t p = (uintptr_t)b->ptr;
		const volatile char *view;

		if (a < p || a >= p + b->span)
			continue;
		view = gpu ? (const volatile char *)b->kbuf->view[gpu]
			   : (const volatile char *)b->ptr;
		if (!view)
			return;
		/* a read fault allocates the page on the view's node */
		for (uint64_t o = a - p; o < a - p + len && o < b->span;
		     o += (uint64_t)k->kpage)
			(void)view[o];
		return;
	}
}

int ng_space_check_kmod(const struct ng_space *s, const struct ng_buf *b,
			struct ng_kmod_check *out)
{
	struct numagpu_loc loc[512];
	uint64_t kpage, n;

	memset(out, 0, sizeof(*out));
	if (!s->kmod || !b->kbuf)
		return -ENOTSUP;
	kpage = (uint64_t)s->kmod->kpage;
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
