/* SPDX-License-Identifier: GPL-2.0 */
/* Page placement policies (private to libngemu; see placement.c). */
#ifndef NGEMU_LIB_PLACEMENT_H
#define NGEMU_LIB_PLACEMENT_H

#include <stdint.h>

#include "ngemu/runtime/space.h"

/*
 * The location table entry of page @i of buffer @b, whose first page is
 * page @pg0 of the space: a GPU, NG_HOME_HOST, NG_LOC_FGP or NG_LOC_NONE.
 */
uint8_t ng_placement_loc(const struct ng_space *s, const struct ng_buf *b,
			 uint64_t pg0, uint64_t i);

#endif /* NGEMU_LIB_PLACEMENT_H */
