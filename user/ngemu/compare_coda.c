// SPDX-License-Identifier: GPL-2.0
/*
 * ngemu bench --compare for CODA's family of systems (CODA Fig. 9 and
 * 10), each against fgp (every page interleaved at fgp-granularity,
 * round-robin blocks):
 *
 *   speedup     fgp's modeled time / this one's (Fig. 9)
 *   remote%     requests homed on another GPU, of all (Fig. 10)
 *   /fgp        remote requests over fgp's
 *   category    CODA Table 2's, from the page-access profile: pages
 *               touched by one block, by one GPU, by several
 */
#include <stdio.h>

#include "bench.h"
#include "ngemu/util/format.h"

static double ratio(double a, double b)
{
	return b ? a / b : 0;
}

static const char *category(const struct cmp_row *w)
{
	return w->r.has_pageacc ? ng_coda_category_name(w->r.pageacc.category)
				: "-";
}

static double remote_vs_ref(const struct cmp_row *w, const struct cmp_row *ref)
{
	return ratio((double)w->r.total.v[NG_CTR_REMOTE],
		     (double)ref->r.total.v[NG_CTR_REMOTE]);
}

void ng_cmp_coda_human(const struct cmp_row *rows, unsigned int n,
		       const char *sweep_key)
{
	const double tmax = ng_cmp_max_modeled(rows, n);
	char b1[32], b2[32];

	printf("speedup: fgp's modeled time / this one's; remote%%: requests homed on another\n"
	       "GPU; /fgp: remote requests over fgp's; 1-block, 1-GPU: pages touched by one\n"
	       "block, by one GPU; category: CODA Table 2's, from them\n\n");
	if (sweep_key)
		printf("%-12s ", sweep_key);
	printf("%-13s %-8s %11s %7s %8s %6s %10s %8s %8s %s\n", "system",
	       "verified", "modeled", "speedup", "remote%", "/fgp",
	       "link-bytes", "1-block", "1-GPU", "category");
	for (unsigned int i = 0; i < n; i++) {
		const struct cmp_row *w = &rows[i];
		const struct ng_pageacc *p = &w->r.pageacc;

		if (sweep_key)
			printf("%-12s ", w->sweep);
		printf("%-13s %-8s %11s %7.3f %7.1f%% %6.3f %10s %7.1f%% %7.1f%% %s\n",
		       w->sys->name, ng_cmp_verified(w),
		       ng_fmt_dur_col(w->r.modeled_s, tmax, b1, sizeof(b1)), w->vs_numa,
		       100 * w->r.remote_frac,
		       remote_vs_ref(w, ng_cmp_ref(rows, n, w)),
		       ng_format_bytes(w->r.link_bytes, b2, sizeof(b2)),
		       100 * ratio((double)p->one_block, (double)p->pages),
		       100 * ratio((double)p->one_gpu, (double)p->pages),
		       category(w));
	}
}

void ng_cmp_coda_csv(const struct cmp_row *rows, unsigned int n,
		     const char *sweep_key)
{
	printf("workload,%s,system,verified,modeled_s,speedup_vs_fgp,remote_fraction,remote_vs_fgp,link_bytes,pages,one_block,one_gpu,category\n",
	       sweep_key ? sweep_key : "sweep");
	for (unsigned int i = 0; i < n; i++) {
		const struct cmp_row *w = &rows[i];
		const struct ng_pageacc *p = &w->r.pageacc;

		printf("%s,%s,%s,%d,%.9g,%.6g,%.6g,%.6g,%llu,%llu,%.6g,%.6g,%s\n",
		       w->r.workload, w->sweep, w->sys->name, w->r.verified,
		       w->r.modeled_s, w->vs_numa, w->r.remote_frac,
		       remote_vs_ref(w, ng_cmp_ref(rows, n, w)),
		       (unsigned long long)w->r.link_bytes,
		       (unsigned long long)p->pages,
		       ratio((double)p->one_block, (double)p->pages),
		       ratio((double)p->one_gpu, (double)p->pages), category(w));
	}
}

void ng_cmp_coda_json(struct ng_json *j, const struct cmp_row *w,
		      const struct cmp_row *ref)
{
	ng_json_key(j, "coda");
	ng_json_object_begin(j);
	ng_json_kv_string(j, "reference", ref->sys->name);
	ng_json_kv_double(j, "speedup_vs_reference", w->vs_numa);
	ng_json_kv_double(j, "remote_vs_reference", remote_vs_ref(w, ref));
	if (w->r.has_pageacc) {
		ng_json_key(j, "pages");
		ng_bench_pageacc_json(j, &w->r.pageacc);
	}
	ng_json_object_end(j);
}
