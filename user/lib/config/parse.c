// SPDX-License-Identifier: GPL-2.0
/*
 * Reading configurations: values by key (typed by their struct ng_key),
 * "key = value" files, and command lines.
 */
#include <ctype.h>
#include <errno.h>
#include <limits.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "ngemu/config.h"
#include "ngemu/util/err.h"

int ng_parse_size(const char *s, uint64_t *out)
{
	char *end;
	unsigned long long v;
	unsigned int shift = 0;

	if (!s || !isdigit((unsigned char)*s))
		return -EINVAL;
	errno = 0;
	v = strtoull(s, &end, 0);
	if (errno)
		return -EINVAL;
	switch (toupper((unsigned char)*end)) {
	case 'K':
		shift = 10;
		break;
	case 'M':
		shift = 20;
		break;
	case 'G':
		shift = 30;
		break;
	case 'T':
		shift = 40;
		break;
	}
	if (shift)
		end++;
	if (shift && (*end == 'i' || *end == 'I'))
		end++;
	if (shift && (*end == 'B' || *end == 'b'))
		end++;
	if (!shift && (*end == 'B' || *end == 'b'))
		end++;
	if (*end)
		return -EINVAL;
	if (shift && v > (ULLONG_MAX >> shift))
		return -ERANGE;
	*out = v << shift;
	return 0;
}

static int parse_bool(const char *s, bool *b)
{
	if (!s || !strcmp(s, "1") || !strcmp(s, "yes") || !strcmp(s, "true") ||
	    !strcmp(s, "on")) {
		*b = true;
		return 0;
	}
	if (!strcmp(s, "0") || !strcmp(s, "no") || !strcmp(s, "false") ||
	    !strcmp(s, "off")) {
		*b = false;
		return 0;
	}
	return -EINVAL;
}

static int parse_enum(const char *s, const char *const *names, size_t n)
{
	for (size_t i = 0; i < n; i++)
		if (names[i] && !strcmp(s, names[i]))
			return (int)i;
	return -1;
}

/* "a, b or c" of an enum's names, for messages. */
static void name_list(const struct ng_key *k, unsigned int n, char *buf,
		      size_t len)
{
	size_t at = 0;

	buf[0] = '\0';
	for (unsigned int i = 0; i < n && at < len; i++)
		at += (size_t)snprintf(buf + at, len - at, "%s%s",
				       i == 0 ? "" : i + 1 == n ? " or " : ", ",
				       k->names[i]);
}

static int set_place(struct ng_config *c, const char *value, char *err,
		     size_t errlen)
{
	int v;

	if (!strncmp(value, "node:", 5)) {
		char *end;
		unsigned long g = strtoul(value + 5, &end, 10);

		if (!isdigit((unsigned char)value[5]) || *end ||
		    g >= NG_MAX_GPUS) {
			ng_seterr(err, errlen,
				  "placement: '%s' needs a GPU number (node:0..%d)",
				  value, NG_MAX_GPUS - 1);
			return -EINVAL;
		}
		c->place_node = (unsigned int)g;
		c->placement = NG_PLACE_NODE;
		return 0;
	}
	/* every name but "node", which needs its :G */
	v = parse_enum(value, ng_placement_names, NG_PLACE_NODE);
	if (v < 0) {
		ng_seterr(err, errlen,
			  "placement: '%s' is not first-touch, fgp, cgp, coda, host or node:G",
			  value);
		return -EINVAL;
	}
	c->placement = (enum ng_placement)v;
	return 0;
}

/* "6.25%": a share of each GPU's memory, in bytes once resolved. */
static int set_pct(struct ng_config *c, const struct ng_key *k,
		   const char *value, char *err, size_t errlen)
{
	char *end;
	double p;

	errno = 0;
	p = strtod(value, &end);
	if (end == value || strcmp(end, "%") || errno ||
	    !(p > 0 && (k->pct_max ? p <= k->pct_max : p < 100))) {
		if (k->pct_max)
			ng_seterr(err, errlen,
				  "%s: '%s' is not a share above 0%% and up to %g%%",
				  k->name, value, k->pct_max);
		else
			ng_seterr(err, errlen,
				  "%s: '%s' is not a share of memory above 0%% and below 100%%",
				  k->name, value);
		return -EINVAL;
	}
	*(double *)(void *)((char *)c + k->pct_off) = p;
	ng_config_resolve(c);
	return 0;
}

