/*
 * qos.c - the rate schedule, the knee and the QoS target (qos.h): small
 * pure math, unit-tested on synthetic points (tests/unit/test_qos.c).
 */
#include "qos.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

uint64_t rate_job_iops(const struct cell_rate *r, bool reads, bool writes)
{
	if (reads && writes)
		return r->pair ? r->iops[0] + r->iops[1] : r->iops[0];
	return writes ? r->iops[1] : r->iops[0];
}

void rate_gen_init(struct rate_gen *g, uint64_t start_ns, double iops,
		   enum rate_process p, uint64_t seed)
{
	memset(g, 0, sizeof(*g));
	g->next_ns = start_ns;
	g->period_ns = iops > 0 ? 1e9 / iops : 0;
	g->poisson = p == RATE_POISSON;
	prng_seed(&g->rng, seed ^ 0x72617465ull);
}

/* Exponential gap of mean m: -m ln(U), U uniform in (0, 1] (53 bits). */
static double exp_gap(struct prng *r, double m)
{
	double u = (double)((prng_next(r) >> 11) + 1) * (1.0 / 9007199254740992.0);
	return -m * log(u);
}

uint64_t rate_gen_take(struct rate_gen *g)
{
	uint64_t t = g->next_ns;
	double gap = g->poisson ? exp_gap(&g->rng, g->period_ns) : g->period_ns;
	/* keep the fractions: 3 IOPS are 333333333.33 ns apart, and a day of
	 * whole-ns gaps would drift by a third of a ns per IO */
	gap += g->carry;
	double whole = floor(gap);
	g->carry = gap - whole;
	g->next_ns = t + (uint64_t)whole;
	return t;
}

bool load_sweep_on(const struct load_sweep *s)
{
	return s->steps || s->niops;
}

unsigned sweep_npoints(const struct load_sweep *s)
{
	return s->niops ? s->niops : s->steps;
}

double sweep_offered(const struct load_sweep *s, unsigned i, double max_iops)
{
	if (s->niops)
		return i < s->niops ? (double)s->iops[i] : 0;
	double pct = s->steps < 2 ? s->from_pct :
		s->from_pct + (s->to_pct - s->from_pct) * i / (s->steps - 1);
	return max_iops * pct / 100.0;
}

static const char *const metric_names[] = { "", "mean", "p99", "p99.9", "p99.99" };

const char *qos_metric_name(enum qos_metric m)
{
	return (unsigned)m < sizeof(metric_names) / sizeof(metric_names[0]) ?
	       metric_names[m] : "";
}

double qos_metric_pct(enum qos_metric m)
{
	switch (m) {
	case QOS_P99: return 99;
	case QOS_P999: return 99.9;
	case QOS_P9999: return 99.99;
	default: return 0;
	}
}

int qos_metric_parse(const char *s, enum qos_metric *out)
{
	for (unsigned m = QOS_MEAN; m <= QOS_P9999; m++)
		if (!strcmp(s, metric_names[m])) {
			*out = (enum qos_metric)m;
			return 0;
		}
	return -1;
}

static int qos_dcmp(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;
	return x < y ? -1 : x > y;
}

double qos_low_p99(const struct qos_point *pts, size_t n)
{
	double v[QOS_LOW_MAX];
	size_t m = 0;
	for (size_t i = 0; i < (n + 1) / 2 && m < QOS_LOW_MAX; i++)
		if (pts[i].p99_ns > 0)
			v[m++] = pts[i].p99_ns;
	if (!m)
		return 0;
	qsort(v, m, sizeof(*v), qos_dcmp);
	/* the least p99 that another low load confirms */
	for (size_t i = 0; i + 1 < m; i++)
		if (v[i + 1] <= QOS_LOW_CONFIRM * v[i])
			return v[i];
	return m % 2 ? v[m / 2] : (v[m / 2 - 1] + v[m / 2]) / 2;
}

int qos_knee(const struct qos_point *pts, size_t n, double k,
	     const struct qos_target *t)
{
	double base = qos_low_p99(pts, n);
	if (n < 2 || !(base > 0))
		return -1;
	/* from the top down: the knee is where the run of points above k x
	 * the base begins, so one noisy point below the knee is not it */
	int knee = -1;
	for (size_t i = n - 1; i >= 1; i--) {
		if (!(pts[i].p99_ns > k * base))
			break;
		knee = (int)i;
	}
	/* never below the load the same points sustain at the target */
	struct qos_verdict v;
	if (knee >= 0 && t && t->metric != QOS_NONE) {
		qos_judge(pts, n, t, &v);
		if (v.met && knee < v.best)
			knee = v.best;
	}
	return knee;
}

double qos_point_value(const struct qos_point *p, enum qos_metric m)
{
	switch (m) {
	case QOS_MEAN: return p->mean_ns;
	case QOS_P99: return p->p99_ns;
	case QOS_P999: return p->p999_ns;
	case QOS_P9999: return p->p9999_ns;
	default: return 0;
	}
}

bool qos_meets(const struct qos_point *p, const struct qos_target *t)
{
	return t->metric != QOS_NONE && p->achieved_iops > 0 &&
	       p->achieved_iops >= QOS_KEEPS_UP * p->offered_iops &&
	       qos_point_value(p, t->metric) <= (double)t->target_ns;
}

void qos_judge(const struct qos_point *pts, size_t n, const struct qos_target *t,
	       struct qos_verdict *v)
{
	memset(v, 0, sizeof(*v));
	v->best = -1;
	for (size_t i = 0; i < n; i++)
		if (qos_meets(&pts[i], t) && pts[i].achieved_iops > v->sustained_iops) {
			v->sustained_iops = pts[i].achieved_iops;
			v->best = (int)i;
			v->met = true;
		}
	for (size_t i = 0; !v->met && i < n; i++) {
		double x = qos_point_value(&pts[i], t->metric);
		if (x > 0 && (v->best < 0 || x < v->lowest_ns)) {
			v->lowest_ns = x;
			v->best = (int)i;
		}
	}
}

double qos_bisect_next(const struct qos_point *pts, size_t n,
		       const struct qos_target *t)
{
	struct qos_verdict v;
	qos_judge(pts, n, t, &v);
	size_t lo = (size_t)v.best;
	if (!v.met || lo + 1 >= n || qos_meets(&pts[lo + 1], t))
		return 0;
	double a = pts[lo].offered_iops, b = pts[lo + 1].offered_iops;
	if (b - a <= QOS_BISECT_TOL * b)
		return 0;
	return (a + b) / 2;
}

void qos_points_sort(struct qos_point *pts, size_t n)
{
	for (size_t i = 1; i < n; i++) {
		struct qos_point x = pts[i];
		size_t j = i;
		for (; j > 0 && pts[j - 1].offered_iops > x.offered_iops; j--)
			pts[j] = pts[j - 1];
		pts[j] = x;
	}
}
