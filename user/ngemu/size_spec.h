/* SPDX-License-Identifier: GPL-2.0 */
/*
 * --size's value, as bench takes it and reproduce reports it: a size
 * (4096, 64K, 32M, 1G), "paper" (the footprint the workload's paper ran,
 * per array) or "paper/N" (1/N of it, REC's compare regime's paper/8).
 */
#ifndef NGEMU_CLI_SIZE_SPEC_H
#define NGEMU_CLI_SIZE_SPEC_H

#include <stdint.h>

#include "ngemu/workloads/workload.h"

struct size_spec {
	uint64_t bytes;			/* a size given; 0 with paper_div */
	unsigned int paper_div;		/* paper/N: N; 0: not the paper's */
};

/* @val into @s: 0, or -EINVAL when it is none of the three forms. */
int size_spec_parse(const char *val, struct size_spec *s);

/*
 * The bytes per array workload @w runs at under @s (NULL: its default);
 * 0 for the paper's size of a workload no paper sizes.
 */
uint64_t size_spec_bytes(const struct size_spec *s,
			 const struct ng_workload *w);

#endif /* NGEMU_CLI_SIZE_SPEC_H */
