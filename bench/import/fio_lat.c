/*
 * fio_lat.c - fio_lat.h: one fio job entry's direction, its two latencies
 * kept apart.  Split from import_fio.c.
 */
#include "fio_lat.h"

#include <errno.h>
#include <math.h>
#include <stdlib.h>

#include "import.h"
#include "util/jsonutil.h"
#include "util/units.h"

/* Add a json+ "bins" object ({"ns": count}) to h.  -1 if malformed. */
static int fio_bins(const cJSON *bins, struct lat_hist *h)
{
	const cJSON *b;

	cJSON_ArrayForEach(b, bins) {
		uint64_t ns;   /* digits only: strtoull took " -5" as 2^64 - 5 */
		if (units_parse_uint(b->string, &ns) < 0 || !cJSON_IsNumber(b) || b->valuedouble < 0)
			return -1;
		hist_add_n(h, ns, import_u64(b->valuedouble));
	}
	return 0;
}

/* A key of fio's percentile object: a plain decimal in (0, 100] as fio
 * prints it ("99.900000").  1 when it is one (*q set), 0 for fio 2.x's
 * padding ("0.00": 0, skipped), -4 otherwise: "nan", "-3" and "1e400"
 * were dropped or read as infinity before, and with them the latency. */
static int pct_key(const cJSON *e, double *q)
{
	const char *end;

	if (!e->string || units_parse_decimal(e->string, &end, q) < 0 || *end ||
	    !cJSON_IsNumber(e) || *q > 100)
		return -4;
	if (*q == 0)
		return e->valuedouble == 0 ? 0 : -4;
	return 1;
}

/* fio's percentile object into pp/pv (at most REP_MAX_PCT; fio prints 20
 * at most).  0; -3 a negative latency; -4 a key that is not a percentile
 * (a->bad_key names it). */
static int fio_pct_list(struct fio_acc *a, const cJSON *pct, double *pp, double *pv,
			size_t *np)
{
	const cJSON *e;

	*np = 0;
	cJSON_ArrayForEach(e, pct) {
		double q;
		int k = pct_key(e, &q);
		if (k < 0) {
			a->bad_key = e->string;
			return -4;
		}
		if (!k || *np >= REP_MAX_PCT)
			continue;
		if (!(e->valuedouble >= 0))
			return -3; /* a negative latency: edited or damaged */
		pp[*np] = q;
		pv[(*np)++] = e->valuedouble;
	}
	return 0;
}


/* fio's latency object (lat_ns or clat_ns): its moments.  -1 when one is
 * missing, -3 when negative or out of order (an edited file). */
static int fio_moments(const cJSON *o, double *n, double *mn, double *mx,
		       double *mean, double *sd)
{
	if (!cJSON_IsObject(o) || json_num(o, "N", n) < 0 || json_num(o, "min", mn) < 0 ||
	    json_num(o, "max", mx) < 0 || json_num(o, "mean", mean) < 0 || json_num(o, "stddev", sd) < 0)
		return -1;
	if (*n < 0 || *mn < 0 || *mx < 0 || *mean < 0 || *sd < 0 || (*n > 0 && *mx < *mn))
		return -3;
	return 0;
}

/* Fold one entry's latency of the other kind (fio's clat when lat_ns holds
 * lat, or the reverse) into d->other: Chan's merge of the moments, and
 * the percentiles of a single entry (several do not merge without bins). */
static int acc_other(struct fio_acc *a, int di, const cJSON *o)
{
	struct lat_other *x = &a->dir[di].other;
	double n, mn, mx, mean, sd;
	int r = fio_moments(o, &n, &mn, &mx, &mean, &sd);

	if (r < 0 || n <= 0)
		return r == -3 ? -3 : 0;  /* no other kind: nothing kept */
	double tot = a->other_n[di] + n, delta = mean - x->mean_ns;
	if (!x->present || mn < x->min_ns)
		x->min_ns = mn;
	if (!x->present || mx > x->max_ns)
		x->max_ns = mx;
	a->other_m2[di] += sd * sd * (n > 1 ? n - 1 : 0) + delta * delta * a->other_n[di] * n / tot;
	x->mean_ns += delta * n / tot;
	a->other_n[di] = tot;
	x->stddev_ns = tot > 1 ? sqrt(a->other_m2[di] / (tot - 1)) : 0;
	x->present = x->have_range = x->have_sd = true;
	const cJSON *pct = cJSON_GetObjectItemCaseSensitive(o, "percentile");
	bool first = x->npct == 0 && a->entries == 0;
	x->npct = 0;
	if (!first || !cJSON_IsObject(pct))
		return 0;
	size_t np = 0;
	int r2 = fio_pct_list(a, pct, x->pct_p, x->pct_ns, &np);
	x->npct = r2 < 0 ? 0 : np;
	return r2;
}

