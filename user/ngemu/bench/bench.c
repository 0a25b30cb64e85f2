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
#include "../options.h"
#include "../size_spec.h"
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
	cmp_help(out);
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
		       ng_format_dur(r->modeled_s, b1, sizeof(b1)), r->modeled_bw,
		       100 * r->remote_frac, 100 * r->l2_hit_rate,
		       100 * r->rdc_hit_rate,
		       ng_format_bytes(r->link_bytes, b2, sizeof(b2)),
		       ng_format_si((double)t->v[NG_CTR_INV_MSGS], b3, sizeof(b3)));
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
			for (unsigned int s = 0; s < ng_suites(); s++)
				if (ng_workload_suites(w) & (1u << s))
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
	for (unsigned int s = 0, n = ng_suites(); s <= n; s++) {
		bool any = false;

		if (s < n)
			printf("%s: %s\n", ng_suite_name(s), ng_suite_desc(s));
		for (unsigned int i = 0; ng_workload_at(i); i++) {
			const struct ng_workload *w = ng_workload_at(i);
			uint64_t ps = ng_workload_paper_size(w);

			if (s == n ? ng_workload_suites(w) != 0 :
			    !(ng_workload_suites(w) & (1u << s)))
				continue;
			if (!any && s == n)
				printf("other: in no suite (this program's own)\n");
			any = true;
			printf("  %-14s %10s %10s  %s\n", w->name,
			       ng_format_bytes(w->default_size, b1, sizeof(b1)),
			       ps ? ng_format_bytes(ps, b2, sizeof(b2)) : "-",
			       w->desc);
			if (w->input)
				printf("  %-14s %21s  input %s\n", "", "", w->input);
		}
		if (!any && s < n)
			printf("  (none yet)\n");
	}
}

/* What the command line asks of bench. */
struct bench_args {
	struct ng_config cfg;
	struct ng_bench_opts o;
	const struct ng_paper *cmp_paper;
	const struct ng_workload *wl;
	const char *systems, *sweep;
	int fmt;		/* 0 people, 1 JSON, 2 CSV */
	bool compare, json, csv, list, prefetch;
	struct size_spec size;
	unsigned int agreement;
};

/*
 * The configuration from the options, compare mode's starting from its
 * paper's regime (options override it); the options it leaves in
 * @rest, @nrest. 0, or the usage error's status.
 */
static int bench_config(struct bench_args *a, int argc, char **argv,
			char **rest, int nrest_max, int *nrest)
{
	char *args[256 + NG_PAPER_MAX_REGIME];
	char err[512];
	int nargs = 0;

	args[nargs++] = argv[0];
	for (int i = 1; i < argc; i++)
		if (!strcmp(argv[i], "--compare"))
			a->compare = true;
	a->cmp_paper = cmp_paper(argc, argv);
	for (unsigned int i = 0; a->compare && i < a->cmp_paper->nregime; i++)
		args[nargs++] = (char *)a->cmp_paper->regime[i];
	for (int i = 1; i < argc; i++)
		args[nargs++] = argv[i];
	if (ng_config_from_args(&a->cfg, nargs, args, rest, nrest_max, nrest,
				err, sizeof(err)))
		return usage_error("bench", "%s", err);
	return 0;
}

/* --size N, paper or paper/N. 0, or the usage error's status. */
static int bench_size(struct bench_args *a, const char *val)
{
	if (!size_spec_parse(val, &a->size)) {
		a->o.size = a->size.bytes;
		return 0;
	}
	if (!strncmp(val, "paper", 5))
		return usage_error("bench",
				   "--size: '%s' is not paper or paper/N (N a whole number, e.g. paper/8)",
				   val);
	return usage_error("bench",
			   "--size: '%s' is not a size (e.g. 4096, 64K, 32M, 1G), paper or paper/N",
			   val);
}

/* A count in [1, @max] for option @name. 0, or the usage error's status. */
static int bench_count(const char *name, const char *what, const char *val,
		       unsigned long max, unsigned int *out)
{
	char *end;
	unsigned long n = strtoul(val, &end, 10);

	if (!*val || *end || !n || n > max)
		return usage_error("bench", "%s: '%s' is not %s (1-%lu)",
				   name, val, what, max);
	*out = (unsigned int)n;
	return 0;
}

