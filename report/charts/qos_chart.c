/*
 * qos_chart.c - the QoS chart of each swept cell (chart.h): response
 * latency p50/p99/p99.9 against the IOPS achieved, on a log latency axis,
 * with p99 once more at the offered load (open marks: where the two part,
 * the device fell behind), the knee and the target as lines.
 */
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "chart.h"
#include "model/qos.h"

static int qos_chart(const struct report *r, const struct qos_report *s, size_t ci,
		     struct chart_sink *k)
{
	const struct qos_cell *q = &s->c[ci];
	struct sbuf dat = SBUF_INIT, setup = SBUF_INIT;
	char file[64], title[320], plot[1024];
	double mn = INFINITY, mx = 0;

	if (q->sd.n < 2)
		return 0;
	sbuf_adds(&dat, "achieved offered p50 p99 p999\n");
	for (size_t i = 0; i < q->sd.n; i++) {
		const struct qos_point *p = &q->sd.pts[i];
		double v[3] = { p->p50_ns / 1e6, p->p99_ns / 1e6, p->p999_ns / 1e6 };
		sbuf_addf(&dat, "%.6g %.6g", p->achieved_iops, p->offered_iops);
		for (int j = 0; j < 3; j++) {
			if (v[j] > 0) {
				sbuf_addf(&dat, " %.6g", v[j]);
				mn = v[j] < mn ? v[j] : mn;
				mx = v[j] > mx ? v[j] : mx;
			} else {
				sbuf_adds(&dat, " ?");
			}
		}
		sbuf_addc(&dat, '\n');
	}
	if (!(mx > 0))
		goto out;
	if (q->sd.target.metric != QOS_NONE) {
		double t = (double)q->sd.target.target_ns / 1e6;
		mn = t < mn ? t : mn;
		mx = t > mx ? t : mx;
		char tv[32]; /* our number and unit only: gnuplot sees no set's text */
		if (t >= 1)
			snprintf(tv, sizeof(tv), "%g ms", t);
		else
			snprintf(tv, sizeof(tv), "%g us", t * 1000);
		sbuf_addf(&setup, "set arrow from graph 0, first %.6g to graph 1, first %.6g "
			  "nohead dt 2 lw 2 lc rgb '#c0392b'\nset label 'target: %s %s' at "
			  "graph 0.01, first %.6g offset 0,0.7 tc rgb '#c0392b'\n", t, t,
			  qos_metric_name(q->sd.target.metric), tv, t);
	}
	if (q->sd.knee >= 0) {
		double x = q->sd.pts[q->sd.knee].achieved_iops;
		sbuf_addf(&setup, "set arrow from %.6g, graph 0 to %.6g, graph 1 nohead "
			  "dt 3 lw 2 lc rgb '#555555'\nset label 'knee' at %.6g, graph 0.95 "
			  "offset 0.5,0 tc rgb '#555555'\n", x, x, x);
	}
	sbuf_addf(&setup, "set logscale y 10\nset yrange [%.6g:%.6g]\n"
		  "set ylabel 'response latency (ms), log scale'\n"
		  "set xlabel 'IOPS achieved (open marks: p99 at the IOPS offered)'\n"
		  "set xrange [0:*]\nset key outside right top\n", mn / 1.5, mx * 1.5);
	snprintf(file, sizeof(file), "qos-%zu", ci + 1);
	snprintf(plot, sizeof(plot),
		 "plot '%s.dat' using 1:3 with linespoints lw 2 pt 7 lc rgb C[1] title 'p50', "
		 "'' using 1:4 with linespoints lw 2 pt 7 lc rgb C[2] title 'p99', "
		 "'' using 1:5 with linespoints lw 2 pt 7 lc rgb C[3] title 'p99.9', "
		 "'' using 2:4 with points pt 6 ps 1.3 lc rgb C[2] title 'p99 at offered load'\n",
		 file);
	snprintf(title, sizeof(title), "Latency under load: %s, %s",
		 r->groups[q->group].title, r->devs[q->dev].display);
	int rc = chart_sink_add(k, file, title, "qos", ci, -1, 420, &dat,
				sbuf_str(&setup), plot);
	sbuf_release(&dat);
	sbuf_release(&setup);
	return rc;
out:
	sbuf_release(&dat);
	sbuf_release(&setup);
	return 0;
}

int qos_charts(const struct report *r, struct chart_sink *k)
{
	const struct qos_report *s = r->qos;
	for (size_t i = 0; s && i < s->n && i < CHART_MAX_CELL_CHARTS; i++)
		if (qos_chart(r, s, i, k) < 0)
			return -1;
	return 0;
}
