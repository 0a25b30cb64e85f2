// SPDX-License-Identifier: GPL-2.0
/*
 * A paper's data file for ngemu reproduce (reproduce.h), user/papers/
 * PAPER/reproduce.txt: the experiment (its workloads; title, preset,
 * reference and systems when they are not the paper plug-in's), its
 * headline claims, its figures and the values the paper
 * states for them, each with where in the paper it is:
 *
 *   claim ID | SOURCE | METRIC MEAN | SYSTEM [vs REF] | VALUE | EXPLAIN [| WORKLOADS]
 *   figure ID | SOURCE | METRIC MEAN | SYSTEMS [vs REF] [| WORKLOADS]
 *   sweep ID | SOURCE | METRIC MEAN | SYSTEM [vs REF[@V]] | KEY=V1,V2.. [K=V..] [| WORKLOADS]
 *   paper ID | ROW | COLUMN | VALUE | WHERE
 *   note ID | TEXT  (under the figure's table: why ngemu's values differ)
 *
 * A figure's METRIC may also be page-blocks (reproduce.h), of one system.
 *
 * (MEAN: gmean, amean, hmean or sums, reproduce.h), and the sweeps'
 * results read back, with the ratios the claims and the figures are made
 * of.
 */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "../bench/bench.h"
#include "../commands.h"
#include "reproduce.h"
#include "ngemu/config.h"

#define CPY(dst, src)	snprintf((dst), sizeof(dst), "%s", (src))

const char *const rp_mean_names[4] = {
	[RP_GMEAN] = "gmean", [RP_AMEAN] = "amean", [RP_HMEAN] = "hmean",
	[RP_SUMS] = "sums",
};

static bool metric_ok(const char *m)
{
	return !strcmp(m, "speedup") || !strcmp(m, "traffic") ||
	       !strcmp(m, "remote") || !strcmp(m, "link-share") ||
	       !strcmp(m, "l2-miss") || !strcmp(m, "unnec-inv") ||
	       !strcmp(m, "latency") || !strcmp(m, "memory") || !strcmp(m, RP_PAGE_BLOCKS);
}

/*
 * "METRIC MEAN" into @metric and @mean: every claim and figure names how
 * it averages (the paper's, where it says). False when either is wrong.
 */
static bool metric_mean(const char *f, char *metric, size_t len,
			enum rp_mean_kind *mean)
{
	const char *sp = strchr(f, ' ');

	if (!sp)
		return false;
	snprintf(metric, len, "%.*s", (int)(sp - f), f);
	sp += strspn(sp, " ");
	for (unsigned int i = 0; i < 4; i++)
		if (!strcmp(sp, rp_mean_names[i])) {
			*mean = (enum rp_mean_kind)i;
			return metric_ok(metric);
		}
	return false;
}

/* Split @v at '|' into trimmed fields; their count. */
static int fields(char *v, char **fld, int max)
{
	int k = 0;

	for (char *t = strtok(v, "|"); t && k < max; t = strtok(NULL, "|")) {
		char *e;

		t += strspn(t, " \t");
		for (e = t + strlen(t); e > t && (e[-1] == ' ' || e[-1] == '\t'); e--)
			;
		*e = '\0';
		fld[k++] = t;
	}
	return k;
}

/* "SYSTEMS vs REF[@V]" into @sys, @ref, @at. */
static void systems_vs(char *s, char *sys, size_t slen, char *ref,
		       size_t rlen, char *at, size_t alen)
{
	char *vs = strstr(s, " vs "), *a;

	if (vs) {
		*vs = '\0';
		a = strchr(vs + 4, '@');
		if (a) {
			*a = '\0';
			snprintf(at, alen, "%s", a + 1);
		}
		snprintf(ref, rlen, "%s", vs + 4);
	}
	snprintf(sys, slen, "%s", s);
}

/* Every system of comma list @l is a compare system. */
static bool systems_ok(const char *l)
{
	char buf[512], *save = NULL;

	CPY(buf, l);
	for (char *t = strtok_r(buf, ",", &save); t; t = strtok_r(NULL, ",", &save))
		if (!ng_paper_system_find(t, strlen(t), NULL))
			return false;
	return true;
}

/* Whether @item is in comma list @l. */
static bool in_list(const char *l, const char *item)
{
	size_t n = strlen(item);

	for (const char *t = l; t && *t; t = strchr(t, ',') ? strchr(t, ',') + 1 : NULL)
		if (!strncmp(t, item, n) && (t[n] == ',' || !t[n]))
			return true;
	return false;
}

