// SPDX-License-Identifier: GPL-2.0
/*
 * The configuration's keys: the runtime's own here, each model
 * component's in its component (ng_component.keys), found by name in that
 * order. One table per owner, so that files, options and --show cannot
 * drift apart.
 */
#include <stdio.h>
#include <string.h>

#include "ngemu/config.h"
#include "ngemu/model/component.h"


const char *const ng_placement_names[6] = {
	[NG_PLACE_FIRST_TOUCH] = "first-touch", [NG_PLACE_FGP] = "fgp",
	[NG_PLACE_CGP] = "cgp", [NG_PLACE_CODA] = "coda",
	[NG_PLACE_HOST] = "host", [NG_PLACE_NODE] = "node",
};
const char *const ng_sched_names[4] = {
	[NG_SCHED_RR] = "rr", [NG_SCHED_BATCH] = "batch",
	[NG_SCHED_CODA] = "coda", [NG_SCHED_MGPUSIM] = "mgpusim",
};
const char *const ng_coda_chunk_names[2] = {
	[NG_CODA_CHUNK_CAP] = "cap", [NG_CODA_CHUNK_UNCAPPED] = "uncapped",
};
const char *const ng_coda_b_names[2] = {
	[NG_CODA_B_PROFILE] = "profile", [NG_CODA_B_HINT] = "hint",
};
const char *const ng_host_copies_names[3] = {
	[NG_COPIES_NONE] = "none", [NG_COPIES_ONCE] = "once",
	[NG_COPIES_PER_KERNEL] = "per-kernel",
};
const char *const ng_mem_backend_names[3] = {
	[NG_MEM_AUTO] = "auto", [NG_MEM_USER] = "user", [NG_MEM_KMOD] = "kmod",
};
const char *const ng_coherence_names[3] = {
	[NG_COH_NONE] = "none", [NG_COH_SWC] = "swc", [NG_COH_HWC] = "hwc",
};
const char *const ng_replicate_names[3] = {
	[NG_REPL_NONE] = "none", [NG_REPL_RO] = "ro", [NG_REPL_ALL] = "all",
};

const char *const ng_topology_names[3] = {
	"mesh", "switch", "hub",
};

const char *const ng_directory_names[5] = {
	"off", "none", "dir", "hmg", "rec",
};

const char *const ng_dir_policy_names[2] = {
	"lru", "fifo",
};

const char *const ng_remote_opt_names[4] = {
	[NG_RO_OFF] = "off", [NG_RO_COALESCE] = "coalesce",
	[NG_RO_RDMA] = "rdma-cache", [NG_RO_AUTO] = "auto",
};

const char *const ng_migrate_names[2] = {
	[NG_MIGRATE_OFF] = "off", [NG_MIGRATE_FIRST_TOUCH] = "first-touch",
};

#define NAME_OF(tab, v) ((unsigned int)(v) < sizeof(tab) / sizeof(tab[0]) ? \
			 tab[v] : "?")

const char *ng_placement_name(enum ng_placement p)
{
	return NAME_OF(ng_placement_names, p);
}

const char *ng_sched_name(enum ng_sched_kind s)
{
	return NAME_OF(ng_sched_names, s);
}

const char *ng_mem_backend_name(enum ng_mem_backend b)
{
	return NAME_OF(ng_mem_backend_names, b);
}

const char *ng_coherence_name(enum ng_coherence c)
{
	return NAME_OF(ng_coherence_names, c);
}

const char *ng_replicate_name(enum ng_replicate r)
{
	return NAME_OF(ng_replicate_names, r);
}

