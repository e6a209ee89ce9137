/*
 * ssd_chart.c - the SNIA PTS charts: convergence of each tracking variable
 * over the rounds, the measurement window with its average, the band of
 * the range rule and the least-squares line, IOPS against block size per R/W
 * mix, and throughput over time with the write cliff marked.  Data and
 * labels go into .dat files; scripts hold only our constants and numbers.
 */
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "chart.h"
#include "stats/interval.h"
#include "render/escape.h"
#include "model/ssd.h"

static const char *metric_axis(const char *m)
{
	return !strcmp(m, "bw_bytes_s") ? "MB/s" :
	       !strcmp(m, "lat_mean_ns") ? "mean latency (us)" : "IOPS";
}

/* Log y when the lines are more than 20x apart (4K writes vs 1M reads);
 * the axis label then says so. */
static void y_axis(struct sbuf *s, const char *label, double mn, double mx)
{
	if (mn > 0 && mx / mn > 20)
		sbuf_addf(s, "set ylabel '%s, log scale'\nset logscale y 10\n"
			  "set yrange [%g:%g]\nset format y '%%g'\n", label, mn / 2,
			  mx * 2);
	else
		sbuf_addf(s, "set ylabel '%s'\nset yrange [0:*]\n", label);
}

/* One value of a .dat row: " V" widening [*mn, *mx], or " ?" (gnuplot's
 * missing value) when v is not a positive number. */
static void dat_value(struct sbuf *dat, double v, double *mn, double *mx)
{
	if (isfinite(v) && v > 0) {
		sbuf_addf(dat, " %.6g", v);
		*mn = v < *mn ? v : *mn;
		*mx = v > *mx ? v : *mx;
	} else {
		sbuf_adds(dat, " ?");
	}
}

static int convergence(const struct report *r, const struct ssd_dev *d,
		       struct chart_sink *k)
{
	struct sbuf dat = SBUF_INIT, setup = SBUF_INIT;
	char file[64], title[256], plot[512], yl[64];
	double div = ssd_metric_div(d->steady.metric), mn = INFINITY, mx = 0;
	size_t nr = 0;
	int rc;

	for (size_t i = 0; i < d->nt; i++)
		nr = d->t[i].n > nr ? d->t[i].n : nr;
	if (!d->nt || !nr)
		return 0;
	escape_append(&dat, "round", ESC_GPDATA);
	for (size_t i = 0; i < d->nt; i++) {
		sbuf_addc(&dat, ' ');
		escape_append(&dat, d->t[i].label, ESC_GPDATA);
	}
	sbuf_addc(&dat, '\n');
	for (size_t n = 0; n < nr; n++) {
		sbuf_addf(&dat, "%zu", n + 1);
		for (size_t i = 0; i < d->nt; i++) {
			dat_value(&dat, n < d->t[i].n ? d->t[i].values[n] / div : NAN,
				  &mn, &mx);
		}
		sbuf_addc(&dat, '\n');
	}
	snprintf(yl, sizeof(yl), "%s", metric_axis(d->steady.metric));
	sbuf_addf(&setup, "set xlabel 'round'\nset xrange [0.5:%zu.5]\n"
		  "set xtics 1\nset key outside right top\n", nr);
	if (d->steady.steady_round > 0)
		sbuf_addf(&setup, "set arrow from %d, graph 0 to %d, graph 1 nohead "
			  "dt 2 lc rgb '#2a7d2a'\nset label 'steady' at %d, graph 0.96 "
			  "offset 0.5,0 tc rgb '#2a7d2a'\n", d->steady.steady_round,
			  d->steady.steady_round, d->steady.steady_round);
	y_axis(&setup, yl, mn, mx);
	snprintf(file, sizeof(file), "steady-%zu-convergence", d->dev + 1);
	snprintf(plot, sizeof(plot), "plot for [i=2:%zu] '%s.dat' using 1:i with "
		 "linespoints lw 2 pt 7 ps 0.8 lc rgb C[(i-2)%%8+1] title columnhead(i)\n",
		 d->nt + 1, file);
	snprintf(title, sizeof(title), "Steady-state convergence: %s of each tracking "
		 "variable per round, %s", metric_axis(d->steady.metric),
		 r->devs[d->dev].display);
	rc = chart_sink_add(k, file, title, "steady", d->dev, -1, 420, &dat,
			    sbuf_str(&setup), plot);
	sbuf_release(&dat);
	sbuf_release(&setup);
	return rc;
}

/*
 * The final window of one tracking variable: its values, average and
 * least-squares line, and the band of the range rule.  A range of at most
 * R % of the average (max - min <= R %) keeps the points within a band
 * R % wide, avg +- R/2 %: the band is labelled by that rule and its
 * half-width, never as "+-R %".
 */
