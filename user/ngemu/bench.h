/* SPDX-License-Identifier: GPL-2.0 */
/* What ngemu bench's files share: reports, formats and the compare mode. */
#ifndef NGEMU_CMD_BENCH_H
#define NGEMU_CMD_BENCH_H

#include <stdbool.h>
#include <stddef.h>

#include "ngemu/config.h"
#include "ngemu/model/linkuse.h"
#include "ngemu/util/json.h"
#include "ngemu/workloads/workload.h"

/* The system a configuration builds: "CARVE-HWC", "NUMA-GPU", ... */
const char *ng_bench_system_name(const struct ng_config *c);
/* One run's result (bench_report.c), with its fabric's use @links. */
void ng_bench_print_json(const struct ng_config *cfg,
			 const struct ng_bench_result *r,
			 const struct ng_link_usage *links);
void ng_bench_print_human(const struct ng_config *cfg, unsigned int nnodes,
			  const struct ng_bench_result *r,
			  const struct ng_link_usage *links);
/*
 * The fabric's use (report_links.c): as a JSON object, and for people a
 * line (the busiest link or port) and, up to 4 GPUs, the pairs' bytes;
 * nothing when the fabric carried nothing.
 */
void ng_bench_links_json(struct ng_json *j, const struct ng_link_usage *u);
void ng_bench_links_human(const struct ng_link_usage *u);
/* The sharing profile: as a JSON object, and as percentages for people. */
void ng_bench_sharing_json(struct ng_json *j, const struct ng_sharing *s);
void ng_bench_sharing_human(const struct ng_sharing *s, const char *indent);
/*
 * DualOpt's part of a run's report (report_dualopt.c): whether the
 * configuration has any of it, its mechanisms line, JSON fields (the
 * engine's "class" among them) and lines for people.
 */
bool ng_bench_dualopt_on(const struct ng_config *c);
void ng_bench_dualopt_mechanisms(const struct ng_config *c);
void ng_bench_dualopt_json(struct ng_json *j, const struct ng_config *cfg,
			   const struct ng_bench_result *r);
void ng_bench_dualopt_human(const struct ng_config *cfg,
			    const struct ng_bench_result *r);
/*
 * ScaleGPU's part (report_scalegpu.c): its mechanisms line and a line for
 * people; nothing when device memory does not cache the host.
 */
void ng_bench_scalegpu_mechanisms(const struct ng_config *c);
void ng_bench_scalegpu_human(const struct ng_config *cfg,
			     const struct ng_bench_result *r);
/* host-copies once or per-kernel: the copies beside the kernels */
void ng_bench_copies_human(const struct ng_config *cfg,
			   const struct ng_bench_result *r);
void ng_bench_copies_json(struct ng_json *j, const struct ng_config *cfg,
			  const struct ng_bench_result *r);
/* CODA's categories (report_coda.c): as JSON, and a line for people. */
void ng_bench_pageacc_json(struct ng_json *j, const struct ng_pageacc *p);
void ng_bench_pageacc_human(const struct ng_pageacc *p);
void ng_bench_coda_plan_human(const struct ng_config *cfg,
			      const struct ng_bench_result *r);
void ng_bench_coda_plan_json(struct ng_json *j, const struct ng_bench_result *r);
/* Counters as JSON objects, one per component group. */
void ng_bench_counters_json(struct ng_json *j, const struct ng_counters *c);
/* "1.50 M", "3.000 us": numbers and durations for people. */
const char *ng_fmt_si(double v, char *buf, size_t len);
const char *ng_fmt_dur(double s, char *buf, size_t len);
/*
 * Duration @s in a table's column whose largest value is @max: in the
 * unit that suits @max, so that one column has one unit (rows in us and
 * ms side by side read as the wrong order of magnitude).
 */
const char *ng_fmt_dur_col(double s, double max, char *buf, size_t len);

/*
 * The families of --compare's systems: CARVE's (normalized to the ideal,
 * speed-up over numa-gpu), REC's directories (L2 coherence, against the
 * per-line directory, dir) and DualOpt's (against its baseline).
 */
enum cmp_family {
	CMP_CARVE, CMP_REC, CMP_DUALOPT, CMP_SCALEGPU, CMP_CODA, CMP_NFAMILY
};

struct cmp_family_info {
	const char *name;
	const char *preset;		/* --system that selects the family */
	/* the options compare mode starts from (scaled regime) */
	const char *const *scaled;
	unsigned int nscaled;
	const char *defaults;		/* --systems when none are given */
	const char *ref;		/* the system others are measured against */
};

extern const struct cmp_family_info ng_cmp_families[CMP_NFAMILY];

