/*
 * qos.c - the QoS section (qos.h): reads each cell's load_sweep object
 * through resultset/qosfile.c, says what the points back and nothing
 * more: a cell without a target gets its table and chart but no sentence,
 * and two devices are compared only when both meet the same target.
 */
#include "qos.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "report_int.h"
#include "suite/qos_keys.h"

void qos_fmt_lat(double ns, char *buf, size_t len)
{
	char v[32];
	if (ns >= 1e6) {
		fmt_sig3(ns / 1e6, v, sizeof(v));
		snprintf(buf, len, "%s ms", v);
	} else {
		fmt_sig3(ns / 1e3, v, sizeof(v));
		snprintf(buf, len, "%s \xc2\xb5s", v);
	}
}

/* "4K random reads at QD32" plus the jobs when more than one */
static void workload_words(const struct report *r, const struct qos_cell *q,
			   struct sbuf *b)
{
	/* the sentence states the target: the sweep is no word of it */
	const struct rgroup *g = &r->groups[q->group];
	const char *w = g->sweep_words ? g->sweep_words : g->words;
	sbuf_adds(b, w);
	if (!strstr(w, "QD"))
		sbuf_addf(b, " at QD%u", q->cell->cell.iodepth);
	if (q->cell->cell.jobs > 1 && !strstr(w, "jobs"))
		sbuf_addf(b, ", %u jobs", q->cell->cell.jobs);
}

static void sentence(struct report *r, const struct qos_cell *q)
{
	char tgt[64], n[32], lat[32];
	struct sbuf b = SBUF_INIT;
	const char *dev = r->devs[q->dev].display;

	qos_target_text(&q->sd.target, tgt, sizeof(tgt));
	if (q->v.met) {
		fmt_iops(q->v.sustained_iops, n, sizeof(n));
		sbuf_addf(&b, "%s sustains %s IOPS of ", dev, n);
		workload_words(r, q, &b);
		sbuf_addf(&b, " with %s", tgt);
		/* the maximum is what the probe measured: a sustained load
		 * above it is not "101 % of its maximum" */
		if (q->sd.max_iops > 0 && q->v.sustained_iops <= q->sd.max_iops)
			sbuf_addf(&b, " (%.0f %% of its maximum)",
				  100 * q->v.sustained_iops / q->sd.max_iops);
		else if (q->sd.max_iops > 0) {
			char mx[32];
			fmt_iops(q->sd.max_iops, mx, sizeof(mx));
			sbuf_addf(&b, " (more than the %s IOPS its probe measured as "
				  "the maximum)", mx);
		}
		sbuf_adds(&b, ".");
	} else if (q->v.best >= 0) {
		qos_fmt_lat(q->v.lowest_ns, lat, sizeof(lat));
		sbuf_addf(&b, "%s does not meet %s for ", dev, tgt);
		workload_words(r, q, &b);
		sbuf_addf(&b, " at any tested load (lowest %s: %s at ",
			  qos_metric_name(q->sd.target.metric), lat);
		const struct qos_point *p = &q->sd.pts[q->v.best];
		if (q->sd.max_iops > 0)
			sbuf_addf(&b, "%.0f %%).", 100 * p->offered_iops / q->sd.max_iops);
		else {
			fmt_iops(p->offered_iops, n, sizeof(n));
			sbuf_addf(&b, "%s IOPS).", n);
		}
	} else {
		sbuf_release(&b);
		return;
	}
	report_summary_add(r, sbuf_detach(&b));
}

/*
 * Whether the sweeps themselves show that lo sustains less than hi's
 * `load`: lo missed the target (or fell behind) at an offered load above
 * its own sustained one, or lo's probed maximum lies below `load`, by
 * QOS_ORDER_MARGIN.  A sweep runs once, so no confidence interval can
 * order two sustained loads; a load one device met and the other missed
 * can (a 1,010 against 1,000 IOPS sustained, with neither pushed to 1,010,
 * is no ratio).  The margin is the summary's: a ratio within 5 % of equal
 * names no winner.  The clause that says which goes to b ("b missed it at
 * 1,200 IOPS, a load a sustained").
 */
