/*
 * lattime_chart.c - the two charts of the "Latency over time" section
 * (model/lattime.h) per cell: p50, p99 and p99.9 of each interval on a
 * log axis with the run's own p99 as a dashed line; and a heatmap, time
 * across, latency up (log), colour the share of the interval's IOs in each
 * band of latency, which shows a bimodal device, a stall and a cache
 * running out.  A write cliff found in the cell is marked on both.  Data
 * go into .dat files; scripts hold only our constants and numbers.
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "chart_int.h"
#include "stats/interval.h"
#include "model/lattime.h"

/* Heatmap bands per power of two of latency (the histogram has 64: four
 * keep a band 19 % wide, fine enough to tell modes apart and few enough
 * rows for an SVG), and most columns (longer runs sum whole intervals). */
#define LT_BANDS_PER_OCTAVE 4
#define LT_MAX_COLUMNS 240

/* Decade ticks of a latency axis in us, from lo to hi us: "1 us" ...
 * "10 s". */
static void lat_ticks(struct sbuf *g, double lo_us, double hi_us, bool log10us)
{
	static const char *const names[] = { "0.1 us", "1 us", "10 us", "100 us", "1 ms",
					     "10 ms", "100 ms", "1 s", "10 s", "100 s",
					     "1000 s" };
	int a = (int)floor(log10(lo_us)), b = (int)ceil(log10(hi_us));
	if (a < -1)
		a = -1;
	if (b > 9)
		b = 9;
	sbuf_adds(g, "set ytics (");
	for (int d = a; d <= b; d++)
		sbuf_addf(g, "%s'%s' %g", d > a ? ", " : "", names[d + 1],
			  log10us ? (double)d : pow(10, d));
	sbuf_adds(g, ")\n");
}

/* The cliff of the cell's first repetition, as a dashed line at its break. */
static void cliff_mark(struct sbuf *g, const struct lattime_cell *l)
{
	const struct rset_rep *rep = l->cell->nreps && l->cell->reps ? &l->cell->reps[0] : NULL;
	const struct rset_cliff *cl = rset_rep_cliff(rep);
	if (!cl)
		return;
	double t = cl->break_ns / 1e9;
	sbuf_addf(g, "set arrow from %.6g, graph 0 to %.6g, graph 1 nohead front dt 2 lw 2 "
		  "lc rgb '#c00000'\nset label 'write cliff at %.1f s' at %.6g, graph 0.96 "
		  "offset 0.5,0 front tc rgb '#c00000'\n", t, t, t, t);
}

static int pct_chart(const struct report *r, const struct lattime_cell *l, size_t i,
		     struct chart_sink *k)
{
	struct sbuf dat = SBUF_INIT, setup = SBUF_INIT;
	char file[64], title[400], plot[700];
	double lo = INFINITY, hi = 0;

	sbuf_adds(&dat, "\"t\" \"p50\" \"p99\" \"p99.9\"\n");
	for (size_t j = 0; j < l->n; j++) {
		double t = interval_sample_mid(j, l->n, l->iv_s, l->runtime_s);
		sbuf_addf(&dat, "%.6g", t);
		const double v[3] = { l->p50[j], l->p99[j], l->p999[j] };
		for (int q = 0; q < 3; q++) {
			if (isfinite(v[q]) && v[q] > 0) {
				sbuf_addf(&dat, " %.6g", v[q] / 1e3);
				lo = v[q] < lo ? v[q] : lo;
				hi = v[q] > hi ? v[q] : hi;
			} else {
				sbuf_adds(&dat, " ?");
			}
		}
		sbuf_addc(&dat, '\n');
	}
	if (!(hi > 0)) {
		sbuf_release(&dat);
		return 0;
	}
	if (l->run_p99 > hi)
		hi = l->run_p99;
	sbuf_adds(&setup, "set xlabel '" INTERVAL_X_LABEL "'\n"
		  "set ylabel 'latency, log scale'\nset logscale y 10\n");
	sbuf_addf(&setup, "set yrange [%g:%g]\n", lo / 1e3 / 1.5, hi / 1e3 * 1.5);
	lat_ticks(&setup, lo / 1e3 / 1.5, hi / 1e3 * 1.5, false);
	sbuf_addf(&setup, "set xrange [0:%g]\n", l->runtime_s > 0 ? l->runtime_s :
		  (double)l->n * l->iv_s);
	cliff_mark(&setup, l);
	snprintf(file, sizeof(file), "lattime-%zu-%zu-percentiles", l->group + 1, l->entry + 1);
	snprintf(plot, sizeof(plot), "plot '%s.dat' using 1:2 with lines lw 2 "
		 "lc rgb C[1] title columnhead(2), '' using 1:3 with lines lw 2 lc rgb C[2] "
		 "title columnhead(3), '' using 1:4 with lines lw 1.5 lc rgb C[3] "
		 "title columnhead(4), %.6g with lines dt 2 lw 1.5 lc rgb '#888888' "
		 "title 'p99 of the whole run'\n", file, l->run_p99 / 1e3);
	snprintf(title, sizeof(title), "Latency percentiles over time (first repetition): "
		 "%s, %s", r->devs[l->dev].display, r->groups[l->group].title);
	int rc = chart_sink_add(k, file, title, "lattime", i, -1, 400, &dat,
				sbuf_str(&setup), plot);
	sbuf_release(&dat);
	sbuf_release(&setup);
	return rc;
}

