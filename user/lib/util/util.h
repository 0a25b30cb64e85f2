/* SPDX-License-Identifier: GPL-2.0 */
/* Helpers private to libngemu. */
#ifndef NGEMU_LIB_UTIL_H
#define NGEMU_LIB_UTIL_H

#include <stdbool.h>
#include <stddef.h>
#include <sys/types.h>

#include "ngemu/util/err.h"

/*
 * Read a whole small file into @buf (NUL-terminated). Returns its length,
 * or a negative errno (-EFBIG when it does not fit).
 */
ssize_t ng_read_file(const char *path, char *buf, size_t len);

bool ng_grow_slow(void **p, size_t *cap, size_t need, size_t size);

/*
 * Make room for @need elements of @size bytes in the array *@p of *@cap
 * (doubling, from 256). False, with the array unchanged, when out of memory.
 * Inline: the model's logs call it for every event they record.
 */
static inline bool ng_grow(void **p, size_t *cap, size_t need, size_t size)
{
	return need <= *cap || ng_grow_slow(p, cap, need, size);
}

/*
 * A zeroed table of @bytes for the model: pages come on first touch (only
 * what is used costs memory) and, where the host has transparent huge
 * pages, huge ones: the model's tables are indexed by address, so small
 * pages would cost a TLB miss on most lookups. NULL when out of memory.
 */
void *ng_table_alloc(size_t bytes);
void ng_table_free(void *p, size_t bytes);

#endif /* NGEMU_LIB_UTIL_H */
