// SPDX-License-Identifier: GPL-2.0
/*
 * ngemu bench --compare: one workload under several systems side by side
 * (CARVE Figures 8, 9, 11, 13; Table V, Fig 14), normalized to the ideal.
 */
#include <errno.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include <linux/numagpu.h>

#include "bench.h"
#include "commands.h"
#include "ngemu/config.h"
#include "ngemu/model/dir.h"
#include "ngemu/runtime/system.h"
#include "ngemu/util/format.h"
#include "ngemu/util/json.h"
#include "ngemu/workloads/workload.h"

static const struct cmp_system cmp_systems[] = {
	{ "numa-gpu", "NUMA-GPU: L2 caching of remote lines only", "0", NULL, "none", "off", 1, CMP_CARVE, NULL, false },
	{ "repl-ro", "NUMA-GPU + replication of read-only shared pages", "0", NULL, "ro", "off", 1, CMP_CARVE, NULL, false },
	{ "carve-none", "CARVE, no coherence (upper bound; stale data expected)", "keep", "none", "none", "off", 1, CMP_CARVE, NULL, true },
	{ "carve-swc", "CARVE, software coherence (epoch flush per kernel)", "keep", "swc", "none", "off", 1, CMP_CARVE, NULL, false },
	{ "carve-hwc", "CARVE, GPU-VI hardware coherence with IMST", "keep", "hwc", "none", "off", 1, CMP_CARVE, NULL, false },
	{ "ideal", "every access local, zero coherence cost (replicate all)", "0", NULL, "all", "off", 1, CMP_CARVE, NULL, false },
	/* REC (JSA 2025) Fig. 11: the L2's directory, organized four ways */
	/* REC sec. 4.2: "The baseline coherence directory uses a FIFO replacement policy" */
	{ "dir", "REC's baseline: a per-line directory at each home, FIFO replacement", "0", NULL, "none", "dir", 1, CMP_REC, "dir-policy=fifo", false },
	{ "dir-2x", "the per-line directory with twice the entries, FIFO replacement", "0", NULL, "none", "dir", 2, CMP_REC, "dir-policy=fifo", false },
	{ "hmg", "HMG: one entry per 4 lines, one sharer field", "0", NULL, "none", "hmg", 1, CMP_REC, NULL, false },
	{ "rec", "REC: range-coalesced entries (rec-range)", "0", NULL, "none", "rec", 1, CMP_REC, NULL, false },
	{ "l2-swc", "the L2 drops remote lines at kernel boundaries (no directory)", "0", NULL, "none", "off", 1, CMP_REC, NULL, false },
	/* DualOpt Fig. 13 and 16: its baselines and each optimization alone */
	{ "baseline", "DualOpt's baseline: remote lines cross the link whole, cached in the L1s; a 2 MB L2", "0", NULL, "none", "off", 1, CMP_DUALOPT, "remote-opt=off msl2-size=2M", false },
	{ "page-migration", "the baseline with a page moved to the first GPU that reaches it remotely", "0", NULL, "none", "off", 1, CMP_DUALOPT, "remote-opt=off migrate=first-touch msl2-size=2M", false },
	{ "fine", "remote loads past the L1, fine-grained, each response alone (no CoDec)", "0", NULL, "none", "off", 1, CMP_DUALOPT, "remote-opt=coalesce codec-pack=0 msl2-size=2M", false },
	{ "coalesce", "remote access coalescing forced on: fine-grained loads, CoDec packets", "0", NULL, "none", "off", 1, CMP_DUALOPT, "remote-opt=coalesce msl2-size=2M", false },
	{ "rdma-cache", "remote data caching forced on: the RDMA cache", "0", NULL, "none", "off", 1, CMP_DUALOPT, "remote-opt=rdma-cache", false },
	{ "dualopt", "DualOpt: the decision engine picks one per GPU", "0", NULL, "none", "off", 1, CMP_DUALOPT, "remote-opt=auto", false },
	/* ScaleGPU Fig. 3 and 4: where the data is, and what caches it */
	{ "full", "the whole data in device memory, copied in before the kernels and out after", "0", NULL, "none", "off", 1, CMP_SCALEGPU, "device-mem=0 placement=first-touch host-copies=once", false },
	{ "split", "split code: each kernel's data copied in before it and out after it", "0", NULL, "none", "off", 1, CMP_SCALEGPU, "device-mem=0 placement=first-touch host-copies=per-kernel", false },
	{ "zero-copy", "the data in host memory, reached over the link through the L2", "0", NULL, "none", "off", 1, CMP_SCALEGPU, "device-mem=0 placement=host", false },
	{ "scalegpu", "ScaleGPU: device memory (device-mem) caches host memory", "0", NULL, "none", "off", 1, CMP_SCALEGPU, "placement=host", false },
	/* CODA Fig. 9 and 10: placements, and the blocks' scheduling */
	{ "fgp", "FGP only: every page interleaved at fgp-granularity, blocks round-robin", "0", NULL, "none", "off", 1, CMP_CODA, "placement=fgp sched=rr", false },
	{ "cgp", "CGP only: 4 KB pages round-robin over the GPUs, blocks round-robin", "0", NULL, "none", "off", 1, CMP_CODA, "placement=cgp sched=rr", false },
	{ "cgp-ft", "CGP with first-touch allocation: a page on the GPU that touches it first, affinity scheduling", "0", NULL, "none", "off", 1, CMP_CODA, "placement=first-touch sched=coda", false },
	{ "cgp-mig", "CGP with first-touch by migration: a page moves to the first GPU that reaches it remotely, affinity scheduling", "0", NULL, "none", "off", 1, CMP_CODA, "placement=cgp sched=coda migrate=first-touch", false },
	{ "coda", "CODA: chunks placed with their blocks (min(4 KB, B x N)), affinity scheduling", "0", NULL, "none", "off", 1, CMP_CODA, "placement=coda sched=coda coda-chunk=cap", false },
	{ "coda-uncapped", "CODA with chunks of B x N (no 4 KB cap)", "0", NULL, "none", "off", 1, CMP_CODA, "placement=coda sched=coda coda-chunk=uncapped", false },
};

