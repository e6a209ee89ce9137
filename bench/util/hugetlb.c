/*
 * hugetlb.c - reserved huge pages, from /proc/meminfo (hugetlb.h).
 */
#include "hugetlb.h"

#include <stdio.h>
#include <string.h>

/* The value of a /proc/meminfo line "NAME: N [kB]"; -1 when absent. */
static long long meminfo(const char *name)
{
	FILE *f = fopen("/proc/meminfo", "r");
	char line[128];
	long long v = -1;
	size_t n = strlen(name);
	if (!f)
		return -1;
	while (fgets(line, sizeof(line), f))
		if (!strncmp(line, name, n) && line[n] == ':') {
			if (sscanf(line + n + 1, "%lld", &v) != 1)
				v = -1;
			break;
		}
	fclose(f);
	return v;
}

uint64_t hugetlb_page_bytes(void)
{
	long long kb = meminfo("Hugepagesize");
	return kb > 0 ? (uint64_t)kb * 1024 : 2u << 20;
}

uint64_t hugetlb_free_bytes(void)
{
	long long n = meminfo("HugePages_Free");
	return n > 0 ? (uint64_t)n * hugetlb_page_bytes() : 0;
}
