/* SPDX-License-Identifier: GPL-2.0 */
/*
 * A small model to test one component in: a preset cut down to a few GPUs
 * of one SM each (4 KiB pages, 16 MiB each, deterministic, the user
 * backend), with every optional component off (no L1, L2, RDC, HWC), so
 * that a test turns on the one it is about and drives it request by
 * request at modeled times it chooses. Each GPU g gets a buffer homed on
 * it, buf[g], whose word i holds g * 1000000 + i.
 */
#ifndef NG_TEST_MODEL_RIG_H
#define NG_TEST_MODEL_RIG_H

#include <string.h>

#include "ng_test.h"

#include "ngemu/config.h"
#include "ngemu/model/linkuse.h"
#include "ngemu/model/model.h"
#include "ngemu/runtime/space.h"

#define RIG_GPUS	4

struct rig {
	struct ng_config cfg;
	struct ng_space sp;
	struct ng_model m;
	struct ng_sm sm[RIG_GPUS];
	struct ng_sm *sms[RIG_GPUS];
	struct ng_buf buf[RIG_GPUS];
	uint64_t bytes;			/* of each buffer */
	bool up;
};

/* |a - b| <= tol */
#define EXPECT_NEAR(a, b, tol)						\
	EXPECT_GE((double)(tol), (double)(a) > (double)(b) ?		\
		  (double)(a) - (double)(b) : (double)(b) - (double)(a))

static inline ng_ticks rig_ns(double ns)
{
	return (ng_ticks)(ns * NG_TICKS_PER_NS);
}

/* An idle local load: its line at local-bw, then local-latency (mem.c). */
static inline double rig_local_ns(const struct ng_config *c)
{
	return c->line / c->local_bw + c->local_latency_ns;
}

/* An idle remote load on a mesh: the request over, the memory, the line back. */
static inline double rig_remote_ns(const struct ng_config *c)
{
	return 2 * c->link_latency_ns + rig_local_ns(c) + c->line / c->link_bw;
}

/* The configuration: @preset with everything optional off. */
static inline void rig_cfg(struct __test_metadata *_metadata, struct rig *r,
			   const char *preset, unsigned int gpus)
{
	char err[256];

	memset(r, 0, sizeof(*r));
	ASSERT_EQ(0, ng_config_preset(&r->cfg, preset, err, sizeof(err)))
		TH_LOG("%s", err);
	r->cfg.gpus = gpus;
	r->cfg.sms = 1;
	r->cfg.sm_scale = 1;
	r->cfg.page = 4096;
	r->cfg.mem_per_gpu = 16 << 20;
	r->cfg.deterministic = true;
	r->cfg.backend = NG_MEM_USER;
	r->cfg.l1.size = 0;
	r->cfg.l2.size = 0;
	r->cfg.l2.local = false;
	r->cfg.rdc.size = 0;
	r->cfg.rdc.pct = 0;
	r->cfg.rdc.coherence = NG_COH_SWC;
	r->cfg.msl2.size = 0;
	r->cfg.remote_opt = NG_RO_OFF;
	r->cfg.replicate = NG_REPL_NONE;
	r->cfg.mig.mode = NG_MIGRATE_OFF;
	r->cfg.dir.kind = NG_DIR_OFF;
	r->cfg.sg.device_mem = 0;
	r->cfg.sg.device_mem_pct = 0;
	r->cfg.sharing_profile = false;
	r->cfg.page_profile = false;
	r->bytes = 1 << 20;
}

/* ... then the space, the model, an SM per GPU, the buffers, a kernel. */
static inline void rig_up(struct __test_metadata *_metadata, struct rig *r)
{
	struct ng_alloc_opts o = { .place = NG_PLACE_NODE };
	unsigned int n = r->cfg.gpus;
	char err[256];

	ng_config_resolve(&r->cfg);
	ASSERT_EQ(0, ng_config_validate(&r->cfg, err, sizeof(err))) TH_LOG("%s", err);
	ASSERT_EQ(0, ng_space_init(&r->sp, &r->cfg, NULL, 1, err, sizeof(err)))
		TH_LOG("%s", err);
	ASSERT_EQ(0, ng_model_init(&r->m, &r->cfg, &r->sp, err, sizeof(err)))
		TH_LOG("%s", err);
	for (unsigned int g = 0; g < n; g++) {
		ASSERT_EQ(0, ng_sm_init(&r->sm[g], &r->m, g, 0, g));
		r->sms[g] = &r->sm[g];
	}
	for (unsigned int g = 0; g < n; g++) {
		uint32_t *v;

		o.node = g;
		ASSERT_EQ(0, ng_malloc(&r->sp, &r->buf[g], r->bytes, &o, err,
				       sizeof(err))) TH_LOG("%s", err);
		v = r->buf[g].ptr;
		for (uint64_t i = 0; i < r->bytes / 4; i++)
			v[i] = (uint32_t)(g * 1000000 + i);
	}
	r->up = true;
	ng_model_reset_counters(&r->m);
	ng_model_kernel_begin(&r->m, r->sms, n);
}

