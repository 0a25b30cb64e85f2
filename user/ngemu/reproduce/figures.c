// SPDX-License-Identifier: GPL-2.0
/*
 * ngemu reproduce's figures (reproduce.h). A figure of bars is made of
 * the main sweep's points: a row per workload and one for their mean, a
 * column per system. A figure over a config key has its own sweep in
 * OUT/sweeps/ID (the system and its reference at each value): a row per
 * value, a column per workload and their mean. Each cell holds ngemu's
 * value beside the paper's, where the paper's text states one, and their
 * ratio; each figure is drawn by gnuplot from a script written next to
 * its data, so that a user can restyle it. A figure of page-blocks (CODA
 * Fig. 5) has a column per bucket of blocks a page, stacked.
 */
#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "../commands.h"
#include "../interrupt.h"
#include "../out_file.h"
#include "reproduce.h"
#include "../sweep/sweep.h"
#include "ngemu/config.h"
#include "ngemu/model/page_access.h"
#include "ngemu/util/json.h"

#define RP_MAX_COLS	32

/* Comma list @l into @v (copied into @buf); the count. */
static unsigned int items(const char *l, char *buf, size_t len, char **v,
			  unsigned int max)
{
	char *save = NULL;
	unsigned int n = 0;

	snprintf(buf, len, "%s", l);
	for (char *t = strtok_r(buf, ",", &save); t && n < max;
	     t = strtok_r(NULL, ",", &save))
		v[n++] = t;
	return n;
}

int rp_run_sweeps(const char *out, const struct rp_paper *p,
		  char **base, int nbase, size_t *missing)
{
	char dir[1024], sys[80], grid[320], fixed[160], keys[8][52], *v[600];
	int worst = NG_EXIT_OK;
	unsigned int nk;

	snprintf(dir, sizeof(dir), "%s/sweeps", out);
	if (mkdir(dir, 0755) && errno != EEXIST) {
		fprintf(stderr, "ngemu reproduce: cannot make %s: %s\n", dir,
			strerror(errno));
		return NG_EXIT_FAIL;
	}
	for (unsigned int i = 0; i < p->nfig; i++) {
		const struct rp_fig *f = &p->f[i];
		int n = 0, ret;

		if (!f->key[0])
			continue;
		if (interrupted())
			break;
		snprintf(dir, sizeof(dir), "%s/sweeps/%s", out, f->id);
		if (strcmp(f->sys, f->ref))
			snprintf(sys, sizeof(sys), "%s,%s", f->sys, f->ref);
		else
			snprintf(sys, sizeof(sys), "%s", f->sys);
		snprintf(grid, sizeof(grid), "%s=%s", f->key, f->vals);
		v[n++] = "sweep";
		for (int k = 0; k < nbase && n < 590; k++)
			v[n++] = base[k];
		v[n++] = "--workloads";
		v[n++] = (char *)(f->wls[0] ? f->wls : p->workloads);
		v[n++] = "--systems";
		v[n++] = sys;
		v[n++] = "--grid";
		v[n++] = grid;
		/* "K=V K2=V2" as "--K V --K2 V2" */
		snprintf(fixed, sizeof(fixed), "%s", f->fixed);
		nk = 0;
		for (char *save = NULL, *t = strtok_r(fixed, " ", &save);
		     t && nk < 8; t = strtok_r(NULL, " ", &save)) {
			char *eq = strchr(t, '=');

			*eq = '\0';
			snprintf(keys[nk], sizeof(keys[nk]), "--%s", t);
			v[n++] = keys[nk++];
			v[n++] = eq + 1;
		}
		v[n++] = "--out";
		v[n++] = dir;
		v[n] = NULL;
		fflush(stdout);
		fprintf(stderr, "ngemu reproduce: %s (%s)\n", f->id, f->source);
		ret = sweep_main(n, v, missing);
		if (ret > worst)
			worst = ret;
	}
	return worst;
}

