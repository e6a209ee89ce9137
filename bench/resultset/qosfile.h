/*
 * qosfile.h - the "load_sweep" object of a cell file, written
 * and read only here (results/README.md documents it):
 *
 *   "load_sweep": {"max_iops": probed maximum, "knee_k": 3,
 *     "knee_index": i of points or null,
 *     "points": [{"offered_iops", "achieved_iops", "refined",
 *                 "response": {"p50_ns", "p99_ns", "p999_ns", "p9999_ns", "mean_ns"},
 *                 "service":  {"p50_ns", "p99_ns", "p999_ns", "mean_ns"}}...],
 *     "qos": {"metric", "target_ns", "met", "sustained_iops",
 *             "sustained_pct_of_max", "lowest_ns", "lowest_offered_iops"}}
 *
 * points are sorted by offered load; "qos" only with a target.
 */
#ifndef IOMATRIX_QOSFILE_H
#define IOMATRIX_QOSFILE_H

#include <stdbool.h>
#include <stddef.h>

#include <cjson/cJSON.h>

#include "stats/qos.h"

struct sweep_data {
	double max_iops;
	struct qos_point *pts;  /* owned, sorted by offered load */
	size_t n;
	struct qos_target target; /* metric QOS_NONE: none */
	int knee;               /* index in pts, -1 none */
};

/* The object above (caller owns it), NULL when out of memory. */
cJSON *resultset_sweep_to_json(const struct sweep_data *s);
/* From a cell file's root: 1 found (out filled; sweep_data_release),
 * 0 the cell has none, -1 malformed (err says what). */
int resultset_sweep_from_json(const cJSON *cell, struct sweep_data *out,
			      char *err, size_t errlen);
void sweep_data_release(struct sweep_data *s);

#endif
