/*
 * cellcheck.c - cellcheck.h: walk a cell object and refuse the first
 * number out of its bounds.  Pure: no IO, no allocation but the
 * histogram it decodes.
 */
#include "cellcheck.h"

#include <math.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "resultset/cellsums.h"
#include "resultset/histfile.h"
#include "resultset/resultset.h"
#include "stats/stats.h"
#include "util/units.h"

#define TWO64 18446744073709551616.0

/* Absent is fine (optional); present must be a number in [lo, hi]. */
static bool opt_num(const cJSON *o, const char *k, double lo, double hi,
		    const char *where, char *why, size_t whylen)
{
	const cJSON *v = cJSON_GetObjectItemCaseSensitive(o, k);

	if (!v || cJSON_IsNull(v))
		return true;
	if (cJSON_IsNumber(v) && isfinite(v->valuedouble) &&
	    v->valuedouble >= lo && v->valuedouble <= hi)
		return true;
	if (cJSON_IsNumber(v))
		snprintf(why, whylen, "%s%s is %g, not in [%g, %g]", where, k, v->valuedouble, lo, hi);
	else
		snprintf(why, whylen, "%s%s is not a number", where, k);
	return false;
}

/* A count: an integer in [0, 2^64). */
static bool opt_count(const cJSON *o, const char *k, const char *where,
		      char *why, size_t whylen)
{
	const cJSON *v = cJSON_GetObjectItemCaseSensitive(o, k);

	if (!opt_num(o, k, 0, TWO64, where, why, whylen))
		return false;
	if (v && cJSON_IsNumber(v) && (v->valuedouble >= TWO64 ||
				       v->valuedouble != floor(v->valuedouble))) {
		snprintf(why, whylen, "%s%s is %g, not a count", where, k, v->valuedouble);
		return false;
	}
	return true;
}

int cellcheck_value(enum cellcheck_kind kind, const char *what, double v, char *why,
		    size_t whylen)
{
	double lo = 0, hi = TWO64;
	switch (kind) {
	case CELLCHECK_IOPS:
		hi = CELLCHECK_MAX_IOPS;
		break;
	case CELLCHECK_BW:
		hi = CELLCHECK_MAX_BW;
		break;
	case CELLCHECK_FINITE:
		lo = -TWO64;
		break;
	default:
		break;
	}
	bool in = isfinite(v) && v >= lo && (kind == CELLCHECK_IOPS || kind == CELLCHECK_BW ?
					     v <= hi : v < hi);
	if (in && kind == CELLCHECK_COUNT && v != floor(v))
		in = false;
	if (!in)
		snprintf(why, whylen, "%s is %g, not %s in [%g, %g%s", what, v,
			 kind == CELLCHECK_COUNT ? "a count" : "a number", lo, hi,
			 kind == CELLCHECK_IOPS || kind == CELLCHECK_BW ? "]" : ")");
	return in ? 0 : -1;
}

/* Every number anywhere below j finite and within +-2^64 (params,
 * cliff facts, anything this file does not name). */
static bool all_finite(const cJSON *j, int depth, char *why, size_t whylen)
{
	const cJSON *c;

	if (depth > 64) {
		snprintf(why, whylen, "nested too deep");
		return false;
	}
	if (cJSON_IsNumber(j) && !(isfinite(j->valuedouble) && fabs(j->valuedouble) <= TWO64)) {
		snprintf(why, whylen, "'%s' is %g, not a finite number below 2^64",
			 j->string ? j->string : "a number", j->valuedouble);
		return false;
	}
	for (c = j->child; c; c = c->next)
		if (!all_finite(c, depth + 1, why, whylen))
			return false;
	return true;
}

/*
 * A latency's percentiles: keys plain decimals in (0, 100] ("99.900000",
 * as the writer prints them: no "nan", "-3" or "1e400"), at most
 * CELLCHECK_MAX_PCT of them, values that do not fall as the percentile
 * rises, and within [min, max] (when known) up to the slack of a
 * histogram's bucket (CELLCHECK_PCT_SLACK): a percentile is a bucket's
 * representative value, which may lie a little past the exact extremes.
 * Values past the top bucket's start are what the histogram saturates to.
 * mn is NAN where the lower bound does not hold (cellcheck_cell's old).
 */
