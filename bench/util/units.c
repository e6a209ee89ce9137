/*
 * units.c - parse and format sizes (powers of 1024, as fio), durations and
 * percentages as people write them in suites and on the command line.
 * See units.h.  Parsers are strict: trailing junk or overflow is an error.
 */
#include <ctype.h>
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "units.h"

/* Multiplier for a size suffix ("", "b", "k", "kb", "kib", ...), 0 if bad. */
static uint64_t size_suffix(const char *s)
{
	static const char units[] = "kmgtpe";
	char low[8];
	size_t n = strlen(s);

	if (n >= sizeof(low))
		return 0;
	for (size_t i = 0; i < n && i < sizeof(low) - 1; i++)
		low[i] = (char)tolower((unsigned char)s[i]);
	low[n] = '\0';
	if (n == 0 || !strcmp(low, "b"))
		return 1;
	const char *u = strchr(units, low[0]);
	if (!u || !low[0])
		return 0;
	if (low[1] && strcmp(low + 1, "b") && strcmp(low + 1, "ib"))
		return 0;
	return 1ULL << (10 * (unsigned)(u - units + 1));
}

/* A run of decimal digits at *pp (at least one) into *v, advancing *pp;
 * -1 when there is none or it overflows 64 bits. */
static int digits(const char **pp, uint64_t *v)
{
	const char *p = *pp;

	if (!isdigit((unsigned char)*p))
		return -1;
	for (*v = 0; isdigit((unsigned char)*p); p++) {
		unsigned d = (unsigned)(*p - '0');
		if (*v > (UINT64_MAX - d) / 10)
			return -1;
		*v = *v * 10 + d;
	}
	*pp = p;
	return 0;
}

int units_parse_uint(const char *s, uint64_t *out)
{
	const char *p = s;
	uint64_t v;

	if (!s || digits(&p, &v) < 0 || *p)
		return -1;
	*out = v;
	return 0;
}

int units_parse_decimal(const char *s, const char **end, double *out)
{
	const char *p = s;
	char buf[64];

	if (!s || !isdigit((unsigned char)*p))
		return -1;
	while (isdigit((unsigned char)*p))
		p++;
	if (*p == '.' && isdigit((unsigned char)p[1]))
		for (p++; isdigit((unsigned char)*p); p++)
			;
	if ((size_t)(p - s) >= sizeof(buf))
		return -1;
	memcpy(buf, s, (size_t)(p - s));
	buf[p - s] = '\0';
	/* only digits and one point remain: strtod reads them exactly as
	 * written, and 63 digits stay far below a double's range */
	*out = strtod(buf, NULL);
	if (end)
		*end = p;
	return 0;
}

int units_parse_size(const char *s, uint64_t *out)
{
	const char *p = s;
	uint64_t v = 0, mul;

	if (!s || digits(&p, &v) < 0)
		return -1;
	if (*p == ' ' && *++p == '\0')
		return -1; /* "4 " */
	mul = size_suffix(p);
	if (!mul)
		return -1;
	/* a size must fit a file offset (off_t): 8 EiB - 1 at most */
	if (v && mul > (uint64_t)INT64_MAX / v)
		return -1;
	*out = v * mul;
	return 0;
}

/* One "<number><unit>" term of a duration; unit ns us ms s m h d. */
static int duration_term(const char **pp, uint64_t *ns, int first)
{
	static const struct { const char *u; uint64_t ns; } tab[] = {
		{ "ns", 1ULL }, { "us", 1000ULL }, { "ms", 1000000ULL },
		{ "s", 1000000000ULL }, { "m", 60000000000ULL },
		{ "h", 3600000000000ULL }, { "d", 86400000000000ULL },
	};
	const char *p = *pp;
	uint64_t v = 0;
	size_t ulen = 0;

	if (digits(&p, &v) < 0)
		return -1;
	while (isalpha((unsigned char)p[ulen]))
		ulen++;
	if (ulen == 0) { /* bare number: seconds, only as the whole string */
		if (*p || !first)
			return -1;
		if (v > UINT64_MAX / 1000000000ULL)
			return -1;
		*ns = v * 1000000000ULL;
		*pp = p;
		return 0;
	}
	for (size_t i = 0; i < sizeof(tab) / sizeof(tab[0]); i++) {
		if (strlen(tab[i].u) == ulen && !strncasecmp(p, tab[i].u, ulen)) {
			if (v && tab[i].ns > UINT64_MAX / v)
				return -1;
			*ns = v * tab[i].ns;
			*pp = p + ulen;
			return 0;
		}
	}
	return -1;
}

