// SPDX-License-Identifier: GPL-2.0
/*
 * ngemu reproduce all's summary (reproduce.h): one table of every paper's
 * headline claims, each with the paper's value, ngemu's, their ratio,
 * whether ngemu shows the paper's direction, the workloads in its mean
 * and the counters that explain a difference: what a reader checks first.
 * The same rows on stdout, in reproduce-summary.md, .csv and .json, by
 * the claims table (claims_table.c).
 */
#include <stdio.h>
#include <string.h>

#include "../out_file.h"
#include "reproduce.h"
#include "ngemu/paper.h"
#include "ngemu/util/json.h"

/* Every claim of every paper, in the registry's order (reproduce all's). */
static unsigned int rows_of(const struct rp_paper *p, const char (*dirs)[512],
			    unsigned int n, struct rp_claim_row *rows,
			    char (*link)[600])
{
	unsigned int m = 0;

	for (unsigned int i = 0; i < n; i++) {
		/* relative to reproduce-summary.md, beside the folders */
		const char *d = strrchr(dirs[i], '/');

		snprintf(link[i], sizeof(link[i]), "%s/report.md",
			 d ? d + 1 : dirs[i]);
		for (unsigned int k = 0; k < p[i].n; k++)
			rows[m++] = (struct rp_claim_row){
				.paper = ng_paper_at(i)->name,
				.link = link[i],
				.c = &p[i].c[k],
			};
	}
	return m;
}

static void markdown(FILE *f, const struct rp_claim_row *rows, unsigned int n)
{
	fprintf(f, "# ngemu reproduce all\n\n"
		"Every paper's headline claims beside ngemu's values; each paper's\n"
		"report (figures, workloads, sizes) is in its folder.\n\n");
	rp_claims_md(f, rows, n, true);
}

static void json(FILE *f, const struct rp_claim_row *rows, unsigned int n)
{
	struct ng_json j;

	ng_json_init(&j, f, true);
	rp_claims_json(&j, rows, n, true);
	ng_json_finish(&j);
}

int rp_write_summary(const char *dir, const struct rp_paper *p,
		     const char dirs[][512], unsigned int n)
{
	static const char *const name[3] = { "reproduce-summary.md", "reproduce-summary.csv",
					     "reproduce-summary.json" };
	static struct rp_claim_row rows[NG_RP_PAPERS * RP_MAX_CLAIMS];
	static char link[NG_RP_PAPERS][600];
	unsigned int m = rows_of(p, dirs, n, rows, link);
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
	markdown(o[0].f, rows, m);
	rp_claims_csv(o[1].f, rows, m, true);
	json(o[2].f, rows, m);
	for (int i = 0; i < 3; i++) {
		if (bad)
			out_abort(&o[i]);
		else
			bad = out_commit(&o[i]);
	}
	rp_claims_human(stdout, rows, m, true);
	if (!bad)
		printf("ngemu reproduce all: %s/reproduce-summary.md\n", dir);
	return bad ? -1 : 0;
}
