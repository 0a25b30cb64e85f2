// SPDX-License-Identifier: GPL-2.0
/*
 * ngemu reproduce PAPER: a paper's experiment set (its preset, workloads
 * and systems, from user/papers/PAPER/) run as an ngemu sweep, then
 * each of the paper's headline claims (the same file: the figure or table
 * it comes from, the paper's value) beside ngemu's value and their ratio,
 * with whether ngemu shows the same direction, in OUT/claims.csv,
 * claims.json and report.md (the sweep's plot embedded). The paper's
 * numbers live in the data file; nothing of them is in this code.
 *
 * A claim is a ratio of a system to the reference system (or the one the
 * claim names), averaged over the workloads (or those the claim names) as
 * the claim says (reproduce.h, enum rp_mean_kind): speedup (the
 * reference's modeled time / the system's), traffic (the system's link
 * bytes / the reference's), remote and link-share (the system's share of
 * remote requests, of requests served over a link, / the reference's),
 * l2-miss and unnec-inv (REC's counts: L2 misses but cold ones, and the
 * invalidations a directory eviction sent to lines a sharer still held),
 * latency (the average latency of every memory request, issue to
 * completion), memory (the bytes the data takes: the footprint and its
 * replicas).
 * Only workloads whose runs verified enter a mean. Its direction is the
 * side of 1 the ratio is on.
 */
#include <errno.h>
#include <math.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "../commands.h"
#include "../interrupt.h"
#include "../options.h"
#include "../out_file.h"
#include "reproduce.h"
#include "../sweep/sweep.h"
#include "ngemu/paper.h"
#include "ngemu/util/json.h"
#include "ngemu/workloads/workload.h"

#define RP_MAX_ARGS	512

static void reproduce_usage(FILE *out)
{
	fprintf(out,
		"Usage: ngemu reproduce PAPER [--out DIR] [--jobs N] [--data FILE]\n"
		"                       [--size paper | --at-proportion] [bench options]\n"
		"\n"
		"Run a paper's experiments (its preset, workloads and systems, and each\n"
		"figure's sweep in DIR/sweeps/ID) as 'ngemu sweep's into DIR, then put\n"
		"each of the paper's headline claims beside ngemu's value (DIR/claims.csv,\n"
		"claims.json) and each figure's values beside the paper's (a table and a\n"
		"plot each: DIR/figures/, figures.csv, figures.json), and each\n"
		"workload's input against its paper's at the regime's cache scale\n"
		"(DIR/proportions.csv), all in report.md.\n"
		"PAPER is a paper below; the paper's numbers come from\n"
		"user/papers/PAPER/reproduce.txt (installed: share/ngemu/reproduce/\n"
		"PAPER.txt; or --data FILE), each with its source; its preset, reference\n"
		"and systems are the paper's own (a data file may name others).\n"
		"PAPER all runs them all, each into DIR/reproduce-PAPER (DIR: --out, or\n"
		"here), and ends with one table of every claim: the paper's value,\n"
		"ngemu's, their ratio, shown or not and where to look (on stdout, and in\n"
		"DIR/reproduce-summary.md, .csv, .json); its --data is a folder\n"
		"holding PAPER.txt for each.\n"
		"\n"
		"Options:\n"
		"  -o, --out DIR    the output folder (default: reproduce-PAPER; with\n"
		"                   all, the folder of the five)\n"
		"  -j, --jobs N     points run at once (default 1)\n"
		"      --at-proportion\n"
		"                   run each workload at its paper's input scaled as the\n"
		"                   regime scales the paper's cache (its proportion of\n"
		"                   input to cache), at least one wave of the regime's\n"
		"                   machine and at most half its device memory; into\n"
		"                   reproduce-PAPER-proportion unless --out says\n"
		"      --data FILE  the paper's experiments and claims\n"
		"  -h, --help       show this help and exit\n"
		"\n"
		"Exit status: 0 every point has a result and every claim is in the\n"
		"paper's direction, 1 a run failed, a point has no result or an output\n"
		"could not be written, 2 usage error, 3 every point has a result but\n"
		"ngemu differs from the paper (a claim not in its direction), 130/143\n"
		"stopped by SIGINT/SIGTERM (run it again to resume).\n\nPapers:\n");
	for (unsigned int i = 0; ng_paper_at(i); i++)
		fprintf(out, "  %-9s %s\n", ng_paper_at(i)->name,
			ng_paper_at(i)->title);
}