#define CMP_NSYS (sizeof(cmp_systems) / sizeof(cmp_systems[0]))
_Static_assert(CMP_NSYS <= CMP_NSYS_MAX, "bench.h's CMP_NSYS_MAX holds them");

/*
 * CARVE's scaled regime (Documentation/carve.rst): the paper's 8 MB L2
 * and 2 GB RDC of 32 GB shrink with its GB footprints to our MB ones,
 * keeping shared read set > L2 and <= RDC, and the carve-out at 6.25% of
 * memory. Any option given overrides them.
 */
static const char *const carve_scaled[] = {
	"--page", "64K", "--l2-size", "256K", "--rdc-size", "4M",
	"--mem-per-gpu", "64M", "--deterministic", "--sharing-profile",
};

/*
 * REC's regime (Documentation/rec.rst): the rec preset with its caches
 * and directory at 1/8 of REC Table 2 (L2 2 MB -> 256 KB, 8K entries ->
 * 1K, L1 16 KB -> 2 KB per CU), for footprints about 1/8 of Table 3's.
 */
static const char *const rec_scaled[] = {
	"--system", "rec", "--l2-size", "256K", "--dir-entries", "1024",
	"--l1-size", "2K", "--mem-per-gpu", "64M", "--deterministic",
};

/*
 * DualOpt's (Documentation/dualopt.rst): the preset as the paper has it;
 * its footprints are MGPUSim's default problem sizes, of our order.
 */
static const char *const dualopt_scaled[] = {
	"--system", "dualopt", "--mem-per-gpu", "256M", "--deterministic",
};

/*
 * ScaleGPU's: the preset (one GPU behind PCIe 2.0); --device-mem sets the
 * scalegpu system's share of the data (100% unless given).
 */
