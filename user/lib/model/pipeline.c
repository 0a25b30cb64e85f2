// SPDX-License-Identifier: GPL-2.0
/*
 * The model's pipeline (ngemu/model/pipeline.h): built from the registry,
 * a request through it at SM clocks with bounded memory-level
 * parallelism, interval ends, kernel boundaries. An SM's state is made in
 * sm.c, the bandwidth servers are in resource.c, injection in inject.c,
 * the components in their own files (registry.c lists them).
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "model/model_impl.h"
#include "ngemu/model/model.h"
#include "ngemu/util/err.h"

int ng_model_init(struct ng_model *m, const struct ng_config *cfg,
		  struct ng_space *space, char *err, size_t errlen)
{
	bool local_seen = false;
	double issue_ns;

	memset(m, 0, sizeof(*m));
	m->cfg = cfg;
	m->space = space;
	m->ngpus = cfg->gpus;
	m->mlp = ng_config_mlp(cfg);
	m->line_shift = (unsigned int)__builtin_ctz(cfg->line);
	m->mem_latency = (ng_ticks)(cfg->local_latency_ns * NG_TICKS_PER_NS);
	/* an emulated SM issues for sm_scale real SMs, one request a cycle each */
	issue_ns = 1.0 / cfg->freq_ghz / cfg->sm_scale;
	m->issue_ticks = (ng_ticks)(issue_ns * NG_TICKS_PER_NS + 0.5);
	/* and ipc warp instructions a cycle each, for arithmetic */
	m->inst_fp = (uint64_t)(issue_ns / cfg->ipc * NG_TICKS_PER_NS * 65536.0 + 0.5);
	m->gctr = calloc(m->ngpus, sizeof(*m->gctr));
	if (!m->gctr || ng_resources_init(m)) {
		ng_model_fini(m);
		ng_seterr(err, errlen, "out of memory for the model");
		return -ENOMEM;
	}
	for (unsigned int i = 0; ng_components[i]; i++) {
		const struct ng_component *c = ng_components[i];
		unsigned int k = m->ncomp;

		if (!ng_component_enabled(c, cfg))
			continue;
		if (k == NG_MAX_COMPONENTS) {
			ng_model_fini(m);
			ng_seterr(err, errlen, "more than %d model components",
				  NG_MAX_COMPONENTS);
			return -EINVAL;
		}
		m->comp[k] = c;
		m->remote_only[k] = c->remote_only &&
				    !(c->sees_local && c->sees_local(cfg));
		m->routes |= c->route != NULL;
		/* a local request needs the pipeline if anything but memory sees it */
		if (!m->remote_only[k] && !c->terminal)
			local_seen = true;
		m->ncomp++;
	}
	m->local_inline = !local_seen;
	m->mem_line_dur = ng_cost(m, ng_res_mem(m, 0), cfg->line);
	for (unsigned int i = 0; i < m->ncomp; i++) {
		int ret = m->comp[i]->create ? m->comp[i]->create(m, &m->priv[i],
								  err, errlen)
					     : 0;
		if (ret) {
			m->ncomp = i;
			ng_model_fini(m);
			return ret;
		}
	}
	return 0;
}

void ng_model_fini(struct ng_model *m)
{
	for (unsigned int i = 0; i < m->ncomp; i++)
		if (m->comp[i]->destroy)
			m->comp[i]->destroy(m->priv[i]);
	ng_resources_fini(m);
	free(m->gctr);
	memset(m, 0, sizeof(*m));
}

void ng_model_counters(const struct ng_model *m, int gpu,
		       struct ng_counters *out)
{
	for (unsigned int g = 0; m->gctr && g < m->ngpus; g++)
		if (gpu < 0 || (unsigned int)gpu == g)
			ng_counters_add(out, &m->gctr[g]);
}

void ng_model_reset_counters(struct ng_model *m)
{
	if (m->gctr)
		memset(m->gctr, 0, m->ngpus * sizeof(*m->gctr));
	if (m->link_use)
		memset(m->link_use, 0,
		       m->ngpus * m->link_stride * sizeof(*m->link_use));
	m->link_ticks = 0;
	for (unsigned int i = 0; i < m->ncomp; i++)
		if (m->comp[i]->reset)
			m->comp[i]->reset(m->priv[i]);
}

bool ng_model_invalidate(struct ng_model *m, unsigned int gpu, uintptr_t line)
{
	bool held = false;

	for (unsigned int i = 0; i < m->ncomp; i++)
		if (m->comp[i]->invalidate &&
		    m->comp[i]->invalidate(m->priv[i], gpu, line))
			held = true;
	return held;
}

void *ng_model_priv(const struct ng_model *m, const struct ng_component *comp)
{
	for (unsigned int i = 0; i < m->ncomp; i++)
		if (m->comp[i] == comp)
			return m->priv[i];
	return NULL;
}