static int parse_claim(char *v, struct rp_paper *p)
{
	struct rp_claim *c = &p->c[p->n];
	char *fld[7], *e;
	int k = fields(v, fld, 7);

	if (k < 6 || p->n == RP_MAX_CLAIMS)
		return -1;
	CPY(c->id, fld[0]);
	CPY(c->source, fld[1]);
	if (!metric_mean(fld[2], c->metric, sizeof(c->metric), &c->mean) ||
	    !strcmp(c->metric, RP_PAGE_BLOCKS))
		return -1;
	systems_vs(fld[3], c->sys, sizeof(c->sys), c->ref, sizeof(c->ref),
		   NULL, 0);
	if (k == 7)
		CPY(c->wls, fld[6]);
	c->paper = strtod(fld[4], &e);
	if (e == fld[4] || *e || c->paper <= 0)
		return -1;
	CPY(c->explain, fld[5]);
	p->n++;
	return 0;
}

static int parse_fig(char *v, struct rp_paper *p, bool sweep)
{
	struct rp_fig *f = &p->f[p->nfig];
	char *fld[6], *eq;
	int k = fields(v, fld, 6), w = sweep ? 5 : 4;

	if (k < w || k > w + 1 || p->nfig == RP_MAX_FIGS)
		return -1;
	CPY(f->id, fld[0]);
	CPY(f->source, fld[1]);
	if (!metric_mean(fld[2], f->metric, sizeof(f->metric), &f->mean))
		return -1;
	systems_vs(fld[3], f->sys, sizeof(f->sys), f->ref, sizeof(f->ref),
		   f->ref_at, sizeof(f->ref_at));
	if (k == w + 1)
		CPY(f->wls, fld[w]);
	if (sweep) {
		char *sp = strchr(fld[4], ' ');

		/* after the grid, settings of every point: "K=V K2=V2" */
		if (sp) {
			*sp++ = '\0';
			CPY(f->fixed, sp);
			for (char *t = f->fixed; *t; ) {
				size_t n = strcspn(t, "=");
				char key[48];

				snprintf(key, sizeof(key), "%.*s", (int)n, t);
				if (!t[n] || !ng_config_key(key, NULL))
					return -1;
				t += n + strcspn(t + n, " ");
				t += strspn(t, " ");
			}
		}
		eq = strchr(fld[4], '=');
		if (!eq || strchr(f->sys, ','))
			return -1;
		*eq = '\0';
		CPY(f->key, fld[4]);
		CPY(f->vals, eq + 1);
		if (!ng_config_key(f->key, NULL) || !f->vals[0] ||
		    (f->ref_at[0] && !in_list(f->vals, f->ref_at)))
			return -1;
	}
	/* page-blocks only in a figure of bars of one system, shares' amean */
	if (!systems_ok(f->sys) || (!strcmp(f->metric, RP_PAGE_BLOCKS) &&
	    (sweep || strchr(f->sys, ',') || f->ref[0] || f->mean != RP_AMEAN)))
		return -1;
	p->nfig++;
	return 0;
}

static int parse_val(char *v, struct rp_paper *p)
{
	struct rp_val *x = &p->v[p->nval];
	char *fld[5], *e;
	int k = fields(v, fld, 5);

	if (k != 5 || p->nval == RP_MAX_VALS)
		return -1;
	CPY(x->fig, fld[0]);
	CPY(x->row, fld[1]);
	CPY(x->col, fld[2]);
	x->v = strtod(fld[3], &e);
	if (e == fld[3] || *e || x->v <= 0)
		return -1;
	CPY(x->where, fld[4]);
	p->nval++;
	return 0;
}

/* A note to figure @v's table, after the figure's line. */
static int parse_note(char *v, struct rp_paper *p)
{
	size_t n = strcspn(v, "|");
	char *t = v + n;

	if (!*t)
		return -1;
	while (n && (v[n - 1] == ' ' || v[n - 1] == '\t'))
		n--;
	v[n] = '\0';
	t++;
	t += strspn(t, " \t");
	for (unsigned int i = 0; i < p->nfig; i++) {
		struct rp_fig *f = &p->f[i];
		size_t len = strlen(f->note);

		if (strcmp(f->id, v))
			continue;
		snprintf(f->note + len, sizeof(f->note) - len, "%s%s",
			 len ? " " : "", t);
		return 0;
	}
	return -1;
}

