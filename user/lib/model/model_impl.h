/* SPDX-License-Identifier: GPL-2.0 */
/*
 * What the model's own files share and nothing outside lib/model may
 * use: the bandwidth servers' life cycle (resource.c) and a component's
 * state (pipeline.c).
 */
#ifndef NGEMU_LIB_MODEL_MODEL_IMPL_H
#define NGEMU_LIB_MODEL_MODEL_IMPL_H

#include "ngemu/model/model.h"

/* The bandwidth servers of @m (resource.c): 0 or -ENOMEM. */
int ng_resources_init(struct ng_model *m);
void ng_resources_fini(struct ng_model *m);
/* When, in absolute ticks, the last booking of any server may end. */
uint64_t ng_resources_drained(const struct ng_model *m);
/* Merge GPU @gpu's shadow calendars into the global ones. */
void ng_resources_merge(struct ng_model *m, unsigned int gpu);

/* The component @comp's state in @m, or NULL when it is not enabled. */
void *ng_model_priv(const struct ng_model *m, const struct ng_component *comp);

#endif /* NGEMU_LIB_MODEL_MODEL_IMPL_H */
