/*
 * cellfile.c - the JSON of one cell file (results/README.md CELL): the
 * resolved parameters, every repetition per direction (counts, rates,
 * latency moments and percentiles, histogram, time series, CPU) and the
 * summary across repetitions.  `run` and every importer write cells only
 * through resultset_cell_to_json(), from the one struct rep_result.
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "stats/cliff.h"
#include "stats/interval.h"
#include "stats/plateau.h"
#include "histfile.h"
#include "resultset.h"
#include "util/jsonw.h"

/* ---- one direction of one repetition ---- */

static bool add_num(cJSON *o, const char *k, double v)
{
	return cJSON_AddNumberToObject(o, k, v) != NULL;
}

/* LAT of results/README.md: {min, max, mean, stddev, percentiles}, each
 * only when known.  NULL when the mean latency is unknown (not written). */
static cJSON *lat_json(const struct dir_result *d)
{
	double mean, mn, mx, sd, v;
	const double *plist = NULL;
	size_t np = 0;
	cJSON *o, *p;
	char key[32];

	if (!dir_lat_mean(d, &mean) || !(o = cJSON_CreateObject()))
		return NULL;
	if (dir_lat_range(d, &mn, &mx) &&
	    (!add_num(o, "min", mn) || !add_num(o, "max", mx)))
		goto err;
	if (!add_num(o, "mean", mean))
		goto err;
	if (dir_lat_stddev(d, &sd) && !add_num(o, "stddev", sd))
		goto err;
	/* the other tool's own percentiles, else fio's list from the
	 * histogram (always, when measured) */
	if (d->npct) {
		plist = d->pct_p;
		np = d->npct;
	} else if ((d->known & REP_EXACT) || (d->hist && d->hist->total)) {
		plist = stats_fio_percentiles;
		np = stats_fio_npercentiles;
	}
	if (np && !(p = cJSON_AddObjectToObject(o, "percentiles")))
		goto err;
	for (size_t i = 0; i < np; i++) {
		snprintf(key, sizeof(key), "%f", plist[i]);
		if (!dir_lat_pct(d, plist[i], &v) || !add_num(p, key, v))
			goto err;
	}
	return o;
err:
	cJSON_Delete(o);
	return NULL;
}

/* {"interval_ns", "ios", "bytes", "lat_mean_ns"} of n intervals into o.NAME */
static int series_arrays(cJSON *o, const char *name, uint64_t interval_ns, size_t n,
			 const uint64_t *sios, const uint64_t *sbytes, const uint64_t *slat)
{
	cJSON *x, *ios, *bytes, *lat;

	if (!(x = cJSON_AddObjectToObject(o, name)) ||
	    !add_num(x, "interval_ns", (double)interval_ns) ||
	    !(ios = cJSON_AddArrayToObject(x, "ios")) ||
	    !(bytes = cJSON_AddArrayToObject(x, "bytes")) ||
	    !(lat = cJSON_AddArrayToObject(x, "lat_mean_ns")))
		return -1;
	for (size_t i = 0; i < n; i++) {
		cJSON *a = cJSON_CreateNumber((double)sios[i]);
		cJSON *b = cJSON_CreateNumber((double)sbytes[i]);
		cJSON *l = cJSON_CreateNumber(sios[i] ? (double)slat[i] / (double)sios[i] : 0);
		if (a)
			cJSON_AddItemToArray(ios, a);
		if (b)
			cJSON_AddItemToArray(bytes, b);
		if (l)
			cJSON_AddItemToArray(lat, l);
		if (!a || !b || !l)
			return -1;
	}
	return 0;
}

/* The other kind of latency (rep.h struct lat_other) as LAT: the moments
 * and percentiles the source printed.  NULL when absent. */
static cJSON *lat_other_json(const struct lat_other *x)
{
	cJSON *o, *p = NULL;
	char key[32];

	if (!x->present || !(o = cJSON_CreateObject()))
		return NULL;
	if ((x->have_range && (!add_num(o, "min", x->min_ns) || !add_num(o, "max", x->max_ns))) ||
	    !add_num(o, "mean", x->mean_ns) ||
	    (x->have_sd && !add_num(o, "stddev", x->stddev_ns)))
		goto err;
	if (x->npct && !(p = cJSON_AddObjectToObject(o, "percentiles")))
		goto err;
	for (size_t i = 0; i < x->npct; i++) {
		snprintf(key, sizeof(key), "%f", x->pct_p[i]);
		if (!add_num(p, key, x->pct_ns[i]))
			goto err;
	}
	return o;
err:
	cJSON_Delete(o);
	return NULL;
}

