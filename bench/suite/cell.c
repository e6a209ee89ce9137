/*
 * cell.c - the cell value: pattern names (with sysbench aliases), defaults,
 * CrystalDiskMark-style labels, and the PARAMS JSON of results/README.md.
 * Defaults and JSON names come from the key table (keys.c); PARAMS are
 * written and read only here (the runner, the importers and the report's
 * loader all go through cell_to_json/cell_from_json), so plan.json, cell
 * files and reports agree.
 */
#include <stdio.h>
#include <string.h>

#include "cell.h"
#include "keys.h"
#include "common/units.h"

static const char *const pattern_names[PAT__COUNT] = {
	[PAT_READ] = "read",
	[PAT_WRITE] = "write",
	[PAT_RANDREAD] = "randread",
	[PAT_RANDWRITE] = "randwrite",
	[PAT_READWRITE] = "readwrite",
	[PAT_RANDRW] = "randrw",
	[PAT_REWRITE] = "rewrite",
};

/* sysbench fileio --file-test-mode names */
static const struct { const char *alias; enum pattern p; } pattern_aliases[] = {
	{ "seqrd", PAT_READ },      { "seqwr", PAT_WRITE },
	{ "rndrd", PAT_RANDREAD },  { "rndwr", PAT_RANDWRITE },
	{ "rndrw", PAT_RANDRW },    { "seqrewr", PAT_REWRITE },
};

const char *pattern_name(enum pattern p)
{
	return (unsigned)p < PAT__COUNT ? pattern_names[p] : "?";
}

int pattern_parse(const char *s, enum pattern *out)
{
	for (int i = 0; i < PAT__COUNT; i++)
		if (!strcmp(s, pattern_names[i])) {
			*out = (enum pattern)i;
			return 0;
		}
	for (size_t i = 0; i < sizeof(pattern_aliases) / sizeof(pattern_aliases[0]); i++)
		if (!strcmp(s, pattern_aliases[i].alias)) {
			*out = pattern_aliases[i].p;
			return 0;
		}
	return -1;
}

bool pattern_reads(enum pattern p)
{
	return p == PAT_READ || p == PAT_RANDREAD || p == PAT_READWRITE ||
	       p == PAT_RANDRW;
}

bool pattern_writes(enum pattern p)
{
	return p == PAT_WRITE || p == PAT_RANDWRITE || p == PAT_READWRITE ||
	       p == PAT_RANDRW || p == PAT_REWRITE;
}

bool pattern_is_random(enum pattern p)
{
	return p == PAT_RANDREAD || p == PAT_RANDWRITE || p == PAT_RANDRW;
}

bool pattern_is_mixed(enum pattern p)
{
	return p == PAT_READWRITE || p == PAT_RANDRW;
}

const char *data_name(enum data_kind d)
{
	switch (d) {
	case DATA_RANDOM: return "random";
	case DATA_ZERO: return "zero";
	case DATA_COMPRESSIBLE: return "compressible";
	}
	return "?";
}

static int data_parse(const char *s, enum data_kind *out)
{
	if (!strcmp(s, "random"))
		*out = DATA_RANDOM;
	else if (!strcmp(s, "zero"))
		*out = DATA_ZERO;
	else if (!strcmp(s, "compressible"))
		*out = DATA_COMPRESSIBLE;
	else
		return -1;
	return 0;
}

void cell_init(struct cell *c)
{
	memset(c, 0, sizeof(*c));
	c->device = c->path = "";
	for (int k = 0; k < NKEYS; k++)
		key_store_u64(k, c, cell_keys[k].defv);
	snprintf(c->engine, sizeof(c->engine), "%s", cell_keys[K_ENGINE].def);
}

uint64_t cell_estimate_ns(const struct cell *c)
{
	if (!c->runtime_ns)
		return 0;
	return (uint64_t)c->repeat * (c->ramp_ns + c->runtime_ns) +
	       (c->repeat ? (uint64_t)(c->repeat - 1) * c->cooldown_ns : 0);
}

void cell_label_derive(const struct cell *c, char *buf, size_t len)
{
	char bs[32];

	units_format_size_short(c->bs, bs, sizeof(bs));
	if (bs[strlen(bs) - 1] >= '0' && bs[strlen(bs) - 1] <= '9')
		strcat(bs, "B"); /* 512 -> "512B", so it never reads as a count */
	if (pattern_is_mixed(c->pattern))
		snprintf(buf, len, "%s%s Q%uT%u R%u",
			 pattern_is_random(c->pattern) ? "RND" : "SEQ", bs,
			 c->iodepth, c->jobs, c->rwmixread);
	else
		snprintf(buf, len, "%s%s Q%uT%u",
			 pattern_is_random(c->pattern) ? "RND" : "SEQ", bs,
			 c->iodepth, c->jobs);
}

