/*
 * cell_params.c - a cell's parameters (cell.h): defaults,
 * CrystalDiskMark-style labels, and the PARAMS JSON of results/README.md
 * (the pattern and data names are pattern.c's).
 * Defaults and JSON names come from the key table (keys.c); PARAMS are
 * written and read only here (the runner, the importers and the report's
 * loader all go through cell_to_json/cell_from_json), so plan.json, cell
 * files and reports agree.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cell.h"
#include "keys.h"
#include "util/intern.h"
#include "util/units.h"

void cell_init(struct cell *c)
{
	memset(c, 0, sizeof(*c));
	c->device = c->path = c->label = "";
	for (int k = 0; k < NKEYS; k++)
		key_store_u64(k, c, cell_keys[k].defv);
	snprintf(c->engine, sizeof(c->engine), "%s", cell_keys[K_ENGINE].def);
}

uint64_t cell_estimate_ns(const struct cell *c)
{
	if (!c->runtime_ns)
		return 0;
	/* a load sweep runs once more per point, and the bisection up to
	 * QOS_BISECT_STEPS times */
	uint64_t sweep = sweep_npoints(&c->load_sweep);
	if (sweep && c->qos.metric != QOS_NONE)
		sweep += QOS_BISECT_STEPS;
	return (uint64_t)(c->repeat + sweep) * (c->ramp_ns + c->runtime_ns) +
	       (c->repeat ? (uint64_t)(c->repeat - 1) * c->cooldown_ns : 0);
}

/* A write cliff inside a few seconds needs finer samples than 1 s: cells
 * up to a minute, and untimed ones (a pass over the file set: where a
 * cache runs out), record every 100 ms unless the suite says otherwise. */
uint64_t cell_buffer_bytes(const struct cell *c)
{
	return (uint64_t)(c->jobs ? c->jobs : 1) * (c->iodepth ? c->iodepth : 1) * c->bs;
}

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

int cell_set_label(struct cell *c, const char *text)
{
	char buf[CELL_LABEL_MAX];
	snprintf(buf, sizeof(buf), "%s", text);
	c->label = intern_str(buf);
	if (!c->label) {
		c->label = "";
		return buf[0] ? -1 : 0;
	}
	return 0;
}

int cell_set_label_derived(struct cell *c)
{
	char buf[CELL_LABEL_MAX];
	cell_label_derive(c, buf, sizeof(buf));
	return cell_set_label(c, buf);
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

/* One key's PARAMS values: out[0] of its json field, out[1] of its json2
 * field, each NULL when the table leaves the field out (omit_default at
 * the default, steady_state off, io_size's multiple unused).  0, or -1
 * when out of memory (both NULL then). */
static int key_json_values(int k, const struct cell *c, cJSON *out[2])
{
	const struct key *key = &cell_keys[k];
	cJSON *v = NULL, *v2 = NULL;
	bool want2 = key->json2 != NULL;

	out[0] = out[1] = NULL;
	if (key->omit_default && key_is_default(k, c))
		return 0;
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
		v = cJSON_CreateString(key_str(k, c));
		break;
	case KT_RANDDIST:
		v = cJSON_CreateString(key_str(k, c));
		break;
	case KT_INT:
		v = cJSON_CreateNumber((double)(int64_t)key_load_u64(k, c));
		break;
	case KT_DATA:
		v = cJSON_CreateString(data_name(c->data));
		v2 = cJSON_CreateNumber(c->compress_pct);
		break;
	case KT_BOOL:
		if (key->omit_default && (key_load_u64(k, c) != 0) == (key->defv != 0))
			return 0;
		v = cJSON_CreateBool(key_load_u64(k, c) != 0);
		break;
	case KT_SIZE_PCT: case KT_OFFSET:
		v = cJSON_CreateNumber((double)key_load_u64(k, c));
		v2 = cJSON_CreateNumber(k == K_SIZE ? c->size_pct : c->offset_pct);
		break;
	case KT_PCT: {
		double d;
		memcpy(&d, (const char *)c + key->off, sizeof(d));
		if (key->omit_default && d == (double)key->defv)
			return 0;
		v = cJSON_CreateNumber(d);
		break;
	}
	case KT_STEADY:
		if (!c->steady.window)
			return 0;
		v = cJSON_CreateObject();
		if (v && (!cJSON_AddNumberToObject(v, "window", c->steady.window) ||
			  !cJSON_AddNumberToObject(v, "range_pct", c->steady.range_frac * 100) ||
			  !cJSON_AddNumberToObject(v, "slope_pct", c->steady.slope_frac * 100) ||
			  !cJSON_AddNumberToObject(v, "max", c->steady.max))) {
			cJSON_Delete(v);
			v = NULL;
		}
		break;
	case KT_CUSTOM:
		if (key_is_default(k, c))
			return 0;
		v = key->ops->to_json((const char *)c + key->off);
		break;
	case KT_IO_SIZE:
		v = cJSON_CreateNumber((double)c->io_size);
		/* the multiple only when used: older plans stay identical */
		want2 = c->io_size_mult > 0;
		if (want2)
			v2 = cJSON_CreateNumber(c->io_size_mult);
		break;
	default:
		v = cJSON_CreateNumber((double)key_load_u64(k, c));
		break;
	}
	if (!v || (want2 && !v2)) {
		cJSON_Delete(v);
		cJSON_Delete(v2);
		return -1;
	}
	out[0] = v;
	out[1] = v2;
	return 0;
}

