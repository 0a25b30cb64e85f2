/* SPDX-License-Identifier: GPL-2.0 */
/*
 * CPU masks in the uapi layout (bit c of word c / 64) and their list form
 * ("0-3,8,10-11"), as sysfs and the kernel's cpulist parser write it.
 */
#ifndef NGEMU_CPULIST_H
#define NGEMU_CPULIST_H

#include <stddef.h>
#include <stdint.h>

#include <linux/numagpu.h>

/*
 * Parse a cpulist into @mask (NUMAGPU_CPUMASK_WORDS words, cleared first).
 * An empty string or a lone newline is the empty set. Returns 0, or
 * -EINVAL for malformed text, -ERANGE for a CPU >= NUMAGPU_MAX_CPUS.
 */
int ng_cpulist_parse(const char *text, __u64 *mask);

/*
 * Write @mask as a cpulist into @buf (always NUL-terminated). Returns the
 * length the full text needs, like snprintf().
 */
size_t ng_cpulist_format(const __u64 *mask, char *buf, size_t len);

/* Number of CPUs in @mask. */
unsigned int ng_cpumask_weight(const __u64 *mask);

#endif /* NGEMU_CPULIST_H */