enum bench_opt {
	BO_JSON, BO_CSV, BO_COMPARE, BO_SYSTEMS, BO_SWEEP, BO_AGREEMENT,
	BO_LIST, BO_PREFETCH, BO_NO_NATIVE, BO_CORRUPT, BO_SIZE, BO_ITERS,
};

static const struct opt bench_opts[] = {
	{ .name = "json", .letter = 'j', .id = BO_JSON },
	{ .name = "csv", .id = BO_CSV },
	{ .name = "compare", .id = BO_COMPARE },
	{ .name = "systems", .value = true, .id = BO_SYSTEMS },
	{ .name = "sweep", .value = true, .id = BO_SWEEP },
	{ .name = "agreement", .value = true, .id = BO_AGREEMENT },
	{ .name = "list", .id = BO_LIST },
	{ .name = "prefetch", .id = BO_PREFETCH },
	{ .name = "no-native", .id = BO_NO_NATIVE },
	{ .name = "corrupt-one", .id = BO_CORRUPT },
	{ .name = "size", .value = true, .id = BO_SIZE },
	{ .name = "iters", .value = true, .id = BO_ITERS },
	{ 0 }
};

/* The workload, bench's one operand. 0, or the usage error's status. */
static int bench_operand(struct bench_args *a, const char *arg)
{
	if (a->wl)
		return usage_error("bench", "unexpected argument '%s'", arg);
	a->wl = ng_workload_find(arg);
	if (!a->wl)
		return usage_error("bench", "unknown workload '%s' (see --list)",
				   arg);
	return 0;
}

/*
 * Option @id of opts_next() (its value in st->val), or the workload.
 * 0, or the usage error's status.
 */
static int bench_option(struct bench_args *a, const struct opts *st, int id)
{
	switch (id) {
	case BO_JSON:
		a->json = true;
		a->fmt = 1;
		break;
	case BO_CSV:
		a->csv = true;
		a->fmt = 2;
		break;
	case BO_COMPARE:
		a->compare = true;
		break;
	case BO_SYSTEMS:
		a->systems = st->val;
		break;
	case BO_SWEEP:
		a->sweep = st->val;
		break;
	case BO_AGREEMENT:
		return bench_count("--agreement", "a count of runs", st->val,
				   100, &a->agreement);
	case BO_LIST:
		a->list = true;
		break;
	case BO_PREFETCH:
		a->prefetch = true;
		break;
	case BO_NO_NATIVE:
		a->o.native = false;
		break;
	case BO_CORRUPT:
		a->o.corrupt = true;
		break;
	case BO_SIZE:
		return bench_size(a, st->val);
	case BO_ITERS:
		return bench_count("--iters", "a count", st->val, 1000000,
				   &a->o.iters);
	case OPTS_OTHER:
		if (st->arg[0] != '-')
			return bench_operand(a, st->arg);
		/* fall through */
	default:
		return opts_error("bench", st, id);
	}
	return 0;
}

/* The options ng_config_from_args() left. 0, or the usage error's status. */
static int bench_options(struct bench_args *a, char **rest, int nrest)
{
	struct opts st = { .table = bench_opts, .argc = nrest, .argv = rest };
	int id, ret = 0;

	while (!ret && (id = opts_next(&st)) != OPTS_END)
		ret = bench_option(a, &st, id);
	return ret;
}

/* The options together, once all are read. 0, or the usage error's status. */
static int bench_check(struct bench_args *a)
{
	if (!a->wl)
		return usage_error("bench", "which workload? (see --list)");
	if (a->size.paper_div) {
		a->o.size = size_spec_bytes(&a->size, a->wl);
		if (!a->o.size)
			return usage_error("bench", "--size paper: no paper gives a size for %s",
					   a->wl->name);
	}
	if ((a->systems || a->sweep || a->fmt == 2 || a->agreement) && !a->compare)
		return usage_error("bench", "--systems, --sweep, --csv and --agreement go with --compare");
	if (a->agreement && (a->sweep || a->fmt == 2))
		return usage_error("bench", "--agreement does not go with --sweep or --csv");
	if (a->prefetch && a->compare)
		return usage_error("bench", "--prefetch does not go with --compare");
	return 0;
}

