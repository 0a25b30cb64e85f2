/* SPDX-License-Identifier: GPL-2.0 */
/*
 * ngemu reproduce (reproduce.c): a paper's experiments as its data
 * file describes them (data.c), and its figures, each a table
 * of ngemu's values beside the paper's and a plot (figures.c).
 */
#ifndef NGEMU_REPRODUCE_H
#define NGEMU_REPRODUCE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#define RP_MAX_CLAIMS	32
#define RP_MAX_FIGS	24
#define RP_MAX_VALS	64
#define RP_MAX_ROWS	4096
#define RP_PBLK		8	/* NG_PAGEACC_NBUCKET */

/*
 * How a claim or a figure's mean row averages its workloads: the
 * geometric, arithmetic or harmonic mean of the per-workload ratios, or
 * the ratio of their sums (sum of numerators over sum of denominators).
 * The harmonic mean of a ratio is the reciprocal of the arithmetic mean
 * of its reciprocals: "4.4x less traffic on average" (a mean of
 * reference / system) is traffic hmean 1/4.4.
 */
enum rp_mean_kind { RP_GMEAN, RP_AMEAN, RP_HMEAN, RP_SUMS };

extern const char *const rp_mean_names[4];

/* A headline claim: a ratio over workloads, the paper's and ngemu's. */
struct rp_claim {
	char id[48], source[128], metric[24], sys[32], ref[32], explain[256];
	char wls[512];			/* the workloads it is about; "": all */
	enum rp_mean_kind mean;
	double paper, ngemu;
	bool shown;
	/*
	 * workloads in the mean: both runs verified and the ratio defined
	 * (a reference with no remote request has no remote ratio)
	 */
	unsigned int used, total;
	char left_out[256];		/* the others, comma-separated */
};

/*
 * A figure: @metric of each of @sys over @ref, per workload and their
 * mean; or, when @key is set, of the one system @sys over @ref at each
 * of @vals of a config key (@ref at the same value, or at @ref_at).
 */
struct rp_fig {
	char id[32], source[160], metric[24], ref[32], ref_at[32];
	enum rp_mean_kind mean;		/* of its mean row or column */
	char sys[256], wls[512], key[48], vals[256];
	char fixed[128];		/* "K=V ...": settings of every point */
	char note[1024];		/* where ngemu differs, and why */
};

/*
 * A value the paper states: figure @fig, @row (a workload or "mean"),
 * @col (a system, or a value of the figure's key).
 */
struct rp_val {
	char fig[32], row[32], col[48], where[256];
	double v;
};

struct rp_paper {
	char title[160], preset[32], ref[32];
	char workloads[1024], systems[512];
	struct rp_claim c[RP_MAX_CLAIMS];
	struct rp_fig f[RP_MAX_FIGS];
	struct rp_val v[RP_MAX_VALS];
	unsigned int n, nfig, nval;
};

/* A row of a sweep's results.csv; @key: its grid key's value, or "". */
struct rp_row {
	char wl[32], sys[32], key[48];
	bool verified;
	double t, remote, bytes, link;
	/* REC's: L2 misses without cold ones, unnecessary invalidations; -1: none */
	double l2_miss, unnec_inv;
	double mem_lat;			/* average memory latency, ns; -1: none */
	double mem;			/* footprint + replicas, bytes; -1: none */
	/*
	 * CODA Fig. 5: the shares of the pages touched by 1, 2, 3-4 ... >64
	 * blocks (results.csv's page_blocks); pblk_n: how many, 0: none
	 */
	double pblk[RP_PBLK];
	unsigned int pblk_n;
};

/* reproduce all runs the papers of the registry (ngemu/paper.h), at most: */
#define NG_RP_PAPERS	16

/*
 * A row of the claims table (claims_table.c): claim @c of paper @paper,
 * whose report is at @link (markdown; NULL: no link). The table's
 * renderers print the paper's name first when @with_paper (reproduce
 * all's summary), and the same columns, by the same names, in each form.
 */
struct rp_claim_row {
	const char *paper;
	const char *link;
	const struct rp_claim *c;
};

struct ng_json;
void rp_claims_csv(FILE *f, const struct rp_claim_row *rows, unsigned int n,
		   bool with_paper);
void rp_claims_md(FILE *f, const struct rp_claim_row *rows, unsigned int n,
		  bool with_paper);
/* an array of one object a row */
void rp_claims_json(struct ng_json *j, const struct rp_claim_row *rows,
		    unsigned int n, bool with_paper);
/* the summary's lines on stdout and how many claims ngemu shows */
void rp_claims_human(FILE *f, const struct rp_claim_row *rows, unsigned int n,
		     bool with_paper);

/*
 * reproduce all's last table: every claim of the @n papers @p (whose
 * reports are in @dirs) with the paper's value, ngemu's, their ratio,
 * shown or not and where to look, on stdout and in DIR/reproduce-
 * summary.md, .csv and .json (each whole or not at all). 0 or -1 after a
 * message.
 */
