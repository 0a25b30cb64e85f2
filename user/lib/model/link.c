// SPDX-License-Identifier: GPL-2.0
/*
 * Link component: the inter-GPU fabric and each GPU's CPU-GPU link. The
 * fabric's topology says which bandwidth servers a transfer crosses
 * (ng_link_route()): on a mesh, the pair's own link (one per ordered GPU
 * pair, each direction its own server), so a GPU sends (n - 1) x link-bw;
 * behind a switch or a hub, the sender's port out and the receiver's port
 * in, so a GPU sends and receives link-bw in all. A hub's GPUs reach each
 * other through the CPU: two links, twice link-latency. A load
 * sends a small request one way (latency only: headers are not charged to
 * bandwidth) and gets the line back the other way (latency plus
 * serialization, queued behind other transfers in that direction); a
 * store carries its masked words to the home. Transfers round up to flits.
 *
 * DualOpt's fine-grained loads (NG_REQ_FINE) bring back only the
 * xfer-gran units their mask uses: each response alone, or packed with
 * others towards the same GPU by the home port's CoDec (codec.c) when
 * codec-pack is not 0.
 *
 * The CPU-GPU link carries PCIe packets when host-header is set: each up
 * to host-payload bytes of data behind its header (ScaleGPU's Table 1).
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "model/codec.h"
#include "model/link.h"
#include "ngemu/model/linkuse.h"
#include "ngemu/model/model.h"
#include "ngemu/util/err.h"

struct link {
	bool codec_on;
	struct ng_codec codec;
};

static uint64_t flits(const struct ng_config *c, uint64_t bytes)
{
	return (bytes + c->flit - 1) / c->flit * c->flit;
}

static uint64_t req_bytes(const struct ng_config *c, const struct ng_req *r)
{
	if (r->op == NG_OP_LOAD)
		return flits(c, c->line);
	return flits(c, 4 * (uint64_t)ng_popcount64(r->mask));
}

uint64_t ng_host_bytes(const struct ng_config *c, uint64_t payload)
{
	uint64_t per = c->host_payload ? c->host_payload : payload;

	if (!c->host_header)
		return flits(c, payload);
	/* a request without data is one header */
	if (!payload)
		return c->host_header;
	return payload + (payload + per - 1) / per * c->host_header;
}

ng_ticks ng_host_xfer(struct ng_sm *sm, bool to_gpu, ng_ticks t,
		      uint64_t payload)
{
	struct ng_model *m = sm->model;
	const struct ng_config *c = m->cfg;
	unsigned int ri = ng_res_host(m, sm->gpu, to_gpu);
	uint64_t bytes = ng_host_bytes(c, payload);
	ng_ticks start, dur;

	start = ng_reserve(sm, ri, t, bytes, &dur);
	sm->ctr.v[NG_CTR_HOST_BYTES] += bytes;
	return start + dur +
	       (ng_ticks)(c->host_latency_ns * NG_TICKS_PER_NS);
}

/*
 * Count @bytes from @from to @to over route @rt in @from's link use, and
 * charge each server at @t unless @t is NG_NO_CHARGE.
 */
#define NG_NO_CHARGE	UINT64_MAX
static void use_route(struct ng_model *m, unsigned int from, unsigned int to,
		      const struct ng_route *rt, ng_ticks t, uint64_t bytes)
{
	uint64_t *use = m->link_use + from * m->link_stride;

	use[from * m->ngpus + to] += bytes;
	for (unsigned int i = 0; i < rt->n; i++) {
		ng_ticks dur = ng_cost(m, rt->ri[i], bytes);

		use[m->ngpus * m->ngpus + rt->ri[i]] += dur;
		if (t != NG_NO_CHARGE)
			ng_resource_charge(m, rt->ri[i], t, dur);
	}
}

void ng_link_count(struct ng_model *m, unsigned int from, unsigned int to,
		   uint64_t bytes)
{
	struct ng_route rt = ng_link_route(m, from, to);

	use_route(m, from, to, &rt, NG_NO_CHARGE, bytes);
}

/*
 * The callers' phases run on the home's thread and send from the home:
 * @from's part of the link use is that thread's.
 */
void ng_link_charge(struct ng_model *m, unsigned int from, unsigned int to,
		    ng_ticks t, uint64_t bytes)
{
	struct ng_route rt = ng_link_route(m, from, to);

	use_route(m, from, to, &rt, t, bytes);
}

#define NRES_MAX	(NG_MAX_GPUS + NG_MAX_GPUS * NG_MAX_GPUS + 4 * NG_MAX_GPUS)

