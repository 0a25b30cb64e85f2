/* SPDX-License-Identifier: GPL-2.0 */
/* The kmod backend of the device address space (private to libngemu). */
#ifndef NGEMU_LIB_SPACE_KMOD_H
#define NGEMU_LIB_SPACE_KMOD_H

#include <stdbool.h>
#include <stddef.h>

#include "ngemu/runtime/space.h"

/*
 * Open the module for @s. Returns 0 (s->kmod set, s->node_of_gpu from the
 * module's topology), -ENOENT when there is no module (auto then uses the
 * user backend), -ENOTSUP when this build has no kbuf wrapper, or another
 * negative errno; a message in @err in every failing case.
 */
int ng_kmod_init(struct ng_space *s, const struct ng_config *cfg,
		 char *err, size_t errlen);
void ng_kmod_fini(struct ng_space *s);

/* Create the module buffer of @b and map its views, GPU 0's at @at. */
int ng_kmod_map(struct ng_space *s, struct ng_buf *b, void *at,
		const struct ng_alloc_opts *o, char *err, size_t errlen);
/* Unmap and destroy (the reserved range at b->ptr stays reserved). */
void ng_kmod_unmap(struct ng_space *s, struct ng_buf *b);

/* Fault [off, off + len) of the space in through @gpu's view. */
void ng_kmod_touch(struct ng_space *s, uint64_t off, uint64_t len,
		   unsigned int gpu);

#endif /* NGEMU_LIB_SPACE_KMOD_H */