/*
 * What the paper's plug-in says (ngemu/paper.h): its title, preset,
 * reference and systems, which its data file need not repeat.
 */
static void rp_from_plugin(const char *name, struct rp_paper *p)
{
	const struct ng_paper *pl = ng_paper_find(name);

	if (!pl)
		return;
	snprintf(p->title, sizeof(p->title), "%s", pl->title);
	snprintf(p->preset, sizeof(p->preset), "%s", pl->preset);
	snprintf(p->ref, sizeof(p->ref), "%s", pl->ref);
	snprintf(p->systems, sizeof(p->systems), "%s",
		 pl->reproduce ? pl->reproduce : pl->defaults);
}

/*
 * The data file of @paper beside the ngemu that runs: in the source tree
 * (user/papers/PAPER/reproduce.txt) or installed.
 */
static FILE *open_data(const char *paper, char *path, size_t len)
{
	static const char *const rel[][2] = {
		{ "../user/papers/", "/reproduce.txt" },
		{ "../share/ngemu/reproduce/", ".txt" },
	};
	char exe[512];
	ssize_t n = readlink("/proc/self/exe", exe, sizeof(exe) - 1);

	if (n <= 0)
		return NULL;
	exe[n] = '\0';
	*strrchr(exe, '/') = '\0';
	for (size_t i = 0; i < sizeof(rel) / sizeof(rel[0]); i++) {
		FILE *f;

		snprintf(path, len, "%s/%s%s%s", exe, rel[i][0], paper, rel[i][1]);
		f = fopen(path, "r");
		if (f)
			return f;
	}
	return NULL;
}

/*
 * The sizes the runs had, in words: each workload's default, or the
 * --size given (and the workloads no paper sizes, at their default).
 */
static void sizes_of(const struct rp_paper *p, char **argv, int argc,
		     bool prop, char *buf, size_t len)
{
	static const struct opt size_opt[] = {
		{ .name = "size", .value = true },
		{ 0 }
	};
	struct opts st = { .table = size_opt, .argc = argc, .argv = argv,
			   .next = 1 };
	const char *size = NULL;
	char wls[1024], *save = NULL;
	size_t n;

	while (opts_next(&st) != OPTS_END)
		if (st.val)
			size = st.val;
	if (prop) {
		snprintf(buf, len, "each workload's paper input at the regime's cache scale (--at-proportion: see Proportions)");
		return;
	}
	if (!size) {
		snprintf(buf, len, "each workload's default (--size paper for the papers')");
		return;
	}
	n = (size_t)snprintf(buf, len, "--size %s", size);
	if (strncmp(size, "paper", 5))
		return;
	snprintf(wls, sizeof(wls), "%s", p->workloads);
	for (char *w = strtok_r(wls, ",", &save); w && n < len;
	     w = strtok_r(NULL, ",", &save)) {
		if (ng_workload_paper_size(ng_workload_find(w)))
			continue;
		n += (size_t)snprintf(buf + n, len - n, "%s%s",
				      strstr(buf, "; no paper") ? ", " :
				      "; no paper gives a size for (these run at their default): ", w);
	}
}

/*
 * ngemu's value of claim @c over the workloads of @p (those whose runs
 * verified: @c's used, total and left_out say which).
 */