static int pct_check(const cJSON *p, double mn, double mx, const char *w, char *why,
		     size_t whylen)
{
	double q[CELLCHECK_MAX_PCT], v[CELLCHECK_MAX_PCT];
	const double top = (double)hist_bucket_low(HIST_BUCKETS - 1);
	size_t n = 0;

	for (const cJSON *e = p->child; e; e = e->next) {
		const char *end;
		double k;
		if (n == CELLCHECK_MAX_PCT) {
			snprintf(why, whylen, "%slat_ns.percentiles holds more than %d", w,
				 CELLCHECK_MAX_PCT);
			return -1;
		}
		if (units_parse_decimal(e->string, &end, &k) < 0 || *end || !(k > 0 && k <= 100) ||
		    !cJSON_IsNumber(e) || !isfinite(e->valuedouble) || e->valuedouble < 0 ||
		    e->valuedouble > TWO64) {
			snprintf(why, whylen, "%slat_ns.percentiles: '%.20s' is not a percentile in (0, 100] with a latency in [0, 2^64)",
				 w, e->string);
			return -1;
		}
		double lo = mn - mn * CELLCHECK_PCT_SLACK - CELLCHECK_PCT_SLACK_NS;
		double hi = mx + mx * CELLCHECK_PCT_SLACK + CELLCHECK_PCT_SLACK_NS;
		bool below = isfinite(mn) && e->valuedouble < lo && e->valuedouble < top;
		if (below || (isfinite(mx) && e->valuedouble > hi)) {
			snprintf(why, whylen, "%slat_ns.percentiles: p%.20s is %.0f ns, %s %.0f ns",
				 w, e->string, e->valuedouble, below ? "below min" : "above max",
				 below ? mn : mx);
			return -1;
		}
		/* insertion by key: at most CELLCHECK_MAX_PCT */
		size_t i = n++;
		for (; i > 0 && q[i - 1] > k; i--) {
			q[i] = q[i - 1];
			v[i] = v[i - 1];
		}
		q[i] = k;
		v[i] = e->valuedouble;
	}
	for (size_t i = 1; i < n; i++)
		if (v[i] < v[i - 1]) {
			snprintf(why, whylen, "%slat_ns.percentiles fall as the percentile rises: p%g is %.0f ns, p%g %.0f ns",
				 w, q[i - 1], v[i - 1], q[i], v[i]);
			return -1;
		}
	return 0;
}

static int lat_check(const cJSON *lat, bool old, const char *w, char *why, size_t whylen)
{
	const cJSON *p, *mn, *mx, *me;

	if (!lat)
		return 0;
	if (!cJSON_IsObject(lat)) {
		snprintf(why, whylen, "%slat_ns is not an object", w);
		return -1;
	}
	if (!opt_num(lat, "min", 0, TWO64, w, why, whylen) ||
	    !opt_num(lat, "max", 0, TWO64, w, why, whylen) ||
	    !opt_num(lat, "mean", 0, TWO64, w, why, whylen) ||
	    !opt_num(lat, "stddev", 0, TWO64, w, why, whylen))
		return -1;
	mn = cJSON_GetObjectItemCaseSensitive(lat, "min");
	mx = cJSON_GetObjectItemCaseSensitive(lat, "max");
	me = cJSON_GetObjectItemCaseSensitive(lat, "mean");
	if (cJSON_IsNumber(mn) && cJSON_IsNumber(mx) &&
	    (mn->valuedouble > mx->valuedouble ||
	     (cJSON_IsNumber(me) && (me->valuedouble < mn->valuedouble * (1 - 1e-9) - 1 ||
				     me->valuedouble > mx->valuedouble * (1 + 1e-9) + 1)))) {
		snprintf(why, whylen, "%slat_ns: min, mean and max are out of order", w);
		return -1;
	}
	p = cJSON_GetObjectItemCaseSensitive(lat, "percentiles");
	if (p && !cJSON_IsObject(p)) {
		snprintf(why, whylen, "%slat_ns.percentiles is not an object", w);
		return -1;
	}
	return p ? pct_check(p, cJSON_IsNumber(mn) && !old ? mn->valuedouble : NAN,
			     cJSON_IsNumber(mx) ? mx->valuedouble : NAN, w, why, whylen) : 0;
}

