/*
 * histfile.h - the latency histograms of a cell file (results/README.md): one latency
 * histogram per interval of a repetition's series, and hist, the
 * repetition's own histogram: the one writer and reader of both, and the rule every reader holds it to: the intervals add
 * up, bucket by bucket, to the repetition's own histogram.
 *
 * The encoding ("skip-counts"): each interval is one string of tokens
 * separated by one space, read with a cursor on bucket 0 of the loglin64
 * scheme (stats/hist.h): "-K" moves the cursor K buckets on (K empty
 * buckets), "N" is the count of the bucket under the cursor, which then
 * moves one on.  No token is 0 and no string ends with a skip; an
 * interval without IO is "".  Why not [low_ns, count] pairs as hist.buckets:
 * a 4K random read fills 300-600 buckets a second on a busy machine, 8 KiB
 * of pairs an interval where the issue allows 4; counts in a row and skips
 * take 2-4 bytes a bucket, and one string per interval parses as one JSON
 * node (an hour of 1 s intervals is 3,600 nodes, not two million).
 */
#ifndef IOMATRIX_RESULTSET_HISTFILE_H
#define IOMATRIX_RESULTSET_HISTFILE_H

#include <stddef.h>

#include <cjson/cJSON.h>

#include "stats/stats.h"

/* A histogram as [[low_ns, count], ...] of its non-empty buckets; NULL h
 * gives [].  Caller owns it. */
cJSON *hist_to_json(const struct lat_hist *h);
/* The reverse; accepts the bare array or {"scheme": "loglin64",
 * "buckets": [...]}.  0, or -1 (h zeroed) when it is not a histogram this
 * scheme wrote. */
int hist_from_json(const cJSON *j, struct lat_hist *h);

/* {"scheme": "loglin64", "encoding": "skip-counts", "intervals": [...]}
 * of s; NULL when out of memory.  The caller owns it. */
cJSON *histfile_to_json(const struct ivhist *s);

/*
 * The "hist" member of a series object (borrowed) into out (released
 * first).  0 when read, or absent (out->n 0: older sets and imports);
 * -1 with why when it is malformed or disagrees with its own series: an
 * unknown scheme or encoding, a bad token, a cursor past the last bucket,
 * not one string per interval of "ios", an interval whose counts do not
 * add up to its "ios"; -2 out of memory.
 */
int histfile_read(const cJSON *series, struct ivhist *out, char *why, size_t whylen);

/*
 * Do the intervals add up to run, bucket by bucket?  0, or -1 with the
 * first bucket that disagrees in why ("the intervals hold 17 IOs of
 * 1024-1039 ns, the repetition's histogram 18").
 */
int histfile_check_sum(const struct ivhist *s, const struct lat_hist *run,
		       char *why, size_t whylen);

/*
 * A direction object of a repetition (borrowed): when its series has
 * "hist", it must read (histfile_read) and add up to the direction's
 * "hist" (histfile_check_sum).  0, or -1 with why (prefixed by w).  The
 * cell validator (cellcheck.h) calls it for every cell from outside; the
 * set reader calls histfile_check_cell first, to refuse the set.
 */
int histfile_check_dir(const cJSON *dir, const char *w, char *why, size_t whylen);
/* histfile_check_dir of every repetition's directions ("repetition 2:
 * read: " before the reason). */
int histfile_check_cell(const cJSON *cell, char *why, size_t whylen);

/* One interval's text into buf (at most len bytes, NUL included); the
 * length it needs, as snprintf. */
size_t histfile_encode(const struct ivhist *s, size_t i, char *buf, size_t len);

#endif
