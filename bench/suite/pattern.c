/*
 * pattern.c - the access patterns and data kinds of a cell: their names
 * (with sysbench's aliases) and what each reads, writes or mixes.  Below
 * the cell and the key table, which both name them.
 */
#include <string.h>

#include "pattern.h"

static const char *const pattern_names[PAT__COUNT] = {
	[PAT_READ] = "read",
	[PAT_WRITE] = "write",
	[PAT_RANDREAD] = "randread",
	[PAT_RANDWRITE] = "randwrite",
	[PAT_READWRITE] = "readwrite",
	[PAT_RANDRW] = "randrw",
	[PAT_REWRITE] = "rewrite",
};

/* sysbench fileio --file-test-mode names */
static const struct { const char *alias; enum pattern p; } pattern_aliases[] = {
	{ "seqrd", PAT_READ },      { "seqwr", PAT_WRITE },
	{ "rndrd", PAT_RANDREAD },  { "rndwr", PAT_RANDWRITE },
	{ "rndrw", PAT_RANDRW },    { "seqrewr", PAT_REWRITE },
};

const char *pattern_name(enum pattern p)
{
	return (unsigned)p < PAT__COUNT ? pattern_names[p] : "?";
}

int pattern_parse(const char *s, enum pattern *out)
{
	for (int i = 0; i < PAT__COUNT; i++)
		if (!strcmp(s, pattern_names[i])) {
			*out = (enum pattern)i;
			return 0;
		}
	for (size_t i = 0; i < sizeof(pattern_aliases) / sizeof(pattern_aliases[0]); i++)
		if (!strcmp(s, pattern_aliases[i].alias)) {
			*out = pattern_aliases[i].p;
			return 0;
		}
	return -1;
}

bool pattern_reads(enum pattern p)
{
	return p == PAT_READ || p == PAT_RANDREAD || p == PAT_READWRITE ||
	       p == PAT_RANDRW;
}

bool pattern_writes(enum pattern p)
{
	return p == PAT_WRITE || p == PAT_RANDWRITE || p == PAT_READWRITE ||
	       p == PAT_RANDRW || p == PAT_REWRITE;
}

bool pattern_is_random(enum pattern p)
{
	return p == PAT_RANDREAD || p == PAT_RANDWRITE || p == PAT_RANDRW;
}

bool pattern_is_mixed(enum pattern p)
{
	return p == PAT_READWRITE || p == PAT_RANDRW;
}

const char *data_name(enum data_kind d)
{
	switch (d) {
	case DATA_RANDOM: return "random";
	case DATA_ZERO: return "zero";
	case DATA_COMPRESSIBLE: return "compressible";
	}
	return "?";
}

int data_parse(const char *s, enum data_kind *out)
{
	if (!strcmp(s, "random"))
		*out = DATA_RANDOM;
	else if (!strcmp(s, "zero"))
		*out = DATA_ZERO;
	else if (!strcmp(s, "compressible"))
		*out = DATA_COMPRESSIBLE;
	else
		return -1;
	return 0;
}
