/*
 * jsonutil.h - the small cJSON helpers every room wanted a private copy
 * of: a string member read without a type check at each call, and a
 * string member written as null when there is none.
 *
 * Ownership: json_str's result is borrowed from o (valid while o lives);
 * the adders copy v into o.
 */
#ifndef IOMATRIX_JSONUTIL_H
#define IOMATRIX_JSONUTIL_H

#include <cjson/cJSON.h>

/* Member k of o when it is a string, else NULL (o may be NULL). */
const char *json_str(const cJSON *o, const char *k);
/* Add k: v to o, or k: null when v is NULL. */
void json_add_str_or_null(cJSON *o, const char *k, const char *v);

#endif