/* Each item of comma list @l is in list @all; NULL or the first not. */
static const char *missing(const char *l, const char *all)
{
	static char item[64];
	const char *t = l;

	while (t && *t) {
		size_t n = strcspn(t, ",");

		snprintf(item, sizeof(item), "%.*s", (int)n, t);
		if (!in_list(all, item))
			return item;
		t = t[n] ? t + n + 1 : NULL;
	}
	return NULL;
}

/*
 * A figure of bars is made of the main sweep's points: its systems and
 * workloads are the experiment's. Each paper value's figure exists and
 * has its row and column.
 */
static int check_figs(const char *path, struct rp_paper *p)
{
	for (unsigned int i = 0; i < p->nfig; i++) {
		const struct rp_fig *f = &p->f[i];
		const char *m = missing(f->wls, p->workloads);

		if (!m && !f->key[0])
			m = missing(f->sys, p->systems);
		if (!m && !f->key[0])
			m = missing(f->ref, p->systems);
		if (m)
			return usage_error("reproduce", "%s: figure %s: '%s' is not in the experiment's workloads or systems",
					   path, f->id, m);
	}
	for (unsigned int i = 0; i < p->n; i++) {
		const struct rp_claim *c = &p->c[i];
		const char *m = missing(c->wls, p->workloads);

		if (!m)
			m = missing(c->sys, p->systems);
		if (!m)
			m = missing(c->ref, p->systems);
		if (m || !c->sys[0])
			return usage_error("reproduce", "%s: claim %s: '%s' is not in the experiment's workloads or systems",
					   path, c->id, m ? m : "");
	}
	for (unsigned int i = 0; i < p->nval; i++) {
		const struct rp_val *x = &p->v[i];
		const struct rp_fig *f = NULL;

		for (unsigned int j = 0; j < p->nfig && !f; j++)
			if (!strcmp(p->f[j].id, x->fig))
				f = &p->f[j];
		if (!f)
			return usage_error("reproduce", "%s: paper %s: no such figure",
					   path, x->fig);
		if (strcmp(x->row, "mean") &&
		    !in_list(f->wls[0] ? f->wls : p->workloads, x->row))
			return usage_error("reproduce", "%s: paper %s: '%s' is not a workload of the figure",
					   path, x->fig, x->row);
		/* a sweep's "mean": its values' mean; page-blocks: no values */
		if (!strcmp(f->metric, RP_PAGE_BLOCKS) ||
		    (!in_list(f->key[0] ? f->vals : f->sys, x->col) &&
		     (!f->key[0] || strcmp(x->col, "mean"))))
			return usage_error("reproduce", "%s: paper %s: '%s' is not a column of the figure%s", path, x->fig, x->col,
					   strcmp(f->metric, RP_PAGE_BLOCKS) ? "" : " (a page-blocks figure holds no paper values)");
	}
	return 0;
}

/* The form of a line of kind @kind, for a message about one. */
static const char *line_form(const char *kind)
{
	static const char *const form[][2] = {
		{ "claim", "claim ID | SOURCE | METRIC MEAN | SYSTEM [vs REF] | VALUE | EXPLAIN [| WORKLOADS]; MEAN: gmean, amean, hmean or sums" },
		{ "figure", "figure ID | SOURCE | METRIC MEAN | SYSTEMS [vs REF] [| WORKLOADS]; MEAN: gmean, amean, hmean or sums; METRIC page-blocks: amean, one system" },
		{ "sweep", "sweep ID | SOURCE | METRIC MEAN | SYSTEM [vs REF[@V]] | KEY=V1,V2 [K=V...] [| WORKLOADS]; MEAN: gmean, amean, hmean or sums" },
		{ "paper", "paper FIGURE | ROW | COLUMN | VALUE | WHERE, after its figure" },
		{ "note", "note FIGURE | TEXT, after its figure" },
	};

	for (size_t i = 0; i < sizeof(form) / sizeof(form[0]); i++)
		if (!strcmp(kind, form[i][0]))
			return form[i][1];
	return "a line is title, preset, reference, workloads, systems, claim, figure, sweep, paper or note";
}

