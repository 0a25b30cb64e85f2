// SPDX-License-Identifier: GPL-2.0
/*
 * Configuration: presets, keys, config files. One table describes every key
 * so that files, options and --show cannot drift apart.
 */
#include <ctype.h>
#include <errno.h>
#include <limits.h>
#include <math.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "ngemu/config.h"
#include "util/util.h"

enum key_type { K_UINT, K_SIZE, K_DOUBLE, K_BOOL, K_PLACE, K_SCHED,
		K_BACKEND, K_COHER, K_REPL };

struct key {
	const char *name;
	enum key_type type;
	size_t off;
	double min, max;
	const char *help;
};

#define F(m) offsetof(struct ng_config, m)

static const struct key keys[] = {
	{ "gpus", K_UINT, F(gpus), 1, NG_MAX_GPUS, "emulated GPUs" },
	{ "sms", K_UINT, F(sms), 1, NG_MAX_SMS, "emulated SMs (worker threads) per GPU" },
	{ "sm-scale", K_UINT, F(sm_scale), 1, 1024, "real SMs one emulated SM stands for" },
	{ "mlp", K_UINT, F(mlp), 1, 65536, "outstanding line requests per emulated SM" },
	{ "blocks-per-sm", K_UINT, F(blocks_per_sm), 1, 1024, "resident blocks per SM (CODA affinity)" },
	{ "freq", K_DOUBLE, F(freq_ghz), 0.01, 100, "SM clock, GHz" },
	{ "line", K_UINT, F(line), 32, 256, "cache line, bytes (power of two; 4-byte word masks are 64 bits)" },
	{ "page", K_SIZE, F(page), 256, 1ULL << 30, "page, the placement unit (power of two)" },
	{ "mem-per-gpu", K_SIZE, F(mem_per_gpu), 1 << 20, (double)(1ULL << 46), "device memory per GPU" },
	{ "l2-size", K_SIZE, F(l2_size), 0, (double)(1ULL << 32), "L2 per GPU caching remote lines (0: off)" },
	{ "l2-ways", K_UINT, F(l2_ways), 1, 64, "L2 associativity" },
	{ "l2-latency", K_DOUBLE, F(l2_latency_ns), 0, 1e6, "L2 hit latency, ns" },
	{ "local-bw", K_DOUBLE, F(local_bw), 0.001, 1e6, "local memory bandwidth per GPU, GB/s" },
	{ "local-latency", K_DOUBLE, F(local_latency_ns), 0, 1e6, "local memory latency, ns" },
	{ "link-bw", K_DOUBLE, F(link_bw), 0.001, 1e6, "inter-GPU link bandwidth, each direction, GB/s" },
	{ "link-latency", K_DOUBLE, F(link_latency_ns), 0, 1e6, "inter-GPU link latency, one way, ns" },
	{ "flit", K_UINT, F(flit), 1, 4096, "link transfers round up to this, bytes" },
	{ "host-bw", K_DOUBLE, F(host_bw), 0.001, 1e6, "CPU-GPU link bandwidth per GPU, each direction, GB/s" },
	{ "host-latency", K_DOUBLE, F(host_latency_ns), 0, 1e6, "CPU-GPU link latency, one way, ns" },
	{ "placement", K_PLACE, F(placement), 0, 0, "first-touch, fgp, cgp, coda, host, node:G" },
	{ "fgp-granularity", K_SIZE, F(fgp_granularity), 4, 1ULL << 30, "FGP interleave chunk, bytes" },
	{ "sched", K_SCHED, F(sched), 0, 0, "CTA scheduler: rr, batch, coda" },
	{ "steal", K_BOOL, F(steal), 0, 0, "idle GPUs steal blocks" },
	{ "backend", K_BACKEND, F(backend), 0, 0, "memory backend: auto, user, kmod" },
	{ "deterministic", K_BOOL, F(deterministic), 0, 0, "all SMs on one thread, fixed order" },
	{ "seed", K_SIZE, F(seed), 0, 1.8e19, "random seed of workloads" },
	{ "inject", K_BOOL, F(inject), 0, 0, "inject remote costs as real delays" },
	{ "inject-batch", K_DOUBLE, F(inject_batch_us), 0.1, 1e6, "owed delay before a spin, us" },
	{ "shared", K_SIZE, F(shared_bytes), 0, 1 << 24, "shared memory per block, bytes" },
	{ "rdc-size", K_SIZE, F(rdc_size), 0, (double)(1ULL << 40), "CARVE remote data cache per GPU, carved out of its memory (0: off)" },
	{ "coherence", K_COHER, F(coherence), 0, 0, "RDC coherence: none, swc, hwc" },
	{ "imst-reset", K_DOUBLE, F(imst_reset), 0, 1, "HWC: probability a local write resets the IMST to private" },
	{ "replicate", K_REPL, F(replicate), 0, 0, "page replication baseline: none, ro (read-only shared pages), all (ideal)" },
};

