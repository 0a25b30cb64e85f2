// SPDX-License-Identifier: GPL-2.0
/*
 * ngemu bench --compare for DualOpt's family of systems: the quantities of
 * DualOpt's Figures 13-17, each system against the baseline (line
 * transfers, no RDMA cache):
 *
 *   speedup     the baseline's modeled time / this one's (Fig. 13)
 *   link-bytes  bytes over inter-GPU links, and / the baseline's (Fig. 14)
 *   packets     inter-GPU packets: requests and data (a CoDec packet is one)
 *   rem-lat     remote loads' issue to completion, ns, and / the
 *               baseline's (Fig. 15 plots the baseline's / this one's)
 *   rdma-hit    the RDMA cache's hit rate (Fig. 17)
 *   l2-hit      the memory-side L2s' hit rate, every request (Fig. 17)
 *   fill        CoDec transactions per packet
 *   class       the decision engine's class (dualopt only)
 */
#include <stdio.h>
#include <string.h>

#include "bench.h"
#include "ngemu/model/dualopt.h"
#include "ngemu/util/format.h"

struct dualopt_q {
	uint64_t bytes, packets;
	double lat, rdma_hit, l2_hit, fill;
};

static double ratio(double a, double b)
{
	return b ? a / b : 0;
}

static void quantities(const struct cmp_row *w, struct dualopt_q *q)
{
	const struct ng_counters *t = &w->r.total;

	q->bytes = w->r.link_bytes;
	q->packets = t->v[NG_CTR_XACT_REQ] + t->v[NG_CTR_XACT_DATA];
	q->lat = w->r.remote_latency_ns;
	q->rdma_hit = ratio((double)t->v[NG_CTR_RDMA_HIT],
			    (double)(t->v[NG_CTR_RDMA_HIT] + t->v[NG_CTR_RDMA_MISS]));
	q->l2_hit = ratio((double)t->v[NG_CTR_MSL2_HIT],
			  (double)(t->v[NG_CTR_MSL2_HIT] + t->v[NG_CTR_MSL2_MISS]));
	q->fill = ratio((double)t->v[NG_CTR_CODEC_XACTS],
			(double)t->v[NG_CTR_CODEC_PKTS]);
}

static const char *class_of(const struct cmp_row *w)
{
	return w->r.has_de ? ng_class_name(w->r.de.cls) : "-";
}

void ng_cmp_dualopt_human(const struct cmp_row *rows, unsigned int n,
			  const char *sweep_key)
{
	const double tmax = ng_cmp_max_modeled(rows, n);
	char b1[32], b2[32];

	printf("speedup: the baseline's modeled time / this one's; /base: this one's over the\n"
	       "baseline's (traffic and latency DualOpt reports as the baseline's / this one's);\n"
	       "packets: inter-GPU requests and data transfers; rem-lat: remote loads, issue to\n"
	       "completion; l2-hit: the memory-side L2s' hit rate; fill: CoDec transactions\n"
	       "per packet; class: the decision engine's\n\n");
	if (sweep_key)
		printf("%-12s ", sweep_key);
	printf("%-14s %-8s %11s %7s %10s %6s %9s %6s %8s %6s %8s %6s %5s %s\n",
	       "system", "verified", "modeled", "speedup", "link-bytes", "/base",
	       "packets", "/base", "rem-lat", "/base", "rdma-hit", "l2-hit",
	       "fill", "class");
	for (unsigned int i = 0; i < n; i++) {
		const struct cmp_row *w = &rows[i];
		struct dualopt_q q, r;

		quantities(w, &q);
		quantities(ng_cmp_ref(rows, n, w), &r);
		if (sweep_key)
			printf("%-12s ", w->sweep);
		printf("%-14s %-8s %11s %7.3f %10s %6.3f %9llu %6.3f %6.0fns %6.3f %7.1f%% %5.1f%% %5.2f %s\n",
		       w->sys->name, ng_cmp_verified(w),
		       ng_fmt_dur_col(w->r.modeled_s, tmax, b1, sizeof(b1)), w->vs_numa,
		       ng_format_bytes(q.bytes, b2, sizeof(b2)),
		       ratio((double)q.bytes, (double)r.bytes),
		       (unsigned long long)q.packets,
		       ratio((double)q.packets, (double)r.packets), q.lat,
		       ratio(q.lat, r.lat), 100 * q.rdma_hit, 100 * q.l2_hit,
		       q.fill, class_of(w));
	}
}

void ng_cmp_dualopt_csv(const struct cmp_row *rows, unsigned int n,
			const char *sweep_key)
{
	printf("workload,%s,system,verified,modeled_s,speedup_vs_baseline,link_bytes,link_bytes_vs_baseline,packets,packets_vs_baseline,remote_latency_ns,latency_vs_baseline,rdma_hit_rate,packet_fill,class,remote_ratio,utilization,l1_hit_rate,l2_hit_rate\n",
	       sweep_key ? sweep_key : "sweep");
	for (unsigned int i = 0; i < n; i++) {
		const struct cmp_row *w = &rows[i];
		const struct ng_de_gpu *d = &w->r.de.gpu[0];
		struct dualopt_q q, r;

		quantities(w, &q);
		quantities(ng_cmp_ref(rows, n, w), &r);
		printf("%s,%s,%s,%d,%.9g,%.6g,%llu,%.6g,%llu,%.6g,%.6g,%.6g,%.6g,%.6g,%s,%.6g,%.6g,%.6g,%.6g\n",
		       w->r.workload, w->sweep, w->sys->name, w->r.verified,
		       w->r.modeled_s, w->vs_numa, (unsigned long long)q.bytes,
		       ratio((double)q.bytes, (double)r.bytes),
		       (unsigned long long)q.packets,
		       ratio((double)q.packets, (double)r.packets), q.lat,
		       ratio(q.lat, r.lat), q.rdma_hit, q.fill, class_of(w),
		       d->v.remote_ratio, d->v.utilization, d->v.hit_rate,
		       q.l2_hit);
	}
}

void ng_cmp_dualopt_json(struct ng_json *j, const struct cmp_row *w,
			 const struct cmp_row *ref)
{
	struct dualopt_q q, r;

	quantities(w, &q);
	quantities(ref, &r);
	if (w->r.has_de)
		ng_json_kv_string(j, "class", ng_class_name(w->r.de.cls));
	ng_json_key(j, "dualopt");
	ng_json_object_begin(j);
	ng_json_kv_string(j, "reference", ref->sys->name);
	ng_json_kv_double(j, "speedup_vs_reference", w->vs_numa);
	ng_json_kv_uint(j, "link_bytes", q.bytes);
	ng_json_kv_double(j, "link_bytes_vs_reference",
			  ratio((double)q.bytes, (double)r.bytes));
	ng_json_kv_uint(j, "packets", q.packets);
	ng_json_kv_double(j, "packets_vs_reference",
			  ratio((double)q.packets, (double)r.packets));
	ng_json_kv_double(j, "remote_latency_ns", q.lat);
	ng_json_kv_double(j, "latency_vs_reference", ratio(q.lat, r.lat));
	ng_json_kv_double(j, "rdma_hit_rate", q.rdma_hit);
	ng_json_kv_double(j, "l2_hit_rate", q.l2_hit);
	ng_json_kv_double(j, "packet_fill", q.fill);
	ng_json_object_end(j);
}
