/* SPDX-License-Identifier: GPL-2.0 */
/*
 * A reproduce test's scratch folder: DIR (/tmp/ngemu-TAG-XXXXXX) with a
 * data file DIR/NAME and an output folder DIR/out for the runs.
 */
#ifndef NGEMU_TEST_REP_DIR_H
#define NGEMU_TEST_REP_DIR_H

#include <stdio.h>
#include <stdlib.h>

struct rep_dir {
	char dir[64], data[96], out[96];
};

/* @d made, its data file holding @text: 0, or -1. */
static inline int rep_dir_make(struct rep_dir *d, const char *tag,
			       const char *name, const char *text)
{
	FILE *f;

	snprintf(d->dir, sizeof(d->dir), "/tmp/ngemu-%s-XXXXXX", tag);
	if (!mkdtemp(d->dir))
		return -1;
	snprintf(d->data, sizeof(d->data), "%s/%s", d->dir, name);
	snprintf(d->out, sizeof(d->out), "%s/out", d->dir);
	f = fopen(d->data, "w");
	if (!f)
		return -1;
	fputs(text, f);
	return fclose(f) ? -1 : 0;
}

/* @d and all in it gone: 0, or the shell's status. */
static inline int rep_dir_remove(const struct rep_dir *d)
{
	char cmd[128];

	snprintf(cmd, sizeof(cmd), "rm -rf '%s'", d->dir);
	return system(cmd);
}

#endif /* NGEMU_TEST_REP_DIR_H */
