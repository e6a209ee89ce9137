/*
 * jsonw.c - jsonw.h: adding members to a JSON object being written.
 */
#include "jsonw.h"

#include <stdarg.h>

#include "sbuf.h"

void jsonw_str(cJSON *o, const char *k, const char *v)
{
	cJSON_AddItemToObject(o, k, v ? cJSON_CreateString(v) : cJSON_CreateNull());
}

void jsonw_text(cJSON *o, const char *k, const char *v)
{
	cJSON_AddItemToObject(o, k, cJSON_CreateString(v ? v : ""));
}

void jsonw_fmt(cJSON *o, const char *k, const char *fmt, ...)
{
	struct sbuf b = SBUF_INIT;
	va_list ap;
	va_start(ap, fmt);
	sbuf_vaddf(&b, fmt, ap);
	va_end(ap);
	jsonw_str(o, k, sbuf_str(&b));
	sbuf_release(&b);
}

void jsonw_strs(cJSON *o, const char *k, char *const *v, size_t n)
{
	cJSON *a = cJSON_AddArrayToObject(o, k);
	for (size_t i = 0; a && i < n; i++)
		cJSON_AddItemToArray(a, cJSON_CreateString(v[i]));
}