static const char *const scalegpu_scaled[] = {
	"--system", "scalegpu", "--deterministic",
};

/*
 * CODA's: the preset (4 GPUs of 4 SMs, 16 GB/s links), with the page-
 * access profile for the categories.
 */
static const char *const coda_scaled[] = {
	"--system", "coda", "--deterministic", "--page-profile",
};

#define NSCALED(a) (sizeof(a) / sizeof((a)[0]))
_Static_assert(NSCALED(carve_scaled) <= NG_CMP_MAX_SCALED &&
	       NSCALED(rec_scaled) <= NG_CMP_MAX_SCALED &&
	       NSCALED(dualopt_scaled) <= NG_CMP_MAX_SCALED &&
	       NSCALED(scalegpu_scaled) <= NG_CMP_MAX_SCALED &&
	       NSCALED(coda_scaled) <= NG_CMP_MAX_SCALED,
	       "cmd_bench.c's argument array has room for NG_CMP_MAX_SCALED");

const struct cmp_family_info ng_cmp_families[CMP_NFAMILY] = {
	[CMP_CARVE] = { "carve", "carve", carve_scaled, NSCALED(carve_scaled),
			"numa-gpu,repl-ro,carve-swc,carve-hwc,carve-none,ideal",
			"numa-gpu" },
	[CMP_REC] = { "rec", "rec", rec_scaled, NSCALED(rec_scaled),
		      "dir,dir-2x,hmg,rec", "dir" },
	[CMP_DUALOPT] = { "dualopt", "dualopt", dualopt_scaled,
			  NSCALED(dualopt_scaled),
			  "baseline,page-migration,coalesce,rdma-cache,dualopt",
			  "baseline" },
	[CMP_SCALEGPU] = { "scalegpu", "scalegpu", scalegpu_scaled,
			   NSCALED(scalegpu_scaled), "full,split,zero-copy,scalegpu",
			   "full" },
	[CMP_CODA] = { "coda", "coda", coda_scaled, NSCALED(coda_scaled),
		       "fgp,cgp,cgp-ft,cgp-mig,coda,coda-uncapped", "fgp" },
};

enum cmp_family ng_cmp_family(int argc, char **argv)
{
	const char *systems = NULL, *preset = NULL;

	for (int i = 1; i < argc; i++) {
		const char **v = !strncmp(argv[i], "--systems", 9) ? &systems :
				 !strncmp(argv[i], "--system", 8) ? &preset : NULL;
		const char *a = argv[i], *eq = strchr(a, '=');

		if (!v || (strcmp(a, "--systems") && strcmp(a, "--system") &&
			   !eq))
			continue;
		*v = eq ? eq + 1 : i + 1 < argc ? argv[i + 1] : NULL;
	}
	if (systems) {
		const struct cmp_system *s = ng_cmp_find(systems,
							 strcspn(systems, ","));

		return s ? s->family : CMP_CARVE;
	}
	for (unsigned int f = 0; preset && f < CMP_NFAMILY; f++)
		if (!strcmp(preset, ng_cmp_families[f].preset))
			return (enum cmp_family)f;
	return CMP_CARVE;
}

const struct cmp_row *ng_cmp_ref(const struct cmp_row *rows, unsigned int n,
				 const struct cmp_row *w)
{
	const char *ref = ng_cmp_families[w->sys->family].ref;
	const struct cmp_row *first = NULL;

	for (unsigned int i = 0; i < n; i++) {
		if (strcmp(rows[i].sweep, w->sweep))
			continue;
		if (!first)
			first = &rows[i];
		if (!strcmp(rows[i].sys->name, ref))
			return &rows[i];
	}
	return first ? first : w;
}

const char *ng_cmp_verified(const struct cmp_row *w)
{
	return w->r.verified ? "yes" : w->sys->stale_expected ? "stale" : "NO";
}

bool ng_cmp_failed(const struct cmp_row *w)
{
	return !w->r.verified && !w->sys->stale_expected;
}

