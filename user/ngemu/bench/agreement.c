// SPDX-License-Identifier: GPL-2.0
/*
 * ngemu bench --compare W --agreement N: is a threaded run's modeled time
 * the deterministic one's? Each system runs once with --deterministic
 * (the reference) and N times on the worker threads; the table gives the
 * threaded mean, the spread of the N runs ((max - min) / mean) and the
 * difference of the mean from the reference, against the targets: within
 * 2% of it, and the runs within 1% of each other.
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <linux/numagpu.h>

#include "bench.h"
#include "../commands.h"
#include "ngemu/runtime/system.h"
#include "ngemu/util/format.h"

#define AGREE_DIFF	0.01
#define AGREE_SPREAD	0.01
#define AGREE_MAX_RUNS	100

struct agree_row {
	const struct ng_paper_system *sys;
	double det;
	double t[AGREE_MAX_RUNS];
	double mean, spread, diff;
	unsigned int threads;
	bool verified, within;
};

/* One run of @wl on @c; its modeled seconds, or < 0 with a message. */
static double run_once(const struct ng_config *c, const struct ng_workload *wl,
		       const struct ng_bench_opts *o, unsigned int *threads,
		       bool *verified)
{
	struct ng_bench_result *r = calloc(1, sizeof(*r));
	struct ng_system *sys;
	char err[512];
	double t = -1;

	if (!r)
		return -1;
	if (ng_system_create(&sys, c, err, sizeof(err))) {
		fprintf(stderr, "ngemu bench: %s\n", err);
		free(r);
		return -1;
	}
	if (!ng_bench_run(sys, wl, o, r, err, sizeof(err))) {
		t = r->modeled_s;
		*verified &= r->verified;
		if (threads && ng_system_threads(sys))
			*threads = ng_system_threads(sys);
	} else {
		fprintf(stderr, "ngemu bench: %s\n", err);
	}
	ng_system_destroy(sys);
	free(r);
	return t;
}

static void print_json(const struct ng_workload *wl, const struct agree_row *rows,
		       unsigned int n, unsigned int runs)
{
	struct ng_json j;

	ng_json_init(&j, stdout, true);
	ng_json_object_begin(&j);
	ng_json_kv_string(&j, "version", NUMAGPU_VERSION_STRING);
	ng_json_kv_string(&j, "workload", wl->name);
	ng_json_kv_uint(&j, "threaded_runs", runs);
	ng_json_kv_double(&j, "target_diff", AGREE_DIFF);
	ng_json_kv_double(&j, "target_spread", AGREE_SPREAD);
	ng_json_key(&j, "systems");
	ng_json_array_begin(&j);
	for (unsigned int i = 0; i < n; i++) {
		const struct agree_row *w = &rows[i];

		ng_json_object_begin(&j);
		ng_json_kv_string(&j, "system", w->sys->name);
		ng_json_kv_uint(&j, "threads", w->threads);
		ng_json_kv_double(&j, "deterministic_s", w->det);
		ng_json_key(&j, "threaded_s");
		ng_json_array_begin(&j);
		for (unsigned int k = 0; k < runs; k++)
			ng_json_double(&j, w->t[k]);
		ng_json_array_end(&j);
		ng_json_kv_double(&j, "mean_s", w->mean);
		ng_json_kv_double(&j, "spread", w->spread);
		ng_json_kv_double(&j, "diff", w->diff);
		ng_json_kv_bool(&j, "verified", w->verified);
		ng_json_kv_bool(&j, "within", w->within);
		ng_json_object_end(&j);
	}
	ng_json_array_end(&j);
	ng_json_object_end(&j);
	ng_json_finish(&j);
}

int bench_agreement(const struct ng_config *base,
		    const struct ng_workload *wl,
		    const struct ng_bench_opts *o, const char *systems,
		    unsigned int runs, bool json)
{
	const struct ng_paper_system *sel[CMP_NSYS_MAX];
	struct agree_row *rows;
	unsigned int nsel, missed = 0;
	char err[512], b1[32], b2[32];
	double tmax = 0;

	if (!runs || runs > AGREE_MAX_RUNS)
		return usage_error("bench", "--agreement: 1 to %d threaded runs",
				   AGREE_MAX_RUNS);
	nsel = cmp_systems(systems, sel);
	if (!nsel)
		return NG_EXIT_USAGE;
	rows = calloc(nsel, sizeof(*rows));
	if (!rows)
		return NG_EXIT_FAIL;
	for (unsigned int i = 0; i < nsel; i++) {
		struct agree_row *w = &rows[i];
		struct ng_config c = *base;
		double lo = INFINITY, hi = 0, sum = 0;

		w->sys = sel[i];
		w->verified = true;
		if (cmp_apply(&c, sel[i], err, sizeof(err))) {
			free(rows);
			return usage_error("bench", "%s", err);
		}
		c.deterministic = true;
		w->det = run_once(&c, wl, o, NULL, &w->verified);
		c.deterministic = false;
		for (unsigned int k = 0; k < runs && w->det >= 0; k++) {
			w->t[k] = run_once(&c, wl, o, &w->threads, &w->verified);
			if (w->t[k] < 0) {
				w->det = -1;
				break;
			}
			sum += w->t[k];
			lo = fmin(lo, w->t[k]);
			hi = fmax(hi, w->t[k]);
		}
		if (w->det < 0) {
			free(rows);
			return NG_EXIT_USAGE;
		}
		w->mean = sum / runs;
		w->spread = w->mean > 0 ? (hi - lo) / w->mean : 0;
		w->diff = w->det > 0 ? (w->mean - w->det) / w->det : 0;
		w->within = fabs(w->diff) <= AGREE_DIFF && w->spread <= AGREE_SPREAD;
		missed += !w->within;
	}
	if (json) {
		print_json(wl, rows, nsel, runs);
	} else {
		printf("ngemu bench --compare %s --agreement %u: %u threaded runs (%u worker threads) against --deterministic;\n"
		       "targets: threaded mean within %.0f%% of it, the runs within %.0f%% of each other\n\n",
		       wl->name, runs, runs, rows[0].threads, 100 * AGREE_DIFF,
		       100 * AGREE_SPREAD);
		printf("%-11s %14s %14s %8s %8s %-6s %s\n", "system", "deterministic",
		       "threaded mean", "spread", "diff", "within", "verified");
		/* both columns in one unit: they are compared */
		for (unsigned int i = 0; i < nsel; i++)
			tmax = fmax(tmax, fmax(rows[i].det, rows[i].mean));
		for (unsigned int i = 0; i < nsel; i++) {
			const struct agree_row *w = &rows[i];

			printf("%-11s %14s %14s %7.2f%% %+7.2f%% %-6s %s\n",
			       w->sys->name, ng_format_dur_col(w->det, tmax, b1, sizeof(b1)),
			       ng_format_dur_col(w->mean, tmax, b2, sizeof(b2)),
			       100 * w->spread, 100 * w->diff,
			       w->within ? "yes" : "NO", w->verified ? "yes" : "NO");
		}
	}
	free(rows);
	return missed ? NG_EXIT_FAIL : NG_EXIT_OK;
}
