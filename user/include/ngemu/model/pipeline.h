/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The model itself (ngemu/model/model.h; lib/model/pipeline.c): the
 * enabled components in pipeline order with their state, the bandwidth
 * servers, what every SM copies of the configuration, and what runs it
 * from outside: a kernel's start and end, the end of an interval of
 * modeled time, counters, coherence's invalidations.
 */
#ifndef NGEMU_MODEL_PIPELINE_H
#define NGEMU_MODEL_PIPELINE_H

#include <stdatomic.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "ngemu/config.h"
#include "ngemu/model/component.h"
#include "ngemu/model/ticks.h"
#include "ngemu/runtime/space.h"
#include "ngemu/util/counters.h"

/* The most components one configuration enables. */
#define NG_MAX_COMPONENTS 24

struct ng_resource;
struct ng_sm;

/* One emulated system's model, shared by all its SMs. */
struct ng_model {
	const struct ng_config *cfg;
	struct ng_space *space;
	unsigned int ngpus;
	unsigned int ncomp;		/* the enabled components, in order */
	const struct ng_component *comp[NG_MAX_COMPONENTS];
	void *priv[NG_MAX_COMPONENTS];
	bool remote_only[NG_MAX_COMPONENTS];	/* this run skips local ones */
	bool routes;			/* some component has a route op */
	unsigned int nres;
	struct ng_resource *res;	/* see ng_res_*() for the layout */
	ng_ticks issue_ticks;		/* SM issue interval per request */
	uint64_t inst_fp;		/* ticks per warp instruction, 16.16 */
	ng_ticks time_base;		/* kernels follow each other in bins */
	unsigned int max_shift;
	bool local_inline;		/* local requests: memory only */
	unsigned int mlp;
	ng_ticks mem_latency;
	ng_ticks mem_line_dur;
	/*
	 * Per GPU: what components count outside any SM (ng_model_sync()'s
	 * phases, run by the GPU's own host thread); added to the GPU's.
	 */
	struct ng_counters *gctr;
	/*
	 * The home memory's sidecar, one ECC word per line of the space,
	 * when a component keeps it (CARVE HWC: the IMST in its low bits).
	 */
	_Atomic uint64_t *home_sc;
	unsigned int line_shift;
	/*
	 * Per GPU, at link_stride words apart: what the fabric carried since
	 * the counters' reset (ngemu/model/linkuse.h), bytes per ordered pair
	 * then busy ticks per server; link_ticks is the kernels' time.
	 */
	uint64_t *link_use;
	size_t link_stride;
	ng_ticks link_ticks;
};

/*
 * The model of @cfg over @space: its servers and the components @cfg
 * enables, each created. 0, or an error with its message in @err.
 */
int ng_model_init(struct ng_model *m, const struct ng_config *cfg,
		  struct ng_space *space, char *err, size_t errlen);
/* Destroy the components, free what init allocated; @m is zeroed. */
void ng_model_fini(struct ng_model *m);

/* The model's own counters (outside SMs), summed into @out: GPU @gpu or all. */
void ng_model_counters(const struct ng_model *m, int gpu,
		       struct ng_counters *out);
/*
 * Those counters, the fabric's use and every component's statistics back
 * to zero (ng_system_reset_counters()).
 */
void ng_model_reset_counters(struct ng_model *m);

/*
 * Coherence: drop @line from GPU @gpu's caches (every component with an
 * invalidate op); true when some cache held it. Only from
 * ng_model_sync()'s phases, for the GPU whose thread runs them.
 */
bool ng_model_invalidate(struct ng_model *m, unsigned int gpu, uintptr_t line);

/*
 * The end of an interval, for GPU @gpu, once every SM has reached it
 * (runtime/pool.c): phase 0 merges the GPU's shadow calendars into the
 * global ones and runs the components' first phase (HWC: the home's IMST
 * and broadcasts); phase 1, after every GPU's phase 0, decides the pages
 * first touched in the interval (the earliest claim wins) and runs the
 * components' second phase (invalidations reach the GPU's caches). Then
 * ng_sm_resync() each SM. Phases of different GPUs may run at once on
 * different threads.
 */
void ng_model_sync(struct ng_model *m, unsigned int phase, unsigned int gpu);
/*
 * Whether this interval's end has a phase 1: a component has one, or a
 * GPU touched a page first. The same answer on every thread, asked after
 * the interval's run and before phase 1.
 */
bool ng_model_sync_phase1(const struct ng_model *m);

/* Start of a kernel: clocks and resources back to zero. */
void ng_model_kernel_begin(struct ng_model *m, struct ng_sm *const *sms,
			   unsigned int nsm);
/* End of a kernel: boundary actions; returns the kernel's modeled time. */
ng_ticks ng_model_kernel_end(struct ng_model *m, struct ng_sm *const *sms,
			     unsigned int nsm);

#endif /* NGEMU_MODEL_PIPELINE_H */