/* The paper's value at @row, @col of figure @f, or 0. */
static double paper_value(const struct rp_paper *p, const struct rp_fig *f,
			  const char *row, const char *col)
{
	for (unsigned int i = 0; i < p->nval; i++)
		if (!strcmp(p->v[i].fig, f->id) && !strcmp(p->v[i].row, row) &&
		    !strcmp(p->v[i].col, col))
			return p->v[i].v;
	return 0;
}

/*
 * A figure's table: @rows x @cols, ngemu's and the paper's values, and
 * whether a run behind ngemu's did not verify its result.
 */
struct rp_table {
	char *row[80], *col[RP_MAX_COLS];
	unsigned int nrow, ncol;
	double ngemu[80][RP_MAX_COLS], paper[80][RP_MAX_COLS];
	bool unverified[80][RP_MAX_COLS];
	char rbuf[1024], cbuf[512];
};

/*
 * ngemu's value of figure @f at workload @wl and column @c: a system
 * (bars), or a value of the key; *@unver set when a run did not verify.
 */
/* The system's and the reference's rows behind figure @f's value there. */
static void rows(const struct rp_fig *f, const struct rp_row *r,
		 unsigned int n, const char *wl, const char *c,
		 const struct rp_row **a, const struct rp_row **b)
{
	if (f->key[0]) {
		*a = rp_find_row(r, n, wl, f->sys, c);
		*b = rp_find_row(r, n, wl, f->ref, f->ref_at[0] ? f->ref_at : c);
	} else {
		*a = rp_find_row(r, n, wl, c, "");
		*b = rp_find_row(r, n, wl, f->ref, "");
	}
}

static double value(const struct rp_fig *f, const struct rp_row *r,
		    unsigned int n, const char *wl, const char *c, bool *unver)
{
	const struct rp_row *a, *b;

	rows(f, r, n, wl, c, &a, &b);
	*unver |= (a && !a->verified) || (b && !b->verified);
	return rp_ratio(f->metric, a, b);
}

/*
 * A page-blocks figure: a row per workload and their mean, a column per
 * bucket, the shares of system @f->sys's pages; the mean row the
 * arithmetic mean over the verified runs that report the shares.
 */
static void fill_page_blocks(const struct rp_paper *p, const struct rp_fig *f,
			     const struct rp_row *r, unsigned int n,
			     struct rp_table *t)
{
	double sum[RP_PBLK] = { 0 };
	unsigned int k = 0;

	t->nrow = items(f->wls[0] ? f->wls : p->workloads, t->rbuf,
			sizeof(t->rbuf), t->row, 79);
	t->ncol = RP_PBLK;
	for (unsigned int j = 0; j < RP_PBLK; j++)
		t->col[j] = (char *)ng_pageacc_bucket_name(j);
	for (unsigned int i = 0; i < t->nrow; i++) {
		const struct rp_row *a = rp_find_row(r, n, t->row[i], f->sys, "");
		bool ok = a && a->pblk_n == RP_PBLK;

		for (unsigned int j = 0; j < RP_PBLK; j++) {
			t->ngemu[i][j] = ok ? a->pblk[j] : NAN;
			t->unverified[i][j] = a && !a->verified;
			if (ok && a->verified)
				sum[j] += a->pblk[j];
		}
		k += ok && a->verified;
	}
	for (unsigned int j = 0; j < RP_PBLK; j++)
		t->ngemu[t->nrow][j] = k ? sum[j] / k : NAN;
	t->row[t->nrow++] = "mean";
}

/*
 * A sweep's mean over its @nv values (@t's first rows) at workload @w,
 * or over every one of the @nwl workloads @wl when @w is "mean".
 */
static double over_values(const struct rp_fig *f, const struct rp_row *r,
			  unsigned int n, const struct rp_table *t,
			  unsigned int nv, const char *w, char *const *wl,
			  unsigned int nwl)
{
	struct rp_mean m = { .kind = f->mean, .metric = f->metric };
	const struct rp_row *a, *b;

	for (unsigned int v = 0; v < nv; v++)
		for (unsigned int k = 0; k < nwl; k++) {
			if (strcmp(w, "mean") && strcmp(w, wl[k]))
				continue;
			rows(f, r, n, wl[k], t->row[v], &a, &b);
			(void)rp_mean_add(&m, a, b);
		}
	return rp_mean_value(&m);
}

