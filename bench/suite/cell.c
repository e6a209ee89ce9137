/*
 * cell.c - the cell value: pattern names (with sysbench aliases), defaults,
 * CrystalDiskMark-style labels, and the PARAMS JSON of results/README.md.
 * JSON keys carry their units (bs_bytes, runtime_ns) and are written and read
 * here only, so plan.json, cell files and importers agree.
 */
#include <stdio.h>
#include <string.h>

#include "cell.h"
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
	c->pattern = PAT_READ; /* required in suites; a placeholder here */
	c->bs = 4096;
	c->iodepth = 1;
	c->jobs = 1;
	snprintf(c->engine, sizeof(c->engine), "libaio");
	c->direct = true;
	c->size = 1ULL << 30;
	c->files = 1;
	c->rwmixread = 50;
	c->data = DATA_RANDOM;
	c->repeat = 1;
	c->seed = CELL_DEFAULT_SEED;
	c->interval_ns = 1000000000ULL;
	c->active_range_pct = 100;
}

/* A write cliff inside a few seconds needs finer samples than 1 s: cells
 * up to a minute, and untimed ones (a pass over the file set: where a
 * cache runs out), record every 100 ms unless the suite says otherwise. */
uint64_t cell_interval_ns(const struct cell *c)
{
	if (c->interval_given || c->interval_ns <= CELL_SHORT_INTERVAL_NS)
		return c->interval_ns;
	if (c->runtime_ns == 0 || c->runtime_ns <= CELL_SHORT_RUNTIME_NS)
		return CELL_SHORT_INTERVAL_NS;
	return c->interval_ns;
}

const char *ss_metric_name(enum ss_metric m)
{
	return m == SS_BW ? "bw_bytes_s" : m == SS_LAT_MEAN ? "lat_mean_ns" : "iops";
}

