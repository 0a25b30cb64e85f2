// SPDX-License-Identifier: GPL-2.0
/*
 * ngemu bench --compare: one workload under a paper's systems side by side
 * (ngemu/paper.h), each measured against the paper's reference system.
 */
#include <errno.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "bench.h"
#include "../commands.h"
#include "../options.h"
#include "ngemu/config.h"
#include "ngemu/runtime/system.h"
#include "ngemu/workloads/workload.h"

enum { CP_SYSTEMS, CP_SYSTEM };

const struct ng_paper *cmp_paper(int argc, char **argv)
{
	static const struct opt opts[] = {
		{ .name = "systems", .value = true, .id = CP_SYSTEMS },
		{ .name = "system", .value = true, .id = CP_SYSTEM },
		{ 0 }
	};
	struct opts st = { .table = opts, .argc = argc, .argv = argv,
			   .next = 1 };
	const char *val[2] = { NULL, NULL }, *systems, *preset;
	const struct ng_paper *p = NULL;
	int id;

	/* a bad line is bench's to refuse: here the last of each counts */
	while ((id = opts_next(&st)) != OPTS_END)
		if (id >= 0 || id == OPTS_MISSING)
			val[st.opt->id] = st.val;
	systems = val[CP_SYSTEMS];
	preset = val[CP_SYSTEM];
	if (systems && ng_paper_system_find(systems, strcspn(systems, ","), &p))
		return p;
	if (!systems)
		p = ng_paper_of_preset(preset);
	return p ? p : ng_paper_at(0);
}

const struct ng_paper_run *cmp_ref(const struct ng_paper *p,
				   const struct ng_paper_run *rows,
				   unsigned int n,
				   const struct ng_paper_run *w)
{
	const struct ng_paper_run *first = NULL;

	for (unsigned int i = 0; i < n; i++) {
		if (strcmp(rows[i].sweep, w->sweep))
			continue;
		if (!first)
			first = &rows[i];
		if (!strcmp(rows[i].sys->name, p->ref))
			return &rows[i];
	}
	return first ? first : w;
}

const char *cmp_verified(const struct ng_paper_run *w)
{
	return w->r.verified ? "yes" : w->sys->stale_expected ? "stale" : "NO";
}

bool cmp_failed(const struct ng_paper_run *w)
{
	return !w->r.verified && !w->sys->stale_expected;
}

/* Below a table: which rows' stale data was expected, not a failure. */
static void cmp_print_stale(const struct ng_paper_run *rows, unsigned int n)
{
	bool any = false;

	for (unsigned int i = 0; i < n; i++)
		any |= !rows[i].r.verified && rows[i].sys->stale_expected;
	if (any)
		printf("stale: verification failed as expected: the system keeps no coherence (an upper\n"
		       "bound), so data another GPU wrote is read stale; this does not fail the run\n");
}

int cmp_apply(struct ng_config *c, const struct ng_paper_system *s,
	      char *err, size_t errlen)
{
	int ret = 0;

	for (const char *p = s->set; !ret && p && *p;) {
		char kv[64], *eq;
		size_t len = strcspn(p, " ");

		snprintf(kv, sizeof(kv), "%.*s", (int)len, p);
		eq = strchr(kv, '=');
		if (!eq) {
			snprintf(err, errlen, "system %s: '%s' is not key=value",
				 s->name, kv);
			return -EINVAL;
		}
		*eq = '\0';
		ret = ng_config_set(c, kv, eq + 1, err, errlen);
		p += len;
		p += *p == ' ';
	}
	if (!ret && s->adjust)
		s->adjust(c);
	if (!ret)
		ret = ng_config_validate(c, err, errlen);
	return ret;
}