#define NKEYS (sizeof(keys) / sizeof(keys[0]))

static const char *const place_names[] = {
	[NG_PLACE_FIRST_TOUCH] = "first-touch", [NG_PLACE_FGP] = "fgp",
	[NG_PLACE_CGP] = "cgp", [NG_PLACE_CODA] = "coda",
	[NG_PLACE_HOST] = "host", [NG_PLACE_NODE] = "node",
};
static const char *const sched_names[] = {
	[NG_SCHED_RR] = "rr", [NG_SCHED_BATCH] = "batch",
	[NG_SCHED_CODA] = "coda",
};
static const char *const backend_names[] = {
	[NG_MEM_AUTO] = "auto", [NG_MEM_USER] = "user", [NG_MEM_KMOD] = "kmod",
};

static const char *const coher_names[] = {
	[NG_COH_NONE] = "none", [NG_COH_SWC] = "swc", [NG_COH_HWC] = "hwc",
};
static const char *const repl_names[] = {
	[NG_REPL_NONE] = "none", [NG_REPL_RO] = "ro", [NG_REPL_ALL] = "all",
};

const char *ng_coherence_name(enum ng_coherence c)
{
	return (unsigned int)c < 3 ? coher_names[c] : "?";
}

const char *ng_replicate_name(enum ng_replicate r)
{
	return (unsigned int)r < 3 ? repl_names[r] : "?";
}

const char *ng_placement_name(enum ng_placement p)
{
	return (unsigned int)p < 6 ? place_names[p] : "?";
}

const char *ng_sched_name(enum ng_sched_kind s)
{
	return (unsigned int)s < 3 ? sched_names[s] : "?";
}

const char *ng_mem_backend_name(enum ng_mem_backend b)
{
	return (unsigned int)b < 3 ? backend_names[b] : "?";
}

const char *const ng_config_presets[] = { "carve", "dualopt", "rec", "coda",
					  NULL };

const char *ng_config_preset_desc(const char *name)
{
	if (!strcmp(name, "carve"))
		return "CARVE Table III: 4 GPUs, 128 B lines, 2 MB pages, 8 MB L2 each, 64 GB/s links, 1 TB/s HBM";
	if (!strcmp(name, "dualopt"))
		return "DualOpt: 4 GPUs, 64 B lines, 2 MB L2, 64 GB/s links in 16 B flits";
	if (!strcmp(name, "rec"))
		return "REC: 4 GPUs, 64 B lines, 2 MB L2, 300 GB/s bidirectional (150 each way), 1 TB/s HBM";
	if (!strcmp(name, "coda"))
		return "CODA Table 1: 4 GPUs x 4 SMs at 2 GHz, 1 MB L2, 256 GB/s local, 16 GB/s remote, FGP 128 B, affinity";
	return NULL;
}

