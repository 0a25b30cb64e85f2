// SPDX-License-Identifier: GPL-2.0
/* --size's value (size_spec.h). */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "size_spec.h"
#include "ngemu/config.h"

int size_spec_parse(const char *val, struct size_spec *s)
{
	s->bytes = 0;
	s->paper_div = 0;
	if (!strncmp(val, "paper", 5)) {
		char *end = NULL;
		unsigned long n = 1;

		if (val[5])
			n = val[5] == '/' ? strtoul(val + 6, &end, 10) : 0;
		if (!n || (end && *end) || n > 1u << 20)
			return -EINVAL;
		s->paper_div = (unsigned int)n;
		return 0;
	}
	return ng_parse_size(val, &s->bytes) || !s->bytes ? -EINVAL : 0;
}

uint64_t size_spec_bytes(const struct size_spec *s,
			 const struct ng_workload *w)
{
	if (!s)
		return w->default_size;
	if (!s->paper_div)
		return s->bytes;
	/* whole 4-byte elements */
	return ng_workload_paper_size(w) / s->paper_div / 4 * 4;
}
