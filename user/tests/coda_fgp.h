/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The system the CODA workloads' tests run on: CODA's 4 GPUs with pages
 * interleaved (fgp: no profiling run before each), two host threads, so
 * that a threaded run can be held against the deterministic one.
 */
#ifndef NG_TEST_CODA_FGP_H
#define NG_TEST_CODA_FGP_H

#include <errno.h>
#include <stdbool.h>
#include <stddef.h>

#include "ngemu/config.h"
#include "ngemu/runtime/system.h"

static inline int coda_fgp_system(struct ng_system **sys, bool deterministic,
				  char *err, size_t errlen)
{
	struct ng_config cfg;

	if (ng_config_preset(&cfg, "coda", err, errlen) ||
	    ng_config_set(&cfg, "placement", "fgp", err, errlen) ||
	    ng_config_set(&cfg, "threads", "2", err, errlen))
		return -EINVAL;
	cfg.deterministic = deterministic;
	return ng_system_create(sys, &cfg, err, errlen);
}

#endif /* NG_TEST_CODA_FGP_H */
