// SPDX-License-Identifier: GPL-2.0
/*
 * The model's components, in pipeline order (component.h). A request
 * meets them top to bottom on its way to its home and bottom to top on
 * its way back; a configuration turns each on or off. Each is
 * ng_FILE_component in lib/model/FILE.c; the name configs, counters and
 * reports use is its .name there, shorter for some (decision.c's is "de").
 */
#include <string.h>

#include "ngemu/model/component.h"

extern const struct ng_component ng_stress_component;
extern const struct ng_component ng_sharing_component;
extern const struct ng_component ng_page_access_component;
extern const struct ng_component ng_replication_component;
extern const struct ng_component ng_migrate_component;
extern const struct ng_component ng_decision_component;
extern const struct ng_component ng_l1_component;
extern const struct ng_component ng_mshr_component;
extern const struct ng_component ng_l2_component;
extern const struct ng_component ng_rdma_cache_component;
extern const struct ng_component ng_rdc_component;
extern const struct ng_component ng_scalegpu_component;
extern const struct ng_component ng_link_component;
extern const struct ng_component ng_carve_coherence_component;
extern const struct ng_component ng_directory_component;
extern const struct ng_component ng_mem_side_l2_component;
extern const struct ng_component ng_mem_component;

const struct ng_component *const ng_components[] = {
	&ng_stress_component,		/* host perturbation, for determinism */
	&ng_sharing_component,		/* measured: who shares what */
	&ng_page_access_component,	/* measured: which blocks touch what */
	&ng_replication_component,	/* served by a local copy of the page */
	&ng_migrate_component,		/* pages move on first remote touch */
	&ng_decision_component,		/* DualOpt: marks remote requests */
	&ng_l1_component,		/* REC: per real SM, local and remote */
	&ng_mshr_component,		/* DualOpt: fine-grained loads' MSHRs */
	&ng_l2_component,		/* remote lines (local too: l2-local) */
	&ng_rdma_cache_component,	/* DualOpt: remote lines, per GPU */
	&ng_rdc_component,		/* CARVE: remote lines in memory */
	&ng_scalegpu_component,		/* ScaleGPU: memory caches the host */
	&ng_link_component,		/* inter-GPU and CPU-GPU links */
	&ng_carve_coherence_component,	/* CARVE: the IMST at the home */
	&ng_directory_component,	/* REC: sharers of the home's lines */
	&ng_mem_side_l2_component,	/* MGPUSim: in front of each memory */
	&ng_mem_component,		/* the home's memory */
	NULL,
};

const struct ng_component *ng_component_find(const char *name)
{
	for (unsigned int i = 0; ng_components[i]; i++)
		if (!strcmp(ng_components[i]->name, name))
			return ng_components[i];
	return NULL;
}
