/*
 * import_fio2.c - fio 2.x JSON to fio 3.x's keys and units (import_fio2.h).
 * Distributions shipped fio 2.2.10 for years; archives hold its output.
 */
#include "import_fio2.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "util/units.h"

bool import_fio2_version(const char *v)
{
	return v && !strncmp(v, "fio-2.", 6);
}

/* µs -> ns.  fio 2.x printed 2 (or 6) decimals of µs: rounding the
 * product to 0.001 ns gives back exactly the decimal it printed
 * (8182.26 µs -> 8182260 ns, not 8182259.999999999). */
static double us_to_ns(double us)
{
	return round(us * 1e6) / 1e3;
}

static void scale_key(cJSON *o, const char *key, double (*f)(double))
{
	cJSON *v = cJSON_GetObjectItemCaseSensitive(o, key);

	if (cJSON_IsNumber(v) && isfinite(v->valuedouble))
		cJSON_SetNumberValue(v, f(v->valuedouble));
}

static double kib(double x)
{
	return x * 1024;
}

/* The percentile object: values to ns, the "0.00" padding dropped. */
static void fix_percentiles(cJSON *pct)
{
	cJSON *e = pct ? pct->child : NULL;

	while (e) {
		cJSON *next = e->next;
		/* fio 2.x pads the list with "0.00": only that goes; any other
		 * key stays for the reader, which takes plain decimals only
		 * (fio_lat.c: "0x10", "nan", "-3" are refused there) */
		const char *end = NULL;
		double q = -1;
		if (units_parse_decimal(e->string, &end, &q) == 0 && !*end && q == 0)
			cJSON_Delete(cJSON_DetachItemViaPointer(pct, e));
		else if (cJSON_IsNumber(e) && isfinite(e->valuedouble))
			cJSON_SetNumberValue(e, us_to_ns(e->valuedouble));
		e = next;
	}
}

/* json+ bins keyed by µs: the same counts keyed by ns.  0 or -1 (OOM). */
static int fix_bins(cJSON *lat)
{
	cJSON *bins = cJSON_GetObjectItemCaseSensitive(lat, "bins"), *nb, *e;
	char key[64];

	if (!cJSON_IsObject(bins))
		return 0;
	if (!(nb = cJSON_CreateObject()))
		return -1;
	cJSON_ArrayForEach(e, bins) {
		const char *end = NULL;
		double us = -1;   /* a plain decimal: strtod took "0x10" as 16 */
		if (units_parse_decimal(e->string, &end, &us) < 0 || *end || us > 1e15) {
			cJSON_Delete(nb);
			return 0;   /* not bins fio wrote: the reader refuses them */
		}
		snprintf(key, sizeof(key), "%.0f", us * 1000);
		cJSON *c = cJSON_Duplicate(e, true);
		if (!c) {
			cJSON_Delete(nb);
			return -1;
		}
		cJSON_AddItemToObject(nb, key, c);
	}
	cJSON_ReplaceItemInObjectCaseSensitive(lat, "bins", nb);
	return 0;
}

/* dir's "name" (µs) becomes "name_ns" (ns) with N samples. */
static int fix_lat(cJSON *dir, const char *name, double n)
{
	char ns[16];
	cJSON *lat = cJSON_DetachItemFromObjectCaseSensitive(dir, name);

	if (!lat)
		return 0;
	if (cJSON_IsObject(lat)) {
		scale_key(lat, "min", us_to_ns);
		scale_key(lat, "max", us_to_ns);
		scale_key(lat, "mean", us_to_ns);
		scale_key(lat, "stddev", us_to_ns);
		fix_percentiles(cJSON_GetObjectItemCaseSensitive(lat, "percentile"));
		if (fix_bins(lat) < 0) {
			cJSON_Delete(lat);
			return -1;
		}
		const cJSON *mean = cJSON_GetObjectItemCaseSensitive(lat, "mean");
		if (!cJSON_GetObjectItemCaseSensitive(lat, "N"))
			cJSON_AddNumberToObject(lat, "N", cJSON_IsNumber(mean) &&
						mean->valuedouble > 0 ? n : 0);
	}
	snprintf(ns, sizeof(ns), "%s_ns", name);
	cJSON_DeleteItemFromObjectCaseSensitive(dir, ns);
	cJSON_AddItemToObject(dir, ns, lat);
	return 0;
}

static int fix_dir(cJSON *dir)
{
	double v;
	cJSON *x;

	if (!cJSON_IsObject(dir))
		return 0;
	/* io_kbytes (later 2.x) or io_bytes (KiB) -> io_bytes in bytes */
	x = cJSON_GetObjectItemCaseSensitive(dir, "io_kbytes");
	if (cJSON_IsNumber(x)) {
		v = x->valuedouble * 1024;
		cJSON_DeleteItemFromObjectCaseSensitive(dir, "io_bytes");
		cJSON_AddNumberToObject(dir, "io_bytes", v);
	} else {
		scale_key(dir, "io_bytes", kib);
	}
	x = cJSON_GetObjectItemCaseSensitive(dir, "bw");
	if (cJSON_IsNumber(x) && !cJSON_GetObjectItemCaseSensitive(dir, "bw_bytes"))
		cJSON_AddNumberToObject(dir, "bw_bytes", x->valuedouble * 1024);
	/* total_ios: printed from 2.2 on; before, from IOPS and runtime */
	const cJSON *ios = cJSON_GetObjectItemCaseSensitive(dir, "total_ios");
	const cJSON *iops = cJSON_GetObjectItemCaseSensitive(dir, "iops");
	const cJSON *rt = cJSON_GetObjectItemCaseSensitive(dir, "runtime");
	double n = 0;
	if (cJSON_IsNumber(ios))
		n = ios->valuedouble;
	else if (cJSON_IsNumber(iops) && cJSON_IsNumber(rt) && isfinite(iops->valuedouble) &&
		 isfinite(rt->valuedouble)) {
		n = round(iops->valuedouble * rt->valuedouble / 1000);
		cJSON_AddNumberToObject(dir, "total_ios", n);
	}
	if (fix_lat(dir, "slat", n) < 0 || fix_lat(dir, "clat", n) < 0 ||
	    fix_lat(dir, "lat", n) < 0)
		return -1;
	return 0;
}

int import_fio2_normalize(cJSON *doc)
{
	static const char *const dirs[] = { "read", "write", "trim", "mixed" };
	cJSON *job;

	cJSON_ArrayForEach(job, cJSON_GetObjectItemCaseSensitive(doc, "jobs"))
		for (size_t i = 0; i < sizeof(dirs) / sizeof(dirs[0]); i++)
			if (fix_dir(cJSON_GetObjectItemCaseSensitive(job, dirs[i])) < 0)
				return -1;
	return 0;
}

cJSON *import_fio2_units_json(void)
{
	cJSON *o = cJSON_CreateObject();

	if (o && (!cJSON_AddStringToObject(o, "latency", "us -> ns") ||
		  !cJSON_AddStringToObject(o, "io_bytes", "KiB -> bytes") ||
		  !cJSON_AddStringToObject(o, "bw", "KiB/s -> bytes/s"))) {
		cJSON_Delete(o);
		return NULL;
	}
	return o;
}
