// SPDX-License-Identifier: GPL-2.0
/*
 * The papers ngemu reproduces (ngemu/paper.h), listed once with their
 * presets (lib/config/papers.h), and those a program of its own adds.
 */
#include <errno.h>
#include <stdio.h>
#include <string.h>

#include "config/papers.h"
#include "ngemu/paper.h"

#define NG_PAPER_DECL(n) extern const struct ng_paper ng_paper_##n;
NG_PAPERS(NG_PAPER_DECL)
#define NG_PAPER_PTR(n) &ng_paper_##n,
static const struct ng_paper *const builtin[] = { NG_PAPERS(NG_PAPER_PTR) };

#define NBUILTIN (sizeof(builtin) / sizeof(builtin[0]))

static const struct ng_paper *const *added;
static unsigned int nadded;

const struct ng_paper *ng_paper_at(unsigned int i)
{
	if (i < NBUILTIN)
		return builtin[i];
	return i - NBUILTIN < nadded ? added[i - NBUILTIN] : NULL;
}

const struct ng_paper *ng_paper_find(const char *name)
{
	const struct ng_paper *p;

	for (unsigned int i = 0; name && (p = ng_paper_at(i)); i++)
		if (!strcmp(p->name, name))
			return p;
	return NULL;
}

const struct ng_paper *ng_paper_of_preset(const char *preset)
{
	const struct ng_paper *p;

	for (unsigned int i = 0; preset && (p = ng_paper_at(i)); i++)
		if (!strcmp(p->preset, preset))
			return p;
	return NULL;
}

const struct ng_paper_system *ng_paper_system_find(const char *name,
						   size_t len,
						   const struct ng_paper **paper)
{
	const struct ng_paper *p;

	for (unsigned int i = 0; (p = ng_paper_at(i)); i++) {
		for (unsigned int s = 0; s < p->nsystems; s++) {
			const struct ng_paper_system *sys = &p->systems[s];

			if (strlen(sys->name) != len ||
			    strncmp(sys->name, name, len))
				continue;
			if (paper)
				*paper = p;
			return sys;
		}
	}
	return NULL;
}

static bool has_col(const struct ng_paper *p, const char *name)
{
	for (unsigned int i = 0; i < p->ncols; i++)
		if (!strcmp(p->cols[i]->name, name))
			return true;
	return false;
}

static bool holds(const struct ng_paper *p, const char *name, size_t len)
{
	for (unsigned int s = 0; s < p->nsystems; s++)
		if (strlen(p->systems[s].name) == len &&
		    !strncmp(p->systems[s].name, name, len))
			return true;
	return false;
}

/* Whether every system of the comma list @list is @p's. */
static bool holds_all(const struct ng_paper *p, const char *list)
{
	for (const char *s = list; s && *s;) {
		size_t len = strcspn(s, ",");

		if (!holds(p, s, len))
			return false;
		s += len + (s[len] == ',');
	}
	return true;
}

/* Why @p cannot join the papers, or NULL. */
static const char *refused(const struct ng_paper *p)
{
	static const char *const needed[] = {
		"system", "verified", "modeled_s", "remote_fraction",
		"link_fraction", "link_bytes",
	};

	if (!p->name || !*p->name || !p->preset || !p->systems ||
	    !p->nsystems || !p->cols || !p->defaults || !p->ref)
		return "a name, a preset, systems, columns, defaults and a reference are needed";
	if (ng_paper_find(p->name))
		return "a paper of that name exists";
	if (p->nregime > NG_PAPER_MAX_REGIME)
		return "its regime has more options than NG_PAPER_MAX_REGIME";
	for (unsigned int i = 0; i < sizeof(needed) / sizeof(needed[0]); i++)
		if (!has_col(p, needed[i]))
			return "its table lacks a column ngemu sweep reads (system, verified, modeled_s, remote_fraction, link_fraction, link_bytes)";
	for (unsigned int s = 0; s < p->nsystems; s++)
		if (ng_paper_system_find(p->systems[s].name,
					 strlen(p->systems[s].name), NULL))
			return "a system's name is taken";
	if (!holds(p, p->ref, strlen(p->ref)) ||
	    (p->norm && !holds(p, p->norm, strlen(p->norm))) ||
	    !holds_all(p, p->defaults) || !holds_all(p, p->reproduce))
		return "its reference, norm or default systems are not its own";
	return NULL;
}

int ng_papers_add(const struct ng_paper *const *papers)
{
	unsigned int n = 0;

	if (added) {
		fprintf(stderr, "ngemu: papers can be added once\n");
		return -EINVAL;
	}
	for (; papers && papers[n]; n++) {
		const char *why = refused(papers[n]);

		if (why) {
			fprintf(stderr, "ngemu: paper '%s': %s\n",
				papers[n]->name ? papers[n]->name : "", why);
			nadded = 0;
			added = NULL;
			return -EINVAL;
		}
		/* so that the next paper's names are checked against it */
		added = papers;
		nadded = n + 1;
	}
	added = papers;
	nadded = n;
	return 0;
}
