/* SPDX-License-Identifier: GPL-2.0 */
/*
 * ngemu reproduce (cmd_reproduce.c): a paper's experiments as its data
 * file describes them (reproduce_data.c), and its figures, each a table
 * of ngemu's values beside the paper's and a plot (reproduce_figures.c).
 */
#ifndef NGEMU_REPRODUCE_H
#define NGEMU_REPRODUCE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>

#define RP_MAX_CLAIMS	32
#define RP_MAX_FIGS	24
#define RP_MAX_VALS	64
#define RP_MAX_ROWS	4096

/* A headline claim: a ratio over workloads, the paper's and ngemu's. */
struct rp_claim {
	char id[48], source[48], metric[24], sys[32], ref[32], explain[256];
	char wls[512];			/* the workloads it is about; "": all */
	double paper, ngemu;
	bool shown;
};

/*
 * A figure: @metric of each of @sys over @ref, per workload and their
 * mean; or, when @key is set, of the one system @sys over @ref at each
 * of @vals of a config key (@ref at the same value, or at @ref_at).
 */
struct rp_fig {
	char id[32], source[160], metric[24], ref[32], ref_at[32];
	char sys[256], wls[512], key[48], vals[256];
	char fixed[128];		/* "K=V ...": settings of every point */
	char note[1024];		/* where ngemu differs, and why */
};

/* A value the paper states: figure @fig, @row (a workload or "mean"),
 * @col (a system, or a value of the figure's key). */
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
};

/* A paper's data file; 0 or the usage error's exit status. */
int ng_rp_parse(FILE *f, const char *path, struct rp_paper *p);

/* The rows of DIR/results.csv, at most @max; their count. */
unsigned int ng_rp_read_rows(const char *dir, struct rp_row *r,
			     unsigned int max);

const struct rp_row *ng_rp_row(const struct rp_row *r, unsigned int n,
			       const char *wl, const char *sys,
			       const char *key);

/*
 * @metric of @a over @b: speedup (@b's modeled time / @a's), traffic
 * (link bytes), remote (share of remote requests), link-share (share of
 * requests served over a link), each @a's / @b's; NAN when undefined
 * (a row missing, or nothing in @b).
 */
double ng_rp_ratio(const char *metric, const struct rp_row *a,
		   const struct rp_row *b);

/*
 * A mean of ratios, geometric for speed-ups, arithmetic otherwise; NAN
 * ones are left out, and the mean of none is NAN.
 */
struct rp_mean {
	double acc;
	unsigned int k;
	bool geo;
};

void ng_rp_mean_add(struct rp_mean *m, double x);
double ng_rp_mean(const struct rp_mean *m);

/*
 * The sweeps of the figures that have a key, each into OUT/sweeps/ID,
 * with the arguments @base (the preset, --jobs, bench options); the
 * worst exit status, the points without a result added to *@missing.
 * Stops at an interrupt (ng_interrupted()).
 */
int ng_rp_run_sweeps(const char *out, const struct rp_paper *p,
		     char **base, int nbase, size_t *missing);

/*
 * Every figure's table (all in OUT/figures.csv and figures.json) and
 * plot (OUT/figures/ID.gp, ID.dat, ID.svg, ID.png), its section of the
 * report in @md; @r: the main sweep's rows. 0, or -errno after a message
 * when a file could not be written (each is written whole or not at all).
 */
int ng_rp_write_figures(const char *out, const struct rp_paper *p,
			const struct rp_row *r, unsigned int n, FILE *md);

#endif /* NGEMU_REPRODUCE_H */