int rp_write_summary(const char *dir, const struct rp_paper *p,
		     const char dirs[][512], unsigned int n);

/*
 * Paper @paper's proportions (proportions.c): a section of report.md
 * (@md) and proportions.csv (@csv), over @workloads (comma-separated) run
 * on preset @preset with the options @opts. 1 when it wrote them, 0 when
 * the paper names no cache to hold inputs against (nothing written).
 */
int rp_write_proportions(FILE *md, FILE *csv, const char *paper,
			 const char *preset, const char *workloads,
			 char **opts, int nopts);

/*
 * The size a workload runs at with reproduce --at-proportion: its
 * paper's input at the regime's scale (at_scale: the paper's bytes per
 * array x the regime's cache / the paper's), but at least one wave of
 * the regime's machine (wave: gpus x sms x the 256-thread blocks an SM
 * holds, a thread a 4-byte element of an array) and at most half its
 * device memory over the workload's arrays (cap), which wins; a
 * workload no paper sizes at its default (capped the same). @why says
 * which.
 */
enum rp_sized {
	RP_SIZED_SCALE, RP_SIZED_WAVE, RP_SIZED_CAP, RP_SIZED_CAP_WAVE,
	RP_SIZED_NO_PAPER,
};

extern const char *const rp_sized_names[];

struct rp_prop_size {
	uint64_t bytes, at_scale, wave, cap;
	uint64_t wave_blocks;
	enum rp_sized why;
};

struct ng_workload;
/*
 * @w's size under --at-proportion for paper @paper on preset @preset
 * with the options @opts. 0, or -EINVAL with why in @err (the paper
 * names no cache to scale by).
 */
int rp_proportion_size(const char *paper, const char *preset,
		       const struct ng_workload *w, char **opts, int nopts,
		       struct rp_prop_size *ps, char *err, size_t errlen);

/* A paper's data file; 0 or the usage error's exit status. */
int rp_parse(FILE *f, const char *path, struct rp_paper *p);

/* The rows of DIR/results.csv, at most @max; their count. */
unsigned int rp_read_rows(const char *dir, struct rp_row *r,
			  unsigned int max);

const struct rp_row *rp_find_row(const struct rp_row *r, unsigned int n,
				 const char *wl, const char *sys,
				 const char *key);

/*
 * A figure of metric "page-blocks" (CODA Fig. 5) is no ratio: a row per
 * workload, a column per bucket of blocks a page (ngemu/model/
 * page_access.h), the shares of the one system's pages; its mean row the
 * mean of each column over the verified runs. Not a claim's or a sweep's.
 */
#define RP_PAGE_BLOCKS	"page-blocks"

/*
 * @metric of @a over @b: speedup (@b's modeled time / @a's), traffic
 * (link bytes), remote (share of remote requests), link-share (share of
 * requests served over a link), l2-miss (L2 misses, cold ones excluded),
 * unnec-inv (evict-initiated invalidations of lines a sharer's L2 held),
 * latency (every memory request's average issue-to-completion time),
 * memory (the bytes the data takes: footprint and replicas), each @a's /
 * @b's; NAN when undefined (a row missing, a count the runs
 * do not report, or nothing in @b).
 */
double rp_ratio(const char *metric, const struct rp_row *a,
		const struct rp_row *b);
/* The numerator and denominator of that ratio; false when undefined. */
bool rp_parts(const char *metric, const struct rp_row *a,
	      const struct rp_row *b, double *num, double *den);

/*
 * A mean over workloads of @metric of a system's row over the
 * reference's, of kind @kind. A workload enters only when both rows
 * exist and verified their results and its ratio is defined (a run that
 * read stale data is no measurement of the system); the mean of none is
 * NAN.
 */
struct rp_mean {
	enum rp_mean_kind kind;
	const char *metric;
	double acc, num, den;
	unsigned int k;
};

/* Adds the pair; false when it was left out. */
bool rp_mean_add(struct rp_mean *m, const struct rp_row *a,
		 const struct rp_row *b);
double rp_mean_value(const struct rp_mean *m);

/*
 * The sweeps of the figures that have a key, each into OUT/sweeps/ID,
 * with the arguments @base (the preset, --jobs, bench options); the
 * worst exit status, the points without a result added to *@missing.
 * Stops at an interrupt (interrupted()).
 */
int rp_run_sweeps(const char *out, const struct rp_paper *p,
		  char **base, int nbase, size_t *missing);

/*
 * Every figure's table (all in OUT/figures.csv and figures.json) and
 * plot (OUT/figures/ID.gp, ID.dat, ID.svg, ID.png), its section of the
 * report in @md; @r: the main sweep's rows. 0, or -errno after a message
 * when a file could not be written (each is written whole or not at all).
 */
int rp_write_figures(const char *out, const struct rp_paper *p,
		     const struct rp_row *r, unsigned int n, FILE *md);

#endif /* NGEMU_REPRODUCE_H */
