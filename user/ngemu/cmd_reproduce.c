// SPDX-License-Identifier: GPL-2.0
/*
 * ngemu reproduce PAPER: a paper's experiment set (its preset, workloads
 * and systems, from share/reproduce/PAPER.txt) run as an ngemu sweep, then
 * each of the paper's headline claims (the same file: the figure or table
 * it comes from, the paper's value) beside ngemu's value and their ratio,
 * with whether ngemu shows the same direction, in OUT/claims.csv,
 * claims.json and report.md (the sweep's plot embedded). The paper's
 * numbers live in the data file; nothing of them is in this code.
 *
 * A claim is a ratio of a system to the reference system (or the one the
 * claim names) over the workloads (or those the claim names): speedup (the reference's modeled time / the system's,
 * geometric mean), traffic (the system's link bytes / the reference's,
 * mean of the ratios), remote and link-share (the system's share of remote
 * requests, of requests served over a link, / the reference's, means).
 * Its direction is the side of 1 the ratio is on.
 */
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "commands.h"
#include "ngemu/util/json.h"

#define RP_MAX_CLAIMS	32
#define RP_MAX_ROWS	4096
#define RP_MAX_ARGS	512

struct rp_claim {
	char id[48], source[48], metric[24], sys[32], ref[32], explain[256];
	char wls[512];			/* the workloads it is about; "": all */
	double paper, ngemu;
	bool shown;
};

struct rp_paper {
	char title[160], preset[32], ref[32];
	char workloads[1024], systems[512];
	struct rp_claim c[RP_MAX_CLAIMS];
	unsigned int n;
};

struct rp_row {
	char wl[32], sys[32];
	bool verified;
	double t, remote, bytes, link;
};

static void reproduce_usage(FILE *out)
{
	fprintf(out,
		"Usage: ngemu reproduce PAPER [--out DIR] [--jobs N] [--data FILE]\n"
		"                       [--size paper] [bench options]\n"
		"\n"
		"Run a paper's experiments (its preset, workloads and systems) as an\n"
		"'ngemu sweep' into DIR, then put each of the paper's headline claims\n"
		"beside ngemu's value: DIR/claims.csv, claims.json and report.md. PAPER\n"
		"is carve, rec, dualopt, scalegpu or coda; the paper's numbers come from\n"
		"share/reproduce/PAPER.txt (or --data FILE), each with its figure or table.\n"
		"\n"
		"Options:\n"
		"  -o, --out DIR    the output folder (default: reproduce-PAPER)\n"
		"  -j, --jobs N     points run at once (default 1)\n"
		"      --data FILE  the paper's experiments and claims\n"
		"  -h, --help       show this help and exit\n"
		"\n"
		"Exit status: 0 every claim's direction as the paper's, 1 some not (or a\n"
		"run failed), 2 usage error.\n");
}

/* The data file of @paper beside the ngemu that runs: build or install. */
static FILE *open_data(const char *paper, char *path, size_t len)
{
	static const char *const rel[] = { "../share/reproduce",
					   "../share/ngemu/reproduce" };
	char exe[512];
	ssize_t n = readlink("/proc/self/exe", exe, sizeof(exe) - 1);

	if (n <= 0)
		return NULL;
	exe[n] = '\0';
	*strrchr(exe, '/') = '\0';
	for (size_t i = 0; i < sizeof(rel) / sizeof(rel[0]); i++) {
		FILE *f;

		snprintf(path, len, "%s/%s/%s.txt", exe, rel[i], paper);
		f = fopen(path, "r");
		if (f)
			return f;
	}
	return NULL;
}

/*
 * "claim ID | SOURCE | METRIC | SYSTEM [vs REF] | PAPER | EXPLAIN
 * [| WORKLOADS]" and the experiment's lines.
 */
