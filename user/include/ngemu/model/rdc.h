/* SPDX-License-Identifier: GPL-2.0 */
/*
 * CARVE's Remote Data Cache seen from outside the model (lib/model/rdc.c):
 * for tests and reports. Each returns -ENOENT when the model has no RDC.
 */
#ifndef NGEMU_RDC_H
#define NGEMU_RDC_H

#include <stdint.h>

struct ng_model;

struct ng_rdc_info {
	uint64_t lines;			/* per GPU */
	unsigned int tag_bits;		/* of the 33 the sidecar has */
	uint64_t carve_bytes;		/* all GPUs */
};

int ng_rdc_info(const struct ng_model *m, struct ng_rdc_info *out);
/*
 * The slot @line maps to in @gpu's RDC: its sidecar word and data.
 * Returns 1 when the slot holds @line validly in the current epoch, else 0.
 */
int ng_rdc_lookup(const struct ng_model *m, unsigned int gpu, uintptr_t line,
		  uint64_t *sidecar, const void **data);
/* Lines valid in the current epoch. */
int ng_rdc_valid_lines(const struct ng_model *m, unsigned int gpu,
		       uint64_t *n);
/* The GPU's epoch counter; @set (if not NULL) sets it first. */
int ng_rdc_epoch(const struct ng_model *m, unsigned int gpu, uint32_t *epoch,
		 const uint32_t *set);

#endif /* NGEMU_RDC_H */
