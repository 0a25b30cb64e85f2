// SPDX-License-Identifier: GPL-2.0
/* ngemu mem: where a buffer's pages went, for people and for scripts. */
#include <inttypes.h>
#include <stdio.h>
#include <string.h>

#include "mem.h"
#include "ngemu/util/format.h"
#include "ngemu/util/json.h"

int mem_node_gpu(const struct numagpu_topology *t, unsigned int node)
{
	for (unsigned int g = 0; g < t->ngpus; g++)
		if (t->gpu[g].node == node)
			return (int)g;
	return -1;
}

void mem_print_human(const struct mem_opts *o, const struct ng_kbuf *b,
		     const struct numagpu_topology *t,
		     const struct mem_result *r)
{
	unsigned int n = b->ngpus;
	char size[32];

	printf("buffer: %zu pages (%s), mode %s, %u GPUs, page group %u pages\n",
	       b->npages, ng_format_bytes(b->size, size, sizeof(size)),
	       ng_kbuf_mode_name((uint32_t)o->mode), n, n);
	printf("node of each page, by page group (GPU in brackets; '-' not "
	       "populated, '*' fallback,\n'm' migrated, 'P' pinned, '+Nr' N "
	       "read replicas)\n\n");
	printf("%5s %-13s %s\n", "group", "pages", "nodes");
	for (size_t g0 = 0; g0 < b->npages; g0 += n) {
		char range[48];

		snprintf(range, sizeof(range), "%zu-%zu", g0,
			 g0 + n - 1 < b->npages ? g0 + n - 1 : b->npages - 1);
		printf("%5zu %-13s", g0 / n, range);
		for (size_t p = g0; p < g0 + n && p < b->npages; p++) {
			const struct numagpu_loc *l = &r->loc[p];
			char cell[32];

			if (!(l->flags & NUMAGPU_LOC_POPULATED))
				snprintf(cell, sizeof(cell), "-");
			else
				snprintf(cell, sizeof(cell), "%u[%d]%s%s%s",
					 l->node, mem_node_gpu(t, l->node),
					 l->flags & NUMAGPU_LOC_FALLBACK ?
					 "*" : "",
					 l->flags & NUMAGPU_LOC_PINNED ?
					 "P" : "",
					 l->flags & NUMAGPU_LOC_MIGRATED ?
					 "m" : "");
			if (l->flags & NUMAGPU_LOC_REPLICATED) {
				size_t len = strlen(cell);

				snprintf(cell + len, sizeof(cell) - len, "+%ur",
					 NUMAGPU_LOC_REPLICAS(l->flags));
			}
			printf(" %-8s", cell);
		}
		printf("\n");
	}
	printf("\nkernel page tables (move_pages) agree on %zu of %" PRIu64
	       " populated pages\n", r->agree, (uint64_t)r->st.populated);
	printf("faults %llu, populated %llu, first touch local %llu remote %llu, "
	       "fallbacks %llu, sigbus %llu\n",
	       (unsigned long long)r->st.faults,
	       (unsigned long long)r->st.populated,
	       (unsigned long long)r->st.first_touch_local,
	       (unsigned long long)r->st.first_touch_remote,
	       (unsigned long long)r->st.fallbacks,
	       (unsigned long long)r->st.sigbus);
	printf("replicas made %llu, held %llu, collapses %llu, migrations %llu "
	       "(moved now %" PRIu64 "), pins %llu\n",
	       (unsigned long long)r->st.replicas_created,
	       (unsigned long long)r->st.replica_pages,
	       (unsigned long long)r->st.collapses,
	       (unsigned long long)r->st.migrations, r->moved,
	       (unsigned long long)r->st.pins);
	printf("faults per view:");
	for (unsigned int g = 0; g < n; g++)
		printf(" GPU%u %llu", g, (unsigned long long)r->st.view_faults[g]);
	printf("\npages per node:");
	for (unsigned int i = 0; i < NUMAGPU_MAX_NODES; i++)
		if (r->st.node_pages[i])
			printf(" node%u %llu", i,
			       (unsigned long long)r->st.node_pages[i]);
	printf("\n");
}

