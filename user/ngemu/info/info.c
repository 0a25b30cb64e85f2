// SPDX-License-Identifier: GPL-2.0
/* ngemu info: the emulated system, from the module or from sysfs. */
#include <stdbool.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include "../commands.h"
#include "../options.h"
#include "ngemu/util/cpulist.h"
#include "ngemu/util/format.h"
#include "ngemu/util/json.h"
#include "ngemu/backend/kbuf.h"
#include "ngemu/backend/topology.h"

/* Device memory in use by numagpu buffers (kmod backend only). */
struct info_usage {
	bool valid;
	struct numagpu_dev_stats st;
};

static void info_usage_probe(const struct ng_topology *t, struct info_usage *u)
{
	int fd;

	u->valid = false;
	if (t->backend != NG_BACKEND_KMOD)
		return;
	fd = ng_kbuf_open_device(t->source);
	if (fd < 0)
		return;
	/* a module older than uapi 0.2 has no counters: show none */
	u->valid = ng_kbuf_dev_stats(fd, &u->st) == 0;
	close(fd);
}

static uint64_t gpu_used(const struct info_usage *u, unsigned int node)
{
	long page = sysconf(_SC_PAGESIZE);

	if (node >= NUMAGPU_MAX_NODES || page <= 0)
		return 0;
	return u->st.node_pages[node] * (uint64_t)page;
}

static void info_usage(FILE *out)
{
	fprintf(out,
		"Usage: ngemu info [OPTIONS]\n"
		"\n"
		"Show the emulated system: one GPU per NUMA node with memory, with its\n"
		"CPUs, memory and the node distances between GPUs.\n"
		"\n"
		"Options:\n"
		"  -b, --backend B     auto (default), kmod or user: where the answer\n"
		"                      comes from (numagpu.ko, or sysfs without it)\n"
		"      --device PATH   the module's device (default " NUMAGPU_DEVICE_PATH ")\n"
		"      --sysfs-root D  read sysfs below D instead of /sys (user backend)\n"
		"  -j, --json          machine-readable output\n"
		"  -h, --help          show this help and exit\n");
}

static void print_human(const struct ng_topology *t,
			const struct info_usage *u)
{
	const struct numagpu_topology *hw = &t->hw;
	char cpus[256], total[32], freeb[32];

	printf("numagpu %s, backend %s (%s), uapi %u.%u\n",
	       NUMAGPU_VERSION_STRING, ng_backend_name(t->backend), t->source,
	       hw->uapi_version >> 16, hw->uapi_version & 0xffff);
	printf("%u emulated GPU%s\n\n", hw->ngpus, hw->ngpus == 1 ? "" : "s");
	printf("%-4s %5s %-16s %5s %12s %12s\n", "GPU", "node", "CPUs",
	       "ncpu", "memory", "free");
	for (unsigned int g = 0; g < hw->ngpus; g++) {
		const struct numagpu_gpu_info *gi = &hw->gpu[g];

		ng_cpulist_format(gi->cpumask, cpus, sizeof(cpus));
		printf("%-4u %5u %-16s %5u %12s %12s\n", g, gi->node,
		       cpus[0] ? cpus : "-", gi->nr_cpus,
		       ng_format_bytes(gi->mem_total, total, sizeof(total)),
		       ng_format_bytes(gi->mem_free, freeb, sizeof(freeb)));
	}
	printf("\n%-8s", "distance");
	for (unsigned int g = 0; g < hw->ngpus; g++) {
		char name[16];

		snprintf(name, sizeof(name), "GPU%u", g);
		printf(" %6s", name);
	}
	printf("\n");
	for (unsigned int g = 0; g < hw->ngpus; g++) {
		char name[16];

		snprintf(name, sizeof(name), "GPU%u", g);
		printf("%-8s", name);
		for (unsigned int h = 0; h < hw->ngpus; h++)
			printf(" %6u", hw->distance[g][h]);
		printf("\n");
	}
	if (!u->valid)
		return;
	printf("\ndevice memory in use: %llu buffer%s, %llu pages\n",
	       (unsigned long long)u->st.buffers,
	       u->st.buffers == 1 ? "" : "s",
	       (unsigned long long)u->st.pages_held);
	for (unsigned int g = 0; g < hw->ngpus; g++) {
		char used[32];

		printf("GPU%-4u %12s\n", g,
		       ng_format_bytes(gpu_used(u, hw->gpu[g].node), used,
				       sizeof(used)));
	}
}

