/*
 * site_chart.c - the trend chart of one series on a device page: value
 * against date with 95 % CI error bars, change points as red lines with
 * their size, environment changes as dotted lines with what changed
 * ("kernel 6.1 → 6.6").  As in charts/, the .gp script holds only our own
 * constants; every string from a result set is a quoted field of a .dat
 * file (ESC_GPDATA), which gnuplot never substitutes.
 */
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <stdbool.h>
#include <string.h>
#include <time.h>

#include "charts/chart.h"  /* gp_title() */
#include "render/escape.h"
#include "site.h"

static double epoch_of(const char *iso)
{
	struct tm tm = { 0 };
	int y, mo, d, h = 0, mi = 0, s = 0;
	if (sscanf(iso, "%d-%d-%dT%d:%d:%d", &y, &mo, &d, &h, &mi, &s) < 3)
		return NAN;
	tm.tm_year = y - 1900;
	tm.tm_mon = mo - 1;
	tm.tm_mday = d;
	tm.tm_hour = h;
	tm.tm_min = mi;
	tm.tm_sec = s;
	return (double)timegm(&tm);
}

/*
 * The date axis: ticks we place and label ourselves, so no two labels are
 * alike (gnuplot's own ticks, every 10 s under a minute-resolution format,
 * printed one minute five times) and none lies outside the data.  The
 * step is the smallest "nice" one that gives at most SITE_MAX_TICKS ticks
 * over [t0, t1]; the label shows the step's resolution (seconds, minutes,
 * days, months), the date once in the axis label when every tick is on one
 * day.  Labels are our own digits and punctuation: safe in the script.
 */
#define SITE_MAX_TICKS 6
static void date_axis(struct sbuf *gp, double t0, double t1)
{
	static const struct { double s; int months; const char *fmt; } steps[] = {
		{ 1, 0, "%H:%M:%S" }, { 5, 0, "%H:%M:%S" }, { 10, 0, "%H:%M:%S" },
		{ 15, 0, "%H:%M:%S" }, { 30, 0, "%H:%M:%S" }, { 60, 0, "%H:%M" },
		{ 120, 0, "%H:%M" }, { 300, 0, "%H:%M" }, { 600, 0, "%H:%M" },
		{ 900, 0, "%H:%M" }, { 1800, 0, "%H:%M" }, { 3600, 0, "%H:%M" },
		{ 7200, 0, "%H:%M" }, { 10800, 0, "%H:%M" }, { 21600, 0, "%H:%M" },
		{ 43200, 0, "%H:%M" }, { 86400, 0, "%Y-%m-%d" }, { 2 * 86400, 0, "%Y-%m-%d" },
		{ 7 * 86400, 0, "%Y-%m-%d" }, { 14 * 86400, 0, "%Y-%m-%d" },
		{ 0, 1, "%Y-%m" }, { 0, 2, "%Y-%m" }, { 0, 3, "%Y-%m" }, { 0, 6, "%Y-%m" },
		{ 0, 12, "%Y" }, { 0, 24, "%Y" }, { 0, 60, "%Y" }, { 0, 120, "%Y" },
	};
	size_t ns = sizeof(steps) / sizeof(steps[0]), k = 0;
	double span = t1 - t0;
	for (; k + 1 < ns; k++) {
		double st = steps[k].s ? steps[k].s : steps[k].months * 30.44 * 86400;
		if (span / st < SITE_MAX_TICKS)
			break;
	}
	double tick[SITE_MAX_TICKS + 2];
	size_t nt = 0;
	if (!(span > 0)) {
		tick[nt++] = t0;
	} else if (steps[k].s) {
		for (double t = ceil(t0 / steps[k].s) * steps[k].s; t <= t1 && nt < SITE_MAX_TICKS + 2;
		     t += steps[k].s)
			tick[nt++] = t;
	} else {
		time_t tt = (time_t)t0;
		struct tm tm;
		gmtime_r(&tt, &tm);
		int m = tm.tm_year * 12 + tm.tm_mon, step = steps[k].months;
		m = (m + step - 1) / step * step;  /* the first aligned month at or after t0 */
		for (; nt < SITE_MAX_TICKS + 2; m += step) {
			struct tm b = { .tm_year = m / 12, .tm_mon = m % 12, .tm_mday = 1 };
			double t = (double)timegm(&b);
			if (t < t0)
				continue;
			if (t > t1)
				break;
			tick[nt++] = t;
		}
	}
	if (!nt)
		tick[nt++] = t0;
	/* within a day, the time alone and the date once in the axis label */
	char d0[16], d1[16], lab[40], prev[40] = "";
	time_t a = (time_t)t0, b = (time_t)t1;
	struct tm ta, tb;
	gmtime_r(&a, &ta);
	gmtime_r(&b, &tb);
	strftime(d0, sizeof(d0), "%Y-%m-%d", &ta);
	strftime(d1, sizeof(d1), "%Y-%m-%d", &tb);
	bool one_day = !strcmp(d0, d1), sub_day = steps[k].s && steps[k].s < 86400;
	char fmt[32];
	snprintf(fmt, sizeof(fmt), "%s%s", sub_day && !one_day ? "%m-%d " : "", steps[k].fmt);
	sbuf_adds(gp, "set xtics (");
	for (size_t i = 0, w = 0; i < nt; i++) {
		time_t tt = (time_t)tick[i];
		struct tm tm;
		gmtime_r(&tt, &tm);
		strftime(lab, sizeof(lab), fmt, &tm);
		if (!strcmp(lab, prev))
			continue;   /* never two alike */
		snprintf(prev, sizeof(prev), "%s", lab);
		sbuf_addf(gp, "%s'%s' %.0f", w++ ? ", " : "", lab, tick[i]);
	}
	sbuf_adds(gp, ") font ',9'\n");
	if (sub_day && one_day)
		sbuf_addf(gp, "set xlabel 'time of the set (UTC) on %s'\n", d0);
	else
		sbuf_adds(gp, "set xlabel 'date of the set (UTC)'\n");
}

