// SPDX-License-Identifier: GPL-2.0
/*
 * The claims table (reproduce.h): one list of columns, rendered as CSV,
 * markdown, JSON and the summary's lines on stdout, so that a column has
 * one name in every format and no format has a column the others lack.
 * A paper's report (claims.csv, claims.json, report.md) and reproduce
 * all's summary (reproduce-summary.*) both print it; the summary adds the
 * paper's name in front.
 */
#include <stdio.h>
#include <string.h>

#include "reproduce.h"
#include "ngemu/util/json.h"

enum kind { TEXT, REAL, UINT };

struct col {
	const char *name;
	enum kind kind;
	bool quoted;		/* CSV: in quotes (the text may hold commas) */
	/* REAL, for people (markdown, stdout): digits, after the point if fixed */
	int digits;
	bool fixed;
	int width;		/* stdout: its width; 0: not on stdout */
	bool if_differs;	/* stdout: only where ngemu differs */
	union {
		const char *(*text)(const struct rp_claim_row *r);
		double (*real)(const struct rp_claim *c);
		unsigned int (*uint)(const struct rp_claim *c);
	} get;
};

static const char *paper(const struct rp_claim_row *r) { return r->paper; }
static const char *id(const struct rp_claim_row *r) { return r->c->id; }
static const char *source(const struct rp_claim_row *r) { return r->c->source; }
static const char *metric(const struct rp_claim_row *r) { return r->c->metric; }
static const char *sys(const struct rp_claim_row *r) { return r->c->sys; }
static const char *ref(const struct rp_claim_row *r) { return r->c->ref; }
static const char *left_out(const struct rp_claim_row *r) { return r->c->left_out; }

static const char *wls(const struct rp_claim_row *r)
{
	return r->c->wls[0] ? r->c->wls : "all";
}

static const char *direction(const struct rp_claim_row *r)
{
	return r->c->shown ? "shown" : "not shown";
}

static const char *mean(const struct rp_claim_row *r)
{
	return rp_mean_names[r->c->mean];
}

/* What to look at where ngemu differs */
static const char *explain(const struct rp_claim_row *r)
{
	return r->c->explain;
}

static double paper_value(const struct rp_claim *c) { return c->paper; }
static double ngemu(const struct rp_claim *c) { return c->ngemu; }
static unsigned int used(const struct rp_claim *c) { return c->used; }
static unsigned int total(const struct rp_claim *c) { return c->total; }

static double over_paper(const struct rp_claim *c)
{
	return c->paper > 0 ? c->ngemu / c->paper : 0;
}

#define T(n, f, q, w) { .name = n, .kind = TEXT, .quoted = q, .width = w, .get.text = f }
#define R(n, f, d, x, w)						\
	{ .name = n, .kind = REAL, .digits = d, .fixed = x, .width = w,	\
	  .get.real = f }
#define U(n, f) { .name = n, .kind = UINT, .get.uint = f }

/* cols[0], the paper's name, only in the summary */
static const struct col cols[] = {
	T("paper", paper, false, -9),
	T("claim", id, false, -26),
	T("source", source, true, 0),
	T("metric", metric, false, 0),
	T("system", sys, false, 0),
	T("reference", ref, false, 0),
	T("workloads", wls, true, 0),
	R("paper_value", paper_value, 3, false, 11),
	R("ngemu", ngemu, 3, false, 8),
	R("ngemu_over_paper", over_paper, 2, true, 16),
	T("direction", direction, false, -9),
	T("mean", mean, false, 0),
	U("used", used),
	U("total", total),
	T("left_out", left_out, true, 0),
	{ .name = "explain", .kind = TEXT, .quoted = true, .width = 1,
	  .if_differs = true, .get.text = explain },
};

#define NCOLS (sizeof(cols) / sizeof(cols[0]))

static unsigned int first(bool with_paper)
{
	return with_paper ? 0 : 1;
}

