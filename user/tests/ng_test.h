/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The test harness as every test program here includes it: the kernel's
 * kselftest_harness.h with a wider default time limit per test.
 *
 * The harness kills a test after 30 s. A test that runs workloads runs
 * them in full, and under AddressSanitizer on a loaded 2-CPU machine that
 * takes one to two minutes (a paper's whole suite, verified and then
 * corrupted, twice); a limit that a slow machine can reach makes a test
 * pass or fail by the machine's speed. 600 s is several times the longest
 * test measured that way (Documentation/building.rst, Tests) and no more than
 * tools/check.sh gives a whole test program, so a test that really hangs
 * still ends.
 */
#ifndef NGEMU_TEST_H
#define NGEMU_TEST_H

#include "kselftest_harness.h"

#undef TEST_TIMEOUT_DEFAULT
#define TEST_TIMEOUT_DEFAULT 600

#endif /* NGEMU_TEST_H */
