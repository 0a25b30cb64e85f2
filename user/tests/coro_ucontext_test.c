// SPDX-License-Identifier: GPL-2.0
/*
 * The swapcontext() coroutines that machines other than x86-64 use,
 * compiled here from the library's own source (coro_cases.h).
 */
#define NG_CORO_UCONTEXT
#include "runtime/coro.c"

#include "coro_cases.h"

TEST_HARNESS_MAIN
