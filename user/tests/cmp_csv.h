/* SPDX-License-Identifier: GPL-2.0 */
/*
 * A field of ngemu bench --compare --csv --sweep's output, for the tests
 * that read one.
 */
#ifndef NG_TEST_CMP_CSV_H
#define NG_TEST_CMP_CSV_H

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* Column @name of the CSV line whose system is @sys at @sweep. */
static inline double field(const char *csv, const char *sweep, const char *sys,
			   const char *name)
{
	unsigned int col = 0;
	char key[64];
	const char *p, *h;

	/* the column's place in the header */
	snprintf(key, sizeof(key), ",%s,", name);
	h = strstr(csv, key);
	if (!h || memchr(csv, '\n', (size_t)(h - csv)))
		return -1;
	for (p = csv; p <= h; p++)
		col += *p == ',';
	snprintf(key, sizeof(key), ",%s,%s,", sweep, sys);
	p = strstr(csv, key);
	if (!p)
		return -1;
	while (p > csv && p[-1] != '\n')
		p--;
	for (unsigned int c = 0; c < col; c++) {
		p = strchr(p, ',');
		if (!p)
			return -1;
		p++;
	}
	return strtod(p, NULL);
}

#endif /* NG_TEST_CMP_CSV_H */