static double evaluate(const struct rp_paper *p, struct rp_claim *c,
		       const struct rp_row *r, unsigned int n)
{
	char wls[1024], *save = NULL;
	struct rp_mean m = { .kind = c->mean, .metric = c->metric };
	size_t len = 0;

	c->used = c->total = 0;
	c->left_out[0] = '\0';
	snprintf(wls, sizeof(wls), "%s", c->wls[0] ? c->wls : p->workloads);
	for (char *w = strtok_r(wls, ", ", &save); w; w = strtok_r(NULL, ", ", &save)) {
		c->total++;
		if (rp_mean_add(&m, rp_find_row(r, n, w, c->sys, ""),
				   rp_find_row(r, n, w, c->ref, ""))) {
			c->used++;
		} else if (len < sizeof(c->left_out)) {
			len += (size_t)snprintf(c->left_out + len,
						sizeof(c->left_out) - len,
						"%s%s", len ? "," : "", w);
		}
	}
	/* 0 and none used: no value, shown as no direction */
	return isnan(rp_mean_value(&m)) ? 0 : rp_mean_value(&m);
}

/*
 * Whether option @a takes the argument after it (--jobs 2, --size 1M,
 * --link-bw 32): that argument is its value, not the paper.
 */
static bool takes_value(const char *a)
{
	static const struct opt valued[] = {
		{ .name = "jobs", .letter = 'j', .value = true },
		{ .name = "size", .value = true },
		{ .name = "size-of", .value = true },
		{ .name = "iters", .value = true },
		{ 0 }
	};
	const struct ng_key *k;

	if (opts_find(valued, a))
		return true;
	if (strncmp(a, "--", 2) || strchr(a, '='))
		return false;
	k = ng_config_find_key(a + 2);
	return k && k->type != NG_KEY_BOOL;
}

/*
 * claims.csv, claims.json and report.md (with the figures and the
 * proportions of the runs, whose options are @opts).
 */
static int write_outputs(const char *out, const char *paper,
			 const struct rp_paper *p, unsigned int shown,
			 const struct rp_row *r, unsigned int n, const char *sizes,
			 char **opts, int nopts)
{
	static const char *const name[4] = { "claims.csv", "claims.json",
					     "report.md", "proportions.csv" };
	struct rp_claim_row rows[RP_MAX_CLAIMS];
	struct out_file o[4];
	char path[1024];
	FILE *csv, *md, *js;
	struct ng_json j;
	int bad = 0, props = 0;

	for (int i = 0; i < 4; i++) {
		snprintf(path, sizeof(path), "%s/%s", out, name[i]);
		if (out_open(&o[i], "reproduce", path)) {
			while (i--)
				out_abort(&o[i]);
			return -1;
		}
	}
	csv = o[0].f;
	js = o[1].f;
	md = o[2].f;
	for (unsigned int i = 0; i < p->n; i++)
		rows[i] = (struct rp_claim_row){ .paper = paper, .c = &p->c[i] };
	rp_claims_csv(csv, rows, p->n, false);
	ng_json_init(&j, js, true);
	ng_json_object_begin(&j);
	ng_json_kv_string(&j, "paper", paper);
	ng_json_kv_string(&j, "title", p->title);
	ng_json_kv_string(&j, "reference", p->ref);
	ng_json_key(&j, "claims");
	rp_claims_json(&j, rows, p->n, false);
	ng_json_object_end(&j);
	fprintf(md, "# ngemu reproduce %s\n\n%s, on ngemu's `%s` preset, against `%s`.\n"
		"Workloads: %s. Sizes: %s.\n\n"
		"%u of %u claims shown in the paper's direction.\n\n",
		paper, p->title, p->preset, p->ref, p->workloads, sizes, shown, p->n);
	rp_claims_md(md, rows, p->n, false);
	ng_json_finish(&j);
	fprintf(md, "\nspeedup: the reference's modeled time / the system's;\n"
		"traffic: link bytes, remote: remote requests' share, link-share: share of\n"
		"requests served over a link, l2-miss: L2 misses but cold ones, unnec-inv:\n"
		"invalidations a directory eviction sent to lines a sharer held, latency: the\n"
		"average latency of every memory request, memory: the bytes the data takes\n"
		"(footprint and replicas), each the system's / the\n"
		"reference's. Each claim\n"
		"names its mean over the workloads: gmean, amean or hmean of the ratios, or sums\n"
		"(the ratio of their sums); only workloads whose runs verified and whose ratio\n"
		"is defined enter it (the others are named as left out).\n"
		"A claim is shown when ngemu's ratio is on the same side of 1 as the paper's.\n\n"
		"![speed-up over %s per workload](plot.svg)\n\n"
		"Raw results: results.csv, results.json, points/ (one file per run);\n"
		"the figures' sweeps: sweeps/ID/.\n",
		p->ref);
	bad = rp_write_figures(out, p, r, n, md);
	if (!bad)
		props = rp_write_proportions(md, o[3].f, paper, p->preset,
					     p->workloads, opts, nopts);
	/* all four, or none where one failed: they are one report */
	for (int i = 0; i < 4; i++) {
		if (bad || (i == 3 && !props))
			out_abort(&o[i]);
		else
			bad = out_commit(&o[i]);
	}
	/* no proportions for this run: none of an earlier one either */
	if (!bad && !props)
		unlink(o[3].path);
	return bad ? -1 : 0;
}