static void fill(const struct rp_paper *p, const struct rp_fig *f,
		 const struct rp_row *r, unsigned int n, struct rp_table *t)
{
	char *wl[79], wbuf[1024];
	unsigned int nwl = items(f->wls[0] ? f->wls : p->workloads, wbuf,
				 sizeof(wbuf), wl, 79);
	bool keyed = f->key[0];

	memset(t, 0, sizeof(*t));
	if (!strcmp(f->metric, RP_PAGE_BLOCKS)) {
		fill_page_blocks(p, f, r, n, t);
		return;
	}
	/* bars: workloads x systems; over a key: values x workloads */
	if (keyed) {
		t->nrow = items(f->vals, t->rbuf, sizeof(t->rbuf), t->row, 80);
		t->ncol = items(f->wls[0] ? f->wls : p->workloads, t->cbuf,
				sizeof(t->cbuf), t->col, RP_MAX_COLS - 1);
		t->col[t->ncol++] = "mean";
		/* the mean over the values, where the paper gives one */
		for (unsigned int v = 0; v < p->nval && t->nrow < 80; v++)
			if (!strcmp(p->v[v].fig, f->id) &&
			    !strcmp(p->v[v].col, "mean")) {
				t->row[t->nrow++] = "mean";
				break;
			}
	} else {
		t->nrow = items(f->wls[0] ? f->wls : p->workloads, t->rbuf,
				sizeof(t->rbuf), t->row, 79);
		t->row[t->nrow++] = "mean";
		t->ncol = items(f->sys, t->cbuf, sizeof(t->cbuf), t->col,
				RP_MAX_COLS);
	}
	for (unsigned int i = 0; i < t->nrow; i++) {
		for (unsigned int j = 0; j < t->ncol; j++) {
			const char *w = keyed ? t->col[j] : t->row[i];
			const char *c = keyed ? t->row[i] : t->col[j];
			struct rp_mean m = { .kind = f->mean, .metric = f->metric };
			bool *u = &t->unverified[i][j];
			const struct rp_row *a, *b;

			if (keyed && !strcmp(c, "mean")) {
				t->ngemu[i][j] = over_values(f, r, n, t, i, w,
							     wl, nwl);
			} else if (strcmp(w, "mean")) {
				t->ngemu[i][j] = value(f, r, n, w, c, u);
			} else {
				/* of the verified runs only (rp_mean_add()) */
				for (unsigned int k = 0; k < nwl; k++) {
					rows(f, r, n, wl[k], c, &a, &b);
					(void)rp_mean_add(&m, a, b);
				}
				t->ngemu[i][j] = rp_mean_value(&m);
			}
			t->paper[i][j] = paper_value(p, f, w, c);
		}
	}
}

static void metric_label(const char *m, const char *ref, char *buf,
			 size_t len)
{
	if (!strcmp(m, "speedup"))
		snprintf(buf, len, "speed-up over %s (x)", ref);
	else if (!strcmp(m, RP_PAGE_BLOCKS))
		snprintf(buf, len, "share of the pages, by the blocks touching each");
	else
		snprintf(buf, len, "%s / %s's (ratio)",
			 !strcmp(m, "traffic") ? "inter-GPU link bytes" :
			 !strcmp(m, "remote") ? "share of remote requests" :
			 !strcmp(m, "l2-miss") ? "L2 misses (not cold)" :
			 !strcmp(m, "unnec-inv") ? "unnecessary invalidations" :
			 !strcmp(m, "latency") ? "average memory latency" :
			 !strcmp(m, "memory") ? "memory taken (footprint and replicas)" :
			 "share of requests served over a link", ref);
}

/* @s for a gnuplot string in double quotes: its own quotes made single. */
static const char *quoted(const char *s, char *buf, size_t len)
{
	size_t i;

	for (i = 0; s[i] && i + 1 < len; i++)
		buf[i] = s[i] == '"' || s[i] == '\\' ? '\'' : s[i];
	buf[i] = '\0';
	return buf;
}

