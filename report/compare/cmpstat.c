/*
 * cmpstat.c - Welch's t-test and Holm-Bonferroni, for compare and history
 * (cmpstat.h); Student's t itself is common/student.c, the one copy.
 */
#include <math.h>
#include <stdlib.h>

#include "cmpstat.h"
#include "common/student.h"

double cmpstat_welch_p(const struct cmpstat_side *a, const struct cmpstat_side *b)
{
	if (a->n < 2 || b->n < 2)
		return -1;
	double va = a->stddev * a->stddev / a->n, vb = b->stddev * b->stddev / b->n;
	double se = sqrt(va + vb);
	if (se == 0)
		return a->mean == b->mean ? 1 : 0;
	double t = fabs(b->mean - a->mean) / se;
	double dof = (va + vb) * (va + vb) /
		     (va * va / (a->n - 1) + vb * vb / (b->n - 1));
	if (!isfinite(dof) || dof < 1)
		dof = 1;
	return 2 * (1 - student_t_cdf(t, dof));
}

struct pidx {
	double p;
	size_t i;
};

static int pidx_cmp(const void *x, const void *y)
{
	const struct pidx *a = x, *b = y;
	return a->p < b->p ? -1 : a->p > b->p ? 1 : (a->i > b->i) - (a->i < b->i);
}

void cmpstat_holm(const double *p, size_t n, double alpha, bool *reject)
{
	struct pidx *v = n ? malloc(n * sizeof(*v)) : NULL;
	size_t m = 0;

	for (size_t i = 0; i < n; i++) {
		reject[i] = false;
		if (v && p[i] >= 0)
			v[m++] = (struct pidx){ p[i], i };
	}
	if (!v)
		return;
	qsort(v, m, sizeof(*v), pidx_cmp);
	/* step down: stop at the first p above alpha / (m - k) */
	for (size_t k = 0; k < m; k++) {
		if (v[k].p > alpha / (double)(m - k))
			break;
		reject[v[k].i] = true;
	}
	free(v);
}