/* Column @k of row @r as text for people, in @buf. */
static const char *cell(const struct col *k, const struct rp_claim_row *r,
			char *buf, size_t len)
{
	switch (k->kind) {
	case TEXT:
		return k->get.text(r);
	case REAL:
		snprintf(buf, len, k->fixed ? "%.*f" : "%.*g", k->digits,
			 k->get.real(r->c));
		return buf;
	case UINT:
		snprintf(buf, len, "%u", k->get.uint(r->c));
		return buf;
	}
	return "";
}

void rp_claims_csv(FILE *f, const struct rp_claim_row *rows, unsigned int n,
		   bool with_paper)
{
	for (unsigned int k = first(with_paper); k < NCOLS; k++)
		fprintf(f, "%s%s", cols[k].name, k + 1 < NCOLS ? "," : "\n");
	for (unsigned int i = 0; i < n; i++)
		for (unsigned int k = first(with_paper); k < NCOLS; k++) {
			const struct col *c = &cols[k];
			const char *end = k + 1 < NCOLS ? "," : "\n";

			if (c->kind == REAL)
				fprintf(f, "%.6g%s", c->get.real(rows[i].c), end);
			else if (c->kind == UINT)
				fprintf(f, "%u%s", c->get.uint(rows[i].c), end);
			else
				fprintf(f, c->quoted ? "\"%s\"%s" : "%s%s",
					c->get.text(&rows[i]), end);
		}
}

void rp_claims_md(FILE *f, const struct rp_claim_row *rows, unsigned int n,
		  bool with_paper)
{
	char buf[64];

	for (unsigned int k = first(with_paper); k < NCOLS; k++)
		fprintf(f, "| %s ", cols[k].name);
	fprintf(f, "|\n");
	for (unsigned int k = first(with_paper); k < NCOLS; k++)
		fprintf(f, "|---");
	fprintf(f, "|\n");
	for (unsigned int i = 0; i < n; i++) {
		for (unsigned int k = first(with_paper); k < NCOLS; k++) {
			const char *v = cell(&cols[k], &rows[i], buf, sizeof(buf));

			/* the paper's name links to its report */
			if (!k && rows[i].link)
				fprintf(f, "| [%s](%s) ", v, rows[i].link);
			else
				fprintf(f, "| %s ", v);
		}
		fprintf(f, "|\n");
	}
}

void rp_claims_json(struct ng_json *j, const struct rp_claim_row *rows,
		    unsigned int n, bool with_paper)
{
	ng_json_array_begin(j);
	for (unsigned int i = 0; i < n; i++) {
		ng_json_object_begin(j);
		for (unsigned int k = first(with_paper); k < NCOLS; k++) {
			const struct col *c = &cols[k];

			if (c->kind == REAL)
				ng_json_kv_double(j, c->name, c->get.real(rows[i].c));
			else if (c->kind == UINT)
				ng_json_kv_uint(j, c->name, c->get.uint(rows[i].c));
			else
				ng_json_kv_string(j, c->name, c->get.text(&rows[i]));
		}
		ng_json_object_end(j);
	}
	ng_json_array_end(j);
}

/* The columns with a width, the last one (explain) where ngemu differs. */
void rp_claims_human(FILE *f, const struct rp_claim_row *rows, unsigned int n,
		     bool with_paper)
{
	unsigned int shown = 0;
	char buf[64];

	fprintf(f, "\n");
	for (unsigned int k = first(with_paper); k < NCOLS; k++)
		if (cols[k].width)
			fprintf(f, "%*s ", cols[k].width, cols[k].name);
	fprintf(f, "\n");
	for (unsigned int i = 0; i < n; i++) {
		for (unsigned int k = first(with_paper); k < NCOLS; k++) {
			const struct col *c = &cols[k];

			if (!c->width)
				continue;
			if (c->if_differs && rows[i].c->shown)
				continue;
			fprintf(f, "%*s ", c->width, cell(c, &rows[i], buf, sizeof(buf)));
		}
		fprintf(f, "\n");
		shown += rows[i].c->shown;
	}
	fprintf(f, "%u of %u claims in the paper's direction\n", shown, n);
}