#define RP_MAX_WLS	64

/*
 * reproduce --at-proportion: "--size-of W=BYTES" for each of @p's
 * workloads after the options @sv[1..*@sc) (in @bufs). 0, or the usage
 * error's status.
 */
static int proportion_args(const char *paper, const struct rp_paper *p,
			   char **sv, int *sc, char bufs[][64])
{
	char wls[1024], err[256] = "", *save = NULL;
	struct rp_prop_size ps;
	unsigned int n = 0;

	for (int i = 1; i < *sc; i++)
		if (!strcmp(sv[i], "--size") || !strncmp(sv[i], "--size=", 7))
			return usage_error("reproduce", "--at-proportion sizes each workload itself: drop %s",
					   sv[i]);
	snprintf(wls, sizeof(wls), "%s", p->workloads);
	for (char *w = strtok_r(wls, ",", &save); w;
	     w = strtok_r(NULL, ",", &save)) {
		const struct ng_workload *wl = ng_workload_find(w);

		/* an unknown workload: the sweep says so */
		if (!wl)
			continue;
		if (n >= RP_MAX_WLS || *sc + 2 >= RP_MAX_ARGS - 16)
			return usage_error("reproduce", "--at-proportion: too many workloads");
		if (rp_proportion_size(paper, p->preset, wl, sv + 1, *sc - 1,
				       &ps, err, sizeof(err)))
			return usage_error("reproduce", "--at-proportion: %s", err);
		snprintf(bufs[n], 64, "%s=%llu", w,
			 (unsigned long long)ps.bytes);
		sv[(*sc)++] = "--size-of";
		sv[(*sc)++] = bufs[n++];
	}
	return 0;
}

/*
 * Run @paper's experiment (parsed from @data, or its own file) with the
 * options @sv[1..@sc) into @out, and write its report; @p keeps its
 * claims with ngemu's values; @prop: at the paper's proportions. An exit
 * status.
 */
static int run_paper(const char *paper, const char *data, const char *out,
		     bool prop, char **sv, int sc, int argc, char **argv,
		     struct rp_paper *p, struct rp_row *r)
{
	char path[1024], outbuf[256], sizes[512], bufs[RP_MAX_WLS][64];
	unsigned int n, shown = 0;
	size_t missing = 0;
	int nbase, sret, ret, nopts;
	FILE *f;

