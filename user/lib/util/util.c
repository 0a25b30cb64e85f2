// SPDX-License-Identifier: GPL-2.0
#include <errno.h>
#include <fcntl.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <unistd.h>
#include <sys/mman.h>

#include "util/util.h"

void ng_seterr(char *err, size_t len, const char *fmt, ...)
{
	va_list ap;

	if (!err || !len)
		return;
	va_start(ap, fmt);
	vsnprintf(err, len, fmt, ap);
	va_end(ap);
}

ssize_t ng_read_file(const char *path, char *buf, size_t len)
{
	size_t got = 0;
	int fd = open(path, O_RDONLY | O_CLOEXEC);

	if (fd < 0)
		return -errno;
	for (;;) {
		ssize_t n = read(fd, buf + got, len - 1 - got);

		if (n < 0) {
			if (errno == EINTR)
				continue;
			n = -errno;
			close(fd);
			return n;
		}
		if (n == 0)
			break;
		got += (size_t)n;
		if (got == len - 1) {
			char extra;

			/* sysfs files are small: one more byte means too big */
			n = read(fd, &extra, 1);
			if (n > 0) {
				close(fd);
				return -EFBIG;
			}
			break;
		}
	}
	close(fd);
	buf[got] = '\0';
	return (ssize_t)got;
}

bool ng_grow_slow(void **p, size_t *cap, size_t need, size_t size)
{
	size_t n = *cap ? *cap : 256;
	void *q;

	while (n < need)
		n *= 2;
	q = realloc(*p, n * size);
	if (!q)
		return false;
	*p = q;
	*cap = n;
	return true;
}

void *ng_table_alloc(size_t bytes)
{
	void *p;

	bytes = (bytes + 4095) & ~(size_t)4095;
	p = mmap(NULL, bytes ? bytes : 4096, PROT_READ | PROT_WRITE,
		 MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE, -1, 0);
	if (p == MAP_FAILED)
		return NULL;
	/* not fatal where THP is off */
	(void)madvise(p, bytes, MADV_HUGEPAGE);
	return p;
}

void ng_table_free(void *p, size_t bytes)
{
	if (p)
		munmap(p, bytes ? (bytes + 4095) & ~(size_t)4095 : 4096);
}