void mem_print_json(const struct mem_opts *o, const struct ng_kbuf *b,
		    const struct numagpu_topology *t,
		    const struct mem_result *r)
{
	struct ng_json j;

	ng_json_init(&j, stdout, true);
	ng_json_object_begin(&j);
	ng_json_kv_string(&j, "mode", ng_kbuf_mode_name((uint32_t)o->mode));
	ng_json_kv_uint(&j, "npages", b->npages);
	ng_json_kv_uint(&j, "page_size", b->npages ? b->size / b->npages : 0);
	ng_json_kv_uint(&j, "ngpus", b->ngpus);
	ng_json_kv_uint(&j, "kernel_agree", r->agree);
	ng_json_key(&j, "pages");
	ng_json_array_begin(&j);
	for (size_t p = 0; p < b->npages; p++) {
		const struct numagpu_loc *l = &r->loc[p];
		bool pretty = j.pretty;

		ng_json_object_begin(&j);
		j.pretty = false;
		ng_json_kv_uint(&j, "page", p);
		ng_json_kv_uint(&j, "group", p / b->ngpus);
		ng_json_kv_bool(&j, "populated", l->flags & NUMAGPU_LOC_POPULATED);
		ng_json_key(&j, "node");
		if (l->flags & NUMAGPU_LOC_POPULATED)
			ng_json_int(&j, l->node);
		else
			ng_json_int(&j, -1);
		ng_json_kv_int(&j, "gpu", l->flags & NUMAGPU_LOC_POPULATED ?
			    mem_node_gpu(t, l->node) : -1);
		ng_json_kv_int(&j, "kernel_node", r->kernel_node[p]);
		ng_json_kv_bool(&j, "fallback", l->flags & NUMAGPU_LOC_FALLBACK);
		ng_json_kv_uint(&j, "replicas", NUMAGPU_LOC_REPLICAS(l->flags));
		ng_json_kv_bool(&j, "pinned", l->flags & NUMAGPU_LOC_PINNED);
		ng_json_kv_bool(&j, "migrated", l->flags & NUMAGPU_LOC_MIGRATED);
		ng_json_kv_int(&j, "touched_by", r->toucher[p]);
		ng_json_object_end(&j);
		j.pretty = pretty;
	}
	ng_json_array_end(&j);
	ng_json_key(&j, "counters");
	ng_json_object_begin(&j);
	ng_json_kv_uint(&j, "faults", r->st.faults);
	ng_json_kv_uint(&j, "populated", r->st.populated);
	ng_json_kv_uint(&j, "first_touch_local", r->st.first_touch_local);
	ng_json_kv_uint(&j, "first_touch_remote", r->st.first_touch_remote);
	ng_json_kv_uint(&j, "fallbacks", r->st.fallbacks);
	ng_json_kv_uint(&j, "sigbus", r->st.sigbus);
	ng_json_kv_uint(&j, "replicas_created", r->st.replicas_created);
	ng_json_kv_uint(&j, "replica_pages", r->st.replica_pages);
	ng_json_kv_uint(&j, "collapses", r->st.collapses);
	ng_json_kv_uint(&j, "migrations", r->st.migrations);
	ng_json_kv_uint(&j, "pins", r->st.pins);
	ng_json_key(&j, "view_faults");
	ng_json_array_begin(&j);
	for (unsigned int g = 0; g < b->ngpus; g++)
		ng_json_uint(&j, r->st.view_faults[g]);
	ng_json_array_end(&j);
	ng_json_key(&j, "node_pages");
	ng_json_object_begin(&j);
	for (unsigned int i = 0; i < NUMAGPU_MAX_NODES; i++) {
		char key[16];

		if (!r->st.node_pages[i])
			continue;
		snprintf(key, sizeof(key), "%u", i);
		ng_json_kv_uint(&j, key, r->st.node_pages[i]);
	}
	ng_json_object_end(&j);
	ng_json_object_end(&j);
	ng_json_object_end(&j);
	ng_json_finish(&j);
}