int ng_config_preset(struct ng_config *c, const char *name, char *err,
		     size_t errlen)
{
	/*
	 * Common ground first. The papers' GPUs have 64 SMs x 64 warps; ngemu
	 * runs one thread per emulated SM, so a preset uses 4 emulated SMs per
	 * GPU that each stand for 16 real ones (sm-scale): issue rate and
	 * memory-level parallelism scale with it, keeping per-GPU totals.
	 * mlp 2048 = 16 SMs x 64 warps x 2 lines in flight, enough to cover
	 * 1 TB/s x 300 ns (Little's law) with some room.
	 */
	const struct ng_config base = {
		.gpus = 4, .sms = 4, .sm_scale = 16, .mlp = 2048,
		.blocks_per_sm = 8, .freq_ghz = 1.0, .line = 128,
		.page = 4096, .mem_per_gpu = 32ULL << 30,
		.l2_size = 8 << 20, .l2_ways = 16, .l2_latency_ns = 120,
		.local_bw = 1024, .local_latency_ns = 300,
		.link_bw = 64, .link_latency_ns = 250, .flit = 16,
		.host_bw = 32, .host_latency_ns = 500,
		.placement = NG_PLACE_FIRST_TOUCH, .fgp_granularity = 256,
		.sched = NG_SCHED_BATCH, .backend = NG_MEM_AUTO,
		.seed = 1, .inject_batch_us = 20, .shared_bytes = 48 << 10,
		.coherence = NG_COH_HWC, .imst_reset = 0.01,
	};

	if (!name || !ng_config_preset_desc(name)) {
		ng_seterr(err, errlen,
			  "unknown system preset '%s' (known: carve, dualopt, rec, coda)",
			  name ? name : "");
		return -EINVAL;
	}
	*c = base;
	if (!strcmp(name, "carve")) {
		c->page = 2 << 20;	/* Table III: 2 MB OS pages */
	} else if (!strcmp(name, "dualopt")) {
		c->line = 64;
		c->l2_size = 2 << 20;
		c->mem_per_gpu = 4ULL << 30;
		/*
		 * 32 L1 MSHRs x 16 CUs would be 512, which with 64 B lines
		 * cannot cover 1 TB/s x 300 ns; the memory side queues more.
		 */
		c->mlp = 2048;
	} else if (!strcmp(name, "rec")) {
		c->line = 64;
		c->l2_size = 2 << 20;
		c->mem_per_gpu = 4ULL << 30;
		c->link_bw = 150;
	} else if (!strcmp(name, "coda")) {
		c->sm_scale = 1;	/* CODA really has 4 SMs per GPU */
		c->mlp = 512;		/* enough for 256 GB/s x 300 ns */
		c->freq_ghz = 2.0;
		c->line = 64;
		c->l2_size = 1 << 20;
		c->l2_latency_ns = 5;
		c->local_bw = 256;
		c->link_bw = 16;
		c->mem_per_gpu = 8ULL << 30;
		c->placement = NG_PLACE_FGP;
		c->fgp_granularity = 128;
		c->sched = NG_SCHED_CODA;
	}
	snprintf(c->preset, sizeof(c->preset), "%s", name);
	return 0;
}

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
	case 'K': shift = 10; end++; break;
	case 'M': shift = 20; end++; break;
	case 'G': shift = 30; end++; break;
	case 'T': shift = 40; end++; break;
	default: break;
	}
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

bool ng_config_key(const char *key, bool *is_flag)
{
	for (size_t i = 0; i < NKEYS; i++)
		if (!strcmp(keys[i].name, key)) {
			if (is_flag)
				*is_flag = keys[i].type == K_BOOL;
			return true;
		}
	return false;
}

