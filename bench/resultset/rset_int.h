/*
 * rset_int.h - inside the set reader (rset*.c of bench/resultset/ only):
 * the JSON lookups the typed model is filled with.  Nothing outside this
 * room includes it: readers get the structs of rset.h.
 *
 * Every getter takes a possibly NULL or wrong-typed node and returns the
 * default then, so that a corrupt or hostile file reads as "absent".
 * Strings returned point into the tree.
 */
#ifndef IOMATRIX_RSET_INT_H
#define IOMATRIX_RSET_INT_H

#include <stdbool.h>
#include <stdint.h>

#include <cjson/cJSON.h>

#include "rset.h"

const cJSON *rj_get(const cJSON *o, const char *key);
const char *rj_str(const cJSON *o, const char *key, const char *def);
/* A finite number, else def. */
double rj_num(const cJSON *o, const char *key, double def);
/* A positive number below 2^64, else 0. */
uint64_t rj_size(const cJSON *o, const char *key);
/* A number in [lo, hi], else def. */
int rj_int(const cJSON *o, const char *key, int def, int lo, int hi);
/* true/false as 1/0, else def. */
int rj_bool(const cJSON *o, const char *key, int def);
/* strdup of rj_str (NULL when absent or out of memory). */
char *rj_strdup(const cJSON *o, const char *key);

/* One repetition object (a cell's or a preconditioning pass's) into r:
 * 0, or -1 when out of memory (r holds what was read; release it). */
int rset_rep_read(const cJSON *rep, struct rset_rep *r);
/* A cell's "steady_state" object. */
void rset_cell_steady_read(const cJSON *ss, struct rset_cell_steady *s);

#endif
