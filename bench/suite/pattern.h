/*
 * pattern.h - the access pattern and the data kind of a cell (cell.h), with
 * their names: one enum each, below the cell and the key table.
 */
#ifndef IOMATRIX_PATTERN_H
#define IOMATRIX_PATTERN_H

#include <stdbool.h>

enum pattern {
	PAT_READ,
	PAT_WRITE,
	PAT_RANDREAD,
	PAT_RANDWRITE,
	PAT_READWRITE,
	PAT_RANDRW,
	PAT_REWRITE, /* sysbench seqrewr: sequential overwrite of laid-out files */
	PAT__COUNT
};

enum data_kind {
	DATA_RANDOM,
	DATA_ZERO,
	DATA_COMPRESSIBLE, /* compress_pct gives the compressible share */
};

const char *pattern_name(enum pattern p);            /* "randread" */
int pattern_parse(const char *s, enum pattern *out); /* 0 ok (aliases too), -1 unknown */
bool pattern_reads(enum pattern p);
bool pattern_writes(enum pattern p);
bool pattern_is_random(enum pattern p);
bool pattern_is_mixed(enum pattern p);
const char *data_name(enum data_kind d);             /* "random" "zero" "compressible" */
int data_parse(const char *s, enum data_kind *out);  /* 0 ok, -1 unknown */

#endif