void cmp_help(FILE *out)
{
	const struct ng_paper *p;

	fprintf(out, "Papers (--compare's systems; 'ngemu config --presets' for the presets):\n");
	for (unsigned int i = 0; (p = ng_paper_at(i)); i++) {
		fprintf(out, "  %s: %s\n    --system %s; systems:", p->name,
			p->title, p->preset);
		for (unsigned int s = 0; s < p->nsystems; s++)
			fprintf(out, "%s %s", s ? "," : "", p->systems[s].name);
		fprintf(out, "\n    default: %s; against %s; regime:", p->defaults,
			p->ref);
		for (unsigned int r = 0; r < p->nregime; r++)
			fprintf(out, " %s", p->regime[r]);
		fprintf(out, "\n");
	}
}

/* "carve: numa-gpu, repl-ro, ...; rec: dir, ...": every paper's systems. */
static void known_systems(char *buf, size_t len)
{
	const struct ng_paper *p;
	size_t at = 0;

	buf[0] = '\0';
	for (unsigned int i = 0; (p = ng_paper_at(i)) && at < len; i++) {
		at += (size_t)snprintf(buf + at, len - at, "%s%s:", i ? "; " : "",
				       p->name);
		for (unsigned int s = 0; s < p->nsystems && at < len; s++)
			at += (size_t)snprintf(buf + at, len - at, "%s %s",
					       s ? "," : "", p->systems[s].name);
	}
}

unsigned int cmp_systems(const char *list,
			 const struct ng_paper_system *sel[CMP_NSYS_MAX])
{
	unsigned int n = 0;

	for (const char *p = list; *p;) {
		size_t len = strcspn(p, ",");
		const struct ng_paper_system *s = ng_paper_system_find(p, len, NULL);

		if (!s) {
			char known[1024];

			known_systems(known, sizeof(known));
			usage_error("bench", "--systems: unknown system '%.*s' (known: %s)",
				    (int)len, p, known);
			return 0;
		}
		if (n < CMP_NSYS_MAX)
			sel[n++] = s;
		p += len;
		if (*p)
			p++;
	}
	if (!n)
		usage_error("bench", "--systems: no system given");
	return n;
}

/* ngemu bench --compare: every system of @systems (and sweep value) in turn. */
/*
 * --sweep KEY=V1,V2,...: the key in @key (of @keylen bytes), the values in
 * @values (at most 32) pointing into @vals (of @valslen bytes), their
 * count in @nval. 0, or the usage error's status.
 */
static int cmp_sweep_values(const char *sweep, char *key, size_t keylen,
			    char *vals, size_t valslen, const char **values,
			    unsigned int *nval)
{
	const char *eq = strchr(sweep, '=');
	char *save = NULL, *tok;

	if (!eq || eq == sweep || (size_t)(eq - sweep) >= keylen ||
	    strlen(eq + 1) >= valslen || !eq[1])
		return usage_error("bench", "--sweep: '%s' is not KEY=V1,V2,...", sweep);
	memcpy(key, sweep, (size_t)(eq - sweep));
	key[eq - sweep] = '\0';
	if (!ng_config_key(key, NULL))
		return usage_error("bench", "--sweep: unknown parameter '%s'", key);
	snprintf(vals, valslen, "%s", eq + 1);
	for (tok = strtok_r(vals, ",", &save); tok && *nval < 32;
	     tok = strtok_r(NULL, ",", &save))
		values[(*nval)++] = tok;
	return 0;
}

/*
 * Row @w: system @sys of the paper from @base (with @key set to @value
 * when @key is not empty), run and verified. 0, or the exit status.
 */
