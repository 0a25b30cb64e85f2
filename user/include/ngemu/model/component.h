/* SPDX-License-Identifier: GPL-2.0 */
/*
 * A component of the hardware model's pipeline (an L2, a remote data
 * cache, a link, ...), described by one struct: its name, the config keys
 * it owns, the counter groups it keeps, when a configuration turns it on,
 * and its operations. Every component is listed once, in pipeline order,
 * in ng_components[] (lib/model/registry.c); adding one is its own file
 * plus one line there, and, where it has settings or counters, its header
 * under ngemu/model/ (ngemu/model/l2.h is one): a struct of its settings
 * that struct ng_config embeds, their defaults, and its counters, which
 * util/counters.h takes in (the hot path needs their indices at compile
 * time).
 *
 * A line request meets the enabled components in table order on its way
 * to its home (route, then access) and in reverse order on its way back
 * (respond), where response legs are charged and caches fill.
 */
#ifndef NGEMU_MODEL_COMPONENT_H
#define NGEMU_MODEL_COMPONENT_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "ngemu/config.h"
#include "ngemu/util/counters.h"

struct ng_model;
struct ng_sm;
struct ng_req;

struct ng_component {
	const char *name;
	const char *desc;		/* one line: what it models */
	/* config keys it owns, ending with an entry whose name is NULL */
	const struct ng_key *keys;
	/* counter groups it keeps (ng_counter_info[].component), spaces */
	const char *counters;
	/*
	 * optional: its counters of remote or host requests it served
	 * without the link (a cache of the requester, a merge with a request
	 * in flight), ending with NG_CTR_MAX. A report's link fraction sums
	 * every component's, naming none.
	 */
	const unsigned int *off_link;
	/* in the pipeline for @c? NULL: always */
	bool (*enabled)(const struct ng_config *c);
	/* requests homed on the requesting GPU skip it... */
	bool remote_only;
	/* ...unless this says the configuration wants it to see them */
	bool (*sees_local)(const struct ng_config *c);
	/* the end of the pipeline (the memory): where the data is read */
	bool terminal;

	/*
	 * optional: the configuration's rules this component adds (checked
	 * with the others by ng_config_validate() when it is enabled)
	 */
	int (*validate)(const struct ng_config *c, char *err, size_t errlen);
	int (*create)(struct ng_model *m, void **priv, char *err, size_t errlen);
	void (*destroy)(void *priv);
	/*
	 * optional: before the request is classified local or remote, may
	 * change where it is served (r->home), as replication does
	 */
	void (*route)(void *priv, struct ng_sm *sm, struct ng_req *r);
	/* true: the request is complete here; later components are skipped */
	bool (*access)(void *priv, struct ng_sm *sm, struct ng_req *r);
	/* optional: the way back, for the components whose access ran */
	void (*respond)(void *priv, struct ng_sm *sm, struct ng_req *r);
	/* optional: kernel boundary (software coherence, ...) */
	void (*kernel_end)(void *priv, struct ng_sm *const *sms,
			   unsigned int nsm);
	/*
	 * optional: the end of an interval of modeled time, for GPU @gpu
	 * (pipeline.h, ng_model_sync()): what one GPU did that another must see
	 * is applied here, in an order that does not depend on the host.
	 * Phase 1 runs after every GPU's phase 0; sync_phases says how many.
	 */
	void (*sync)(void *priv, unsigned int phase, unsigned int gpu);
	unsigned int sync_phases;
	/* optional: statistics back to zero (ng_system_reset_counters()) */
	void (*reset)(void *priv);
	/*
	 * optional: drop @line from GPU @gpu's copy (coherence); true when
	 * there was one
	 */
	bool (*invalidate)(void *priv, unsigned int gpu, uintptr_t line);

	/*
	 * optional, for ngemu bench's report when the component is on: its
	 * part of the "mechanisms" line (what it is, its sizes; ending in
	 * "; "), and its own line, from a run's counters summed over the
	 * GPUs (ending in a newline)
	 */
	void (*describe)(const struct ng_config *c, FILE *f);
	void (*report)(const struct ng_config *c, const struct ng_counters *total,
		       FILE *f);
};

/* Every component, in pipeline order, NULL-terminated. */
extern const struct ng_component *const ng_components[];

/* The component called @name, or NULL. */
const struct ng_component *ng_component_find(const char *name);

/* Whether @c turns @comp on. */
static inline bool ng_component_enabled(const struct ng_component *comp,
					const struct ng_config *c)
{
	return !comp->enabled || comp->enabled(c);
}

#endif /* NGEMU_MODEL_COMPONENT_H */
