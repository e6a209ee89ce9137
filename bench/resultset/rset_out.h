/*
 * rset_out.h - the typed values of a set (rset.h) as JSON again, for the
 * report's own files (report.json, the export): the writer's side.  A
 * reader of a set never needs it; a reader looks at the structs.
 *
 * Each returns a new tree the caller owns (NULL when out of memory).
 */
#ifndef IOMATRIX_RSET_OUT_H
#define IOMATRIX_RSET_OUT_H

#include <cjson/cJSON.h>

#include "rset.h"

cJSON *rset_value_json(const struct rset_value *v);
cJSON *rset_obj_json(const struct rset_obj *o);
/* Cell c's params as its file recorded them: the key table's JSON of
 * c->cell (cell_to_json), for the keys the file had (c->recorded). */
cJSON *rset_cell_params_json(const struct rset_cell *c);

#endif