void ng_config_resolve(struct ng_config *c)
{
	if (c->rdc.pct > 0 && c->line) {
		uint64_t b = (uint64_t)((double)c->mem_per_gpu * c->rdc.pct / 100);

		c->rdc.size = b / c->line * c->line;
	}
}

int ng_config_set(struct ng_config *c, const char *key, const char *value,
		  char *err, size_t errlen)
{
	const struct ng_key *k;
	char *base = (char *)c;
	char names[128];
	int v;

	if (!strcmp(key, "system"))
		return ng_config_preset(c, value, err, errlen);
	k = ng_config_find_key(key);
	if (!k) {
		ng_seterr(err, errlen, "unknown parameter '%s'", key);
		return -ENOENT;
	}
	if (!value && k->type != NG_KEY_BOOL) {
		ng_seterr(err, errlen, "%s needs a value", key);
		return -EINVAL;
	}
	switch (k->type) {
	case NG_KEY_UINT: {
		char *end;
		unsigned long long n;

		errno = 0;
		n = strtoull(value, &end, 10);
		if (!isdigit((unsigned char)*value) || *end || errno) {
			ng_seterr(err, errlen, "%s: '%s' is not a whole number",
				  key, value);
			return -EINVAL;
		}
		if ((double)n < k->min || (double)n > k->max) {
			ng_seterr(err, errlen, "%s: %llu is out of range (%.0f-%.0f)",
				  key, n, k->min, k->max);
			return -EINVAL;
		}
		*(unsigned int *)(void *)(base + k->off) = (unsigned int)n;
		break;
	}
	case NG_KEY_SIZE_PCT:
	case NG_KEY_SIZE: {
		uint64_t n;

		if (k->type == NG_KEY_SIZE_PCT && strchr(value, '%'))
			return set_pct(c, k, value, err, errlen);
		if (ng_parse_size(value, &n)) {
			ng_seterr(err, errlen,
				  "%s: '%s' is not a size (e.g. 4096, 64K, 2M, 1G)",
				  key, value);
			return -EINVAL;
		}
		if ((double)n < k->min || (double)n > k->max) {
			ng_seterr(err, errlen, "%s: %s is out of range (%.0f-%.0f)",
				  key, value, k->min, k->max);
			return -EINVAL;
		}
		*(uint64_t *)(void *)(base + k->off) = n;
		if (k->type == NG_KEY_SIZE_PCT)
			*(double *)(void *)(base + k->pct_off) = 0;
		break;
	}
	case NG_KEY_DOUBLE: {
		char *end;
		double d;

		errno = 0;
		d = strtod(value, &end);
		if (end == value || *end || errno || !isfinite(d)) {
			ng_seterr(err, errlen, "%s: '%s' is not a number", key,
				  value);
			return -EINVAL;
		}
		if (d < k->min || d > k->max) {
			ng_seterr(err, errlen, "%s: %g is out of range (%g-%g)",
				  key, d, k->min, k->max);
			return -EINVAL;
		}
		*(double *)(void *)(base + k->off) = d;
		break;
	}
	case NG_KEY_BOOL:
		if (parse_bool(value, (bool *)(void *)(base + k->off))) {
			ng_seterr(err, errlen, "%s: '%s' is not yes or no", key,
				  value);
			return -EINVAL;
		}
		break;
	case NG_KEY_ENUM:
		v = parse_enum(value, k->names, k->nnames);
		if (v < 0) {
			name_list(k, k->nnames, names, sizeof(names));
			ng_seterr(err, errlen, "%s: '%s' is not %s", key, value,
				  names);
			return -EINVAL;
		}
		/* the config's enums are unsigned int sized (gcc, clang) */
		*(unsigned int *)(void *)(base + k->off) = (unsigned int)v;
		break;
	case NG_KEY_PLACE:
		return set_place(c, value, err, errlen);
	}
	return 0;
}