int units_parse_duration(const char *s, uint64_t *ns_out)
{
	const char *p = s;
	uint64_t total = 0;
	int terms = 0;

	if (!s || !*s)
		return -1;
	while (*p) {
		uint64_t t;
		if (duration_term(&p, &t, terms == 0) < 0)
			return -1;
		if (total > UINT64_MAX - t)
			return -1;
		total += t;
		terms++;
	}
	*ns_out = total;
	return terms ? 0 : -1;
}

int units_parse_percent(const char *s, double *out)
{
	const char *end;
	double v;

	/* decimal only: strtod read "0x10%" as 16 % and "1e1%" as 10 % */
	if (units_parse_decimal(s, &end, &v) < 0 || strcmp(end, "%") ||
	    !(v > 0.0) || v > 100.0)
		return -1;
	*out = v;
	return 0;
}

void units_format_size_short(uint64_t bytes, char *buf, size_t len)
{
	static const char units[] = "KMGTPE";
	int u = -1;

	while (bytes && bytes % 1024 == 0 && u < 5) {
		bytes /= 1024;
		u++;
	}
	if (u < 0)
		snprintf(buf, len, "%llu", (unsigned long long)bytes);
	else
		snprintf(buf, len, "%llu%c", (unsigned long long)bytes, units[u]);
}

void units_format_size(double bytes, char *buf, size_t len)
{
	static const char *units[] = { "B", "KiB", "MiB", "GiB", "TiB", "PiB", "EiB" };
	double v = bytes >= 0 ? bytes : 0; /* also NaN: a size from a hostile file */
	int u = 0;

	while (v >= 1024.0 && u < 6) {
		v /= 1024.0;
		u++;
	}
	/* three figures at most, as the report's tables: "23.5 GiB", "256 GiB" */
	snprintf(buf, len, v >= 100 || u == 0 ? "%.0f %s" : "%.1f %s", v, units[u]);
}

void units_format_duration(uint64_t ns, char *buf, size_t len)
{
	static const struct { const char *u; uint64_t ns; } tab[] = {
		{ "d", 86400000000000ULL }, { "h", 3600000000000ULL },
		{ "m", 60000000000ULL }, { "s", 1000000000ULL },
		{ "ms", 1000000ULL }, { "us", 1000ULL }, { "ns", 1ULL },
	};
	size_t off = 0;

	if (!len)
		return;
	buf[0] = '\0';
	if (ns == 0) {
		snprintf(buf, len, "0s");
		return;
	}
	for (size_t i = 0; i < sizeof(tab) / sizeof(tab[0]) && ns; i++) {
		uint64_t q = ns / tab[i].ns;
		if (!q)
			continue;
		ns -= q * tab[i].ns;
		int w = snprintf(buf + off, len - off, "%llu%s",
				 (unsigned long long)q, tab[i].u);
		if (w < 0 || (size_t)w >= len - off)
			return;
		off += (size_t)w;
	}
}

void units_group_digits(const char *in, char *buf, size_t len)
{
	const char *dot = strchr(in, '.');
	size_t ilen = dot ? (size_t)(dot - in) : strlen(in);
	size_t start = in[0] == '-' ? 1 : 0, o = 0;

	if (!len)
		return;
	for (size_t i = 0; in[i] && o + 1 < len; i++) {
		if (i > start && i < ilen && (ilen - i) % 3 == 0 && o + 2 < len)
			buf[o++] = ',';
		buf[o++] = in[i];
	}
	buf[o] = '\0';
}