int rp_parse(FILE *f, const char *path, struct rp_paper *p)
{
	char line[1024];
	unsigned int ln = 0;

	while (fgets(line, sizeof(line), f)) {
		char *v = line + strcspn(line, " \t");
		int bad = 0;

		ln++;
		/* a line cut by the buffer would be read as two */
		if (!strchr(line, '\n') && !feof(f))
			return usage_error("reproduce", "%s:%u: line longer than %zu bytes",
					   path, ln, sizeof(line) - 2);
		line[strcspn(line, "\n")] = '\0';
		if (!line[0] || line[0] == '#')
			continue;
		if (*v)
			*v++ = '\0';
		v += strspn(v, " \t");
		if (!strcmp(line, "title"))
			CPY(p->title, v);
		else if (!strcmp(line, "preset"))
			CPY(p->preset, v);
		else if (!strcmp(line, "reference"))
			CPY(p->ref, v);
		else if (!strcmp(line, "workloads"))
			CPY(p->workloads, v);
		else if (!strcmp(line, "systems"))
			CPY(p->systems, v);
		else if (!strcmp(line, "claim"))
			bad = parse_claim(v, p);
		else if (!strcmp(line, "figure") || !strcmp(line, "sweep"))
			bad = parse_fig(v, p, line[0] == 's');
		else if (!strcmp(line, "paper"))
			bad = parse_val(v, p);
		else if (!strcmp(line, "note"))
			bad = parse_note(v, p);
		else
			bad = -1;
		if (bad)
			return usage_error("reproduce", "%s:%u: cannot read this '%s' line (%s)",
					   path, ln, line, line_form(line));
	}
	if (!p->preset[0] || !p->ref[0] || !p->workloads[0] || !p->systems[0] ||
	    !p->n)
		return usage_error("reproduce", "%s: needs preset, reference, workloads, systems and a claim",
				   path);
	for (unsigned int i = 0; i < p->n; i++)
		if (!p->c[i].ref[0])
			CPY(p->c[i].ref, p->ref);
	for (unsigned int i = 0; i < p->nfig; i++)
		if (!p->f[i].ref[0])
			CPY(p->f[i].ref, p->ref);
	return check_figs(path, p);
}

/*
 * The columns of results.csv a row reads; l2_misses and inv_evict_hits
 * only REC's runs have, footprint and repl_bytes CARVE's, mem_latency_ns
 * runs from before it existed lack.
 */
enum {
	RC_VERIFIED, RC_T, RC_REMOTE, RC_BYTES, RC_LINK, RC_L2M, RC_UNNEC,
	RC_LAT, RC_FOOT, RC_REPL, RC_PBLK, RC_N
};
static const char *const rc_name[RC_N] = {
	"verified", "modeled_s", "remote_fraction", "link_bytes",
	"link_fraction", "l2_misses", "inv_evict_hits", "mem_latency_ns",
	"footprint", "repl_bytes", "page_blocks",
};
#define RC_MAXF	24

/* @line's comma-separated fields, empty ones kept; their count. */
static int split_csv(char *line, char **fld)
{
	int k = 0;

	for (char *t = line; t && k < RC_MAXF; k++)
		fld[k] = strsep(&t, ",");
	return k;
}

/* A count of @fld's column @c: -1 when the file or the row has none. */
static double count(char *const *fld, int k, const int *col, int c)
{
	int i = col[c];

	return i >= 0 && i < k && fld[i][0] ? strtod(fld[i], NULL) : -1;
}

