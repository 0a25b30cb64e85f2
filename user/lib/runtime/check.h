/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Checked mode's checks of the warp access functions (check.c), those the
 * public header does not need: per lane, and block-wide.
 */
#ifndef NGEMU_LIB_RUNTIME_CHECK_H
#define NGEMU_LIB_RUNTIME_CHECK_H

#include "ngemu/runtime/kernel.h"

/* Each active lane's @size bytes at addr[lane] in one live buffer. */
void ng_check_lanes(const struct ng_warp *w, const uintptr_t *addr,
		    unsigned int size, const char *op);
/* Block @b's @n elements of @size bytes at @p in one live buffer. */
void ng_check_block(struct ng_block *b, uintptr_t p, unsigned int n,
		    unsigned int size, const char *op);

#endif /* NGEMU_LIB_RUNTIME_CHECK_H */
