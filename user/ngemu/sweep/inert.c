// SPDX-License-Identifier: GPL-2.0
/*
 * ngemu sweep's inert grid keys (sweep.h): a key whose values give a
 * point's system one configuration (the system sets the key itself), or
 * whose every value goes to a model component the configuration turns
 * off, sweeps nothing there. A researcher would read its flat line as a
 * measurement, so each such key is named with its reason, and a key that
 * is inert at every point of a sweep is refused: that sweep would measure
 * nothing along it.
 */
#include <stdio.h>
#include <string.h>

#include "sweep.h"
#include "../commands.h"
#include "ngemu/config.h"
#include "ngemu/model/component.h"

/* Whether configurations @a and @b hold the same value of key @k. */
static bool same_value(const struct ng_config *a, const struct ng_config *b,
		       const struct ng_key *k)
{
	const char *pa = (const char *)a + k->off, *pb = (const char *)b + k->off;

	switch (k->type) {
	case NG_KEY_UINT:
	case NG_KEY_ENUM:
		return *(const unsigned int *)(const void *)pa ==
		       *(const unsigned int *)(const void *)pb;
	case NG_KEY_SIZE:
	case NG_KEY_SIZE_PCT:
		return *(const uint64_t *)(const void *)pa ==
		       *(const uint64_t *)(const void *)pb;
	case NG_KEY_DOUBLE:
		return *(const double *)(const void *)pa ==
		       *(const double *)(const void *)pb;
	case NG_KEY_BOOL:
		return *(const bool *)(const void *)pa ==
		       *(const bool *)(const void *)pb;
	case NG_KEY_PLACE:
		return a->placement == b->placement &&
		       (a->placement != NG_PLACE_NODE ||
			a->place_node == b->place_node);
	}
	return false;
}

/* The model component whose keys hold @name, or NULL (the runtime's). */
static const struct ng_component *owner(const char *name)
{
	for (unsigned int i = 0; ng_components[i]; i++)
		for (const struct ng_key *k = ng_components[i]->keys;
		     k && k->name; k++)
			if (!strcmp(k->name, name))
				return ng_components[i];
	return NULL;
}

/* Points between two values of grid key @k (the later keys vary faster). */
static size_t stride(const struct sweep *s, unsigned int k)
{
	size_t n = 1;

	for (unsigned int j = k + 1; j < s->nkey; j++)
		n *= s->key[j].nval;
	return n;
}

/*
 * Whether the values of grid key @k differ as a configuration holds them
 * (on @c): "4M,4096K" or "4,4" are one value, which no system overrides.
 */
static bool values_differ(const struct sweep *s, unsigned int k,
			  const struct ng_key *key, const struct ng_config *c)
{
	struct ng_config a = *c, b = *c;
	char err[256];

	if (ng_config_set(&a, key->name, s->key[k].val[0], err, sizeof(err)))
		return false;
	ng_config_resolve(&a);
	for (unsigned int v = 1; v < s->key[k].nval; v++) {
		if (ng_config_set(&b, key->name, s->key[k].val[v], err, sizeof(err)))
			continue;
		ng_config_resolve(&b);
		if (!same_value(&a, &b, key))
			return true;
	}
	return false;
}

void sweep_inert_mark(struct sweep *s, const struct ng_config *cfg)
{
	for (unsigned int k = 0; k < s->nkey; k++) {
		const struct ng_key *key = ng_config_find_key(s->key[k].name);
		const struct ng_component *comp = owner(s->key[k].name);
		size_t st = stride(s, k);

		for (size_t i = 0; i < s->npt; i++) {
			struct sw_point *p = &s->pt[i];
			size_t first = i - p->vi[k] * st;
			bool same = true, on = false;

			p->inert[k] = SW_LIVE;
			/* one value varies nothing: a setting, not a sweep */
			if (!key || s->key[k].nval < 2)
				continue;
			for (unsigned int v = 0; v < s->key[k].nval; v++) {
				const struct ng_config *c = &cfg[first + v * st];

				same &= same_value(&cfg[first], c, key);
				on |= !comp || ng_component_enabled(comp, c);
			}
			if (same && values_differ(s, k, key, &cfg[first]))
				p->inert[k] = SW_SET_BY_SYSTEM;
			else if (!on)
				p->inert[k] = SW_UNREAD;
		}
	}
}

