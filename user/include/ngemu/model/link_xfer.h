/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Transfers over the links (ngemu/model/model.h; lib/model/link.c), for
 * any component that sends data between GPUs or to the host: the servers
 * a transfer between two GPUs crosses in the configured topology, booking
 * them from an SM or in the background, what a transfer costs, the
 * one-way latency, and a CPU-GPU transfer's bytes.
 */
#ifndef NGEMU_MODEL_LINK_XFER_H
#define NGEMU_MODEL_LINK_XFER_H

#include <stdint.h>

#include "ngemu/config.h"
#include "ngemu/model/pipeline.h"
#include "ngemu/model/resource.h"
#include "ngemu/model/sm.h"
#include "ngemu/model/ticks.h"

/*
 * The bandwidth servers data from GPU @from to GPU @to crosses, in order:
 * the pair's own link on a mesh; on a switch or a hub, the sender's port
 * out and the receiver's port in.
 */
struct ng_route {
	unsigned int n;
	unsigned int ri[2];
};

/* The route from GPU @from to GPU @to in @m's topology. */
static inline struct ng_route ng_link_route(const struct ng_model *m,
					    unsigned int from, unsigned int to)
{
	if (m->cfg->topology == NG_TOPO_MESH)
		return (struct ng_route){ 1, { ng_res_link(m, from, to), 0 } };
	return (struct ng_route){ 2, { ng_res_port(m, from, false),
				       ng_res_port(m, to, true) } };
}

/*
 * Send @bytes from GPU @from to GPU @to, ready at @t, over the topology's
 * route: each server is booked in turn, a hop starting no earlier than the
 * one before it (cut-through). Returns when the last byte has left the
 * last server; latency is the caller's (ng_link_latency()). With @start,
 * when the first byte left the first one.
 */
static inline ng_ticks ng_link_xfer(struct ng_sm *sm, unsigned int from,
				    unsigned int to, ng_ticks t, uint64_t bytes,
				    ng_ticks *start)
{
	struct ng_route rt = ng_link_route(sm->model, from, to);
	ng_ticks s = t, end = 0, dur;

	sm->link_bytes[from * sm->model->ngpus + to] += bytes;
	for (unsigned int i = 0; i < rt.n; i++) {
		s = ng_reserve(sm, rt.ri[i], s, bytes, &dur);
		sm->link_busy[rt.ri[i]] += dur;
		if (!i && start)
			*start = s;
		if (s + dur > end)
			end = s + dur;
	}
	return end;
}

/*
 * ng_resource_charge() on every server of the route (background work, on
 * @from's host thread: the phases of its home, model/link.c).
 */
void ng_link_charge(struct ng_model *m, unsigned int from, unsigned int to,
		    ng_ticks t, uint64_t bytes);

/* What @bytes from @from to @to take on the route's slowest server. */
static inline ng_ticks ng_link_cost(const struct ng_model *m,
				    unsigned int from, unsigned int to,
				    uint64_t bytes)
{
	struct ng_route rt = ng_link_route(m, from, to);
	ng_ticks worst = 0;

	for (unsigned int i = 0; i < rt.n; i++) {
		ng_ticks d = ng_cost(m, rt.ri[i], bytes);

		if (d > worst)
			worst = d;
	}
	return worst;
}

/*
 * One way, GPU to GPU: link-latency, twice on a hub (through the CPU's
 * two links).
 */
static inline ng_ticks ng_link_latency(const struct ng_model *m)
{
	double ns = m->cfg->link_latency_ns;

	if (m->cfg->topology == NG_TOPO_HUB)
		ns *= 2;
	return (ng_ticks)(ns * NG_TICKS_PER_NS);
}

/*
 * Bytes on the CPU-GPU link for @payload bytes of data (model/link.c):
 * with host-header, the data in packets of at most host-payload bytes,
 * each behind its header (a request without data: one header); else the
 * data in flits.
 */
uint64_t ng_host_bytes(const struct ng_config *c, uint64_t payload);

#endif /* NGEMU_MODEL_LINK_XFER_H */
