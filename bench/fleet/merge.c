/*
 * merge.c - merge.h: parse host repetitions back and merge them exactly.
 */
#include "merge.h"

#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "resultset/histfile.h"
#include "resultset/resultset.h"
#include "util/jsonutil.h"

/* Every number an agent sends becomes a uint64_t somewhere: below 2^64
 * (1.8e19), finite and not negative, or it is refused. */
static bool count_ok(double v, double *out)
{
	if (!isfinite(v) || v < 0 || v > 1.8e19)
		return false;
	*out = v;
	return true;
}

static bool num(const cJSON *o, const char *k, double *out)
{
	double v;

	return json_num(o, k, &v) == 0 && count_ok(v, out);
}

static int series_from_json(const cJSON *j, struct series *s)
{
	const cJSON *ios = cJSON_GetObjectItemCaseSensitive(j, "ios");
	const cJSON *bytes = cJSON_GetObjectItemCaseSensitive(j, "bytes");
	const cJSON *lat = cJSON_GetObjectItemCaseSensitive(j, "lat_mean_ns");
	double iv;
	int n = cJSON_GetArraySize(ios);

	if (!num(j, "interval_ns", &iv) || iv < 1 || !cJSON_IsArray(ios) ||
	    !cJSON_IsArray(bytes) || !cJSON_IsArray(lat) ||
	    cJSON_GetArraySize(bytes) != n || cJSON_GetArraySize(lat) != n ||
	    n > 10000000)
		return -1;
	series_init(s, (uint64_t)iv);
	if (n && series_reserve(s, (size_t)n) < 0)
		return -1;
	/* walk the three lists together: indexing a cJSON array is linear */
	const cJSON *a = ios->child, *b = bytes->child, *l = lat->child;
	for (int i = 0; i < n; i++, a = a->next, b = b->next, l = l->next) {
		double va, vb, vl;
		if (!cJSON_IsNumber(a) || !cJSON_IsNumber(b) || !cJSON_IsNumber(l) ||
		    !count_ok(a->valuedouble, &va) || !count_ok(b->valuedouble, &vb) ||
		    !count_ok(l->valuedouble, &vl) || !count_ok(vl * va, &vl))
			return -1;
		s->ios[i] = (uint64_t)va;
		s->bytes[i] = (uint64_t)vb;
		s->lat_sum_ns[i] = (uint64_t)vl;
	}
	s->n = (size_t)n;
	return 0;
}

static int dir_from_json(const cJSON *j, struct dir_result *d, uint64_t runtime_ns,
			 char *why, size_t whylen)
{
	const cJSON *lat = cJSON_GetObjectItemCaseSensitive(j, "lat_ns");
	const cJSON *se = cJSON_GetObjectItemCaseSensitive(j, "series");
	double ios, bytes, mn, mx, mean, sd;

	if (!num(j, "ios", &ios) || !num(j, "bytes", &bytes)) {
		snprintf(why, whylen, "no ios/bytes");
		return -1;
	}
	d->present = true;
	d->known = REP_EXACT; /* measured by an agent: moments, histogram, series */
	d->ios = (uint64_t)ios;
	d->bytes = (uint64_t)bytes;
	d->iops = runtime_ns ? (double)d->ios / ((double)runtime_ns / 1e9) : 0;
	d->bw_bytes_s = runtime_ns ? (double)d->bytes / ((double)runtime_ns / 1e9) : 0;
	d->hist = calloc(1, sizeof(*d->hist));
	if (!d->hist || hist_from_json(cJSON_GetObjectItemCaseSensitive(j, "hist"), d->hist) < 0) {
		snprintf(why, whylen, "bad histogram");
		return -1;
	}
	welford_init(&d->lat);
	if (d->hist->total) {
		if (!num(lat, "min", &mn) || !num(lat, "max", &mx) ||
		    !num(lat, "mean", &mean) || !num(lat, "stddev", &sd) || mn > mx) {
			snprintf(why, whylen, "bad lat_ns");
			return -1;
		}
		/* the moments of exactly the histogram's samples */
		d->lat.n = d->hist->total;
		d->lat.mean = mean;
		d->lat.m2 = d->lat.n > 1 ? sd * sd * (double)(d->lat.n - 1) : 0;
		d->lat.min = (uint64_t)mn;
		d->lat.max = (uint64_t)mx;
	}
	if (se && series_from_json(se, &d->series) < 0) {
		snprintf(why, whylen, "bad series");
		return -1;
	}
	/* each interval's histogram, held to the host's own histogram: the
	 * aggregate's intervals add up to its histogram only if each host's do */
	char w[200];
	int rc = se ? histfile_read(se, &d->series.hist, w, sizeof(w)) : 0;
	if (rc == 0 && d->series.hist.n)
		rc = histfile_check_sum(&d->series.hist, d->hist, w, sizeof(w));
	if (rc < 0) {
		snprintf(why, whylen, "%s", rc == -2 ? "out of memory" : w);
		return -1;
	}
	return 0;
}