static int series_check(const cJSON *se, const char *name, const char *w, char *why,
			size_t whylen)
{
	static const char *const arrs[] = { "ios", "bytes", "lat_mean_ns" };
	int n = -1;

	if (!se)
		return 0;
	if (!cJSON_IsObject(se) || !opt_num(se, "interval_ns", 1, 1e13, w, why, whylen)) {
		if (!cJSON_IsObject(se))
			snprintf(why, whylen, "%s%s is not an object", w, name);
		return -1;
	}
	for (size_t k = 0; k < 3; k++) {
		const cJSON *a = cJSON_GetObjectItemCaseSensitive(se, arrs[k]), *e;
		if (!a)
			continue;
		if (!cJSON_IsArray(a) || (n >= 0 && cJSON_GetArraySize(a) != n)) {
			snprintf(why, whylen, "%s%s.%s is not a list as long as the others", w, name, arrs[k]);
			return -1;
		}
		n = cJSON_GetArraySize(a);
		cJSON_ArrayForEach(e, a)
			if (!cJSON_IsNumber(e) || !isfinite(e->valuedouble) ||
			    e->valuedouble < 0 || e->valuedouble >= TWO64) {
				snprintf(why, whylen, "%s%s.%s holds a value that is not in [0, 2^64)", w, name, arrs[k]);
				return -1;
			}
	}
	/* the fine samples of the start: the same shape, one level down */
	const cJSON *fine = cJSON_GetObjectItemCaseSensitive(se, "fine");
	if (fine && cJSON_GetObjectItemCaseSensitive(fine, "fine")) {
		snprintf(why, whylen, "%s%s.fine holds another fine series", w, name);
		return -1;
	}
	return fine ? series_check(fine, "series.fine", w, why, whylen) : 0;
}

/* Scheme loglin64; [low, count] pairs of integers in [0, 2^64); the
 * total of the counts fits in 64 bits (checked adds: two buckets of 1e19
 * must not wrap into a small total).  Bucket alignment is the reader's
 * business (hist_from_json). */
static int hist_check(const cJSON *hist)
{
	const cJSON *sc = cJSON_GetObjectItemCaseSensitive(hist, "scheme");
	const cJSON *b = cJSON_GetObjectItemCaseSensitive(hist, "buckets"), *pair;
	uint64_t total = 0;

	if (!cJSON_IsString(sc) || strcmp(sc->valuestring, "loglin64") || !cJSON_IsArray(b))
		return -1;
	cJSON_ArrayForEach(pair, b) {
		const cJSON *lo = cJSON_GetArrayItem(pair, 0), *n = cJSON_GetArrayItem(pair, 1);
		if (!cJSON_IsArray(pair) || cJSON_GetArraySize(pair) != 2 ||
		    !cJSON_IsNumber(lo) || !cJSON_IsNumber(n))
			return -1;
		for (int k = 0; k < 2; k++) {
			double v = (k ? n : lo)->valuedouble;
			if (!(v >= 0 && v < TWO64) || v != floor(v))
				return -1;
		}
		if (__builtin_add_overflow(total, (uint64_t)n->valuedouble, &total))
			return -1;
	}
	return 0;
}

static int dir_check(const cJSON *d, bool old, const char *w, char *why, size_t whylen)
{
	const cJSON *hist = cJSON_GetObjectItemCaseSensitive(d, "hist");

	if (!cJSON_IsObject(d)) {
		snprintf(why, whylen, "%snot an object", w);
		return -1;
	}
	if (!opt_count(d, "ios", w, why, whylen) || !opt_count(d, "bytes", w, why, whylen) ||
	    !opt_num(d, "iops", 0, CELLCHECK_MAX_IOPS, w, why, whylen) ||
	    !opt_num(d, "bw_bytes_s", 0, CELLCHECK_MAX_BW, w, why, whylen))
		return -1;
	if (lat_check(cJSON_GetObjectItemCaseSensitive(d, "lat_ns"), old, w, why, whylen) < 0 ||
	    lat_check(cJSON_GetObjectItemCaseSensitive(d, "lat_completion_ns"), old, w, why, whylen) < 0 ||
	    lat_check(cJSON_GetObjectItemCaseSensitive(d, "lat_total_ns"), old, w, why, whylen) < 0 ||
	    series_check(cJSON_GetObjectItemCaseSensitive(d, "series"), "series", w, why, whylen) < 0)
		return -1;
	if (hist && hist_check(hist) < 0) {
		snprintf(why, whylen, "%shist is not a loglin64 histogram of [bucket, count] pairs, integers below 2^64, whose counts add up without overflow", w);
		return -1;
	}
	return histfile_check_dir(d, w, why, whylen);
}

/* host_load (sysload.h): shares of the CPU time in [0, 100], CPU counts
 * in [0, 1e6], load averages three numbers in [0, 1e6]. */