unsigned int rp_read_rows(const char *dir, struct rp_row *r,
			  unsigned int max)
{
	char path[1024], line[1024];
	int col[RC_N], key = -1;
	unsigned int n = 0;
	bool head = false;
	FILE *f;

	snprintf(path, sizeof(path), "%s/results.csv", dir);
	f = fopen(path, "r");
	if (!f)
		return 0;
	while (fgets(line, sizeof(line), f) && n < max) {
		char *fld[RC_MAXF];
		int k;

		line[strcspn(line, "\n")] = '\0';
		k = split_csv(line, fld);
		if (!strcmp(fld[0], "hash")) {
			/* hash,workload,system[,KEY],verified,...: by name */
			for (int c = 0; c < RC_N; c++) {
				col[c] = -1;
				for (int i = 3; i < k; i++)
					if (!strcmp(fld[i], rc_name[c]))
						col[c] = i;
			}
			key = k > 3 && strcmp(fld[3], "verified") ? 3 : -1;
			head = true;
			for (int c = 0; c <= RC_LINK; c++)
				head = head && col[c] >= 0;
			continue;
		}
		if (!head || k < 3 || k <= col[RC_LINK])
			continue;
		CPY(r[n].wl, fld[1]);
		CPY(r[n].sys, fld[2]);
		CPY(r[n].key, key >= 0 ? fld[key] : "");
		r[n].verified = !strcmp(fld[col[RC_VERIFIED]], "true");
		r[n].t = strtod(fld[col[RC_T]], NULL);
		r[n].remote = strtod(fld[col[RC_REMOTE]], NULL);
		r[n].bytes = strtod(fld[col[RC_BYTES]], NULL);
		r[n].link = strtod(fld[col[RC_LINK]], NULL);
		r[n].l2_miss = count(fld, k, col, RC_L2M);
		r[n].unnec_inv = count(fld, k, col, RC_UNNEC);
		r[n].mem_lat = count(fld, k, col, RC_LAT);
		r[n].mem = count(fld, k, col, RC_FOOT);
		if (r[n].mem >= 0 && count(fld, k, col, RC_REPL) >= 0)
			r[n].mem += count(fld, k, col, RC_REPL);
		else
			r[n].mem = -1;
		r[n].pblk_n = 0;
		if (col[RC_PBLK] >= 0 && col[RC_PBLK] < k) {
			char *t = fld[col[RC_PBLK]], *e;

			/* "0.612 0.201 ...": a share a bucket */
			while (r[n].pblk_n < RP_PBLK) {
				double x = strtod(t, &e);

				if (e == t)
					break;
				r[n].pblk[r[n].pblk_n++] = x;
				t = e;
			}
		}
		n++;
	}
	fclose(f);
	return n;
}

const struct rp_row *rp_find_row(const struct rp_row *r, unsigned int n,
				 const char *wl, const char *sys,
				 const char *key)
{
	for (unsigned int i = 0; i < n; i++)
		if (!strcmp(r[i].wl, wl) && !strcmp(r[i].sys, sys) &&
		    !strcmp(r[i].key, key))
			return &r[i];
	return NULL;
}

double rp_ratio(const char *metric, const struct rp_row *a,
		const struct rp_row *b)
{
	double num, den;

	return rp_parts(metric, a, b, &num, &den) ? num / den : NAN;
}

bool rp_parts(const char *metric, const struct rp_row *a,
	      const struct rp_row *b, double *nump, double *denp)
{
	double num, den;

	if (!a || !b)
		return false;
	if (!strcmp(metric, "speedup")) {
		num = b->t;
		den = a->t;
	} else if (!strcmp(metric, "traffic")) {
		num = a->bytes;
		den = b->bytes;
	} else if (!strcmp(metric, "remote")) {
		num = a->remote;
		den = b->remote;
	} else if (!strcmp(metric, "l2-miss")) {
		num = a->l2_miss;
		den = b->l2_miss;
	} else if (!strcmp(metric, "unnec-inv")) {
		num = a->unnec_inv;
		den = b->unnec_inv;
	} else if (!strcmp(metric, "latency")) {
		num = a->mem_lat;
		den = b->mem_lat;
	} else if (!strcmp(metric, "memory")) {
		num = a->mem;
		den = b->mem;
	} else {
		num = a->link;
		den = b->link;
	}
	*nump = num;
	*denp = den;
	/* none of it left is a value (0), none to start from is not */
	return num >= 0 && den > 0;
}

bool rp_mean_add(struct rp_mean *m, const struct rp_row *a,
		 const struct rp_row *b)
{
	double num, den, x;

	if (!a || !b || !a->verified || !b->verified ||
	    !rp_parts(m->metric, a, b, &num, &den))
		return false;
	x = num / den;
	/* the log of 0, the reciprocal of 0: no value for these means */
	if ((m->kind == RP_GMEAN || m->kind == RP_HMEAN) && !(x > 0))
		return false;
	switch (m->kind) {
	case RP_GMEAN:
		m->acc += log(x);
		break;
	case RP_AMEAN:
		m->acc += x;
		break;
	case RP_HMEAN:
		m->acc += 1 / x;
		break;
	case RP_SUMS:
		m->num += num;
		m->den += den;
		break;
	}
	m->k++;
	return true;
}

double rp_mean_value(const struct rp_mean *m)
{
	if (!m->k)
		return NAN;
	switch (m->kind) {
	case RP_GMEAN:
		return exp(m->acc / m->k);
	case RP_AMEAN:
		return m->acc / m->k;
	case RP_HMEAN:
		return m->k / m->acc;
	case RP_SUMS:
		break;
	}
	return m->den > 0 ? m->num / m->den : NAN;
}
