/* SPDX-License-Identifier: GPL-2.0 */
/* DualOpt's part of a run's report (report.c; struct ng_paper's report_*). */
#ifndef NGEMU_PAPERS_DUALOPT_REPORT_H
#define NGEMU_PAPERS_DUALOPT_REPORT_H

#include <stdio.h>

#include "ngemu/paper.h"

void dualopt_report_mechanisms(FILE *f, const struct ng_config *c);
void dualopt_report_human(FILE *f, const struct ng_config *cfg,
			  const struct ng_bench_result *r);
void dualopt_report_json(struct ng_json *j, const struct ng_config *cfg,
			 const struct ng_bench_result *r);

#endif /* NGEMU_PAPERS_DUALOPT_REPORT_H */