/* The fine intervals a run of runtime_ns covered: those that start before
 * its end, and the one an IO completing exactly at the end falls into
 * when it holds one (so the fine samples add up to the coarse ones). */
static size_t fine_count(const struct series *se, uint64_t runtime_ns)
{
	uint64_t fi = se->fine_interval_ns;
	size_t nf = se->fine_n;
	if (!fi || !runtime_ns || runtime_ns / fi + 1 >= nf)
		return nf;
	nf = (size_t)(runtime_ns / fi) + 1;
	if ((uint64_t)(nf - 1) * fi >= runtime_ns && !se->fine_ios[nf - 1])
		nf--;
	return nf;
}

/* The coarse series, and inside it "fine": the fine intervals of the start
 * that the run covered (results/README.md). */
static int series_json(cJSON *o, const struct series *se, uint64_t runtime_ns)
{
	if (series_arrays(o, "series", se->interval_ns, se->n, se->ios, se->bytes,
			  se->lat_sum_ns) < 0)
		return -1;
	cJSON *so = cJSON_GetObjectItemCaseSensitive(o, "series");
	/* each interval's histogram (histfile.h), when the series has them */
	if (se->n && se->hist.n == se->n) {
		if (!cJSON_AddItemToObject(so, "hist", histfile_to_json(&se->hist)))
			return -1;
	}
	if (!se->fine_n || !se->n)
		return 0;
	size_t nf = fine_count(se, runtime_ns);
	return series_arrays(so, "fine",
			     se->fine_interval_ns, nf, se->fine_ios, se->fine_bytes,
			     se->fine_lat_sum_ns);
}

static cJSON *dir_json(const struct dir_result *d, uint64_t runtime_ns, enum lat_kind kind)
{
	bool exact = d->known & REP_EXACT;
	cJSON *o = cJSON_CreateObject(), *x;

	if (!o)
		return NULL;
	if (!add_num(o, "ios", (double)d->ios) || !add_num(o, "bytes", (double)d->bytes) ||
	    !add_num(o, "iops", d->iops) || !add_num(o, "bw_bytes_s", d->bw_bytes_s))
		goto err;
	if ((x = lat_json(d)))
		cJSON_AddItemToObject(o, "lat_ns", x);
	else if (exact)
		goto err;
	if ((x = lat_other_json(&d->other)))
		cJSON_AddItemToObject(o, kind == LAT_TOTAL ? "lat_completion_ns" : "lat_total_ns", x);
	else if (d->other.present)
		goto err;
	if (exact || (d->hist && d->hist->total)) {
		if (!(x = cJSON_AddObjectToObject(o, "hist")) ||
		    !cJSON_AddStringToObject(x, "scheme", "loglin64") ||
		    !cJSON_AddItemToObject(x, "buckets", hist_to_json(d->hist)))
			goto err;
	}
	/* measured, or imported with each interval's histogram (fio's logs) */
	if ((exact || d->series.hist.n) && series_json(o, &d->series, runtime_ns) < 0)
		goto err;
	if (d->svc_hist) { /* rated: service latency beside the response */
		struct dir_result sv = { .known = REP_EXACT | REP_LAT | REP_LAT_RANGE |
					 REP_LAT_SD, .lat = d->svc_lat, .hist = d->svc_hist };
		if (!cJSON_AddItemToObject(o, "service_lat_ns", lat_json(&sv)))
			goto err;
	}
	return o;
err:
	cJSON_Delete(o);
	return NULL;
}

/* "host_load" of a repetition (results/README.md): the load average
 * before and after, and the CPU time of all CPUs in between. */
