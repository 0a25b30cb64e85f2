// SPDX-License-Identifier: GPL-2.0
/*
 * ngemu sweep's results (sweep.h): the points' files, each a `bench
 * --compare --json` report, gathered into OUT/results.csv and
 * OUT/results.json, a row per point with its grid values and the fields
 * the tables and plots use.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "../out_file.h"
#include "sweep.h"
#include "ngemu/util/json.h"

/* The value of key @k in the first run object of JSON @t, as text. */
static bool field(const char *t, const char *k, char *out, size_t len)
{
	const char *runs = strstr(t, "\"runs\": [");
	char pat[64];
	const char *p;
	size_t n;

	snprintf(pat, sizeof(pat), "\"%s\": ", k);
	p = runs ? strstr(runs, pat) : NULL;
	if (!p)
		return false;
	p += strlen(pat);
	if (*p == '"') {
		p++;
		n = strcspn(p, "\"");
	} else {
		n = strcspn(p, ",\n}");
	}
	if (n >= len)
		n = len - 1;
	memcpy(out, p, n);
	out[n] = '\0';
	return true;
}

static char *slurp(const char *path)
{
	FILE *f = fopen(path, "r");
	char *t = NULL;
	size_t len = 0;
	ssize_t n;

	if (!f)
		return NULL;
	n = getdelim(&t, &len, '\0', f);
	fclose(f);
	if (n < 0) {
		free(t);
		return NULL;
	}
	return t;
}

static const char *const sw_fields[] = {
	"verified", "modeled_s", "remote_fraction", "link_bytes",
	"link_fraction",
};
#define SW_NFIELDS (sizeof(sw_fields) / sizeof(sw_fields[0]))

/*
 * Fields only some runs report (REC's "rec" object: its L2 misses but
 * cold ones, and the invalidations a directory eviction sent to lines a
 * sharer still held; the average memory latency, which runs from before
 * it existed lack; CARVE's footprint and its replicas' bytes; CODA's
 * page_blocks, the shares of the pages by how many blocks touched them,
 * a text of numbers): blank where a point has none.
 */
static const char *const sw_opt_fields[] = {
	"l2_misses", "inv_evict_hits", "mem_latency_ns", "footprint",
	"repl_bytes", "page_blocks",
};
#define SW_NOPT (sizeof(sw_opt_fields) / sizeof(sw_opt_fields[0]))

/*
 * The end of a JSON document at @t: one value whose brackets and braces
 * all close (outside strings), then only white space; NULL when it is
 * cut short or has anything after it.
 */
static const char *json_end(const char *t)
{
	char stack[32];
	size_t depth = 0;
	bool str = false, any = false;

	for (; *t; t++) {
		char c = *t;

		if (str) {
			if (c == '\\' && t[1])
				t++;
			else if (c == '"')
				str = false;
			continue;
		}
		if (c == '"') {
			str = any = true;
		} else if (c == '{' || c == '[') {
			if (depth == sizeof(stack))
				return NULL;
			stack[depth++] = c == '{' ? '}' : ']';
			any = true;
		} else if (c == '}' || c == ']') {
			if (!depth || stack[--depth] != c)
				return NULL;
			if (!depth)
				break;
		} else if (!strchr(" \t\r\n", c)) {
			any = true;
		}
	}
	if (!*t || depth || !any)
		return NULL;
	for (t++; *t; t++)
		if (!strchr(" \t\r\n", *t))
			return NULL;
	return t;
}

bool sweep_result_ok(const char *t)
{
	char val[64];

	if (!t || !json_end(t))
		return false;
	for (size_t f = 0; f < SW_NFIELDS; f++)
		if (!field(t, sw_fields[f], val, sizeof(val)) || !val[0])
			return false;
	return true;
}

bool sweep_has_result(const struct sweep *s, const struct sw_point *p)
{
	char path[1024], *t;
	bool ok;

	sweep_path(s, p, ".json", path, sizeof(path));
	t = slurp(path);
	ok = sweep_result_ok(t);
	free(t);
	return ok;
}

/*
 * Point @p's inert grid keys: in its CSV row, space-separated; in its
 * JSON object, each with why ("inert": ["xfer-gran: no component ..."]).
 */