const char *precond_kind_name(enum precond_kind k)
{
	static const char *const n[] = { "none", "sequential", "random", "custom" };
	return (unsigned)k < 4 ? n[k] : "none";
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

cJSON *cell_to_json(const struct cell *c)
{
	cJSON *j = cJSON_CreateObject();

	if (!j)
		return NULL;
#define NUM(k, v) if (!cJSON_AddNumberToObject(j, k, (double)(v))) goto err
#define STR(k, v) if (!cJSON_AddStringToObject(j, k, v)) goto err
#define BOOL(k, v) if (!cJSON_AddBoolToObject(j, k, v)) goto err
	NUM("id", c->id);
	STR("device", c->device);
	STR("path", c->path);
	STR("label", c->label);
	STR("pattern", pattern_name(c->pattern));
	NUM("bs_bytes", c->bs);
	NUM("iodepth", c->iodepth);
	NUM("jobs", c->jobs);
	STR("engine", c->engine);
	BOOL("direct", c->direct);
	NUM("size_bytes", c->size);
	NUM("size_pct", c->size_pct);
	NUM("files", c->files);
	NUM("offset_bytes", c->offset);
	NUM("offset_pct", c->offset_pct);
	NUM("runtime_ns", c->runtime_ns);
	NUM("ramp_ns", c->ramp_ns);
	NUM("requests", c->requests);
	NUM("io_size_bytes", c->io_size);
	NUM("rwmixread", c->rwmixread);
	NUM("fsync", c->fsync);
	BOOL("end_fsync", c->end_fsync);
	STR("data", data_name(c->data));
	NUM("compress_pct", c->compress_pct);
	BOOL("drop_caches", c->drop_caches);
	NUM("repeat", c->repeat);
	NUM("cooldown_ns", c->cooldown_ns);
	NUM("seed", c->seed);
	NUM("interval_ns", c->interval_ns);
	BOOL("keep_files", c->keep_files);
	/* issue 12 keys: only when set, so that plans of suites that do not
	 * use them stay as they were */
	if (c->active_range_pct != 100)
		NUM("active_range_pct", c->active_range_pct);
	if (c->io_size_mult > 0)
		NUM("io_size_mult", c->io_size_mult);
	if (c->steady.window) {
		cJSON *s = cJSON_AddObjectToObject(j, "steady_state");
		if (!s || !cJSON_AddNumberToObject(s, "window", c->steady.window) ||
		    !cJSON_AddNumberToObject(s, "range_pct", c->steady.range_frac * 100) ||
		    !cJSON_AddNumberToObject(s, "slope_pct", c->steady.slope_frac * 100) ||
		    !cJSON_AddNumberToObject(s, "max", c->steady.max))
			goto err;
	}
#undef NUM
#undef STR
#undef BOOL
	return j;
err:
	cJSON_Delete(j);
	return NULL;
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
	    get_str(j, "device", c->device, sizeof(c->device), err, errlen) < 0 ||
	    get_str(j, "path", c->path, sizeof(c->path), err, errlen) < 0 ||
	    get_str(j, "label", c->label, sizeof(c->label), err, errlen) < 0 ||
	    get_str(j, "pattern", pat, sizeof(pat), err, errlen) < 0 ||
	    get_u64(j, "bs_bytes", &c->bs, err, errlen) < 0 ||
	    get_uint(j, "iodepth", &c->iodepth, err, errlen) < 0 ||
	    get_uint(j, "jobs", &c->jobs, err, errlen) < 0 ||
	    get_str(j, "engine", engine, sizeof(engine), err, errlen) < 0 ||
	    get_bool(j, "direct", &c->direct, err, errlen) < 0 ||
	    get_u64(j, "size_bytes", &c->size, err, errlen) < 0 ||
	    get_double(j, "size_pct", &c->size_pct, err, errlen) < 0 ||
	    get_uint(j, "files", &c->files, err, errlen) < 0 ||
	    get_u64(j, "offset_bytes", &c->offset, err, errlen) < 0 ||
	    get_double(j, "offset_pct", &c->offset_pct, err, errlen) < 0 ||
	    get_u64(j, "runtime_ns", &c->runtime_ns, err, errlen) < 0 ||
	    get_u64(j, "ramp_ns", &c->ramp_ns, err, errlen) < 0 ||
	    get_u64(j, "requests", &c->requests, err, errlen) < 0 ||
	    get_u64(j, "io_size_bytes", &c->io_size, err, errlen) < 0 ||
	    get_uint(j, "rwmixread", &c->rwmixread, err, errlen) < 0 ||
	    get_uint(j, "fsync", &c->fsync, err, errlen) < 0 ||
	    get_bool(j, "end_fsync", &c->end_fsync, err, errlen) < 0 ||
	    get_str(j, "data", data, sizeof(data), err, errlen) < 0 ||
	    get_uint(j, "compress_pct", &c->compress_pct, err, errlen) < 0 ||
	    get_bool(j, "drop_caches", &c->drop_caches, err, errlen) < 0 ||
	    get_uint(j, "repeat", &c->repeat, err, errlen) < 0 ||
	    get_u64(j, "cooldown_ns", &c->cooldown_ns, err, errlen) < 0 ||
	    get_u64(j, "seed", &c->seed, err, errlen) < 0 ||
	    get_u64(j, "interval_ns", &c->interval_ns, err, errlen) < 0 ||
	    get_bool(j, "keep_files", &c->keep_files, err, errlen) < 0 ||
	    get_double(j, "active_range_pct", &c->active_range_pct, err, errlen) < 0 ||
	    get_double(j, "io_size_mult", &c->io_size_mult, err, errlen) < 0)
		return -1;
	const cJSON *ss = cJSON_GetObjectItemCaseSensitive(j, "steady_state");
	if (cJSON_IsObject(ss)) {
		double rp = 20, sp = 10;
		steady_rule_init(&c->steady);
		if (get_uint(ss, "window", &c->steady.window, err, errlen) < 0 ||
		    get_uint(ss, "max", &c->steady.max, err, errlen) < 0 ||
		    get_double(ss, "range_pct", &rp, err, errlen) < 0 ||
		    get_double(ss, "slope_pct", &sp, err, errlen) < 0)
			return -1;
		c->steady.range_frac = rp / 100;
		c->steady.slope_frac = sp / 100;
	}
	if (!(c->active_range_pct > 0 && c->active_range_pct <= 100) ||
	    !(c->io_size_mult >= 0 && c->io_size_mult <= 1000)) {
		snprintf(err, errlen, "'active_range_pct' or 'io_size_mult' is out of range");
		return -1;
	}
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

cJSON *precond_to_json(const struct precondition *p)
{
	cJSON *o = cJSON_CreateObject(), *a;
	if (!o || !cJSON_AddStringToObject(o, "kind", precond_kind_name(p->kind)) ||
	    !(a = cJSON_AddArrayToObject(o, "passes")))
		goto err;
	for (unsigned i = 0; i < p->npass; i++) {
		const struct precond_pass *ps = &p->pass[i];
		cJSON *x = cJSON_CreateObject();
		if (!x)
			goto err;
		cJSON_AddItemToArray(a, x);
		if (!cJSON_AddStringToObject(x, "pattern", pattern_name(ps->pattern)) ||
		    !cJSON_AddNumberToObject(x, "bs_bytes", (double)ps->bs) ||
		    !cJSON_AddNumberToObject(x, "iodepth", ps->iodepth) ||
		    !cJSON_AddNumberToObject(x, "jobs", ps->jobs) ||
		    !(ps->amount_mult > 0 ?
		      cJSON_AddNumberToObject(x, "amount_mult", ps->amount_mult) :
		      cJSON_AddNumberToObject(x, "amount_bytes", (double)ps->amount_bytes)))
			goto err;
	}
	return o;
err:
	cJSON_Delete(o);
	return NULL;
}

/* Rounds and each device's purge and preconditioning, only when a suite
 * uses them (plans of other suites stay byte-identical). */
static int plan_ssd_json(const struct suite *s, cJSON *j)
{
	bool any = false;
	for (size_t d = 0; d < s->ndevices; d++)
		any |= s->devices[d].purge != PURGE_NONE ||
		       s->devices[d].pre.kind != PRECOND_NONE;
	if (any) {
		cJSON *a = cJSON_AddArrayToObject(j, "devices");
		if (!a)
			return -1;
		for (size_t d = 0; d < s->ndevices; d++) {
			const struct suite_device *dv = &s->devices[d];
			cJSON *o = cJSON_CreateObject(), *p;
			if (!o)
				return -1;
			cJSON_AddItemToArray(a, o);
			if (!cJSON_AddStringToObject(o, "name", dv->name) ||
			    !cJSON_AddStringToObject(o, "purge", dv->purge ==
						     PURGE_DISCARD ? "discard" : "none") ||
			    !(p = precond_to_json(&dv->pre)))
				return -1;
			cJSON_AddItemToObject(o, "precondition", p);
		}
	}
	if (s->rounds.on) {
		const struct suite_rounds *r = &s->rounds;
		cJSON *o = cJSON_AddObjectToObject(j, "rounds"), *t;
		if (!o || !cJSON_AddNumberToObject(o, "max", r->rule.max) ||
		    !cJSON_AddNumberToObject(o, "window", r->rule.window) ||
		    !cJSON_AddNumberToObject(o, "range_pct", r->rule.range_frac * 100) ||
		    !cJSON_AddNumberToObject(o, "slope_pct", r->rule.slope_frac * 100) ||
		    !cJSON_AddStringToObject(o, "metric", ss_metric_name(r->metric)) ||
		    !(t = cJSON_AddArrayToObject(o, "track")))
			return -1;
		for (size_t i = 0; i < r->ntrack; i++)
			cJSON_AddItemToArray(t, cJSON_CreateString(r->track[i]));
	}
	return 0;
}

cJSON *plan_to_json(const struct suite *s)
{
	cJSON *j = cJSON_CreateObject(), *cells;

	if (!j)
		return NULL;
	if (!cJSON_AddNumberToObject(j, "schema_version", 1) ||
	    !cJSON_AddStringToObject(j, "suite", s->name ? s->name : "") ||
	    !cJSON_AddStringToObject(j, "sha256", s->sha256) ||
	    !(cells = cJSON_AddArrayToObject(j, "cells")))
		goto err;
	for (size_t i = 0; i < s->ncells; i++) {
		cJSON *c = cell_to_json(&s->cells[i]);
		if (!c)
			goto err;
		cJSON_AddItemToArray(cells, c);
	}
	if (plan_ssd_json(s, j) < 0)
		goto err;
	return j;
err:
	cJSON_Delete(j);
	return NULL;
}
