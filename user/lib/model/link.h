/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The CPU-GPU link's transfers (private to lib/model; link.c): what the
 * link component and ScaleGPU's tag miss handler (scalegpu.c) send; the
 * bytes of a transfer are ng_host_bytes() (ngemu/model/link_xfer.h). And the
 * fabric's use (ngemu/model/linkuse.h) of a transfer booked elsewhere.
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

/*
 * Count @bytes from GPU @from to GPU @to in the fabric's use, on every
 * server of the route, without booking them: for transfers whose time is
 * accounted otherwise (ng_link_charge(), the RDMA cache's write-back at
 * kernel end). Only from @from's host thread, or with no SM running.
 */
void ng_link_count(struct ng_model *m, unsigned int from, unsigned int to,
		   uint64_t bytes);

#endif /* NGEMU_LIB_MODEL_LINK_H */
