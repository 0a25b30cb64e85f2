// SPDX-License-Identifier: GPL-2.0
/*
 * ngemu reproduce all's summary (reproduce.h): one table of every paper's
 * headline claims, each with the paper's value, ngemu's, their ratio,
 * whether ngemu shows the paper's direction, the workloads in its mean
 * and the counters that explain a difference: what a reader checks first.
 * The same rows on stdout, in reproduce-summary.md, .csv and .json.
 */
#include <stdio.h>
#include <string.h>

#include "../out_file.h"
#include "reproduce.h"
#include "ngemu/paper.h"
#include "ngemu/util/json.h"

/* Paper @i of the registry: reproduce all ran them in its order. */
static const char *paper_name(unsigned int i)
{
	return ng_paper_at(i)->name;
}

static double over_paper(const struct rp_claim *c)
{
	return c->paper > 0 ? c->ngemu / c->paper : 0;
}

static void human(FILE *f, const struct rp_paper *p, unsigned int n)
{
	unsigned int shown = 0, total = 0;

	fprintf(f, "\n%-9s %-26s %8s %8s %7s %-9s %s\n", "paper", "claim",
		"paper", "ngemu", "/paper", "direction", "where to look");
	for (unsigned int i = 0; i < n; i++)
		for (unsigned int k = 0; k < p[i].n; k++) {
			const struct rp_claim *c = &p[i].c[k];

			fprintf(f, "%-9s %-26s %8.3g %8.3g %7.2f %-9s %s\n",
				paper_name(i), c->id, c->paper, c->ngemu,
				over_paper(c), c->shown ? "shown" : "not shown",
				c->shown ? "" : c->explain);
			shown += c->shown;
			total++;
		}
	fprintf(f, "%u of %u claims in the paper's direction\n", shown, total);
}

static void markdown(FILE *f, const struct rp_paper *p,
		     const char (*dirs)[512], unsigned int n)
{
	fprintf(f, "# ngemu reproduce all\n\n"
		"Every paper's headline claims beside ngemu's values; each paper's\n"
		"report (figures, workloads, sizes) is in its folder.\n\n"
		"| paper | claim | source | system | mean | paper | ngemu | ngemu / paper | direction | workloads in the mean | where to look |\n"
		"|---|---|---|---|---|---|---|---|---|---|---|\n");
	for (unsigned int i = 0; i < n; i++)
		for (unsigned int k = 0; k < p[i].n; k++) {
			const struct rp_claim *c = &p[i].c[k];
			/* relative to reproduce-summary.md, beside the folders */
			const char *d = strrchr(dirs[i], '/');

			fprintf(f, "| [%s](%s/report.md) | %s (%s) | %s | %s vs %s | %s | %.3g | %.3g | %.2f | %s | %u of %u%s%s | %s |\n",
				paper_name(i), d ? d + 1 : dirs[i], c->id, c->metric,
				c->source, c->sys, c->ref,
				rp_mean_names[c->mean], c->paper, c->ngemu,
				over_paper(c), c->shown ? "shown" : "not shown",
				c->used, c->total,
				c->left_out[0] ? "; left out: " : "",
				c->left_out, c->explain);
		}
}

static void csv(FILE *f, const struct rp_paper *p, unsigned int n)
{
	fprintf(f, "paper,claim,source,metric,mean,system,reference,paper_value,ngemu,ngemu_over_paper,direction,used,total,left_out,explain\n");
	for (unsigned int i = 0; i < n; i++)
		for (unsigned int k = 0; k < p[i].n; k++) {
			const struct rp_claim *c = &p[i].c[k];

			fprintf(f, "%s,%s,\"%s\",%s,%s,%s,%s,%.6g,%.6g,%.6g,%s,%u,%u,\"%s\",\"%s\"\n",
				paper_name(i), c->id, c->source, c->metric,
				rp_mean_names[c->mean], c->sys, c->ref,
				c->paper, c->ngemu, over_paper(c),
				c->shown ? "shown" : "not shown", c->used,
				c->total, c->left_out, c->explain);
		}
}

static void json(FILE *f, const struct rp_paper *p, unsigned int n)
{
	struct ng_json j;

	ng_json_init(&j, f, true);
	ng_json_array_begin(&j);
	for (unsigned int i = 0; i < n; i++)
		for (unsigned int k = 0; k < p[i].n; k++) {
			const struct rp_claim *c = &p[i].c[k];

			ng_json_object_begin(&j);
			ng_json_kv_string(&j, "paper", paper_name(i));
			ng_json_kv_string(&j, "claim", c->id);
			ng_json_kv_string(&j, "source", c->source);
			ng_json_kv_string(&j, "metric", c->metric);
			ng_json_kv_string(&j, "mean", rp_mean_names[c->mean]);
			ng_json_kv_string(&j, "system", c->sys);
			ng_json_kv_string(&j, "reference", c->ref);
			ng_json_kv_double(&j, "paper_value", c->paper);
			ng_json_kv_double(&j, "ngemu", c->ngemu);
			ng_json_kv_double(&j, "ngemu_over_paper", over_paper(c));
			ng_json_kv_string(&j, "direction",
					  c->shown ? "shown" : "not shown");
			ng_json_kv_uint(&j, "used", c->used);
			ng_json_kv_uint(&j, "total", c->total);
			ng_json_kv_string(&j, "left_out", c->left_out);
			ng_json_kv_string(&j, "explain", c->explain);
			ng_json_object_end(&j);
		}
	ng_json_array_end(&j);
	ng_json_finish(&j);
}

int rp_write_summary(const char *dir, const struct rp_paper *p,
		     const char (*dirs)[512], unsigned int n)
{
	static const char *const name[3] = { "reproduce-summary.md", "reproduce-summary.csv",
					     "reproduce-summary.json" };
	struct out_file o[3];
	char path[1024];
	int bad = 0;

	for (int i = 0; i < 3; i++) {
		snprintf(path, sizeof(path), "%s/%s", dir, name[i]);
		if (out_open(&o[i], "reproduce", path)) {
			while (i--)
				out_abort(&o[i]);
			return -1;
		}
	}
	markdown(o[0].f, p, dirs, n);
	csv(o[1].f, p, n);
	json(o[2].f, p, n);
	for (int i = 0; i < 3; i++) {
		if (bad)
			out_abort(&o[i]);
		else
			bad = out_commit(&o[i]);
	}
	human(stdout, p, n);
	if (!bad)
		printf("ngemu reproduce all: %s/reproduce-summary.md\n", dir);
	return bad ? -1 : 0;
}
