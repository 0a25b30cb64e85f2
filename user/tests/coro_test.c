// SPDX-License-Identifier: GPL-2.0
/* The coroutine switch libngemu runs its SMs with (coro_cases.h). */
#include "coro_cases.h"

TEST_HARNESS_MAIN
