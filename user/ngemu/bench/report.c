// SPDX-License-Identifier: GPL-2.0
/* ngemu bench: a run's result, for people and for scripts. */
#include <errno.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include <linux/numagpu.h>

#include "bench.h"
#include "../commands.h"
#include "ngemu/config.h"
#include "ngemu/model/component.h"
#include "ngemu/model/dir.h"
#include "ngemu/model/hwc.h"
#include "ngemu/runtime/system.h"
#include "ngemu/util/format.h"
#include "ngemu/util/json.h"
#include "ngemu/workloads/workload.h"

void bench_counters_json(struct ng_json *j, const struct ng_counters *c)
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

static double pct(uint64_t a, const uint64_t *all)
{
	uint64_t n = 0;

	for (unsigned int c = 0; c < NG_SHARE_NCLASS; c++)
		n += all[c];
	return n ? 100.0 * (double)a / (double)n : 0;
}

void bench_sharing_json(struct ng_json *j, const struct ng_sharing *s)
{
	static const char *const grain[NG_NGRAIN] = { "line", "page" };

	ng_json_object_begin(j);
	for (unsigned int g = 0; g < NG_NGRAIN; g++) {
		ng_json_key(j, grain[g]);
		ng_json_object_begin(j);
		for (unsigned int k = 0; k < 2; k++) {
			const uint64_t *v = k ? s->remote[g] : s->all[g];

			ng_json_key(j, k ? "remote" : "all");
			ng_json_object_begin(j);
			for (unsigned int c = 0; c < NG_SHARE_NCLASS; c++)
				ng_json_kv_uint(j, ng_sharing_class_name(c), v[c]);
			ng_json_object_end(j);
		}
		ng_json_object_end(j);
	}
	ng_json_object_end(j);
}

void bench_sharing_human(const struct ng_sharing *s, const char *indent)
{
	static const char *const grain[NG_NGRAIN] = { "line", "page" };

	for (unsigned int g = 0; g < NG_NGRAIN; g++)
		printf("%sby %s: remote accesses %.1f%% private, %.1f%% read-shared, %.1f%% rw-shared; all accesses %.1f%% / %.1f%% / %.1f%%\n",
		       indent, grain[g],
		       pct(s->remote[g][NG_SHARE_PRIVATE], s->remote[g]),
		       pct(s->remote[g][NG_SHARE_READ], s->remote[g]),
		       pct(s->remote[g][NG_SHARE_RW], s->remote[g]),
		       pct(s->all[g][NG_SHARE_PRIVATE], s->all[g]),
		       pct(s->all[g][NG_SHARE_READ], s->all[g]),
		       pct(s->all[g][NG_SHARE_RW], s->all[g]));
}

static double frac(uint64_t a, uint64_t b);
static char *mechanisms_text(const struct ng_config *c);

/* The configuration the run had. */
static void json_config(struct ng_json *jp, const struct ng_config *cfg)
{
	ng_json_key(jp, "config");
	ng_json_object_begin(jp);
	ng_json_kv_string(jp, "system", cfg->preset);
	ng_json_kv_uint(jp, "gpus", cfg->gpus);
	ng_json_kv_uint(jp, "sms", cfg->sms);
	ng_json_kv_uint(jp, "line", cfg->line);
	ng_json_kv_uint(jp, "page", cfg->page);
	ng_json_kv_uint(jp, "l2_size", cfg->l2.size);
	ng_json_kv_double(jp, "local_bw_gbs", cfg->local_bw);
	ng_json_kv_double(jp, "link_bw_gbs", cfg->link_bw);
	ng_json_kv_string(jp, "topology", ng_topology_names[cfg->topology]);
	ng_json_kv_bool(jp, "l2_local", cfg->l2.local);
	ng_json_kv_uint(jp, "warp_width", cfg->warp_width);
	ng_json_kv_string(jp, "placement", ng_placement_name(cfg->placement));
	ng_json_kv_string(jp, "sched", ng_sched_name(cfg->sched));
	ng_json_kv_bool(jp, "steal", cfg->steal);
	ng_json_kv_bool(jp, "deterministic", cfg->deterministic);
	ng_json_kv_bool(jp, "inject", cfg->inject);
	ng_json_kv_uint(jp, "seed", cfg->seed);
	ng_json_object_end(jp);
}

