/* SPDX-License-Identifier: GPL-2.0 */
/* CARVE's part of a run's report (report.c; struct ng_paper's report_*). */
#ifndef NGEMU_PAPERS_CARVE_REPORT_H
#define NGEMU_PAPERS_CARVE_REPORT_H

#include <stdio.h>

#include "ngemu/paper.h"

void carve_report_human(FILE *f, const struct ng_config *cfg,
			const struct ng_bench_result *r);

#endif /* NGEMU_PAPERS_CARVE_REPORT_H */
