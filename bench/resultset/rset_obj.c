/*
 * rset_obj.c - a flat object of a set (a host or device fingerprint, the
 * tool, an import's fio options) into struct rset_obj (rset.h): its
 * members in file order, each a typed value that owns its text; and back
 * into JSON for the report's own files (rset_out.h), a cell's params too
 * (from its struct cell).
 */
#include <float.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "rset_int.h"
#include "rset_out.h"

/* Members kept per object: a fingerprint has ~25. */
#define OBJ_MAX_FIELDS 4096

static int value_read(const cJSON *x, struct rset_value *v)
{
	memset(v, 0, sizeof(*v));
	if (cJSON_IsBool(x)) {
		v->type = RSET_V_BOOL;
		v->b = cJSON_IsTrue(x);
	} else if (cJSON_IsNumber(x)) {
		v->type = RSET_V_NUM;
		v->num = x->valuedouble;
	} else if (cJSON_IsString(x)) {
		v->type = RSET_V_STR;
		if (!(v->str = strdup(x->valuestring)))
			return -1;
	} else if (cJSON_IsArray(x) || cJSON_IsObject(x)) {
		v->type = RSET_V_JSON;
		if (!(v->str = cJSON_PrintUnformatted(x)))
			return -1;
	} else {
		v->type = RSET_V_NULL;
	}
	return 0;
}

int rset_obj_read(const cJSON *o, struct rset_obj *out)
{
	const cJSON *x;
	int n = cJSON_IsObject(o) ? cJSON_GetArraySize(o) : 0;

	memset(out, 0, sizeof(*out));
	if (!cJSON_IsObject(o))
		return 0;
	out->present = true;
	if (n <= 0)
		return 0;
	if (n > OBJ_MAX_FIELDS)
		n = OBJ_MAX_FIELDS;
	if (!(out->f = calloc((size_t)n, sizeof(*out->f))))
		return -1;
	cJSON_ArrayForEach(x, o) {
		if (out->n >= (size_t)n || !x->string)
			continue;
		struct rset_field *f = &out->f[out->n];
		if (!(f->key = strdup(x->string)) || value_read(x, &f->v) < 0) {
			free(f->key);
			return -1;
		}
		out->n++;
	}
	return 0;
}

const struct rset_value *rset_obj_get(const struct rset_obj *o, const char *key)
{
	for (size_t i = 0; o && i < o->n; i++)
		if (!strcmp(o->f[i].key, key))
			return &o->f[i].v;
	return NULL;
}

const char *rset_obj_str(const struct rset_obj *o, const char *key)
{
	const struct rset_value *v = rset_obj_get(o, key);
	return v && v->type == RSET_V_STR ? v->str : NULL;
}

double rset_obj_num(const struct rset_obj *o, const char *key, double def)
{
	const struct rset_value *v = rset_obj_get(o, key);
	return v && v->type == RSET_V_NUM && isfinite(v->num) ? v->num : def;
}

void rset_obj_release(struct rset_obj *o)
{
	for (size_t i = 0; i < o->n; i++) {
		free(o->f[i].key);
		free(o->f[i].v.str);
	}
	free(o->f);
	memset(o, 0, sizeof(*o));
}

cJSON *rset_value_json(const struct rset_value *v)
{
	switch (v->type) {
	case RSET_V_BOOL:
		return cJSON_CreateBool(v->b);
	case RSET_V_NUM:
		return cJSON_CreateNumber(v->num);
	case RSET_V_STR:
		return cJSON_CreateString(v->str);
	case RSET_V_JSON: {
		/* text this room printed from a tree it parsed */
		char why[128];
		cJSON *j = rset_parse_json(v->str, strlen(v->str), why, sizeof(why));
		return j ? j : cJSON_CreateNull();
	}
	default:
		return cJSON_CreateNull();
	}
}

cJSON *rset_obj_json(const struct rset_obj *o)
{
	cJSON *j = cJSON_CreateObject();
	for (size_t i = 0; j && i < o->n; i++) {
		cJSON *x = rset_value_json(&o->f[i].v);
		if (!x) {
			cJSON_Delete(j);
			return NULL;
		}
		cJSON_AddItemToObject(j, o->f[i].key, x);
	}
	return j;
}

cJSON *rset_cell_params_json(const struct rset_cell *c)
{
	return cell_to_json_keys(&c->cell, c->recorded);
}