static void print_json(const struct ng_topology *t,
		       const struct info_usage *u)
{
	const struct numagpu_topology *hw = &t->hw;
	struct ng_json j;
	char cpus[4096];

	ng_json_init(&j, stdout, true);
	ng_json_object_begin(&j);
	ng_json_kv_string(&j, "version", NUMAGPU_VERSION_STRING);
	ng_json_kv_string(&j, "backend", ng_backend_name(t->backend));
	ng_json_kv_string(&j, "source", t->source);
	ng_json_kv_uint(&j, "uapi_version", hw->uapi_version);
	ng_json_kv_uint(&j, "nr_cpu_ids", hw->nr_cpu_ids);
	ng_json_kv_uint(&j, "ngpus", hw->ngpus);
	if (u->valid)
		ng_json_kv_uint(&j, "buffers", u->st.buffers);
	ng_json_key(&j, "gpus");
	ng_json_array_begin(&j);
	for (unsigned int g = 0; g < hw->ngpus; g++) {
		const struct numagpu_gpu_info *gi = &hw->gpu[g];

		ng_cpulist_format(gi->cpumask, cpus, sizeof(cpus));
		ng_json_object_begin(&j);
		ng_json_kv_uint(&j, "gpu", g);
		ng_json_kv_uint(&j, "node", gi->node);
		ng_json_kv_string(&j, "cpus", cpus);
		ng_json_kv_uint(&j, "nr_cpus", gi->nr_cpus);
		ng_json_kv_uint(&j, "mem_total", gi->mem_total);
		if (u->valid) {
			/* bytes held by numagpu buffers on this GPU */
			ng_json_kv_uint(&j, "mem_used", gpu_used(u, gi->node));
		}
		ng_json_kv_uint(&j, "mem_free", gi->mem_free);
		ng_json_object_end(&j);
	}
	ng_json_array_end(&j);
	ng_json_key(&j, "distance");
	ng_json_array_begin(&j);
	for (unsigned int g = 0; g < hw->ngpus; g++) {
		bool pretty = j.pretty;

		ng_json_array_begin(&j);
		/* one matrix row per line reads better than one number */
		j.pretty = false;
		for (unsigned int h = 0; h < hw->ngpus; h++)
			ng_json_uint(&j, hw->distance[g][h]);
		ng_json_array_end(&j);
		j.pretty = pretty;
	}
	ng_json_array_end(&j);
	ng_json_object_end(&j);
	ng_json_finish(&j);
}

/* OPTS_GETOPT: the forms getopt_long() took here, -jbuser, "--" */
static const struct opt info_opts[] = {
	{ .name = "backend", .letter = 'b', .value = true, .id = 'b' },
	{ .name = "device", .value = true, .id = 'd' },
	{ .name = "sysfs-root", .value = true, .id = 's' },
	{ .name = "json", .letter = 'j', .id = 'j' },
	{ .name = "help", .letter = 'h', .id = 'h' },
	{ 0 }
};

int cmd_info(int argc, char **argv)
{
	struct opts st = { .table = info_opts, .flags = OPTS_GETOPT,
			   .argc = argc, .argv = argv, .next = 1 };
	struct ng_topology_opts opts = { .backend = NG_BACKEND_AUTO };
	struct ng_topology topo;
	struct info_usage usage;
	const char *extra = NULL;
	bool json = false;
	char err[512];
	int c;

	while ((c = opts_next(&st)) != OPTS_END) {
		/* as getopt did: the options' errors before an operand's */
		if (c == OPTS_OTHER && opts_operand(&st)) {
			extra = extra ? extra : st.arg;
			continue;
		}
		switch (c) {
		case 'b':
			c = ng_backend_parse(st.val);
			if (c < 0)
				return usage_error("info",
					"--backend: '%s' is not auto, kmod or user",
					st.val);
			opts.backend = (enum ng_backend)c;
			break;
		case 'd':
			opts.device = st.val;
			break;
		case 's':
			opts.sysfs_root = st.val;
			break;
		case 'j':
			json = true;
			break;
		case 'h':
			info_usage(stdout);
			return NG_EXIT_OK;
		default:
			return opts_error("info", &st, c);
		}
	}
	if (extra)
		return usage_error("info", "unexpected argument '%s'", extra);

	if (ng_topology_probe(&topo, &opts, err, sizeof(err))) {
		fprintf(stderr, "ngemu info: %s\n", err);
		return NG_EXIT_FAIL;
	}
	info_usage_probe(&topo, &usage);
	if (json)
		print_json(&topo, &usage);
	else
		print_human(&topo, &usage);
	return fflush(stdout) ? NG_EXIT_FAIL : NG_EXIT_OK;
}
