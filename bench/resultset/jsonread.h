/*
 * jsonread.h - the one bounded JSON parser for every file read back: a
 * set's files (rset.h reads them into structs; setdir.c and ptsfile.c
 * read their own back) and the report's own indexes (the site's, the
 * archive's).  Bounded in nesting depth (RSET_MAX_JSON_DEPTH; cJSON
 * recurses per level) and, through the callers' fsutil_read_at, in size.
 */
#ifndef IOMATRIX_JSONREAD_H
#define IOMATRIX_JSONREAD_H

#include <stddef.h>

#include <cjson/cJSON.h>

#define RSET_MAX_JSON_DEPTH 64

/* Parse the len bytes at buf as one JSON value (white space may follow
 * it; nothing else, and no NUL byte), with a nesting bound.  Reads no
 * byte past buf + len.  NULL with a message ("truncated or corrupt JSON
 * at byte N") in why.  The caller owns the tree. */
cJSON *rset_parse_json(const char *buf, size_t len, char *why, size_t whylen);

#endif
