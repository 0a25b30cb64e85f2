// SPDX-License-Identifier: GPL-2.0
/*
 * ngemu bench: ScaleGPU's part of a run's report: how much device memory
 * caches the host's data, the tags' hit rate, the tag miss handler's
 * fetches and stalls, the CPU-GPU link's bytes, and the host copies of
 * its baselines.
 */
#include <stdio.h>

#include "bench.h"
#include "ngemu/model/model.h"
#include "ngemu/util/format.h"
#include "ngemu/util/json.h"

void bench_scalegpu_mechanisms(FILE *f, const struct ng_config *c)
{
	char b1[32];

	if (!ng_scalegpu_on(&c->sg))
		return;
	if (c->sg.device_mem_pct > 0)
		fprintf(f, "ScaleGPU device memory %g%% of the data", c->sg.device_mem_pct);
	else
		fprintf(f, "ScaleGPU device memory %s/GPU",
		       ng_format_bytes(c->sg.device_mem, b1, sizeof(b1)));
	fprintf(f, " caching host memory, %u B per tag, TMH %u/%u x %u; ",
	       c->sg.tag_bytes, c->sg.tmh_queue, c->sg.tmh_scoreboard, c->sg.tmh_units);
}

void bench_scalegpu_human(const struct ng_config *cfg,
			  const struct ng_bench_result *r)
{
	const struct ng_counters *t = &r->total;
	uint64_t hits = t->v[NG_CTR_SG_HIT], miss = t->v[NG_CTR_SG_MISS];
	char b1[32], b2[32], b3[32], b4[32], b5[32], b6[32], b7[32];

	if (!ng_scalegpu_on(&cfg->sg))
		return;
	printf("scalegpu   tag hit rate %.1f%% of %s reads and atomics; %s rows fetched (%s misses waited for them), %s evicted; writes %s cold, %s relayed on conflict; host link %s; SM time held by a full TMH %.1f us\n",
	       hits + miss ? 100.0 * (double)hits / (double)(hits + miss) : 0,
	       fmt_si((double)(hits + miss), b1, sizeof(b1)),
	       fmt_si((double)t->v[NG_CTR_SG_FETCH], b2, sizeof(b2)),
	       fmt_si((double)miss, b3, sizeof(b3)),
	       fmt_si((double)t->v[NG_CTR_SG_EVICT], b4, sizeof(b4)),
	       fmt_si((double)t->v[NG_CTR_SG_COLD_WR], b5, sizeof(b5)),
	       fmt_si((double)t->v[NG_CTR_SG_CONFL_WR], b6, sizeof(b6)),
	       ng_format_bytes(t->v[NG_CTR_HOST_BYTES], b7, sizeof(b7)),
	       (double)t->v[NG_CTR_SG_STALL] / NG_TICKS_PER_NS / 1e3);
}

/* host-copies: the run's time as H2D, kernels, D2H (ScaleGPU Fig. 3). */
void bench_copies_human(const struct ng_config *cfg,
			const struct ng_bench_result *r)
{
	char b1[32], b2[32], b3[32], b4[32], b5[32];

	if (cfg->host_copies == NG_COPIES_NONE)
		return;
	printf("copies     %s: H2D %s (%s), kernels %s, D2H %s (%s)\n",
	       ng_host_copies_names[cfg->host_copies],
	       fmt_dur(r->h2d_s, b1, sizeof(b1)),
	       ng_format_bytes(r->h2d_bytes, b2, sizeof(b2)),
	       fmt_dur(r->kernel_s, b3, sizeof(b3)),
	       fmt_dur(r->d2h_s, b4, sizeof(b4)),
	       ng_format_bytes(r->d2h_bytes, b5, sizeof(b5)));
}

void bench_copies_json(struct ng_json *j, const struct ng_config *cfg,
		       const struct ng_bench_result *r)
{
	if (cfg->host_copies == NG_COPIES_NONE)
		return;
	ng_json_key(j, "copies");
	ng_json_object_begin(j);
	ng_json_kv_string(j, "mode", ng_host_copies_names[cfg->host_copies]);
	ng_json_kv_double(j, "h2d_s", r->h2d_s);
	ng_json_kv_double(j, "kernel_s", r->kernel_s);
	ng_json_kv_double(j, "d2h_s", r->d2h_s);
	ng_json_kv_uint(j, "h2d_bytes", r->h2d_bytes);
	ng_json_kv_uint(j, "d2h_bytes", r->d2h_bytes);
	ng_json_object_end(j);
}
