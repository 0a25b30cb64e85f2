/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Touching a view until the module refuses a page with SIGBUS (a full
 * node, a locked-memory limit): the selftests that fill memory share it.
 */
#ifndef NUMAGPU_SIGBUS_H
#define NUMAGPU_SIGBUS_H

#include <setjmp.h>
#include <signal.h>
#include <stddef.h>

static sigjmp_buf bus_jmp __attribute__((unused));

static inline void on_sigbus(int sig)
{
	(void)sig;
	siglongjmp(bus_jmp, 1);
}

/* Write one byte of each page; stop at SIGBUS. Returns the pages done. */
static __attribute__((noinline, unused)) size_t
touch_until_sigbus(char *v, size_t npages, long page, int *bus)
{
	struct sigaction sa = { .sa_handler = on_sigbus };
	static volatile size_t i;

	*bus = 0;
	sigemptyset(&sa.sa_mask);
	if (sigaction(SIGBUS, &sa, NULL))
		return 0;
	for (i = 0; i < npages; i++) {
		if (sigsetjmp(bus_jmp, 1)) {
			*bus = 1;
			break;
		}
		v[i * page] = 1;
	}
	signal(SIGBUS, SIG_DFL);
	return i;
}

#endif /* NUMAGPU_SIGBUS_H */
