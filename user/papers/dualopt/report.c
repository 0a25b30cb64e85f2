// SPDX-License-Identifier: GPL-2.0
/*
 * DualOpt's part of a run's report (ngemu bench): the optimization in
 * force, the decision engine's class and measurements, the CoDec's
 * packets, the RDMA cache, the pages migration moved.
 */
#include <stdio.h>

#include "ngemu/model/dualopt.h"
#include "ngemu/util/format.h"
#include "report.h"

static double frac(uint64_t a, uint64_t b)
{
	return b ? (double)a / (double)b : 0;
}

static bool dualopt_on(const struct ng_config *c)
{
	return c->remote_opt != NG_RO_OFF || c->mig.mode != NG_MIGRATE_OFF;
}

void dualopt_report_mechanisms(FILE *f, const struct ng_config *c)
{
	char b1[32];

	if (c->remote_opt == NG_RO_OFF)
		return;
	fprintf(f, "DualOpt %s: ", ng_remote_opt_names[c->remote_opt]);
	if (c->remote_opt != NG_RO_RDMA)
		fprintf(f, "%u B transfers, CoDec %u/packet (%u cycles); ",
		       c->xfer_gran, c->codec.pack, c->codec.timeout);
	if (c->remote_opt != NG_RO_COALESCE)
		fprintf(f, "RDMA cache %s/GPU %u-way; ",
		       ng_format_bytes(c->rdma.size, b1, sizeof(b1)), c->rdma.ways);
	if (c->remote_opt == NG_RO_AUTO)
		fprintf(f, "engine: window %u after %u, thresholds %g/%g/%g; ",
		       c->de.window, c->de.warmup, c->de.remote_thresh,
		       c->de.block_thresh, c->de.hit_thresh);
}

static void measure_json(struct ng_json *j, const struct ng_de_gpu *g)
{
	ng_json_object_begin(j);
	ng_json_kv_string(j, "class", ng_class_name(g->cls));
	ng_json_kv_double(j, "remote_ratio", g->v.remote_ratio);
	ng_json_kv_double(j, "utilization", g->v.utilization);
	ng_json_kv_double(j, "l1_hit_rate", g->v.hit_rate);
	ng_json_kv_uint(j, "window_remote", g->window_remote);
	ng_json_kv_uint(j, "window_accesses", g->window_accesses);
	ng_json_kv_bool(j, "window_complete", g->complete);
	ng_json_kv_uint(j, "decided_at_request", g->at_request);
	ng_json_kv_uint(j, "requests", g->requests);
	ng_json_kv_double(j, "decided_at_fraction",
			  frac(g->at_request, g->requests));
	ng_json_kv_uint(j, "decided_in_kernel", g->at_kernel);
	ng_json_object_end(j);
}

void dualopt_report_json(struct ng_json *j, const struct ng_config *cfg,
			 const struct ng_bench_result *r)
{
	const struct ng_counters *t = &r->total;

	if (r->has_de)
		ng_json_kv_string(j, "class", ng_class_name(r->de.cls));
	if (!dualopt_on(cfg))
		return;
	ng_json_key(j, "dualopt");
	ng_json_object_begin(j);
	ng_json_kv_string(j, "remote_opt", ng_remote_opt_names[cfg->remote_opt]);
	ng_json_kv_string(j, "migrate", ng_migrate_names[cfg->mig.mode]);
	ng_json_kv_uint(j, "xfer_gran", cfg->xfer_gran);
	ng_json_kv_uint(j, "codec_pack", cfg->codec.pack);
	ng_json_kv_uint(j, "codec_timeout", cfg->codec.timeout);
	ng_json_kv_uint(j, "rdma_size", cfg->rdma.size);
	ng_json_kv_uint(j, "packets", t->v[NG_CTR_CODEC_PKTS]);
	ng_json_kv_double(j, "packet_fill",
			  frac(t->v[NG_CTR_CODEC_XACTS], t->v[NG_CTR_CODEC_PKTS]));
	ng_json_kv_uint(j, "timeout_flushes",
			t->v[NG_CTR_CODEC_PKTS] - t->v[NG_CTR_CODEC_FULL]);
	ng_json_kv_double(j, "rdma_hit_rate",
			  frac(t->v[NG_CTR_RDMA_HIT],
			       t->v[NG_CTR_RDMA_HIT] + t->v[NG_CTR_RDMA_MISS]));
	if (r->has_de) {
		ng_json_key(j, "engine");
		ng_json_array_begin(j);
		for (unsigned int g = 0; g < r->de.ngpus; g++)
			measure_json(j, &r->de.gpu[g]);
		ng_json_array_end(j);
	}
	ng_json_object_end(j);
}

void dualopt_report_human(FILE *f, const struct ng_config *cfg,
			  const struct ng_bench_result *r)
{
	const struct ng_counters *t = &r->total;
	char b1[32], b2[32], b3[32], b4[32], b5[32];

	if (!dualopt_on(cfg))
		return;
	fprintf(f, "dualopt    remote loads %.0f ns on average; fine-grained %s (%s units), CoDec %s packets of %.2f (%s on timeout); RDMA cache hit rate %.1f%% of %s\n",
	       r->remote_latency_ns,
	       ng_format_si((double)t->v[NG_CTR_FINE_REQ], b1, sizeof(b1)),
	       ng_format_si((double)t->v[NG_CTR_FINE_UNITS], b2, sizeof(b2)),
	       ng_format_si((double)t->v[NG_CTR_CODEC_PKTS], b3, sizeof(b3)),
	       frac(t->v[NG_CTR_CODEC_XACTS], t->v[NG_CTR_CODEC_PKTS]),
	       ng_format_si((double)(t->v[NG_CTR_CODEC_PKTS] - t->v[NG_CTR_CODEC_FULL]),
		      b4, sizeof(b4)),
	       100 * frac(t->v[NG_CTR_RDMA_HIT],
			  t->v[NG_CTR_RDMA_HIT] + t->v[NG_CTR_RDMA_MISS]),
	       ng_format_si((double)(t->v[NG_CTR_RDMA_HIT] + t->v[NG_CTR_RDMA_MISS]),
		      b5, sizeof(b5)));
	if (cfg->mig.mode != NG_MIGRATE_OFF)
		fprintf(f, "migrate    %llu pages moved on a first remote touch (%s)\n",
		       (unsigned long long)t->v[NG_CTR_MIG_PAGES],
		       ng_format_bytes(t->v[NG_CTR_MIG_BYTES], b1, sizeof(b1)));
	if (!r->has_de)
		return;
	fprintf(f, "class      %s (DualOpt Fig. 11, most GPUs)\n", ng_class_name(r->de.cls));
	for (unsigned int g = 0; g < r->de.ngpus; g++) {
		const struct ng_de_gpu *d = &r->de.gpu[g];

		fprintf(f, "  GPU %-2u   %-17s remote %5.1f%%, utilization %.3f, L1 hit %5.1f%% over %llu remote accesses; %s at %.1f%% of its requests (kernel %u)\n",
		       g, ng_class_name(d->cls), 100 * d->v.remote_ratio,
		       d->v.utilization, 100 * d->v.hit_rate,
		       (unsigned long long)d->window_remote,
		       d->complete ? "decided" : "window not filled: classified",
		       100 * frac(d->at_request, d->requests), d->at_kernel);
	}
}