static int parse_data(FILE *f, const char *path, struct rp_paper *p)
{
	char line[1024];
	unsigned int ln = 0;

	while (fgets(line, sizeof(line), f)) {
		char *v = line + strcspn(line, " \t"), *e;

		ln++;
		line[strcspn(line, "\n")] = '\0';
		if (!line[0] || line[0] == '#')
			continue;
		if (*v)
			*v++ = '\0';
		v += strspn(v, " \t");
		if (!strcmp(line, "title"))
			snprintf(p->title, sizeof(p->title), "%s", v);
		else if (!strcmp(line, "preset"))
			snprintf(p->preset, sizeof(p->preset), "%s", v);
		else if (!strcmp(line, "reference"))
			snprintf(p->ref, sizeof(p->ref), "%s", v);
		else if (!strcmp(line, "workloads"))
			snprintf(p->workloads, sizeof(p->workloads), "%s", v);
		else if (!strcmp(line, "systems"))
			snprintf(p->systems, sizeof(p->systems), "%s", v);
		else if (!strcmp(line, "claim") && p->n < RP_MAX_CLAIMS) {
			struct rp_claim *c = &p->c[p->n];
			char *fld[7], *vs;
			int k = 0;

			for (char *t = strtok(v, "|"); t && k < 7; t = strtok(NULL, "|")) {
				t += strspn(t, " ");
				for (e = t + strlen(t); e > t && e[-1] == ' '; e--)
					;
				*e = '\0';
				fld[k++] = t;
			}
			if (k < 6)
				goto bad;
			snprintf(c->id, sizeof(c->id), "%s", fld[0]);
			snprintf(c->source, sizeof(c->source), "%s", fld[1]);
			snprintf(c->metric, sizeof(c->metric), "%s", fld[2]);
			vs = strstr(fld[3], " vs ");
			if (vs) {
				*vs = '\0';
				snprintf(c->ref, sizeof(c->ref), "%s", vs + 4);
			}
			snprintf(c->sys, sizeof(c->sys), "%s", fld[3]);
			if (k == 7)
				snprintf(c->wls, sizeof(c->wls), "%s", fld[6]);
			c->paper = strtod(fld[4], &e);
			if (e == fld[4] || c->paper <= 0 ||
			    (strcmp(c->metric, "speedup") && strcmp(c->metric, "traffic") &&
			     strcmp(c->metric, "remote") && strcmp(c->metric, "link-share")))
				goto bad;
			snprintf(c->explain, sizeof(c->explain), "%s", fld[5]);
			p->n++;
		} else {
			goto bad;
		}
		continue;
bad:
		return ng_usage_error("reproduce", "%s:%u: cannot read '%s'", path,
				      ln, line);
	}
	if (!p->preset[0] || !p->ref[0] || !p->workloads[0] || !p->systems[0] ||
	    !p->n)
		return ng_usage_error("reproduce", "%s: needs preset, reference, workloads, systems and a claim",
				      path);
	for (unsigned int i = 0; i < p->n; i++)
		if (!p->c[i].ref[0])
			snprintf(p->c[i].ref, sizeof(p->c[i].ref), "%s", p->ref);
	return 0;
}

static unsigned int read_rows(const char *out, struct rp_row *r)
{
	char path[1024], line[512];
	unsigned int n = 0;
	FILE *f;

	snprintf(path, sizeof(path), "%s/results.csv", out);
	f = fopen(path, "r");
	if (!f)
		return 0;
	while (fgets(line, sizeof(line), f) && n < RP_MAX_ROWS) {
		char v[8];

		if (!strncmp(line, "hash,", 5))
			continue;
		if (sscanf(line, "%*16[0-9a-f],%31[^,],%31[^,],%7[^,],%lf,%lf,%lf,%lf",
			   r[n].wl, r[n].sys, v, &r[n].t, &r[n].remote, &r[n].bytes,
			   &r[n].link) == 7) {
			r[n].verified = !strcmp(v, "true");
			n++;
		}
	}
	fclose(f);
	return n;
}

static const struct rp_row *row(const struct rp_row *r, unsigned int n,
				const char *wl, const char *sys)
{
	for (unsigned int i = 0; i < n; i++)
		if (!strcmp(r[i].wl, wl) && !strcmp(r[i].sys, sys))
			return &r[i];
	return NULL;
}

