/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Modeled time: what the model's clocks, calendars and requests count in,
 * and what a kernel's modeled time is reported in (ngemu/model/model.h).
 */
#ifndef NGEMU_MODEL_TICKS_H
#define NGEMU_MODEL_TICKS_H

#include <stdint.h>

/* Ticks per nanosecond: a tick is 1/1024 ns. */
#define NG_TICKS_PER_NS	1024

/* A time or a duration, in ticks. */
typedef uint64_t ng_ticks;

#endif /* NGEMU_MODEL_TICKS_H */
