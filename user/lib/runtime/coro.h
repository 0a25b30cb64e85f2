/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Coroutines for emulated SMs (private to libngemu): a block is a plain C
 * function, so an SM that must pause in the middle of one (its clock has
 * reached the end of an interval) needs a stack of its own. A host thread
 * steps several SMs by switching between their stacks and its own.
 *
 * x86-64 switches with a few instructions (callee-saved registers, the
 * stack pointer, MXCSR and the x87 control word); other machines, and
 * builds with NG_CORO_UCONTEXT, use swapcontext(). Under AddressSanitizer
 * every switch is announced to it (fiber switch annotations).
 */
#ifndef NGEMU_LIB_CORO_H
#define NGEMU_LIB_CORO_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#if !defined(__x86_64__) && !defined(NG_CORO_UCONTEXT)
#define NG_CORO_UCONTEXT
#endif

#ifdef NG_CORO_UCONTEXT
#include <ucontext.h>
#endif

struct ng_coro {
#ifdef NG_CORO_UCONTEXT
	ucontext_t uc;
#else
	void *sp;			/* saved stack pointer */
#endif
	void *map;			/* the stack, with a guard page below */
	size_t map_size;
	void *stack;			/* its usable part */
	size_t stack_size;
	void (*fn)(void *arg);
	void *arg;
	void *asan_fake;		/* AddressSanitizer's fake stack */
};

/*
 * A coroutine with a stack of @size bytes (0: the default). A thread's own
 * context needs no stack: a zeroed struct ng_coro is one.
 */
int ng_coro_init(struct ng_coro *c, size_t size);
/*
 * A coroutine on a stack the caller provides (@size bytes at @stack, 16-
 * byte aligned, freed by the caller), when there are too many coroutines
 * for a mapping and a guard page each (the kernel's map count): a canary
 * in its lowest word stands for the guard page, checked by
 * ng_coro_overflowed() after the coroutine has run.
 */
#define NG_CORO_CANARY	0x6e67636f726f21ffULL
void ng_coro_init_at(struct ng_coro *c, void *stack, size_t size);
bool ng_coro_overflowed(const struct ng_coro *c);
void ng_coro_fini(struct ng_coro *c);
/* Arm @c: the next switch to it calls fn(arg) from the top of its stack. */
void ng_coro_start(struct ng_coro *c, void (*fn)(void *arg), void *arg);
/*
 * Save the running context in @from and run @to. fn() must never return:
 * it ends by switching away for good (the coroutine can be armed again).
 */
void ng_coro_switch(struct ng_coro *from, struct ng_coro *to);
/* The last switch of a coroutine whose work is done: it is not resumed. */
void ng_coro_exit(struct ng_coro *from, struct ng_coro *to)
	__attribute__((noreturn));

#endif /* NGEMU_LIB_CORO_H */
