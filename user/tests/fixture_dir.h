/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Where a test's golden files are: user/tests/fixtures/SUB of the checkout
 * the test binary was built in (found upwards from /proc/self/exe, as the
 * tests run from build/tests/ or build/san/tests/), or $NG_FIXTURES/SUB.
 */
#ifndef NGEMU_TEST_FIXTURE_DIR_H
#define NGEMU_TEST_FIXTURE_DIR_H

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

/* 0 with the directory in @out, or -1. */
static inline int ng_fixture_dir(const char *sub, char *out, size_t len)
{
	const char *env = getenv("NG_FIXTURES");
	char exe[1024];
	ssize_t n;

	if (env && *env) {
		snprintf(out, len, "%s/%s", env, sub);
		return 0;
	}
	n = readlink("/proc/self/exe", exe, sizeof(exe) - 1);
	if (n <= 0)
		return -1;
	exe[n] = '\0';
	for (int up = 0; up < 5; up++) {
		char *slash = strrchr(exe, '/');

		if (!slash)
			break;
		*slash = '\0';
		snprintf(out, len, "%s/user/tests/fixtures/%s", exe, sub);
		if (!access(out, R_OK))
			return 0;
	}
	return -1;
}

#endif /* NGEMU_TEST_FIXTURE_DIR_H */
