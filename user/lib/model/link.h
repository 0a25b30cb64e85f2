/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The CPU-GPU link's transfers (private to lib/model; link.c): what the
 * link component and ScaleGPU's tag miss handler (scalegpu.c) send; the
 * bytes of a transfer are ng_host_bytes() (ngemu/model/model.h).
 */
#ifndef NGEMU_LIB_MODEL_LINK_H
#define NGEMU_LIB_MODEL_LINK_H

#include "ngemu/model/model.h"

/*
 * Send @payload bytes between @sm's GPU and the host (@to_gpu: towards
 * the GPU), ready at @t: the link direction is booked; returns when the
 * last byte has arrived (serialization plus one-way latency).
 */
ng_ticks ng_host_xfer(struct ng_sm *sm, bool to_gpu, ng_ticks t,
		      uint64_t payload);

#endif /* NGEMU_LIB_MODEL_LINK_H */