static bool load_json(cJSON *o, const struct rep_result *r)
{
	const struct sysload_delta *d = &r->load;
	cJSON *x = cJSON_AddObjectToObject(o, "host_load"), *a;
	if (!x)
		return false;
	for (int k = 0; k < 2; k++) {
		const struct sysload *s = k ? &r->load_after : &r->load_before;
		if (!s->have_load)
			continue;
		if (!(a = cJSON_AddArrayToObject(x, k ? "loadavg_after" : "loadavg_before")))
			return false;
		/* cJSON_AddItemToArray is false for a NULL item (cJSON 1.7.13
		 * on): one check for the element made and the element added */
		for (int i = 0; i < 3; i++)
			if (!cJSON_AddItemToArray(a, cJSON_CreateNumber(s->load[i])))
				return false;
	}
	if (d->ncpu && !add_num(x, "cpus", d->ncpu))
		return false;
	if (!d->have_cpu)
		return true;
	return add_num(x, "cpu_busy_pct", d->busy_pct) &&
	       add_num(x, "cpu_iowait_pct", d->iowait_pct) &&
	       add_num(x, "cpu_steal_pct", d->steal_pct) &&
	       add_num(x, "own_cpu_pct", d->own_pct) &&
	       add_num(x, "other_busy_cpus", d->other_cpus) &&
	       cJSON_AddBoolToObject(x, "competed",
				     sysload_competed(d->other_cpus, d->steal_pct));
}

cJSON *resultset_rep_to_json(const struct rep_result *r, int rep_no)
{
	cJSON *o = cJSON_CreateObject(), *cpu;

	if (!o)
		return NULL;
	if (!add_num(o, "rep", rep_no) || !add_num(o, "runtime_ns", (double)r->runtime_ns))
		goto err;
	if (r->have_cpu || r->have_ctx || r->have_cpu_per_io || r->cpu_per_io_why) {
		if (!(cpu = cJSON_AddObjectToObject(o, "cpu")))
			goto err;
		if (r->have_cpu && (!add_num(cpu, "usr_pct", r->cpu_usr_pct) ||
				    !add_num(cpu, "sys_pct", r->cpu_sys_pct)))
			goto err;
		if (r->have_cpu_per_io && !add_num(cpu, "ns_per_io", r->cpu_ns_per_io))
			goto err;
		if (!r->have_cpu_per_io && r->cpu_per_io_why &&
		    (!cJSON_AddNullToObject(cpu, "ns_per_io") ||
		     !cJSON_AddStringToObject(cpu, "ns_per_io_why", r->cpu_per_io_why)))
			goto err;
		if (r->have_ctx &&
		    (!add_num(cpu, "ctx_voluntary", (double)r->ctx_voluntary) ||
		     !add_num(cpu, "ctx_involuntary", (double)r->ctx_involuntary)))
			goto err;
	}
	if (r->have_load && !load_json(o, r))
		goto err;
	for (int d = 0; d < DIR__COUNT; d++) {
		if (!r->dir[d].present)
			continue;
		cJSON *x = dir_json(&r->dir[d], r->runtime_ns, r->lat_kind);
		if (!x)
			goto err;
		cJSON_AddItemToObject(o, dir_name(d), x);
		/* the write cliff and stalls, found in the measured series */
		cJSON *cl;
		if (d == DIR_WRITE && (r->dir[d].known & REP_EXACT) &&
		    (cl = resultset_cliff_to_json(&r->dir[d].series, r->runtime_ns)))
			cJSON_AddItemToObject(x, "cliff", cl);
	}
	return o;
err:
	cJSON_Delete(o);
	return NULL;
}

/* ---- the write cliff ---- */

/* One plateau of plateau.h as JSON. */
static cJSON *plateau_json(const struct plateau *p, double interval_ns)
{
	cJSON *o = cJSON_CreateObject();
	(void)interval_ns;
	if (!o || !add_num(o, "first_index", (double)p->first) ||
	    !add_num(o, "start_ns", p->start_s * 1e9) ||
	    !add_num(o, "duration_ns", p->dur_s * 1e9) ||
	    !add_num(o, "level_bw_bytes_s", p->level) || !add_num(o, "bytes", p->bytes)) {
		cJSON_Delete(o);
		return NULL;
	}
	return o;
}

/*
 * The plateaus of the series and the cliff rule's verdict (plateau.h);
 * "found" is that verdict.  The level1/level2/break fields describe the
 * cliff's reference and lower level (without a cliff: the first and the
 * last plateau) and where the drop begins, for readers of schema 1 sets.  RAM is judged by the report, which knows the device.
 */
/* Bandwidth (bytes/s) of the fine samples the run covered (the last one
 * scaled to its length, or dropped: interval_sample_len).  The count, or
 * 0 without fine samples; -1 on OOM.  *out is the caller's. */
