/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Memory backends of the device address space (private to libngemu). The
 * address space (runtime/space.c) keeps the location table and the
 * reservation; a backend provides the real memory behind buffers and puts
 * it on the right NUMA node. It reaches the space only through the public
 * space.h, so that the space calls its backend through these ops and never
 * the other way round.
 */
#ifndef NGEMU_LIB_BACKEND_H
#define NGEMU_LIB_BACKEND_H

#include <stddef.h>
#include <stdint.h>

#include "ngemu/runtime/space.h"

struct ng_backend_ops {
	const char *name;
	enum ng_mem_backend kind;
	/*
	 * Get ready for @s (s->ngpus, s->size set; may set s->node_of_gpu and
	 * s->view_stride). 0, or a negative errno with a message: -ENOENT
	 * means "not available here" (auto then takes the user backend).
	 */
	int (*init)(struct ng_space *s, const struct ng_config *cfg,
		    char *err, size_t errlen);
	void (*fini)(struct ng_space *s);
	/*
	 * Back buffer @b (b->span bytes, location table entries written) at
	 * @at, inside the space's reservation. On failure the space puts the
	 * reservation back.
	 */
	int (*map)(struct ng_space *s, struct ng_buf *b, void *at, char *err,
		   size_t errlen);
	/* optional: release what map() made (the range stays reserved) */
	void (*unmap)(struct ng_space *s, struct ng_buf *b);
	/*
	 * A first touch of [off, off + len) by @gpu: make its memory live on
	 * @gpu's node before the page's home is published.
	 */
	void (*touch)(struct ng_space *s, uint64_t off, uint64_t len,
		      unsigned int gpu);
	/* optional: memory outside buffers (RDC carve-outs) to @gpu's node */
	void (*place)(struct ng_space *s, void *addr, uint64_t len,
		      unsigned int gpu);
	/* optional (see space.h): the module's view of the buffers */
	void (*prefetch)(struct ng_space *s);
	int (*stats)(const struct ng_space *s, struct ng_kmod_stats *out);
	int (*check)(const struct ng_space *s, const struct ng_buf *b,
		     struct ng_kmod_check *out);
};

extern const struct ng_backend_ops ng_backend_user;
extern const struct ng_backend_ops ng_backend_kmod;

#endif /* NGEMU_LIB_BACKEND_H */