/* Fold one entry's direction ("read"/"write") into a.  fio prints lat
 * (iomatrix's total) and clat (completion), its percentiles and bins on
 * lat only with lat_percentiles=1.  lat_ns holds one kind (latency_kind):
 * completion when only clat has percentiles, so the mean beside a clat
 * p99 is clat's own; else total.  The other kind is kept apart. */
int fio_acc_dir(struct fio_acc *a, int di, const cJSON *o)
{
	struct dir_result *d = &a->dir[di];
	double ios, bytes, iops, bw, rt, n, mn, mx, mean, sd;
	const cJSON *lat = cJSON_GetObjectItemCaseSensitive(o, "lat_ns");
	const cJSON *clat = cJSON_GetObjectItemCaseSensitive(o, "clat_ns");

	if (json_num(o, "total_ios", &ios) < 0 || json_num(o, "io_bytes", &bytes) < 0 ||
	    json_num(o, "iops", &iops) < 0 || json_num(o, "bw_bytes", &bw) < 0 ||
	    json_num(o, "runtime", &rt) < 0 || !cJSON_IsObject(lat) ||
	    !cJSON_IsObject(clat))
		return -1;
	int mr = fio_moments(lat, &n, &mn, &mx, &mean, &sd);
	if (mr < 0)
		return mr;
	/* fio never prints a negative count: such a file was edited or
	 * damaged, and a negative p99 must not reach a report */
	if (ios < 0 || bytes < 0 || iops < 0 || bw < 0 || rt < 0)
		return -3;
	/* nor a count past 2^64 or a fraction of an IO (1e30 saturated
	 * into 2^64 - 1 before, and the cell check then spoke of that) */
	if (ios >= 18446744073709551616.0 || bytes >= 18446744073709551616.0 ||
	    ios != floor(ios) || bytes != floor(bytes))
		return -3;
	d->present = true;
	d->ios += import_u64(ios);
	d->bytes += import_u64(bytes);
	d->iops += iops;
	d->bw_bytes_s += bw;
	if (rt > a->runtime_ms)
		a->runtime_ms = rt;
	if (ios > 0 && n <= 0) {
		a->no_lat[di] = true; /* gtod_reduce / disable_lat */
		return 0;
	}
	if (n <= 0)
		return 0;
	bool lat_pct = cJSON_GetObjectItemCaseSensitive(lat, "percentile") ||
		       cJSON_GetObjectItemCaseSensitive(lat, "bins");
	bool clat_pct = cJSON_GetObjectItemCaseSensitive(clat, "percentile") ||
			cJSON_GetObjectItemCaseSensitive(clat, "bins");
	if (!a->kind_known) {
		a->kind = !lat_pct && clat_pct ? LAT_COMPLETION : LAT_TOTAL;
		a->kind_known = true;
	}
	const cJSON *src = a->kind == LAT_COMPLETION ? clat : lat;
	int orr = acc_other(a, di, a->kind == LAT_COMPLETION ? lat : clat);
	if (orr < 0)
		return orr;
	if (src == clat && (mr = fio_moments(clat, &n, &mn, &mx, &mean, &sd)) < 0)
		return mr;
	if (n <= 0)
		return 0;
	/* Moments: Chan's merge of the entries. */
	double tot = (double)d->lat_n + n, delta = mean - d->lat_mean_ns;
	if (!(d->known & REP_LAT) || mn < d->lat_min_ns)
		d->lat_min_ns = mn;
	if (!(d->known & REP_LAT) || mx > d->lat_max_ns)
		d->lat_max_ns = mx;
	a->lat_m2[di] += sd * sd * (n > 1 ? n - 1 : 0) +
			 delta * delta * (double)d->lat_n * n / tot;
	d->lat_mean_ns += delta * n / tot;
	d->lat_n = import_u64(tot);
	d->lat_stddev_ns = tot > 1 ? sqrt(a->lat_m2[di] / (tot - 1)) : 0;
	d->known |= REP_LAT | REP_LAT_RANGE | REP_LAT_SD;

	const cJSON *pct = cJSON_GetObjectItemCaseSensitive(src, "percentile");
	const cJSON *bins = cJSON_GetObjectItemCaseSensitive(src, "bins");
	if (bins) {
		if (!cJSON_IsObject(bins))
			return -1;
		if (!d->hist && !(d->hist = calloc(1, sizeof(*d->hist))))
			return -2;
		if (fio_bins(bins, d->hist) < 0)
			return -1;
	} else if (d->hist) {
		/* one entry without bins: the merged histogram would lie */
		free(d->hist);
		d->hist = NULL;
	}
	if (a->entries == 0 && cJSON_IsObject(pct)) {
		size_t np = 0;
		int pr = fio_pct_list(a, pct, d->pct_p, d->pct_ns, &np);
		if (pr < 0)
			return pr;
		d->npct = np;
	} else if (a->entries > 0) {
		/* Percentiles of several jobs do not merge; the histogram
		 * (json+) gives them back. */
		if (d->npct)
			a->pct_lost[di] = true;
		d->npct = 0;
	}
	return 0;
}

