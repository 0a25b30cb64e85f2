/* SPDX-License-Identifier: GPL-2.0 */
/*
 * CARVE's hardware coherence (lib/model/carve_coherence.c): GPU-VI
 * write-invalidate, filtered by the In-Memory Sharing Tracker kept in the
 * spare ECC bits of every home line. Seen from the caches, from tests and
 * from reports.
 */
#ifndef NGEMU_MODEL_HWC_H
#define NGEMU_MODEL_HWC_H

#include <stdbool.h>
#include <stdint.h>

#include "ngemu/config.h"
#include "ngemu/model/model.h"
#include "ngemu/model/sidecar.h"

/* Whether @c runs HWC: an RDC with coherence hwc. */
static inline bool ng_hwc_enabled(const struct ng_config *c)
{
	return c->rdc.size && c->rdc.coherence == NG_COH_HWC;
}

/*
 * The IMST state a cache keeps with a copy of remote line @line that a
 * read just brought: the home's state as that read leaves it (read-shared
 * or read-write shared). 0 when the model runs no HWC.
 */
static inline unsigned int ng_hwc_copy_state(const struct ng_model *m,
					     uintptr_t line)
{
	uint64_t li;

	if (!m->home_sc)
		return 0;
	li = (line - (uintptr_t)m->space->base) >> m->line_shift;
	return ng_sc_imst(atomic_load_explicit(&m->home_sc[li],
					       memory_order_relaxed)) ==
	       NG_IMST_RWSHARED ? NG_IMST_RWSHARED : NG_IMST_RSHARED;
}

/*
 * The sidecar word of home line @line (the IMST in its low 2 bits, as
 * ngemu/model/sidecar.h packs it), or -ENOENT without HWC.
 */
int ng_hwc_sidecar(const struct ng_model *m, uintptr_t line, uint64_t *word);
/* The IMST of home line @line (enum ng_imst), or -ENOENT without HWC. */
int ng_hwc_imst(const struct ng_model *m, uintptr_t line);

#endif /* NGEMU_MODEL_HWC_H */