int fleet_rep_from_json(const cJSON *rep, struct rep_result *out,
			char *why, size_t whylen)
{
	static const char *const names[DIR__COUNT] = { "read", "write" };
	const cJSON *cpu = cJSON_GetObjectItemCaseSensitive(rep, "cpu");
	double rt, v;

	memset(out, 0, sizeof(*out));
	/* under 2^53 ns (104 days): start + runtime must not overflow */
	if (!cJSON_IsObject(rep) || !num(rep, "runtime_ns", &rt) || rt > 9e15) {
		snprintf(why, whylen, "repetition without runtime_ns");
		return -1;
	}
	out->runtime_ns = (uint64_t)rt;
	if (num(cpu, "usr_pct", &v)) {
		out->have_cpu = true;
		out->cpu_usr_pct = v;
	}
	if (num(cpu, "sys_pct", &v))
		out->cpu_sys_pct = v;
	for (int d = 0; d < DIR__COUNT; d++) {
		const cJSON *j = cJSON_GetObjectItemCaseSensitive(rep, names[d]);
		char w[224];
		if (!j)
			continue;
		if (dir_from_json(j, &out->dir[d], out->runtime_ns, w, sizeof(w)) < 0) {
			snprintf(why, whylen, "%s: %s", names[d], w);
			return -1;
		}
	}
	return 0;
}

/* Would adding direction d of the n hosts overflow a 64-bit count
 * anywhere (a histogram bucket or total, the latency sample count, a
 * series interval)?  Each host's numbers are below 2^64 on their own;
 * their sum need not be, and a wrapped sum is a small, believable lie. */
static bool sums_overflow(const struct rep_result *hosts, size_t n, int d)
{
	uint64_t total = 0, lat_n = 0;
	size_t longest = 0;

	for (size_t h = 0; h < n; h++) {
		const struct dir_result *s = &hosts[h].dir[d];
		if (!s->present || !s->hist)
			continue;
		if (__builtin_add_overflow(total, s->hist->total, &total) ||
		    __builtin_add_overflow(lat_n, s->lat.n, &lat_n))
			return true;
		if (s->series.n > longest)
			longest = s->series.n;
	}
	for (unsigned i = 0; i < HIST_BUCKETS; i++) {
		uint64_t b = 0;
		for (size_t h = 0; h < n; h++) {
			const struct dir_result *s = &hosts[h].dir[d];
			if (s->present && s->hist &&
			    __builtin_add_overflow(b, s->hist->count[i], &b))
				return true;
		}
	}
	for (size_t i = 0; i < longest; i++) {
		uint64_t a = 0, b = 0, l = 0;
		for (size_t h = 0; h < n; h++) {
			const struct series *se = &hosts[h].dir[d].series;
			if (!hosts[h].dir[d].present || !hosts[h].dir[d].hist || i >= se->n)
				continue;
			if (__builtin_add_overflow(a, se->ios[i], &a) ||
			    __builtin_add_overflow(b, se->bytes[i], &b) ||
			    __builtin_add_overflow(l, se->lat_sum_ns[i], &l))
				return true;
		}
	}
	return false;
}