static int cmp_run_row(struct ng_paper_run *w, const struct ng_config *base,
		       const struct ng_paper_system *sys_def,
		       const struct ng_workload *wl,
		       const struct ng_bench_opts *o,
		       const char *key, const char *value)
{
	struct ng_config c = *base;
	struct ng_system *sys;
	char err[512];

	if (key[0] && ng_config_set(&c, key, value, err, sizeof(err)))
		return usage_error("bench", "--sweep: %s", err);
	if (cmp_apply(&c, sys_def, err, sizeof(err)))
		return usage_error("bench", "%s", err);
	snprintf(w->sweep, sizeof(w->sweep), "%s", value);
	w->sys = sys_def;
	w->cfg = c;
	if (ng_system_create(&sys, &c, err, sizeof(err))) {
		fprintf(stderr, "ngemu bench: %s: %s\n", sys_def->name, err);
		return NG_EXIT_USAGE;
	}
	if (ng_bench_run(sys, wl, o, &w->r, err, sizeof(err))) {
		ng_system_destroy(sys);
		fprintf(stderr, "ngemu bench: %s: %s\n", sys_def->name, err);
		return NG_EXIT_USAGE;
	}
	ng_system_destroy(sys);
	if (cmp_failed(w))
		fprintf(stderr, "ngemu bench %s: %s%s%s: verification failed: %s\n",
			wl->name, sys_def->name, key[0] ? " at " : "",
			value, w->r.verify);
	else if (!w->r.verified)
		fprintf(stderr, "ngemu bench %s: %s%s%s: verification failed as expected (no coherence: stale data expected; not a failure): %s\n",
			wl->name, sys_def->name, key[0] ? " at " : "",
			value, w->r.verify);
	return 0;
}

/*
 * Rows @first to @nrows, one value's: their times normalized to the
 * norm system's @norm if it ran, else to the first's, and the reference
 * system's @ref over theirs.
 */
static void cmp_normalize(struct ng_paper_run *rows, unsigned int first,
			  unsigned int nrows, double norm, double ref)
{
	if (norm <= 0)
		norm = rows[first].r.modeled_s;
	for (unsigned int i = first; i < nrows; i++) {
		rows[i].norm = norm > 0 ? rows[i].r.modeled_s / norm : 0;
		rows[i].vs_ref = ref > 0 && rows[i].r.modeled_s > 0 ?
				 ref / rows[i].r.modeled_s : 0;
	}
}

int bench_compare(const struct ng_config *base,
		  const struct ng_workload *wl,
		  const struct ng_bench_opts *o, const char *systems,
		  const char *sweep, int fmt)
{
	const struct ng_paper_system *sel[CMP_NSYS_MAX];
	const struct ng_paper *paper;
	char key[32] = "", vals[256] = "";
	const char *values[32];
	unsigned int nsel = 0, nval = 0, nrows = 0, failed = 0;
	struct ng_paper_run *rows;
	int ret = NG_EXIT_OK;

	nsel = cmp_systems(systems, sel);
	if (!nsel)
		return NG_EXIT_USAGE;
	ng_paper_system_find(sel[0]->name, strlen(sel[0]->name), &paper);
	if (sweep) {
		ret = cmp_sweep_values(sweep, key, sizeof(key), vals,
				       sizeof(vals), values, &nval);
		if (ret)
			return ret;
	}
	if (!nval)
		values[nval++] = "";
	rows = calloc((size_t)nval * nsel, sizeof(*rows));
	if (!rows) {
		fprintf(stderr, "ngemu bench: out of memory\n");
		return NG_EXIT_FAIL;
	}
	for (unsigned int v = 0; v < nval; v++) {
		double norm = 0, ref = 0;
		unsigned int first = nrows;

		for (unsigned int i = 0; i < nsel; i++) {
			struct ng_paper_run *w = &rows[nrows];

			ret = cmp_run_row(w, base, sel[i], wl, o, key, values[v]);
			if (ret)
				goto out;
			if (paper->norm && !strcmp(sel[i]->name, paper->norm))
				norm = w->r.modeled_s;
			if (!strcmp(sel[i]->name, paper->ref))
				ref = w->r.modeled_s;
			failed += cmp_failed(w);
			nrows++;
		}
		cmp_normalize(rows, first, nrows, norm, ref);
	}
	cmp_print(paper, base, wl->name, rows, nrows, key[0] ? key : NULL,
		  fmt);
	if (fmt == 0)
		cmp_print_stale(rows, nrows);
	if (failed)
		ret = NG_EXIT_FAIL;
out:
	free(rows);
	return ret;
}