/* One key's PARAMS field(s) into j.  0, or -1 when out of memory. */
static int key_to_json(int k, const struct cell *c, cJSON *j)
{
	cJSON *v[2];

	if (key_json_values(k, c, v) < 0)
		return -1;
	if (v[0])
		cJSON_AddItemToObject(j, cell_keys[k].json, v[0]);
	if (v[1])
		cJSON_AddItemToObject(j, cell_keys[k].json2, v[1]);
	return 0;
}

int cell_param_texts(int k, const struct cell *c, struct cell_param_text out[2])
{
	cJSON *v[2];
	int n = 0;
	bool oom = false;

	if (key_json_values(k, c, v) < 0)
		return -1;
	for (int i = 0; i < 2; i++) {
		char *t = v[i] && !oom ? cJSON_PrintUnformatted(v[i]) : NULL;
		if (v[i] && !t)
			oom = true;
		else if (t)
			out[n++] = (struct cell_param_text){ i ? cell_keys[k].json2 : cell_keys[k].json, t };
		cJSON_Delete(v[i]);
	}
	if (oom)
		while (n)
			free(out[--n].text);
	return oom ? -1 : n;
}

cJSON *cell_to_json(const struct cell *c)
{
	return cell_to_json_keys(c, CELL_ALL_KEYS);
}

cJSON *cell_to_json_keys(const struct cell *c, uint64_t keys)
{
	cJSON *j = cJSON_CreateObject();

	if (!j)
		return NULL;
	/* identity first (id, device, path, label), then the keys in table
	 * order: results/README.md PARAMS */
	if (!cJSON_AddNumberToObject(j, "id", c->id) ||
	    !cJSON_AddStringToObject(j, "device", c->device) ||
	    !cJSON_AddStringToObject(j, "path", c->path) ||
	    ((keys >> K_LABEL & 1) && key_to_json(K_LABEL, c, j) < 0))
		goto err;
	for (int k = 0; k < NKEYS; k++)
		if (k != K_LABEL && (keys >> k & 1) && key_to_json(k, c, j) < 0)
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
		/* the newer keys that are often absent stay out of the CSV
		 * columns (its header is a format readers parse) */
		if (k == K_LABEL || cell_keys[k].omit_default)
			continue;
		names[n++] = cell_keys[k].json;
		if (cell_keys[k].json2 && cell_keys[k].type != KT_IO_SIZE)
			names[n++] = cell_keys[k].json2;
	}
	names[n] = NULL;
	return names;
}

/* Readers of cell_from_json: each returns 0 (also when the key is absent,
 * leaving the default) or -1 with err filled in. */

