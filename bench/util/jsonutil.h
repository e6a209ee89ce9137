/*
 * jsonutil.h - the small cJSON readers every room wanted a private copy
 * of: a string or a number member read without a type check at each call.
 * (The writers' helpers are jsonw.h.)
 *
 * Ownership: json_str's result is borrowed from o (valid while o lives).
 */
#ifndef IOMATRIX_JSONUTIL_H
#define IOMATRIX_JSONUTIL_H

#include <cjson/cJSON.h>

/* Member k of o when it is a string, else NULL (o may be NULL). */
const char *json_str(const cJSON *o, const char *k);
/* Member k of o when it is a finite number: 0 with *out set, else -1 and
 * *out untouched (o may be NULL; "1e400" parses as infinity and is
 * refused, as a missing member or a string is). */
int json_num(const cJSON *o, const char *k, double *out);

#endif
