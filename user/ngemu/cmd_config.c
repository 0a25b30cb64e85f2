// SPDX-License-Identifier: GPL-2.0
/* ngemu config: show or check the emulated system's configuration. */
#include <stdbool.h>
#include <stdio.h>
#include <string.h>

#include "commands.h"
#include "ngemu/config.h"

static void config_usage(FILE *out)
{
	fprintf(out,
		"Usage: ngemu config [--show | --check | --presets] [--system NAME]\n"
		"                    [--config FILE] [--KEY VALUE ...]\n"
		"\n"
		"The emulated system's parameters come from a preset (--system, default\n"
		"carve), then a config file of 'key = value' lines, then --KEY VALUE\n"
		"options, later ones winning. Every key is listed by --show, which prints\n"
		"the effective configuration as a valid config file.\n"
		"\n"
		"Options:\n"
		"      --show          print the effective configuration (default)\n"
		"      --check         only check it; exit 0 if it is valid\n"
		"      --presets       list the presets\n"
		"      --system NAME   carve, dualopt, rec or coda\n"
		"      --config FILE   read 'key = value' lines (# comments)\n"
		"      --KEY VALUE     any key of --show, e.g. --gpus 8 --link-bw 32\n"
		"  -h, --help          show this help and exit\n"
		"\n"
		"Exit status: 0 valid, 2 an invalid configuration or usage.\n");
}

int ng_cmd_config(int argc, char **argv)
{
	char *rest[256];
	struct ng_config cfg;
	bool check = false, presets = false;
	char err[512];
	int nrest = 0;

	if (argc > 256)
		return ng_usage_error("config", "too many arguments");
	for (int i = 1; i < argc; i++)
		if (!strcmp(argv[i], "-h") || !strcmp(argv[i], "--help")) {
			config_usage(stdout);
			return NG_EXIT_OK;
		}
	if (ng_config_from_args(&cfg, argc, argv, rest, &nrest, err, sizeof(err)))
		return ng_usage_error("config", "%s", err);
	for (int i = 0; i < nrest; i++) {
		if (!strcmp(rest[i], "--show"))
			continue;
		if (!strcmp(rest[i], "--check"))
			check = true;
		else if (!strcmp(rest[i], "--presets"))
			presets = true;
		else if (rest[i][0] == '-')
			return ng_usage_error("config", "unknown option '%s'",
					      rest[i]);
		else
			return ng_usage_error("config", "unexpected argument '%s'",
					      rest[i]);
	}
	if (presets) {
		for (int i = 0; ng_config_presets[i]; i++)
			printf("%-8s %s\n", ng_config_presets[i],
			       ng_config_preset_desc(ng_config_presets[i]));
		return NG_EXIT_OK;
	}
	if (check) {
		printf("configuration is valid\n");
		return NG_EXIT_OK;
	}
	ng_config_print(&cfg, stdout);
	return NG_EXIT_OK;
}
