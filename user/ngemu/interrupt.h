/* SPDX-License-Identifier: GPL-2.0 */
/*
 * SIGINT and SIGTERM in the commands that run child processes (sweep,
 * reproduce; interrupt.c): caught, so that the command ends its runs,
 * removes their temporaries and says how to resume, rather than dying
 * with half-written files. Ctrl-C sends SIGINT, Slurm sends SIGTERM at a
 * job's time limit.
 */
#ifndef NGEMU_INTERRUPT_H
#define NGEMU_INTERRUPT_H

#include <sys/types.h>

/* Catch SIGINT and SIGTERM from now on (again: nothing changes). */
void interrupt_catch(void);

/* The signal that asked to stop (SIGINT, SIGTERM), or 0. */
int interrupted(void);

/* The exit status after signal @sig: 128 + @sig (130, 143). */
int interrupt_status(int sig);

/*
 * Wait for any child to end: its pid, *@st its wait status; or -1 with
 * errno EINTR when a stop was asked for (before or while waiting: no
 * signal is missed between the check and the wait), ECHILD when none.
 */
pid_t wait_child(int *st);

/*
 * fork() for a child that execs a program: in the child SIGINT, SIGTERM
 * and SIGCHLD are back at their default actions before any can arrive (a
 * SIGTERM sent between the fork and the exec would otherwise run the
 * parent's handler in the child and be lost: the run would go on).
 */
pid_t fork_child(void);

/* End child @pid (SIGTERM) and wait for it. */
void end_child(pid_t pid);

#endif /* NGEMU_INTERRUPT_H */
