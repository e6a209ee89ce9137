/*
 * jsonw.h - the one set of helpers that add members to a JSON object being
 * written (report.json, compare.json, the template context, the archive's
 * and the site's own files).  Writers only: reading a set goes through
 * resultset/rset.h's structs.
 *
 * Each adds to o, which stays the caller's; out of memory leaves the
 * member out (cJSON's own convention), which the caller's final print
 * then reports.
 */
#ifndef IOMATRIX_JSONW_H
#define IOMATRIX_JSONW_H

#include <cjson/cJSON.h>

/* k: v, or null when v is NULL. */
void jsonw_str(cJSON *o, const char *k, const char *v);
/* k: v, or "" when v is NULL (template text, where null would print
 * nothing either way but tests compare the JSON). */
void jsonw_text(cJSON *o, const char *k, const char *v);
/* k: [v[0], ..., v[n-1]], an empty array when n is 0 (the report's alerts
 * and summary sentences). */
void jsonw_strs(cJSON *o, const char *k, char *const *v, size_t n);
/* k: the printf text. */
void jsonw_fmt(cJSON *o, const char *k, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));

#endif
