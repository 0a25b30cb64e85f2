/* SPDX-License-Identifier: GPL-2.0 */
/* What the warp operations (warp.c, atomic.c) share, beyond kernel.h. */
#ifndef NGEMU_LIB_RUNTIME_WARP_H
#define NGEMU_LIB_RUNTIME_WARP_H

#include "ngemu/runtime/kernel.h"

/*
 * Home the pages of bytes [@p, @end) that warp @w's @op (by @lane; -1:
 * not known) is about to write, through the warp GPU's view; outside the
 * device address space, stop the run (ng_warp_fault()).
 */
void ng_warp_resolve(struct ng_warp *w, int lane, uintptr_t p, uintptr_t end,
		     const char *op);

#endif /* NGEMU_LIB_RUNTIME_WARP_H */
