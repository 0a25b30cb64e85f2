// SPDX-License-Identifier: GPL-2.0
/*
 * ngemu bench --compare for REC's family of systems: the quantities of
 * REC's Figures 11-17, each system against the per-line directory (dir):
 *
 *   perf        dir's modeled time / this one's (Fig. 11)
 *   l2-miss     L2 misses without cold ones (Fig. 13), and / dir's
 *   unnec-inv   eviction-initiated invalidations that found the line in
 *               the sharer's L2 (the paper's unnecessary ones, Fig. 14)
 *   evict%      their share of all invalidations that hit (Fig. 5)
 *   xacts       inter-GPU transactions: requests, data, invalidations
 *               (Fig. 14), and / dir's
 *   addr/evict  lines an entry held when it was evicted (Fig. 12)
 *   l2-lat      the mean time a request spends from reaching the L2 to
 *               its response, ns (Fig. 16's "L2 cache lookup latency":
 *               MGPUSim's average request latency of an L2), and / dir's
 *   bits        bits per entry and the directory's storage (Table 1)
 */
#include <stdio.h>
#include <string.h>

#include "bench.h"
#include "ngemu/model/dir.h"
#include "ngemu/model/model.h"
#include "ngemu/util/format.h"

struct rec_q {
	uint64_t misses, cold, inv_w, inv_e, hit_w, hit_e, xacts, evict;
	double addr, evict_share, lat_ns;
	unsigned int bits;
	uint64_t storage;		/* bytes per GPU */
};

static void quantities(const struct cmp_row *w, struct rec_q *q)
{
	const struct ng_counters *t = &w->r.total;
	struct ng_dir_geom g;

	memset(q, 0, sizeof(*q));
	q->cold = t->v[NG_CTR_L2_COLD];
	q->misses = t->v[NG_CTR_L2_MISS] - q->cold;
	q->inv_w = t->v[NG_CTR_DIR_INV_WRITE];
	q->inv_e = t->v[NG_CTR_DIR_INV_EVICT];
	q->hit_w = t->v[NG_CTR_DIR_INV_WRITE_HIT];
	q->hit_e = t->v[NG_CTR_DIR_INV_EVICT_HIT];
	q->xacts = t->v[NG_CTR_XACT_REQ] + t->v[NG_CTR_XACT_DATA] + q->inv_w +
		   q->inv_e;
	q->evict = t->v[NG_CTR_DIR_EVICT];
	q->addr = q->evict ? (double)t->v[NG_CTR_DIR_EVICT_LINES] / (double)q->evict : 0;
	q->lat_ns = t->v[NG_CTR_L2_REQS] ?
		    (double)t->v[NG_CTR_L2_REQ_TICKS] /
		    (double)t->v[NG_CTR_L2_REQS] / NG_TICKS_PER_NS : 0;
	q->evict_share = q->hit_w + q->hit_e ?
			 (double)q->hit_e / (double)(q->hit_w + q->hit_e) : 0;
	if (ng_dir_enabled(&w->cfg) && !ng_dir_geometry(&w->cfg, &g, NULL, 0)) {
		q->bits = g.bits;
		q->storage = g.storage_bits / 8;
	}
}

static double ratio(uint64_t a, uint64_t b)
{
	return b ? (double)a / (double)b : 0;
}

static double fratio(double a, double b)
{
	return b > 0 ? a / b : 0;
}

void ng_cmp_rec_human(const struct cmp_row *rows, unsigned int n,
		      const char *sweep_key)
{
	const double tmax = ng_cmp_max_modeled(rows, n);
	char b1[32], b2[32];

	printf("perf: dir's modeled time / this one's; l2-miss: without cold misses; unnec-inv:\n"
	       "eviction-initiated invalidations that hit a sharer's L2; evict%%: their share of the\n"
	       "invalidations that hit; xacts: inter-GPU requests + data + invalidations; /dir: over\n"
	       "dir's; addr/evict: lines an evicted entry held; l2-lat: a request's mean time from\n"
	       "reaching the L2 to its response (Fig. 16); bits: per entry (REC Table 1)\n\n");
	if (sweep_key)
		printf("%-12s ", sweep_key);
	printf("%-7s %-8s %11s %6s %9s %6s %9s %6s %7s %9s %6s %10s %7s %6s %5s %9s\n",
	       "system", "verified", "modeled", "perf", "l2-miss", "/dir",
	       "unnec-inv", "/dir", "evict%", "xacts", "/dir", "addr/evict",
	       "l2-lat", "/dir", "bits", "storage");
	for (unsigned int i = 0; i < n; i++) {
		const struct cmp_row *w = &rows[i];
		struct rec_q q, r;

		quantities(w, &q);
		quantities(ng_cmp_ref(rows, n, w), &r);
		if (sweep_key)
			printf("%-12s ", w->sweep);
		printf("%-7s %-8s %11s %6.3f %9llu %6.3f %9llu %6.3f %6.1f%% %9llu %6.3f %10.2f %7.1f %6.3f ",
		       w->sys->name, ng_cmp_verified(w),
		       ng_fmt_dur_col(w->r.modeled_s, tmax, b1, sizeof(b1)), w->vs_numa,
		       (unsigned long long)q.misses, ratio(q.misses, r.misses),
		       (unsigned long long)q.hit_e, ratio(q.hit_e, r.hit_e),
		       100 * q.evict_share, (unsigned long long)q.xacts,
		       ratio(q.xacts, r.xacts), q.addr, q.lat_ns,
		       fratio(q.lat_ns, r.lat_ns));
		if (q.bits)
			printf("%5u %9s\n", q.bits,
			       ng_format_bytes(q.storage, b2, sizeof(b2)));
		else
			printf("%5s %9s\n", "-", "-");
	}
}