static char *trim(char *s)
{
	char *e;

	while (isspace((unsigned char)*s))
		s++;
	e = s + strlen(s);
	while (e > s && isspace((unsigned char)e[-1]))
		*--e = '\0';
	return s;
}

/*
 * A file that cannot be read whole is an error, never an empty config:
 * fopen() opens a directory for reading and fgets() then reads nothing.
 */
static FILE *open_config(const char *path, char *err, size_t errlen)
{
	FILE *f = fopen(path, "r");
	struct stat st;

	if (!f) {
		int e = errno;

		ng_seterr(err, errlen, "cannot read config file %s: %s", path,
			  strerror(e));
		errno = e;
		return NULL;
	}
	if (fstat(fileno(f), &st) || S_ISDIR(st.st_mode)) {
		int e = S_ISDIR(st.st_mode) ? EISDIR : errno;

		ng_seterr(err, errlen, "cannot read config file %s: %s", path,
			  strerror(e));
		fclose(f);
		errno = e;
		return NULL;
	}
	return f;
}

/* One "key = value" line (comment and blanks stripped); 0 or -EINVAL. */
static int load_line(struct ng_config *c, const char *path, unsigned int lineno,
		     char *line, char *err, size_t errlen)
{
	char *hash = strchr(line, '#'), *eq, *key, *val, msg[384];

	if (hash)
		*hash = '\0';
	key = trim(line);
	if (!*key)
		return 0;
	eq = strchr(key, '=');
	if (!eq) {
		ng_seterr(err, errlen, "%s:%u: expected 'key = value', got '%.64s%s'",
			  path, lineno, key, strlen(key) > 64 ? "..." : "");
		return -EINVAL;
	}
	*eq = '\0';
	val = trim(eq + 1);
	key = trim(key);
	if (!*val) {
		ng_seterr(err, errlen, "%s:%u: %s has no value", path, lineno,
			  key);
		return -EINVAL;
	}
	if (ng_config_set(c, key, val, msg, sizeof(msg))) {
		ng_seterr(err, errlen, "%s:%u: %s", path, lineno, msg);
		return -EINVAL;
	}
	return 0;
}

int ng_config_load(struct ng_config *c, const char *path, char *err,
		   size_t errlen)
{
	FILE *f = open_config(path, err, errlen);
	unsigned int lineno = 0;
	char *line = NULL;
	size_t cap = 0;
	int ret = 0;

	if (!f)
		return -errno;
	/* lines of any length: a long comment is still a comment */
	errno = 0;
	while (!ret && getline(&line, &cap, f) >= 0) {
		lineno++;
		ret = load_line(c, path, lineno, line, err, errlen);
		errno = 0;
	}
	if (!ret && ferror(f)) {
		ret = errno ? -errno : -EIO;
		ng_seterr(err, errlen, "cannot read config file %s: %s (after line %u)",
			  path, strerror(-ret), lineno);
	}
	free(line);
	fclose(f);
	return ret;
}

/* "--key=value" or "--key value": the key, its value, and args used. */
static int split_opt(int argc, char **argv, int i, char *key, size_t keylen,
		     const char **val, bool *is_flag_out, bool *known)
{
	const char *a = argv[i] + 2, *eq = strchr(a, '=');
	size_t n = eq ? (size_t)(eq - a) : strlen(a);
	bool is_flag = false;

	if (n >= keylen)
		n = keylen - 1;
	memcpy(key, a, n);
	key[n] = '\0';
	*known = !strcmp(key, "system") || !strcmp(key, "config") ||
		 ng_config_key(key, &is_flag);
	if (!*known && !strncmp(key, "no-", 3) &&
	    ng_config_key(key + 3, &is_flag) && is_flag && !eq) {
		memmove(key, key + 3, strlen(key + 3) + 1);
		*known = true;
		*is_flag_out = true;
		*val = "no";
		return 1;
	}
	*is_flag_out = is_flag;
	if (eq) {
		*val = eq + 1;
		return 1;
	}
	if (is_flag) {
		*val = NULL;
		return 1;
	}
	*val = i + 1 < argc ? argv[i + 1] : NULL;
	return 2;
}