static void add_server(struct ng_link_usage *u, struct ng_link_server s,
		       unsigned int ri, const uint64_t *bytes,
		       const uint64_t *busy)
{
	s.bytes = bytes[ri];
	s.busy = busy[ri];
	u->server[u->nservers++] = s;
}

void ng_link_usage(const struct ng_model *m, struct ng_link_usage *out)
{
	unsigned int n = m->ngpus;
	/* per server, as resource.c lays them out for the most GPUs */
	uint64_t busy[NRES_MAX] = { 0 }, bytes[NRES_MAX] = { 0 };

	memset(out, 0, sizeof(*out));
	out->topology = m->cfg->topology;
	out->ngpus = n;
	out->ticks = m->link_ticks;
	/* a GPU's part: what its SMs booked, either way, and its phases sent */
	for (unsigned int g = 0; g < n; g++) {
		const uint64_t *use = m->link_use + g * m->link_stride;

		for (unsigned int i = 0; i < n; i++)
			for (unsigned int j = 0; j < n; j++)
				out->pair[i][j] += use[i * n + j];
		for (unsigned int r = 0; r < m->nres; r++)
			busy[r] += use[n * n + r];
	}
	/* a server carried what every pair whose route crosses it sent */
	for (unsigned int i = 0; i < n; i++)
		for (unsigned int j = 0; j < n; j++) {
			struct ng_route rt = ng_link_route(m, i, j);

			for (unsigned int k = 0; i != j && k < rt.n; k++)
				bytes[rt.ri[k]] += out->pair[i][j];
		}
	if (out->topology == NG_TOPO_MESH) {
		for (unsigned int i = 0; i < n; i++)
			for (unsigned int j = 0; j < n; j++)
				if (i != j)
					add_server(out, (struct ng_link_server){
							   .from = i, .to = j },
						   ng_res_link(m, i, j), bytes, busy);
		return;
	}
	for (unsigned int g = 0; g < n; g++)
		for (unsigned int in = 0; in < 2; in++)
			add_server(out, (struct ng_link_server){ .gpu = g, .in = in },
				   ng_res_port(m, g, in), bytes, busy);
}

static void owe(struct ng_sm *sm, ng_ticks dur, double lat_ns)
{
	/*
	 * Injection: serialization is real occupancy; latency overlaps with
	 * the SM's other requests in flight, so only 1/mlp of it is owed.
	 */
	sm->inj_owed_ns += (double)dur / NG_TICKS_PER_NS +
			   2 * lat_ns / sm->mlp;
	ng_inject_settle(sm, false);
}

static bool link_access(void *priv, struct ng_sm *sm, struct ng_req *r)
{
	struct ng_model *m = sm->model;
	const struct ng_config *c = m->cfg;
	bool host = r->home == NG_HOME_HOST;
	ng_ticks lat_t = host ? (ng_ticks)(c->host_latency_ns * NG_TICKS_PER_NS)
			      : ng_link_latency(m);
	double lat = (double)lat_t / NG_TICKS_PER_NS;
	uint64_t bytes;
	ng_ticks start, dur, end;

	(void)priv;
	if (r->home == r->gpu)
		return false;
	/* REC's inter-GPU transactions: a request, or a transfer of data */
	if (!host)
		sm->ctr.v[r->op == NG_OP_STORE ? NG_CTR_XACT_DATA
					       : NG_CTR_XACT_REQ]++;
	if (r->op == NG_OP_LOAD) {
		r->t += lat_t;
		return false;
	}
	if (host) {
		bytes = ng_host_bytes(c, 4 * (uint64_t)ng_popcount64(r->mask));
		start = ng_reserve(sm, ng_res_host(m, r->gpu, false), r->t,
				   bytes, &dur);
		end = start + dur;
	} else {
		bytes = req_bytes(c, r);
		end = ng_link_xfer(sm, r->gpu, r->home, r->t, bytes, &start);
		dur = end - start;
	}
	r->t = end + lat_t;
	sm->ctr.v[host ? NG_CTR_HOST_BYTES : NG_CTR_LINK_TX] += bytes;
	if (c->inject)
		owe(sm, dur, lat);
	return false;
}

