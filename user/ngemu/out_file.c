// SPDX-License-Identifier: GPL-2.0
/*
 * Output files written whole or not at all (out_file.h). The temporary
 * is in the file's own folder so that the rename is atomic (one
 * filesystem); it is synced before the rename so that a crash after it
 * leaves the new contents, not an empty file, on the filesystems that
 * order a rename before the data (ext4 without auto_da_alloc, XFS).
 */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "out_file.h"

/* 0666 less the umask, as open(O_CREAT) would give; mkstemp gives 0600. */
static mode_t file_mode(mode_t want)
{
	mode_t mask = umask(0);

	umask(mask);
	return want & ~mask;
}

static int fail(const char *who, const char *path, int err)
{
	fprintf(stderr, "ngemu %s: cannot write %s: %s\n", who, path,
		strerror(err));
	return -err;
}

int out_open(struct out_file *o, const char *who, const char *path)
{
	int fd;

	o->f = NULL;
	o->who = who;
	o->mode = 0666;
	if (snprintf(o->path, sizeof(o->path), "%s", path) >= (int)sizeof(o->path) ||
	    snprintf(o->tmp, sizeof(o->tmp), "%s.XXXXXX", path) >= (int)sizeof(o->tmp))
		return fail(who, path, ENAMETOOLONG);
	fd = mkostemp(o->tmp, O_CLOEXEC);
	if (fd < 0)
		return fail(who, path, errno);
	o->f = fdopen(fd, "w");
	if (!o->f) {
		int err = errno;

		close(fd);
		unlink(o->tmp);
		return fail(who, path, err);
	}
	return 0;
}

/* Sync @fd, give it its mode; 0 or an errno. */
static int settle(int fd, mode_t mode)
{
	if (fsync(fd) || fchmod(fd, file_mode(mode)))
		return errno;
	return 0;
}

int out_commit(struct out_file *o)
{
	int err = 0;

	if (!o->f)
		return fail(o->who, o->path, EBADF);
	errno = 0;
	if (fflush(o->f) || ferror(o->f))
		err = errno ? errno : EIO;
	if (!err)
		err = settle(fileno(o->f), o->mode);
	if (fclose(o->f) && !err)
		err = errno;
	o->f = NULL;
	if (!err && rename(o->tmp, o->path))
		err = errno;
	if (!err)
		return 0;
	unlink(o->tmp);
	return fail(o->who, o->path, err);
}

void out_abort(struct out_file *o)
{
	if (!o->f)
		return;
	fclose(o->f);
	o->f = NULL;
	unlink(o->tmp);
}

int out_install(const char *tmp, const char *path)
{
	int fd = open(tmp, O_RDONLY | O_CLOEXEC), err;

	if (fd < 0)
		return -errno;
	err = settle(fd, 0666);
	close(fd);
	if (!err && rename(tmp, path))
		err = errno;
	return -err;
}

int out_commit_pair(struct out_file *data, struct out_file *script)
{
	int err = out_commit(data);

	if (err) {
		out_abort(script);
		return err;
	}
	return out_commit(script);
}