void sweep_inert_why(const struct sweep *s, const struct sw_point *p,
		     unsigned int k, char *buf, size_t len)
{
	const char *name = s->key[k].name;
	const struct ng_component *comp = owner(name);

	if (p->inert[k] == SW_SET_BY_SYSTEM)
		snprintf(buf, len, "system %s sets %s itself", p->sys, name);
	else if (p->inert[k] == SW_UNREAD && comp)
		snprintf(buf, len, "no component reads %s in %s (%s is off)",
			 name, p->sys, comp->name);
	else
		snprintf(buf, len, "%s is used", name);
}

/* Whether point @i is the first of its system among the points. */
static bool first_of_system(const struct sweep *s, size_t i)
{
	for (size_t j = 0; j < i; j++)
		if (!strcmp(s->pt[j].sys, s->pt[i].sys))
			return false;
	return true;
}

/* Points of system @sys: all of them (*@n) and those where key @k is inert. */
static size_t inert_count(const struct sweep *s, const char *sys,
			  unsigned int k, size_t *n)
{
	size_t in = 0;

	*n = 0;
	for (size_t i = 0; i < s->npt; i++) {
		if (strcmp(s->pt[i].sys, sys))
			continue;
		(*n)++;
		in += s->pt[i].inert[k] != SW_LIVE;
	}
	return in;
}

int sweep_inert_report(const struct sweep *s)
{
	for (unsigned int k = 0; k < s->nkey; k++) {
		size_t all = 0;
		bool fatal;

		for (size_t i = 0; i < s->npt; i++)
			all += s->pt[i].inert[k] != SW_LIVE;
		fatal = s->npt && all == s->npt;
		for (size_t i = 0; i < s->npt; i++) {
			const struct sw_point *p = &s->pt[i];
			size_t n, in;
			char why[160];

			if (!first_of_system(s, i))
				continue;
			in = inert_count(s, p->sys, k, &n);
			if (!in)
				continue;
			/* its reason where it is inert: the first such point */
			for (size_t j = i; j < s->npt; j++)
				if (!strcmp(s->pt[j].sys, p->sys) &&
				    s->pt[j].inert[k] != SW_LIVE) {
					sweep_inert_why(s, &s->pt[j], k, why,
							sizeof(why));
					break;
				}
			fprintf(stderr, "ngemu sweep: %s--grid %s is inert for %s%s: %s\n",
				fatal ? "" : "warning: ", s->key[k].name, p->sys,
				in < n ? " at some of the grid's points" : "", why);
		}
		if (fatal)
			return usage_error("sweep", "--grid %s: inert for every system of this sweep, which would measure nothing along it; sweep systems that use it (--systems)",
					   s->key[k].name);
	}
	return 0;
}

unsigned int sweep_differ(const struct sweep *s, const struct sw_point *a,
			  const struct sw_point *b)
{
	unsigned int mask = 0;

	for (unsigned int k = 0; k < s->nkey; k++)
		if (a->vi[k] != b->vi[k])
			mask |= 1u << k;
	return mask;
}

const char *sweep_keys_text(const struct sweep *s, unsigned int mask,
			    char *buf, size_t len)
{
	size_t at = 0;

	buf[0] = '\0';
	for (unsigned int k = 0; k < s->nkey && at < len; k++)
		if (mask & (1u << k))
			at += (size_t)snprintf(buf + at, len - at, "%s%s",
					       at ? ", " : "", s->key[k].name);
	return buf;
}
