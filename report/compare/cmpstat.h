/*
 * cmpstat.h - the statistics behind a verdict "this changed", shared by
 * `compare` and `history`: Welch's t-test between two summaries and
 * Holm-Bonferroni control over a family of tests, on Student's t of
 * common/student.h.  Pure code, no IO; unit-tested in
 * tests/unit/test_changepoint.c.
 */
#ifndef IOMATRIX_CMPSTAT_H
#define IOMATRIX_CMPSTAT_H

#include <stdbool.h>
#include <stddef.h>

/* One side of a comparison: mean, sample stddev and count of repetitions. */
struct cmpstat_side {
	double mean, stddev;
	int n;
};

/*
 * Two-sided p-value of Welch's t-test (Welch-Satterthwaite degrees of
 * freedom).  -1 when either side has fewer than 2 repetitions (no test is
 * possible); 0 when both sides have no spread but different means.
 */
double cmpstat_welch_p(const struct cmpstat_side *a, const struct cmpstat_side *b);

/*
 * Holm-Bonferroni: reject[i] is set for the hypotheses rejected at family
 * level alpha.  A p below 0 (no test) is never rejected and does not count
 * towards the family size.
 */
void cmpstat_holm(const double *p, size_t n, double alpha, bool *reject);

#endif
