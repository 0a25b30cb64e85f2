/* SPDX-License-Identifier: GPL-2.0 */
/*
 * DualOpt's decision engine (DualOpt section 4.3, lib/model/decision.c): each
 * GPU watches its first de-window remote accesses after a warm-up of
 * de-warmup, with remote data moved as whole lines meanwhile, and measures
 *
 *  - the remote-access ratio: remote accesses / all accesses at the L1;
 *  - the utilization of remote lines: words the SMs used / words fetched,
 *    over the remote lines the L1 held (a line's words are counted when
 *    it leaves the L1, or at the decision for those still there);
 *  - the L1 hit rate of remote loads.
 *
 * Below remote_thresh the GPU is local-dominated and nothing changes;
 * utilization and hit rate both below block_thresh and hit_thresh make it
 * cache-insensitive (remote access coalescing: fine-grained loads past
 * the L1, packed by the CoDec); anything else cache-friendly (the RDMA
 * cache). The engine runs only with remote-opt = auto; coalesce and
 * rdma-cache force one optimization from the start.
 */
#ifndef NGEMU_MODEL_DUALOPT_H
#define NGEMU_MODEL_DUALOPT_H

#include <stdbool.h>
#include <stdint.h>

#include "ngemu/config.h"

struct ng_model;

enum ng_locality_class {
	NG_CLASS_UNDECIDED,		/* the GPU made no remote access */
	NG_CLASS_LOCAL,			/* local-dominated */
	NG_CLASS_INSENSITIVE,		/* cache-insensitive */
	NG_CLASS_FRIENDLY,		/* cache-friendly */
	NG_NCLASS,
};

/* "local-dominated", "cache-insensitive", "cache-friendly", "undecided" */
const char *ng_class_name(enum ng_locality_class c);

/* The three measurements of a window. */
struct ng_de_measure {
	double remote_ratio;
	double utilization;
	double hit_rate;
};

/* The class DualOpt's flow chart (Fig. 11) gives @v under @c's thresholds. */
enum ng_locality_class ng_de_classify(const struct ng_de_measure *v,
				      const struct ng_config *c);

/* One GPU's decision. */
struct ng_de_gpu {
	enum ng_locality_class cls;
	struct ng_de_measure v;
	uint64_t window_remote;		/* remote accesses watched */
	uint64_t window_accesses;	/* all accesses in the window */
	bool complete;			/* the window filled (else: at the end) */
	uint64_t at_request;		/* the GPU's requests before the decision */
	uint64_t requests;		/* ... and in the whole run */
	unsigned int at_kernel;		/* timed kernels ended before it */
};

struct ng_de_report {
	bool on;			/* remote-opt = auto */
	unsigned int ngpus;
	enum ng_locality_class cls;	/* the run's: most GPUs' class */
	struct ng_de_gpu gpu[NG_MAX_GPUS];
};

/*
 * The decisions since the last counter reset (the timed kernels); GPUs
 * whose window did not fill are classified from what they saw. -ENOENT
 * when the engine is off.
 */
int ng_de_report(const struct ng_model *m, struct ng_de_report *out);

#endif /* NGEMU_MODEL_DUALOPT_H */