	f = data ? fopen(data, "r") : open_data(paper, path, sizeof(path));
	if (!f)
		return usage_error("reproduce", "no data for '%s' (%s)", paper,
				   data ? strerror(errno) :
				   "no such paper: see 'ngemu reproduce --help'");
	memset(p, 0, sizeof(*p));
	rp_from_plugin(paper, p);
	ret = rp_parse(f, data ? data : path, p);
	fclose(f);
	if (ret)
		return ret;
	ret = prop ? proportion_args(paper, p, sv, &sc, bufs) : 0;
	if (ret)
		return ret;
	nopts = sc - 1;
	if (!out) {
		snprintf(outbuf, sizeof(outbuf), "reproduce-%s%s", paper,
			 prop ? "-proportion" : "");
		out = outbuf;
	}
	sv[sc++] = "--system";
	sv[sc++] = p->preset;
	nbase = sc - 1;
	sv[sc++] = "--workloads";
	sv[sc++] = p->workloads;
	sv[sc++] = "--systems";
	sv[sc++] = p->systems;
	sv[sc++] = "--out";
	sv[sc++] = (char *)out;
	sv[sc] = NULL;
	ret = sweep_main(sc, sv, &missing);
	if (ret == NG_EXIT_USAGE)
		return ret;
	sret = interrupted() ? ret : rp_run_sweeps(out, p, sv + 1, nbase, &missing);
	if (sret == NG_EXIT_USAGE)
		return sret;
	if (sret > ret)
		ret = sret;
	if (interrupted()) {
		fprintf(stderr, "ngemu reproduce %s: stopped by %s before its report; the points with a result are kept in %s: run the same command again to run the rest\n",
			paper, interrupted() == SIGINT ? "SIGINT" : "SIGTERM", out);
		return interrupt_status(interrupted());
	}
	n = rp_read_rows(out, r, RP_MAX_ROWS);
	for (unsigned int i = 0; i < p->n; i++) {
		struct rp_claim *c = &p->c[i];

		c->ngemu = evaluate(p, c, r, n);
		/* REC removes every unnecessary invalidation: 0 is a value */
		c->shown = c->used && (c->ngemu - 1) * (c->paper - 1) > 0;
		shown += c->shown;
	}
	sizes_of(p, argv, argc, prop, sizes, sizeof(sizes));
	if (write_outputs(out, paper, p, shown, r, n, sizes, sv + 1, nopts))
		return NG_EXIT_FAIL;
	printf("ngemu reproduce %s: %u of %u claims in the paper's direction, %zu points without a result: %s/report.md\n",
	       paper, shown, p->n, missing, out);
	if (missing && ret == NG_EXIT_OK)
		ret = NG_EXIT_FAIL;
	/* every run verified, and ngemu differs: not a failure of a run */
	if (ret == NG_EXIT_OK && shown < p->n)
		ret = NG_EXIT_DIFFERS;
	return ret;
}

/*
 * Every paper in turn, each into OUT/PAPER (or reproduce-PAPER), then one
 * table of all their claims. The worst exit status: a failed run's over
 * a claim not shown.
 */
static int run_all(const char *out, const char *data, bool prop, char **sv,
		   int sc, int argc, char **argv, struct rp_paper *p,
		   struct rp_row *r)
{
	struct rp_paper *all = calloc(NG_RP_PAPERS, sizeof(*all));
	char dir[NG_RP_PAPERS][512], file[1024];
	int ret = NG_EXIT_OK, bad = 0;
	unsigned int done = 0, n = 0;

	if (!all)
		return NG_EXIT_FAIL;
	if (out && mkdir(out, 0755) && errno != EEXIST) {
		fprintf(stderr, "ngemu reproduce: %s: %s\n", out, strerror(errno));
		free(all);
		return NG_EXIT_FAIL;
	}
	while (n < NG_RP_PAPERS && ng_paper_at(n))
		n++;
	for (; done < n; done++) {
		const char *name = ng_paper_at(done)->name;
		int st;

		snprintf(dir[done], sizeof(dir[done]), "%s%sreproduce-%s%s",
			 out ? out : "", out ? "/" : "", name,
			 prop ? "-proportion" : "");
		snprintf(file, sizeof(file), "%s/%s.txt", data ? data : "",
			 name);
		st = run_paper(name, data ? file : NULL, dir[done], prop,
			       sv, sc, argc, argv, p, r);
		all[done] = *p;
		if (st == NG_EXIT_USAGE || interrupted()) {
			free(all);
			return st;
		}
		if (st == NG_EXIT_FAIL)
			ret = NG_EXIT_FAIL;
		else if (st == NG_EXIT_DIFFERS && ret == NG_EXIT_OK)
			ret = NG_EXIT_DIFFERS;
	}
	bad = rp_write_summary(out ? out : ".", all, dir, n);
	free(all);
	return bad ? NG_EXIT_FAIL : ret;
}

