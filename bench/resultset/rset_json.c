/*
 * rset_json.c - the one bounded JSON reader of a result set's files
 * (jsonread.h: rset_parse_json; rset_int.h: rset_file_read) and the
 * lookups the typed model is filled with (rset_int.h).
 */
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "util/fsutil.h"
#include "util/jsonutil.h"
#include "util/sha256.h"
#include "resultset.h"
#include "rset_int.h"

/* cJSON recurses per nesting level; bound it before parsing.  *open_end
 * tells whether the text ends inside a string or an open bracket: then a
 * parse error means the file was cut short. */
static bool json_depth_ok(const char *s, size_t len, int max, bool *open_end)
{
	int depth = 0;
	bool in_str = false;

	for (size_t i = 0; i < len; i++) {
		depth += json_bracket(s, &i, &in_str);
		if (depth > max)
			return false;
	}
	*open_end = in_str || depth > 0;
	return true;
}

/* End of the JSON string starting at s[i] == '"' (index after it). */
static size_t skip_string(const char *s, size_t i, size_t len)
{
	bool in_str = true;

	for (i++; i < len; i++) {
		json_bracket(s, &i, &in_str);
		if (!in_str)
			return i + 1;
	}
	return len;
}

/*
 * Blank the array or object value of the top-level member `key` of the JSON
 * object in buf to "[]" or "{}" and spaces, so that a parse skips it.  Only
 * the structure is scanned (strings and nesting), nothing is allocated;
 * malformed text is left as it is for the parser to report.
 */
static void blank_member(char *buf, size_t len, const char *key)
{
	size_t klen = strlen(key);
	int depth = 0;
	for (size_t i = 0; i < len; i++) {
		char c = buf[i];
		if (c == '{' || c == '[') {
			depth++;
		} else if (c == '}' || c == ']') {
			depth--;
		} else if (c == '"') {
			size_t e = skip_string(buf, i, len);
			bool hit = depth == 1 && e - i == klen + 2 && !memcmp(buf + i + 1, key, klen);
			i = e - 1;
			if (!hit)
				continue;
			size_t v = e;
			while (v < len && strchr(" \t\r\n", buf[v]))
				v++;
			if (v >= len || buf[v] != ':')
				continue;
			for (v++; v < len && strchr(" \t\r\n", buf[v]); v++)
				;
			if (v >= len || (buf[v] != '[' && buf[v] != '{'))
				return;
			size_t w = v;
			int d = 0;
			for (; w < len; w++) {
				if (buf[w] == '"')
					w = skip_string(buf, w, len) - 1;
				else if (buf[w] == '[' || buf[w] == '{')
					d++;
				else if ((buf[w] == ']' || buf[w] == '}') && --d == 0)
					break;
			}
			if (w >= len)
				return;    /* truncated: let the parser say so */
			memset(buf + v + 1, ' ', w - v - 1);
			buf[w] = buf[v] == '[' ? ']' : '}';
			return;
		}
	}
}

cJSON *rset_file_read(int dirfd, const char *name, const char *skip, char hex[65],
		      char *why, size_t whylen)
{
	size_t len;
	char *buf = fsutil_read_at(dirfd, name, RESULTSET_MAX_FILE_BYTES, 0, &len);

	if (!buf) {
		int e = errno;
		snprintf(why, whylen, "%s", fsutil_strerror(e));
		errno = e;
		return NULL;
	}
	if (hex)
		sha256_hex(buf, len, hex);
	if (skip)
		blank_member(buf, len, skip);
	cJSON *j = rset_parse_json(buf, len, why, whylen);
	free(buf);
	if (j && !cJSON_IsObject(j))
		snprintf(why, whylen, "not a JSON object");
	if (!j || !cJSON_IsObject(j)) {
		cJSON_Delete(j);
		errno = EBADMSG;
		return NULL;
	}
	double sv = rj_num(j, "schema_version", 1);
	if (sv > RESULTSET_SCHEMA_VERSION) {
		snprintf(why, whylen, "%g", sv);
		cJSON_Delete(j);
		errno = EPROTO;
		return NULL;
	}
	return j;
}

