// SPDX-License-Identifier: GPL-2.0
/*
 * A paper's proportions (report.md's last section, proportions.csv): how
 * each workload's input compares with its paper's, once the paper's input
 * is scaled as the regime scales the paper's cache. A regime that shrinks
 * CARVE's 2 GB RDC to 4 MB keeps the paper's footprint-to-cache ratio only
 * for inputs at 1/512 of the paper's; a workload at its default size may
 * be far from that, and the reader needs to know by how much before
 * trusting a hit rate. The sizes are the workload's --size (bytes per
 * array), as the runs had them: its default, the --size given, or the
 * paper's over N (--size paper/N).
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "../size_spec.h"
#include "reproduce.h"
#include "ngemu/config.h"
#include "ngemu/paper.h"
#include "ngemu/util/format.h"
#include "ngemu/workloads/workload.h"

#define PR_MAX_ARGS	64

/* Size key @k's bytes in @c (after ng_config_resolve()). */
static uint64_t key_bytes(const struct ng_config *c, const struct ng_key *k)
{
	return *(const uint64_t *)((const char *)c + k->off);
}

/*
 * The bytes of @k in preset @preset, the paper's machine (*paper), and in
 * @np's regime with the options @opts over it (*regime). 0, or -EINVAL
 * with why in @err.
 */
static int cache_sizes(const struct ng_paper *np, const char *preset,
		       const struct ng_key *k, char **opts, int nopts,
		       uint64_t *paper, uint64_t *regime, char *err,
		       size_t errlen)
{
	char *v[PR_MAX_ARGS], *rest[PR_MAX_ARGS];
	struct ng_config c;
	int n = 0, nrest;

	if (k->type != NG_KEY_SIZE && k->type != NG_KEY_SIZE_PCT) {
		snprintf(err, errlen, "%s is not a size", k->name);
		return -EINVAL;
	}
	if (ng_config_preset(&c, preset, err, errlen))
		return -EINVAL;
	ng_config_resolve(&c);
	*paper = key_bytes(&c, k);
	v[n++] = "reproduce";
	v[n++] = "--system";
	v[n++] = (char *)preset;
	for (unsigned int i = 0; i < np->nregime && n < PR_MAX_ARGS; i++)
		v[n++] = (char *)np->regime[i];
	for (int i = 0; i < nopts && n < PR_MAX_ARGS; i++)
		v[n++] = opts[i];
	if (ng_config_from_args(&c, n, v, rest, PR_MAX_ARGS, &nrest, err,
				errlen))
		return -EINVAL;
	*regime = key_bytes(&c, k);
	if (!*paper || !*regime) {
		snprintf(err, errlen, "%s is 0 in the %s", k->name,
			 *paper ? "regime" : "paper's preset");
		return -EINVAL;
	}
	return 0;
}

/* The --size of @opts: NULL, "paper[/N]" or a size. */
static const char *size_opt(char **opts, int nopts)
{
	const char *size = NULL;

	for (int i = 0; i < nopts; i++) {
		if (!strcmp(opts[i], "--size") && i + 1 < nopts)
			size = opts[++i];
		else if (!strncmp(opts[i], "--size=", 7))
			size = opts[i] + 7;
	}
	return size;
}

/* The size @w ran at under --size @size (NULL: its default). */
static uint64_t size_used(const struct ng_workload *w, const char *size)
{
	struct size_spec s;
	uint64_t bytes;

	if (!size || size_spec_parse(size, &s))
		return w->default_size;
	/* a workload no paper sizes runs at its default (sweep's rule) */
	bytes = size_spec_bytes(&s, w);
	return bytes ? bytes : w->default_size;
}

/* One workload's row; its paper's input at the regime's scale is @scaled. */
static void row(FILE *md, FILE *csv, const struct ng_workload *w,
		uint64_t used, double scale)
{
	uint64_t psize = ng_workload_paper_size(w);
	double scaled = (double)psize / scale;
	char b1[32], b2[32], b3[32];

	ng_format_bytes(used, b1, sizeof(b1));
	if (!psize) {
		fprintf(md, "| %s | %s | - | - | - |\n", w->name, b1);
		fprintf(csv, "%s,%llu,,,,\n", w->name, (unsigned long long)used);
		return;
	}
	ng_format_bytes(psize, b2, sizeof(b2));
	ng_format_bytes((uint64_t)scaled, b3, sizeof(b3));
	fprintf(md, "| %s | %s | %s (%s) | %s | %.3g |\n", w->name, b1, b2,
		w->paper_ref ? w->paper_ref : "", b3, (double)used / scaled);
	fprintf(csv, "%s,%llu,%llu,\"", w->name, (unsigned long long)used,
		(unsigned long long)psize);
	/* CSV doubles a quote inside a quoted field */
	for (const char *c = w->paper_ref ? w->paper_ref : ""; *c; c++) {
		if (*c == '"')
			fputc('"', csv);
		fputc(*c, csv);
	}
	fprintf(csv, "\",%.0f,%.6g\n", scaled, (double)used / scaled);
}

int rp_write_proportions(FILE *md, FILE *csv, const char *paper,
			 const char *preset, const char *workloads,
			 char **opts, int nopts)
{
	const struct ng_paper *np = ng_paper_find(paper);
	const char *size = size_opt(opts, nopts);
	char wls[1024], err[256] = "", b1[32], b2[32], *save = NULL;
	uint64_t pc, rc;
	const struct ng_key *k;
	double scale;

	if (!np || !np->proportion_key)
		return 0;
	k = ng_config_find_key(np->proportion_key);
	if (!k) {
		fprintf(md, "\n## Proportions\n\nNot known: no key %s.\n",
			np->proportion_key);
		return 0;
	}
	if (cache_sizes(np, preset, k, opts, nopts, &pc, &rc, err,
			sizeof(err))) {
		fprintf(md, "\n## Proportions\n\nNot known: %s.\n", err);
		return 0;
	}
	scale = (double)pc / (double)rc;
	fprintf(md, "\n## Proportions\n\n"
		"The regime's `%s` is %s where the paper's machine has %s (1/%.4g):\n"
		"a workload keeps the paper's proportion of input to that cache at\n"
		"1/%.4g of the paper's input (`at scale`). `size`: what it ran at,\n"
		"bytes per array (--size); `ratio`: size / at scale (1: the paper's\n"
		"proportion; above 1, more input per byte of cache than the paper's).\n"
		"A workload whose paper gives no size has none. Also proportions.csv.\n\n"
		"| workload | size | paper's input (source) | at scale | ratio |\n"
		"|---|---|---|---|---|\n",
		np->proportion_key, ng_format_bytes(rc, b1, sizeof(b1)),
		ng_format_bytes(pc, b2, sizeof(b2)), scale, scale);
	fprintf(csv, "workload,size_bytes,paper_bytes,paper_source,at_scale_bytes,ratio\n");
	snprintf(wls, sizeof(wls), "%s", workloads);
	for (char *w = strtok_r(wls, ",", &save); w;
	     w = strtok_r(NULL, ",", &save)) {
		const struct ng_workload *wl = ng_workload_find(w);

		if (wl)
			row(md, csv, wl, size_used(wl, size), scale);
	}
	return 1;
}