/* The heatmap band of histogram bucket b: bands of 1/LT_BANDS_PER_OCTAVE
 * of a power of two, by the bucket's low edge (values under 1 ns: band of
 * 1 ns). */
static int band_of(unsigned b)
{
	double lo = (double)hist_bucket_low(b);
	return (int)floor(log2(lo > 1 ? lo : 1) * LT_BANDS_PER_OCTAVE);
}

static int heat_chart(const struct report *r, const struct lattime_cell *l, size_t i,
		      struct chart_sink *k)
{
	const struct ivhist *s = &l->hs;
	size_t g = (l->n + LT_MAX_COLUMNS - 1) / LT_MAX_COLUMNS, ncol = (l->n + g - 1) / g;
	int blo = 1 << 30, bhi = -1;
	struct sbuf dat = SBUF_INIT, setup = SBUF_INIT;
	char file[64], title[400], plot[400];

	for (size_t p = 0; p < s->off[l->n]; p++) {
		int b = band_of(s->idx[p]);
		blo = b < blo ? b : blo;
		bhi = b > bhi ? b : bhi;
	}
	if (bhi < 0 || !ncol)
		return 0;
	int nb = bhi - blo + 1;
	double *col = calloc((size_t)nb, sizeof(double));
	if (!col)
		return -1;
	/* one scan per column: its time, then each band's share of its IOs
	 * (NaN: none, drawn as the background) at the band's centre in
	 * log10(us) */
	for (size_t c = 0; c < ncol; c++) {
		size_t from = c * g, to = from + g < l->n ? from + g : l->n;
		double tot = 0, t0 = (double)from * l->iv_s;
		double t1 = to == l->n && l->runtime_s > 0 ? l->runtime_s : (double)to * l->iv_s;
		memset(col, 0, (size_t)nb * sizeof(double));
		for (size_t p = s->off[from]; p < s->off[to]; p++) {
			col[band_of(s->idx[p]) - blo] += (double)s->cnt[p];
			tot += (double)s->cnt[p];
		}
		for (int b = 0; b < nb; b++) {
			double y = ((double)(b + blo) + 0.5) / LT_BANDS_PER_OCTAVE * log10(2.0) - 3;
			if (col[b] > 0 && tot > 0)
				sbuf_addf(&dat, "%.6g %.6g %.6g\n", (t0 + t1) / 2, y, col[b] / tot);
			else
				sbuf_addf(&dat, "%.6g %.6g NaN\n", (t0 + t1) / 2, y);
		}
		sbuf_addc(&dat, '\n');
	}
	free(col);
	double ylo = (double)blo / LT_BANDS_PER_OCTAVE * log10(2.0) - 3;
	double yhi = (double)(bhi + 1) / LT_BANDS_PER_OCTAVE * log10(2.0) - 3;
	sbuf_adds(&setup, "set xlabel '" INTERVAL_X_LABEL "'\n"
		  "set ylabel 'latency, log scale'\nset grid noytics\n"
		  "set logscale cb 10\nset cbrange [1e-4:1]\n"
		  /* a tic label is a format: %% is one per cent sign */
		  "set cbtics ('0.01 %%' 1e-4, '0.1 %%' 1e-3, '1 %%' 1e-2, '10 %%' 0.1, '100 %%' 1)\n"
		  "set cblabel 'share of the interval IOs'\nset rmargin 14\n"
		  "set palette defined (0 '#440154', 0.25 '#3b528b', 0.5 '#21918c', "
		  "0.75 '#5ec962', 1 '#fde725')\n");
	sbuf_addf(&setup, "set yrange [%g:%g]\nset xrange [0:%g]\n", ylo, yhi,
		  l->runtime_s > 0 ? l->runtime_s : (double)l->n * l->iv_s);
	lat_ticks(&setup, pow(10, ylo), pow(10, yhi), true);
	cliff_mark(&setup, l);
	snprintf(file, sizeof(file), "lattime-%zu-%zu-heatmap", l->group + 1, l->entry + 1);
	snprintf(plot, sizeof(plot), "plot '%s.dat' using 1:2:3 with image notitle\n", file);
	snprintf(title, sizeof(title), "Latency heatmap, share of each interval by latency "
		 "(first repetition): %s, %s", r->devs[l->dev].display,
		 r->groups[l->group].title);
	int rc = chart_sink_add(k, file, title, "lattime", i, -1, 400, &dat,
				sbuf_str(&setup), plot);
	sbuf_release(&dat);
	sbuf_release(&setup);
	return rc;
}

int lattime_charts(const struct report *r, struct chart_sink *k)
{
	const struct lattime_report *s = r->lattime;
	size_t drawn = 0;
	for (size_t i = 0; s && i < s->n; i++) {
		const struct lattime_cell *l = &s->c[i];
		if ((!l->shown && k->x->mode != CHART_ALL) || drawn >= CHART_MAX_CELL_CHARTS)
			continue;
		if (pct_chart(r, l, i, k) < 0 || heat_chart(r, l, i, k) < 0)
			return -1;
		drawn++;
	}
	return 0;
}