/* The L1s' loads and hit rates. */
static void json_l1(struct ng_json *jp, const struct ng_counters *t)
{
	ng_json_key(jp, "l1");
	ng_json_object_begin(jp);
	ng_json_kv_uint(jp, "loads", t->v[NG_CTR_L1_HIT] + t->v[NG_CTR_L1_MISS]);
	ng_json_kv_double(jp, "hit_rate", frac(t->v[NG_CTR_L1_HIT],
					      t->v[NG_CTR_L1_HIT] + t->v[NG_CTR_L1_MISS]));
	ng_json_kv_uint(jp, "remote_loads", t->v[NG_CTR_L1_RHIT] + t->v[NG_CTR_L1_RMISS]);
	ng_json_kv_double(jp, "remote_hit_rate", frac(t->v[NG_CTR_L1_RHIT],
						     t->v[NG_CTR_L1_RHIT] + t->v[NG_CTR_L1_RMISS]));
	ng_json_object_end(jp);
}

/* Where the module placed the pages, and its counters. */
static void json_kmod(struct ng_json *jp, const struct ng_bench_result *r)
{
	const struct ng_kmod_stats *k = &r->placement.stats;

	ng_json_key(jp, "kmod_placement");
	ng_json_object_begin(jp);
	ng_json_kv_uint(jp, "pages", r->placement.pages);
	ng_json_kv_uint(jp, "populated", r->placement.populated);
	ng_json_kv_uint(jp, "agree", r->placement.agree);
	ng_json_kv_uint(jp, "fallback", r->placement.fallback);
	ng_json_kv_bool(jp, "comparable", r->placement.comparable);
	ng_json_kv_uint(jp, "faults", k->faults);
	ng_json_key(jp, "view_faults");
	ng_json_array_begin(jp);
	for (unsigned int g = 0; g < r->ngpus; g++)
		ng_json_uint(jp, k->view_faults[g]);
	ng_json_array_end(jp);
	ng_json_kv_uint(jp, "replicas", k->replicas);
	ng_json_kv_uint(jp, "collapses", k->collapses);
	ng_json_kv_uint(jp, "migrations", k->migrations);
	ng_json_kv_uint(jp, "pins", k->pins);
	ng_json_kv_uint(jp, "read_mostly_pages", k->read_mostly_pages);
	ng_json_kv_uint(jp, "prefetched", k->prefetched);
	ng_json_object_end(jp);
}

/* CARVE's mechanisms and what they moved, the buffers' backend. */
static void json_carve(struct ng_json *jp, const struct ng_config *cfg,
		       const struct ng_bench_result *r)
{
	ng_json_key(jp, "carve");
	ng_json_object_begin(jp);
	ng_json_kv_uint(jp, "rdc_size", cfg->rdc.size);
	ng_json_kv_string(jp, "coherence", ng_coherence_name(cfg->rdc.coherence));
	ng_json_kv_string(jp, "replicate", ng_replicate_name(cfg->replicate));
	ng_json_kv_double(jp, "rdc_hit_rate", r->rdc_hit_rate);
	ng_json_kv_double(jp, "link_fraction", r->link_frac);
	ng_json_kv_uint(jp, "carve_bytes", r->carve_bytes);
	ng_json_kv_uint(jp, "fallback_bytes", r->fallback_bytes);
	ng_json_kv_uint(jp, "repl_bytes", r->repl_bytes);
	ng_json_kv_uint(jp, "footprint", r->footprint);
	ng_json_kv_double(jp, "mem_overhead", r->mem_overhead);
	ng_json_object_end(jp);
	ng_json_kv_string(jp, "backend", r->kmod ? "kmod" : "user");
	if (r->kmod)
		json_kmod(jp, r);
}

