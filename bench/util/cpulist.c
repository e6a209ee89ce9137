/*
 * cpulist.c - parse, format and check CPU lists ("0-3,8"): the syntax of
 * fio's cpus_allowed and of /sys/devices/system/node/nodeN/cpulist.
 */
#include "cpulist.h"

#include <ctype.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static int cpu_id(const char **p, long *out)
{
	if (!isdigit((unsigned char)**p))
		return -1;
	char *end;
	errno = 0;
	long v = strtol(*p, &end, 10);
	if (errno || v < 0 || v >= CPU_SETSIZE)
		return -2;
	*p = end;
	*out = v;
	return 0;
}

int cpulist_parse(const char *s, cpu_set_t *out, char *err, size_t errlen)
{
	CPU_ZERO(out);
	const char *p = s ? s : "";
	while (*p == ' ')
		p++;
	if (!*p) {
		snprintf(err, errlen, "empty CPU list; write CPUs as '0-3,8'");
		return -1;
	}
	for (;;) {
		long lo, hi;
		const char *at = p;
		int r = cpu_id(&p, &lo);
		hi = lo;
		if (!r && *p == '-') {
			p++;
			r = cpu_id(&p, &hi);
		}
		if (r == -2) {
			snprintf(err, errlen, "CPU number at '%s' is past the largest (%d)",
				 at, CPU_SETSIZE - 1);
			return -1;
		}
		if (r < 0) {
			snprintf(err, errlen, "bad CPU list '%s' at '%s'; write CPUs as '0-3,8'",
				 s, *p ? p : "the end");
			return -1;
		}
		if (hi < lo) {
			snprintf(err, errlen, "CPU range '%ld-%ld' runs backwards; write '%ld-%ld'",
				 lo, hi, hi, lo);
			return -1;
		}
		for (long c = lo; c <= hi; c++)
			CPU_SET((int)c, out);
		while (*p == ' ')
			p++;
		if (!*p)
			return 0;
		if (*p != ',') {
			snprintf(err, errlen, "bad CPU list '%s' at '%s'; write CPUs as '0-3,8'",
				 s, p);
			return -1;
		}
		p++;
		while (*p == ' ')
			p++;
	}
}

void cpulist_format(const cpu_set_t *set, char *buf, size_t len)
{
	size_t off = 0;
	if (len)
		buf[0] = '\0';
	for (int c = 0; c < CPU_SETSIZE && off < len; c++) {
		if (!CPU_ISSET(c, set))
			continue;
		int e = c;
		while (e + 1 < CPU_SETSIZE && CPU_ISSET(e + 1, set))
			e++;
		int n = e == c ? snprintf(buf + off, len - off, "%s%d", off ? "," : "", c)
			       : snprintf(buf + off, len - off, "%s%d-%d", off ? "," : "", c, e);
		if (n < 0)
			break;
		off += (size_t)n;
		c = e;
	}
}

int cpulist_check_usable(const cpu_set_t *want, char *err, size_t errlen)
{
	cpu_set_t have, missing;
	if (sched_getaffinity(0, sizeof(have), &have) < 0)
		return 0; /* cannot tell: the kernel will say when we bind */
	CPU_ZERO(&missing);
	for (int c = 0; c < CPU_SETSIZE; c++)
		if (CPU_ISSET(c, want) && !CPU_ISSET(c, &have))
			CPU_SET(c, &missing);
	if (!CPU_COUNT(&missing))
		return 0;
	char a[128], b[128];
	cpulist_format(&missing, a, sizeof(a));
	cpulist_format(&have, b, sizeof(b));
	snprintf(err, errlen, "CPU %s is not one this process may run on (offline or "
		 "outside its cpuset); usable here: %s", a, b);
	return -1;
}