/* The emulated system and the runtime; the model's are its components'. */
static const struct ng_key core_keys[] = {
	NG_KEY_NUM("gpus", NG_KEY_UINT, gpus, 1, NG_MAX_GPUS,
		   "emulated GPUs"),
	NG_KEY_NUM("sms", NG_KEY_UINT, sms, 1, NG_MAX_SMS,
		   "emulated SMs (worker threads) per GPU"),
	NG_KEY_NUM("sm-scale", NG_KEY_UINT, sm_scale, 1, 1024,
		   "real SMs one emulated SM stands for"),
	NG_KEY_NUM("ipc", NG_KEY_DOUBLE, ipc, 0.01, 64,
		   "warp instructions of arithmetic a real SM issues a cycle (32 lanes each)"),
	NG_KEY_NUM("warp-width", NG_KEY_UINT, warp_width, 32, 64,
		   "lanes of a wavefront: 32 or 64 (two of the kernel API's 32-lane warps as one)"),
	NG_KEY_NUM("mlp", NG_KEY_UINT, mlp, 0, 65536,
		   "line requests in flight per emulated SM (0: mshr-entries x sm-scale)"),
	NG_KEY_NUM("mshr-entries", NG_KEY_UINT, mshr_entries, 1, 4096,
		   "miss entries per real SM: its line requests in flight (DualOpt: also its fine-grained MSHRs)"),
	NG_KEY_NUM("blocks-per-sm", NG_KEY_UINT, blocks_per_sm, 1, 64,
		   "resident blocks per emulated SM, interleaved in modeled time"),
	NG_KEY_NUM("threads-per-sm", NG_KEY_UINT, threads_per_sm, 0, 1 << 20,
		   "resident threads per emulated SM, limits blocks-per-sm (0: no limit)"),
	NG_KEY_NUM("shared-per-sm", NG_KEY_SIZE, shared_per_sm, 0, (double)(1ULL << 30),
		   "shared memory per emulated SM, limits blocks-per-sm (0: no limit)"),
	NG_KEY_NUM("freq", NG_KEY_DOUBLE, freq_ghz, 0.01, 100,
		   "SM clock, GHz"),
	NG_KEY_NUM("line", NG_KEY_UINT, line, 32, 256,
		   "cache line, bytes (power of two; 4-byte word masks are 64 bits)"),
	NG_KEY_NUM("page", NG_KEY_SIZE, page, 256, 1ULL << 30,
		   "page, the placement unit (power of two)"),
	NG_KEY_NUM("mem-per-gpu", NG_KEY_SIZE, mem_per_gpu, 1 << 20, (double)(1ULL << 46),
		   "device memory per GPU"),
	NG_KEY_NUM("placement", NG_KEY_PLACE, placement, 0, 0,
		   "first-touch, fgp, cgp, coda, host, node:G"),
	NG_KEY_NUM("fgp-granularity", NG_KEY_SIZE, fgp_granularity, 4, 1ULL << 30,
		   "FGP interleave chunk, bytes"),
	NG_KEY_NUM("host-share", NG_KEY_DOUBLE, host_share, 0, 100,
		   "% of the pages in host memory, chosen by a hash of their number (CARVE Table V(b)'s spilled footprint; user backend)"),
	NG_KEY_CHOICE("coda-chunk", coda_chunk, ng_coda_chunk_names,
		      "CODA's chunk: cap (min(4 KB, B x N), the paper's Equation 2) or uncapped (B x N)"),
	NG_KEY_CHOICE("coda-b", coda_b, ng_coda_b_names,
		      "CODA's B per structure: profile (a first run's page-access tracking) or hint (the allocation's block_bytes)"),
	NG_KEY_CHOICE("sched", sched, ng_sched_names,
		      "CTA scheduler: rr, batch, coda, mgpusim (MGPUSim's unified multi-GPU driver)"),
	NG_KEY_NUM("steal", NG_KEY_BOOL, steal, 0, 0,
		   "idle GPUs steal blocks"),
	NG_KEY_CHOICE("backend", backend, ng_mem_backend_names,
		      "memory backend: auto, user, kmod"),
	NG_KEY_NUM("interval", NG_KEY_UINT, interval, 8, 10000000,
		   "SM clocks run at most this many cycles apart (host threads meet per interval)"),
	NG_KEY_NUM("threads", NG_KEY_UINT, threads, 0, 1024,
		   "host threads stepping the SMs, a GPU's SMs on one (0: one per CPU, at most one per GPU)"),
	NG_KEY_NUM("deterministic", NG_KEY_BOOL, deterministic, 0, 0,
		   "all SMs on one thread, fixed order"),
	NG_KEY_NUM("checked", NG_KEY_BOOL, checked, 0, 0,
		   "check every warp access against the live buffers, stop at a bad one (default: NGEMU_CHECKED)"),
	NG_KEY_NUM("seed", NG_KEY_SIZE, seed, 0, 1.8e19,
		   "random seed of workloads"),
	NG_KEY_NUM("inject", NG_KEY_BOOL, inject, 0, 0,
		   "inject remote costs as real delays"),
	NG_KEY_NUM("inject-batch", NG_KEY_DOUBLE, inject_batch_us, 0.1, 1e6,
		   "owed delay before a spin, us"),
	NG_KEY_NUM("shared", NG_KEY_SIZE, shared_bytes, 0, 1 << 24,
		   "shared memory per block, bytes"),
	{ .name = NULL },
};

static const struct ng_key *in_table(const struct ng_key *t, const char *name)
{
	for (; t && t->name; t++)
		if (!strcmp(t->name, name))
			return t;
	return NULL;
}

