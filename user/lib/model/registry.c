// SPDX-License-Identifier: GPL-2.0
/*
 * The model's components, in pipeline order (component.h). A request
 * meets them top to bottom on its way to its home and bottom to top on
 * its way back; a configuration turns each on or off.
 */
#include <string.h>

#include "ngemu/model/component.h"

extern const struct ng_component ng_stress_component;
extern const struct ng_component ng_sharing_component;
extern const struct ng_component ng_pageacc_component;
extern const struct ng_component ng_repl_component;
extern const struct ng_component ng_migrate_component;
extern const struct ng_component ng_de_component;
extern const struct ng_component ng_l1_component;
extern const struct ng_component ng_mshr_component;
extern const struct ng_component ng_l2_component;
extern const struct ng_component ng_rdma_component;
extern const struct ng_component ng_rdc_component;
extern const struct ng_component ng_scalegpu_component;
extern const struct ng_component ng_link_component;
extern const struct ng_component ng_hwc_component;
extern const struct ng_component ng_dir_component;
extern const struct ng_component ng_msl2_component;
extern const struct ng_component ng_mem_component;

const struct ng_component *const ng_components[] = {
	&ng_stress_component,	/* host perturbation: determinism checks */
	&ng_sharing_component,	/* a measurement: who shares what */
	&ng_pageacc_component,	/* a measurement: which blocks touch what */
	&ng_repl_component,	/* replication: where a line is read */
	&ng_migrate_component,	/* page migration on first remote touch */
	&ng_de_component,	/* DualOpt: decision engine, marks requests */
	&ng_l1_component,	/* REC: an L1 per real SM, local and remote */
	&ng_mshr_component,	/* DualOpt: fine-grained loads' MSHRs */
	&ng_l2_component,	/* L2: remote lines */
	&ng_rdma_component,	/* DualOpt: the RDMA cache, remote lines */
	&ng_rdc_component,	/* CARVE: remote data cache, coherence */
	&ng_scalegpu_component,	/* ScaleGPU: device memory caches the host */
	&ng_link_component,	/* inter-GPU and CPU-GPU links */
	&ng_hwc_component,	/* CARVE: coherence at the home */
	&ng_dir_component,	/* REC: the directory at the home */
	&ng_msl2_component,	/* MGPUSim's L2, in front of each memory */
	&ng_mem_component,	/* the home's memory */
	NULL,
};

const struct ng_component *ng_component_find(const char *name)
{
	for (unsigned int i = 0; ng_components[i]; i++)
		if (!strcmp(ng_components[i]->name, name))
			return ng_components[i];
	return NULL;
}
