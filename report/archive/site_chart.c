/*
 * site_chart.c - the trend chart of one series on a device page: value
 * against date with 95 % CI error bars, change points as red lines with
 * their size, environment changes as dotted lines with what changed
 * ("kernel 6.1 → 6.6").  As in chart.c, the .gp script holds only our own
 * constants; every string from a result set is a quoted field of a .dat
 * file (ESC_GPDATA), which gnuplot never substitutes.
 */
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

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
		  "set xdata time\nset timefmt '%%s'\nset format x '%s'\n"
		  "set xtics rotate by -30 font ',9'\n"
		  "set format y '%%.1s%%c'\n"
		  "set ylabel '%s'\n"
		  "set xrange ['%.0f':'%.0f']\nset yrange [0:%.17g]\n"
		  "set lmargin 12\nset rmargin 3\nset bmargin 5\n",
		  file, file,
		  /* the date's resolution follows the span: runs of one day
		   * differ by the hour, an archive of years by the month */
		  t1 - t0 < 3 * 86400.0 ? "%m-%d %H:%M" : t1 - t0 < 400 * 86400.0 ? "%Y-%m-%d" : "%Y-%m",
		  arc_metric_units[r->metric], t0 - pad, t1 + pad, top);
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