void bench_print_json(const struct ng_config *cfg,
		      const struct ng_bench_result *r,
		      const struct ng_link_usage *links)
{
	const struct ng_workload *wl = ng_workload_find(r->workload);
	const struct ng_counters *t = &r->total;
	const struct ng_paper *p;
	struct ng_json j;
	char *mech;

	ng_json_init(&j, stdout, true);
	ng_json_object_begin(&j);
	ng_json_kv_string(&j, "version", NUMAGPU_VERSION_STRING);
	ng_json_kv_string(&j, "workload", r->workload);
	ng_json_kv_string(&j, "input", wl && wl->input ? wl->input : "");
	ng_json_kv_bool(&j, "verified", r->verified);
	ng_json_kv_string(&j, "verify", r->verify);
	/* what the human report's system and mechanisms lines say */
	ng_json_kv_string(&j, "system_name", bench_system_name(cfg));
	mech = mechanisms_text(cfg);
	ng_json_kv_string(&j, "mechanisms", mech ? mech : "");
	free(mech);
	json_config(&j, cfg);
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
	ng_json_key(&j, "links");
	bench_links_json(&j, links);
	ng_json_kv_double(&j, "l2_hit_rate", r->l2_hit_rate);
	ng_json_kv_uint(&j, "l2_loads", t->v[NG_CTR_L2_HIT] + t->v[NG_CTR_L2_MISS]);
	if (ng_l1_on(&cfg->l1))
		json_l1(&j, t);
	ng_json_kv_double(&j, "compute_fraction", r->compute_frac);
	ng_json_kv_double(&j, "remote_latency_ns", r->remote_latency_ns);
	ng_json_kv_double(&j, "mem_latency_ns", r->mem_latency_ns);
	for (unsigned int i = 0; (p = ng_paper_at(i)); i++)
		if (p->report_json)
			p->report_json(&j, cfg, r);
	if (r->has_sharing) {
		ng_json_key(&j, "sharing");
		bench_sharing_json(&j, &r->sharing);
	}
	json_carve(&j, cfg, r);
	ng_json_kv_uint(&j, "threads", r->threads);
	ng_json_kv_double(&j, "requests_per_s_per_worker", r->req_per_s_per_worker);
	ng_json_kv_double(&j, "requests_per_s_per_cpu", r->req_per_s_per_cpu);
	ng_json_key(&j, "counters");
	bench_counters_json(&j, &r->total);
	ng_json_key(&j, "gpus");
	ng_json_array_begin(&j);
	for (unsigned int g = 0; g < r->ngpus; g++)
		bench_counters_json(&j, &r->gpu[g]);
	ng_json_array_end(&j);
	ng_json_object_end(&j);
	ng_json_finish(&j);
}

static double frac(uint64_t a, uint64_t b)
{
	return b ? (double)a / (double)b : 0;
}

const char *bench_system_name(const struct ng_config *c)
{
	const struct ng_paper *p;
	const char *name = NULL;

	for (unsigned int i = 0; !name && (p = ng_paper_at(i)); i++)
		if (p->system_name)
			name = p->system_name(c);
	return name ? name : "NUMA-GPU";
}

/* The mechanisms the configuration turns on, in a line (no newline). */
static void print_mechanisms(FILE *f, const struct ng_config *c)
{
	const struct ng_paper *p;

	for (unsigned int i = 0; ng_components[i]; i++)
		if (ng_components[i]->describe &&
		    ng_component_enabled(ng_components[i], c))
			ng_components[i]->describe(c, f);
	/* the L2 is what a GPU normally has: say when it has none */
	if (!ng_l2_on(&c->l2))
		fprintf(f, "no L2; ");
	for (unsigned int i = 0; (p = ng_paper_at(i)); i++)
		if (p->report_mechanisms)
			p->report_mechanisms(f, c);
	fprintf(f, "%s pages; %s CTA scheduling%s", ng_placement_name(c->placement),
	       ng_sched_name(c->sched), c->steal ? " with stealing" : "");
}

/* The mechanisms line as a string, for JSON; NULL if out of memory. */
static char *mechanisms_text(const struct ng_config *c)
{
	char *text = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&text, &len);

	if (!f)
		return NULL;
	print_mechanisms(f, c);
	if (fclose(f)) {
		free(text);
		return NULL;
	}
	return text;
}

/* The run's first lines: the system, its model, the workload, the times. */
static void human_head(const struct ng_config *cfg, unsigned int nnodes,
		       const struct ng_bench_result *r)
{
	const struct ng_workload *wl = ng_workload_find(r->workload);
	char b1[32];

	printf("system     %s (preset %s): %u GPUs x %u SMs on %u NUMA node%s, backend %s, %u worker thread%s%s\n",
	       bench_system_name(cfg), cfg->preset, cfg->gpus, cfg->sms,
	       nnodes, nnodes == 1 ? "" : "s", r->kmod ? "kmod" : "user",
	       r->threads, r->threads == 1 ? "" : "s",
	       cfg->deterministic ? " (deterministic)" : "");
	printf("mechanisms ");
	print_mechanisms(stdout, cfg);
	printf("\n");
	printf("model      line %u B, page %s, local %g GB/s %g ns, link %g GB/s %g ns (%s), %u-lane wavefronts, %g warp instructions/cycle/SM%s\n",
	       cfg->line, ng_format_bytes(cfg->page, b1, sizeof(b1)),
	       cfg->local_bw, cfg->local_latency_ns, cfg->link_bw,
	       cfg->link_latency_ns, ng_topology_names[cfg->topology],
	       cfg->warp_width, cfg->ipc, cfg->inject ? ", injected" : "");
	printf("workload   %s per array, %llu elements, %u iteration%s, placement %s, sched %s%s\n",
	       ng_format_bytes(r->size, b1, sizeof(b1)),
	       (unsigned long long)r->elements, r->iters, r->iters == 1 ? "" : "s",
	       ng_placement_name(cfg->placement), ng_sched_name(cfg->sched),
	       cfg->steal ? "+steal" : "");
	if (wl && wl->input)
		printf("input      %s\n", wl->input);
	printf("modeled    %-12s %8.1f GB/s\n",
	       ng_format_dur(r->modeled_s, b1, sizeof(b1)), r->modeled_bw);
	printf("wall       %-12s %8.2f GB/s (emulated)\n",
	       ng_format_dur(r->wall_s, b1, sizeof(b1)), r->wall_bw);
	if (r->has_native)
		printf("native     %-12s %8.2f GB/s  ratio %.2f (emulated / native, best of 10, every CPU)\n",
		       ng_format_dur(r->native_wall_s, b1, sizeof(b1)), r->native_bw,
		       r->ratio);
	if (r->metric)
		printf("calibrate  %s %.2f %s, configured %.2f %s, error %+.2f%%\n",
		       r->metric, r->measured, r->unit, r->expected, r->unit,
		       r->error_pct);
}