static void gather_inert(const struct sweep *s, const struct sw_point *p,
			 FILE *csv, struct ng_json *j)
{
	char why[160], text[224];
	const char *sep = "";

	fprintf(csv, ",");
	ng_json_key(j, "inert");
	ng_json_array_begin(j);
	for (unsigned int k = 0; k < s->nkey; k++) {
		if (p->inert[k] == SW_LIVE)
			continue;
		fprintf(csv, "%s%s", sep, s->key[k].name);
		sep = " ";
		sweep_inert_why(s, p, k, why, sizeof(why));
		snprintf(text, sizeof(text), "%s: %s", s->key[k].name, why);
		ng_json_string(j, text);
	}
	ng_json_array_end(j);
}

/* results.csv's header line. */
static void gather_header(const struct sweep *s, FILE *csv)
{
	fprintf(csv, "hash,workload,system");
	for (unsigned int k = 0; k < s->nkey; k++)
		fprintf(csv, ",%s", s->key[k].name);
	for (size_t f = 0; f < SW_NFIELDS; f++)
		fprintf(csv, ",%s", sw_fields[f]);
	for (size_t f = 0; f < SW_NOPT; f++)
		fprintf(csv, ",%s", sw_opt_fields[f]);
	/* the grid keys that change nothing at a row (inert.c) */
	if (s->nkey)
		fprintf(csv, ",inert");
	fprintf(csv, "\n");
}

/*
 * Point @i's row in results.csv and object in results.json, from its
 * result @t; its modeled time kept for the plots.
 */
static void gather_point(struct sweep *s, size_t i, const char *t, FILE *csv,
			 struct ng_json *j)
{
	const struct sw_point *p = &s->pt[i];
	char val[64];

	fprintf(csv, "%s,%s,%s", p->hash, p->wl, p->sys);
	ng_json_object_begin(j);
	ng_json_kv_string(j, "hash", p->hash);
	ng_json_kv_string(j, "workload", p->wl);
	ng_json_kv_string(j, "system", p->sys);
	for (unsigned int k = 0; k < s->nkey; k++) {
		fprintf(csv, ",%s", s->key[k].val[p->vi[k]]);
		ng_json_kv_string(j, s->key[k].name, s->key[k].val[p->vi[k]]);
	}
	for (size_t f = 0; f < SW_NFIELDS; f++) {
		if (!field(t, sw_fields[f], val, sizeof(val)))
			snprintf(val, sizeof(val), "%s", "");
		fprintf(csv, ",%s", val);
		if (!f)
			ng_json_kv_bool(j, sw_fields[f], !strcmp(val, "true"));
		else
			ng_json_kv_double(j, sw_fields[f], strtod(val, NULL));
		if (!strcmp(sw_fields[f], "modeled_s"))
			s->pt[i].modeled_s = strtod(val, NULL);
	}
	for (size_t f = 0; f < SW_NOPT; f++) {
		bool has = field(t, sw_opt_fields[f], val, sizeof(val));

		fprintf(csv, ",%s", has ? val : "");
		if (has && !strcmp(sw_opt_fields[f], "page_blocks"))
			ng_json_kv_string(j, sw_opt_fields[f], val);
		else if (has)
			ng_json_kv_double(j, sw_opt_fields[f], strtod(val, NULL));
	}
	if (s->nkey)
		gather_inert(s, p, csv, j);
	fprintf(csv, "\n");
	ng_json_object_end(j);
}

/* results.csv and results.json from the points' files. */
int sweep_gather(struct sweep *s)
{
	char path[1024];
	struct out_file oc, oj;
	struct ng_json j;
	int err;

	snprintf(path, sizeof(path), "%s/results.csv", s->out);
	err = out_open(&oc, "sweep", path);
	if (err)
		return err;
	snprintf(path, sizeof(path), "%s/results.json", s->out);
	err = out_open(&oj, "sweep", path);
	if (err) {
		out_abort(&oc);
		return err;
	}
	gather_header(s, oc.f);
	ng_json_init(&j, oj.f, true);
	ng_json_object_begin(&j);
	ng_json_kv_string(&j, "tool", "ngemu sweep");
	ng_json_key(&j, "points");
	ng_json_array_begin(&j);
	for (size_t i = 0; i < s->npt; i++) {
		char *t;

		sweep_path(s, &s->pt[i], ".json", path, sizeof(path));
		t = slurp(path);
		s->pt[i].modeled_s = 0;
		/* a file cut short is no result: no row of blanks and zeros */
		if (sweep_result_ok(t))
			gather_point(s, i, t, oc.f, &j);
		free(t);
	}
	ng_json_array_end(&j);
	ng_json_object_end(&j);
	ng_json_finish(&j);
	err = out_commit(&oc);
	if (err) {
		out_abort(&oj);
		return err;
	}
	return out_commit(&oj);
}
