// SPDX-License-Identifier: GPL-2.0
/*
 * ScaleGPU's part of a run's report (ngemu bench): the host copies of its
 * baselines (the data copied to the GPUs before the kernels and back
 * after them). The ScaleGPU component's own line is its own
 * (lib/model/scalegpu.c).
 */
#include <stdio.h>

#include "ngemu/model/model.h"
#include "ngemu/util/format.h"
#include "ngemu/util/json.h"
#include "report.h"

/* host-copies: the run's time as H2D, kernels, D2H (ScaleGPU Fig. 3). */
void scalegpu_report_human(FILE *f, const struct ng_config *cfg,
			   const struct ng_bench_result *r)
{
	char b1[32], b2[32], b3[32], b4[32], b5[32];

	if (cfg->host_copies == NG_COPIES_NONE)
		return;
	fprintf(f, "copies     %s%s: H2D %s (%s), kernels %s, D2H %s (%s)\n",
	       ng_host_copies_names[cfg->host_copies],
	       cfg->host_copies != NG_COPIES_PER_KERNEL ? "" :
	       r->split ? " (split: the data exceeds device-mem)" :
	       " (the data fits device-mem: copied once)",
	       ng_format_dur(r->h2d_s, b1, sizeof(b1)),
	       ng_format_bytes(r->h2d_bytes, b2, sizeof(b2)),
	       ng_format_dur(r->kernel_s, b3, sizeof(b3)),
	       ng_format_dur(r->d2h_s, b4, sizeof(b4)),
	       ng_format_bytes(r->d2h_bytes, b5, sizeof(b5)));
}

void scalegpu_report_json(struct ng_json *j, const struct ng_config *cfg,
			  const struct ng_bench_result *r)
{
	if (cfg->host_copies == NG_COPIES_NONE)
		return;
	ng_json_key(j, "copies");
	ng_json_object_begin(j);
	ng_json_kv_string(j, "mode", ng_host_copies_names[cfg->host_copies]);
	ng_json_kv_bool(j, "split", r->split);
	ng_json_kv_double(j, "h2d_s", r->h2d_s);
	ng_json_kv_double(j, "kernel_s", r->kernel_s);
	ng_json_kv_double(j, "d2h_s", r->d2h_s);
	ng_json_kv_uint(j, "h2d_bytes", r->h2d_bytes);
	ng_json_kv_uint(j, "d2h_bytes", r->d2h_bytes);
	ng_json_object_end(j);
}