static long fine_bw(const struct series *s, uint64_t runtime_ns, double **out)
{
	*out = NULL;
	if (!s->fine_n || !s->fine_interval_ns)
		return 0;
	double fs = (double)s->fine_interval_ns / 1e9, rt = (double)runtime_ns / 1e9;
	size_t nf = fine_count(s, runtime_ns);
	double *bw = malloc((nf ? nf : 1) * sizeof(*bw));
	if (!bw)
		return -1;
	size_t k = 0;
	for (size_t i = 0; i < nf; i++) {
		double len = interval_sample_len(i, nf, fs, nf < s->fine_n ? rt : 0);
		if (len <= 0)
			break;
		bw[k++] = (double)s->fine_bytes[i] / len;
	}
	*out = bw;
	return (long)k;
}

cJSON *resultset_cliff_to_json(const struct series *s, uint64_t runtime_ns)
{
	double *bw, *fbw = NULL, med;
	long n = cliff_bw_series(s, runtime_ns, &bw);
	long nf = n >= 2 ? fine_bw(s, runtime_ns, &fbw) : 0;
	cJSON *o = NULL, *st, *pa;
	struct plateaus pl;
	double iv = (double)s->interval_ns;

	if (n < 2 || nf < 0 ||
	    plateau_fit_head(bw, (size_t)n, iv / 1e9, fbw, (size_t)nf,
			     (double)s->fine_interval_ns / 1e9, false, &pl) < 0 || pl.n == 0)
		goto out;
	if (cliff_median(bw, (size_t)n, &med) < 0)
		goto out;
	/* where the first drop begins: the cliff's plateau, else the second */
	size_t bp = pl.cliff ? pl.cliff_at : pl.n > 1 ? 1 : pl.n;
	size_t brk = bp < pl.n ? pl.p[bp].first : (size_t)n;
	double brk_ns = bp < pl.n ? pl.p[bp].start_s * 1e9 : (double)n * iv;
	double before = 0;
	for (size_t k = 0; k < bp; k++)
		before += pl.p[k].bytes;
	/* the lower level: the last plateau, or the one before a slower
	 * tail (plateau_levels_rule) */
	const struct plateau *lower = &pl.p[pl.cliff ? pl.low : pl.n - 1];
	o = cJSON_CreateObject();
	if (!o || !cJSON_AddBoolToObject(o, "found", pl.cliff) ||
	    !add_num(o, "samples", (double)n) || !add_num(o, "interval_ns", iv) ||
	    !add_num(o, "break_index", (double)brk) ||
	    !add_num(o, "break_ns", brk_ns) ||
	    (pl.head && !cJSON_AddBoolToObject(o, "head_from_fine", true)) ||
	    (pl.window > 1 && !add_num(o, "window_intervals", (double)pl.window)) ||
	    !add_num(o, "before_bytes", before) ||
	    !add_num(o, "level1_bw_bytes_s", pl.p[pl.cliff ? pl.ref : 0].level) ||
	    !add_num(o, "level2_bw_bytes_s", lower->level) ||
	    !add_num(o, "drop_pct", pl.cliff ? pl.drop * 100.0 : 0) ||
	    !add_num(o, "median_bw_bytes_s", med) ||
	    (!pl.cliff && pl.why_not &&
	     !cJSON_AddStringToObject(o, "why_not", pl.why_not)) ||
	    !(pa = cJSON_AddArrayToObject(o, "plateaus")) ||
	    !(st = cJSON_AddArrayToObject(o, "stalls")))
		goto err;
	for (size_t k = 0; k < pl.n; k++)
		if (!cJSON_AddItemToArray(pa, plateau_json(&pl.p[k], iv)))
			goto err;
	for (long i = 0; i < n; i++) {
		if (bw[i] >= PLATEAU_STALL * med)
			continue;
		if (!cJSON_AddItemToArray(st, cJSON_CreateNumber((double)i)))
			goto err;
	}
	goto out;
err:
	cJSON_Delete(o);
	o = NULL;
out:
	free(bw);
	free(fbw);
	return o;
}

/* ---- summary across repetitions ---- */

static cJSON *summary_to_json(const struct summary *s)
{
	cJSON *o = cJSON_CreateObject();
	if (!o)
		return NULL;
	if (!add_num(o, "n", (double)s->n) || !add_num(o, "mean", s->mean) ||
	    !add_num(o, "stddev", s->stddev) || !add_num(o, "min", s->min) ||
	    !add_num(o, "max", s->max) || !add_num(o, "cv", s->cv) ||
	    !add_num(o, "ci95", s->ci95)) {
		cJSON_Delete(o);
		return NULL;
	}
	return o;
}

