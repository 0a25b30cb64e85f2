// SPDX-License-Identifier: GPL-2.0
/*
 * ngemu bench --compare for ScaleGPU's family of systems (ScaleGPU
 * Fig. 3 and 4), each against full (the whole data in device memory):
 *
 *   speedup     full's modeled time / this one's (Fig. 3's inverse)
 *   h2d, d2h    the host copies in that time (full and split)
 *   host-bytes  bytes over the CPU-GPU link (headers included)
 *   tag-hit     device memory's tag hit rate of reads and atomics
 *   fetches     rows the tag miss handlers fetched from the host
 *   evicted     rows replaced by a fetch (conflict misses)
 *   held        SM time held by a full pending queue or scoreboard
 */
#include <math.h>
#include <stdio.h>

#include "bench.h"
#include "ngemu/model/model.h"
#include "ngemu/util/format.h"

struct sg_q {
	uint64_t host, fetches, evicted;
	double hit, held_us;
};

static void quantities(const struct cmp_row *w, struct sg_q *q)
{
	const struct ng_counters *t = &w->r.total;
	uint64_t hits = t->v[NG_CTR_SG_HIT], miss = t->v[NG_CTR_SG_MISS];

	q->host = t->v[NG_CTR_HOST_BYTES];
	q->fetches = t->v[NG_CTR_SG_FETCH];
	q->evicted = t->v[NG_CTR_SG_EVICT];
	q->hit = hits + miss ? (double)hits / (double)(hits + miss) : 0;
	q->held_us = (double)t->v[NG_CTR_SG_STALL] / NG_TICKS_PER_NS / 1e3;
}

/* "100%", "12.5%", "4.0 MiB" or "-": a system's device memory. */
static const char *device_mem(const struct cmp_row *w, char *buf, size_t len)
{
	if (w->cfg.device_mem_pct > 0)
		snprintf(buf, len, "%g%%", w->cfg.device_mem_pct);
	else if (w->cfg.device_mem)
		ng_format_bytes(w->cfg.device_mem, buf, len);
	else
		snprintf(buf, len, "-");
	return buf;
}

void ng_cmp_scalegpu_human(const struct cmp_row *rows, unsigned int n,
			   const char *sweep_key)
{
	const double tmax = ng_cmp_max_modeled(rows, n);
	double xmax = 0;
	char b1[32], b2[32], b3[32], b4[32], b5[32];

	/* h2d and d2h in one unit: the copies each way side by side */
	for (unsigned int i = 0; i < n; i++)
		xmax = fmax(xmax, fmax(rows[i].r.h2d_s, rows[i].r.d2h_s));
	printf("speedup: full's modeled time / this one's (full: the data in device memory,\n"
	       "copied in once and out once; split: each kernel's data in and out around it);\n"
	       "h2d, d2h: those copies' time; dev-mem: device memory caching the host's data;\n"
	       "tag-hit: of reads and atomics; held: SM time a full tag miss handler held\n\n");
	if (sweep_key)
		printf("%-12s ", sweep_key);
	printf("%-10s %-8s %11s %7s %11s %11s %8s %11s %7s %8s %8s %10s\n",
	       "system", "verified", "modeled", "speedup", "h2d", "d2h",
	       "dev-mem", "host-bytes", "tag-hit", "fetches", "evicted", "held");
	for (unsigned int i = 0; i < n; i++) {
		const struct cmp_row *w = &rows[i];
		struct sg_q q;

		quantities(w, &q);
		if (sweep_key)
			printf("%-12s ", w->sweep);
		printf("%-10s %-8s %11s %7.3f %11s %11s %8s %11s %6.1f%% %8llu %8llu %8.1fus\n",
		       w->sys->name, ng_cmp_verified(w),
		       ng_fmt_dur_col(w->r.modeled_s, tmax, b1, sizeof(b1)), w->vs_numa,
		       ng_fmt_dur_col(w->r.h2d_s, xmax, b4, sizeof(b4)),
		       ng_fmt_dur_col(w->r.d2h_s, xmax, b5, sizeof(b5)),
		       device_mem(w, b3, sizeof(b3)),
		       ng_format_bytes(q.host, b2, sizeof(b2)), 100 * q.hit,
		       (unsigned long long)q.fetches,
		       (unsigned long long)q.evicted, q.held_us);
	}
}

void ng_cmp_scalegpu_csv(const struct cmp_row *rows, unsigned int n,
			 const char *sweep_key)
{
	printf("workload,%s,system,verified,modeled_s,speedup_vs_full,device_mem,host_bytes,tag_hit_rate,fetches,evicted,held_us,h2d_s,kernel_s,d2h_s\n",
	       sweep_key ? sweep_key : "sweep");
	for (unsigned int i = 0; i < n; i++) {
		const struct cmp_row *w = &rows[i];
		struct sg_q q;
		char b[32];

		quantities(w, &q);
		printf("%s,%s,%s,%d,%.9g,%.6g,%s,%llu,%.6g,%llu,%llu,%.6g,%.9g,%.9g,%.9g\n",
		       w->r.workload, w->sweep, w->sys->name, w->r.verified,
		       w->r.modeled_s, w->vs_numa, device_mem(w, b, sizeof(b)),
		       (unsigned long long)q.host, q.hit,
		       (unsigned long long)q.fetches,
		       (unsigned long long)q.evicted, q.held_us, w->r.h2d_s,
		       w->r.kernel_s ? w->r.kernel_s : w->r.modeled_s,
		       w->r.d2h_s);
	}
}

void ng_cmp_scalegpu_json(struct ng_json *j, const struct cmp_row *w,
			  const struct cmp_row *ref)
{
	struct sg_q q;
	char b[32];

	quantities(w, &q);
	ng_json_key(j, "scalegpu");
	ng_json_object_begin(j);
	ng_json_kv_string(j, "reference", ref->sys->name);
	ng_json_kv_double(j, "speedup_vs_reference", w->vs_numa);
	ng_json_kv_string(j, "device_mem", device_mem(w, b, sizeof(b)));
	ng_json_kv_uint(j, "host_bytes", q.host);
	ng_json_kv_double(j, "tag_hit_rate", q.hit);
	ng_json_kv_uint(j, "fetches", q.fetches);
	ng_json_kv_uint(j, "evicted", q.evicted);
	ng_json_kv_double(j, "held_us", q.held_us);
	ng_json_kv_double(j, "h2d_s", w->r.h2d_s);
	ng_json_kv_double(j, "d2h_s", w->r.d2h_s);
	ng_json_object_end(j);
}
