/*
 * jsonutil.c - jsonutil.h: one copy of the cJSON helpers.
 */
#include "jsonutil.h"

#include <math.h>

const char *json_str(const cJSON *o, const char *k)
{
	const cJSON *v = cJSON_GetObjectItemCaseSensitive(o, k);
	return cJSON_IsString(v) ? v->valuestring : NULL;
}

int json_num(const cJSON *o, const char *k, double *out)
{
	const cJSON *v = cJSON_GetObjectItemCaseSensitive(o, k);

	if (!cJSON_IsNumber(v) || !isfinite(v->valuedouble))
		return -1;
	*out = v->valuedouble;
	return 0;
}