/* j's key k when it is there and passes is (cJSON_IsNumber...): 1 with *v
 * set, 0 when absent, -1 with "'k' must be WHAT" in err otherwise.  The one
 * lookup the typed readers below share. */
static int cell_params_item(const cJSON *j, const char *k,
			    cJSON_bool (*is)(const cJSON *), const char *what,
			    const cJSON **v, char *err, size_t errlen)
{
	*v = cJSON_GetObjectItemCaseSensitive(j, k);
	if (!*v)
		return 0;
	if (!is(*v)) {
		snprintf(err, errlen, "'%s' must be %s", k, what);
		return -1;
	}
	return 1;
}

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
	const cJSON *v;
	int r = cell_params_item(j, k, cJSON_IsNumber, "a number", &v, err, errlen);
	if (r > 0)
		*out = v->valuedouble;
	return r < 0 ? -1 : 0;
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

/* get_borrowed()'s string copied into out[outlen]. */
static int get_str(const cJSON *j, const char *k, char *out, size_t outlen,
		   char *err, size_t errlen)
{
	const char *v = NULL;
	if (get_borrowed(j, k, &v, outlen, err, errlen) < 0)
		return -1;
	if (v)
		memcpy(out, v, strlen(v) + 1);
	return 0;
}

/* steady_state {window, range_pct, slope_pct, max}; absent: off */
static int steady_from_json(const cJSON *o, struct steady_rule *r, char *err,
			    size_t errlen)
{
	double rp, sp;
	if (!o)
		return 0;
	steady_rule_init(r);
	rp = r->range_frac * 100;
	sp = r->slope_frac * 100;
	if (!cJSON_IsObject(o) || get_uint(o, "window", &r->window, err, errlen) < 0 ||
	    get_uint(o, "max", &r->max, err, errlen) < 0 ||
	    get_double(o, "range_pct", &rp, err, errlen) < 0 ||
	    get_double(o, "slope_pct", &sp, err, errlen) < 0 ||
	    r->window < 2 || r->max < r->window || !(rp > 0 && rp <= 100) ||
	    !(sp > 0 && sp <= 100)) {
		snprintf(err, errlen, "'steady_state' must be {window >= 2, max >= "
			 "window, range_pct and slope_pct in (0, 100]}");
		return -1;
	}
	r->range_frac = rp / 100;
	r->slope_frac = sp / 100;
	return 0;
}

/* cpus_allowed: at most CELL_CPUS_MAX - 1 characters, interned */
static int cpulist_from_json(const cJSON *j, const char *name, struct cell *c,
			     char *err, size_t errlen)
{
	char text[CELL_CPUS_MAX] = "";
	if (get_str(j, name, text, sizeof(text), err, errlen) < 0)
		return -1;
	c->cpus_allowed = intern_str(text);
	if (text[0] && !c->cpus_allowed) {
		snprintf(err, errlen, "out of memory");
		return -1;
	}
	return 0;
}

/* random_distribution: checked as the suite loader checks it, and kept
 * in its canonical text ("random" is the empty default). */