int site_chart_write(const struct history *h, size_t si, site_put_fn put, void *ctx,
		     const char *rel, const char *file, struct sbuf *all)
{
	const struct hist_series *r = &h->series[si];
	struct sbuf dat = SBUF_INIT, cp = SBUF_INIT, env = SBUF_INIT, envr = SBUF_INIT, gp = SBUF_INIT;
	double ymax = 0, t0 = INFINITY, t1 = -INFINITY;
	int ret = -1;

	for (size_t k = 0; k < r->n; k++) {
		const struct hist_point *p = &r->pts[k];
		double t = epoch_of(h->sets[p->set].date);
		if (!isfinite(t))
			continue;
		double hi = p->v.mean + p->v.ci95;
		ymax = hi > ymax ? hi : ymax;
		t0 = t < t0 ? t : t0;
		t1 = t > t1 ? t : t1;
		sbuf_addf(&dat, "%.0f %.17g %.17g %.17g\n", t, p->v.mean, p->v.mean - p->v.ci95, hi);
	}
	if (!dat.len) {
		ret = 1;   /* no dated point: no chart */
		goto out;
	}
	if (!(ymax > 0))
		ymax = 1;
	/* the data keep the lower 65 %; change sizes and environment changes
	 * are written in the band above, staggered so neighbours do not
	 * overlap, left of their line in the right part of the chart */
	double top = ymax * 1.55, pad = t1 > t0 ? (t1 - t0) * 0.03 : 86400;
	int nenv = 0;
	for (size_t k = 0; k < r->n; k++) {
		const struct hist_point *p = &r->pts[k];
		double t = epoch_of(h->sets[p->set].date);
		if (!isfinite(t))
			continue;
		if (p->cp.kind != CP_NONE) {
			char lab[64];
			snprintf(lab, sizeof(lab), "%+.0f %%", p->cp.change_pct);
			sbuf_addf(&cp, "%.0f %.17g ", t, ymax * 1.12);
			escape_append(&cp, lab, ESC_GPDATA);
			sbuf_addc(&cp, '\n');
		}
		if (p->nenv_changes) {
			struct sbuf lab = SBUF_INIT;
			bool right = t1 > t0 && (t - t0) / (t1 - t0) > 0.55;
			for (size_t e = 0; e < p->nenv_changes; e++)
				sbuf_addf(&lab, "%s%s", e ? "; " : "", p->env_changes[e]);
			struct sbuf *dst = right ? &envr : &env;
			sbuf_addf(dst, "%.0f %.17g ", t, top * (0.95 - 0.07 * (nenv++ % 4)));
			escape_append(dst, sbuf_str(&lab), ESC_GPDATA);
			sbuf_addc(dst, '\n');
			sbuf_release(&lab);
		}
	}
	sbuf_addf(&gp, "# written by iomatrix site; re-plot with: gnuplot %s.gp\n"
		  "set encoding utf8\n"
		  "set terminal svg size 800,360 fixed noenhanced font 'DejaVu Sans,11' "
		  "background rgb 'white'\n"
		  "set output '%s.svg'\n"
		  "set border 3 lc rgb '#555555'\nset tics nomirror\n"
		  "set grid ytics lc rgb '#dddddd' lt 1\nset key off\n"
		  "set xdata time\nset timefmt '%%s'\n"
		  "set format y '%%.1s%%c'\n"
		  "set ylabel '%s'\n"
		  "set xrange ['%.0f':'%.0f']\nset yrange [0:%.17g]\n"
		  "set lmargin 12\nset rmargin 8\nset bmargin 4\n",
		  file, file, arc_metric_units[r->metric], t0 - pad, t1 + pad, top);
	date_axis(&gp, t0, t1);
	/* the title in the image: the workload, the metric and the machine,
	 * through the report's title whitelist (no gnuplot metacharacter) */
	char *who = history_ident_name(h, r->ident);
	struct sbuf ti = SBUF_INIT;
	sbuf_addf(&ti, "%s: %s over time, %s", r->workload ? r->workload : r->label,
		  arc_metric_units[r->metric], who ? who : "");
	free(who);
	gp_title(&gp, "set title", sbuf_str(&ti));
	sbuf_release(&ti);
	sbuf_addf(&gp, "plot '%s.dat' using 1:2 with lines lc rgb '#9ec9e2' lw 1.5, \\\n"
		  "     '%s.dat' using 1:2:3:4 with yerrorbars pt 7 ps 0.5 lc rgb '#0072B2'",
		  file, file);
	if (cp.len)
		sbuf_addf(&gp, ", \\\n     '%s-cp.dat' using 1:(0):(0):(%.17g) with vectors nohead "
			  "lc rgb '#D55E00' lw 2, \\\n     '%s-cp.dat' using 1:2:3 with labels left "
			  "offset 0.4,0 tc rgb '#D55E00' font ',10'", file, ymax * 1.2, file);
	for (int side = 0; side < 2; side++) {
		const struct sbuf *e = side ? &envr : &env;
		if (!e->len)
			continue;
		sbuf_addf(&gp, ", \\\n     '%s-env%s.dat' using 1:(0):(0):2 with vectors nohead "
			  "dt 3 lc rgb '#777777', \\\n     '%s-env%s.dat' using 1:2:3 with labels %s "
			  "offset %s,0.3 tc rgb '#333333' font ',9'", file, side ? "r" : "", file,
			  side ? "r" : "", side ? "right" : "left", side ? "-0.4" : "0.4");
	}
	sbuf_adds(&gp, "\nset output\n");

	char name[300];
	snprintf(name, sizeof(name), "%s.dat", file);
	if (put(ctx, name, &dat) < 0)
		goto out;
	snprintf(name, sizeof(name), "%s-cp.dat", file);
	if (cp.len && put(ctx, name, &cp) < 0)
		goto out;
	snprintf(name, sizeof(name), "%s-env.dat", file);
	if (env.len && put(ctx, name, &env) < 0)
		goto out;
	snprintf(name, sizeof(name), "%s-envr.dat", file);
	if (envr.len && put(ctx, name, &envr) < 0)
		goto out;
	snprintf(name, sizeof(name), "%s.gp", file);
	if (put(ctx, name, &gp) < 0)
		goto out;
	/* one gnuplot for the whole site, started in SITE/.cache: cd into the
	 * device's folder (slugs are [a-z0-9._-]: safe in a quoted gnuplot
	 * string) and back */
	sbuf_addf(all, "cd '../%s'\nload '%s.gp'\nreset\ncd '../../.cache'\n", rel, file);
	ret = 0;
out:
	sbuf_release(&dat);
	sbuf_release(&cp);
	sbuf_release(&env);
	sbuf_release(&envr);
	sbuf_release(&gp);
	return ret;
}