int fleet_rep_merge(const struct rep_result *hosts, size_t n,
		    uint64_t window_ns, struct rep_result *out)
{
	memset(out, 0, sizeof(*out));
	for (int d = 0; d < DIR__COUNT; d++)
		if (sums_overflow(hosts, n, d))
			return -EOVERFLOW;
	out->runtime_ns = window_ns;
	for (int d = 0; d < DIR__COUNT; d++) {
		struct dir_result *o = &out->dir[d];
		double ios = 0, bytes = 0;
		bool any = false, hists = true;

		welford_init(&o->lat);
		for (size_t h = 0; h < n; h++)
			any |= hosts[h].dir[d].present && hosts[h].dir[d].hist;
		if (!any)
			continue;
		o->present = true;
		o->known = REP_EXACT;
		o->hist = calloc(1, sizeof(*o->hist));
		if (!o->hist)
			return -1;
		/* the first host's interval (series_init takes 0 for 1 s: every
		 * host's series at another interval was left out of the sum) */
		series_init(&o->series, 0);
		o->series.interval_ns = 0;
		for (size_t h = 0; h < n; h++) {
			const struct dir_result *s = &hosts[h].dir[d];
			if (!s->present || !s->hist)
				continue;
			if (hosts[h].runtime_ns) {
				double secs = (double)hosts[h].runtime_ns / 1e9;
				o->iops += (double)s->ios / secs;
				o->bw_bytes_s += (double)s->bytes / secs;
				ios += (double)s->ios * (double)window_ns / (double)hosts[h].runtime_ns;
				bytes += (double)s->bytes * (double)window_ns / (double)hosts[h].runtime_ns;
			}
			hist_merge(o->hist, s->hist);
			welford_merge(&o->lat, &s->lat);
			if (!o->series.interval_ns)
				o->series.interval_ns = s->series.interval_ns;
			if (s->series.interval_ns == o->series.interval_ns &&
			    series_merge(&o->series, &s->series) < 0)
				return -1;
			hists &= s->series.interval_ns == o->series.interval_ns &&
				 s->series.hist.n == s->series.n && s->series.n;
		}
		/* the merged intervals' histograms add up to the merged histogram
		 * only when every host's are in them */
		if (!hists)
			ivhist_release(&o->series.hist);
		o->ios = ios < 1.8e19 ? (uint64_t)llround(ios) : UINT64_MAX;
		o->bytes = bytes < 1.8e19 ? (uint64_t)llround(bytes) : UINT64_MAX;
	}
	for (size_t h = 0; h < n; h++) {
		out->have_cpu |= hosts[h].have_cpu;
		out->cpu_usr_pct += hosts[h].cpu_usr_pct;
		out->cpu_sys_pct += hosts[h].cpu_sys_pct;
	}
	return 0;
}

uint64_t fleet_common_window(const int64_t *start_ns, const uint64_t *runtime_ns,
			     size_t n, int64_t *skew_ns)
{
	int64_t lo = 0, hi = 0, end = 0;
	uint64_t shortest = 0;

	for (size_t i = 0; i < n; i++) {
		int64_t e = start_ns[i] + (int64_t)runtime_ns[i];
		if (!i || start_ns[i] < lo)
			lo = start_ns[i];
		if (!i || start_ns[i] > hi)
			hi = start_ns[i];
		if (!i || e < end)
			end = e;
		if (!i || runtime_ns[i] < shortest)
			shortest = runtime_ns[i];
	}
	*skew_ns = hi - lo;
	return end > hi ? (uint64_t)(end - hi) : shortest;
}
