/* SPDX-License-Identifier: GPL-2.0 */
/*
 * A preset (ngemu/config.h, ng_config_preset()): a paper's machine, as the
 * common ground of lib/config/presets.c changed by the paper's apply().
 * Each paper's is in its folder, user/papers/NAME/preset.c, built into the
 * library; config/papers.h lists them (NG_PAPERS).
 */
#ifndef NGEMU_LIB_CONFIG_PRESET_H
#define NGEMU_LIB_CONFIG_PRESET_H

#include "ngemu/config.h"

struct ng_preset {
	const char *name;
	const char *desc;		/* the setup */
	const char *paper;
	const char *missing;		/* NULL: all of the paper is built */
	void (*apply)(struct ng_config *c);
	/* its suite (ngemu bench --list): a line about it, its workloads */
	const char *suite;
	const char *const *workloads;	/* names, NULL-terminated */
};

/* The SMs two papers share (machines.c): MGPUSim's GCN3 CU, a Fermi SM. */
void ng_preset_mgpusim_cu(struct ng_config *c);
void ng_preset_fermi_sm(struct ng_config *c);

#endif /* NGEMU_LIB_CONFIG_PRESET_H */