/* The module's placement beside the model's, and its counters. */
static void human_kmod(const struct ng_bench_result *r)
{
	const struct ng_kmod_stats *k = &r->placement.stats;

	printf("numagpu.ko %llu of %llu populated pages on the model's home node%s (%llu fallback)\n",
	       (unsigned long long)r->placement.agree,
	       (unsigned long long)r->placement.populated,
	       r->placement.comparable ? "" : " (model interleaves finer than a page: not compared)",
	       (unsigned long long)r->placement.fallback);
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

/* A line per GPU: its requests, blocks, link bytes and L2 hits. */
static void human_gpus(const struct ng_bench_result *r)
{
	char b1[32], b2[32];

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

void bench_print_human(const struct ng_config *cfg, unsigned int nnodes,
		       const struct ng_bench_result *r,
		       const struct ng_link_usage *links)
{
	const struct ng_counters *t = &r->total;
	const struct ng_paper *p;
	char b1[32], b2[32], b3[32];

	printf("ngemu bench %s: %s (%s)\n", r->workload,
	       r->verified ? "verified" : "FAILED", r->verify);
	human_head(cfg, nnodes, r);
	printf("accesses   %s line requests: local %.1f%%, remote %.1f%%, host %.1f%%",
	       ng_format_si((double)t->v[NG_CTR_REQ], b1, sizeof(b1)),
	       100 * r->local_frac, 100 * r->remote_frac, 100 * r->host_frac);
	/* what 64-lane wavefronts saved: lines both halves loaded */
	if (cfg->warp_width == 64)
		printf("; %s lines a wavefront's halves shared",
		       ng_format_si((double)t->v[NG_CTR_WAVE_SHARED], b1,
			      sizeof(b1)));
	printf("\n");
	printf("compute    %.3g G warp instructions; SMs issued arithmetic %.1f%% of their time (100%%: compute-bound)\n",
	       (double)t->v[NG_CTR_INSTS] / 1e9, 100 * r->compute_frac);
	if (r->has_sharing) {
		printf("sharing    (CARVE Fig. 4)\n");
		bench_sharing_human(&r->sharing, "             ");
	}
	/* the L2 sees every load not homed on its GPU: remote and host */
	printf("link       %s over inter-GPU links; L2 hit rate %.1f%% of %s %s loads\n",
	       ng_format_bytes(r->link_bytes, b1, sizeof(b1)), 100 * r->l2_hit_rate,
	       ng_format_si((double)(t->v[NG_CTR_L2_HIT] + t->v[NG_CTR_L2_MISS]), b2, sizeof(b2)),
	       !r->host_frac ? "remote" : !r->remote_frac ? "host" : "remote and host");
	bench_links_human(links);
	for (unsigned int i = 0; ng_components[i]; i++)
		if (ng_components[i]->report &&
		    ng_component_enabled(ng_components[i], cfg))
			ng_components[i]->report(cfg, t, stdout);
	for (unsigned int i = 0; (p = ng_paper_at(i)); i++)
		if (p->report_human)
			p->report_human(stdout, cfg, r);
	if (r->kmod)
		human_kmod(r);
	printf("throughput %s line requests/s per worker thread, %s line requests/s per busy CPU\n",
	       ng_format_si(r->req_per_s_per_worker, b3, sizeof(b3)),
	       ng_format_si(r->req_per_s_per_cpu, b2, sizeof(b2)));
	human_gpus(r);
}