/* Below a table: which rows' stale data was expected, not a failure. */
static void cmp_print_stale(const struct cmp_row *rows, unsigned int n)
{
	bool any = false;

	for (unsigned int i = 0; i < n; i++)
		any |= !rows[i].r.verified && rows[i].sys->stale_expected;
	if (any)
		printf("stale: verification failed as expected: the system keeps no coherence (an upper\n"
		       "bound), so data another GPU wrote is read stale; this does not fail the run\n");
}

const struct cmp_system *ng_cmp_find(const char *name, size_t len)
{
	for (size_t i = 0; i < CMP_NSYS; i++)
		if (strlen(cmp_systems[i].name) == len &&
		    !strncmp(cmp_systems[i].name, name, len))
			return &cmp_systems[i];
	return NULL;
}

int ng_cmp_apply(struct ng_config *c, const struct cmp_system *s,
		 uint64_t rdc, char *err, size_t errlen)
{
	char v[32];
	int ret;

	snprintf(v, sizeof(v), "%llu",
		 (unsigned long long)(strcmp(s->rdc, "keep") ? 0 : rdc));
	ret = ng_config_set(c, "replicate", s->replicate, err, errlen);
	if (!ret)
		ret = ng_config_set(c, "rdc-size", v, err, errlen);
	if (!ret && s->coherence)
		ret = ng_config_set(c, "coherence", s->coherence, err, errlen);
	if (!ret && s->directory)
		ret = ng_config_set(c, "directory", s->directory, err, errlen);
	if (!ret && s->dir_scale > 1)
		c->dir_entries *= s->dir_scale;
	for (const char *p = s->set; !ret && p && *p;) {
		char kv[64], *eq;
		size_t len = strcspn(p, " ");

		snprintf(kv, sizeof(kv), "%.*s", (int)len, p);
		eq = strchr(kv, '=');
		*eq = '\0';
		ret = ng_config_set(c, kv, eq + 1, err, errlen);
		p += len;
		p += *p == ' ';
	}
	if (!ret)
		ret = ng_config_validate(c, err, errlen);
	return ret;
}

static void cmp_print_human(const struct cmp_row *rows, unsigned int n,
			    const char *sweep_key)
{
	const double tmax = ng_cmp_max_modeled(rows, n);
	char b1[32], b2[32], b3[32];

	/* The sweep column only when there is a sweep: no blank margin. */
	if (sweep_key)
		printf("%-12s ", sweep_key);
	printf("%-11s %-8s %11s %7s %7s %8s %7s %8s %10s %9s %8s %9s\n",
	       "system", "verified", "modeled",
	       "t/ideal", "speedup", "remote%", "link%", "rdc-hit%",
	       "link-bytes", "inv-msgs", "mem-ovh", "fallback");
	for (unsigned int i = 0; i < n; i++) {
		const struct cmp_row *w = &rows[i];
		char sp[16];

		if (w->vs_numa > 0)
			snprintf(sp, sizeof(sp), "%.2f", w->vs_numa);
		else
			snprintf(sp, sizeof(sp), "-");
		if (sweep_key)
			printf("%-12s ", w->sweep);
		printf("%-11s %-8s %11s %7.3f %7s %8.1f %7.1f %8.1f %10s %9llu %7.1f%% %9s\n",
		       w->sys->name, ng_cmp_verified(w),
		       ng_fmt_dur_col(w->r.modeled_s, tmax, b1, sizeof(b1)), w->norm, sp,
		       100 * w->r.remote_frac, 100 * w->r.link_frac,
		       100 * w->r.rdc_hit_rate,
		       ng_format_bytes(w->r.link_bytes, b2, sizeof(b2)),
		       (unsigned long long)w->inv_msgs, 100 * w->r.mem_overhead,
		       ng_format_bytes(w->r.fallback_bytes, b3, sizeof(b3)));
	}
}

