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

#include "bench.h"
#include "../commands.h"
#include "ngemu/config.h"
#include "ngemu/runtime/system.h"
#include "ngemu/util/format.h"
#include "ngemu/util/json.h"
#include "ngemu/workloads/workload.h"

static void bench_usage(FILE *out)
{
	fprintf(out,
		"Usage: ngemu bench [OPTIONS] WORKLOAD\n"
		"       ngemu bench --list\n"
		"\n"
		"Run WORKLOAD on the emulated GPUs, verify it against a CPU reference\n"
		"and report modeled time and bandwidth, wall time, local/remote\n"
		"accesses, link bytes, the busiest link or port's utilization and L2\n"
		"hit rate. stream-triad also runs natively (same arrays, every CPU,\n"
		"best of 10 runs, no model) and reports the ratio. The calibration\n"
		"workloads report the measured parameter beside the configured one.\n"
		"\n"
		"Options:\n"
		"      --list          list the workloads by suite, a graph workload's input\n"
		"                      beside it (with --json: as JSON)\n"
		"      --size N|paper  bytes per array (e.g. 64M; default per workload), or\n"
		"                      the footprint the workload's paper used (see --list);\n"
		"                      paper/N: 1/N of it (REC's compare regime is paper/8)\n"
		"      --iters N       timed kernel launches (default per workload)\n"
		"      --no-native     skip the native run\n"
		"      --corrupt-one   change one element of the result before verifying it:\n"
		"                      the run must then report FAILED (checks the check)\n"
		"      --compare       run WORKLOAD under a paper's systems side by side,\n"
		"                      each against the paper's reference, from the paper's\n"
		"                      regime (options given override it); the paper is that\n"
		"                      of the first of --systems, else of --system's preset\n"
		"      --systems LIST  with --compare: systems of one paper (default: the\n"
		"                      paper's own list); the papers' systems are below\n");
	fprintf(out,
		"      --sweep K=V,..  with --compare: repeat for each value of a config key\n"
		"                      (e.g. rdc-size=1M,2M,4M,8M, link-bw=32,64,128,\n"
		"                      xfer-gran=4,8,16, codec-timeout=10,30,50,\n"
		"                      device-mem=100%%,50%%,25%%,12.5%% or tag-bytes=256,2048)\n"
		"      --csv           with --compare: comma-separated output (not with --json)\n"
		"      --agreement N   with --compare: each system once --deterministic and\n"
		"                      N times threaded, the modeled times side by side (exit 1\n"
		"                      if a threaded mean is off by more than 1%% or runs\n"
		"                      differ by more than 1%%)\n"
		"  -j, --json          machine-readable output\n"
		"  -h, --help          show this help and exit\n"
		"\n"
		"System and model (see 'ngemu config --show' for every key):\n"
		"      --system NAME   a preset (the first paper's by default; below)\n"
		"      --config FILE   'key = value' lines; repeatable, later files over\n"
		"                      earlier ones, --KEY options over all files\n"
		"      --gpus N, --sms N, --line B, --l2-size B (0: no L2), --link-bw GB/s,\n"
		"      --placement first-touch|fgp|cgp|coda|host|node:G,\n"
		"      --sched rr|batch|coda|mgpusim, --rdc-size B (CARVE RDC per GPU; 0: off),\n"
		"      --coherence none|swc|hwc, --replicate none|ro|all, --imst-reset P,\n"
		"      --steal, --deterministic, --seed N, --inject, --backend auto|user|kmod\n"
		"      --prefetch      kmod backend: prefetch every buffer's pages to their home\n"
		"                      GPUs before the kernels (--replicate ro with kmod: the\n"
		"                      module replicates read-shared pages, read-mostly hints)\n"
		"\n"
		"Exit status: 0 verified, 1 failed, 2 usage error (bad option or value,\n"
		"a size that does not fit). With --compare, carve-none (no coherence)\n"
		"reading stale data is expected: its row says 'stale' and it does not\n"
		"fail the run.\n\n");
	ng_cmp_help(out);
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

/*
 * First touch homed every page where its blocks run: the remote path (L2,
 * RDC, links, coherence) never ran. Show it at work on the same workload
 * with pages interleaved over the GPUs.
 */
static void show_remote_path(const struct ng_config *base,
			     const struct ng_workload *wl,
			     const struct ng_bench_opts *o)
{
	struct ng_config c = *base;
	struct ng_bench_opts oo = *o;
	struct ng_bench_result *r = calloc(1, sizeof(*r));
	struct ng_system *sys;
	char err[512], b1[32], b2[32], b3[32];

	printf("\nfirst touch homed every page on the GPU whose blocks use it: 100%% local by\n"
	       "design, so the remote path never ran. The same %s with --placement fgp:\n",
	       wl->name);
	c.placement = NG_PLACE_FGP;
	oo.native = false;
	oo.progress = NULL;
	if (!r || ng_system_create(&sys, &c, err, sizeof(err))) {
		printf("remote     (could not run it: %s)\n", r ? err : "out of memory");
		free(r);
		return;
	}
	if (ng_bench_run(sys, wl, &oo, r, err, sizeof(err))) {
		printf("remote     (could not run it: %s)\n", err);
	} else {
		const struct ng_counters *t = &r->total;

		printf("remote     %s: modeled %s (%.1f GB/s), %.1f%% remote, L2 hit %.1f%%, RDC hit %.1f%%, %s over links, %s invalidates\n",
		       r->verified ? "verified" : "FAILED",
		       ng_fmt_dur(r->modeled_s, b1, sizeof(b1)), r->modeled_bw,
		       100 * r->remote_frac, 100 * r->l2_hit_rate,
		       100 * r->rdc_hit_rate,
		       ng_format_bytes(r->link_bytes, b2, sizeof(b2)),
		       ng_fmt_si((double)t->v[NG_CTR_INV_MSGS], b3, sizeof(b3)));
	}
	ng_system_destroy(sys);
	free(r);
}

/* The workloads by suite; one may stand in several. */
static void print_list(bool json)
{
	char b1[32], b2[32];
	struct ng_json j;

	if (json) {
		ng_json_init(&j, stdout, true);
		ng_json_array_begin(&j);
		for (unsigned int i = 0; ng_workload_at(i); i++) {
			const struct ng_workload *w = ng_workload_at(i);

			ng_json_object_begin(&j);
			ng_json_kv_string(&j, "name", w->name);
			ng_json_key(&j, "suites");
			ng_json_array_begin(&j);
			for (unsigned int s = 0; s < NG_NSUITES; s++)
				if (w->suites & (1u << s))
					ng_json_string(&j, ng_suite_name(s));
			ng_json_array_end(&j);
			ng_json_kv_string(&j, "desc", w->desc);
			ng_json_kv_uint(&j, "default_size", w->default_size);
			ng_json_kv_uint(&j, "paper_size", ng_workload_paper_size(w));
			ng_json_kv_string(&j, "paper_ref", w->paper_ref ? w->paper_ref : "");
			ng_json_kv_string(&j, "input", w->input ? w->input : "");
			ng_json_kv_uint(&j, "arrays", w->narrays);
			ng_json_object_end(&j);
		}
		ng_json_array_end(&j);
		ng_json_finish(&j);
		return;
	}
	printf("%-16s %10s %10s  %s\n", "", "per array", "paper", "");
	/* a program's own workloads in no suite: the last section */
	for (unsigned int s = 0; s <= NG_NSUITES; s++) {
		bool any = false;

		if (s < NG_NSUITES)
			printf("%s: %s\n", ng_suite_name(s), ng_suite_desc(s));
		for (unsigned int i = 0; ng_workload_at(i); i++) {
			const struct ng_workload *w = ng_workload_at(i);
			uint64_t ps = ng_workload_paper_size(w);

			if (s == NG_NSUITES ? w->suites & ((1u << NG_NSUITES) - 1) :
			    !(w->suites & (1u << s)))
				continue;
			if (!any && s == NG_NSUITES)
				printf("other: in no suite (this program's own)\n");
			any = true;
			printf("  %-14s %10s %10s  %s\n", w->name,
			       ng_format_bytes(w->default_size, b1, sizeof(b1)),
			       ps ? ng_format_bytes(ps, b2, sizeof(b2)) : "-",
			       w->desc);
			if (w->input)
				printf("  %-14s %21s  input %s\n", "", "", w->input);
		}
		if (!any && s < NG_NSUITES)
			printf("  (none yet)\n");
	}
}

int ng_cmd_bench(int argc, char **argv)
{
	char *rest[256], *args[256 + NG_PAPER_MAX_REGIME];
	const char *systems = NULL, *sweep = NULL;
	const struct ng_paper *cmp_paper;
	bool compare = false;
	int fmt = 0, nargs = 0;
	struct ng_config cfg;
	struct ng_bench_opts o = { .native = true };
	struct ng_bench_result *r;
	struct ng_link_usage *links;
	struct progress prog = { 0 };
	const struct ng_workload *wl = NULL;
	struct ng_system *sys;
	bool json = false, csv = false, list = false, prefetch = false, paper = false;
	unsigned int paper_div = 1;
	unsigned int agreement = 0;
	char err[512];
	int nrest = 0, ret;

	if (argc > 256)
		return ng_usage_error("bench", "too many arguments");
	for (int i = 1; i < argc; i++)
		if (!strcmp(argv[i], "-h") || !strcmp(argv[i], "--help")) {
			bench_usage(stdout);
			return NG_EXIT_OK;
		}
	/*
	 * compare mode starts from its paper's regime; options override
	 */
	args[nargs++] = argv[0];
	for (int i = 1; i < argc; i++)
		if (!strcmp(argv[i], "--compare"))
			compare = true;
	cmp_paper = ng_cmp_paper(argc, argv);
	for (unsigned int i = 0; compare && i < cmp_paper->nregime; i++)
		args[nargs++] = (char *)cmp_paper->regime[i];
	for (int i = 1; i < argc; i++)
		args[nargs++] = argv[i];
	if (ng_config_from_args(&cfg, nargs, args, rest,
				(int)(sizeof(rest) / sizeof(rest[0])), &nrest,
				err, sizeof(err)))
		return ng_usage_error("bench", "%s", err);
	for (int i = 0; i < nrest; i++) {
		const char *a = rest[i], *val = NULL;

		if (!strncmp(a, "--size", 6) || !strncmp(a, "--iters", 7) ||
		    !strncmp(a, "--systems", 9) || !strncmp(a, "--sweep", 7) ||
		    !strncmp(a, "--agreement", 11)) {
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
			csv = true;
			fmt = 2;
		} else if (!strcmp(a, "--compare")) {
			compare = true;
		} else if (!strncmp(a, "--systems", 9) && (a[9] == '\0' || a[9] == '=')) {
			systems = val;
		} else if (!strncmp(a, "--sweep", 7) && (a[7] == '\0' || a[7] == '=')) {
			sweep = val;
		} else if (!strncmp(a, "--agreement", 11) && (a[11] == '\0' || a[11] == '=')) {
			char *end;
			unsigned long n = strtoul(val, &end, 10);

			if (!*val || *end || !n || n > 100)
				return ng_usage_error("bench",
						      "--agreement: '%s' is not a count of runs (1-100)",
						      val);
			agreement = (unsigned int)n;
		} else if (!strcmp(a, "--list")) {
			list = true;
		} else if (!strcmp(a, "--prefetch")) {
			prefetch = true;
		} else if (!strcmp(a, "--no-native")) {
			o.native = false;
		} else if (!strcmp(a, "--corrupt-one")) {
			o.corrupt = true;
		} else if (!strncmp(a, "--size", 6) && (a[6] == '\0' || a[6] == '=')) {
			paper = !strncmp(val, "paper", 5);
			if (paper && val[5]) {
				char *end;
				unsigned long n = val[5] == '/' ?
						  strtoul(val + 6, &end, 10) : 0;

				if (!n || *end || n > 1u << 20)
					return ng_usage_error("bench",
							      "--size: '%s' is not paper or paper/N (N a whole number, e.g. paper/8)",
							      val);
				paper_div = (unsigned int)n;
			}
			if (!paper && (ng_parse_size(val, &o.size) || !o.size))
				return ng_usage_error("bench",
						      "--size: '%s' is not a size (e.g. 4096, 64K, 32M, 1G), paper or paper/N",
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
	if (csv && json)
		return ng_usage_error("bench", "--csv and --json: one output format at a time");
	if (list) {
		print_list(json);
		return NG_EXIT_OK;
	}
	if (!wl)
		return ng_usage_error("bench", "which workload? (see --list)");
	if (paper) {
		/* whole 4-byte elements */
		o.size = ng_workload_paper_size(wl) / paper_div / 4 * 4;
		if (!o.size)
			return ng_usage_error("bench", "--size paper: no paper gives a size for %s",
					      wl->name);
	}
	if ((systems || sweep || fmt == 2 || agreement) && !compare)
		return ng_usage_error("bench", "--systems, --sweep, --csv and --agreement go with --compare");
	if (agreement && (sweep || fmt == 2))
		return ng_usage_error("bench", "--agreement does not go with --sweep or --csv");
	if (prefetch && compare)
		return ng_usage_error("bench", "--prefetch does not go with --compare");
	if (compare && agreement) {
		o.native = false;
		return ng_bench_agreement(&cfg, wl, &o,
					  systems ? systems : cmp_paper->defaults,
					  agreement, json);
	}
	if (compare) {
		o.native = false;	/* only stream-triad has one */
		return ng_bench_compare(&cfg, wl, &o,
					systems ? systems : cmp_paper->defaults,
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
	links = calloc(1, sizeof(*links));
	if (!r || !links) {
		ng_system_destroy(sys);
		free(r);
		free(links);
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
		free(links);
		if (ret == -EINVAL || ret == -ENOMEM)
			return ng_usage_error("bench", "%s", err);
		fprintf(stderr, "ngemu bench: %s\n", err);
		return NG_EXIT_FAIL;
	}
	/* after the workload's last kernel, as its counters were read */
	ng_link_usage(ng_system_model(sys), links);
	if (json) {
		ng_bench_print_json(&cfg, r, links);
	} else {
		ng_bench_print_human(&cfg, ng_system_nnodes(sys), r, links);
		if (r->verified && cfg.placement == NG_PLACE_FIRST_TOUCH &&
		    r->total.v[NG_CTR_REQ] && !r->total.v[NG_CTR_REMOTE] &&
		    !r->total.v[NG_CTR_HOST] && cfg.gpus > 1)
			show_remote_path(&cfg, wl, &o);
	}
	ret = r->verified ? NG_EXIT_OK : NG_EXIT_FAIL;
	if (!r->verified)
		fprintf(stderr, "ngemu bench %s: verification failed: %s\n",
			r->workload, r->verify);
	ng_system_destroy(sys);
	free(r);
	free(links);
	return ret;
}
