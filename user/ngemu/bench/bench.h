/* SPDX-License-Identifier: GPL-2.0 */
/* What ngemu bench's files share: reports, formats and the compare mode. */
#ifndef NGEMU_CMD_BENCH_H
#define NGEMU_CMD_BENCH_H

#include <stdbool.h>
#include <stdio.h>
#include <stddef.h>

#include "ngemu/config.h"
#include "ngemu/model/linkuse.h"
#include "ngemu/paper.h"
#include "ngemu/util/json.h"
#include "ngemu/workloads/workload.h"

/* The system a configuration builds: "CARVE-HWC", "NUMA-GPU", ... */
const char *bench_system_name(const struct ng_config *c);
/* One run's result (report.c), with its fabric's use @links. */
void bench_print_json(const struct ng_config *cfg,
		      const struct ng_bench_result *r,
		      const struct ng_link_usage *links);
void bench_print_human(const struct ng_config *cfg, unsigned int nnodes,
		       const struct ng_bench_result *r,
		       const struct ng_link_usage *links);
/*
 * The fabric's use (report_links.c): as a JSON object, and for people a
 * line (the busiest link or port) and, up to 4 GPUs, the pairs' bytes;
 * nothing when the fabric carried nothing.
 */
void bench_links_json(struct ng_json *j, const struct ng_link_usage *u);
void bench_links_human(const struct ng_link_usage *u);
/* The sharing profile: as a JSON object, and as percentages for people. */
void bench_sharing_json(struct ng_json *j, const struct ng_sharing *s);
void bench_sharing_human(const struct ng_sharing *s, const char *indent);
/* Counters as JSON objects, one per component group. */
void bench_counters_json(struct ng_json *j, const struct ng_counters *c);

/*
 * --compare (compare.c): a paper's systems side by side (ngemu/paper.h).
 * The paper of a command line's compare run: that of the first system its
 * --systems name, else the one whose preset its --system names, else the
 * first paper. @fmt of the run: 0 human, 1 JSON, 2 CSV.
 */
const struct ng_paper *cmp_paper(int argc, char **argv);
int bench_compare(const struct ng_config *base,
		  const struct ng_workload *wl,
		  const struct ng_bench_opts *o, const char *systems,
		  const char *sweep, int fmt);

#define CMP_NSYS_MAX	32

/* For --help: every paper, its preset, systems, defaults and regime. */
void cmp_help(FILE *out);

/*
 * The systems of a comma list; 0 after a usage error (printed, naming
 * every paper's systems).
 */
unsigned int cmp_systems(const char *list,
			 const struct ng_paper_system *sel[CMP_NSYS_MAX]);
/* Apply system @s over @c, then validate. */
int cmp_apply(struct ng_config *c, const struct ng_paper_system *s,
	      char *err, size_t errlen);
/*
 * The run @w is measured against: @p's reference system at @w's sweep
 * value if it ran, else the first run of that value.
 */
const struct ng_paper_run *cmp_ref(const struct ng_paper *p,
				   const struct ng_paper_run *rows,
				   unsigned int n,
				   const struct ng_paper_run *w);
/*
 * Run @w's "verified" cell: "yes", "NO", or "stale" for a failed
 * verification its system expects (stale_expected).
 */
const char *cmp_verified(const struct ng_paper_run *w);
/* Whether run @w failed its verification and that fails the run. */
bool cmp_failed(const struct ng_paper_run *w);
/* @p's table of @n runs, in format @fmt (compare_table.c). */
void cmp_print(const struct ng_paper *p, const struct ng_config *base,
	       const char *workload, const struct ng_paper_run *rows,
	       unsigned int n, const char *sweep_key, int fmt);

/*
 * --compare --agreement N (agreement.c): each system once with
 * --deterministic and N times threaded; the modeled times side by side.
 */
int bench_agreement(const struct ng_config *base,
		    const struct ng_workload *wl,
		    const struct ng_bench_opts *o, const char *systems,
		    unsigned int runs, bool json);

#endif /* NGEMU_CMD_BENCH_H */