static int randdist_from_json(const cJSON *j, const char *name, struct cell *c,
			      char *err, size_t errlen)
{
	char text[RANDDIST_TEXT_MAX] = "", why[200];
	struct randdist d;
	if (get_str(j, name, text, sizeof(text), err, errlen) < 0)
		return -1;
	c->random_distribution = NULL;
	if (!text[0])
		return 0;
	if (randdist_parse(text, &d, why, sizeof(why)) < 0) {
		snprintf(err, errlen, "'%s': %s", name, why);
		return -1;
	}
	if (d.kind == RANDDIST_RANDOM)
		return 0;
	randdist_format(&d, text, sizeof(text));
	if (!(c->random_distribution = intern_str(text))) {
		snprintf(err, errlen, "out of memory");
		return -1;
	}
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
	case KT_LABEL: {
		char label[CELL_LABEL_MAX] = "";
		if (get_str(j, key->json, label, sizeof(label), err, errlen) < 0)
			return -1;
		if (!label[0]) /* absent: the label stays */
			return 0;
		if (cell_set_label(c, label) < 0) {
			snprintf(err, errlen, "out of memory");
			return -1;
		}
		return 0;
	}
	case KT_CPULIST:
		return cpulist_from_json(j, key->json, c, err, errlen);
	case KT_RANDDIST:
		return randdist_from_json(j, key->json, c, err, errlen);
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
		const cJSON *v;
		int r = cell_params_item(j, key->json, cJSON_IsBool, "true or false", &v,
					 err, errlen);
		if (r < 0)
			return -1;
		/* a cell written before norandommap existed drew its random
		 * offsets uniformly, with repeats: what norandommap is now */
		if (r > 0 || k == K_NORANDOMMAP)
			key_store_u64(k, c, r > 0 ? cJSON_IsTrue(v) : true);
		return 0;
	}
	case KT_UINT: {
		unsigned u = (unsigned)key_load_u64(k, c);
		if (get_uint(j, key->json, &u, err, errlen) < 0)
			return -1;
		key_store_u64(k, c, u);
		return 0;
	}
	case KT_PCT: {
		double d;
		memcpy(&d, (char *)c + key->off, sizeof(d));
		if (get_double(j, key->json, &d, err, errlen) < 0)
			return -1;
		/* the default may be 0 (model_noise: none), never written */
		if (!(d > 0 && d <= 100) && d != (double)key->defv) {
			snprintf(err, errlen, "'%s' must be a percentage in (0, 100]", key->json);
			return -1;
		}
		memcpy((char *)c + key->off, &d, sizeof(d));
		return 0;
	}
	case KT_CUSTOM: {
		const cJSON *v = cJSON_GetObjectItemCaseSensitive(j, key->json);
		if (!v)
			return 0;
		return key->ops->from_json(v, (char *)c + key->off, err, errlen);
	}
	case KT_STEADY:
		return steady_from_json(cJSON_GetObjectItemCaseSensitive(j, key->json),
					&c->steady, err, errlen);
	case KT_IO_SIZE:
		if (get_u64(j, key->json, &c->io_size, err, errlen) < 0 ||
		    get_double(j, key->json2, &c->io_size_mult, err, errlen) < 0)
			return -1;
		if (!(c->io_size_mult >= 0 && c->io_size_mult <= 1000)) {
			snprintf(err, errlen, "'%s' is out of range", key->json2);
			return -1;
		}
		return 0;
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

uint64_t cell_json_keys(const cJSON *j)
{
	uint64_t keys = 0;
	int at = K_LABEL;
	const cJSON *m;

	cJSON_ArrayForEach(m, j) {
		const char *n = m->string;
		if (!n || !strcmp(n, "id") || !strcmp(n, "device") || !strcmp(n, "path"))
			continue;
		/* cell_to_json writes the table's order (label first): each
		 * field is looked for from the last one found on, one compare
		 * or two for a file of ours, whatever order another's has */
		for (int i = 0; i < NKEYS; i++) {
			int k = (at + i) % NKEYS;
			const struct key *key = &cell_keys[k];
			if (!strcmp(n, key->json) || (key->json2 && !strcmp(n, key->json2))) {
				keys |= 1ULL << k;
				at = k;
				break;
			}
		}
	}
	return keys;
}

int cell_check_recorded(const struct cell *c, char *err, size_t errlen)
{
	for (int k = 0; k < NKEYS; k++)
		if (key_check_recorded(k, key_load_u64(k, c), err, errlen) < 0)
			return -1;
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
	    get_borrowed(j, "device", &c->device, CELL_NAME_MAX, err, errlen) < 0 ||
	    get_borrowed(j, "path", &c->path, PATH_MAX, err, errlen) < 0 ||
	    key_from_json(K_LABEL, j, c, pat, data, engine, err, errlen) < 0)
		return -1;
	for (int k = 0; k < NKEYS; k++)
		if (k != K_LABEL &&
		    key_from_json(k, j, c, pat, data, engine, err, errlen) < 0)
			return -1;
	if (cell_check_recorded(c, err, errlen) < 0)
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
int plan_ssd_to_json(const struct suite *s, cJSON *j)
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
