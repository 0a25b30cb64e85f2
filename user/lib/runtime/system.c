// SPDX-License-Identifier: GPL-2.0
/*
 * The emulated system: its address space, model, SMs and worker pool,
 * created from a config; counters summed over SMs.
 */
#include <errno.h>
#include <numa.h>
#include <stdlib.h>
#include <string.h>

#include "runtime/system_impl.h"
#include "ngemu/util/err.h"

/* Nodes with memory, in order: the GPUs' homes. */
static unsigned int probe_nodes(int *nodes)
{
	unsigned int n = 0;

	if (numa_available() >= 0) {
		int max = numa_max_node();

		for (int i = 0; i <= max && n < NG_MAX_GPUS; i++) {
			long long freeb;

			if (numa_node_size64(i, &freeb) > 0)
				nodes[n++] = i;
		}
	}
	if (!n)
		nodes[n++] = 0;
	return n;
}

void ng_system_destroy(struct ng_system *sys)
{
	if (!sys)
		return;
	ng_pool_stop(sys);
	for (unsigned int i = 0; i < sys->nsm; i++)
		if (sys->sms && sys->sms[i]) {
			ng_sm_fini(sys->sms[i]);
			free(sys->sms[i]);
		}
	free(sys->sms);
	ng_sched_fini(&sys->sched);
	if (sys->model.res)
		ng_model_fini(&sys->model);
	ng_space_fini(&sys->space);
	free(sys);
}

int ng_system_create(struct ng_system **out, const struct ng_config *cfg,
		     char *err, size_t errlen)
{
	/* aligned: its block queues are a host cache line each */
	struct ng_system *sys = aligned_alloc(64, (sizeof(*sys) + 63) & ~(size_t)63);
	int nodes[NG_MAX_GPUS];
	unsigned int nnodes;
	int ret;

	*out = NULL;
	if (!sys) {
		ng_seterr(err, errlen, "out of memory");
		return -ENOMEM;
	}
	memset(sys, 0, sizeof(*sys));
	sys->cfg = *cfg;
	ng_config_resolve(&sys->cfg);
	ret = ng_config_validate(&sys->cfg, err, errlen);
	if (ret)
		goto fail;
	nnodes = probe_nodes(nodes);
	sys->nnodes = nnodes < cfg->gpus ? nnodes : cfg->gpus;
	for (unsigned int g = 0; g < cfg->gpus; g++)
		sys->node[g] = nodes[g % nnodes];
	ret = ng_space_init(&sys->space, &sys->cfg, sys->node, sys->nnodes,
			    err, errlen);
	if (ret)
		goto fail;
	ret = ng_model_init(&sys->model, &sys->cfg, &sys->space, err, errlen);
	if (ret)
		goto fail;
	sys->nsm = cfg->gpus * cfg->sms;
	sys->sms = calloc(sys->nsm, sizeof(*sys->sms));
	if (!sys->sms)
		goto nomem;
	for (unsigned int i = 0; i < sys->nsm; i++) {
		sys->sms[i] = aligned_alloc(64, (sizeof(struct ng_sm) + 63) & ~(size_t)63);
		if (!sys->sms[i] ||
		    ng_sm_init(sys->sms[i], &sys->model, i / cfg->sms,
			       i % cfg->sms, i))
			goto nomem;
	}
	ret = ng_pool_start(sys, err, errlen);
	if (ret)
		goto fail;
	*out = sys;
	return 0;
nomem:
	ng_seterr(err, errlen, "out of memory");
	ret = -ENOMEM;
fail:
	ng_system_destroy(sys);
	return ret;
}

const struct ng_config *ng_system_config(const struct ng_system *sys)
{
	return &sys->cfg;
}

const struct ng_model *ng_system_model(const struct ng_system *sys)
{
	return &sys->model;
}

struct ng_space *ng_system_space(struct ng_system *sys)
{
	return &sys->space;
}

int ng_system_node(const struct ng_system *sys, unsigned int gpu)
{
	return gpu < sys->cfg.gpus ? sys->node[gpu] : -1;
}

unsigned int ng_system_nnodes(const struct ng_system *sys)
{
	return sys->nnodes;
}

unsigned int ng_system_threads(const struct ng_system *sys)
{
	return sys->nthreads;
}

void ng_system_counters(const struct ng_system *sys, int gpu,
			struct ng_counters *out)
{
	memset(out, 0, sizeof(*out));
	for (unsigned int i = 0; i < sys->nsm; i++)
		if (gpu < 0 || sys->sms[i]->gpu == (unsigned int)gpu)
			ng_counters_add(out, &sys->sms[i]->ctr);
	ng_model_counters(&sys->model, gpu, out);
	ng_counters_derive(out, sys->cfg.line);
}

void ng_system_reset_counters(struct ng_system *sys)
{
	for (unsigned int i = 0; i < sys->nsm; i++)
		memset(&sys->sms[i]->ctr, 0, sizeof(sys->sms[i]->ctr));
	ng_model_reset_counters(&sys->model);
}
