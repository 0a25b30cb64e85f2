// SPDX-License-Identifier: GPL-2.0
/* Coroutines for emulated SMs (see coro.h). */
#include <errno.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

#include "runtime/coro.h"

#if defined(__SANITIZE_ADDRESS__)
#define NG_CORO_ASAN 1
#elif defined(__has_feature)
#if __has_feature(address_sanitizer)
#define NG_CORO_ASAN 1
#endif
#endif

#ifdef NG_CORO_ASAN
#include <sanitizer/asan_interface.h>
#include <sanitizer/common_interface_defs.h>
#endif

/* Virtual only: pages are committed as a stack grows into them. */
#define NG_CORO_STACK	(1u << 20)

/* Who switched to the context that runs now (for the sanitizer's books). */
static _Thread_local struct ng_coro *switcher;

#ifdef NG_CORO_ASAN
/* A thread's own stack: learnt from the first switch away from it. */
static _Thread_local const void *thread_bottom;
static _Thread_local size_t thread_size;

static void asan_enter(struct ng_coro *self)
{
	const void *bottom;
	size_t size;

	__sanitizer_finish_switch_fiber(self->asan_fake, &bottom, &size);
	if (switcher && !switcher->stack) {
		thread_bottom = bottom;
		thread_size = size;
	}
}

static void asan_leave(struct ng_coro *from, struct ng_coro *to, bool exiting)
{
	__sanitizer_start_switch_fiber(exiting ? NULL : &from->asan_fake,
				       to->stack ? to->stack : thread_bottom,
				       to->stack ? to->stack_size : thread_size);
}
#else
static void asan_enter(struct ng_coro *self)
{
	(void)self;
}

static void asan_leave(struct ng_coro *from, struct ng_coro *to, bool exiting)
{
	(void)from;
	(void)to;
	(void)exiting;
}
#endif

/*
 * Frames of an earlier run may have left their redzones on the stack: only
 * those it never returned from, the few of its last switch away, near the
 * top (a coroutine ends by switching away from its entry function's
 * callee). Unpoisoning all of it would cost 1/8 of the stack per start,
 * and an SM's block slots start at every kernel.
 */
#define NG_CORO_ASAN_TOP (64u << 10)

static void asan_fresh_stack(struct ng_coro *c)
{
#ifdef NG_CORO_ASAN
	size_t n = c->stack_size < NG_CORO_ASAN_TOP ? c->stack_size
						    : NG_CORO_ASAN_TOP;

	ASAN_UNPOISON_MEMORY_REGION((char *)c->stack + c->stack_size - n, n);
#else
	(void)c;
#endif
}

/* Where every coroutine starts: on its own stack, never to return. */
static void coro_main(struct ng_coro *c)
{
	c->asan_fake = NULL;
	asan_enter(c);
	c->fn(c->arg);
	abort();
}

int ng_coro_init(struct ng_coro *c, size_t size)
{
	long page = sysconf(_SC_PAGESIZE);

	memset(c, 0, sizeof(*c));
	if (page <= 0)
		page = 4096;
	size = size ? size : NG_CORO_STACK;
	size = (size + (size_t)page - 1) & ~((size_t)page - 1);
	c->map_size = size + (size_t)page;
	c->map = mmap(NULL, c->map_size, PROT_READ | PROT_WRITE,
		      MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE | MAP_STACK,
		      -1, 0);
	if (c->map == MAP_FAILED) {
		c->map = NULL;
		return -ENOMEM;
	}
	/* a guard page below the stack: an overflow faults, it never corrupts */
	if (mprotect(c->map, (size_t)page, PROT_NONE)) {
		munmap(c->map, c->map_size);
		c->map = NULL;
		return -errno;
	}
	c->stack = (char *)c->map + page;
	c->stack_size = size;
	return 0;
}

void ng_coro_init_at(struct ng_coro *c, void *stack, size_t size)
{
	memset(c, 0, sizeof(*c));
	c->stack = stack;
	c->stack_size = size;
	/* the lowest word: a run that reaches it has overflowed */
	*(uint64_t *)stack = NG_CORO_CANARY;
}

bool ng_coro_overflowed(const struct ng_coro *c)
{
	return c->stack && !c->map && *(const uint64_t *)c->stack != NG_CORO_CANARY;
}

void ng_coro_fini(struct ng_coro *c)
{
	if (c->map)
		munmap(c->map, c->map_size);
	memset(c, 0, sizeof(*c));
}

