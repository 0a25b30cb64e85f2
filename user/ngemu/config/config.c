// SPDX-License-Identifier: GPL-2.0
/* ngemu config: show or check the emulated system's configuration. */
#include <stdbool.h>
#include <stdio.h>
#include <string.h>

#include "../bench/bench.h"
#include "../commands.h"
#include "../options.h"
#include "ngemu/config.h"
#include "ngemu/model/component.h"
#include "ngemu/model/dir.h"
#include "ngemu/util/counters.h"
#include "ngemu/util/format.h"

static void config_usage(FILE *out)
{
	fprintf(out,
		"Usage: ngemu config [--show | --check | --presets | --papers | --components]\n"
		"                    [--system NAME]\n"
		"                    [--config FILE]... [--KEY VALUE ...]\n"
		"\n"
		"The emulated system's parameters come from a preset (--system, default\n"
		"carve), then config files of 'key = value' lines (each --config in the\n"
		"order given, a later file over an earlier one), then --KEY VALUE\n"
		"options over all of them, wherever they are on the line. Every key is\n"
		"listed by --show, which prints the effective configuration as a valid\n"
		"config file.\n"
		"\n"
		"Options:\n"
		"      --show          print the effective configuration (default)\n"
		"      --check         only check it; exit 0 if it is valid\n"
		"      --presets       list the presets: the paper each reproduces, the\n"
		"                      mechanisms it turns on, and what is not built yet\n"
		"      --papers        list the papers ngemu reproduces: each one's preset,\n"
		"                      --compare systems, defaults, reference and regime\n"
		"      --components    list the model's components in pipeline order: which\n"
		"                      this configuration turns on, their keys and counters\n"
		"      --system NAME   a preset (the papers' machines: --presets)\n"
		"      --config FILE   read 'key = value' lines (# comments); repeatable,\n"
		"                      later files override earlier ones; a file that\n"
		"                      cannot be read (a directory) is an error\n"
		"      --KEY VALUE     any key of --show, e.g. --gpus 8 --link-bw 32\n"
		"  -h, --help          show this help and exit\n"
		"\n"
		"Exit status: 0 valid, 2 an invalid configuration or usage.\n");
}

/* What @c turns on: its model components and its placement and scheduling. */
static void print_mechanisms(const struct ng_config *c)
{
	const char *sep = "";

	printf("         turns on: model ");
	for (unsigned int i = 0; ng_components[i]; i++)
		if (ng_component_enabled(ng_components[i], c)) {
			printf("%s%s", sep, ng_components[i]->name);
			sep = ", ";
		}
	if (ng_rdc_on(&c->rdc))
		printf(" (coherence %s)", ng_coherence_name(c->rdc.coherence));
	printf("; placement %s", ng_placement_name(c->placement));
	if (c->placement == NG_PLACE_FGP)
		printf(" %llu B", (unsigned long long)c->fgp_granularity);
	printf(", CTA scheduling %s%s\n", ng_sched_name(c->sched),
	       c->steal ? " with stealing" : "");
}

static int print_presets(void)
{
	for (int i = 0; ng_config_presets[i]; i++) {
		const char *name = ng_config_presets[i];
		const char *missing = ng_config_preset_missing(name);
		struct ng_config c;
		char err[256];

		if (ng_config_preset(&c, name, err, sizeof(err))) {
			fprintf(stderr, "ngemu config: %s\n", err);
			return NG_EXIT_FAIL;
		}
		printf("%-8s %s\n", name, ng_config_preset_paper(name));
		printf("         setup: %s\n", ng_config_preset_desc(name));
		print_mechanisms(&c);
		printf("         not built yet: %s\n", missing ? missing : "nothing");
	}
	return NG_EXIT_OK;
}