/* The metrics of a summary; false when a repetition does not know it. */
static bool m_iops(const struct dir_result *d, double *v) { *v = d->iops; return true; }
static bool m_bw(const struct dir_result *d, double *v) { *v = d->bw_bytes_s; return true; }
static bool m_mean(const struct dir_result *d, double *v) { return dir_lat_mean(d, v); }
static bool m_p50(const struct dir_result *d, double *v)
{
	double m;
	return dir_lat_mean(d, &m) && dir_lat_pct(d, 50, v);
}
static bool m_p99(const struct dir_result *d, double *v)
{
	double m;
	return dir_lat_mean(d, &m) && dir_lat_pct(d, 99, v);
}
static bool m_max(const struct dir_result *d, double *v)
{
	double mn;
	return dir_lat_range(d, &mn, v);
}

static const struct {
	const char *key;
	bool (*get)(const struct dir_result *, double *);
} metrics[] = {
	{ "iops", m_iops }, { "bw_bytes_s", m_bw }, { "lat_mean_ns", m_mean },
	{ "lat_p50_ns", m_p50 }, { "lat_p99_ns", m_p99 }, { "lat_max_ns", m_max },
};

/* The latency of all repetitions of direction d together, into m (whose
 * hist, when set, the caller frees): exact moments (Welford merge) and the
 * merged histogram when measured; else Chan's merge of the reported
 * moments, and the merged histogram when every repetition has one.  A
 * single reported repetition is itself.  false when a repetition lacks the
 * mean latency. */
static bool merge_lat(const struct rep_result *reps, size_t n, int d,
		      struct dir_result *m)
{
	bool exact = true, all_hist = true, all_range = true, all_sd = true;
	double cnt = 0, mean = 0, m2 = 0;

	memset(m, 0, sizeof(*m));
	for (size_t r = 0; r < n; r++)
		if (!(reps[r].dir[d].known & REP_EXACT))
			exact = false;
	if (exact) {
		m->known = REP_EXACT;
		welford_init(&m->lat);
		m->hist = calloc(1, sizeof(*m->hist));
		if (!m->hist)
			return false;
		for (size_t r = 0; r < n; r++) {
			welford_merge(&m->lat, &reps[r].dir[d].lat);
			if (reps[r].dir[d].hist)
				hist_merge(m->hist, reps[r].dir[d].hist);
		}
		return true;
	}
	if (n == 1) {
		*m = reps[0].dir[d];
		m->hist = NULL;
		if (reps[0].dir[d].hist && (m->hist = malloc(sizeof(*m->hist))))
			*m->hist = *reps[0].dir[d].hist;
		return m->known & (REP_LAT | REP_EXACT);
	}
	m->known = REP_LAT;
	for (size_t r = 0; r < n; r++) {
		const struct dir_result *x = &reps[r].dir[d];
		double xmean, xsd, xmin, xmax;
		if (!dir_lat_mean(x, &xmean))
			return false;
		double nx = x->lat_n ? (double)x->lat_n : (double)x->ios;
		if (nx <= 0)
			nx = 1;
		double delta = xmean - mean, tot = cnt + nx;
		mean += delta * nx / tot;
		bool hsd = dir_lat_stddev(x, &xsd);
		m2 += (hsd && nx > 1 ? xsd * xsd * (nx - 1) : 0) + delta * delta * cnt * nx / tot;
		cnt = tot;
		all_sd &= hsd;
		if (dir_lat_range(x, &xmin, &xmax)) {
			if (r == 0 || xmin < m->lat_min_ns)
				m->lat_min_ns = xmin;
			if (r == 0 || xmax > m->lat_max_ns)
				m->lat_max_ns = xmax;
		} else {
			all_range = false;
		}
		if (!x->hist)
			all_hist = false;
	}
	m->lat_mean_ns = mean;
	m->lat_stddev_ns = cnt > 1 ? sqrt(m2 / (cnt - 1)) : 0;
	if (all_range)
		m->known |= REP_LAT_RANGE;
	if (all_sd)
		m->known |= REP_LAT_SD;
	if (all_hist && (m->hist = calloc(1, sizeof(*m->hist))))
		for (size_t r = 0; r < n; r++)
			hist_merge(m->hist, reps[r].dir[d].hist);
	return true;
}