/* ngemu's value of claim @c over the workloads of @p. */
static double evaluate(const struct rp_paper *p, const struct rp_claim *c,
		       const struct rp_row *r, unsigned int n)
{
	char wls[1024], *save = NULL;
	double acc = 0;
	unsigned int k = 0;
	bool geo = !strcmp(c->metric, "speedup");

	snprintf(wls, sizeof(wls), "%s", c->wls[0] ? c->wls : p->workloads);
	for (char *w = strtok_r(wls, ", ", &save); w; w = strtok_r(NULL, ", ", &save)) {
		const struct rp_row *a = row(r, n, w, c->sys), *b = row(r, n, w, c->ref);
		double x, num, den;

		if (!a || !b)
			continue;
		num = geo ? b->t : !strcmp(c->metric, "traffic") ? a->bytes :
		      !strcmp(c->metric, "remote") ? a->remote : a->link;
		den = geo ? a->t : !strcmp(c->metric, "traffic") ? b->bytes :
		      !strcmp(c->metric, "remote") ? b->remote : b->link;
		if (!(num > 0) || !(den > 0))
			continue;
		x = num / den;
		acc += geo ? log(x) : x;
		k++;
	}
	if (!k)
		return 0;
	return geo ? exp(acc / k) : acc / k;
}

static int write_outputs(const char *out, const char *paper,
			 const struct rp_paper *p, unsigned int shown)
{
	char path[1024];
	FILE *csv, *md, *js;
	struct ng_json j;

	snprintf(path, sizeof(path), "%s/claims.csv", out);
	csv = fopen(path, "w");
	snprintf(path, sizeof(path), "%s/claims.json", out);
	js = fopen(path, "w");
	snprintf(path, sizeof(path), "%s/report.md", out);
	md = fopen(path, "w");
	if (!csv || !js || !md) {
		if (csv)
			fclose(csv);
		if (js)
			fclose(js);
		if (md)
			fclose(md);
		fprintf(stderr, "ngemu reproduce: cannot write in %s: %s\n", out,
			strerror(errno));
		return -1;
	}
	fprintf(csv, "claim,source,metric,system,reference,workloads,paper,ngemu,ngemu_over_paper,direction\n");
	ng_json_init(&j, js, true);
	ng_json_object_begin(&j);
	ng_json_kv_string(&j, "paper", paper);
	ng_json_kv_string(&j, "title", p->title);
	ng_json_kv_string(&j, "reference", p->ref);
	ng_json_key(&j, "claims");
	ng_json_array_begin(&j);
	fprintf(md, "# ngemu reproduce %s\n\n%s, on ngemu's `%s` preset at its default\n"
		"sizes (unless the run says otherwise), against `%s`. Workloads: %s.\n\n"
		"%u of %u claims shown in the paper's direction.\n\n"
		"| claim | source | system | paper | ngemu | ngemu / paper | direction | where to look |\n"
		"|---|---|---|---|---|---|---|---|\n",
		paper, p->title, p->preset, p->ref, p->workloads, shown, p->n);
	for (unsigned int i = 0; i < p->n; i++) {
		const struct rp_claim *c = &p->c[i];
		const char *dir = c->shown ? "shown" : "not shown";
		double ratio = c->paper > 0 ? c->ngemu / c->paper : 0;

		fprintf(csv, "%s,\"%s\",%s,%s,%s,\"%s\",%.6g,%.6g,%.6g,%s\n", c->id,
			c->source, c->metric, c->sys, c->ref,
			c->wls[0] ? c->wls : "all", c->paper, c->ngemu, ratio, dir);
		fprintf(md, "| %s (%s) | %s | %s vs %s%s%s | %.3g | %.3g | %.2f | %s | %s |\n",
			c->id, c->metric, c->source, c->sys, c->ref,
			c->wls[0] ? ", on " : "", c->wls, c->paper, c->ngemu,
			ratio, dir, c->explain);
		ng_json_object_begin(&j);
		ng_json_kv_string(&j, "claim", c->id);
		ng_json_kv_string(&j, "source", c->source);
		ng_json_kv_string(&j, "metric", c->metric);
		ng_json_kv_string(&j, "system", c->sys);
		ng_json_kv_string(&j, "reference", c->ref);
		ng_json_kv_string(&j, "workloads", c->wls[0] ? c->wls : "all");
		ng_json_kv_double(&j, "paper", c->paper);
		ng_json_kv_double(&j, "ngemu", c->ngemu);
		ng_json_kv_double(&j, "ngemu_over_paper", ratio);
		ng_json_kv_string(&j, "direction", dir);
		ng_json_kv_string(&j, "explain", c->explain);
		ng_json_object_end(&j);
	}
	ng_json_array_end(&j);
	ng_json_object_end(&j);
	ng_json_finish(&j);
	fprintf(md, "\nspeedup: the reference's modeled time / the system's (geometric mean);\n"
		"traffic: link bytes, remote: remote requests' share, link-share: share of\n"
		"requests served over a link, each the system's / the reference's (mean).\n"
		"A claim is shown when ngemu's ratio is on the same side of 1 as the paper's.\n\n"
		"![speed-up over %s per workload](plot.svg)\n\n"
		"Raw results: results.csv, results.json, points/ (one file per run).\n",
		p->ref);
	fclose(csv);
	fclose(js);
	fclose(md);
	return 0;
}

