/*
 * table.c - the words and numbers of report tables: an entry's IOPS, MB/s
 * and latency, pattern words, and number formatting: three significant
 * figures with thousands separators (as the seed write-ups print them),
 * latency units chosen per table, ratios and confidence intervals.  The
 * bottom of model/: it calls no other file of the room.
 */
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <string.h>

#include "util/units.h"
#include "report.h"
#include "suite/keys.h"

void fmt_iops(double v, char *buf, size_t len)
{
	if (isfinite(v) && fabs(v) >= 9.995 && fabs(v) < 99.95)
		snprintf(buf, len, "%.0f", v);
	else
		fmt_sig3(v, buf, len);
}

void fmt_sig3(double v, char *buf, size_t len)
{
	char tmp[64];

	if (!isfinite(v)) {
		snprintf(buf, len, "–");
		return;
	}
	if (v == 0) {
		snprintf(buf, len, "0");
		return;
	}
	double a = fabs(v);
	if (a >= 1000) {
		int digits = (int)floor(log10(a)) + 1;
		double q = pow(10, digits - 3);
		double r = round(v / q) * q;
		snprintf(tmp, sizeof(tmp), "%.0f", r);
	} else if (a >= 99.95) {
		snprintf(tmp, sizeof(tmp), "%.0f", v);
	} else if (a >= 9.995) {
		snprintf(tmp, sizeof(tmp), "%.1f", v);
	} else if (a >= 0.9995) {
		snprintf(tmp, sizeof(tmp), "%.2f", v);
	} else {
		int dec = 2 - (int)floor(log10(a));
		if (dec > 12)
			dec = 12;
		snprintf(tmp, sizeof(tmp), "%.*f", dec, v);
	}
	units_group_digits(tmp, buf, len);
}

/* How awkward a number reads in a table: 0.00273 or 348,000 are worse than
 * 2.73 or 348. */
static int awkward(double v)
{
	if (!(v > 0))
		return 0;
	if (v < 0.01)
		return 2;
	if (v < 1 || v >= 10000)
		return 1;
	return 0;
}

const char *fmt_lat_unit(const double *ns, size_t n, double *div)
{
	int us = 0, ms = 0;

	/* the unit under which fewer numbers read awkwardly; ms on a tie, as
	 * the seed write-ups print latency */
	for (size_t i = 0; i < n; i++) {
		us += awkward(ns[i] / 1e3);
		ms += awkward(ns[i] / 1e6);
	}
	if (ms <= us) {
		*div = 1e6;
		return "ms";
	}
	*div = 1e3;
	return "µs";
}

void fmt_ratio(double r, char *buf, size_t len)
{
	char t[48];

	if (!isfinite(r) || r <= 0) {
		snprintf(buf, len, "–");
		return;
	}
	if (r >= 100)
		fmt_sig3(r, t, sizeof(t));
	else if (r >= 10)
		snprintf(t, sizeof(t), "%.1f", r);
	else
		snprintf(t, sizeof(t), "%.2f", r);
	snprintf(buf, len, "%sx", t);
}

bool fmt_show_ci = true;

void fmt_stat(double mean, double ci95, int n, double div, char *buf, size_t len)
{
	char v[48];

	fmt_sig3(mean / div, v, sizeof(v));
	/* a ± as wide as the value reads as noise: flag the number
	 * (the Warnings section says why) instead of printing "± 101 %" */
	if (fmt_show_ci && n >= 2 && ci95 > 0 && mean > 0 && ci95 >= mean) {
		snprintf(buf, len, "%s †", v);
	} else if (fmt_show_ci && n >= 2 && ci95 > 0 && mean > 0) {
		double pct = ci95 / mean * 100;
		snprintf(buf, len, "%s ± %.*f %%", v, pct < 10 ? 1 : 0, pct);
	} else {
		snprintf(buf, len, "%s", v);
	}
}

void fmt_bs(uint64_t bs, char *buf, size_t len)
{
	if (bs && bs % (1ull << 30) == 0)
		snprintf(buf, len, "%lluG", (unsigned long long)(bs >> 30));
	else if (bs && bs % (1ull << 20) == 0)
		snprintf(buf, len, "%lluM", (unsigned long long)(bs >> 20));
	else if (bs && bs % 1024 == 0)
		snprintf(buf, len, "%lluK", (unsigned long long)(bs >> 10));
	else
		snprintf(buf, len, "%llu", (unsigned long long)bs);
}

const char *report_pattern_words(enum pattern p, bool plural)
{
	static const struct { const char *one, *many; } w[PAT__COUNT] = {
		[PAT_READ] = { "sequential read", "sequential reads" },
		[PAT_WRITE] = { "sequential write", "sequential writes" },
		[PAT_RANDREAD] = { "random read", "random reads" },
		[PAT_RANDWRITE] = { "random write", "random writes" },
		[PAT_READWRITE] = { "sequential read/write", "sequential mixed reads and writes" },
		[PAT_RANDRW] = { "random read/write", "random mixed reads and writes" },
		[PAT_REWRITE] = { "sequential rewrite", "sequential rewrites" },
	};
	if ((unsigned)p >= PAT__COUNT || !w[p].one)
		return pattern_name(p);
	return plural ? w[p].many : w[p].one;
}

