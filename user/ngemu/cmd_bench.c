// SPDX-License-Identifier: GPL-2.0
/* ngemu bench: run a workload on the emulated GPUs, verified, with statistics. */
#include <errno.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include <linux/numagpu.h>

#include "commands.h"
#include "ngemu/config.h"
#include "ngemu/util/format.h"
#include "ngemu/util/json.h"
#include "ngemu/runtime/system.h"
#include "ngemu/workloads/workload.h"

static void bench_usage(FILE *out)
{
	fprintf(out,
		"Usage: ngemu bench [OPTIONS] WORKLOAD\n"
		"       ngemu bench --list\n"
		"\n"
		"Run WORKLOAD on the emulated GPUs, verify it against a CPU reference\n"
		"and report modeled time and bandwidth, wall time, local/remote\n"
		"accesses, link bytes and L2 hit rate. stream-triad also runs natively\n"
		"(same threads, same arrays, no model) and reports the ratio. The\n"
		"calibration workloads report the measured parameter beside the\n"
		"configured one.\n"
		"\n"
		"Options:\n"
		"      --list          list the workloads\n"
		"      --size N        bytes per array (e.g. 64M; default per workload)\n"
		"      --iters N       timed kernel launches (default per workload)\n"
		"      --no-native     skip the native run\n"
		"      --compare       run WORKLOAD under several systems side by side,\n"
		"                      normalized to the ideal (CARVE; see Documentation/carve.rst);\n"
		"                      starts from the scaled regime --page 64K --l2-size 256K\n"
		"                      --rdc-size 4M --mem-per-gpu 64M --deterministic\n"
		"      --systems LIST  with --compare: numa-gpu,repl-ro,carve-none,carve-swc,\n"
		"                      carve-hwc,ideal (default: all)\n"
		"      --sweep K=V,..  with --compare: repeat for each value of a config key\n"
		"                      (e.g. rdc-size=1M,2M,4M,8M or link-bw=32,64,128)\n"
		"      --csv           with --compare: comma-separated output\n"
		"  -j, --json          machine-readable output\n"
		"  -h, --help          show this help and exit\n"
		"\n"
		"System and model (see 'ngemu config --show' for every key):\n"
		"      --system NAME   preset: carve (default), dualopt, rec, coda\n"
		"      --config FILE   'key = value' lines\n"
		"      --gpus N, --sms N, --line B, --l2-size B (0: no L2), --link-bw GB/s,\n"
		"      --placement first-touch|fgp|cgp|coda|host|node:G, --sched rr|batch|coda,\n"
		"      --rdc-size B (CARVE RDC per GPU; 0: off), --coherence none|swc|hwc,\n"
		"      --replicate none|ro|all, --imst-reset P,\n"
		"      --steal, --deterministic, --seed N, --inject, --backend auto|user|kmod\n"
		"      --prefetch      kmod backend: prefetch every buffer's pages to their home\n"
		"                      GPUs before the kernels (--replicate ro with kmod: the\n"
		"                      module replicates read-shared pages, read-mostly hints)\n"
		"\n"
		"Exit status: 0 verified, 1 failed, 2 usage error (bad option or value,\n"
		"a size that does not fit).\n");
}

struct progress {
	bool tty;
	bool shown;
	double t0;
	const char *name;
};

