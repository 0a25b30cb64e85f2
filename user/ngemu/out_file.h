/* SPDX-License-Identifier: GPL-2.0 */
/*
 * ngemu's output files, each written whole or not at all (out_file.c):
 * under a name of its own in the file's folder, flushed, synced to disk
 * and renamed over the file only when every write has succeeded. A full
 * disk, a file size limit or a killed process leaves the file as it was
 * (or absent), never empty or cut short, and two processes writing one
 * file (two collecting jobs) each put a whole one in place.
 */
#ifndef NGEMU_OUT_FILE_H
#define NGEMU_OUT_FILE_H

#include <limits.h>
#include <stdio.h>
#include <sys/types.h>

struct out_file {
	FILE *f;		/* write the contents here */
	mode_t mode;		/* the file's mode, umask applied (0666) */
	const char *who;	/* "sweep", "reproduce": the messages' command */
	char path[PATH_MAX];	/* the file */
	char tmp[PATH_MAX];	/* PATH.XXXXXX while it is written */
};

/*
 * Start writing @path for command @who: 0, or -errno after a message
 * "ngemu WHO: cannot write PATH: REASON".
 */
int out_open(struct out_file *o, const char *who, const char *path);

/*
 * The file written: flushed, synced, given its mode and renamed to its
 * name; 0, or -errno after the same message, the temporary removed (a
 * write, flush, sync or close that failed is an error).
 */
int out_commit(struct out_file *o);

/*
 * A plot's data and its script, @data first: both written, or (0 or
 * -errno as out_commit()) the script not written when the data was not.
 */
int out_commit_pair(struct out_file *data, struct out_file *script);

/* The file not written: its temporary closed and removed (NULL: nothing). */
void out_abort(struct out_file *o);

/*
 * A file another process wrote (@tmp, a point's run) put in place as
 * @path in the same way: synced, mode 0666 less the umask, renamed;
 * 0 or -errno (no message: the caller says which run it was).
 */
int out_install(const char *tmp, const char *path);

#endif /* NGEMU_OUT_FILE_H */
