/*
 * fleetfile.c - the JSON of fleet result sets (fleetfile.h).
 */
#include "fleetfile.h"
#include "util/jsonutil.h"

#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* Set o[k] = v (taken), replacing what is there; NULL v: nothing. */
static int put(cJSON *o, const char *k, cJSON *v)
{
	if (!v)
		return -ENOMEM;
	if (cJSON_GetObjectItemCaseSensitive(o, k))
		cJSON_ReplaceItemInObjectCaseSensitive(o, k, v);
	else
		cJSON_AddItemToObject(o, k, v);
	return 0;
}

static cJSON *str_or_null(const char *s)
{
	return s ? cJSON_CreateString(s) : cJSON_CreateNull();
}

int resultset_fleet_manifest(cJSON *m, bool aggregate, size_t plan_cells,
			     const char *const *device_args, size_t ndevice_args)
{
	cJSON *o = cJSON_AddObjectToObject(m, "fleet"), *a;

	if (!o || !cJSON_AddStringToObject(o, "mode", aggregate ? "aggregate" : "survey") ||
	    !cJSON_AddNumberToObject(o, "plan_cells", (double)plan_cells) ||
	    !(a = cJSON_AddArrayToObject(o, "device_overrides")))
		return -ENOMEM;
	for (size_t i = 0; i < ndevice_args; i++)
		cJSON_AddItemToArray(a, cJSON_CreateString(device_args[i]));
	return cJSON_AddArrayToObject(o, "hosts") ? 0 : -ENOMEM;
}

cJSON *resultset_fleet_host_json(const struct resultset_fleet_host *h)
{
	cJSON *o = cJSON_CreateObject(), *c;

	if (!o)
		return NULL;
	cJSON_AddStringToObject(o, "name", h->name);
	cJSON_AddStringToObject(o, "status", h->status);
	put(o, "error", str_or_null(h->error));
	put(o, "hostname", str_or_null(h->hostname));
	put(o, "version", str_or_null(h->version));
	put(o, "git_commit", str_or_null(h->git_commit));
	c = cJSON_AddObjectToObject(o, "clock");
	if (c && h->have_clock) {
		cJSON_AddNumberToObject(c, "offset_ns", (double)h->offset_ns);
		cJSON_AddNumberToObject(c, "error_ns", (double)h->error_ns);
		cJSON_AddNumberToObject(c, "rtt_min_ns", (double)h->rtt_min_ns);
		cJSON_AddNumberToObject(c, "rtt_median_ns", (double)h->rtt_median_ns);
		cJSON_AddNumberToObject(c, "samples", (double)h->samples);
		cJSON_AddNumberToObject(c, "wall_offset_s", h->wall_offset_s);
	}
	static const char *const keys[] = { "host", "tool", "devices", "machine" };
	for (size_t k = 0; k < 4; k++) {
		const cJSON *v = cJSON_GetObjectItemCaseSensitive(h->info, keys[k]);
		put(o, keys[k], v ? cJSON_Duplicate(v, true) : cJSON_CreateNull());
	}
	return o;
}

int resultset_fleet_save_hosts(struct resultset *rs, cJSON *hosts,
			       cJSON *same_machine, uint64_t margin_ns)
{
	cJSON *fl = cJSON_GetObjectItemCaseSensitive(rs->manifest, "fleet");
	char err[512];

	if (!cJSON_IsObject(fl)) {
		cJSON_Delete(hosts);
		cJSON_Delete(same_machine);
		return -EINVAL;
	}
	put(fl, "hosts", hosts);
	if (same_machine)
		put(fl, "same_machine", same_machine);
	if (margin_ns)
		put(fl, "barrier_margin_ns", cJSON_CreateNumber((double)margin_ns));
	return resultset_save_manifest(rs, err, sizeof(err));
}

/* The strings of array a (names: its objects' "name"s; anything else is
 * skipped) as NULL-terminated copies. */
static char **strings_of(const cJSON *a, bool names, size_t *n)
{
	char **out = calloc((size_t)cJSON_GetArraySize(a) + 1, sizeof(*out));
	const cJSON *e;

	*n = 0;
	if (!out)
		return NULL;
	cJSON_ArrayForEach(e, a) {
		const char *s = names ? json_str(e, "name") :
				cJSON_IsString(e) ? e->valuestring : NULL;
		if (!s)
			continue;
		if (!(out[*n] = strdup(s))) {
			for (size_t i = 0; i < *n; i++)
				free(out[i]);
			free(out);
			return NULL;
		}
		(*n)++;
	}
	return out;
}

int resultset_fleet_facts(const struct resultset *rs,
			  struct resultset_fleet_facts *f, char *err, size_t errlen)
{
	const cJSON *fl = cJSON_GetObjectItemCaseSensitive(rs->manifest, "fleet");
	const char *mode = json_str(fl, "mode");
	const cJSON *sc = cJSON_GetObjectItemCaseSensitive(rs->manifest, "scale");