static int window_chart(const struct report *r, const struct ssd_dev *d,
			size_t ti, struct chart_sink *k)
{
	const struct ssd_track *t = &d->t[ti];
	const struct steady_verdict *v = &t->last;
	struct sbuf dat = SBUF_INIT, setup = SBUF_INIT;
	char file[64], title[300], plot[1024], vw[64];
	double div = ssd_metric_div(d->steady.metric), h = d->steady.range_pct / 200;
	size_t w = d->rule.window;
	if (t->n < 2 || !isfinite(v->avg))
		return 0;
	size_t from = t->n > w ? t->n - w : 0;
	double avg = v->avg / div, tbar = (double)(from + 1 + t->n) / 2.0;
	sbuf_adds(&dat, "\"round\" \"value\" \"avg\" \"lo\" \"hi\" \"fit\"\n");
	for (size_t i = from; i < t->n; i++) {
		double rnd = (double)(i + 1);
		sbuf_addf(&dat, "%.0f %.6g %.6g %.6g %.6g %.6g\n", rnd,
			  t->values[i] / div, avg, avg * (1 - h), avg * (1 + h),
			  avg + v->slope / div * (rnd - tbar));
	}
	/* the band with room around it, or all the points when a far-off
	 * round (the reason it is not steady) lies outside */
	double lo = avg * (0.9 - h), hi = avg * (1.1 + h);
	for (size_t i = from; i < t->n; i++) {
		double x = t->values[i] / div;
		lo = x * 0.95 < lo ? x * 0.95 : lo;
		hi = x * 1.05 > hi ? x * 1.05 : hi;
	}
	sbuf_addf(&setup, "set xlabel 'round'\nset ylabel '%s'\nset xtics 1\n"
		  "set xrange [%zu.5:%zu.5]\nset yrange [%g:%g]\n"
		  "set key outside right top\n", metric_axis(d->steady.metric), from,
		  t->n, lo > 0 ? lo : 0, hi);
	snprintf(file, sizeof(file), "steady-%zu-window-%zu", d->dev + 1, ti + 1);
	snprintf(plot, sizeof(plot),
		 "plot '%s.dat' using 1:4:5 with filledcurves fc rgb '#d7ecd7' "
		 "title 'avg +-%g %% (range limit: max - min <= %g %% of avg)', "
		 "'' using 1:3 with lines lw 2 lc rgb '#333333' "
		 "title 'window average', '' using 1:6 with lines lw 2 dt 2 "
		 "lc rgb C[2] title 'least-squares fit', '' using 1:2 with "
		 "linespoints lw 2 pt 7 ps 1 lc rgb C[1] title 'measured'\n", file,
		 d->steady.range_pct / 2, d->steady.range_pct);
	if (!v->judged)
		snprintf(vw, sizeof(vw), "not judged");
	else
		snprintf(vw, sizeof(vw), "%s", v->steady ? "steady" : "not steady");
	snprintf(title, sizeof(title), "%s window (rounds %zu-%zu, %s): %s, %s",
		 (size_t)t->first_steady_round == t->n || !t->first_steady_round ?
		 "Measurement" : "Final", from + 1, t->n, vw, t->label,
		 r->devs[d->dev].display);
	int rc = chart_sink_add(k, file, title, "steady", d->dev, -1, 380, &dat,
				sbuf_str(&setup), plot);
	sbuf_release(&dat);
	sbuf_release(&setup);
	return rc;
}

/* IOPS against block size, one line per R/W mix (the PTS 2D plot). */
static int pts_chart(const struct report *r, const struct ssd_pts *p,
		     struct chart_sink *k)
{
	struct sbuf dat = SBUF_INIT, setup = SBUF_INIT;
	char file[64], title[256], plot[512], name[32];
	double mn = INFINITY, mx = 0;
	if (p->nmix < 1 || p->nbs < 2)
		return 0;
	escape_append(&dat, "bs_kib", ESC_GPDATA);
	for (int i = 0; i < p->nmix; i++) {
		snprintf(name, sizeof(name), "%d/%d", (int)p->mix[i], 100 - (int)p->mix[i]);
		sbuf_addc(&dat, ' ');
		escape_append(&dat, name, ESC_GPDATA);
	}
	sbuf_addc(&dat, '\n');
	for (int j = p->nbs - 1; j >= 0; j--) {
		sbuf_addf(&dat, "%.6g", (double)p->bs[j] / 1024.0);
		for (int i = 0; i < p->nmix; i++) {
			dat_value(&dat, p->iops[i][j], &mn, &mx);
		}
		sbuf_addc(&dat, '\n');
	}
	sbuf_adds(&setup, "set xlabel 'block size (KiB), log scale'\n"
		  "set logscale x 2\nset format x '%g'\nset key outside right top\n"
		  "set key title 'R/W mix'\n");
	y_axis(&setup, "IOPS", mn, mx);
	snprintf(file, sizeof(file), "pts-%zu-iops", p->dev + 1);
	snprintf(plot, sizeof(plot), "plot for [i=2:%d] '%s.dat' using 1:i with "
		 "linespoints lw 2 pt 7 ps 0.8 lc rgb C[(i-2)%%8+1] title columnhead(i)\n",
		 p->nmix + 1, file);
	snprintf(title, sizeof(title), "PTS IOPS: IOPS against block size per R/W mix "
		 "(window averages), %s", r->devs[p->dev].display);
	int rc = chart_sink_add(k, file, title, "pts", p->dev, -1, 420, &dat,
				sbuf_str(&setup), plot);
	sbuf_release(&dat);
	sbuf_release(&setup);
	return rc;
}

