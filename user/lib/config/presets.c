// SPDX-License-Identifier: GPL-2.0
/*
 * Presets: the setups of the papers ngemu reproduces. Each preset is the
 * common ground below plus its paper's changes, and says which paper it
 * is and what of that paper is not built yet (`ngemu config --presets`
 * adds which model components the preset turns on).
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "config/papers.h"
#include "config/preset.h"
#include "ngemu/config.h"
#include "ngemu/util/err.h"

/*
 * Common ground: CARVE's machine (Table III), 64 SMs per GPU "that
 * support 64 warps each" (2048 threads), each an emulated SM of its own
 * (sm-scale 1) with its own issue port, L1 and miss entries. What the
 * paper leaves to its Pascal GPU is the GP100's: 32 resident blocks and
 * 64 KB of shared memory per SM; 128 miss entries per SM are GPGPU-Sim's
 * P100 L1 (64 warps x 2 lines), enough for 64 SMs to cover 1 TB/s x
 * 300 ns (Little's law) with room.
 */
static const struct ng_config base = {
	.gpus = 4, .sms = 64, .sm_scale = 1, .mlp = 0, .ipc = 2, .warp_width = 32,
	.blocks_per_sm = 32, .threads_per_sm = 2048,
	.shared_per_sm = 64 << 10, .freq_ghz = 1.0, .line = 128,
	.page = 4096, .mem_per_gpu = 32ULL << 30,
	.l2 = NG_L2_DEFAULTS,
	.local_bw = 1024, .local_latency_ns = 300,
	.link_bw = 64, .link_latency_ns = 250, .flit = 16,
	.host_bw = 32, .host_latency_ns = 500,
	.placement = NG_PLACE_FIRST_TOUCH, .fgp_granularity = 256,
	.sched = NG_SCHED_BATCH, .backend = NG_MEM_AUTO, .interval = 1000,
	.seed = 1, .inject_batch_us = 20, .shared_bytes = 48 << 10,
	.rdc = NG_RDC_DEFAULTS,
	.l1 = NG_L1_DEFAULTS,
	.dir = NG_DIR_DEFAULTS,
	.remote_opt = NG_RO_OFF, .xfer_gran = 4, .mshr_entries = 128,
	.codec = NG_CODEC_DEFAULTS, .rdma = NG_RDMA_DEFAULTS,
	.de = NG_DECISION_DEFAULTS,
	.mig = NG_MIGRATE_DEFAULTS,
	.sg = NG_SCALEGPU_DEFAULTS,
	.host_payload = 128, .msl2 = NG_MSL2_DEFAULTS,
};

/* The papers' presets, each in its paper's folder (user/papers/NAME/preset.c). */
#define NG_PRESET_DECL(n) extern const struct ng_preset ng_preset_##n;
NG_PAPERS(NG_PRESET_DECL)
#define NG_PRESET_PTR(n) &ng_preset_##n,
static const struct ng_preset *const presets[] = { NG_PAPERS(NG_PRESET_PTR) };

#define NPRESETS (sizeof(presets) / sizeof(presets[0]))

#define NG_PRESET_NAME(n) #n,
const char *const ng_config_presets[] = { NG_PAPERS(NG_PRESET_NAME) NULL };

static const struct ng_preset *find(const char *name)
{
	for (size_t i = 0; name && i < NPRESETS; i++)
		if (!strcmp(presets[i]->name, name))
			return presets[i];
	return NULL;
}

const char *ng_config_preset_desc(const char *name)
{
	const struct ng_preset *p = find(name);

	return p ? p->desc : NULL;
}

const char *ng_config_preset_paper(const char *name)
{
	const struct ng_preset *p = find(name);

	return p ? p->paper : NULL;
}

const char *ng_config_preset_suite(const char *name)
{
	const struct ng_preset *p = find(name);

	return p ? p->suite : NULL;
}

const char *const *ng_config_preset_workloads(const char *name)
{
	const struct ng_preset *p = find(name);

	return p ? p->workloads : NULL;
}

const char *ng_config_preset_missing(const char *name)
{
	const struct ng_preset *p = find(name);

	return p ? p->missing : NULL;
}

int ng_config_preset(struct ng_config *c, const char *name, char *err,
		     size_t errlen)
{
	const struct ng_preset *p = find(name);
	const char *env;
	char msg[256];

	if (!p) {
		char known[128] = "";

		for (size_t i = 0; i < NPRESETS; i++)
			snprintf(known + strlen(known), sizeof(known) - strlen(known),
				 "%s%s", i ? ", " : "", presets[i]->name);
		ng_seterr(err, errlen, "unknown system preset '%s' (known: %s)",
			  name ? name : "", known);
		return -EINVAL;
	}
	*c = base;
	p->apply(c);
	snprintf(c->preset, sizeof(c->preset), "%s", name);
	/* checked mode's default: the test suite's and sanitizers' switch */
	env = getenv("NGEMU_CHECKED");
	if (env && *env && ng_config_set(c, "checked", env, msg, sizeof(msg))) {
		ng_seterr(err, errlen, "NGEMU_CHECKED: %s", msg);
		return -EINVAL;
	}
	return 0;
}
