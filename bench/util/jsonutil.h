/*
 * jsonutil.h - the small cJSON readers every room wanted a private copy
 * of: a string or a number member read without a type check at each call,
 * and the one scan of raw JSON text before cJSON reads it (its strings
 * and brackets).  (The writers' helpers are jsonw.h.)
 *
 * Ownership: json_str's result is borrowed from o (valid while o lives).
 */
#ifndef IOMATRIX_JSONUTIL_H
#define IOMATRIX_JSONUTIL_H

#include <stdbool.h>
#include <stddef.h>

#include <cjson/cJSON.h>

/* Member k of o when it is a string, else NULL (o may be NULL). */
const char *json_str(const cJSON *o, const char *k);
/* Member k of o when it is a finite number: 0 with *out set, else -1 and
 * *out untouched (o may be NULL; "1e400" parses as infinity and is
 * refused, as a missing member or a string is). */
int json_num(const cJSON *o, const char *k, double *out);

/* Character *i of the JSON text s in a scan that tracks strings in
 * *in_str (false at the start of a value): 1 when it opens an array or
 * object, -1 when it closes one, 0 otherwise (a bracket inside a string
 * counts for nothing); *i steps over the character a backslash escapes, so
 * it may reach the length.  Scan with
 *   for (size_t i = 0; i < len; i++) depth += json_bracket(s, &i, &in_str);
 * Inline: it runs once per byte of every file a set is read from. */
static inline int json_bracket(const char *s, size_t *i, bool *in_str)
{
	char c = s[*i];

	if (*in_str) {
		if (c == '\\')
			++*i;
		else if (c == '"')
			*in_str = false;
		return 0;
	}
	if (c == '"')
		*in_str = true;
	return c == '[' || c == '{' ? 1 : c == ']' || c == '}' ? -1 : 0;
}

#endif