static void print_components(const struct ng_config *c)
{
	for (unsigned int i = 0; ng_components[i]; i++) {
		const struct ng_component *comp = ng_components[i];

		printf("%-6s %-3s %s\n", comp->name,
		       ng_component_enabled(comp, c) ? "on" : "off", comp->desc);
		printf("       keys:");
		for (const struct ng_key *k = comp->keys; k && k->name; k++)
			printf(" %s", k->name);
		printf("\n       counters:");
		for (int n = 0; n < NG_CTR_MAX; n++) {
			const char *g = ng_counter_info[n].component;
			size_t len = strlen(g);
			const char *all = comp->counters ? comp->counters : "";
			const char *at = strstr(all, g);

			/* a whole word of the component's counter groups */
			if (at && (at == all || at[-1] == ' ') &&
			    (at[len] == ' ' || !at[len]))
				printf(" %s.%s", g, ng_counter_info[n].name);
		}
		printf("\n");
	}
}

/* A directory's entry format and storage (REC Table 1), as comments. */
static void print_directory(const struct ng_config *c)
{
	struct ng_dir_geom g;
	char b1[32], b2[32];

	if (!ng_dir_enabled(c) || ng_dir_geometry(c, &g, NULL, 0))
		return;
	printf("# derived: directory entry %u bits (%u base, %u position, %u x %u sharer, 1 valid), covering %s\n",
	       g.bits, g.base_bits, g.pos_bits, g.groups, g.sharers,
	       ng_format_bytes(1ULL << g.range_shift, b1, sizeof(b1)));
	printf("# derived: directory storage %u entries x %u bits = %s per GPU (%.1f%% of the L2)\n",
	       c->dir.entries, g.bits,
	       ng_format_bytes(g.storage_bits / 8, b2, sizeof(b2)),
	       100.0 * (double)g.storage_bits / 8 / (double)c->l2.size);
}

enum config_opt { CO_SHOW, CO_CHECK, CO_PRESETS, CO_COMPONENTS, CO_PAPERS };

static const struct opt config_opts[] = {
	{ .name = "show", .id = CO_SHOW },
	{ .name = "check", .id = CO_CHECK },
	{ .name = "presets", .id = CO_PRESETS },
	{ .name = "components", .id = CO_COMPONENTS },
	{ .name = "papers", .id = CO_PAPERS },
	{ 0 }
};

/*
 * The options ng_config_from_args() left, each of config_opts setting
 * its bit of *@what. 0, or the usage error's status.
 */
static int config_options(char **rest, int nrest, unsigned int *what)
{
	struct opts st = { .table = config_opts, .argc = nrest, .argv = rest };
	int id;

	while ((id = opts_next(&st)) != OPTS_END) {
		if (id >= 0)
			*what |= 1u << id;
		else if (id == OPTS_OTHER && st.arg[0] != '-')
			return usage_error("config", "unexpected argument '%s'",
					   st.arg);
		else
			return opts_error("config", &st, id);
	}
	return 0;
}

int cmd_config(int argc, char **argv)
{
	char *rest[256];
	struct ng_config cfg;
	unsigned int what = 0;
	char err[512];
	int nrest = 0, ret;

	if (argc > 256)
		return usage_error("config", "too many arguments");
	if (opts_help(argc, argv)) {
		config_usage(stdout);
		return NG_EXIT_OK;
	}
	if (ng_config_from_args(&cfg, argc, argv, rest,
				(int)(sizeof(rest) / sizeof(rest[0])), &nrest,
				err, sizeof(err)))
		return usage_error("config", "%s", err);
	ret = config_options(rest, nrest, &what);
	if (ret)
		return ret;
	if (what & (1u << CO_PRESETS))
		return print_presets();
	if (what & (1u << CO_PAPERS)) {
		cmp_help(stdout);
		return NG_EXIT_OK;
	}
	if (what & (1u << CO_COMPONENTS)) {
		print_components(&cfg);
		return NG_EXIT_OK;
	}
	if (what & (1u << CO_CHECK)) {
		printf("configuration is valid\n");
		return NG_EXIT_OK;
	}
	ng_config_print(&cfg, stdout);
	print_directory(&cfg);
	return NG_EXIT_OK;
}