/* A system of --compare: how it sets the configuration. */
struct cmp_system {
	const char *name;
	const char *desc;
	const char *rdc;		/* "keep": the configured rdc-size */
	const char *coherence;
	const char *replicate;
	const char *directory;		/* the L2's coherence (config value) */
	unsigned int dir_scale;		/* x the configured dir-entries (0: 1) */
	enum cmp_family family;
	const char *set;		/* more "key=value ..." it sets, or NULL */
	/*
	 * no coherence (an upper bound): a workload sharing written data
	 * reads stale values by design, so its verification failing is
	 * reported as expected and does not fail the run
	 */
	bool stale_expected;
};

#define CMP_NSYS_MAX	32

/* One run of --compare. */
struct cmp_row {
	char sweep[48];
	const struct cmp_system *sys;
	struct ng_bench_result r;
	double norm;			/* modeled time / the reference's */
	double vs_numa;			/* numa-gpu (or dir) time / this one's */
	uint64_t inv_msgs;
	struct ng_config cfg;		/* as it ran */
};

/* The largest modeled time of @n compare rows, for ng_fmt_dur_col(). */
double ng_cmp_max_modeled(const struct cmp_row *rows, unsigned int n);

/* REC's tables (compare_rec.c): human and CSV, and its JSON fields. */
void ng_cmp_rec_human(const struct cmp_row *rows, unsigned int n,
		      const char *sweep_key);
void ng_cmp_rec_csv(const struct cmp_row *rows, unsigned int n,
		    const char *sweep_key);
void ng_cmp_rec_json(struct ng_json *j, const struct cmp_row *w,
		     const struct cmp_row *ref);
/* DualOpt's (compare_dualopt.c), the same three. */
void ng_cmp_dualopt_human(const struct cmp_row *rows, unsigned int n,
			  const char *sweep_key);
void ng_cmp_dualopt_csv(const struct cmp_row *rows, unsigned int n,
			const char *sweep_key);
void ng_cmp_dualopt_json(struct ng_json *j, const struct cmp_row *w,
			 const struct cmp_row *ref);
/* ScaleGPU's (compare_scalegpu.c), the same three. */
void ng_cmp_scalegpu_human(const struct cmp_row *rows, unsigned int n,
			   const char *sweep_key);
void ng_cmp_scalegpu_csv(const struct cmp_row *rows, unsigned int n,
			 const char *sweep_key);
void ng_cmp_scalegpu_json(struct ng_json *j, const struct cmp_row *w,
			  const struct cmp_row *ref);
/* CODA's (compare_coda.c), the same three. */
void ng_cmp_coda_human(const struct cmp_row *rows, unsigned int n,
		       const char *sweep_key);
void ng_cmp_coda_csv(const struct cmp_row *rows, unsigned int n,
		     const char *sweep_key);
void ng_cmp_coda_json(struct ng_json *j, const struct cmp_row *w,
		      const struct cmp_row *ref);
/*
 * The reference row of @w's sweep value: its family's reference system
 * if it ran, else the first.
 */
const struct cmp_row *ng_cmp_ref(const struct cmp_row *rows, unsigned int n,
				 const struct cmp_row *w);

/*
 * Row @w's "verified" cell: "yes", "NO", or "stale" for a failed
 * verification its system expects (stale_expected).
 */
const char *ng_cmp_verified(const struct cmp_row *w);
/* Whether row @w failed its verification and that fails the run. */
bool ng_cmp_failed(const struct cmp_row *w);

const struct cmp_system *ng_cmp_find(const char *name, size_t len);
int ng_cmp_apply(struct ng_config *c, const struct cmp_system *s,
		 uint64_t rdc, char *err, size_t errlen);
/* The systems of a comma list; 0 after a usage error (printed). */
unsigned int ng_cmp_systems(const char *list,
			    const struct cmp_system *sel[CMP_NSYS_MAX]);

/*
 * --compare (cmd_compare.c): the family of a command line's compare run:
 * that of the first system its --systems name, else of its --system
 * preset (CARVE's for any other). @fmt of the run: 0 human, 1 JSON, 2 CSV.
 */
#define NG_CMP_MAX_SCALED 16
enum cmp_family ng_cmp_family(int argc, char **argv);
int ng_bench_compare(const struct ng_config *base,
		     const struct ng_workload *wl,
		     const struct ng_bench_opts *o, const char *systems,
		     const char *sweep, int fmt);

/*
 * --compare --agreement N (cmd_agreement.c): each system once with
 * --deterministic and N times threaded; the modeled times side by side.
 */
int ng_bench_agreement(const struct ng_config *base,
		       const struct ng_workload *wl,
		       const struct ng_bench_opts *o, const char *systems,
		       unsigned int runs, bool json);

#endif /* NGEMU_CMD_BENCH_H */
