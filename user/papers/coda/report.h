/* SPDX-License-Identifier: GPL-2.0 */
/* CODA's part of a run's report (report.c; struct ng_paper's report_*). */
#ifndef NGEMU_PAPERS_CODA_REPORT_H
#define NGEMU_PAPERS_CODA_REPORT_H

#include <stdio.h>

#include "ngemu/paper.h"

/* The pages by who touched them and their category, as a JSON object. */
void coda_pageacc_json(struct ng_json *j, const struct ng_pageacc *p);
/*
 * The shares of the pages touched by 1, 2, 3-4, ... >64 blocks (CODA Fig.
 * 5), three decimals each, space-separated (47 characters), into @buf
 * (results.csv's page_blocks).
 */
char *coda_page_blocks(const struct ng_pageacc *p, char *buf, size_t len);
void coda_report_human(FILE *f, const struct ng_config *cfg,
		       const struct ng_bench_result *r);
void coda_report_json(struct ng_json *j, const struct ng_config *cfg,
		      const struct ng_bench_result *r);

#endif /* NGEMU_PAPERS_CODA_REPORT_H */