static inline void rig_down(struct rig *r)
{
	if (!r->up)
		return;
	for (unsigned int g = 0; g < r->cfg.gpus; g++)
		ng_sm_fini(&r->sm[g]);
	for (unsigned int g = 0; g < r->cfg.gpus; g++)
		ng_free(&r->sp, &r->buf[g]);
	ng_model_fini(&r->m);
	ng_space_fini(&r->sp);
	r->up = false;
}

/* Word @i of the buffer homed on GPU @g. */
static inline uint32_t *rig_word(struct rig *r, unsigned int g, uint64_t i)
{
	return (uint32_t *)r->buf[g].ptr + i;
}

/* Line @l of the buffer homed on GPU @g. */
static inline uint32_t *rig_line(struct rig *r, unsigned int g, uint64_t l)
{
	return rig_word(r, g, l * (r->cfg.line / 4));
}

/* A counter of GPU @g: its SM's and what the model counted for it. */
static inline uint64_t rig_ctr(struct rig *r, unsigned int g, unsigned int id)
{
	return r->sm[g].ctr.v[id] + r->m.gctr[g].v[id];
}

/*
 * One request of @op by GPU @g's SM, issued at @at (its clock is set
 * there; NG_TICKS_MAX keeps the clock as it is) for the words @mask of
 * @p's line (0: the word @p alone). Returns the request: r.t is its
 * completion, r.t0 its issue, r.src where its data came from.
 */
#define RIG_NOW	((ng_ticks)~0ULL)
static inline struct ng_req rig_req(struct rig *r, unsigned int g, void *p,
				    unsigned int op, uint64_t mask, ng_ticks at)
{
	struct ng_sm *sm = &r->sm[g];
	unsigned int line = r->cfg.line;
	struct ng_req q = { .line = (uintptr_t)p & ~(uintptr_t)(line - 1),
			    .op = op, .gpu = g };

	q.mask = mask ? mask : 1ULL << (((uintptr_t)p & (line - 1)) / 4);
	q.home = ng_home(&r->sp, q.line, g);
	if (at != RIG_NOW)
		sm->now = at;
	ng_model_access(sm, &q);
	return q;
}

/* A load of the word @p by GPU @g at @at; *@t its completion time. */
static inline uint32_t rig_load(struct rig *r, unsigned int g, uint32_t *p,
				ng_ticks at, ng_ticks *t)
{
	struct ng_req q = rig_req(r, g, p, NG_OP_LOAD, 0, at);
	unsigned int off = (unsigned int)((uintptr_t)p & (r->cfg.line - 1));

	if (t)
		*t = q.t;
	return *(const uint32_t *)((const char *)q.src + off);
}

/* A store as ng_st does it: the home's memory first, then the model. */
static inline ng_ticks rig_store(struct rig *r, unsigned int g, uint32_t *p,
				 uint32_t v, ng_ticks at)
{
	*p = v;
	return rig_req(r, g, p, NG_OP_STORE, 0, at).t;
}

/* The end of an interval, as the pool runs it. */
static inline void rig_settle(struct rig *r)
{
	for (unsigned int ph = 0; ph < 2; ph++)
		for (unsigned int g = 0; g < r->cfg.gpus; g++)
			ng_model_sync(&r->m, ph, g);
	for (unsigned int g = 0; g < r->cfg.gpus; g++)
		ng_sm_resync(&r->sm[g]);
}

/* The end of the kernel (an interval's end first) and the next's start. */
static inline ng_ticks rig_next_kernel(struct rig *r)
{
	ng_ticks t;

	rig_settle(r);
	t = ng_model_kernel_end(&r->m, r->sms, r->cfg.gpus);
	ng_model_kernel_begin(&r->m, r->sms, r->cfg.gpus);
	return t;
}

/*
 * GPU @g streams @n lines of the buffer homed on @home, one load each,
 * issued as fast as its SM issues them; returns the last completion.
 */
static inline ng_ticks rig_stream(struct rig *r, unsigned int g,
				  unsigned int home, uint64_t n)
{
	ng_ticks last = 0, t;

	r->sm[g].now = 0;
	for (uint64_t l = 0; l < n; l++) {
		(void)rig_load(r, g, rig_line(r, home, l), RIG_NOW, &t);
		if (t > last)
			last = t;
	}
	return last;
}

#endif /* NG_TEST_MODEL_RIG_H */