void ng_cmp_rec_csv(const struct cmp_row *rows, unsigned int n,
		    const char *sweep_key)
{
	printf("workload,%s,system,verified,modeled_s,perf_vs_dir,l2_misses,l2_cold_misses,l2_misses_vs_dir,inv_write,inv_evict,inv_write_hits,inv_evict_hits,unnecessary_vs_dir,evict_share_of_hits,transactions,transactions_vs_dir,dir_evictions,addresses_per_eviction,l2_latency_ns,l2_latency_vs_dir,entry_bits,dir_storage_bytes\n",
	       sweep_key ? sweep_key : "sweep");
	for (unsigned int i = 0; i < n; i++) {
		const struct cmp_row *w = &rows[i];
		struct rec_q q, r;

		quantities(w, &q);
		quantities(ng_cmp_ref(rows, n, w), &r);
		printf("%s,%s,%s,%d,%.9g,%.6g,%llu,%llu,%.6g,%llu,%llu,%llu,%llu,%.6g,%.6g,%llu,%.6g,%llu,%.6g,%.6g,%.6g,%u,%llu\n",
		       w->r.workload, w->sweep, w->sys->name, w->r.verified,
		       w->r.modeled_s, w->vs_numa, (unsigned long long)q.misses,
		       (unsigned long long)q.cold, ratio(q.misses, r.misses),
		       (unsigned long long)q.inv_w, (unsigned long long)q.inv_e,
		       (unsigned long long)q.hit_w, (unsigned long long)q.hit_e,
		       ratio(q.hit_e, r.hit_e), q.evict_share,
		       (unsigned long long)q.xacts, ratio(q.xacts, r.xacts),
		       (unsigned long long)q.evict, q.addr, q.lat_ns,
		       fratio(q.lat_ns, r.lat_ns), q.bits,
		       (unsigned long long)q.storage);
	}
}

void ng_cmp_rec_json(struct ng_json *j, const struct cmp_row *w,
		     const struct cmp_row *ref)
{
	struct rec_q q, r;

	quantities(w, &q);
	quantities(ref, &r);
	ng_json_key(j, "rec");
	ng_json_object_begin(j);
	ng_json_kv_string(j, "reference", ref->sys->name);
	ng_json_kv_double(j, "perf_vs_reference", w->vs_numa);
	ng_json_kv_uint(j, "l2_misses", q.misses);
	ng_json_kv_uint(j, "l2_cold_misses", q.cold);
	ng_json_kv_double(j, "l2_misses_vs_reference", ratio(q.misses, r.misses));
	ng_json_kv_uint(j, "inv_write", q.inv_w);
	ng_json_kv_uint(j, "inv_evict", q.inv_e);
	ng_json_kv_uint(j, "inv_write_hits", q.hit_w);
	ng_json_kv_uint(j, "inv_evict_hits", q.hit_e);
	ng_json_kv_double(j, "unnecessary_vs_reference", ratio(q.hit_e, r.hit_e));
	ng_json_kv_double(j, "evict_share_of_hits", q.evict_share);
	ng_json_kv_uint(j, "transactions", q.xacts);
	ng_json_kv_double(j, "transactions_vs_reference", ratio(q.xacts, r.xacts));
	ng_json_kv_uint(j, "dir_evictions", q.evict);
	ng_json_kv_double(j, "addresses_per_eviction", q.addr);
	ng_json_kv_double(j, "l2_latency_ns", q.lat_ns);
	ng_json_kv_double(j, "l2_latency_vs_reference", fratio(q.lat_ns, r.lat_ns));
	ng_json_kv_uint(j, "entry_bits", q.bits);
	ng_json_kv_uint(j, "dir_storage_bytes", q.storage);
	ng_json_object_end(j);
}
