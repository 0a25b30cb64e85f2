/* SPDX-License-Identifier: GPL-2.0 */
/*
 * CARVE's Remote Data Cache seen from outside the model (lib/model/rdc.c):
 * for tests and reports. Each returns -ENOENT when the model has no RDC.
 */
#ifndef NGEMU_RDC_H
#define NGEMU_RDC_H

#include <stdbool.h>
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

/*
 * The RDC's settings (CARVE sec. IV: a remote data cache carved out of
 * each GPU's memory, kept coherent by software or by hardware, GPU-VI
 * with the IMST). They sit in struct ng_config as its member .rdc; the
 * keys rdc-size (bytes or a % of mem-per-gpu), coherence and imst-reset
 * set them.
 */
/* Coherence of the remote data cache (CARVE section IV-B). */
enum ng_coherence {
	NG_COH_NONE,		/* no coherence: an upper bound, stale data possible */
	NG_COH_SWC,		/* software: epoch bump at every kernel boundary */
	NG_COH_HWC,		/* hardware: GPU-VI write-invalidate, IMST filtered */
};

struct ng_rdc_config {
	uint64_t size;			/* per GPU; 0: no RDC */
	double pct;			/* > 0: size is this % of mem-per-gpu */
	enum ng_coherence coherence;
	double imst_reset;		/* HWC: chance a local write resets to private */
};

/* None; when given, hardware coherence, a 1% reset chance. */
#define NG_RDC_DEFAULTS	{ .coherence = NG_COH_HWC, .imst_reset = 0.01 }

/*
 * Its counters, in the form of ngemu/util/counters.h's list (which takes
 * them in): X(ID, component, name, what it counts).
 */
#define NG_RDC_COUNTERS(X)						\
	X(RDC_HIT,	"rdc",	"hits",		"remote loads served by the RDC") \
	X(RDC_MISS,	"rdc",	"misses",	"remote loads missing the RDC") \
	X(RDC_FILL,	"rdc",	"fills",	"remote lines inserted in the RDC") \
	X(RDC_EVICT,	"rdc",	"evictions",	"valid RDC lines replaced") \
	X(RDC_WUPD,	"rdc",	"write_updates", "RDC lines updated by own stores") \
	X(RDC_INVAL,	"rdc",	"invalidations", "RDC lines dropped by HWC invalidates") \
	X(RDC_FLUSH,	"rdc",	"epoch_flushed", "valid RDC lines dropped by SWC epochs")

/*
 * True when a configuration has an RDC: the component is in use (a size
 * given as a % of memory counts once ng_config_resolve() has turned it
 * into bytes).
 */
static inline bool ng_rdc_on(const struct ng_rdc_config *rdc)
{
	return rdc->size != 0;
}

#endif /* NGEMU_RDC_H */