static void cmp_print_csv(const struct cmp_row *rows, unsigned int n,
			  const char *sweep_key)
{
	printf("workload,%s,system,verified,modeled_s,time_over_ideal,speedup_over_numa_gpu,remote_fraction,link_fraction,rdc_hit_rate,rdc_hits,rdc_lookups,link_bytes,inv_msgs,inv_bytes,mem_overhead,carve_bytes,repl_bytes,footprint,fallback_bytes\n",
	       sweep_key ? sweep_key : "sweep");
	for (unsigned int i = 0; i < n; i++) {
		const struct cmp_row *w = &rows[i];
		const struct ng_counters *t = &w->r.total;

		printf("%s,%s,%s,%d,%.9g,%.6g,%.6g,%.6g,%.6g,%.6g,%llu,%llu,%llu,%llu,%llu,%.6g,%llu,%llu,%llu,%llu\n",
		       w->r.workload, w->sweep, w->sys->name, w->r.verified,
		       w->r.modeled_s, w->norm, w->vs_numa, w->r.remote_frac,
		       w->r.link_frac, w->r.rdc_hit_rate,
		       (unsigned long long)t->v[NG_CTR_RDC_HIT],
		       (unsigned long long)(t->v[NG_CTR_RDC_HIT] + t->v[NG_CTR_RDC_MISS]),
		       (unsigned long long)w->r.link_bytes,
		       (unsigned long long)w->inv_msgs,
		       (unsigned long long)t->v[NG_CTR_INV_BYTES],
		       w->r.mem_overhead,
		       (unsigned long long)w->r.carve_bytes,
		       (unsigned long long)w->r.repl_bytes,
		       (unsigned long long)w->r.footprint,
		       (unsigned long long)w->r.fallback_bytes);
	}
}

static void cmp_print_json(const struct ng_config *cfg, const struct cmp_row *rows,
			   unsigned int n, const char *sweep_key)
{
	struct ng_json j;

	ng_json_init(&j, stdout, true);
	ng_json_object_begin(&j);
	ng_json_kv_string(&j, "version", NUMAGPU_VERSION_STRING);
	ng_json_kv_string(&j, "workload", n ? rows[0].r.workload : "");
	ng_json_kv_string(&j, "sweep", sweep_key ? sweep_key : "");
	ng_json_kv_uint(&j, "l2_size", cfg->l2_size);
	ng_json_kv_uint(&j, "rdc_size", cfg->rdc_size);
	ng_json_kv_double(&j, "link_bw_gbs", cfg->link_bw);
	ng_json_kv_string(&j, "topology", ng_topology_names[cfg->topology]);
	ng_json_kv_bool(&j, "l2_local", cfg->l2_local);
	ng_json_kv_uint(&j, "warp_width", cfg->warp_width);
	ng_json_key(&j, "runs");
	ng_json_array_begin(&j);
	for (unsigned int i = 0; i < n; i++) {
		const struct cmp_row *w = &rows[i];

		ng_json_object_begin(&j);
		ng_json_kv_string(&j, "sweep_value", w->sweep);
		ng_json_kv_string(&j, "system", w->sys->name);
		ng_json_kv_bool(&j, "verified", w->r.verified);
		ng_json_kv_string(&j, "verify", w->r.verify);
		ng_json_kv_bool(&j, "stale_expected", w->sys->stale_expected);
		ng_json_kv_double(&j, "modeled_s", w->r.modeled_s);
		ng_json_kv_double(&j, "time_over_ideal", w->norm);
		ng_json_kv_double(&j, "speedup_over_numa_gpu", w->vs_numa);
		ng_json_kv_double(&j, "remote_fraction", w->r.remote_frac);
		ng_json_kv_double(&j, "link_fraction", w->r.link_frac);
		ng_json_kv_double(&j, "rdc_hit_rate", w->r.rdc_hit_rate);
		ng_json_kv_double(&j, "compute_fraction", w->r.compute_frac);
		if (w->r.has_sharing) {
			ng_json_key(&j, "sharing");
			ng_bench_sharing_json(&j, &w->r.sharing);
		}
		ng_json_kv_uint(&j, "link_bytes", w->r.link_bytes);
		ng_json_kv_uint(&j, "inv_msgs", w->inv_msgs);
		ng_json_kv_double(&j, "mem_overhead", w->r.mem_overhead);
		ng_json_kv_uint(&j, "carve_bytes", w->r.carve_bytes);
		ng_json_kv_uint(&j, "repl_bytes", w->r.repl_bytes);
		ng_json_kv_uint(&j, "footprint", w->r.footprint);
		ng_json_kv_uint(&j, "fallback_bytes", w->r.fallback_bytes);
		if (w->sys->family == CMP_REC)
			ng_cmp_rec_json(&j, w, ng_cmp_ref(rows, n, w));
		else if (w->sys->family == CMP_DUALOPT)
			ng_cmp_dualopt_json(&j, w, ng_cmp_ref(rows, n, w));
		else if (w->sys->family == CMP_SCALEGPU)
			ng_cmp_scalegpu_json(&j, w, ng_cmp_ref(rows, n, w));
		else if (w->sys->family == CMP_CODA)
			ng_cmp_coda_json(&j, w, ng_cmp_ref(rows, n, w));
		ng_json_key(&j, "counters");
		ng_bench_counters_json(&j, &w->r.total);
		ng_json_object_end(&j);
	}
	ng_json_array_end(&j);
	ng_json_object_end(&j);
	ng_json_finish(&j);
}