static void link_respond(void *priv, struct ng_sm *sm, struct ng_req *r)
{
	struct link *l = priv;
	struct ng_model *m = sm->model;
	const struct ng_config *c = m->cfg;
	bool host = r->home == NG_HOME_HOST;
	ng_ticks lat_t = host ? (ng_ticks)(c->host_latency_ns * NG_TICKS_PER_NS)
			      : ng_link_latency(m);
	double lat = (double)lat_t / NG_TICKS_PER_NS;
	uint64_t bytes;
	ng_ticks start, dur, end;

	if (r->home == r->gpu || r->op == NG_OP_STORE)
		return;
	if (r->flags & NG_REQ_FINE) {
		unsigned int units = ng_fine_units(r->mask, c->xfer_gran);

		if (l->codec_on) {
			r->t = ng_codec_send(&l->codec, sm, r->home, r->t, units);
			return;
		}
		bytes = flits(c, (uint64_t)units * c->xfer_gran);
	} else {
		/* loads bring the line, atomics the old values */
		bytes = r->op == NG_OP_LOAD ? flits(c, c->line) : req_bytes(c, r);
		if (host)
			bytes = ng_host_bytes(c, r->op == NG_OP_LOAD ? c->line :
					  4 * (uint64_t)ng_popcount64(r->mask));
	}
	if (host) {
		start = ng_reserve(sm, ng_res_host(m, r->gpu, true), r->t, bytes,
				   &dur);
		end = start + dur;
	} else {
		end = ng_link_xfer(sm, r->home, r->gpu, r->t, bytes, &start);
		dur = end - start;
	}
	r->t = end + lat_t;
	sm->ctr.v[host ? NG_CTR_HOST_BYTES : NG_CTR_LINK_RX] += bytes;
	if (!host)
		sm->ctr.v[NG_CTR_XACT_DATA]++;
	if (c->inject)
		owe(sm, dur, lat);
}

static int link_create(struct ng_model *m, void **priv, char *err,
		       size_t errlen)
{
	const struct ng_config *c = m->cfg;
	struct link *l = calloc(1, sizeof(*l));

	if (l && (c->remote_opt == NG_RO_COALESCE || c->remote_opt == NG_RO_AUTO) &&
	    c->codec.pack) {
		l->codec_on = true;
		if (ng_codec_init(&l->codec, c)) {
			free(l);
			l = NULL;
		}
	}
	if (!l) {
		ng_seterr(err, errlen, "out of memory for the link model");
		return -ENOMEM;
	}
	*priv = l;
	return 0;
}

static void link_destroy(void *priv)
{
	struct link *l = priv;

	if (l && l->codec_on)
		ng_codec_fini(&l->codec);
	free(l);
}

static const struct ng_key link_keys[] = {
	NG_KEY_NUM("link-bw", NG_KEY_DOUBLE, link_bw, 0.001, 1e6,
		   "inter-GPU link bandwidth, each direction, GB/s: of each pair's link (mesh) or each GPU's port (switch, hub)"),
	NG_KEY_NUM("link-latency", NG_KEY_DOUBLE, link_latency_ns, 0, 1e6,
		   "inter-GPU link latency, one way, ns (a hub: per link, two links GPU to GPU)"),
	NG_KEY_CHOICE("topology", topology, ng_topology_names,
		      "mesh (a link of link-bw per GPU pair and direction), switch (one port of link-bw per GPU and direction), hub (one link of link-bw per GPU to the CPU, crossed twice GPU to GPU)"),
	NG_KEY_NUM("flit", NG_KEY_UINT, flit, 1, 4096,
		   "link transfers round up to this, bytes"),
	NG_KEY_NUM("host-bw", NG_KEY_DOUBLE, host_bw, 0.001, 1e6,
		   "CPU-GPU link bandwidth per GPU, each direction, GB/s"),
	NG_KEY_NUM("host-latency", NG_KEY_DOUBLE, host_latency_ns, 0, 1e6,
		   "CPU-GPU link latency, one way, ns"),
	NG_KEY_NUM("host-header", NG_KEY_UINT, host_header, 0, 4096,
		   "CPU-GPU link: header bytes per packet (0: transfers in flits instead)"),
	NG_KEY_NUM("host-payload", NG_KEY_UINT, host_payload, 4, 65536,
		   "CPU-GPU link: most data bytes per packet"),
	NG_KEY_NUM("codec-pack", NG_KEY_UINT, codec.pack, 0, 64,
		   "DualOpt CoDec: fine-grained transactions per packet (0: no CoDec, each response alone)"),
	NG_KEY_NUM("codec-timeout", NG_KEY_UINT, codec.timeout, 1, 100000,
		   "DualOpt CoDec: cycles a packet waits to fill"),
	{ .name = NULL },
};

const struct ng_component ng_link_component = {
	.name = "link",
	.desc = "the inter-GPU fabric (a mesh of links, a switch or a hub) and the CPU-GPU links: latency and bandwidth per direction, in flits",
	.keys = link_keys,
	.counters = "link codec",
	.remote_only = true,
	.create = link_create,
	.destroy = link_destroy,
	.access = link_access,
	.respond = link_respond,
};