int ng_cmd_reproduce(int argc, char **argv)
{
	struct rp_paper *p = calloc(1, sizeof(*p));
	struct rp_row *r = calloc(RP_MAX_ROWS, sizeof(*r));
	const char *paper = NULL, *out = NULL, *data = NULL;
	char path[1024], outbuf[256], *sv[RP_MAX_ARGS];
	unsigned int n, shown = 0;
	int sc = 0, ret = NG_EXIT_USAGE;
	FILE *f;

	if (!p || !r) {
		free(p);
		free(r);
		return NG_EXIT_FAIL;
	}
	sv[sc++] = "sweep";
	for (int i = 1; i < argc; i++) {
		const char *a = argv[i];

		if (!strcmp(a, "-h") || !strcmp(a, "--help")) {
			reproduce_usage(stdout);
			ret = NG_EXIT_OK;
			goto out;
		}
		if ((!strcmp(a, "-o") || !strcmp(a, "--out") || !strcmp(a, "--data")) &&
		    i + 1 >= argc) {
			ret = ng_usage_error("reproduce", "option '%s' needs a value", a);
			goto out;
		}
		if (!strcmp(a, "-o") || !strcmp(a, "--out"))
			out = argv[++i];
		else if (!strcmp(a, "--data"))
			data = argv[++i];
		else if (a[0] != '-' && !paper)
			paper = a;
		else if (sc + 16 < RP_MAX_ARGS)
			sv[sc++] = argv[i];
	}
	if (!paper) {
		ret = ng_usage_error("reproduce", "which paper? (carve, rec, dualopt, scalegpu or coda)");
		goto out;
	}
	f = data ? fopen(data, "r") : open_data(paper, path, sizeof(path));
	if (!f) {
		ret = ng_usage_error("reproduce", "no data for '%s' (%s)", paper,
				     data ? strerror(errno) :
				     "papers: carve, rec, dualopt, scalegpu, coda");
		goto out;
	}
	ret = parse_data(f, data ? data : path, p);
	fclose(f);
	if (ret)
		goto out;
	if (!out) {
		snprintf(outbuf, sizeof(outbuf), "reproduce-%s", paper);
		out = outbuf;
	}
	sv[sc++] = "--workloads";
	sv[sc++] = p->workloads;
	sv[sc++] = "--systems";
	sv[sc++] = p->systems;
	sv[sc++] = "--system";
	sv[sc++] = p->preset;
	sv[sc++] = "--out";
	sv[sc++] = (char *)out;
	sv[sc] = NULL;
	ret = ng_cmd_sweep(sc, sv);
	if (ret == NG_EXIT_USAGE)
		goto out;
	n = read_rows(out, r);
	for (unsigned int i = 0; i < p->n; i++) {
		struct rp_claim *c = &p->c[i];

		c->ngemu = evaluate(p, c, r, n);
		c->shown = c->ngemu > 0 &&
			   (c->ngemu - 1) * (c->paper - 1) > 0;
		shown += c->shown;
	}
	if (write_outputs(out, paper, p, shown)) {
		ret = NG_EXIT_FAIL;
		goto out;
	}
	printf("ngemu reproduce %s: %u of %u claims in the paper's direction: %s/report.md\n",
	       paper, shown, p->n, out);
	if (ret == NG_EXIT_OK && shown < p->n)
		ret = NG_EXIT_FAIL;
out:
	free(p);
	free(r);
	return ret;
}