const struct ng_key *ng_config_find_key(const char *name)
{
	const struct ng_key *k = in_table(core_keys, name);

	for (unsigned int i = 0; !k && ng_components[i]; i++)
		k = in_table(ng_components[i]->keys, name);
	return k;
}

bool ng_config_key(const char *key, bool *is_flag)
{
	const struct ng_key *k = ng_config_find_key(key);

	if (k && is_flag)
		*is_flag = k->type == NG_KEY_BOOL;
	return k;
}

static void format_size(uint64_t v, char *buf, size_t len)
{
	if (v && !(v & ((1ULL << 30) - 1)))
		snprintf(buf, len, "%lluG", (unsigned long long)(v >> 30));
	else if (v && !(v & ((1ULL << 20) - 1)))
		snprintf(buf, len, "%lluM", (unsigned long long)(v >> 20));
	else if (v && !(v & ((1ULL << 10) - 1)))
		snprintf(buf, len, "%lluK", (unsigned long long)(v >> 10));
	else
		snprintf(buf, len, "%llu", (unsigned long long)v);
}

void ng_config_format(const struct ng_config *c, const struct ng_key *k,
		      char *buf, size_t len)
{
	const void *p = (const char *)c + k->off;
	unsigned int e;

	switch (k->type) {
	case NG_KEY_UINT:
		snprintf(buf, len, "%u", *(const unsigned int *)p);
		break;
	case NG_KEY_SIZE_PCT:
		if (*(const double *)((const char *)c + k->pct_off) > 0) {
			snprintf(buf, len, "%g%%",
				 *(const double *)((const char *)c + k->pct_off));
			break;
		}
		/* fall through */
	case NG_KEY_SIZE:
		format_size(*(const uint64_t *)p, buf, len);
		break;
	case NG_KEY_DOUBLE:
		snprintf(buf, len, "%g", *(const double *)p);
		break;
	case NG_KEY_BOOL:
		snprintf(buf, len, "%s", *(const bool *)p ? "yes" : "no");
		break;
	case NG_KEY_ENUM:
		e = *(const unsigned int *)p;
		snprintf(buf, len, "%s", e < k->nnames ? k->names[e] : "?");
		break;
	case NG_KEY_PLACE:
		if (c->placement == NG_PLACE_NODE)
			snprintf(buf, len, "node:%u", c->place_node);
		else
			snprintf(buf, len, "%s", ng_placement_name(c->placement));
		break;
	}
}

static void print_keys(const struct ng_config *c, const struct ng_key *k,
		       FILE *out)
{
	for (; k && k->name; k++) {
		char val[64];

		ng_config_format(c, k, val, sizeof(val));
		fprintf(out, "%-16s = %-10s # %s\n", k->name, val, k->help);
	}
}

void ng_config_print(const struct ng_config *c, FILE *out)
{
	fprintf(out, "# effective configuration%s%s\n",
		c->preset[0] ? ", from preset " : "", c->preset);
	print_keys(c, core_keys, out);
	for (unsigned int i = 0; ng_components[i]; i++) {
		const struct ng_component *comp = ng_components[i];

		if (!comp->keys || !comp->keys->name)
			continue;
		fprintf(out, "# %s: %s%s\n", comp->name, comp->desc,
			ng_component_enabled(comp, c) ? "" : " (off)");
		print_keys(c, comp->keys, out);
	}
	fprintf(out, "# derived: remote load latency %.1f ns, local %.1f ns\n",
		ng_config_remote_latency_ns(c),
		ng_config_local_load_latency_ns(c));
	{
		/* Little's law and the issue rate bound what SMs can use */
		double mlp_bw = (double)c->sms * ng_config_mlp(c) * c->line /
				ng_config_local_load_latency_ns(c);
		double issue_bw = (double)c->sms * c->sm_scale * c->freq_ghz *
				  c->line;

		fprintf(out, "# derived: per GPU, SMs can stream %.0f GB/s (mlp) and issue %.0f GB/s\n",
			mlp_bw, issue_bw);
		if (mlp_bw < c->local_bw || issue_bw < c->local_bw)
			fprintf(out, "# warning: below local-bw: raise mshr-entries, sms or sm-scale to reach it\n");
	}
	fprintf(out, "# derived: blocks in flight per GPU: %u of 256 threads, %u of 1024, at most %u (sms x blocks-per-sm, within threads-per-sm and shared-per-sm); %u line requests in flight per SM\n",
		c->sms * ng_resident_blocks(c, 256, 0),
		c->sms * ng_resident_blocks(c, 1024, 0),
		c->sms * c->blocks_per_sm, ng_config_mlp(c));
}
