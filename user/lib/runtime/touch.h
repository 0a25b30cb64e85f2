/* SPDX-License-Identifier: GPL-2.0 */
/* First-touch claims (touch.c), private to libngemu: what space.c needs. */
#ifndef NGEMU_LIB_TOUCH_H
#define NGEMU_LIB_TOUCH_H

#include "ngemu/runtime/space.h"

void ng_claims_free(struct ng_space *s);

#endif /* NGEMU_LIB_TOUCH_H */
