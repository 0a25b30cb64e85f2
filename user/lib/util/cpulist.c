// SPDX-License-Identifier: GPL-2.0
#include <ctype.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "ngemu/util/cpulist.h"

static int parse_cpu(const char **p, unsigned long *cpu)
{
	char *end;

	/* strtoul would accept a sign and leading blanks; sysfs has neither */
	if (!isdigit((unsigned char)**p))
		return -EINVAL;
	errno = 0;
	*cpu = strtoul(*p, &end, 10);
	if (errno)
		return -ERANGE;
	*p = end;
	return *cpu < NUMAGPU_MAX_CPUS ? 0 : -ERANGE;
}

int ng_cpulist_parse(const char *text, __u64 *mask)
{
	const char *p = text;

	memset(mask, 0, NUMAGPU_CPUMASK_WORDS * sizeof(*mask));
	if (*p == '\0' || strcmp(p, "\n") == 0)
		return 0;
	for (;;) {
		unsigned long lo, hi;
		int err = parse_cpu(&p, &lo);

		if (err)
			return err;
		hi = lo;
		if (*p == '-') {
			p++;
			err = parse_cpu(&p, &hi);
			if (err)
				return err;
			if (hi < lo)
				return -EINVAL;
		}
		for (unsigned long c = lo; c <= hi; c++)
			mask[c / 64] |= 1ULL << (c % 64);
		if (*p == ',') {
			p++;
			continue;
		}
		if (*p == '\n')
			p++;
		return *p == '\0' ? 0 : -EINVAL;
	}
}

static int cpu_isset(const __u64 *mask, unsigned int c)
{
	return c < NUMAGPU_MAX_CPUS && (mask[c / 64] >> (c % 64)) & 1;
}

size_t ng_cpulist_format(const __u64 *mask, char *buf, size_t len)
{
	size_t need = 0;

	if (len)
		buf[0] = '\0';
	for (unsigned int c = 0; c < NUMAGPU_MAX_CPUS; c++) {
		unsigned int end = c;
		char item[32];
		int n;

		if (!cpu_isset(mask, c))
			continue;
		while (cpu_isset(mask, end + 1))
			end++;
		if (end == c)
			n = snprintf(item, sizeof(item), "%s%u",
				     need ? "," : "", c);
		else
			n = snprintf(item, sizeof(item), "%s%u-%u",
				     need ? "," : "", c, end);
		if (need + n < len)
			memcpy(buf + need, item, n + 1);
		else if (len)
			buf[len - 1] = '\0';
		need += n;
		c = end;
	}
	return need;
}

unsigned int ng_cpumask_weight(const __u64 *mask)
{
	unsigned int n = 0;

	for (int w = 0; w < NUMAGPU_CPUMASK_WORDS; w++)
		n += (unsigned int)__builtin_popcountll(mask[w]);
	return n;
}
