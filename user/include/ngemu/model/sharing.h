/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The sharing profile (CARVE Fig. 4): how a workload's memory accesses
 * divide among private data (one GPU touches it), read-shared data (several
 * read it, none writes) and read-write shared data, at the granularity of
 * a cache line and of a page, over all accesses and over the remote ones.
 * It explains a workload's response to replication (pages) and to remote
 * caches and their coherence (lines). The model keeps it when the
 * configuration says sharing-profile = yes (lib/model/sharing.c); every
 * access counts, by the GPU that makes it and the line's home before any
 * replication, from the last counter reset (the timed kernels).
 */
#ifndef NGEMU_MODEL_SHARING_H
#define NGEMU_MODEL_SHARING_H

#include <stdint.h>

struct ng_model;

enum ng_sharing_class {
	NG_SHARE_PRIVATE,
	NG_SHARE_READ,		/* read by several GPUs, written by none */
	NG_SHARE_RW,		/* touched by several, written by one at least */
	NG_SHARE_NCLASS,
};

enum ng_sharing_grain {
	NG_GRAIN_LINE,
	NG_GRAIN_PAGE,
	NG_NGRAIN,
};

struct ng_sharing {
	/* accesses, by granularity and class: all of them, and the remote */
	uint64_t all[NG_NGRAIN][NG_SHARE_NCLASS];
	uint64_t remote[NG_NGRAIN][NG_SHARE_NCLASS];
};

/* The profile so far; -ENOENT when the model keeps none. */
int ng_sharing_profile(const struct ng_model *m, struct ng_sharing *out);

const char *ng_sharing_class_name(enum ng_sharing_class c);

#endif /* NGEMU_MODEL_SHARING_H */