/* One key's PARAMS field(s) into j.  0, or -1 when out of memory. */
static int key_to_json(int k, const struct cell *c, cJSON *j)
{
	const struct key *key = &cell_keys[k];
	cJSON *v = NULL, *v2 = NULL;

	switch (key->type) {
	case KT_PATTERN:
		v = cJSON_CreateString(pattern_name(c->pattern));
		break;
	case KT_ENGINE:
		v = cJSON_CreateString(c->engine);
		break;
	case KT_LABEL:
		v = cJSON_CreateString(c->label);
		break;
	case KT_CPULIST:
		v = cJSON_CreateString(c->cpus_allowed);
		break;
	case KT_INT:
		v = cJSON_CreateNumber((double)(int64_t)key_load_u64(k, c));
		break;
	case KT_DATA:
		v = cJSON_CreateString(data_name(c->data));
		v2 = cJSON_CreateNumber(c->compress_pct);
		break;
	case KT_BOOL:
		v = cJSON_CreateBool(key_load_u64(k, c) != 0);
		break;
	case KT_SIZE_PCT: case KT_OFFSET:
		v = cJSON_CreateNumber((double)key_load_u64(k, c));
		v2 = cJSON_CreateNumber(k == K_SIZE ? c->size_pct : c->offset_pct);
		break;
	default:
		v = cJSON_CreateNumber((double)key_load_u64(k, c));
		break;
	}
	if (v)
		cJSON_AddItemToObject(j, key->json, v);
	if (v2)
		cJSON_AddItemToObject(j, key->json2, v2);
	return v && (v2 || !key->json2) ? 0 : -1;
}

cJSON *cell_to_json(const struct cell *c)
{
	cJSON *j = cJSON_CreateObject();

	if (!j)
		return NULL;
	/* identity first (id, device, path, label), then the keys in table
	 * order: results/README.md PARAMS */
	if (!cJSON_AddNumberToObject(j, "id", c->id) ||
	    !cJSON_AddStringToObject(j, "device", c->device) ||
	    !cJSON_AddStringToObject(j, "path", c->path) ||
	    key_to_json(K_LABEL, c, j) < 0)
		goto err;
	for (int k = 0; k < NKEYS; k++)
		if (k != K_LABEL && key_to_json(k, c, j) < 0)
			goto err;
	return j;
err:
	cJSON_Delete(j);
	return NULL;
}

const char *const *cell_json_names(void)
{
	static const char *names[4 + 2 * NKEYS + 1];
	size_t n = 0;

	/* constant data; two threads filling it write the same */
	names[n++] = "id";
	names[n++] = "device";
	names[n++] = "path";
	names[n++] = cell_keys[K_LABEL].json;
	for (int k = 0; k < NKEYS; k++) {
		if (k == K_LABEL)
			continue;
		names[n++] = cell_keys[k].json;
		if (cell_keys[k].json2)
			names[n++] = cell_keys[k].json2;
	}
	names[n] = NULL;
	return names;
}

/* Readers of cell_from_json: each returns 0 (also when the key is absent,
 * leaving the default) or -1 with err filled in. */
static int get_u64(const cJSON *j, const char *k, uint64_t *out, char *err,
		   size_t errlen)
{
	const cJSON *v = cJSON_GetObjectItemCaseSensitive(j, k);
	if (!v)
		return 0;
	/* 2^64 itself does not fit: UINT64_MAX rounds up to it as a double. */
	if (!cJSON_IsNumber(v) || !(v->valuedouble >= 0) ||
	    v->valuedouble >= 18446744073709551616.0) {
		snprintf(err, errlen, "'%s' must be a non-negative number", k);
		return -1;
	}
	*out = (uint64_t)v->valuedouble;
	return 0;
}

static int get_uint(const cJSON *j, const char *k, unsigned *out, char *err,
		    size_t errlen)
{
	uint64_t v = *out;
	if (get_u64(j, k, &v, err, errlen) < 0)
		return -1;
	if (v > 0xffffffffULL) {
		snprintf(err, errlen, "'%s' is out of range", k);
		return -1;
	}
	*out = (unsigned)v;
	return 0;
}

static int get_double(const cJSON *j, const char *k, double *out, char *err,
		      size_t errlen)
{
	const cJSON *v = cJSON_GetObjectItemCaseSensitive(j, k);
	if (!v)
		return 0;
	if (!cJSON_IsNumber(v)) {
		snprintf(err, errlen, "'%s' must be a number", k);
		return -1;
	}
	*out = v->valuedouble;
	return 0;
}

static int get_bool(const cJSON *j, const char *k, bool *out, char *err,
		    size_t errlen)
{
	const cJSON *v = cJSON_GetObjectItemCaseSensitive(j, k);
	if (!v)
		return 0;
	if (!cJSON_IsBool(v)) {
		snprintf(err, errlen, "'%s' must be true or false", k);
		return -1;
	}
	*out = cJSON_IsTrue(v);
	return 0;
}

static int get_str(const cJSON *j, const char *k, char *out, size_t outlen,
		   char *err, size_t errlen)
{
	const cJSON *v = cJSON_GetObjectItemCaseSensitive(j, k);
	if (!v)
		return 0;
	if (!cJSON_IsString(v) || strlen(v->valuestring) >= outlen) {
		snprintf(err, errlen, "'%s' must be a string shorter than %zu",
			 k, outlen);
		return -1;
	}
	memcpy(out, v->valuestring, strlen(v->valuestring) + 1);
	return 0;
}

