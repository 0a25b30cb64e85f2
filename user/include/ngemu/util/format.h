/* SPDX-License-Identifier: GPL-2.0 */
/* Human-readable numbers for reports. */
#ifndef NGEMU_FORMAT_H
#define NGEMU_FORMAT_H

#include <stddef.h>
#include <stdint.h>

/* "0 B", "512 B", "1.5 KiB", "23.9 GiB": binary units, one decimal. */
const char *ng_format_bytes(uint64_t bytes, char *buf, size_t len);

/* "950", "1.50 k", "2.00 M", "3.10 G": a count in decimal units. */
const char *ng_format_si(double v, char *buf, size_t len);

/* "1.500 s", "2.250 ms", "3.000 us": a duration in the unit that suits it. */
const char *ng_format_dur(double s, char *buf, size_t len);
/*
 * Duration @s in a table's column whose largest value is @max: in the
 * unit that suits @max, so that one column has one unit (rows in us and
 * ms side by side read as the wrong order of magnitude).
 */
const char *ng_format_dur_col(double s, double max, char *buf, size_t len);

#endif /* NGEMU_FORMAT_H */
