// SPDX-License-Identifier: GPL-2.0
/*
 * CARVE's part of a run's report (ngemu bench): the RDC's hit rate,
 * invalidations and the buffers that fell back to host memory, and the
 * replication baselines' pages.
 */
#include <stdio.h>

#include "ngemu/model/model.h"
#include "ngemu/util/format.h"
#include "report.h"

void carve_report_human(FILE *f, const struct ng_config *cfg,
			const struct ng_bench_result *r)
{
	const struct ng_counters *t = &r->total;
	char b1[32], b2[32], b3[32], b4[32];

	if (ng_rdc_on(&cfg->rdc))
		fprintf(f, "carve      RDC %s/GPU (%.1f%% of memory), coherence %s: hit rate %.1f%% of %s lookups, %s invalidates; %s of buffers fell back to host\n",
			ng_format_bytes(cfg->rdc.size, b1, sizeof(b1)),
			100 * r->mem_overhead,
			ng_coherence_name(cfg->rdc.coherence),
			100 * r->rdc_hit_rate,
			ng_format_si((double)(t->v[NG_CTR_RDC_HIT] +
					      t->v[NG_CTR_RDC_MISS]),
				     b2, sizeof(b2)),
			ng_format_si((double)t->v[NG_CTR_INV_MSGS], b3,
				     sizeof(b3)),
			ng_format_bytes(r->fallback_bytes, b4, sizeof(b4)));
	if (cfg->replicate != NG_REPL_NONE)
		fprintf(f, "replicate  %s: %llu pages replicated (%s, %.1f%% of the footprint), %llu collapsed\n",
			ng_replicate_name(cfg->replicate),
			(unsigned long long)t->v[NG_CTR_REPL_PAGES],
			ng_format_bytes(r->repl_bytes, b1, sizeof(b1)),
			100 * r->mem_overhead,
			(unsigned long long)t->v[NG_CTR_REPL_COLLAPSE]);
}