static double now_s(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

static void progress_cb(void *ctx, unsigned int done, unsigned int total)
{
	struct progress *p = ctx;
	int width = 30, fill;

	/* only where someone watches, and only once it takes a while */
	if (!p->tty || now_s() - p->t0 < 1.0)
		return;
	fill = total ? (int)((double)done / total * width) : width;
	fprintf(stderr, "\r%s [%.*s%*s] %u/%u kernels", p->name, fill,
		"##############################", width - fill, "", done, total);
	p->shown = true;
	if (done == total) {
		fprintf(stderr, "\n");
		p->shown = false;
	}
}

static void print_counters_json(struct ng_json *j, const struct ng_counters *c)
{
	const char *comp = NULL;

	ng_json_object_begin(j);
	for (int i = 0; i < NG_CTR_MAX; i++) {
		if (!comp || strcmp(comp, ng_counter_info[i].component)) {
			if (comp)
				ng_json_object_end(j);
			comp = ng_counter_info[i].component;
			ng_json_key(j, comp);
			ng_json_object_begin(j);
		}
		ng_json_kv_uint(j, ng_counter_info[i].name, c->v[i]);
	}
	if (comp)
		ng_json_object_end(j);
	ng_json_object_end(j);
}

static void print_json(const struct ng_config *cfg, const struct ng_bench_result *r)
{
	struct ng_json j;

	ng_json_init(&j, stdout, true);
	ng_json_object_begin(&j);
	ng_json_kv_string(&j, "version", NUMAGPU_VERSION_STRING);
	ng_json_kv_string(&j, "workload", r->workload);
	ng_json_kv_bool(&j, "verified", r->verified);
	ng_json_kv_string(&j, "verify", r->verify);
	ng_json_key(&j, "config");
	ng_json_object_begin(&j);
	ng_json_kv_string(&j, "system", cfg->preset);
	ng_json_kv_uint(&j, "gpus", cfg->gpus);
	ng_json_kv_uint(&j, "sms", cfg->sms);
	ng_json_kv_uint(&j, "line", cfg->line);
	ng_json_kv_uint(&j, "page", cfg->page);
	ng_json_kv_uint(&j, "l2_size", cfg->l2_size);
	ng_json_kv_double(&j, "local_bw_gbs", cfg->local_bw);
	ng_json_kv_double(&j, "link_bw_gbs", cfg->link_bw);
	ng_json_kv_string(&j, "placement", ng_placement_name(cfg->placement));
	ng_json_kv_string(&j, "sched", ng_sched_name(cfg->sched));
	ng_json_kv_bool(&j, "steal", cfg->steal);
	ng_json_kv_bool(&j, "deterministic", cfg->deterministic);
	ng_json_kv_bool(&j, "inject", cfg->inject);
	ng_json_kv_uint(&j, "seed", cfg->seed);
	ng_json_object_end(&j);
	ng_json_kv_uint(&j, "size", r->size);
	ng_json_kv_uint(&j, "elements", r->elements);
	ng_json_kv_uint(&j, "iters", r->iters);
	ng_json_kv_uint(&j, "bytes", r->bytes);
	ng_json_kv_double(&j, "modeled_s", r->modeled_s);
	ng_json_kv_double(&j, "modeled_bw_gbs", r->modeled_bw);
	ng_json_kv_double(&j, "wall_s", r->wall_s);
	ng_json_kv_double(&j, "wall_bw_gbs", r->wall_bw);
	if (r->has_native) {
		ng_json_kv_double(&j, "native_wall_s", r->native_wall_s);
		ng_json_kv_double(&j, "native_bw_gbs", r->native_bw);
		ng_json_kv_double(&j, "ratio", r->ratio);
	}
	if (r->metric) {
		ng_json_key(&j, "calibration");
		ng_json_object_begin(&j);
		ng_json_kv_string(&j, "metric", r->metric);
		ng_json_kv_string(&j, "unit", r->unit);
		ng_json_kv_double(&j, "expected", r->expected);
		ng_json_kv_double(&j, "measured", r->measured);
		ng_json_kv_double(&j, "error_pct", r->error_pct);
		ng_json_object_end(&j);
	}
	ng_json_kv_double(&j, "local_fraction", r->local_frac);
	ng_json_kv_double(&j, "remote_fraction", r->remote_frac);
	ng_json_kv_double(&j, "host_fraction", r->host_frac);
	ng_json_kv_uint(&j, "link_bytes", r->link_bytes);
	ng_json_kv_double(&j, "l2_hit_rate", r->l2_hit_rate);
	ng_json_key(&j, "carve");
	ng_json_object_begin(&j);
	ng_json_kv_uint(&j, "rdc_size", cfg->rdc_size);
	ng_json_kv_string(&j, "coherence", ng_coherence_name(cfg->coherence));
	ng_json_kv_string(&j, "replicate", ng_replicate_name(cfg->replicate));
	ng_json_kv_double(&j, "rdc_hit_rate", r->rdc_hit_rate);
	ng_json_kv_double(&j, "link_fraction", r->link_frac);
	ng_json_kv_uint(&j, "carve_bytes", r->carve_bytes);
	ng_json_kv_uint(&j, "fallback_bytes", r->fallback_bytes);
	ng_json_kv_uint(&j, "repl_bytes", r->repl_bytes);
	ng_json_kv_uint(&j, "footprint", r->footprint);
	ng_json_kv_double(&j, "mem_overhead", r->mem_overhead);
	ng_json_object_end(&j);
	ng_json_kv_string(&j, "backend", r->kmod ? "kmod" : "user");
	if (r->kmod) {
		ng_json_key(&j, "kmod_placement");
		ng_json_object_begin(&j);
		ng_json_kv_uint(&j, "pages", r->placement.pages);
		ng_json_kv_uint(&j, "populated", r->placement.populated);
		ng_json_kv_uint(&j, "agree", r->placement.agree);
		ng_json_kv_uint(&j, "fallback", r->placement.fallback);
		ng_json_kv_bool(&j, "comparable", r->placement.comparable);
		{
			const struct ng_kmod_stats *k = &r->placement.stats;

			ng_json_kv_uint(&j, "faults", k->faults);
			ng_json_key(&j, "view_faults");
			ng_json_array_begin(&j);
			for (unsigned int g = 0; g < r->ngpus; g++)
				ng_json_uint(&j, k->view_faults[g]);
			ng_json_array_end(&j);
			ng_json_kv_uint(&j, "replicas", k->replicas);
			ng_json_kv_uint(&j, "collapses", k->collapses);
			ng_json_kv_uint(&j, "migrations", k->migrations);
			ng_json_kv_uint(&j, "pins", k->pins);
			ng_json_kv_uint(&j, "read_mostly_pages", k->read_mostly_pages);
			ng_json_kv_uint(&j, "prefetched", k->prefetched);
		}
		ng_json_object_end(&j);
	}
	ng_json_kv_uint(&j, "threads", r->threads);
	ng_json_kv_double(&j, "requests_per_s_per_worker", r->req_per_s_per_worker);
	ng_json_kv_double(&j, "requests_per_s_per_cpu", r->req_per_s_per_cpu);
	ng_json_key(&j, "counters");
	print_counters_json(&j, &r->total);
	ng_json_key(&j, "gpus");
	ng_json_array_begin(&j);
	for (unsigned int g = 0; g < r->ngpus; g++)
		print_counters_json(&j, &r->gpu[g]);
	ng_json_array_end(&j);
	ng_json_object_end(&j);
	ng_json_finish(&j);
}

static const char *si(double v, char *buf, size_t len)
{
	if (v >= 1e9)
		snprintf(buf, len, "%.2f G", v / 1e9);
	else if (v >= 1e6)
		snprintf(buf, len, "%.2f M", v / 1e6);
	else if (v >= 1e3)
		snprintf(buf, len, "%.2f k", v / 1e3);
	else
		snprintf(buf, len, "%.0f ", v);
	return buf;
}

static const char *dur(double s, char *buf, size_t len)
{
	if (s >= 1)
		snprintf(buf, len, "%.3f s", s);
	else if (s >= 1e-3)
		snprintf(buf, len, "%.3f ms", s * 1e3);
	else
		snprintf(buf, len, "%.3f us", s * 1e6);
	return buf;
}

static void print_human(const struct ng_config *cfg, unsigned int nnodes,
			const struct ng_bench_result *r)
{
	const struct ng_counters *t = &r->total;
	char b1[32], b2[32], b3[32], b4[32];

	printf("ngemu bench %s: %s (%s)\n", r->workload,
	       r->verified ? "verified" : "FAILED", r->verify);
	printf("system     %s: %u GPUs x %u SMs on %u NUMA node%s, backend %s, %u worker thread%s%s\n",
	       cfg->preset, cfg->gpus, cfg->sms, nnodes, nnodes == 1 ? "" : "s",
	       r->kmod ? "kmod" : "user",
	       r->threads, r->threads == 1 ? "" : "s",
	       cfg->deterministic ? " (deterministic)" : "");
	printf("model      line %u B, page %s, L2 %s/GPU, local %g GB/s %g ns, link %g GB/s %g ns%s\n",
	       cfg->line, ng_format_bytes(cfg->page, b1, sizeof(b1)),
	       cfg->l2_size ? ng_format_bytes(cfg->l2_size, b2, sizeof(b2)) : "off",
	       cfg->local_bw, cfg->local_latency_ns, cfg->link_bw,
	       cfg->link_latency_ns, cfg->inject ? ", injected" : "");
	printf("workload   %s per array, %llu elements, %u iteration%s, placement %s, sched %s%s\n",
	       ng_format_bytes(r->size, b1, sizeof(b1)),
	       (unsigned long long)r->elements, r->iters, r->iters == 1 ? "" : "s",
	       ng_placement_name(cfg->placement), ng_sched_name(cfg->sched),
	       cfg->steal ? "+steal" : "");
	printf("modeled    %-12s %8.1f GB/s\n",
	       dur(r->modeled_s, b1, sizeof(b1)), r->modeled_bw);
	printf("wall       %-12s %8.2f GB/s (emulated)\n",
	       dur(r->wall_s, b1, sizeof(b1)), r->wall_bw);
	if (r->has_native)
		printf("native     %-12s %8.2f GB/s  ratio %.2f (emulated / native, same threads)\n",
		       dur(r->native_wall_s, b1, sizeof(b1)), r->native_bw,
		       r->ratio);
	if (r->metric)
		printf("calibrate  %s %.2f %s, configured %.2f %s, error %+.2f%%\n",
		       r->metric, r->measured, r->unit, r->expected, r->unit,
		       r->error_pct);
	printf("accesses   %sline requests: local %.1f%%, remote %.1f%%, host %.1f%%\n",
	       si((double)t->v[NG_CTR_REQ], b1, sizeof(b1)),
	       100 * r->local_frac, 100 * r->remote_frac, 100 * r->host_frac);
	printf("link       %s over inter-GPU links; L2 hit rate %.1f%% of %s remote loads\n",
	       ng_format_bytes(r->link_bytes, b1, sizeof(b1)), 100 * r->l2_hit_rate,
	       si((double)(t->v[NG_CTR_L2_HIT] + t->v[NG_CTR_L2_MISS]), b2, sizeof(b2)));
	if (cfg->rdc_size)
		printf("carve      RDC %s/GPU (%.1f%% of memory), coherence %s: hit rate %.1f%% of %s lookups, %s invalidates; %s of buffers fell back to host\n",
		       ng_format_bytes(cfg->rdc_size, b1, sizeof(b1)),
		       100 * r->mem_overhead, ng_coherence_name(cfg->coherence),
		       100 * r->rdc_hit_rate,
		       si((double)(t->v[NG_CTR_RDC_HIT] + t->v[NG_CTR_RDC_MISS]), b2, sizeof(b2)),
		       si((double)t->v[NG_CTR_INV_MSGS], b3, sizeof(b3)),
		       ng_format_bytes(r->fallback_bytes, b4, sizeof(b4)));
	if (cfg->replicate != NG_REPL_NONE)
		printf("replicate  %s: %llu pages replicated (%s, %.1f%% of the footprint), %llu collapsed\n",
		       ng_replicate_name(cfg->replicate),
		       (unsigned long long)t->v[NG_CTR_REPL_PAGES],
		       ng_format_bytes(r->repl_bytes, b1, sizeof(b1)),
		       100 * r->mem_overhead,
		       (unsigned long long)t->v[NG_CTR_REPL_COLLAPSE]);
	if (r->kmod)
		printf("numagpu.ko %llu of %llu populated pages on the model's home node%s (%llu fallback)\n",
		       (unsigned long long)r->placement.agree,
		       (unsigned long long)r->placement.populated,
		       r->placement.comparable ? "" : " (model interleaves finer than a page: not compared)",
		       (unsigned long long)r->placement.fallback);
	if (r->kmod) {
		const struct ng_kmod_stats *k = &r->placement.stats;

		printf("numagpu.ko %llu faults (per view:", (unsigned long long)k->faults);
		for (unsigned int g = 0; g < r->ngpus; g++)
			printf(" %llu", (unsigned long long)k->view_faults[g]);
		printf("), %llu replicas, %llu collapses, %llu migrations, %llu pins, %llu pages prefetched\n",
		       (unsigned long long)k->replicas,
		       (unsigned long long)k->collapses,
		       (unsigned long long)k->migrations,
		       (unsigned long long)k->pins,
		       (unsigned long long)k->prefetched);
	}
	printf("throughput %sline requests/s per worker thread, %sline requests/s per busy CPU\n",
	       si(r->req_per_s_per_worker, b3, sizeof(b3)),
	       si(r->req_per_s_per_cpu, b2, sizeof(b2)));
	printf("\n%-4s %10s %8s %8s %8s %10s %10s %8s\n", "GPU", "requests",
	       "local", "remote", "blocks", "link-tx", "link-rx", "l2-hits");
	for (unsigned int g = 0; g < r->ngpus; g++) {
		const struct ng_counters *c = &r->gpu[g];

		printf("%-4u %10llu %8llu %8llu %8llu %10s %10s %8llu\n", g,
		       (unsigned long long)c->v[NG_CTR_REQ],
		       (unsigned long long)c->v[NG_CTR_LOCAL],
		       (unsigned long long)c->v[NG_CTR_REMOTE],
		       (unsigned long long)c->v[NG_CTR_BLOCKS],
		       ng_format_bytes(c->v[NG_CTR_LINK_TX], b1, sizeof(b1)),
		       ng_format_bytes(c->v[NG_CTR_LINK_RX], b2, sizeof(b2)),
		       (unsigned long long)c->v[NG_CTR_L2_HIT]);
	}
}


/* ---- side-by-side runs (CARVE Figures 8, 9, 11, 13; Table V, Fig 14) ---- */

struct cmp_system {
	const char *name;
	const char *desc;
	const char *rdc;		/* "keep": the configured rdc-size */
	const char *coherence;
	const char *replicate;
};

static const struct cmp_system cmp_systems[] = {
	{ "numa-gpu", "NUMA-GPU: L2 caching of remote lines only", "0", NULL, "none" },
	{ "repl-ro", "NUMA-GPU + replication of read-only shared pages", "0", NULL, "ro" },
	{ "carve-none", "CARVE, no coherence (upper bound; stale data possible)", "keep", "none", "none" },
	{ "carve-swc", "CARVE, software coherence (epoch flush per kernel)", "keep", "swc", "none" },
	{ "carve-hwc", "CARVE, GPU-VI hardware coherence with IMST", "keep", "hwc", "none" },
	{ "ideal", "every access local, zero coherence cost (replicate all)", "0", NULL, "all" },
};

#define CMP_NSYS (sizeof(cmp_systems) / sizeof(cmp_systems[0]))
#define CMP_DEFAULT "numa-gpu,repl-ro,carve-swc,carve-hwc,carve-none,ideal"

/*
 * The scaled regime the compare mode starts from (Documentation/carve.rst):
 * the paper's 8 MB L2 and 2 GB RDC of 32 GB shrink with its GB footprints
 * to our MB ones, keeping shared read set > L2 and <= RDC, and the
 * carve-out at 6.25% of memory. Any option given overrides them.
 */
static const char *const cmp_scaled[] = {
	"--page", "64K", "--l2-size", "256K", "--rdc-size", "4M",
	"--mem-per-gpu", "64M", "--deterministic",
};

#define CMP_NSCALED (sizeof(cmp_scaled) / sizeof(cmp_scaled[0]))

struct cmp_row {
	char sweep[48];
	const struct cmp_system *sys;
	struct ng_bench_result r;
	double norm;			/* modeled time / the ideal's */
	double vs_numa;			/* numa-gpu time / this one's */
	uint64_t inv_msgs;
};

static const struct cmp_system *cmp_find(const char *name, size_t len)
{
	for (size_t i = 0; i < CMP_NSYS; i++)
		if (strlen(cmp_systems[i].name) == len &&
		    !strncmp(cmp_systems[i].name, name, len))
			return &cmp_systems[i];
	return NULL;
}

static int cmp_apply(struct ng_config *c, const struct cmp_system *s,
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
	return ret;
}

static void cmp_print_human(const struct cmp_row *rows, unsigned int n,
			    const char *sweep_key)
{
	char b1[32], b2[32], b3[32];

	printf("%-12s %-11s %-8s %11s %7s %7s %8s %7s %8s %10s %9s %8s %9s\n",
	       sweep_key ? sweep_key : "", "system", "verified", "modeled",
	       "t/ideal", "speedup", "remote%", "link%", "rdc-hit%",
	       "link-bytes", "inv-msgs", "mem-ovh", "fallback");
	for (unsigned int i = 0; i < n; i++) {
		const struct cmp_row *w = &rows[i];

		char sp[16];

		if (w->vs_numa > 0)
			snprintf(sp, sizeof(sp), "%.2f", w->vs_numa);
		else
			snprintf(sp, sizeof(sp), "-");
		printf("%-12s %-11s %-8s %11s %7.3f %7s %8.1f %7.1f %8.1f %10s %9llu %7.1f%% %9s\n",
		       w->sweep, w->sys->name, w->r.verified ? "yes" : "NO",
		       dur(w->r.modeled_s, b1, sizeof(b1)), w->norm, sp,
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
	ng_json_key(&j, "runs");
	ng_json_array_begin(&j);
	for (unsigned int i = 0; i < n; i++) {
		const struct cmp_row *w = &rows[i];

		ng_json_object_begin(&j);
		ng_json_kv_string(&j, "sweep_value", w->sweep);
		ng_json_kv_string(&j, "system", w->sys->name);
		ng_json_kv_bool(&j, "verified", w->r.verified);
		ng_json_kv_string(&j, "verify", w->r.verify);
		ng_json_kv_double(&j, "modeled_s", w->r.modeled_s);
		ng_json_kv_double(&j, "time_over_ideal", w->norm);
		ng_json_kv_double(&j, "speedup_over_numa_gpu", w->vs_numa);
		ng_json_kv_double(&j, "remote_fraction", w->r.remote_frac);
		ng_json_kv_double(&j, "link_fraction", w->r.link_frac);
		ng_json_kv_double(&j, "rdc_hit_rate", w->r.rdc_hit_rate);
		ng_json_kv_uint(&j, "link_bytes", w->r.link_bytes);
		ng_json_kv_uint(&j, "inv_msgs", w->inv_msgs);
		ng_json_kv_double(&j, "mem_overhead", w->r.mem_overhead);
		ng_json_kv_uint(&j, "carve_bytes", w->r.carve_bytes);
		ng_json_kv_uint(&j, "repl_bytes", w->r.repl_bytes);
		ng_json_kv_uint(&j, "footprint", w->r.footprint);
		ng_json_kv_uint(&j, "fallback_bytes", w->r.fallback_bytes);
		ng_json_key(&j, "counters");
		print_counters_json(&j, &w->r.total);
		ng_json_object_end(&j);
	}
	ng_json_array_end(&j);
	ng_json_object_end(&j);
	ng_json_finish(&j);
}

/* ngemu bench --compare: every system of @systems (and sweep value) in turn. */
static int bench_compare(const struct ng_config *base, const struct ng_workload *wl,
			 const struct ng_bench_opts *o, const char *systems,
			 const char *sweep, int fmt)
{
	const struct cmp_system *sel[CMP_NSYS];
	char key[32] = "", vals[256] = "", err[512];
	const char *values[32];
	unsigned int nsel = 0, nval = 0, nrows = 0, failed = 0;
	struct cmp_row *rows;
	int ret = NG_EXIT_OK;

	for (const char *p = systems; *p;) {
		size_t len = strcspn(p, ",");
		const struct cmp_system *s = cmp_find(p, len);

		if (!s)
			return ng_usage_error("bench", "--systems: unknown system '%.*s' (known: numa-gpu, repl-ro, carve-none, carve-swc, carve-hwc, ideal)",
					      (int)len, p);
		if (nsel < CMP_NSYS)
			sel[nsel++] = s;
		p += len;
		if (*p)
			p++;
	}
	if (!nsel)
		return ng_usage_error("bench", "--systems: no system given");
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
			if (cmp_apply(&c, sel[i], c.rdc_size, err, sizeof(err))) {
				free(rows);
				return ng_usage_error("bench", "%s", err);
			}
			snprintf(w->sweep, sizeof(w->sweep), "%s", values[v]);
			w->sys = sel[i];
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
			if (!strcmp(sel[i]->name, "numa-gpu"))
				numa = w->r.modeled_s;
			if (!w->r.verified) {
				failed++;
				fprintf(stderr, "ngemu bench %s: %s%s%s: verification failed: %s\n",
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
	if (fmt == 1) {
		cmp_print_json(base, rows, nrows, key[0] ? key : NULL);
	} else if (fmt == 2) {
		cmp_print_csv(rows, nrows, key[0] ? key : NULL);
	} else {
		char b1[32], b2[32];

		printf("ngemu bench --compare %s: %u GPUs, L2 %s/GPU, RDC %s/GPU, link %g GB/s%s\n",
		       wl->name, base->gpus,
		       ng_format_bytes(base->l2_size, b1, sizeof(b1)),
		       ng_format_bytes(base->rdc_size, b2, sizeof(b2)),
		       base->link_bw, base->deterministic ? ", deterministic" : "");
		printf("t/ideal: modeled time over the ideal's; speedup: over numa-gpu; remote%%: requests homed on\n"
		       "another GPU; link%%: requests served over a link (not by L2, RDC or a replica);\n"
		       "mem-ovh: carve-out share of device memory (CARVE) or replica growth of the footprint (repl-ro)\n\n");
		cmp_print_human(rows, nrows, key[0] ? key : NULL);
	}
	if (failed)
		ret = NG_EXIT_FAIL;
	free(rows);
	return ret;
}

int ng_cmd_bench(int argc, char **argv)
{
	char *rest[256], *args[256 + CMP_NSCALED];
	const char *systems = NULL, *sweep = NULL;
	bool compare = false;
	int fmt = 0, nargs = 0;
	struct ng_config cfg;
	struct ng_bench_opts o = { .native = true };
	struct ng_bench_result *r;
	struct progress prog = { 0 };
	const struct ng_workload *wl = NULL;
	struct ng_system *sys;
	bool json = false, list = false, prefetch = false;
	char err[512];
	int nrest = 0, ret;

	if (argc > 256)
		return ng_usage_error("bench", "too many arguments");
	for (int i = 1; i < argc; i++)
		if (!strcmp(argv[i], "-h") || !strcmp(argv[i], "--help")) {
			bench_usage(stdout);
			return NG_EXIT_OK;
		}
	/* compare mode starts from the scaled CARVE regime; options override */
	args[nargs++] = argv[0];
	for (int i = 1; i < argc; i++)
		if (!strcmp(argv[i], "--compare"))
			compare = true;
	if (compare)
		for (size_t i = 0; i < CMP_NSCALED; i++)
			args[nargs++] = (char *)cmp_scaled[i];
	for (int i = 1; i < argc; i++)
		args[nargs++] = argv[i];
	if (ng_config_from_args(&cfg, nargs, args, rest, &nrest, err, sizeof(err)))
		return ng_usage_error("bench", "%s", err);
	for (int i = 0; i < nrest; i++) {
		const char *a = rest[i], *val = NULL;

		if (!strncmp(a, "--size", 6) || !strncmp(a, "--iters", 7) ||
		    !strncmp(a, "--systems", 9) || !strncmp(a, "--sweep", 7)) {
			const char *eq = strchr(a, '=');

			if (eq)
				val = eq + 1;
			else if (i + 1 < nrest)
				val = rest[++i];
			else
				return ng_usage_error("bench", "option '%s' needs a value", a);
		}
		if (!strcmp(a, "-j") || !strcmp(a, "--json")) {
			json = true;
			fmt = 1;
		} else if (!strcmp(a, "--csv")) {
			fmt = 2;
		} else if (!strcmp(a, "--compare")) {
			compare = true;
		} else if (!strncmp(a, "--systems", 9) && (a[9] == '\0' || a[9] == '=')) {
			systems = val;
		} else if (!strncmp(a, "--sweep", 7) && (a[7] == '\0' || a[7] == '=')) {
			sweep = val;
		} else if (!strcmp(a, "--list")) {
			list = true;
		} else if (!strcmp(a, "--prefetch")) {
			prefetch = true;
		} else if (!strcmp(a, "--no-native")) {
			o.native = false;
		} else if (!strncmp(a, "--size", 6) && (a[6] == '\0' || a[6] == '=')) {
			if (ng_parse_size(val, &o.size) || !o.size)
				return ng_usage_error("bench",
						      "--size: '%s' is not a size (e.g. 4096, 64K, 32M, 1G)",
						      val);
		} else if (!strncmp(a, "--iters", 7) && (a[7] == '\0' || a[7] == '=')) {
			char *end;
			unsigned long n = strtoul(val, &end, 10);

			if (!*val || *end || !n || n > 1000000)
				return ng_usage_error("bench",
						      "--iters: '%s' is not a count (1-1000000)",
						      val);
			o.iters = (unsigned int)n;
		} else if (a[0] == '-') {
			return ng_usage_error("bench", "unknown option '%s'", a);
		} else if (!wl) {
			wl = ng_workload_find(a);
			if (!wl)
				return ng_usage_error("bench",
						      "unknown workload '%s' (see --list)",
						      a);
		} else {
			return ng_usage_error("bench", "unexpected argument '%s'", a);
		}
	}
	if (list) {
		for (int i = 0; ng_workloads[i]; i++)
			printf("%-14s %s\n", ng_workloads[i]->name,
			       ng_workloads[i]->desc);
		return NG_EXIT_OK;
	}
	if (!wl)
		return ng_usage_error("bench", "which workload? (see --list)");
	if ((systems || sweep || fmt == 2) && !compare)
		return ng_usage_error("bench", "--systems, --sweep and --csv go with --compare");
	if (prefetch && compare)
		return ng_usage_error("bench", "--prefetch does not go with --compare");
	if (compare) {
		o.native = false;	/* only stream-triad has one */
		return bench_compare(&cfg, wl, &o, systems ? systems : CMP_DEFAULT,
				     sweep, fmt);
	}
	ret = ng_system_create(&sys, &cfg, err, sizeof(err));
	if (ret) {
		if (ret == -EINVAL || ret == -ENOTSUP)
			return ng_usage_error("bench", "%s", err);
		fprintf(stderr, "ngemu bench: %s\n", err);
		return NG_EXIT_FAIL;
	}
	if (prefetch) {
		struct ng_space *sp = ng_system_space(sys);

		if (sp->backend != NG_MEM_KMOD) {
			ng_system_destroy(sys);
			return ng_usage_error("bench",
					      "--prefetch needs the kmod memory backend (--backend kmod)");
		}
		sp->prefetch = true;
	}
	r = calloc(1, sizeof(*r));
	if (!r) {
		ng_system_destroy(sys);
		fprintf(stderr, "ngemu bench: out of memory\n");
		return NG_EXIT_FAIL;
	}
	prog.tty = isatty(2);
	prog.t0 = now_s();
	prog.name = wl->name;
	o.progress = progress_cb;
	o.ctx = &prog;
	ret = ng_bench_run(sys, wl, &o, r, err, sizeof(err));
	if (prog.shown)
		fprintf(stderr, "\n");
	if (ret) {
		ng_system_destroy(sys);
		free(r);
		if (ret == -EINVAL || ret == -ENOMEM)
			return ng_usage_error("bench", "%s", err);
		fprintf(stderr, "ngemu bench: %s\n", err);
		return NG_EXIT_FAIL;
	}
	if (json)
		print_json(&cfg, r);
	else
		print_human(&cfg, ng_system_nnodes(sys), r);
	ret = r->verified ? NG_EXIT_OK : NG_EXIT_FAIL;
	if (!r->verified)
		fprintf(stderr, "ngemu bench %s: verification failed: %s\n",
			r->workload, r->verify);
	ng_system_destroy(sys);
	free(r);
	return ret;
}