	memset(f, 0, sizeof(*f));
	if (!cJSON_IsObject(fl) || !mode) {
		snprintf(err, errlen, "'%s' is not a fleet result set", rs->dir);
		return -1;
	}
	f->aggregate = !strcmp(mode, "aggregate");
	/* hosts are objects with a name, device_overrides strings */
	f->hosts = strings_of(cJSON_GetObjectItemCaseSensitive(fl, "hosts"), true,
			      &f->nhosts);
	f->device_args = strings_of(cJSON_GetObjectItemCaseSensitive(fl, "device_overrides"),
				    false, &f->ndevice_args);
	f->scale = cJSON_IsNumber(sc) ? sc->valuedouble : 1;
	if (!f->hosts || !f->device_args) {
		resultset_fleet_facts_release(f);
		snprintf(err, errlen, "out of memory");
		return -1;
	}
	return 0;
}

void resultset_fleet_facts_release(struct resultset_fleet_facts *f)
{
	for (size_t i = 0; f->hosts && f->hosts[i]; i++)
		free(f->hosts[i]);
	for (size_t i = 0; f->device_args && f->device_args[i]; i++)
		free(f->device_args[i]);
	free(f->hosts);
	free(f->device_args);
	memset(f, 0, sizeof(*f));
}

bool resultset_is_fleet(const char *dir)
{
	char path[PATH_MAX + 32], err[256];
	cJSON *m;
	bool yes;

	snprintf(path, sizeof(path), "%s/manifest.json", dir);
	m = resultset_read_json(path, err, sizeof(err));
	yes = cJSON_IsObject(cJSON_GetObjectItemCaseSensitive(m, "fleet"));
	cJSON_Delete(m);
	return yes;
}

int resultset_fleet_cell_tag(cJSON *cell, int id, int plan_id, const char *host)
{
	if (put(cell, "id", cJSON_CreateNumber(id)) < 0 ||
	    put(cell, "plan_id", cJSON_CreateNumber(plan_id)) < 0 ||
	    put(cell, "host", cJSON_CreateString(host)) < 0)
		return -ENOMEM;
	return 0;
}

int resultset_fleet_cell_measured(cJSON *cell, unsigned session, const char *start)
{
	if (put(cell, "fleet_session", cJSON_CreateNumber(session)) < 0)
		return -ENOMEM;
	if (start) {
		char now[32];
		cJSON *ma = cJSON_CreateObject();
		iso8601_now(now, sizeof(now));
		if (!ma)
			return -ENOMEM;
		cJSON_AddStringToObject(ma, "start", start);
		cJSON_AddStringToObject(ma, "end", now);
		return put(cell, "measured_at", ma);
	}
	return 0;
}

cJSON *resultset_fleet_start_json(int64_t rep, int64_t late_ns, bool have_start,
				  int64_t start_ns)
{
	cJSON *o = cJSON_CreateObject();

	if (!o)
		return NULL;
	cJSON_AddNumberToObject(o, "rep", (double)rep);
	cJSON_AddNumberToObject(o, "late_ns", (double)late_ns);
	if (have_start)
		cJSON_AddNumberToObject(o, "start_ns", (double)start_ns);
	return o;
}

int resultset_fleet_cell_starts(cJSON *cell, cJSON *starts)
{
	return put(cell, "starts", starts);
}

int resultset_cell_add_warning(cJSON *cell, const char *w)
{
	cJSON *wa = cJSON_GetObjectItemCaseSensitive(cell, "warnings");
	cJSON *s;

	if (!cJSON_IsArray(wa))
		return 0;
	if (!(s = cJSON_CreateString(w)))
		return -ENOMEM;
	cJSON_AddItemToArray(wa, s);
	return 0;
}

cJSON *resultset_fleet_rep_host_json(const char *host, int64_t start_ns,
				     uint64_t runtime_ns)
{
	cJSON *o = cJSON_CreateObject();

	if (!o)
		return NULL;
	cJSON_AddStringToObject(o, "host", host);
	cJSON_AddNumberToObject(o, "start_ns", (double)start_ns);
	cJSON_AddNumberToObject(o, "runtime_ns", (double)runtime_ns);
	return o;
}

cJSON *resultset_fleet_rep_json(unsigned rep, int64_t skew_ns, uint64_t window_ns,
				cJSON *hosts)
{
	cJSON *info = cJSON_CreateObject();

	if (!info) {
		cJSON_Delete(hosts);
		return NULL;
	}
	cJSON_AddNumberToObject(info, "rep", rep);
	cJSON_AddNumberToObject(info, "start_skew_ns", (double)skew_ns);
	cJSON_AddNumberToObject(info, "common_window_ns", (double)window_ns);
	cJSON_AddItemToObject(info, "hosts", hosts);
	return info;
}

cJSON *resultset_fleet_aggregate_json(const char *const *hosts, size_t nhosts,
				      double start_skew_ns, uint64_t margin_ns,
				      cJSON *reps)
{
	cJSON *fl = cJSON_CreateObject();
	cJSON *a = fl ? cJSON_AddArrayToObject(fl, "hosts") : NULL;

	if (!a) {
		cJSON_Delete(fl);
		cJSON_Delete(reps);
		return NULL;
	}
	for (size_t i = 0; i < nhosts; i++)
		cJSON_AddItemToArray(a, cJSON_CreateString(hosts[i]));
	cJSON_AddNumberToObject(fl, "start_skew_ns", start_skew_ns);
	cJSON_AddNumberToObject(fl, "barrier_margin_ns", (double)margin_ns);
	cJSON_AddItemToObject(fl, "reps", reps);
	return fl;
}