void ng_model_sync(struct ng_model *m, unsigned int phase, unsigned int gpu)
{
	if (!phase) {
		ng_resources_merge(m, gpu);
		/* the pages the GPU won in the interval before, on its node */
		ng_space_touch_sync(m->space, gpu);
	} else {
		/* the pages the GPU touched first join the location table */
		ng_space_touch_resolve(m->space, gpu);
	}
	for (unsigned int i = 0; i < m->ncomp; i++)
		if (m->comp[i]->sync && phase < m->comp[i]->sync_phases)
			m->comp[i]->sync(m->priv[i], phase, gpu);
}

bool ng_model_sync_phase1(const struct ng_model *m)
{
	if (ng_space_touch_pending(m->space))
		return true;
	for (unsigned int i = 0; i < m->ncomp; i++)
		if (m->comp[i]->sync && m->comp[i]->sync_phases > 1)
			return true;
	return false;
}

void ng_model_kernel_begin(struct ng_model *m, struct ng_sm *const *sms,
			   unsigned int nsm)
{
	for (unsigned int s = 0; s < nsm; s++) {
		struct ng_sm *sm = sms[s];

		sm->now = 0;
		sm->done_max = 0;
		sm->port = 0;
		sm->time_base = m->time_base;
		sm->ring_pos = 0;
		memset(sm->ring, 0, (sm->ring_mask + 1) * sizeof(*sm->ring));
		memset(sm->win, 0, m->nres * sizeof(*sm->win));
	}
	/* first touches wait for the interval's end (space.h) */
	ng_space_defer_touch(m->space, true);
}

ng_ticks ng_model_kernel_end(struct ng_model *m, struct ng_sm *const *sms,
			     unsigned int nsm)
{
	uint64_t abs, drained;
	ng_ticks end = 0;

	/* the claims of the last interval are in the table already */
	ng_space_defer_touch(m->space, false);
	/* boundary actions first: a write-back may lengthen the kernel */
	for (unsigned int i = 0; i < m->ncomp; i++)
		if (m->comp[i]->kernel_end)
			m->comp[i]->kernel_end(m->priv[i], sms, nsm);
	for (unsigned int s = 0; s < nsm; s++) {
		ng_ticks t = sms[s]->now > sms[s]->done_max ? sms[s]->now
							    : sms[s]->done_max;
		if (t > end)
			end = t;
		/* the time the SM was busy: what compute_fraction is of */
		sms[s]->ctr.v[NG_CTR_SM_TICKS] += t;
		if (m->cfg->inject)
			ng_inject_settle(sms[s], true);
	}
	/*
	 * The next kernel's bins come after every bin this one used, the
	 * bookings nobody waited for included (posted writes, write-backs,
	 * broadcasts): an untimed kernel's traffic must not delay the timed
	 * one after it (ScaleGPU's init writes to the host link took 1.7 ms
	 * of it).
	 */
	abs = ((m->time_base + end) >> m->max_shift) + 2;
	drained = (ng_resources_drained(m) + (1ULL << m->max_shift) - 1) >>
		  m->max_shift;
	m->time_base = (abs > drained ? abs : drained) << m->max_shift;
	m->link_ticks += end;
	return end;
}

void ng_model_access_pipeline(struct ng_sm *sm, struct ng_req *r)
{
	struct ng_model *m = sm->model;
	unsigned int slot = sm->ring_pos;
	ng_ticks t = sm->now, issue = sm->now;
	unsigned int i, n = m->ncomp;
	bool local;

	/* bounded MLP: wait for the slot of the request mlp requests ago */
	if (sm->ring[slot] > t)
		t = sm->ring[slot];
	r->t = t;
	r->t0 = t;
	if (m->routes)
		for (i = 0; i < n; i++)
			if (m->comp[i]->route)
				m->comp[i]->route(m->priv[i], sm, r);
	local = r->home == r->gpu;
	sm->ctr.v[local ? NG_CTR_LOCAL :
		  r->home == NG_HOME_HOST ? NG_CTR_HOST : NG_CTR_REMOTE]++;
	for (i = 0; i < n; i++) {
		if ((local && m->remote_only[i]) || !m->comp[i]->access)
			continue;
		if (m->comp[i]->access(m->priv[i], sm, r))
			break;
	}
	if (i == n)
		i = n - 1;
	for (;; i--) {
		if (m->comp[i]->respond && !(local && m->remote_only[i]))
			m->comp[i]->respond(m->priv[i], sm, r);
		if (!i)
			break;
	}
	if (!local && r->home != NG_HOME_HOST)
		sm->ctr.v[NG_CTR_REMOTE_TICKS] += r->t - r->t0;
	sm->ctr.v[NG_CTR_MEM_TICKS] += r->t - r->t0;
	sm->ring[slot] = r->t;
	slot = slot + 1 == m->mlp ? 0 : slot + 1;
	sm->ring_pos = slot;
	/*
	 * A component may hold the block past the issue (a full queue); the
	 * port, which the SM's other blocks issue through, is held by neither
	 * that nor a full ring.
	 */
	sm->port = issue + m->issue_ticks;
	if (sm->now > t)
		t = sm->now;
	sm->now = t + m->issue_ticks;
	if (r->t > sm->done_max)
		sm->done_max = r->t;
}
