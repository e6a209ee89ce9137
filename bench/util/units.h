/*
 * units.h - sizes and durations as people write them in suites and on the
 * command line.  Sizes are powers of 1024 (as fio): 4k, 1m, 8GiB, 512B.
 * A size is decimal digits, then optionally one space and a unit (b k m g
 * t p e, each alone or with B or iB, any case); it must fit a file offset
 * (at most 8 EiB - 1).  Not accepted: fractions, signs, hex, "4 k b".
 * Durations: 500ms, 30s, 2m, 1h, bare number = seconds.
 *
 * All parsers return 0 on success and -1 on malformed or overflowing input.
 */
#ifndef IOMATRIX_UNITS_H
#define IOMATRIX_UNITS_H

#include <stddef.h>
#include <stdint.h>

/* A whole string of decimal digits ("0", "4096"; no sign, no unit). */
int units_parse_uint(const char *s, uint64_t *out);
int units_parse_size(const char *s, uint64_t *out);
/* A plain decimal number at the start of s: digits, then optionally '.'
 * and more digits ("67970.51", "99.990000"), at most 63 characters; no
 * sign, exponent, hex, inf or nan (strtod takes all of those: "0x10" is
 * 16 to it).  *end (may be NULL) points past it.  0, or -1 when s does not
 * start with one. */
int units_parse_decimal(const char *s, const char **end, double *out);
int units_parse_duration(const char *s, uint64_t *ns_out);
/* "50%" -> 50.0; returns -1 if not a percentage in (0,100]. */
int units_parse_percent(const char *s, double *out);

/* Format: 4096 -> "4K", 1048576 -> "1M", 1536 -> "1536" (exact only). */
void units_format_size_short(uint64_t bytes, char *buf, size_t len);
/* Format for people, three figures at most: "512 B", "8.0 GiB", "1.5 GiB",
 * "256 GiB" (powers of 1024).  A double, because report callers hold sizes
 * read from JSON; negative or NaN prints as "0 B".  The one copy: the
 * report's warnings and environment table use it. */
void units_format_size(double bytes, char *buf, size_t len);
/* Format: "30s", "500ms", "2m", "1m30s". */
void units_format_duration(uint64_t ns, char *buf, size_t len);
/* Thousands separators in the integer part of a decimal string, as the
 * report prints counts: "48200" -> "48,200", "-1234.5" -> "-1,234.5"
 * (truncated to len - 1 characters). */
void units_group_digits(const char *in, char *buf, size_t len);

#endif
