// SPDX-License-Identifier: GPL-2.0
/*
 * SIGINT and SIGTERM caught as a flag (interrupt.h). The wait blocks the
 * signals, checks the flag and sleeps in sigsuspend(), which unblocks
 * them atomically: a signal that comes just before the wait ends it
 * rather than being noticed only when a run ends (SIGTERM sent to ngemu
 * alone would wait for a whole point). SIGCHLD has a handler of its own
 * so that a child's end wakes sigsuspend() too.
 */
#include <errno.h>
#include <signal.h>
#include <string.h>
#include <sys/wait.h>

#include "interrupt.h"

static volatile sig_atomic_t stop_sig;

static void on_stop(int sig)
{
	if (!stop_sig)
		stop_sig = sig;
}

static void on_child(int sig)
{
	(void)sig;
}

void interrupt_catch(void)
{
	struct sigaction sa;

	memset(&sa, 0, sizeof(sa));
	sigemptyset(&sa.sa_mask);
	/*
	 * SA_RESTART: a write to a full pipe or a wait for gnuplot goes
	 * on (it would fail with EINTR); wait_child() sleeps in
	 * sigsuspend(), which a handler always ends
	 */
	sa.sa_flags = SA_RESTART;
	sa.sa_handler = on_stop;
	sigaction(SIGINT, &sa, NULL);
	sigaction(SIGTERM, &sa, NULL);
	sa.sa_handler = on_child;
	sa.sa_flags = SA_RESTART | SA_NOCLDSTOP;
	sigaction(SIGCHLD, &sa, NULL);
}

int interrupted(void)
{
	return stop_sig;
}

int interrupt_status(int sig)
{
	return 128 + sig;
}

/* SIGINT, SIGTERM and SIGCHLD held back; the mask before in @old. */
static void block_ours(sigset_t *old)
{
	sigset_t block;

	sigemptyset(&block);
	sigaddset(&block, SIGINT);
	sigaddset(&block, SIGTERM);
	sigaddset(&block, SIGCHLD);
	sigprocmask(SIG_BLOCK, &block, old);
}

pid_t wait_child(int *st)
{
	sigset_t old;
	pid_t pid;

	block_ours(&old);
	for (;;) {
		if (stop_sig) {
			pid = -1;
			errno = EINTR;
			break;
		}
		pid = waitpid(-1, st, WNOHANG);
		if (pid)
			break;
		sigsuspend(&old);
	}
	sigprocmask(SIG_SETMASK, &old, NULL);
	return pid;
}

void end_child(pid_t pid)
{
	int st;

	kill(pid, SIGTERM);
	while (waitpid(pid, &st, 0) < 0 && errno == EINTR)
		;
}

pid_t fork_child(void)
{
	sigset_t old;
	pid_t pid;

	block_ours(&old);
	pid = fork();
	if (!pid) {
		/* a signal that came meanwhile is pending: now it acts */
		signal(SIGINT, SIG_DFL);
		signal(SIGTERM, SIG_DFL);
		signal(SIGCHLD, SIG_DFL);
	}
	sigprocmask(SIG_SETMASK, &old, NULL);
	return pid;
}