static bool load_check(const cJSON *l, const char *w, char *why, size_t whylen)
{
	static const char *const pct[] = { "cpu_busy_pct", "cpu_iowait_pct",
					   "cpu_steal_pct", "own_cpu_pct" };
	static const char *const la[] = { "loadavg_before", "loadavg_after" };
	if (!cJSON_IsObject(l)) {
		snprintf(why, whylen, "%shost_load is not an object", w);
		return false;
	}
	for (size_t k = 0; k < 4; k++)
		if (!opt_num(l, pct[k], 0, 100, w, why, whylen))
			return false;
	if (!opt_num(l, "cpus", 0, 1e6, w, why, whylen) ||
	    !opt_num(l, "other_busy_cpus", 0, 1e6, w, why, whylen))
		return false;
	for (size_t k = 0; k < 2; k++) {
		const cJSON *a = cJSON_GetObjectItemCaseSensitive(l, la[k]), *v;
		if (!a)
			continue;
		bool good = cJSON_IsArray(a) && cJSON_GetArraySize(a) == 3;
		cJSON_ArrayForEach(v, a)
			good &= cJSON_IsNumber(v) && v->valuedouble >= 0 && v->valuedouble <= 1e6;
		if (!good) {
			snprintf(why, whylen, "%shost_load.%s is not three load averages in [0, 1e6]",
				 w, la[k]);
			return false;
		}
	}
	return true;
}

static int rep_check(const cJSON *r, int i, bool old, char *why, size_t whylen)
{
	static const char *const dirs[] = { "read", "write" };
	const cJSON *cpu = cJSON_GetObjectItemCaseSensitive(r, "cpu");
	char w[64];

	snprintf(w, sizeof(w), "repetition %d: ", i + 1);
	if (!cJSON_IsObject(r)) {
		snprintf(why, whylen, "%snot an object", w);
		return -1;
	}
	if (!opt_num(r, "rep", 1, 1e9, w, why, whylen) ||
	    !opt_num(r, "runtime_ns", 0, 9e15, w, why, whylen))
		return -1;
	if (cpu && (!cJSON_IsObject(cpu) || !opt_num(cpu, "usr_pct", 0, 1e7, w, why, whylen) ||
		    !opt_num(cpu, "sys_pct", 0, 1e7, w, why, whylen) ||
		    !opt_num(cpu, "ns_per_io", 0, TWO64, w, why, whylen) ||
		    !opt_count(cpu, "ctx_voluntary", w, why, whylen) ||
		    !opt_count(cpu, "ctx_involuntary", w, why, whylen))) {
		if (!cJSON_IsObject(cpu))
			snprintf(why, whylen, "%scpu is not an object", w);
		return -1;
	}
	const cJSON *load = cJSON_GetObjectItemCaseSensitive(r, "host_load");
	if (load && !load_check(load, w, why, whylen))
		return -1;
	for (int d = 0; d < 2; d++) {
		const cJSON *x = cJSON_GetObjectItemCaseSensitive(r, dirs[d]);
		if (!x)
			continue;
		snprintf(w, sizeof(w), "repetition %d: %s: ", i + 1, dirs[d]);
		if (dir_check(x, old, w, why, whylen) < 0)
			return -1;
	}
	return 0;
}

static int metric_check(const cJSON *m, const char *dir, char *why, size_t whylen)
{
	const cJSON *mn = cJSON_GetObjectItemCaseSensitive(m, "min");
	const cJSON *mx = cJSON_GetObjectItemCaseSensitive(m, "max");
	const cJSON *me = cJSON_GetObjectItemCaseSensitive(m, "mean");
	char w[96];

	snprintf(w, sizeof(w), "summary: %s: %s: ", dir, m->string);
	if (!cJSON_IsObject(m)) {
		snprintf(why, whylen, "%snot an object", w);
		return -1;
	}
	if (!opt_num(m, "n", 0, CELLCHECK_MAX_REPS, w, why, whylen) ||
	    !opt_num(m, "stddev", 0, TWO64, w, why, whylen) ||
	    !opt_num(m, "cv", 0, TWO64, w, why, whylen))
		return -1;
	if (cJSON_IsNumber(mn) && cJSON_IsNumber(mx) && cJSON_IsNumber(me) &&
	    (mn->valuedouble > mx->valuedouble ||
	     me->valuedouble < mn->valuedouble - 1e-9 * fabs(mn->valuedouble) ||
	     me->valuedouble > mx->valuedouble + 1e-9 * fabs(mx->valuedouble))) {
		snprintf(why, whylen, "%smin, mean and max are out of order", w);
		return -1;
	}
	/* the rates a report prints: within what any device could do */
	double cap = !strcmp(m->string, "iops") ? CELLCHECK_MAX_IOPS :
		     !strcmp(m->string, "bw_bytes_s") ? CELLCHECK_MAX_BW : 0;
	if (cap && (!opt_num(m, "mean", 0, cap, w, why, whylen) ||
		    !opt_num(m, "min", 0, cap, w, why, whylen) ||
		    !opt_num(m, "max", 0, cap, w, why, whylen)))
		return -1;
	return 0;
}

