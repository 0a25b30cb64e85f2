// SPDX-License-Identifier: GPL-2.0
/*
 * ngemu sweep's points (sweep.h): workloads x systems x the grid's
 * values, each with the arguments of its run and the hash of its
 * configuration as the run resolves it.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <linux/numagpu.h>

#include "../commands.h"
#include "../size_spec.h"
#include "sweep.h"
#include "ngemu/config.h"
#include "ngemu/workloads/workload.h"

/* Whether @v[@i] is "--size paper[/N]" (or "--size=paper..."). */
static bool paper_size(char *const *v, int n, int i)
{
	if (!strncmp(v[i], "--size=paper", 12))
		return true;
	return !strcmp(v[i], "--size") && i + 1 < n && !strncmp(v[i + 1], "paper", 5);
}

int sweep_size_of(struct sweep *s, char *val)
{
	char *eq = strchr(val, '=');
	struct size_spec sz;

	if (!eq || eq == val || size_spec_parse(eq + 1, &sz))
		return usage_error("sweep", "--size-of '%s': WORKLOAD=SIZE, SIZE as --size takes it",
				   val);
	*eq = '\0';
	if (!ng_workload_find(val)) {
		usage_error("sweep", "--size-of: unknown workload '%s' (see 'ngemu bench --list')",
			    val);
		*eq = '=';
		return NG_EXIT_USAGE;
	}
	*eq = '=';
	if (s->nsize_of >= sizeof(s->size_of) / sizeof(s->size_of[0]))
		return usage_error("sweep", "too many --size-of");
	s->size_of[s->nsize_of++] = val;
	return 0;
}

/* --size-of's SIZE for workload @wl (the last given), or NULL. */
static char *size_of(const struct sweep *s, const char *wl)
{
	size_t n = strlen(wl);
	char *val = NULL;

	for (unsigned int i = 0; i < s->nsize_of; i++)
		if (!strncmp(s->size_of[i], wl, n) && s->size_of[i][n] == '=')
			val = s->size_of[i] + n + 1;
	return val;
}

bool sweep_paper_default(const struct sweep *s, const char *wl)
{
	if (size_of(s, wl))
		return false;
	for (int i = 0; i < s->npass; i++)
		if (paper_size(s->pass, s->npass, i))
			return !ng_workload_paper_size(ng_workload_find(wl));
	return false;
}

/* Whether @v[@i] is --size (or --size=...). */
static bool any_size(char *const *v, int i)
{
	return !strcmp(v[i], "--size") || !strncmp(v[i], "--size=", 7);
}

/* The arguments of point @p's run, after "bench" (NULL-terminated). */
int sweep_point_args(const struct sweep *s, const struct sw_point *p,
		     char **v, char bufs[][64])
{
	char *own = size_of(s, p->wl);
	int n = 0;

	v[n++] = "--compare";
	v[n++] = (char *)p->wl;
	v[n++] = "--systems";
	v[n++] = (char *)p->sys;
	for (int i = 0; i < s->npass; i++) {
		/*
		 * a workload no paper sizes runs at its default size, and
		 * one --size-of sizes at its own
		 */
		if ((paper_size(s->pass, s->npass, i) &&
		     !ng_workload_paper_size(ng_workload_find(p->wl))) ||
		    (own && any_size(s->pass, i))) {
			i += strchr(s->pass[i], '=') ? 0 : 1;
			continue;
		}
		v[n++] = s->pass[i];
	}
	if (own) {
		v[n++] = "--size";
		v[n++] = own;
	}
	for (unsigned int k = 0; k < s->nkey; k++) {
		snprintf(bufs[k], 64, "--%s", s->key[k].name);
		v[n++] = bufs[k];
		v[n++] = s->key[k].val[p->vi[k]];
	}
	v[n] = NULL;
	return n;
}

static uint64_t fnv(uint64_t h, const void *p, size_t n)
{
	const unsigned char *c = p;

	for (size_t i = 0; i < n; i++)
		h = (h ^ c[i]) * 0x100000001b3ULL;
	return h;
}