const char *report_cell_words(const struct rset_cell *c, bool plural)
{
	/* an import that could not say sequential or random:
	 * the direction it did, and that the rest is not known */
	static const struct { const char *one, *many; } guess[] = {
		{ "read, pattern not recorded", "reads, pattern not recorded" },
		{ "write, pattern not recorded", "writes, pattern not recorded" },
		{ "read/write, pattern not recorded", "reads and writes, pattern not recorded" },
	};
	enum pattern p = report_cell_pattern(c);
	if (!(c->inferred & (1ULL << K_PATTERN)))
		return report_pattern_words(p, plural);
	int k = pattern_is_mixed(p) ? 2 : pattern_writes(p) ? 1 : 0;
	return plural ? guess[k].many : guess[k].one;
}

enum pattern report_cell_pattern(const struct rset_cell *c)
{
	enum pattern p = c->cell.pattern;
	bool rnd = p == PAT_RANDRW;

	if (!pattern_is_mixed(p) || (c->cell.rwmixread > 0 && c->cell.rwmixread < 100))
		return p;
	if (c->cell.rwmixread == 0)
		return rnd ? PAT_RANDWRITE : PAT_WRITE;
	return rnd ? PAT_RANDREAD : PAT_READ;
}

/* The entry's mean IOPS (bw: bytes/s), its directions together. */
static double table_dir_sum(const struct rentry *e, bool bw)
{
	double s = 0;
	for (int k = 0; k < DIR__COUNT; k++) {
		const struct rset_dir *d = &e->cell->dir[k];
		if (d->present)
			s += bw ? d->bw.mean : d->iops.mean;
	}
	return s;
}

double rentry_iops(const struct rentry *e)
{
	return table_dir_sum(e, false);
}

double rentry_bw(const struct rentry *e)
{
	return table_dir_sum(e, true);
}

/*
 * The ratio a/b of two entries' IOPS (bw: MB/s) with its 95 % confidence
 * interval, from the stored repetitions through ratio_ci (model/ratio.h),
 * the statistic compare and history judge by: Welch's t on the logs of
 * the repetitions.  Each ratio at its own 95 %, not Bonferroni over the
 * report as compare does: compare's verdict answers "did anything
 * change?" for the whole set; a report states each ratio by itself, and at
 * 3 repetitions a correction over 40 workloads widens every interval so
 * far (t of about 9 at 2-3 degrees of freedom) that an 87x gap whose every
 * repetition is 48x apart reads as a tie.  ok is false when a side has
 * fewer than two repetitions (no interval).
 */
void rentry_ratio(const struct rentry *a, const struct rentry *b, bool bw,
		  struct ratio_ci *out)
{
	const struct rset_cell *ca = a->cell, *cb = b->cell;
	ratio_ci(bw ? cb->rep_bw : cb->rep_iops, cb->nrepv,
		 bw ? ca->rep_bw : ca->rep_iops, ca->nrepv, RENTRY_ALPHA, out);
}

bool rentry_differs(const struct rentry *a, const struct rentry *b, bool bw)
{
	struct ratio_ci c;
	rentry_ratio(a, b, bw, &c);
	return c.ok && (c.lo > 1 || c.hi < 1);
}

void report_dir_lat(const struct rset_dir *d, bool p99, struct rset_stat *out)
{
	const struct rset_stat *st = p99 ? &d->lat_p99 : &d->lat_mean;
	double all = p99 ? d->lat_p99_all : d->lat_mean_all;

	memset(out, 0, sizeof(*out));
	if (!st->n || !isfinite(all))
		return;
	double rel = st->mean > 0 ? all / st->mean : 0;
	*out = *st;
	out->mean = all;
	out->stddev = st->stddev * rel;
	out->ci95 = st->ci95 * rel;
}

void report_cell_lat(const struct rset_cell *c, bool p99, struct rset_stat *out)
{
	double s = 0, var = 0, ci2 = 0, w = 0;
	int n = 0;

	memset(out, 0, sizeof(*out));
	for (int k = 0; k < DIR__COUNT; k++) {
		const struct rset_dir *d = &c->dir[k];
		struct rset_stat l;
		report_dir_lat(d, p99, &l);
		if (!d->present || !l.n)
			continue;
		/* weighted by IOs: the mean of every IO of the cell, as `run`
		 * prints it */
		double wt = d->ios > 0 ? (double)d->ios : d->iops.mean > 0 ? d->iops.mean : 1;
		s += l.mean * wt;
		var += pow(l.stddev * wt, 2);
		ci2 += pow(l.ci95 * wt, 2);
		w += wt;
		n = n ? (l.n < n ? l.n : n) : l.n;
	}
	if (!n || w <= 0)
		return;
	out->n = n;
	out->mean = s / w;
	out->stddev = sqrt(var) / w;
	out->ci95 = sqrt(ci2) / w;
}

double rentry_lat(const struct rentry *e)
{
	struct rset_stat l;
	report_cell_lat(e->cell, false, &l);
	return l.n ? l.mean : NAN;
}

char *fmt_str(const char *fmt, ...)
{
	struct sbuf b = SBUF_INIT;
	va_list ap;

	va_start(ap, fmt);
	sbuf_vaddf(&b, fmt, ap);
	va_end(ap);
	return sbuf_detach(&b);
}

bool report_keys_used(const struct report *r, const int *keys, int n)
{
	for (int k = 0; k < n; k++)
		if (!cell_keys[keys[k]].method_if_set)
			return true;
	for (size_t s = 0; s < r->nsets; s++)
		for (size_t i = 0; i < r->sets[s].ncells; i++)
			for (int k = 0; k < n; k++)
				if (rset_cell_recorded(&r->sets[s].cells[i], keys[k]))
					return true;
	return false;
}