/*
 * Throughput over time of one repetition's write direction, with the
 * plateaus found (plateau.h) and the cliff marked.  Works from the stored series so
 * that the chart shows what the fit saw.
 */
/* The level of the plateau that holds interval i (plateaus in order, each
 * from its first_index on). */
static double plateau_level(const struct rset_cliff *cl, int i)
{
	double lv = 0;
	for (size_t k = 0; k < cl->nplateaus; k++) {
		const struct rset_plateau *p = &cl->plateaus[k];
		if (isnan(p->first_index) || p->first_index > i)
			break;
		lv = p->level_bw_bytes_s;
	}
	return lv;
}

/* The fine samples' interval (ms) and span (s), for the key. */
static double fine_ms(const struct rset_series *fine)
{
	return (double)fine->interval_ns / 1e6;
}

static double fine_span_s(const struct rset_series *fine)
{
	return fine_ms(fine) * (double)fine->n / 1e3;
}

/* The level of the plateau that holds time t (s), by start_ns/duration_ns. */
static double plateau_level_at(const struct rset_cliff *cl, double t)
{
	double lv = 0;
	for (size_t k = 0; k < cl->nplateaus; k++) {
		const struct rset_plateau *p = &cl->plateaus[k];
		if (isnan(p->start_ns) || p->start_ns / 1e9 > t)
			break;
		lv = p->level_bw_bytes_s;
	}
	return lv;
}

/*
 * When the fit found the first plateau in the fine samples of the start
 * (head_from_fine), those samples are index 1 of the .dat (t, MB/s, the
 * plateau level), at their midpoints like every sample: the chart then
 * shows the short cache the coarse intervals average away.  true when
 * written.
 */
static bool fine_block(const struct rset_series *fine, const struct rset_cliff *cl,
		       double rt, struct sbuf *dat)
{
	size_t nf = fine->n;
	if (!fine->interval_ns || nf < 2)
		return false;
	double fi = (double)fine->interval_ns / 1e9;
	/* the run's end places the last fine sample only when the run ended
	 * inside the fine span */
	double end = (double)nf * fi >= rt ? rt : 0;
	sbuf_adds(dat, "\n\n\"t\" \"fine\" \"level\"\n");
	for (size_t i = 0; i < nf; i++) {
		double len = interval_sample_len(i, nf, fi, end);
		if (len <= 0)
			break;
		double t = interval_sample_mid(i, nf, fi, end);
		double b = fine->bytes[i];
		double v = isnan(b) ? 0 : b / len / 1e6;
		sbuf_addf(dat, "%.6g %.6g %.6g\n", t, v, plateau_level_at(cl, t) / 1e6);
	}
	return true;
}

