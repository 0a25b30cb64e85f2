/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The coroutine switch's tests, shared by coro_test.c (the switch the
 * library uses here) and coro_ucontext_test.c (the swapcontext() one that
 * other machines use): switching back and forth keeps each side's state,
 * a coroutine runs again after its last switch, its stack is its own and
 * an overflow hits the guard page.
 */
#ifndef NGEMU_TEST_CORO_CASES_H
#define NGEMU_TEST_CORO_CASES_H

#include <fcntl.h>
#include <signal.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include "ng_test.h"

#include "runtime/coro.h"

struct ping {
	struct ng_coro self, *back;
	unsigned int n;
	double acc;		/* floating point state across switches */
	int done;
};

static void ping_main(void *arg)
{
	struct ping *p = arg;
	volatile char local[256];

	for (unsigned int i = 0; i < p->n; i++) {
		local[i % sizeof(local)] = (char)i;
		p->acc += 0.5 * i;
		ng_coro_switch(&p->self, p->back);
		/* our stack survived the other side's work */
		if (local[i % sizeof(local)] != (char)i)
			p->acc = -1;
	}
	p->done = 1;
	ng_coro_exit(&p->self, p->back);
}

TEST(switches_keep_both_sides_state)
{
	struct ng_coro me = { 0 };
	struct ping p = { .back = &me, .n = 1000 };
	double mine = 0;

	ASSERT_EQ(0, ng_coro_init(&p.self, 0));
	for (unsigned int round = 0; round < 2; round++) {
		p.n = 1000;
		p.acc = 0;
		p.done = 0;
		mine = 0;
		/* armed again after its last switch: it starts over */
		ng_coro_start(&p.self, ping_main, &p);
		for (unsigned int i = 0; !p.done; i++) {
			ng_coro_switch(&me, &p.self);
			mine += 1.25;
			ASSERT_LE(i, 1000);
		}
		EXPECT_EQ(0.5 * 999 * 1000 / 2, p.acc);
		EXPECT_EQ(1.25 * 1001, mine);
	}
	ng_coro_fini(&p.self);
}

struct pair {
	struct ng_coro a, b, *main;
	unsigned long trace;
};

static void pair_b(void *arg)
{
	struct pair *p = arg;

	p->trace = p->trace * 10 + 2;
	ng_coro_switch(&p->b, &p->a);
	p->trace = p->trace * 10 + 4;
	ng_coro_exit(&p->b, p->main);
}

static void pair_a(void *arg)
{
	struct pair *p = arg;

	p->trace = p->trace * 10 + 1;
	ng_coro_switch(&p->a, &p->b);
	p->trace = p->trace * 10 + 3;
	ng_coro_switch(&p->a, &p->b);
	abort();	/* never resumed */
}

/* Coroutines switch among themselves, not only with their thread. */
TEST(coroutines_switch_among_themselves)
{
	struct ng_coro me = { 0 };
	struct pair p = { .main = &me };

	ASSERT_EQ(0, ng_coro_init(&p.a, 64 << 10));
	ASSERT_EQ(0, ng_coro_init(&p.b, 64 << 10));
	ng_coro_start(&p.a, pair_a, &p);
	ng_coro_start(&p.b, pair_b, &p);
	ng_coro_switch(&me, &p.a);
	EXPECT_EQ(1234, p.trace);
	ng_coro_fini(&p.a);
	ng_coro_fini(&p.b);
}

static unsigned long deep(unsigned long n)
{
	volatile char pad[1024];

	pad[0] = (char)n;
	return n ? deep(n - 1) + pad[0] % 2 : 0;
}

struct overflow {
	struct ng_coro self, *back;
	unsigned long depth, got;
};

static void overflow_main(void *arg)
{
	struct overflow *o = arg;

	o->got = deep(o->depth);
	ng_coro_exit(&o->self, o->back);
}

/* A deep stack works; past its end, the guard page stops it. */
TEST(stack_guard)
{
	struct ng_coro me = { 0 };
	struct overflow o = { .back = &me, .depth = 100 };
	int status;
	pid_t pid;

	ASSERT_EQ(0, ng_coro_init(&o.self, 256 << 10));
	ng_coro_start(&o.self, overflow_main, &o);
	ng_coro_switch(&me, &o.self);
	EXPECT_EQ(50, o.got);
	pid = fork();
	ASSERT_LE(0, pid);
	if (!pid) {
		int null = open("/dev/null", O_WRONLY);

		/* the sanitizer's report of the overflow is the expected end */
		if (null >= 0)
			dup2(null, 2);
		o.depth = 10000;	/* 10 MB of frames on a 256 KB stack */
		ng_coro_start(&o.self, overflow_main, &o);
		ng_coro_switch(&me, &o.self);
		_exit(0);
	}
	ASSERT_EQ(pid, waitpid(pid, &status, 0));
	EXPECT_TRUE(WIFSIGNALED(status));
	ng_coro_fini(&o.self);
}

/*
 * A stack the caller provides (the SMs' block slots share one mapping):
 * a run that stays on it leaves the canary at its bottom; one that went
 * below the bottom, into what would be a neighbour's stack, is told.
 */
TEST(a_caller_stack_tells_an_overflow)
{
	size_t size = 256 << 10;
	char *mem = aligned_alloc(64, 2 * size);
	struct ng_coro me = { 0 };
	struct overflow o = { .back = &me, .depth = 100 };

	ASSERT_NE(NULL, mem);
	/* the upper half is the coroutine's; the lower half stands for its neighbour */
	ng_coro_init_at(&o.self, mem + size, size);
	ng_coro_start(&o.self, overflow_main, &o);
	ng_coro_switch(&me, &o.self);
	EXPECT_EQ(50, o.got);
	EXPECT_FALSE(ng_coro_overflowed(&o.self));
	/* what an overflow does to the lowest word */
	memset(mem + size, 0x5a, 8);
	EXPECT_TRUE(ng_coro_overflowed(&o.self));
	ng_coro_fini(&o.self);
	free(mem);
}

#endif /* NGEMU_TEST_CORO_CASES_H */