unsigned int ng_cmp_systems(const char *list,
			    const struct cmp_system *sel[CMP_NSYS_MAX])
{
	unsigned int n = 0;

	for (const char *p = list; *p;) {
		size_t len = strcspn(p, ",");
		const struct cmp_system *s = ng_cmp_find(p, len);

		if (!s) {
			ng_usage_error("bench", "--systems: unknown system '%.*s' (known: numa-gpu, repl-ro, carve-none, carve-swc, carve-hwc, ideal; REC: dir, dir-2x, hmg, rec, l2-swc; DualOpt: baseline, page-migration, fine, coalesce, rdma-cache, dualopt; ScaleGPU: full, split, zero-copy, scalegpu; CODA: fgp, cgp, cgp-ft, cgp-mig, coda, coda-uncapped)",
				       (int)len, p);
			return 0;
		}
		if (n < CMP_NSYS_MAX)
			sel[n++] = s;
		p += len;
		if (*p)
			p++;
	}
	if (!n)
		ng_usage_error("bench", "--systems: no system given");
	return n;
}

/* ngemu bench --compare: every system of @systems (and sweep value) in turn. */
int ng_bench_compare(const struct ng_config *base,
		     const struct ng_workload *wl,
		     const struct ng_bench_opts *o, const char *systems,
		     const char *sweep, int fmt)
{
	const struct cmp_system *sel[CMP_NSYS_MAX];
	char key[32] = "", vals[256] = "", err[512];
	const char *values[32];
	unsigned int nsel = 0, nval = 0, nrows = 0, failed = 0;
	struct cmp_row *rows;
	enum cmp_family fam;
	int ret = NG_EXIT_OK;

	nsel = ng_cmp_systems(systems, sel);
	if (!nsel)
		return NG_EXIT_USAGE;
	if (sweep) {
		const char *eq = strchr(sweep, '=');
		char *save = NULL, *tok;

		if (!eq || eq == sweep || (size_t)(eq - sweep) >= sizeof(key) ||
		    strlen(eq + 1) >= sizeof(vals) || !eq[1])
			return ng_usage_error("bench", "--sweep: '%s' is not KEY=V1,V2,...", sweep);
		memcpy(key, sweep, (size_t)(eq - sweep));
		key[eq - sweep] = '\0';
		if (!ng_config_key(key, NULL))
			return ng_usage_error("bench", "--sweep: unknown parameter '%s'", key);
		snprintf(vals, sizeof(vals), "%s", eq + 1);
		for (tok = strtok_r(vals, ",", &save); tok && nval < 32;
		     tok = strtok_r(NULL, ",", &save))
			values[nval++] = tok;
	}
	if (!nval)
		values[nval++] = "";
	rows = calloc((size_t)nval * nsel, sizeof(*rows));
	if (!rows) {
		fprintf(stderr, "ngemu bench: out of memory\n");
		return NG_EXIT_FAIL;
	}
	for (unsigned int v = 0; v < nval; v++) {
		double ideal = 0, numa = 0;
		unsigned int first = nrows;

		for (unsigned int i = 0; i < nsel; i++) {
			struct cmp_row *w = &rows[nrows];
			struct ng_config c = *base;
			struct ng_system *sys;

			if (key[0] && ng_config_set(&c, key, values[v], err, sizeof(err))) {
				free(rows);
				return ng_usage_error("bench", "--sweep: %s", err);
			}
			if (ng_cmp_apply(&c, sel[i], c.rdc_size, err, sizeof(err))) {
				free(rows);
				return ng_usage_error("bench", "%s", err);
			}
			snprintf(w->sweep, sizeof(w->sweep), "%s", values[v]);
			w->sys = sel[i];
			w->cfg = c;
			if (ng_system_create(&sys, &c, err, sizeof(err))) {
				fprintf(stderr, "ngemu bench: %s: %s\n", sel[i]->name, err);
				free(rows);
				return NG_EXIT_USAGE;
			}
			if (ng_bench_run(sys, wl, o, &w->r, err, sizeof(err))) {
				ng_system_destroy(sys);
				fprintf(stderr, "ngemu bench: %s: %s\n", sel[i]->name, err);
				free(rows);
				return NG_EXIT_USAGE;
			}
			ng_system_destroy(sys);
			w->inv_msgs = w->r.total.v[NG_CTR_INV_MSGS];
			if (!strcmp(sel[i]->name, "ideal"))
				ideal = w->r.modeled_s;
			/* REC's and DualOpt's figures are relative to their baselines */
			if (!strcmp(sel[i]->name, ng_cmp_families[sel[i]->family].ref))
				numa = w->r.modeled_s;
			if (ng_cmp_failed(w)) {
				failed++;
				fprintf(stderr, "ngemu bench %s: %s%s%s: verification failed: %s\n",
					wl->name, sel[i]->name, key[0] ? " at " : "",
					values[v], w->r.verify);
			} else if (!w->r.verified) {
				fprintf(stderr, "ngemu bench %s: %s%s%s: verification failed as expected (no coherence: stale data expected; not a failure): %s\n",
					wl->name, sel[i]->name, key[0] ? " at " : "",
					values[v], w->r.verify);
			}
			nrows++;
		}
		/* normalized to the ideal if it ran, else to the first system */
		if (ideal <= 0)
			ideal = rows[first].r.modeled_s;
		for (unsigned int i = first; i < nrows; i++) {
			rows[i].norm = ideal > 0 ? rows[i].r.modeled_s / ideal : 0;
			rows[i].vs_numa = numa > 0 && rows[i].r.modeled_s > 0 ?
					  numa / rows[i].r.modeled_s : 0;
		}
	}
	fam = sel[0]->family;
	if (fmt == 1) {
		cmp_print_json(base, rows, nrows, key[0] ? key : NULL);
	} else if (fmt == 2 && fam == CMP_REC) {
		ng_cmp_rec_csv(rows, nrows, key[0] ? key : NULL);
	} else if (fmt == 2 && fam == CMP_DUALOPT) {
		ng_cmp_dualopt_csv(rows, nrows, key[0] ? key : NULL);
	} else if (fmt == 2 && fam == CMP_SCALEGPU) {
		ng_cmp_scalegpu_csv(rows, nrows, key[0] ? key : NULL);
	} else if (fmt == 2 && fam == CMP_CODA) {
		ng_cmp_coda_csv(rows, nrows, key[0] ? key : NULL);
	} else if (fmt == 2) {
		cmp_print_csv(rows, nrows, key[0] ? key : NULL);
	} else if (fam == CMP_DUALOPT) {
		printf("ngemu bench --compare %s: %u GPUs, L1 %s/CU, RDMA cache %s/GPU, link %g GB/s in %u B flits (%s)%s\n",
		       wl->name, base->gpus,
		       ng_format_bytes(base->l1_size, err, 32),
		       ng_format_bytes(base->rdma_size, err + 32, 32),
		       base->link_bw, base->flit,
		       ng_topology_names[base->topology],
		       base->deterministic ? ", deterministic" : "");
		ng_cmp_dualopt_human(rows, nrows, key[0] ? key : NULL);
	} else if (fam == CMP_CODA) {
		printf("ngemu bench --compare %s: %u GPUs x %u SMs, FGP %llu B, %g GB/s local, %g GB/s links (%s)%s\n",
		       wl->name, base->gpus, base->sms,
		       (unsigned long long)base->fgp_granularity, base->local_bw,
		       base->link_bw, ng_topology_names[base->topology],
		       base->deterministic ? ", deterministic" : "");
		ng_cmp_coda_human(rows, nrows, key[0] ? key : NULL);
	} else if (fam == CMP_SCALEGPU) {
		printf("ngemu bench --compare %s: %u GPU%s, %u B per tag, TMH %u/%u x %u, host link %g GB/s, %g ns each way%s\n",
		       wl->name, base->gpus, base->gpus == 1 ? "" : "s",
		       base->tag_bytes, base->tmh_queue, base->tmh_scoreboard,
		       base->tmh_units, base->host_bw, base->host_latency_ns,
		       base->deterministic ? ", deterministic" : "");
		ng_cmp_scalegpu_human(rows, nrows, key[0] ? key : NULL);
	} else if (fam == CMP_REC) {
		char b1[32], b2[32];

		printf("ngemu bench --compare %s: %u GPUs, L1 %s/CU, L2 %s/GPU, %u directory entries (%u-way, %s), link %g GB/s (%s)%s\n",
		       wl->name, base->gpus,
		       ng_format_bytes(base->l1_size, b1, sizeof(b1)),
		       ng_format_bytes(base->l2_size, b2, sizeof(b2)),
		       base->dir_entries, base->dir_ways,
		       ng_dir_policy_names[base->dir_policy], base->link_bw,
		       ng_topology_names[base->topology],
		       base->deterministic ? ", deterministic" : "");
		ng_cmp_rec_human(rows, nrows, key[0] ? key : NULL);
	} else {
		char b1[32], b2[32];

		printf("ngemu bench --compare %s: %u GPUs, L2 %s/GPU, RDC %s/GPU, link %g GB/s (%s)%s\n",
		       wl->name, base->gpus,
		       ng_format_bytes(base->l2_size, b1, sizeof(b1)),
		       ng_format_bytes(base->rdc_size, b2, sizeof(b2)),
		       base->link_bw, ng_topology_names[base->topology],
		       base->deterministic ? ", deterministic" : "");
		printf("t/ideal: modeled time over the ideal's; speedup: over numa-gpu; remote%%: requests homed on\n"
		       "another GPU; link%%: requests served over a link (not by L2, RDC or a replica);\n"
		       "mem-ovh: carve-out share of device memory (CARVE) or replica growth of the footprint (repl-ro)\n\n");
		if (nrows && rows[0].r.has_sharing) {
			printf("sharing profile (CARVE Fig. 4), %s:\n", rows[0].sys->name);
			ng_bench_sharing_human(&rows[0].r.sharing, "  ");
			printf("\n");
		}
		cmp_print_human(rows, nrows, key[0] ? key : NULL);
	}
	if (fmt == 0)
		cmp_print_stale(rows, nrows);
	if (failed)
		ret = NG_EXIT_FAIL;
	free(rows);
	return ret;
}