/* A direction is summarised when the first repetition has it; a measured
 * one only when some repetition did IO in it (else there is nothing to
 * summarise), a reported one even without an IO count (published figures
 * give rates only). */
static bool summarised(const struct rep_result *reps, size_t n, int d)
{
	if (!n || !reps[0].dir[d].present)
		return false;
	if (!(reps[0].dir[d].known & REP_EXACT))
		return true;
	for (size_t r = 0; r < n; r++)
		if (reps[r].dir[d].ios)
			return true;
	return false;
}

static cJSON *summary_json(const struct rep_result *reps, size_t n)
{
	cJSON *sum = cJSON_CreateObject(), *merged = cJSON_CreateObject();
	double *x = calloc(n ? n : 1, sizeof(*x));
	struct summary s;

	if (!sum || !merged || !x)
		goto err;
	for (int d = 0; d < DIR__COUNT; d++) {
		if (!summarised(reps, n, d))
			continue;
		cJSON *o = cJSON_AddObjectToObject(sum, dir_name(d));
		if (!o)
			goto err;
		for (size_t k = 0; k < sizeof(metrics) / sizeof(metrics[0]); k++) {
			size_t r;
			for (r = 0; r < n; r++)
				if (!metrics[k].get(&reps[r].dir[d], &x[r]))
					break;
			if (r < n)
				continue; /* a repetition does not know it */
			summary_compute(x, n, &s);
			if (!cJSON_AddItemToObject(o, metrics[k].key, summary_to_json(&s)))
				goto err;
		}
		struct dir_result m;
		if (merge_lat(reps, n, d, &m)) {
			cJSON *lj = lat_json(&m);
			if (lj)
				cJSON_AddItemToObject(merged, dir_name(d), lj);
		}
		free(m.hist);
	}
	cJSON_AddItemToObject(sum, "lat_ns_merged", merged);
	free(x);
	return sum;
err:
	cJSON_Delete(merged);
	cJSON_Delete(sum);
	free(x);
	return NULL;
}

/* ---- the cell file ---- */

static void warnings_add(cJSON *w, const char *msg)
{
	const cJSON *e;

	if (!msg || !*msg)
		return;
	cJSON_ArrayForEach(e, w)
		if (cJSON_IsString(e) && !strcmp(e->valuestring, msg))
			return;
	cJSON_AddItemToArray(w, cJSON_CreateString(msg));
}

cJSON *resultset_cell_to_json(const struct cell *c, const struct cell_outcome *o)
{
	cJSON *j = cJSON_CreateObject(), *w, *ra;

	if (!j)
		return NULL;
	cJSON_AddNumberToObject(j, "schema_version", RESULTSET_SCHEMA_VERSION);
	cJSON_AddNumberToObject(j, "id", c->id);
	cJSON_AddStringToObject(j, "status", o->error ? "failed" : "ok");
	jsonw_str(j, "error", o->error);
	if (!cJSON_AddItemToObject(j, "params", cell_to_json(c)))
		goto err;
	jsonw_str(j, "started_at", o->started_at);
	jsonw_str(j, "finished_at", o->finished_at);
	/* what every lat_ns of the cell holds (the runner: total) */
	cJSON_AddStringToObject(j, "latency_kind",
				lat_kind_name(o->nreps ? o->reps[0].lat_kind : LAT_TOTAL));
	w = cJSON_AddArrayToObject(j, "warnings");
	ra = cJSON_AddArrayToObject(j, "repetitions");
	if (!w || !ra)
		goto err;
	for (size_t i = 0; i < o->nwarnings; i++)
		warnings_add(w, o->warnings[i]);
	for (size_t r = 0; r < o->nreps; r++) {
		if (!cJSON_AddItemToArray(ra, resultset_rep_to_json(&o->reps[r], (int)r + 1)))
			goto err;
		warnings_add(w, o->reps[r].warning);
	}
	if (!cJSON_AddItemToObject(j, "summary", summary_json(o->reps, o->nreps)) ||
	    (o->load_sweep &&
	     !cJSON_AddItemToObject(j, "load_sweep", cJSON_Duplicate(o->load_sweep, true))) ||
	    (o->source && !cJSON_AddItemToObject(j, "source", cJSON_Duplicate(o->source, true))))
		goto err;
	return j;
err:
	cJSON_Delete(j);
	return NULL;
}
