/*
 * fio_lat.h - one fio job entry's direction into a repetition, for the fio
 * importer (import_fio.c): counts and rates, and fio's two latencies kept
 * apart (lat: total, clat: completion; latency_kind in results/README.md)
 * with their moments, percentiles and json+ bins, merged over the entries
 * of one job (numjobs without group_reporting).
 */
#ifndef IOMATRIX_FIO_LAT_H
#define IOMATRIX_FIO_LAT_H

#include <stdbool.h>

#include <cjson/cJSON.h>

#include "stats/rep.h"

/* Accumulates the entries of one job (numjobs without group_reporting). */
struct fio_acc {
	struct dir_result dir[DIR__COUNT];
	double lat_m2[DIR__COUNT];
	double other_m2[DIR__COUNT], other_n[DIR__COUNT];
	bool pct_lost[DIR__COUNT];
	bool no_lat[DIR__COUNT];
	bool kind_known;       /* kind was chosen, at the first direction with samples */
	enum lat_kind kind;    /* which of fio's latencies lat_ns holds */
	double runtime_ms, usr, sys;
	unsigned entries;
	const char *bad_key;   /* fio_acc_dir's -4: the percentile key (borrowed) */
};

/*
 * Fold one entry's direction (fio's "read"/"write" object) into a.
 * 0; -1 when a key is missing or malformed; -2 out of memory; -3 a
 * negative count or latency, or a count past 2^64 (an edited file); -4 a
 * percentile key that is not a decimal in (0, 100] (a->bad_key).  The caller zeroes a first
 * and owns the histograms it leaves in a->dir[].hist.
 */
int fio_acc_dir(struct fio_acc *a, int di, const cJSON *o);

#endif