/* Keep @arg in @rest, which holds @cap; false with a message if full. */
static bool keep(char **rest, int cap, int *nrest, char *arg, char *err,
		 size_t errlen)
{
	if (*nrest >= cap) {
		ng_seterr(err, errlen,
			  "too many arguments: more than %d that are not config options",
			  cap);
		return false;
	}
	rest[(*nrest)++] = arg;
	return true;
}

/*
 * The next config option at or after argv[*i], before any "--": its key
 * and value (split_opt()), *i left past it; false when there is none.
 */
static bool next_option(int argc, char **argv, int *i, char *key, size_t klen,
			const char **val, bool *flag)
{
	for (; *i < argc; (*i)++) {
		bool known;
		int used;

		if (!strcmp(argv[*i], "--"))
			return false;
		if (strncmp(argv[*i], "--", 2))
			continue;
		used = split_opt(argc, argv, *i, key, klen, val, flag, &known);
		if (!known)
			continue;
		*i += used;
		return true;
	}
	return false;
}

/* Every --config FILE of the command line, in order; 0 or -EINVAL. */
static int load_files(struct ng_config *cfg, int argc, char **argv, char *err,
		      size_t errlen)
{
	const char *val;
	char key[64];
	bool flag;

	for (int i = 1; next_option(argc, argv, &i, key, sizeof(key), &val, &flag);)
		if (!strcmp(key, "config") && ng_config_load(cfg, val, err, errlen))
			return -EINVAL;
	return 0;
}

int ng_config_from_args(struct ng_config *cfg, int argc, char **argv,
			char **rest, int restcap, int *nrest, char *err,
			size_t errlen)
{
	const char *preset = "carve", *val;
	char key[64], msg[384];
	bool flag;
	int ret;

	*nrest = 0;
	/* pass 1: the preset, which the files and the options then override */
	for (int i = 1; next_option(argc, argv, &i, key, sizeof(key), &val, &flag);) {
		if (!val && !flag) {
			ng_seterr(err, errlen, "option '--%s' needs a value", key);
			return -EINVAL;
		}
		if (!strcmp(key, "system"))
			preset = val;
	}
	ret = ng_config_preset(cfg, preset, err, errlen);
	if (ret)
		return ret;
	/* pass 2: the files, each over the ones before it */
	ret = load_files(cfg, argc, argv, err, errlen);
	if (ret)
		return ret;
	for (int i = 1; i < argc; i++) {
		bool known;
		int used;

		if (!strcmp(argv[i], "--")) {
			while (++i < argc)
				if (!keep(rest, restcap, nrest, argv[i], err, errlen))
					return -EINVAL;
			break;
		}
		if (strncmp(argv[i], "--", 2)) {
			if (!keep(rest, restcap, nrest, argv[i], err, errlen))
				return -EINVAL;
			continue;
		}
		used = split_opt(argc, argv, i, key, sizeof(key), &val, &flag,
				 &known);
		if (!known) {
			if (!keep(rest, restcap, nrest, argv[i], err, errlen))
				return -EINVAL;
			continue;
		}
		i += used - 1;
		if (!strcmp(key, "system") || !strcmp(key, "config"))
			continue;
		if (ng_config_set(cfg, key, val, msg, sizeof(msg))) {
			ng_seterr(err, errlen, "--%s", msg);
			return -EINVAL;
		}
	}
	ng_config_resolve(cfg);
	return ng_config_validate(cfg, err, errlen);
}
