/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Workloads behind `ngemu bench`: each allocates its data, runs kernels on
 * the emulated system, verifies the result against a CPU reference and
 * fills a result. A built-in workload is one struct ng_workload in its own
 * file under lib/workloads/<benchmark suite>/, listed once in
 * lib/workloads/registry.c, and tagged with the papers whose experiments
 * use it (its suites). A program's own workloads join them through
 * ng_workloads_add() or ng_main() (ngemu/cli.h, examples/mykernels.c).
 * The calibration microbenchmarks measure one parameter of the model each
 * and say what the configuration expects:
 *
 *   local-stream   GPU 0 streams its own memory    -> local-bw
 *   remote-stream  GPU 0 streams GPU 1's memory    -> link-bw
 *   pointer-chase  GPU 0 chases pointers in GPU 1  -> remote load latency
 */
#ifndef NGEMU_WORKLOADS_H
#define NGEMU_WORKLOADS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "ngemu/config.h"
#include "ngemu/model/dualopt.h"
#include "ngemu/model/page_access.h"
#include "ngemu/model/sharing.h"
#include "ngemu/util/counters.h"
#include "ngemu/runtime/space.h"

/* the structures of a run whose CODA B a result keeps */
#define NG_CODA_PLAN_SHOWN 16

struct ng_system;

struct ng_bench_opts {
	uint64_t size;		/* bytes per array; 0: the workload's default */
	unsigned int iters;	/* 0: default */
	bool native;		/* also run natively: same arrays, best of 10 */
	/*
	 * change one element of the result before it is verified: the
	 * verification must then fail (a check of the check)
	 */
	bool corrupt;
	/* called after each kernel, e.g. for a progress bar */
	void (*progress)(void *ctx, unsigned int done, unsigned int total);
	void *ctx;
};

struct ng_bench_result {
	char workload[32];
	bool verified;
	char verify[160];		/* what was checked, or what failed */
	unsigned int iters;
	uint64_t elements;
	uint64_t size;			/* bytes per array */
	uint64_t bytes;			/* logical bytes moved by timed kernels */
	double modeled_s, modeled_bw;	/* GB/s */
	double wall_s, wall_bw;		/* emulated run, real time */
	bool has_native;
	double native_wall_s, native_bw, ratio;	/* ratio: wall_bw / native_bw */
	/* calibration */
	const char *metric;		/* NULL for ordinary workloads */
	const char *unit;
	double expected, measured, error_pct;
	/* statistics of the timed kernels */
	unsigned int ngpus, threads;
	struct ng_counters total, gpu[NG_MAX_GPUS];
	double local_frac, remote_frac, host_frac, l2_hit_rate;
	/* SM time spent issuing arithmetic, of all SM time: 1 = compute-bound */
	double compute_frac;
	/* with sharing-profile = yes */
	bool has_sharing;
	struct ng_sharing sharing;
	/* with page-profile = yes: CODA's categories */
	bool has_pageacc;
	struct ng_pageacc pageacc;
	/* host-copies once or per-kernel: the copies, in modeled_s too */
	double kernel_s, h2d_s, d2h_s;
	uint64_t h2d_bytes, d2h_bytes;
	/* per-kernel: the data exceeded device-mem, so the code split */
	bool split;
	/* placement coda with coda-b profile: B per structure, in order */
	unsigned int ncoda;
	struct { uint64_t size, b; } coda[NG_CODA_PLAN_SHOWN];
	uint64_t link_bytes;
	/* CARVE and the replication baselines (compare tables) */
	double link_frac;		/* requests served over a link */
	double rdc_hit_rate;		/* RDC hits / lookups */
	uint64_t footprint;		/* bytes the workload allocated, at most */
	uint64_t carve_bytes;		/* RDC carve-outs, all GPUs */
	uint64_t fallback_bytes;	/* buffers pushed to host memory by them */
	uint64_t repl_bytes;		/* memory of read-only page replicas */
	double mem_overhead;		/* (carve or replicas) / footprint */
	/* DualOpt: remote loads' issue to completion, and the engine's call */
	double remote_latency_ns;
	double mem_latency_ns;		/* every request's, issue to completion */
	bool has_de;
	struct ng_de_report de;
	/* kmod backend: the module's placement against the model's */
	bool kmod;
	struct ng_kmod_check placement;
	double req_per_s_per_worker;	/* over all worker threads */
	double req_per_s_per_cpu;	/* over the CPUs the busy workers had */
};

struct ng_workload;

/*
 * Suites: the workloads of a paper's experiments, and "calibration" (one
 * model parameter each). Suite 0 is calibration; suite 1 + i is preset i's
 * (ng_config_presets[]), whose list of workloads is in its paper's folder
 * (user/papers/NAME/preset.c). A workload may stand in several; a
 * program's own workloads stand in none.
 */
unsigned int ng_suites(void);
/* Suite @i's tag ("carve") and a line about it; NULL past the last. */
const char *ng_suite_name(unsigned int i);
const char *ng_suite_desc(unsigned int i);
/* The bit (1 << i) of the suite called @name, or 0 for none. */
unsigned int ng_suite_bit(const char *name);
/* The suites @w stands in, a bit each. */
unsigned int ng_workload_suites(const struct ng_workload *w);

struct ng_workload {
	const char *name;
	const char *desc;
	uint64_t default_size;		/* bytes per array */
	/* the footprint a paper ran it with (all arrays), 0: none given */
	uint64_t paper_footprint;
	const char *paper_ref;		/* where that number comes from */
	unsigned int default_iters;
	unsigned int narrays;
	int (*run)(struct ng_system *sys, const struct ng_bench_opts *o,
		   struct ng_bench_result *r, char *err, size_t errlen);
	/*
	 * A graph workload's input: what it runs on and what its paper
	 * used, one line for people ("road: ..., as CARVE's USA-road"),
	 * shown by `ngemu bench --list` and in a run's report. NULL: not
	 * a graph workload (or nothing to say). Last, so that a workload
	 * written before it, with designated initializers, is unchanged.
	 */
	const char *input;
};

/* The built-in workloads, NULL-terminated. */
extern const struct ng_workload *const ng_workloads[];
/*
 * Add a program's own workloads (@list NULL-terminated, kept by
 * reference: static storage) to those the lookups below and the commands
 * (ng_main(), ngemu/cli.h) know. Once per process. Returns 0, or -EINVAL
 * with a message naming the workload whose name is taken or malformed
 * (1 to 31 of [A-Za-z0-9-_.]) or whose run, desc, narrays,
 * default_iters or default_size is not set; -EBUSY when called before.
 */
int ng_workloads_add(const struct ng_workload *const *list, char *err,
		     size_t errlen);
/* Workload @i: the built-ins, then the added ones; NULL past the last. */
const struct ng_workload *ng_workload_at(unsigned int i);
/* By name, among the built-in and the added workloads; NULL if none. */
const struct ng_workload *ng_workload_find(const char *name);
/* The size per array of the paper's footprint (0: the paper gave none). */
uint64_t ng_workload_paper_size(const struct ng_workload *wl);

/*
 * Run a workload: check that it fits (emulated device memory and this
 * machine's free memory), run, verify, derive statistics. Returns 0 (see
 * r->verified), -EINVAL/-ENOMEM for what the user asked that cannot work
 * (message in @err), other negative errnos for failures.
 */
int ng_bench_run(struct ng_system *sys, const struct ng_workload *wl,
		 const struct ng_bench_opts *o, struct ng_bench_result *r,
		 char *err, size_t errlen);

#endif /* NGEMU_WORKLOADS_H */