/*
 * Point @p's hash: its configuration as `bench --compare` resolves it
 * (the family's regime, the options, the system's settings), printed;
 * the workload, the system, the options that are not config keys, and
 * ngemu's version.
 */
static int point_hash(const struct sweep *s, struct sw_point *p,
		      struct ng_config *out)
{
	char *v[SW_MAX_ARGS + 2 * SW_MAX_KEYS + 8], *args[SW_MAX_ARGS + 32];
	char *rest[SW_MAX_ARGS + 32], bufs[SW_MAX_KEYS][64];
	char err[512] = "unknown system";
	const struct ng_paper_system *sys;
	const struct ng_paper *paper;
	struct ng_config cfg;
	int n = sweep_point_args(s, p, v, bufs), na = 0, nrest = 0;
	char *text = NULL;
	size_t len = 0;
	FILE *f;
	uint64_t h = 0xcbf29ce484222325ULL;
	char ver[32];

	/* the paper's regime first, as bench --compare starts from it */
	args[0] = "bench";
	for (int i = 0; i < n; i++)
		args[i + 1] = v[i];
	paper = cmp_paper(n + 1, args);
	na = 1;
	for (unsigned int i = 0; i < paper->nregime; i++)
		args[na++] = (char *)paper->regime[i];
	for (int i = 0; i < n; i++)
		args[na++] = v[i];
	sys = ng_paper_system_find(p->sys, strlen(p->sys), NULL);
	if (ng_config_from_args(&cfg, na, args, rest,
				(int)(sizeof(rest) / sizeof(rest[0])), &nrest,
				err, sizeof(err)) ||
	    !sys || cmp_apply(&cfg, sys, err, sizeof(err))) {
		fprintf(stderr, "ngemu sweep: %s/%s: %s\n", p->wl, p->sys, err);
		return -EINVAL;
	}
	f = open_memstream(&text, &len);
	if (!f)
		return -ENOMEM;
	ng_config_print(&cfg, f);
	fclose(f);
	snprintf(ver, sizeof(ver), "%d.%d.%d", NUMAGPU_VERSION_MAJOR,
		 NUMAGPU_VERSION_MINOR, NUMAGPU_VERSION_PATCH);
	h = fnv(h, ver, strlen(ver) + 1);
	h = fnv(h, text, len);
	for (int i = 0; i < nrest; i++)
		h = fnv(h, rest[i], strlen(rest[i]) + 1);
	free(text);
	snprintf(p->hash, sizeof(p->hash), "%016llx", (unsigned long long)h);
	*out = cfg;
	return 0;
}

int sweep_plan(struct sweep *s)
{
	size_t n = (size_t)s->nwl * (s->nsys ? s->nsys : 1);
	struct ng_config *cfg;

	for (unsigned int k = 0; k < s->nkey; k++)
		n *= s->key[k].nval;
	s->pt = calloc(n, sizeof(*s->pt));
	/* each point's configuration, to tell which grid keys it uses */
	cfg = calloc(n, sizeof(*cfg));
	if (!s->pt || !cfg) {
		free(cfg);
		return -ENOMEM;
	}
	for (size_t i = 0; i < n; i++) {
		struct sw_point *p = &s->pt[i];
		size_t r = i;

		for (int k = (int)s->nkey - 1; k >= 0; k--) {
			p->vi[k] = (unsigned int)(r % s->key[k].nval);
			r /= s->key[k].nval;
		}
		p->sys = s->nsys ? s->syss[r % s->nsys] : NULL;
		r /= s->nsys ? s->nsys : 1;
		p->wl = s->wls[r];
		if (!p->sys) {
			const char *fv[] = { "bench", "--system", s->preset,
					     NULL };

			p->sys = cmp_paper(s->preset ? 3 : 1,
					   (char **)fv)->ref;
		}
		if (point_hash(s, p, &cfg[i])) {
			free(cfg);
			return -EINVAL;
		}
	}
	s->npt = n;
	sweep_inert_mark(s, cfg);
	free(cfg);
	return 0;
}
