/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The CPU-GPU link's packets (private to lib/model; link.c): what the
 * link components and ScaleGPU's tag miss handler (scalegpu.c) send.
 */
#ifndef NGEMU_LIB_MODEL_LINK_H
#define NGEMU_LIB_MODEL_LINK_H

#include "ngemu/model/model.h"

/*
 * Bytes on the CPU-GPU link for @payload bytes of data: with host-header,
 * the data in packets of at most host-payload bytes, each behind its
 * header (a request without data: one header); else the data in flits.
 */
uint64_t ng_host_bytes(const struct ng_config *c, uint64_t payload);

/*
 * Send @payload bytes between @sm's GPU and the host (@to_gpu: towards
 * the GPU), ready at @t: the link direction is booked; returns when the
 * last byte has arrived (serialization plus one-way latency).
 */
ng_ticks ng_host_xfer(struct ng_sm *sm, bool to_gpu, ng_ticks t,
		      uint64_t payload);

#endif /* NGEMU_LIB_MODEL_LINK_H */