/* A string of j that c borrows (see cell.h), shorter than maxlen. */
static int get_borrowed(const cJSON *j, const char *k, const char **out,
			size_t maxlen, char *err, size_t errlen)
{
	const cJSON *v = cJSON_GetObjectItemCaseSensitive(j, k);
	if (!v)
		return 0;
	if (!cJSON_IsString(v) || strlen(v->valuestring) >= maxlen) {
		snprintf(err, errlen, "'%s' must be a string shorter than %zu",
			 k, maxlen);
		return -1;
	}
	*out = v->valuestring;
	return 0;
}

/* One key's PARAMS field(s) from j into c; pattern and data names go to
 * pat/data for the caller to check once every field read.  0 or -1. */
static int key_from_json(int k, const cJSON *j, struct cell *c, char *pat,
			 char *data, char *engine, char *err, size_t errlen)
{
	const struct key *key = &cell_keys[k];

	switch (key->type) {
	case KT_PATTERN:
		return get_str(j, key->json, pat, 32, err, errlen);
	case KT_ENGINE:
		return get_str(j, key->json, engine, CELL_ENGINE_MAX, err, errlen);
	case KT_LABEL:
		return get_str(j, key->json, c->label, sizeof(c->label), err, errlen);
	case KT_CPULIST:
		return get_str(j, key->json, c->cpus_allowed, sizeof(c->cpus_allowed),
			       err, errlen);
	case KT_INT: {
		const cJSON *v = cJSON_GetObjectItemCaseSensitive(j, key->json);
		if (!v)
			return 0;
		if (!cJSON_IsNumber(v) || v->valuedouble != (double)(int)v->valuedouble ||
		    v->valuedouble < (double)(int64_t)key->min ||
		    v->valuedouble > (double)(int64_t)key->max) {
			snprintf(err, errlen, "'%s' must be a whole number in %lld..%lld",
				 key->json, (long long)(int64_t)key->min,
				 (long long)(int64_t)key->max);
			return -1;
		}
		key_store_u64(k, c, (uint64_t)(int64_t)v->valuedouble);
		return 0;
	}
	case KT_DATA:
		if (get_str(j, key->json, data, 32, err, errlen) < 0)
			return -1;
		return get_uint(j, key->json2, &c->compress_pct, err, errlen);
	case KT_BOOL: {
		bool b = key_load_u64(k, c) != 0;
		if (get_bool(j, key->json, &b, err, errlen) < 0)
			return -1;
		key_store_u64(k, c, b);
		return 0;
	}
	case KT_UINT: {
		unsigned u = (unsigned)key_load_u64(k, c);
		if (get_uint(j, key->json, &u, err, errlen) < 0)
			return -1;
		key_store_u64(k, c, u);
		return 0;
	}
	default: {
		uint64_t u = key_load_u64(k, c);
		if (get_u64(j, key->json, &u, err, errlen) < 0)
			return -1;
		key_store_u64(k, c, u);
		if (key->type == KT_SIZE_PCT || key->type == KT_OFFSET)
			return get_double(j, key->json2, k == K_SIZE ? &c->size_pct :
					  &c->offset_pct, err, errlen);
		return 0;
	}
	}
}

int cell_from_json(const cJSON *j, struct cell *c, char *err, size_t errlen)
{
	char pat[32] = "", data[32] = "", engine[CELL_ENGINE_MAX] = "";
	uint64_t id = 0;

	cell_init(c);
	if (!cJSON_IsObject(j)) {
		snprintf(err, errlen, "cell parameters must be an object");
		return -1;
	}
	if (get_u64(j, "id", &id, err, errlen) < 0 ||
	    get_borrowed(j, "device", &c->device, CELL_NAME_MAX, err, errlen) < 0 ||
	    get_borrowed(j, "path", &c->path, PATH_MAX, err, errlen) < 0 ||
	    key_from_json(K_LABEL, j, c, pat, data, engine, err, errlen) < 0)
		return -1;
	for (int k = 0; k < NKEYS; k++)
		if (k != K_LABEL &&
		    key_from_json(k, j, c, pat, data, engine, err, errlen) < 0)
			return -1;
	if (id > 0x7fffffff) {
		snprintf(err, errlen, "'id' is out of range");
		return -1;
	}
	c->id = (int)id;
	if (!pat[0] || pattern_parse(pat, &c->pattern) < 0) {
		snprintf(err, errlen, "unknown or missing 'pattern' '%s'", pat);
		return -1;
	}
	if (data[0] && data_parse(data, &c->data) < 0) {
		snprintf(err, errlen, "unknown 'data' '%s'", data);
		return -1;
	}
	if (engine[0])
		memcpy(c->engine, engine, sizeof(engine));
	c->label_given = false;
	return 0;
}