#ifdef NG_CORO_UCONTEXT

static void coro_main_uc(unsigned int hi, unsigned int lo)
{
	coro_main((struct ng_coro *)(((uintptr_t)hi << 16 << 16) | lo));
}

void ng_coro_start(struct ng_coro *c, void (*fn)(void *arg), void *arg)
{
	uintptr_t p = (uintptr_t)c;

	c->fn = fn;
	c->arg = arg;
	getcontext(&c->uc);
	c->uc.uc_stack.ss_sp = c->stack;
	c->uc.uc_stack.ss_size = c->stack_size;
	c->uc.uc_link = NULL;
	makecontext(&c->uc, (void (*)(void))coro_main_uc, 2,
		    (unsigned int)(p >> 16 >> 16), (unsigned int)p);
	asan_fresh_stack(c);
}

static void swap(struct ng_coro *from, struct ng_coro *to)
{
	swapcontext(&from->uc, &to->uc);
}

#else /* x86-64 */

/*
 * Save the callee-saved registers, MXCSR and the x87 control word on the
 * running stack, store its pointer in *save, load @to's and return into
 * it. A fresh stack is laid out as if it had been switched away from at
 * the entry trampoline, which calls r12(r13) with an aligned stack.
 */
void ng_coro_swap_sp(void **save, void *to);
void ng_coro_entry(void);

__asm__(".text\n"
	".p2align 4\n"
	".globl ng_coro_swap_sp\n"
	".hidden ng_coro_swap_sp\n"
	".type ng_coro_swap_sp, @function\n"
	"ng_coro_swap_sp:\n"
	"	pushq %rbp\n"
	"	pushq %rbx\n"
	"	pushq %r12\n"
	"	pushq %r13\n"
	"	pushq %r14\n"
	"	pushq %r15\n"
	"	subq $8, %rsp\n"
	"	stmxcsr (%rsp)\n"
	"	fnstcw 4(%rsp)\n"
	"	movq %rsp, (%rdi)\n"
	"	movq %rsi, %rsp\n"
	"	ldmxcsr (%rsp)\n"
	"	fldcw 4(%rsp)\n"
	"	addq $8, %rsp\n"
	"	popq %r15\n"
	"	popq %r14\n"
	"	popq %r13\n"
	"	popq %r12\n"
	"	popq %rbx\n"
	"	popq %rbp\n"
	"	ret\n"
	".size ng_coro_swap_sp, .-ng_coro_swap_sp\n"
	".p2align 4\n"
	".globl ng_coro_entry\n"
	".hidden ng_coro_entry\n"
	".type ng_coro_entry, @function\n"
	"ng_coro_entry:\n"
	"	movq %r13, %rdi\n"
	"	callq *%r12\n"
	"	ud2\n"
	".size ng_coro_entry, .-ng_coro_entry\n");

void ng_coro_start(struct ng_coro *c, void (*fn)(void *arg), void *arg)
{
	uintptr_t top = ((uintptr_t)c->stack + c->stack_size) & ~(uintptr_t)15;
	uint64_t *f = (uint64_t *)(top - 64);
	uint32_t mxcsr;
	uint16_t fpcw;

	c->fn = fn;
	c->arg = arg;
	/* the floating-point modes of the thread that arms it */
	__asm__ volatile("stmxcsr %0" : "=m"(mxcsr));
	__asm__ volatile("fnstcw %0" : "=m"(fpcw));
	memset(f, 0, 64);
	memcpy(&f[0], &mxcsr, 4);
	memcpy((char *)&f[0] + 4, &fpcw, 2);
	f[3] = (uint64_t)(uintptr_t)c;			/* r13: the argument */
	f[4] = (uint64_t)(uintptr_t)coro_main;		/* r12: the function */
	f[7] = (uint64_t)(uintptr_t)ng_coro_entry;	/* where ret goes */
	c->sp = f;
	asan_fresh_stack(c);
}

static void swap(struct ng_coro *from, struct ng_coro *to)
{
	ng_coro_swap_sp(&from->sp, to->sp);
}

#endif

void ng_coro_switch(struct ng_coro *from, struct ng_coro *to)
{
	asan_leave(from, to, false);
	switcher = from;
	swap(from, to);
	asan_enter(from);
}

void ng_coro_exit(struct ng_coro *from, struct ng_coro *to)
{
	asan_leave(from, to, true);
	switcher = from;
	swap(from, to);
	abort();
}