/* ID.dat: a row per table row, ngemu's columns then the paper's (@has). */
static void plot_data(FILE *d, const struct rp_fig *f, const struct rp_table *t,
		      const bool *has)
{
	fprintf(d, "# %s: %s; '-': no value\n%s", f->id, f->source,
		f->key[0] ? f->key : "workload");
	for (unsigned int j = 0; j < t->ncol; j++)
		fprintf(d, "\t%s", t->col[j]);
	for (unsigned int j = 0; j < t->ncol; j++)
		if (has[j])
			fprintf(d, "\tpaper:%s", t->col[j]);
	fprintf(d, "\n");
	for (unsigned int i = 0; i < t->nrow; i++) {
		fprintf(d, "%s", t->row[i]);
		for (unsigned int j = 0; j < t->ncol; j++)
			fprintf(d, isnan(t->ngemu[i][j]) ? "\t-" : "\t%g", t->ngemu[i][j]);
		for (unsigned int j = 0; j < t->ncol; j++)
			if (has[j])
				fprintf(d, t->paper[i][j] > 0 ? "\t%g" : "\t-",
					t->paper[i][j]);
		fprintf(d, "\n");
	}
}

/* ID.gp: ID.dat drawn as SVG and PNG, the paper's values as points. */
static void plot_script(FILE *g, const struct rp_fig *f,
			const struct rp_table *t, const bool *has)
{
	const struct ng_key *key = f->key[0] ? ng_config_find_key(f->key) : NULL;
	char ylabel[160], q1[160], q2[160];
	unsigned int col;

	metric_label(f->metric, f->ref, ylabel, sizeof(ylabel));
	fprintf(g, "# %s: %s. Edit and run 'gnuplot %s.gp' here.\n"
		"set datafile separator '\\t'\nset datafile missing '-'\n"
		"set key outside right top\nset grid ytics\nset yrange [0:*]\nset offsets 0, 0, graph 0.08, 0\n"
		"set title \"%s\" noenhanced\nset ylabel \"%s\" noenhanced\n"
		"set xlabel \"%s%s%s\" noenhanced\n",
		f->id, f->source, f->id, quoted(f->source, q1, sizeof(q1)), ylabel,
		key ? key->name : "workload", key ? ": " : "",
		key ? quoted(key->help, q2, sizeof(q2)) : "");
	if (f->key[0])
		fprintf(g, "set style data linespoints\n");
	else if (!strcmp(f->metric, RP_PAGE_BLOCKS))
		fprintf(g, "set style data histograms\nset style histogram rowstacked\n"
			"set style fill solid 0.8 border -1\nset xtics rotate by 45 right nomirror\n"
			"set yrange [0:1]\n");
	else
		fprintf(g, "set style data histograms\nset style histogram clustered gap 1\n"
			"set style fill solid 0.8 border -1\nset xtics rotate by 45 right nomirror\n");
	for (int k = 0; k < 2; k++) {
		fprintf(g, "set terminal %s\nset output '%s.%s'\nplot ",
			k ? "pngcairo size 1000,500" : "svg size 1000,500",
			f->id, k ? "png" : "svg");
		for (unsigned int j = 0; j < t->ncol; j++)
			fprintf(g, "%s'%s.dat' using %s%u%s title columnheader(%u) noenhanced",
				j ? ", " : "", f->id, f->key[0] ? "0:" : "",
				j + 2, j ? "" : ":xtic(1)", j + 2);
		col = t->ncol + 2;
		for (unsigned int j = 0; j < t->ncol; j++)
			if (has[j]) {
				fprintf(g, ", '%s.dat' using %s%u title columnheader(%u) noenhanced%s",
					f->id, f->key[0] ? "0:" : "", col, col,
					f->key[0] ? " with points pt 7 ps 1.5" : "");
				col++;
			}
		fprintf(g, "\n");
	}
}

/*
 * ID.dat (a row per table row, ngemu's columns then the paper's) and
 * ID.gp, then drawn; 0, or -errno when a file could not be written.
 */