static int cliff_chart(const struct rset_rep *rep, const char *file, const char *title,
		       const char *section, size_t dev, int group,
		       struct chart_sink *k)
{
	const struct rset_rep_dir *w = &rep->dir[DIR_WRITE];
	const struct rset_series *se = &w->series;
	const struct rset_cliff *cl = &w->cliff;
	if (!se->interval_ns || se->n < 3)
		return 0;
	double iv = (double)se->interval_ns / 1e9;
	/* marked where the summary says it (ssd.c): never from a cliff
	 * object of the old two-segment fit, which a preconditioning pass of
	 * an old set may hold */
	bool found = rset_rep_cliff(rep) != NULL;
	double brk = cl->break_ns / 1e9;
	size_t nall = se->n;
	size_t ns = cl->samples >= 0 ? (size_t)cl->samples : nall;
	double rt = rep->runtime_ns / 1e9;
	struct sbuf dat = SBUF_INIT, setup = SBUF_INIT;
	char plot[700];
	sbuf_adds(&dat, "\"t\" \"measured\" \"level\"\n");
	for (size_t i = 0; i < nall && i < ns; i++) {
		/* i >= ns: the partial tail the fit dropped */
		double len = interval_sample_len(i, nall, iv, rt);
		double t = interval_sample_mid(i, nall, iv, rt);
		double b = se->bytes[i];
		double v = !isnan(b) && len > 0 ? b / len / 1e6 : 0;
		if (found)
			sbuf_addf(&dat, "%.6g %.6g %.6g\n", t, v, plateau_level(cl, (int)i) / 1e6);
		else
			sbuf_addf(&dat, "%.6g %.6g ?\n", t, v);
	}
	sbuf_adds(&setup, "set xlabel '" INTERVAL_X_LABEL "'\nset ylabel 'MB/s (10^6 bytes/s)'\n"
		  "set yrange [0:*]\nset key outside right top\n");
	if (found)
		sbuf_addf(&setup, "set arrow from %.6g, graph 0 to %.6g, graph 1 nohead "
			  "dt 2 lw 2 lc rgb '#c00000'\nset label 'write cliff at %.1f s' "
			  "at %.6g, graph 0.95 offset 0.5,0 tc rgb '#c00000'\n",
			  brk, brk, brk, brk);
	bool head = found && cl->head_from_fine && fine_block(&w->fine, cl, rt, &dat);
	/* the fit first, so the measured line stays visible on top of it */
	if (head)
		snprintf(plot, sizeof(plot), "plot '%s.dat' index 1 using 1:3 with lines lw 3 "
			 "lc rgb '#f0a0a0' notitle, '' index 0 using 1:3 with lines lw 3 "
			 "lc rgb '#f0a0a0' title 'plateaus', '' index 1 using 1:2 with "
			 "linespoints lw 1 pt 7 ps 0.4 lc rgb C[2] title 'first %.0f s in %.0f ms', "
			 "'' index 0 using 1:2 with lines lw 1.5 lc rgb C[1] title 'measured, %g s intervals'\n",
			 file, fine_span_s(&w->fine), fine_ms(&w->fine), iv);
	else if (found)
		snprintf(plot, sizeof(plot), "plot '%s.dat' using 1:3 with lines lw 3 "
			 "lc rgb '#f0a0a0' title 'plateaus', '' using 1:2 with "
			 "lines lw 1.5 lc rgb C[1] title columnhead(2)\n", file);
	else
		snprintf(plot, sizeof(plot), "plot '%s.dat' using 1:2 with lines lw 1.5 "
			 "lc rgb C[1] title columnhead(2)\n", file);
	int rc = chart_sink_add(k, file, title, section, dev, group, 380, &dat,
				sbuf_str(&setup), plot);
	sbuf_release(&dat);
	sbuf_release(&setup);
	return rc;
}

static int cell_cliffs(const struct report *r, struct chart_sink *k)
{
	int n = 0;
	for (size_t gi = 0; gi < r->ngroups; gi++)
		for (size_t e = 0; e < r->groups[gi].n; e++) {
			const struct rset_cell *c = r->groups[gi].e[e].cell;
			const struct rset_rep *rep = c->nreps && c->reps ? &c->reps[0] : NULL;
			char file[64], title[400];
			if (!c->ok || !rset_rep_cliff(rep) || n >= CHART_MAX_CELL_CHARTS)
				continue;
			snprintf(file, sizeof(file), "cliff-%zu-%zu", gi + 1, e + 1);
			snprintf(title, sizeof(title), "Write cliff: throughput over time "
				 "(first repetition), %s, %s",
				 r->devs[r->groups[gi].e[e].dev].display,
				 r->groups[gi].title);
			if (cliff_chart(rep, file, title, NULL, 0, (int)gi, k) < 0)
				return -1;
			n++;
		}
	return 0;
}

static int pre_charts(const struct report *r, const struct ssd_dev *d,
		      struct chart_sink *k)
{
	for (size_t i = 1; i <= d->pre.npasses; i++) {
		const struct rset_rep *rep = &d->pre.passes[i - 1].rep;
		char file[64], title[300];
		snprintf(file, sizeof(file), "precondition-%zu-%zu", d->dev + 1, i);
		snprintf(title, sizeof(title), "Preconditioning pass %zu: throughput "
			 "over time, %s", i, r->devs[d->dev].display);
		if (cliff_chart(rep, file, title, "precondition", d->dev, -1, k) < 0)
			return -1;
	}
	return 0;
}

int ssd_charts(const struct report *r, struct chart_sink *k)
{
	const struct ssd_report *s = r->ssd;
	if (!s)
		return 0;
	for (size_t i = 0; i < s->n; i++) {
		const struct ssd_dev *d = &s->d[i];
		if (d->pre.present && pre_charts(r, d, k) < 0)
			return -1;
		if (!d->steady.present)
			continue;
		if (convergence(r, d, k) < 0)
			return -1;
		for (size_t t = 0; t < d->nt; t++)
			if (window_chart(r, d, t, k) < 0)
				return -1;
	}
	for (size_t i = 0; i < s->npts; i++)
		if (pts_chart(r, &s->pts[i], k) < 0)
			return -1;
	return cell_cliffs(r, k);
}
