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

#define PR_MAX_ARGS	160
/* threads of the block a one-wave floor assumes (reproduce.h) */
#define PR_WAVE_BLOCK	256

/* Size key @k's bytes in @c (after ng_config_resolve()). */
static uint64_t key_bytes(const struct ng_config *c, const struct ng_key *k)
{
	return *(const uint64_t *)((const char *)c + k->off);
}

/*
 * The bytes of @k in preset @preset, the paper's machine (*paper), and in
 * @np's regime with the options @opts over it (*regime; that regime's
 * configuration in *@rc). 0, or -EINVAL with why in @err.
 */
static int cache_sizes(const struct ng_paper *np, const char *preset,
		       const struct ng_key *k, char **opts, int nopts,
		       uint64_t *paper, uint64_t *regime, struct ng_config *rc,
		       char *err, size_t errlen)
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
	*rc = c;
	if (!*paper || !*regime) {
		snprintf(err, errlen, "%s is 0 in the %s", k->name,
			 *paper ? "regime" : "paper's preset");
		return -EINVAL;
	}
	return 0;
}

/*
 * The value of the last "--size VALUE" (@opt "--size") or "--size-of
 * @wl=VALUE" (@opt "--size-of") of @opts; NULL: none.
 */
static const char *opt_val(char **opts, int nopts, const char *opt,
			   const char *wl)
{
	size_t ol = strlen(opt), wlen = wl ? strlen(wl) : 0;
	const char *val = NULL;

	for (int i = 0; i < nopts; i++) {
		const char *v = NULL;

		if (!strcmp(opts[i], opt) && i + 1 < nopts)
			v = opts[++i];
		else if (!strncmp(opts[i], opt, ol) && opts[i][ol] == '=')
			v = opts[i] + ol + 1;
		if (v && wl && (strncmp(v, wl, wlen) || v[wlen] != '='))
			continue;
		if (v)
			val = wl ? v + wlen + 1 : v;
	}
	return val;
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

/*
 * The paper's cache against the regime's, as the scale and the regime's
 * configuration (*@c). 0, or -EINVAL with why in @err (@np names no
 * cache, or the cache is no size).
 */
static int regime_scale(const struct ng_paper *np, const char *preset,
			char **opts, int nopts, double *scale,
			struct ng_config *c, uint64_t *pc, uint64_t *rc,
			char *err, size_t errlen)
{
	const struct ng_key *k;

	if (!np || !np->proportion_key) {
		snprintf(err, errlen, "%s%s names no cache to hold inputs against",
			 np ? "paper " : "", np ? np->name : "no paper");
		return -EINVAL;
	}
	k = ng_config_find_key(np->proportion_key);
	if (!k) {
		snprintf(err, errlen, "no key %s", np->proportion_key);
		return -EINVAL;
	}
	if (cache_sizes(np, preset, k, opts, nopts, pc, rc, c, err, errlen))
		return -EINVAL;
	*scale = (double)*pc / (double)*rc;
	return 0;
}

const char *const rp_sized_names[] = {
	[RP_SIZED_SCALE] = "at scale",
	[RP_SIZED_WAVE] = "raised to one wave",
	[RP_SIZED_CAP] = "capped at half the device memory",
	[RP_SIZED_CAP_WAVE] = "capped at half the device memory, below one wave",
	[RP_SIZED_NO_PAPER] = "no paper size: its default",
};

/* @ps for @w at scale @scale on the regime @c. */
static void prop_size(const struct ng_workload *w, double scale,
		      const struct ng_config *c, struct rp_prop_size *ps)
{
	unsigned int blocks = ng_resident_blocks(c, PR_WAVE_BLOCK, 0);
	uint64_t psize = ng_workload_paper_size(w);

	ps->wave_blocks = (uint64_t)c->gpus * c->sms * blocks;
	ps->wave = ps->wave_blocks * PR_WAVE_BLOCK * 4;
	ps->cap = c->mem_per_gpu * c->gpus / 2 / w->narrays / 4 * 4;
	ps->at_scale = (uint64_t)((double)psize / scale) / 4 * 4;
	if (!psize && w->default_size > ps->cap) {
		ps->bytes = ps->cap;
		ps->why = RP_SIZED_CAP;
	} else if (!psize) {
		ps->bytes = w->default_size;
		ps->why = RP_SIZED_NO_PAPER;
	} else if (ps->at_scale > ps->cap) {
		ps->bytes = ps->cap;
		ps->why = RP_SIZED_CAP;
	} else if (ps->at_scale >= ps->wave) {
		ps->bytes = ps->at_scale;
		ps->why = RP_SIZED_SCALE;
	} else if (ps->wave <= ps->cap) {
		ps->bytes = ps->wave;
		ps->why = RP_SIZED_WAVE;
	} else {
		ps->bytes = ps->cap;
		ps->why = RP_SIZED_CAP_WAVE;
	}
}

int rp_proportion_size(const char *paper, const char *preset,
		       const struct ng_workload *w, char **opts, int nopts,
		       struct rp_prop_size *ps, char *err, size_t errlen)
{
	struct ng_config c;
	uint64_t pc, rc;
	double scale;

	if (regime_scale(ng_paper_find(paper), preset, opts, nopts, &scale,
			 &c, &pc, &rc, err, errlen))
		return -EINVAL;
	prop_size(w, scale, &c, ps);
	return 0;
}

/* How @w came to run at its size: @ps when --size-of set it. */
static const char *sized(const struct ng_workload *w, const char *size,
			 const struct rp_prop_size *ps)
{
	if (ps)
		return rp_sized_names[ps->why];
	if (!size)
		return "its default";
	return !strncmp(size, "paper", 5) && !ng_workload_paper_size(w) ?
	       "no paper size: its default" : "--size";
}

/*
 * One workload's row; its paper's input at the regime's scale is @scaled;
 * how its size was chosen, @how.
 */
static void row(FILE *md, FILE *csv, const struct ng_workload *w,
		uint64_t used, double scale, const char *how)
{
	uint64_t psize = ng_workload_paper_size(w);
	double scaled = (double)psize / scale;
	char b1[32], b2[32], b3[32];

	ng_format_bytes(used, b1, sizeof(b1));
	if (!psize) {
		fprintf(md, "| %s | %s | %s | - | - | - |\n", w->name, b1, how);
		fprintf(csv, "%s,%llu,,,,,%s\n", w->name,
			(unsigned long long)used, how);
		return;
	}
	ng_format_bytes(psize, b2, sizeof(b2));
	ng_format_bytes((uint64_t)scaled, b3, sizeof(b3));
	fprintf(md, "| %s | %s | %s | %s (%s) | %s | %.3g |\n", w->name, b1,
		how, b2, w->paper_ref ? w->paper_ref : "", b3,
		(double)used / scaled);
	fprintf(csv, "%s,%llu,%llu,\"", w->name, (unsigned long long)used,
		(unsigned long long)psize);
	/* CSV doubles a quote inside a quoted field */
	for (const char *c = w->paper_ref ? w->paper_ref : ""; *c; c++) {
		if (*c == '"')
			fputc('"', csv);
		fputc(*c, csv);
	}
	fprintf(csv, "\",%.0f,%.6g,%s\n", scaled, (double)used / scaled, how);
}

int rp_write_proportions(FILE *md, FILE *csv, const char *paper,
			 const char *preset, const char *workloads,
			 char **opts, int nopts)
{
	const struct ng_paper *np = ng_paper_find(paper);
	const char *size = opt_val(opts, nopts, "--size", NULL);
	char wls[1024], err[256] = "", b1[32], b2[32], *save = NULL;
	struct rp_prop_size ps;
	struct ng_config c;
	uint64_t pc, rc;
	double scale;

	if (!np || !np->proportion_key)
		return 0;
	if (regime_scale(np, preset, opts, nopts, &scale, &c, &pc, &rc, err,
			 sizeof(err))) {
		fprintf(md, "\n## Proportions\n\nNot known: %s.\n", err);
		return 0;
	}
	fprintf(md, "\n## Proportions\n\n"
		"The regime's `%s` is %s where the paper's machine has %s (1/%.4g):\n"
		"a workload keeps the paper's proportion of input to that cache at\n"
		"1/%.4g of the paper's input (`at scale`). `size`: what it ran at,\n"
		"bytes per array (--size); `sized`: how that size was chosen (with\n"
		"--at-proportion, at scale unless that is below one wave of the\n"
		"regime's machine or above half its device memory); `ratio`: size /\n"
		"at scale (1: the paper's proportion; above 1, more input per byte of\n"
		"cache than the paper's). A workload whose paper gives no size has\n"
		"none. Also proportions.csv.\n\n"
		"| workload | size | sized | paper's input (source) | at scale | ratio |\n"
		"|---|---|---|---|---|---|\n",
		np->proportion_key, ng_format_bytes(rc, b1, sizeof(b1)),
		ng_format_bytes(pc, b2, sizeof(b2)), scale, scale);
	fprintf(csv, "workload,size_bytes,paper_bytes,paper_source,at_scale_bytes,ratio,sized\n");
	snprintf(wls, sizeof(wls), "%s", workloads);
	for (char *w = strtok_r(wls, ",", &save); w;
	     w = strtok_r(NULL, ",", &save)) {
		const struct ng_workload *wl = ng_workload_find(w);
		const char *of;

		if (!wl)
			continue;
		of = opt_val(opts, nopts, "--size-of", wl->name);
		if (of)
			prop_size(wl, scale, &c, &ps);
		/* a --size-of of the user's own is not --at-proportion's */
		row(md, csv, wl, size_used(wl, of ? of : size), scale,
		    of && size_used(wl, of) != ps.bytes ? "--size-of" :
		    sized(wl, of ? NULL : size, of ? &ps : NULL));
	}
	/* with --at-proportion, the wave that floors the sizes */
	if (!opt_val(opts, nopts, "--size-of", NULL))
		return 1;
	prop_size(ng_workload_at(0), scale, &c, &ps);
	fprintf(md, "\nOne wave of the regime's machine: %llu blocks (%u GPUs x %u SMs x\n"
		"%u resident %u-thread blocks), %s an array at a thread a 4-byte element.\n",
		(unsigned long long)ps.wave_blocks, c.gpus, c.sms,
		ng_resident_blocks(&c, PR_WAVE_BLOCK, 0), PR_WAVE_BLOCK,
		ng_format_bytes(ps.wave, b1, sizeof(b1)));
	return 1;
}