static int plot(const char *dir, const struct rp_fig *f,
		const struct rp_table *t)
{
	bool has[RP_MAX_COLS] = { false }, data = false;
	char path[1200];
	struct out_file od, og;
	int err;

	snprintf(path, sizeof(path), "%s/%s.dat", dir, f->id);
	err = out_open(&od, "reproduce", path);
	if (err)
		return err;
	snprintf(path, sizeof(path), "%s/%s.gp", dir, f->id);
	err = out_open(&og, "reproduce", path);
	if (err) {
		out_abort(&od);
		return err;
	}
	for (unsigned int i = 0; i < t->nrow; i++)
		for (unsigned int j = 0; j < t->ncol; j++) {
			has[j] |= t->paper[i][j] > 0;
			data |= !isnan(t->ngemu[i][j]) || t->paper[i][j] > 0;
		}
	plot_data(od.f, f, t, has);
	plot_script(og.f, f, t, has);
	err = out_commit_pair(&od, &og);
	if (err)
		return err;
	snprintf(path, sizeof(path), "%s.gp", f->id);
	/* gnuplot fails on a plot of nothing: say why there is none */
	if (!data)
		fprintf(stderr, "ngemu reproduce: figure %s has no value, ngemu's or the paper's: nothing to draw (%s/%s not run)\n",
			f->id, dir, path);
	else
		run_gnuplot("reproduce", dir, path);
	return 0;
}

static void cell(FILE *md, double ngemu, double paper, bool unverified)
{
	if (!isnan(ngemu))
		fprintf(md, " %.3g%s", ngemu, unverified ? "*" : "");
	else
		fprintf(md, " -");
	if (paper > 0)
		fprintf(md, isnan(ngemu) ? " (paper %.3g)" : " (paper %.3g, %.2fx)",
			paper, ngemu / paper);
	fprintf(md, " |");
}

/* A value of the figure: a line of figures.csv, an object of figures.json. */
static void figure_value(const struct rp_fig *f, const struct rp_table *t,
			 unsigned int a, unsigned int c, FILE *all,
			 struct ng_json *j)
{
	double x = t->ngemu[a][c], y = t->paper[a][c];

	/* no value: an empty field, null in JSON */
	fprintf(all, "%s,\"%s\",%s,%s,%s,", f->id, f->source,
		f->metric, t->row[a], t->col[c]);
	fprintf(all, isnan(x) ? "," : "%.6g,", x);
	fprintf(all, y > 0 ? "%.6g," : ",", y);
	fprintf(all, y > 0 && !isnan(x) ? "%.6g," : ",", x / y);
	fprintf(all, "%s\n", t->unverified[a][c] ? "false" : "true");
	ng_json_object_begin(j);
	ng_json_kv_string(j, "figure", f->id);
	ng_json_kv_string(j, "row", t->row[a]);
	ng_json_kv_string(j, "column", t->col[c]);
	ng_json_kv_double(j, "ngemu", x);
	ng_json_kv_double(j, "paper", y > 0 ? y : NAN);
	ng_json_kv_double(j, "ngemu_over_paper", y > 0 ? x / y : NAN);
	ng_json_kv_bool(j, "verified", !t->unverified[a][c]);
	ng_json_object_end(j);
}

/*
 * Figure @f's section of report.md, its table @t's values in
 * figures.csv (@all) and figures.json (@j).
 */
static void figure_md(const struct rp_paper *p, const struct rp_fig *f,
		      const struct rp_table *t, FILE *md, FILE *all,
		      struct ng_json *j)
{
	bool unver = false;

