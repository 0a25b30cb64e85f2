// SPDX-License-Identifier: GPL-2.0
/*
 * ngemu bench: the fabric's part of a run's report (ngemu/model/linkuse.h):
 * each link (mesh) or port (switch, hub) with its bytes, busy time and
 * utilization over the kernels' modeled time, the busiest of them, and
 * the bytes each GPU sent each other. The JSON and the lines for people
 * say the same: the busiest server and the mean utilization are in both.
 */
#include <stdio.h>

#include "bench.h"
#include "ngemu/util/format.h"
#include "ngemu/util/json.h"

static double mean_util(const struct ng_link_usage *u)
{
	double sum = 0;

	for (unsigned int i = 0; i < u->nservers; i++)
		sum += ng_link_util(u, &u->server[i]);
	return u->nservers ? sum / u->nservers : 0;
}

static void server_json(struct ng_json *j, const struct ng_link_usage *u,
			const struct ng_link_server *s)
{
	ng_json_object_begin(j);
	if (u->topology == NG_TOPO_MESH) {
		ng_json_kv_uint(j, "from", s->from);
		ng_json_kv_uint(j, "to", s->to);
	} else {
		ng_json_kv_uint(j, "gpu", s->gpu);
		ng_json_kv_string(j, "dir", s->in ? "in" : "out");
	}
	ng_json_kv_uint(j, "bytes", s->bytes);
	ng_json_kv_double(j, "busy_s", (double)s->busy / NG_TICKS_PER_NS * 1e-9);
	ng_json_kv_double(j, "util", ng_link_util(u, s));
	ng_json_object_end(j);
}

void bench_links_json(struct ng_json *j, const struct ng_link_usage *u)
{
	ng_json_object_begin(j);
	ng_json_kv_string(j, "topology", ng_topology_names[u->topology]);
	/* what util is of: the kernels since the counters' reset */
	ng_json_kv_double(j, "kernel_s", (double)u->ticks / NG_TICKS_PER_NS * 1e-9);
	ng_json_key(j, u->topology == NG_TOPO_MESH ? "links" : "ports");
	ng_json_array_begin(j);
	for (unsigned int i = 0; i < u->nservers; i++)
		server_json(j, u, &u->server[i]);
	ng_json_array_end(j);
	if (u->nservers) {
		ng_json_key(j, "busiest");
		server_json(j, u, &u->server[ng_link_busiest(u)]);
	}
	ng_json_kv_double(j, "mean_util", mean_util(u));
	/* row i: what GPU i sent each GPU, whatever servers it crossed */
	ng_json_key(j, "pairs");
	ng_json_array_begin(j);
	for (unsigned int i = 0; i < u->ngpus; i++) {
		ng_json_array_begin(j);
		for (unsigned int k = 0; k < u->ngpus; k++)
			ng_json_uint(j, u->pair[i][k]);
		ng_json_array_end(j);
	}
	ng_json_array_end(j);
	ng_json_object_end(j);
}

/* The pair matrix fits a screen up to this many GPUs. */
#define PAIRS_SHOWN	4

void bench_links_human(const struct ng_link_usage *u)
{
	const struct ng_link_server *s;
	bool mesh = u->topology == NG_TOPO_MESH;
	uint64_t any = 0;
	char b1[32], b2[32], b3[32];

	for (unsigned int i = 0; i < u->nservers; i++)
		any |= u->server[i].bytes;
	if (!any)
		return;
	s = &u->server[ng_link_busiest(u)];
	if (mesh)
		snprintf(b1, sizeof(b1), "link %u -> %u", s->from, s->to);
	else
		snprintf(b1, sizeof(b1), "GPU %u's port %s", s->gpu,
			 s->in ? "in" : "out");
	printf("fabric     %s: busiest %s, %.1f%% busy (%s) over the kernels' %s; the %u %s %.1f%% busy on average\n",
	       ng_topology_names[u->topology], b1, 100 * ng_link_util(u, s),
	       ng_format_bytes(s->bytes, b2, sizeof(b2)),
	       ng_format_dur((double)u->ticks / NG_TICKS_PER_NS * 1e-9, b3,
		       sizeof(b3)),
	       u->nservers, mesh ? "links" : "ports", 100 * mean_util(u));
	if (u->ngpus > PAIRS_SHOWN)
		return;
	printf("%-30s", "pairs      bytes sent");
	for (unsigned int k = 0; k < u->ngpus; k++) {
		snprintf(b1, sizeof(b1), "to %u", k);
		printf(" %10s", b1);
	}
	printf("\n");
	for (unsigned int i = 0; i < u->ngpus; i++) {
		printf("           from %-14u", i);
		for (unsigned int k = 0; k < u->ngpus; k++)
			printf(" %10s", i == k ? "-" :
			       ng_format_bytes(u->pair[i][k], b2, sizeof(b2)));
		printf("\n");
	}
}
