/*
 * ssd_keys.h - the suite language of SNIA PTS testing, internal
 * to the suite loader: the map-valued keys `precondition`, `rounds` and
 * `steady_state`, the device key `purge`, and the checks that need the
 * expanded plan (tracking variables name cells; purge needs the opt-in).
 *
 * Error convention of the suite loader: -1 and an error with file:line:col
 * appended to y->errs; every problem of a value is reported.
 */
#ifndef IOMATRIX_SSD_KEYS_H
#define IOMATRIX_SSD_KEYS_H

#include <yaml.h>

#include "cell.h"
#include "util/errlist.h"
#include "ymap.h"

/* Where each `track` entry was written, to point at one that names no
 * cell once the matrix is expanded. */
struct track_pos {
	unsigned line, col;
};

/* purge: none | discard.  Records the position in d for run's messages. */
int ssd_parse_purge(const struct ykit *y, yaml_node_t *vn,
		    struct suite_device *d);
/* precondition: none | sequential | random | {pattern, bs, amount,
 * iodepth, jobs} */
int ssd_parse_precondition(const struct ykit *y, yaml_node_t *vn,
			   struct precondition *p);
/* rounds: {max, window, range, slope, metric, track: [LABEL...]}.  r owns
 * the track array afterwards (free with ssd_rounds_release); *pos gets a
 * malloc'd array of positions, one per track (caller frees). */
int ssd_parse_rounds(const struct ykit *y, yaml_node_t *vn,
		     struct suite_rounds *r, struct track_pos **pos);
void ssd_rounds_release(struct suite_rounds *r);
/* steady_state: {window, range, slope, max} (a cell key) */
int ssd_parse_steady(const struct ykit *y, yaml_node_t *vn,
		     struct steady_rule *r);

/* After expansion: purge: discard needs `destructive: true` and a block
 * device (a path that exists and is something else is refused now; one
 * that does not exist yet is left to run).  line/col: the device entry. */
void ssd_check_device(const struct ykit *y, const struct suite_device *d);
/* After expansion: every track label names exactly one cell on each
 * device (pos as from ssd_parse_rounds). */
void ssd_check_tracks(const struct ykit *y, const struct suite *s,
		      const struct track_pos *pos);

/* The help lines of these keys, for `validate --keys` style help. */
void ssd_keys_help(FILE *f);

#endif