	if (!strcmp(f->metric, RP_PAGE_BLOCKS))
		fprintf(md, "\n### %s: %s\n\nThe shares of %s's pages by the number of blocks that touched them (page profile), ngemu's `%s` preset; mean: %s of the verified runs.\n\n| workload |",
			f->id, f->source, f->sys, p->preset,
			rp_mean_names[f->mean]);
	else
		fprintf(md, "\n### %s: %s\n\n%s of %s over %s%s%s%s, ngemu's `%s` preset; mean: %s of the verified runs.\n\n| %s |",
			f->id, f->source, f->metric, f->sys, f->ref,
			f->key[0] ? " at each value of " : "", f->key,
			f->ref_at[0] ? " (the reference at one value)" : "",
			p->preset, rp_mean_names[f->mean],
			f->key[0] ? f->key : "workload");
	for (unsigned int c = 0; c < t->ncol; c++)
		fprintf(md, " %s |", t->col[c]);
	fprintf(md, "\n|---|");
	for (unsigned int c = 0; c < t->ncol; c++)
		fprintf(md, "---|");
	fprintf(md, "\n");
	for (unsigned int a = 0; a < t->nrow; a++) {
		fprintf(md, "| %s |", t->row[a]);
		for (unsigned int c = 0; c < t->ncol; c++) {
			cell(md, t->ngemu[a][c], t->paper[a][c],
			     t->unverified[a][c]);
			unver |= t->unverified[a][c];
			figure_value(f, t, a, c, all, j);
		}
		fprintf(md, "\n");
	}
	if (unver)
		fprintf(md, "\n\\* a run behind it did not verify its result (a system\n"
			"without coherence reads stale data); its values are kept.\n");
	if (f->note[0])
		fprintf(md, "\nWhere ngemu differs: %s\n", f->note);
	fprintf(md, "\n![%s](figures/%s.svg)\n", f->id, f->id);
}

/*
 * OUT/figures made, OUT/figures.csv and OUT/figures.json opened in @oa,
 * @oj; 0, or -errno after a message.
 */
static int figures_open(const char *out, const char *dir, struct out_file *oa,
			struct out_file *oj)
{
	char path[1200];
	int err = 0;

	if (mkdir(dir, 0755) && errno != EEXIST) {
		err = -errno;
		fprintf(stderr, "ngemu reproduce: cannot make %s: %s\n", dir,
			strerror(errno));
		return err;
	}
	snprintf(path, sizeof(path), "%s/figures.csv", out);
	err = out_open(oa, "reproduce", path);
	if (err)
		return err;
	snprintf(path, sizeof(path), "%s/figures.json", out);
	err = out_open(oj, "reproduce", path);
	if (err)
		out_abort(oa);
	return err;
}

int rp_write_figures(const char *out, const struct rp_paper *p,
		     const struct rp_row *r, unsigned int n, FILE *md)
{
	struct rp_table *t = malloc(sizeof(*t));
	struct rp_row *kr = calloc(RP_MAX_ROWS, sizeof(*kr));
	char dir[1024], path[1200];
	struct out_file oa, oj;
	struct ng_json j;
	int err;

	snprintf(dir, sizeof(dir), "%s/figures", out);
	if (!t || !kr) {
		fprintf(stderr, "ngemu reproduce: out of memory\n");
		err = -ENOMEM;
	} else {
		err = figures_open(out, dir, &oa, &oj);
	}
	if (err) {
		free(t);
		free(kr);
		return err;
	}
	fprintf(oa.f, "figure,source,metric,row,column,ngemu,paper,ngemu_over_paper,verified\n");
	ng_json_init(&j, oj.f, true);
	ng_json_array_begin(&j);
	if (p->nfig)
		fprintf(md, "\n## Figures\n\nEach figure's values are ngemu's; where the paper's text states a\n"
			"value, it is beside ngemu's with ngemu's / the paper's. Data and\n"
			"gnuplot scripts: figures/ID.dat, figures/ID.gp; tables: figures.csv.\n");
	for (unsigned int i = 0; i < p->nfig; i++) {
		const struct rp_fig *f = &p->f[i];
		const struct rp_row *rows = r;
		unsigned int nr = n;

		if (f->key[0]) {
			snprintf(path, sizeof(path), "%s/sweeps/%s", out, f->id);
			nr = rp_read_rows(path, kr, RP_MAX_ROWS);
			rows = kr;
		}
		fill(p, f, rows, nr, t);
		if (!err)
			err = plot(dir, f, t);
		figure_md(p, f, t, md, oa.f, &j);
	}
	ng_json_array_end(&j);
	ng_json_finish(&j);
	free(t);
	free(kr);
	if (err) {
		out_abort(&oa);
		out_abort(&oj);
		return err;
	}
	err = out_commit(&oa);
	if (err) {
		out_abort(&oj);
		return err;
	}
	return out_commit(&oj);
}