int ng_config_set(struct ng_config *c, const char *key, const char *value,
		  char *err, size_t errlen)
{
	const struct key *k = NULL;
	char *base = (char *)c;
	int v;

	for (size_t i = 0; i < NKEYS; i++)
		if (!strcmp(keys[i].name, key))
			k = &keys[i];
	if (!strcmp(key, "system"))
		return ng_config_preset(c, value, err, errlen);
	if (!k) {
		ng_seterr(err, errlen, "unknown parameter '%s'", key);
		return -ENOENT;
	}
	if (!value && k->type != K_BOOL) {
		ng_seterr(err, errlen, "%s needs a value", key);
		return -EINVAL;
	}
	switch (k->type) {
	case K_UINT: {
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
	case K_SIZE: {
		uint64_t n;

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
		break;
	}
	case K_DOUBLE: {
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
	case K_BOOL:
		if (parse_bool(value, (bool *)(void *)(base + k->off))) {
			ng_seterr(err, errlen, "%s: '%s' is not yes or no", key,
				  value);
			return -EINVAL;
		}
		break;
	case K_PLACE:
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
			break;
		}
		v = parse_enum(value, place_names, 5);
		if (v < 0) {
			ng_seterr(err, errlen,
				  "placement: '%s' is not first-touch, fgp, cgp, coda, host or node:G",
				  value);
			return -EINVAL;
		}
		c->placement = (enum ng_placement)v;
		break;
	case K_SCHED:
		v = parse_enum(value, sched_names, 3);
		if (v < 0) {
			ng_seterr(err, errlen, "sched: '%s' is not rr, batch or coda",
				  value);
			return -EINVAL;
		}
		c->sched = (enum ng_sched_kind)v;
		break;
	case K_BACKEND:
		v = parse_enum(value, backend_names, 3);
		if (v < 0) {
			ng_seterr(err, errlen, "backend: '%s' is not auto, user or kmod",
				  value);
			return -EINVAL;
		}
		c->backend = (enum ng_mem_backend)v;
		break;
	case K_COHER:
		v = parse_enum(value, coher_names, 3);
		if (v < 0) {
			ng_seterr(err, errlen,
				  "%s: '%s' is not none, swc or hwc", key, value);
			return -EINVAL;
		}
		c->coherence = (enum ng_coherence)v;
		break;
	case K_REPL:
		v = parse_enum(value, repl_names, 3);
		if (v < 0) {
			ng_seterr(err, errlen,
				  "%s: '%s' is not none, ro or all", key, value);
			return -EINVAL;
		}
		c->replicate = (enum ng_replicate)v;
		break;
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

int ng_config_load(struct ng_config *c, const char *path, char *err,
		   size_t errlen)
{
	FILE *f = fopen(path, "r");
	char line[512], msg[384];
	unsigned int lineno = 0;

	if (!f) {
		ng_seterr(err, errlen, "cannot read config file %s: %s", path,
			  strerror(errno));
		return -errno;
	}
	while (fgets(line, sizeof(line), f)) {
		char *hash, *eq, *key, *val;
		int ret;

		lineno++;
		if (!strchr(line, '\n') && !feof(f)) {
			ng_seterr(err, errlen, "%s:%u: line too long", path,
				  lineno);
			fclose(f);
			return -EINVAL;
		}
		hash = strchr(line, '#');
		if (hash)
			*hash = '\0';
		key = trim(line);
		if (!*key)
			continue;
		eq = strchr(key, '=');
		if (!eq) {
			ng_seterr(err, errlen,
				  "%s:%u: expected 'key = value', got '%s'",
				  path, lineno, key);
			fclose(f);
			return -EINVAL;
		}
		*eq = '\0';
		val = trim(eq + 1);
		key = trim(key);
		if (!*val) {
			ng_seterr(err, errlen, "%s:%u: %s has no value", path,
				  lineno, key);
			fclose(f);
			return -EINVAL;
		}
		ret = ng_config_set(c, key, val, msg, sizeof(msg));
		if (ret) {
			ng_seterr(err, errlen, "%s:%u: %s", path, lineno, msg);
			fclose(f);
			return -EINVAL;
		}
	}
	fclose(f);
	return 0;
}

static bool pow2(uint64_t v)
{
	return v && !(v & (v - 1));
}

int ng_config_validate(const struct ng_config *c, char *err, size_t errlen)
{
	if (!pow2(c->line)) {
		ng_seterr(err, errlen, "line: %u is not a power of two", c->line);
		return -EINVAL;
	}
	if (!pow2(c->page) || c->page < c->line) {
		ng_seterr(err, errlen,
			  "page: %llu must be a power of two of at least one line (%u)",
			  (unsigned long long)c->page, c->line);
		return -EINVAL;
	}
	if (!pow2(c->fgp_granularity) || c->fgp_granularity > c->page) {
		ng_seterr(err, errlen,
			  "fgp-granularity: %llu must be a power of two no larger than a page",
			  (unsigned long long)c->fgp_granularity);
		return -EINVAL;
	}
	if (c->l2_size && c->l2_size < (uint64_t)c->line * c->l2_ways) {
		ng_seterr(err, errlen,
			  "l2-size: %llu is smaller than one set (%u ways of %u B)",
			  (unsigned long long)c->l2_size, c->l2_ways, c->line);
		return -EINVAL;
	}
	if (c->placement == NG_PLACE_NODE && c->place_node >= c->gpus) {
		ng_seterr(err, errlen, "placement: node:%u but only %u GPUs",
			  c->place_node, c->gpus);
		return -EINVAL;
	}
	if (c->rdc_size && (c->rdc_size % c->line ||
			    c->rdc_size >= c->mem_per_gpu)) {
		ng_seterr(err, errlen,
			  "rdc-size: %llu must be whole lines (%u B) and less than mem-per-gpu",
			  (unsigned long long)c->rdc_size, c->line);
		return -EINVAL;
	}
	if (c->rdc_size && c->replicate != NG_REPL_NONE) {
		ng_seterr(err, errlen,
			  "rdc-size and replicate are separate systems: use one of them");
		return -EINVAL;
	}
	if (c->mem_per_gpu % c->page) {
		ng_seterr(err, errlen, "mem-per-gpu must be a multiple of page");
		return -EINVAL;
	}
	return 0;
}

/* An idle system: request leg, home memory, response leg, one line each. */
double ng_config_remote_latency_ns(const struct ng_config *c)
{
	unsigned int bytes = (c->line + c->flit - 1) / c->flit * c->flit;

	/* a remote load looks in the L2 first (a miss still costs the lookup) */
	return (c->l2_size ? c->l2_latency_ns : 0) + 2 * c->link_latency_ns +
	       c->local_latency_ns + c->line / c->local_bw + bytes / c->link_bw;
}

double ng_config_local_load_latency_ns(const struct ng_config *c)
{
	return c->local_latency_ns + c->line / c->local_bw;
}

void ng_config_print(const struct ng_config *c, FILE *out)
{
	const char *base = (const char *)c;

	fprintf(out, "# effective configuration%s%s\n",
		c->preset[0] ? ", from preset " : "", c->preset);
	for (size_t i = 0; i < NKEYS; i++) {
		const struct key *k = &keys[i];
		const void *p = base + k->off;
		char val[64];

		switch (k->type) {
		case K_UINT:
			snprintf(val, sizeof(val), "%u", *(const unsigned int *)p);
			break;
		case K_SIZE: {
			uint64_t v = *(const uint64_t *)p;

			if (v && !(v & ((1ULL << 30) - 1)))
				snprintf(val, sizeof(val), "%lluG", (unsigned long long)(v >> 30));
			else if (v && !(v & ((1ULL << 20) - 1)))
				snprintf(val, sizeof(val), "%lluM", (unsigned long long)(v >> 20));
			else if (v && !(v & ((1ULL << 10) - 1)))
				snprintf(val, sizeof(val), "%lluK", (unsigned long long)(v >> 10));
			else
				snprintf(val, sizeof(val), "%llu", (unsigned long long)v);
			break;
		}
		case K_DOUBLE:
			snprintf(val, sizeof(val), "%g", *(const double *)p);
			break;
		case K_BOOL:
			snprintf(val, sizeof(val), "%s", *(const bool *)p ? "yes" : "no");
			break;
		case K_PLACE:
			if (c->placement == NG_PLACE_NODE)
				snprintf(val, sizeof(val), "node:%u", c->place_node);
			else
				snprintf(val, sizeof(val), "%s", ng_placement_name(c->placement));
			break;
		case K_SCHED:
			snprintf(val, sizeof(val), "%s", ng_sched_name(c->sched));
			break;
		case K_BACKEND:
			snprintf(val, sizeof(val), "%s", ng_mem_backend_name(c->backend));
			break;
		case K_COHER:
			snprintf(val, sizeof(val), "%s", ng_coherence_name(c->coherence));
			break;
		case K_REPL:
			snprintf(val, sizeof(val), "%s", ng_replicate_name(c->replicate));
			break;
		}
		fprintf(out, "%-16s = %-10s # %s\n", k->name, val, k->help);
	}
	fprintf(out, "# derived: remote load latency %.1f ns, local %.1f ns\n",
		ng_config_remote_latency_ns(c),
		ng_config_local_load_latency_ns(c));
	{
		/* Little's law and the issue rate bound what SMs can use */
		double mlp_bw = (double)c->sms * c->mlp * c->line /
				ng_config_local_load_latency_ns(c);
		double issue_bw = (double)c->sms * c->sm_scale * c->freq_ghz *
				  c->line;

		fprintf(out, "# derived: per GPU, SMs can stream %.0f GB/s (mlp) and issue %.0f GB/s\n",
			mlp_bw, issue_bw);
		if (mlp_bw < c->local_bw || issue_bw < c->local_bw)
			fprintf(out, "# warning: below local-bw: raise mlp, sms or sm-scale to reach it\n");
	}
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

int ng_config_from_args(struct ng_config *cfg, int argc, char **argv,
			char **rest, int *nrest, char *err, size_t errlen)
{
	const char *preset = "carve", *file = NULL;
	char key[64], msg[384];
	int ret;

	*nrest = 0;
	/* pass 1: preset and file, which the options then override */
	for (int i = 1; i < argc; i++) {
		const char *val;
		bool flag, known;
		int used;

		if (!strcmp(argv[i], "--"))
			break;
		if (strncmp(argv[i], "--", 2))
			continue;
		used = split_opt(argc, argv, i, key, sizeof(key), &val, &flag,
				 &known);
		if (!known)
			continue;
		if (!val && !flag) {
			ng_seterr(err, errlen, "option '--%s' needs a value", key);
			return -EINVAL;
		}
		if (!strcmp(key, "system"))
			preset = val;
		else if (!strcmp(key, "config"))
			file = val;
		i += used - 1;
	}
	ret = ng_config_preset(cfg, preset, err, errlen);
	if (ret)
		return ret;
	if (file) {
		ret = ng_config_load(cfg, file, err, errlen);
		if (ret)
			return -EINVAL;
	}
	for (int i = 1; i < argc; i++) {
		const char *val;
		bool flag, known;
		int used;

		if (!strcmp(argv[i], "--")) {
			while (++i < argc)
				rest[(*nrest)++] = argv[i];
			break;
		}
		if (strncmp(argv[i], "--", 2)) {
			rest[(*nrest)++] = argv[i];
			continue;
		}
		used = split_opt(argc, argv, i, key, sizeof(key), &val, &flag,
				 &known);
		if (!known) {
			rest[(*nrest)++] = argv[i];
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
	return ng_config_validate(cfg, err, errlen);
}