cJSON *rset_parse_json(const char *buf, size_t len, char *why, size_t whylen)
{
	const char *end = NULL;
	cJSON *j;

	if (len == 0) {
		snprintf(why, whylen, "empty file");
		return NULL;
	}
	if (memchr(buf, '\0', len)) {
		snprintf(why, whylen, "contains a NUL byte (corrupt)");
		return NULL;
	}
	bool open_end = false;
	if (!json_depth_ok(buf, len, RSET_MAX_JSON_DEPTH, &open_end)) {
		snprintf(why, whylen, "JSON nested deeper than %d levels",
			 RSET_MAX_JSON_DEPTH);
		return NULL;
	}
	/* exactly len bytes: buf need not hold a NUL after them; what
	 * follows the value may only be white space */
	j = cJSON_ParseWithLengthOpts(buf, len, &end, false);
	if (j && end) {
		const char *e = end;
		while (e < buf + len && (*e == ' ' || *e == '\t' || *e == '\r' || *e == '\n'))
			e++;
		if (e < buf + len) {
			cJSON_Delete(j);
			j = NULL;
			end = e;
		}
	}
	if (!j) {
		size_t at = end && end >= buf ? (size_t)(end - buf) : 0;
		if (at >= len || open_end)
			snprintf(why, whylen, "truncated JSON (ends at byte %zu)", len);
		else
			snprintf(why, whylen, "corrupt JSON at byte %zu", at);
	}
	return j;
}

const cJSON *rj_get(const cJSON *o, const char *key)
{
	return cJSON_IsObject(o) ? cJSON_GetObjectItemCaseSensitive(o, key) : NULL;
}

const char *rj_str(const cJSON *o, const char *key, const char *def)
{
	const cJSON *v = rj_get(o, key);
	return cJSON_IsString(v) && v->valuestring ? v->valuestring : def;
}

double rj_num(const cJSON *o, const char *key, double def)
{
	double v;
	return cJSON_IsObject(o) && json_num(o, key, &v) == 0 ? v : def;
}

uint64_t rj_size(const cJSON *o, const char *key)
{
	double d = rj_num(o, key, 0);
	return d > 0 && d < 1.8e19 ? (uint64_t)d : 0;
}

int rj_int(const cJSON *o, const char *key, int def, int lo, int hi)
{
	double d = rj_num(o, key, def);
	if (d < lo || d > hi)
		return def;
	return (int)d;
}

int rj_bool(const cJSON *o, const char *key, int def)
{
	const cJSON *v = rj_get(o, key);
	if (cJSON_IsBool(v))
		return cJSON_IsTrue(v);
	return def;
}

char *rj_strdup(const cJSON *o, const char *key)
{
	const char *v = rj_str(o, key, NULL);
	return v ? strdup(v) : NULL;
}

/* resultset.h: a file the writer reads back (a manifest, a plan), through
 * the one bounded parser. */
cJSON *resultset_read_json(const char *path, char *err, size_t errlen)
{
	size_t len;
	char *text = fsutil_read(path, RESULTSET_MAX_FILE_BYTES, &len);
	char why[128];
	cJSON *j;

	if (!text) {
		if (errno == EFBIG)
			snprintf(err, errlen, "'%s' is larger than %u MiB: not a result file "
				 "iomatrix wrote", path, RESULTSET_MAX_FILE_BYTES >> 20);
		else
			snprintf(err, errlen, "cannot read '%s': %s", path,
				 fsutil_strerror(errno));
		return NULL;
	}
	j = rset_parse_json(text, len, why, sizeof(why));
	free(text);
	if (!j)
		snprintf(err, errlen, "'%s' is not valid JSON", path);
	return j;
}
