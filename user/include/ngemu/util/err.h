/* SPDX-License-Identifier: GPL-2.0 */
/* Error messages: every libngemu call that can fail fills a buffer. */
#ifndef NGEMU_UTIL_ERR_H
#define NGEMU_UTIL_ERR_H

#include <stddef.h>

/* printf into an error buffer of @len bytes (NULL or 0: nothing). */
void ng_seterr(char *err, size_t len, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));

#endif /* NGEMU_UTIL_ERR_H */