enum { RO_HELP, RO_OUT, RO_DATA, RO_PROP };

static const struct opt reproduce_opts[] = {
	{ .name = "help", .letter = 'h', .id = RO_HELP },
	{ .name = "out", .letter = 'o', .value = true,
	  .id = RO_OUT },
	{ .name = "data", .value = true, .id = RO_DATA },
	{ .name = "at-proportion", .id = RO_PROP },
	{ 0 }
};

/* A sweep's option for Slurm or its tasks, or one that begins as one. */
static bool cluster_option(const char *a)
{
	return !strncmp(a, "--slurm", 7) || !strncmp(a, "--wait", 6) ||
	       !strncmp(a, "--collect", 9) || !strncmp(a, "--task", 6) ||
	       !strncmp(a, "--account", 9) || !strncmp(a, "--partition", 11) ||
	       !strncmp(a, "--time", 6) || !strncmp(a, "--sbatch-option", 15);
}

/* What the command line asks of reproduce. */
struct rp_args {
	const char *paper, *out, *data;
	bool prop;		/* --at-proportion */
	char *sv[RP_MAX_ARGS];	/* "sweep" and the options passed on */
	int sc;
};

/* The options into @a: 0, -1 after --help, or the usage error's status. */
static int rp_options(struct rp_args *a, int argc, char **argv)
{
	struct opts st = { .table = reproduce_opts, .argc = argc,
			   .argv = argv, .next = 1 };
	int id;

	a->sv[a->sc++] = "sweep";
	while ((id = opts_next(&st)) != OPTS_END) {
		if (id == RO_HELP) {
			reproduce_usage(stdout);
			return -1;
		} else if (id == RO_OUT) {
			a->out = st.val;
		} else if (id == RO_DATA) {
			a->data = st.val;
		} else if (id == RO_PROP) {
			a->prop = true;
		} else if (id != OPTS_OTHER) {
			return opts_error("reproduce", &st, id);
		} else if (cluster_option(st.arg)) {
			/* its report needs every result: on a cluster, sweep */
			return usage_error("reproduce", "'%s' is not a reproduce option (run its sweeps with 'ngemu sweep --slurm')",
					   st.arg);
		} else if (st.arg[0] != '-' && !a->paper &&
			   !takes_value(argv[st.next - 2])) {
			a->paper = st.arg;
		} else if (a->sc + 16 < RP_MAX_ARGS) {
			a->sv[a->sc++] = st.arg;
		}
	}
	return 0;
}

int cmd_reproduce(int argc, char **argv)
{
	struct rp_paper *p = calloc(1, sizeof(*p));
	struct rp_row *r = calloc(RP_MAX_ROWS, sizeof(*r));
	struct rp_args a = { .paper = NULL };
	int ret;

	if (!p || !r) {
		ret = NG_EXIT_FAIL;
		goto out;
	}
	ret = rp_options(&a, argc, argv);
	if (ret) {
		ret = ret < 0 ? NG_EXIT_OK : ret;
		goto out;
	}
	if (!a.paper) {
		ret = usage_error("reproduce", "which paper? (see 'ngemu reproduce --help')");
		goto out;
	}
	if (!strcmp(a.paper, "all"))
		ret = run_all(a.out, a.data, a.prop, a.sv, a.sc, argc, argv,
			      p, r);
	else
		ret = run_paper(a.paper, a.data, a.out, a.prop, a.sv, a.sc,
				argc, argv, p, r);
out:
	free(p);
	free(r);
	return ret;
}