#define QOS_ORDER_MARGIN 1.05
static bool order_shown(const struct report *r, const struct qos_cell *lo,
			const struct qos_cell *hi, struct sbuf *b)
{
	const char *ln = r->devs[lo->dev].display, *hn = r->devs[hi->dev].display;
	double load = hi->v.sustained_iops, below = load / QOS_ORDER_MARGIN;
	char n[32], m[32];
	for (size_t i = 0; i < lo->sd.n; i++) {
		const struct qos_point *p = &lo->sd.pts[i];
		if (p->offered_iops <= lo->v.sustained_iops || p->offered_iops > below ||
		    qos_meets(p, &lo->sd.target))
			continue;
		fmt_iops(p->offered_iops, n, sizeof(n));
		sbuf_addf(b, "%s missed it at %s IOPS, a load %s sustained", ln, n, hn);
		return true;
	}
	if (lo->sd.max_iops > 0 && lo->sd.max_iops <= below) {
		fmt_iops(lo->sd.max_iops, n, sizeof(n));
		fmt_iops(load, m, sizeof(m));
		sbuf_addf(b, "%s's maximum, %s IOPS, is below the %s %s sustained", ln, n, m, hn);
		return true;
	}
	return false;
}

/* Two devices of one workload that both meet one target: the ratio
 * against the baseline's, unless they are one device (host/devident.h),
 * of which no sentence names one faster, or the sweeps do not show the
 * order (order_shown).  The cells come in group order: each group's run
 * once (linear). */
static void compare_sentences(struct report *r, const struct qos_report *s)
{
	for (size_t i = 0, len; i < s->n; i += len) {
		const struct qos_cell *b = NULL;
		const char *what;
		for (len = 0; i + len < s->n && s->c[i + len].group == s->c[i].group; len++)
			if (s->c[i + len].dev == r->baseline)
				b = &s->c[i + len];
		if (!b || !b->v.met || !(b->v.sustained_iops > 0))
			continue;
		for (size_t k = i; k < i + len; k++) {
			const struct qos_cell *a = &s->c[k];
			if (a == b || !a->v.met || a->dev == b->dev ||
			    memcmp(&a->sd.target, &b->sd.target, sizeof(a->sd.target)) ||
			    report_same_disk(r, a->dev, b->dev, &what))
				continue;
			char ratio[32], tgt[64];
			struct sbuf why = SBUF_INIT;
			bool a_lo = a->v.sustained_iops < b->v.sustained_iops;
			if (!order_shown(r, a_lo ? a : b, a_lo ? b : a, &why)) {
				sbuf_release(&why);
				continue;
			}
			fmt_ratio(a->v.sustained_iops / b->v.sustained_iops, ratio, sizeof(ratio));
			qos_target_text(&a->sd.target, tgt, sizeof(tgt));
			struct sbuf t = SBUF_INIT;
			sbuf_addf(&t, "%s sustains %s the IOPS of %s at %s (", r->devs[a->dev].display,
				  ratio, r->devs[b->dev].display, tgt);
			workload_words(r, a, &t);
			sbuf_addf(&t, "): %s.", why.buf ? why.buf : "");
			sbuf_release(&why);
			report_summary_add(r, sbuf_detach(&t));
		}
	}
}

int qos_report_load(struct report *r)
{
	struct qos_report *s = r->qos = calloc(1, sizeof(*s));
	if (!s || !(s->c = report_per_entry(r, sizeof(*s->c))))
		return -1;
	for (size_t g = 0; g < r->ngroups; g++)
		for (size_t i = 0; i < r->groups[g].n; i++) {
			const struct rentry *e = &r->groups[g].e[i];
			struct qos_cell *q = &s->c[s->n];
			memset(q, 0, sizeof(*q));
			if (e->cell->sweep_error)
				report_warn(r, "%s, cell %d: %s", r->devs[e->dev].display,
					    e->cell->id, e->cell->sweep_error);
			if (!e->cell->sweep || !e->cell->sweep->n)
				continue;
			q->sd = *e->cell->sweep;
			q->dev = e->dev;
			q->group = g;
			q->entry = i;
			q->cell = e->cell;
			qos_judge(q->sd.pts, q->sd.n, &q->sd.target, &q->v);
			if (q->sd.target.metric != QOS_NONE)
				sentence(r, q);
			s->n++;
		}
	compare_sentences(r, s);
	return 0;
}

void qos_report_release(struct report *r)
{
	struct qos_report *s = r->qos;
	if (!s)
		return;
	free(s->c);     /* each sd's points are its cell's */
	free(s);
	r->qos = NULL;
}

/* The cells are in (group, entry) order: found by bisection, so that a
 * caller asking of every entry is n log n, not n squared. */
const struct qos_cell *qos_cell_of(const struct report *r, size_t gi, size_t k)
{
	size_t lo = 0, hi = r->qos ? r->qos->n : 0;
	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;
		const struct qos_cell *q = &r->qos->c[mid];
		if (q->group < gi || (q->group == gi && q->entry < k))
			lo = mid + 1;
		else
			hi = mid;
	}
	if (lo < (r->qos ? r->qos->n : 0) && r->qos->c[lo].group == gi &&
	    r->qos->c[lo].entry == k)
		return &r->qos->c[lo];
	return NULL;
}