static int summary_check(const cJSON *sum, bool old, char *why, size_t whylen)
{
	static const char *const dirs[] = { "read", "write" };

	if (!sum)
		return 0;
	if (!cJSON_IsObject(sum)) {
		snprintf(why, whylen, "summary is not an object");
		return -1;
	}
	for (int d = 0; d < 2; d++) {
		const cJSON *x = cJSON_GetObjectItemCaseSensitive(sum, dirs[d]), *m;
		if (x && !cJSON_IsObject(x)) {
			snprintf(why, whylen, "summary: %s is not an object", dirs[d]);
			return -1;
		}
		for (m = x ? x->child : NULL; m; m = m->next)
			if (metric_check(m, dirs[d], why, whylen) < 0)
				return -1;
	}
	const cJSON *merged = cJSON_GetObjectItemCaseSensitive(sum, "lat_ns_merged");
	for (int d = 0; merged && d < 2; d++)
		if (lat_check(cJSON_GetObjectItemCaseSensitive(merged, dirs[d]), old, "summary: lat_ns_merged: ",
			      why, whylen) < 0)
			return -1;
	return 0;
}

int cellcheck_cell(const cJSON *cell, char *why, size_t whylen)
{
	const cJSON *st = cJSON_GetObjectItemCaseSensitive(cell, "status");
	const cJSON *reps = cJSON_GetObjectItemCaseSensitive(cell, "repetitions"), *r;
	const cJSON *err = cJSON_GetObjectItemCaseSensitive(cell, "error");
	const cJSON *warn = cJSON_GetObjectItemCaseSensitive(cell, "warnings");
	int i = 0;

	if (!cJSON_IsObject(cell)) {
		snprintf(why, whylen, "not a JSON object");
		return -1;
	}
	if (st && (!cJSON_IsString(st) || (strcmp(st->valuestring, "ok") &&
					   strcmp(st->valuestring, "failed")))) {
		snprintf(why, whylen, "status is not \"ok\" or \"failed\"");
		return -1;
	}
	const cJSON *kind = cJSON_GetObjectItemCaseSensitive(cell, "latency_kind");
	/* a fio import from before latency_kind: its lat_ns mean and range
	 * are fio's total latency, its percentiles the completion latency,
	 * which lies below the total's min: only their upper bound holds */
	bool old = !kind;
	if (kind && (!cJSON_IsString(kind) || (strcmp(kind->valuestring, "total") &&
					       strcmp(kind->valuestring, "completion") &&
					       strcmp(kind->valuestring, "response")))) {
		snprintf(why, whylen, "latency_kind is not \"total\", \"completion\" or \"response\"");
		return -1;
	}
	if ((err && !cJSON_IsString(err) && !cJSON_IsNull(err)) ||
	    (warn && !cJSON_IsArray(warn))) {
		snprintf(why, whylen, "error or warnings of the wrong type");
		return -1;
	}
	if (!opt_num(cell, "id", 1, RESULTSET_MAX_ID, "", why, whylen) ||
	    !all_finite(cell, 0, why, whylen))
		return -1;
	if (reps && (!cJSON_IsArray(reps) || cJSON_GetArraySize(reps) > CELLCHECK_MAX_REPS)) {
		snprintf(why, whylen, "repetitions is not a list of at most %d", CELLCHECK_MAX_REPS);
		return -1;
	}
	cJSON_ArrayForEach(r, reps)
		if (rep_check(r, i++, old, why, whylen) < 0)
			return -1;
	if (summary_check(cJSON_GetObjectItemCaseSensitive(cell, "summary"), old, why, whylen) < 0)
		return -1;
	/* each number within its bounds: then they must agree (cellsums.h) */
	return cellsums_check(cell, why, whylen);
}