/* A run's report, and the remote path's line after a first-touch one. */
static void bench_report(const struct bench_args *a, struct ng_system *sys,
			 const struct ng_bench_result *r,
			 const struct ng_link_usage *links)
{
	if (a->json) {
		bench_print_json(&a->cfg, r, links);
		return;
	}
	bench_print_human(&a->cfg, ng_system_nnodes(sys), r, links);
	if (r->verified && a->cfg.placement == NG_PLACE_FIRST_TOUCH &&
	    r->total.v[NG_CTR_REQ] && !r->total.v[NG_CTR_REMOTE] &&
	    !r->total.v[NG_CTR_HOST] && a->cfg.gpus > 1)
		show_remote_path(&a->cfg, a->wl, &a->o);
}

/* One run of the workload, reported: the command's exit status. */
static int bench_one(struct bench_args *a)
{
	struct ng_bench_result *r = NULL;
	struct ng_link_usage *links = NULL;
	struct progress prog = { 0 };
	struct ng_system *sys;
	char err[512];
	int ret;

	ret = ng_system_create(&sys, &a->cfg, err, sizeof(err));
	if (ret) {
		if (ret == -EINVAL || ret == -ENOTSUP)
			return usage_error("bench", "%s", err);
		fprintf(stderr, "ngemu bench: %s\n", err);
		return NG_EXIT_FAIL;
	}
	if (a->prefetch) {
		struct ng_space *sp = ng_system_space(sys);

		if (sp->backend != NG_MEM_KMOD) {
			ret = usage_error("bench",
					  "--prefetch needs the kmod memory backend (--backend kmod)");
			goto out;
		}
		sp->prefetch = true;
	}
	r = calloc(1, sizeof(*r));
	links = calloc(1, sizeof(*links));
	if (!r || !links) {
		fprintf(stderr, "ngemu bench: out of memory\n");
		ret = NG_EXIT_FAIL;
		goto out;
	}
	prog.tty = isatty(2);
	prog.t0 = now_s();
	prog.name = a->wl->name;
	a->o.progress = progress_cb;
	a->o.ctx = &prog;
	ret = ng_bench_run(sys, a->wl, &a->o, r, err, sizeof(err));
	if (prog.shown)
		fprintf(stderr, "\n");
	if (ret) {
		if (ret == -EINVAL || ret == -ENOMEM) {
			ret = usage_error("bench", "%s", err);
		} else {
			fprintf(stderr, "ngemu bench: %s\n", err);
			ret = NG_EXIT_FAIL;
		}
		goto out;
	}
	/* after the workload's last kernel, as its counters were read */
	ng_link_usage(ng_system_model(sys), links);
	bench_report(a, sys, r, links);
	ret = r->verified ? NG_EXIT_OK : NG_EXIT_FAIL;
	if (!r->verified)
		fprintf(stderr, "ngemu bench %s: verification failed: %s\n",
			r->workload, r->verify);
out:
	ng_system_destroy(sys);
	free(r);
	free(links);
	return ret;
}

int cmd_bench(int argc, char **argv)
{
	struct bench_args a = { .o = { .native = true } };
	char *rest[256];
	int nrest = 0, ret;

	if (argc > 256)
		return usage_error("bench", "too many arguments");
	if (opts_help(argc, argv)) {
		bench_usage(stdout);
		return NG_EXIT_OK;
	}
	ret = bench_config(&a, argc, argv, rest,
			   (int)(sizeof(rest) / sizeof(rest[0])), &nrest);
	if (!ret)
		ret = bench_options(&a, rest, nrest);
	if (ret)
		return ret;
	if (a.csv && a.json)
		return usage_error("bench", "--csv and --json: one output format at a time");
	if (a.list) {
		print_list(a.json);
		return NG_EXIT_OK;
	}
	ret = bench_check(&a);
	if (ret)
		return ret;
	if (a.compare && a.agreement) {
		a.o.native = false;
		return bench_agreement(&a.cfg, a.wl, &a.o,
				       a.systems ? a.systems : a.cmp_paper->defaults,
				       a.agreement, a.json);
	}
	if (a.compare) {
		a.o.native = false;	/* only stream-triad has one */
		return bench_compare(&a.cfg, a.wl, &a.o,
				     a.systems ? a.systems : a.cmp_paper->defaults,
				     a.sweep, a.fmt);
	}
	return bench_one(&a);
}
