/*
 * test_compare_ci.c - compare's CI formats on a comparison built by hand:
 * the step summary's table stops under COMPARE_SUMMARY_MAX bytes and says
 * how many workloads it left out (regressions, sorted first, stay); a
 * name that is not UTF-8 or holds control characters reaches JUnit and
 * BMF as text, never as the raw byte; one repetition gives BMF no bounds.
 */
#include "testutil.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "report/compare/compare.h"

static char set_old[] = "old", set_new[] = "new";

/* A comparison of n rows, row 0 a regression, the rest no change; every
 * row on device dev, workload wl, with reps repetitions a side. */
static void fake(struct compare *c, struct rset sets[2], size_t n, const char *dev,
		 const char *wl, size_t reps)
{
	memset(c, 0, sizeof(*c));
	memset(sets, 0, 2 * sizeof(*sets));
	sets[0].dir = set_old;
	sets[1].dir = set_new;
	c->r.sets = sets;
	c->r.nsets = 2;
	c->threshold = 5;
	snprintf(c->summary, sizeof(c->summary), "%zu workloads compared", n);
	c->rows = calloc(n, sizeof(*c->rows));
	assert_non_null(c->rows);
	c->nrows = n;
	for (size_t i = 0; i < n; i++) {
		struct compare_row *r = &c->rows[i];
		r->dev_old = r->dev_new = dev;
		r->workload = wl;
		r->primary = M_IOPS;
		r->v = i == 0 ? CMP_WORSE : CMP_SAME;
		r->change[M_IOPS] = i == 0 ? -20 : 0.5;
		r->ci = (struct ratio_ci){ .ok = true, .ratio = 1, .lo = 0.98, .hi = 1.02 };
		for (size_t k = 0; k < reps; k++)
			r->s[1][M_IOPS].v[k] = 1000 + (double)k;
		r->s[1][M_IOPS].n = r->s[0][M_IOPS].n = reps;
		r->s[1][M_IOPS].mean = r->s[0][M_IOPS].mean = 1000;
		r->s[1][M_IOPS].sd = reps > 1 ? 10 : 0;
		c->count[r->v]++;
	}
}

static size_t count(const char *s, const char *what)
{
	size_t n = 0;
	for (const char *p = s; (p = strstr(p, what)); p += strlen(what))
		n++;
	return n;
}

static void test_summary_bounded(void **state)
{
	struct compare c;
	struct rset sets[2];
	struct sbuf b = SBUF_INIT;
	char wl[201], tail[160];
	(void)state;

	memset(wl, 'w', sizeof(wl) - 1);
	wl[sizeof(wl) - 1] = '\0';
	/* about 250 bytes a row: 4,000 rows are about 1 MiB */
	fake(&c, sets, 4000, "dev", wl, 3);
	compare_step_summary(&c, &b);
	assert_false(b.oom);
	assert_true(b.len < COMPARE_SUMMARY_MAX + 1024);
	assert_true(b.len > COMPARE_SUMMARY_MAX);
	size_t shown = count(sbuf_str(&b), "| dev |");
	assert_true(shown > 100 && shown < 4000);
	snprintf(tail, sizeof(tail), "\n%zu more workloads are left out: GitHub keeps at most "
		 "1 MiB", 4000 - shown);
	assert_non_null(strstr(sbuf_str(&b), tail));
	/* the regression is row 0 and stays */
	assert_non_null(strstr(sbuf_str(&b), "| **regression** | dev |"));
	sbuf_release(&b);
	free(c.rows);

	/* a few rows: all of them, no "left out" */
	fake(&c, sets, 3, "dev", "w", 3);
	compare_step_summary(&c, &b);
	assert_int_equal(count(sbuf_str(&b), "| dev |"), 3);
	assert_null(strstr(sbuf_str(&b), "left out"));
	sbuf_release(&b);
	free(c.rows);
}

static void test_names_as_text(void **state)
{
	struct compare c;
	struct rset sets[2];
	struct sbuf b = SBUF_INIT;
	/* a byte that is no UTF-8, an ESC, a BEL, markup */
	const char *dev = "d\xff\x1b[1m\a<&>\"";
	(void)state;

	fake(&c, sets, 1, dev, "w", 3);
	compare_junit(&c, &b);
	const char *x = sbuf_str(&b);
	assert_null(strchr(x, '\xff'));
	assert_null(strchr(x, '\x1b'));
	assert_null(strchr(x, '\a'));
	assert_non_null(strstr(x, "classname=\"d\\xff\\e[1m\\x07&lt;&amp;&gt;&quot;\""));
	assert_non_null(strstr(x, "<failure type=\"regression\""));
	sbuf_release(&b);

	cJSON *j = compare_bmf(&c);
	char *s = cJSON_PrintUnformatted(j);
	assert_non_null(s);
	assert_null(strchr(s, '\xff'));
	assert_non_null(strstr(s, "\"d\\\\xff\\\\e[1m\\\\x07<&>\\\": w\""));
	free(s);
	cJSON_Delete(j);
	free(c.rows);
}

static void test_bmf_bounds(void **state)
{
	struct compare c;
	struct rset sets[2];
	(void)state;

	fake(&c, sets, 1, "dev", "w", 3);
	cJSON *j = compare_bmf(&c);
	cJSON *m = cJSON_GetObjectItem(cJSON_GetObjectItem(j, "dev: w"), "iops");
	assert_non_null(m);
	double ci = side_ci95(&c.rows[0].s[1][M_IOPS]);
	assert_true(ci > 0);
	assert_true(cJSON_GetObjectItem(m, "value")->valuedouble == 1000);
	assert_true(cJSON_GetObjectItem(m, "lower_value")->valuedouble == 1000 - ci);
	assert_true(cJSON_GetObjectItem(m, "upper_value")->valuedouble == 1000 + ci);
	cJSON_Delete(j);
	free(c.rows);

	/* one repetition: a value, no interval */
	fake(&c, sets, 1, "dev", "w", 1);
	c.rows[0].v = CMP_FEW;
	j = compare_bmf(&c);
	m = cJSON_GetObjectItem(cJSON_GetObjectItem(j, "dev: w"), "iops");
	assert_non_null(cJSON_GetObjectItem(m, "value"));
	assert_null(cJSON_GetObjectItem(m, "lower_value"));
	assert_null(cJSON_GetObjectItem(m, "upper_value"));
	cJSON_Delete(j);
	free(c.rows);
}

/* BMF names a benchmark once: of two rows with one name (two cells of one
 * workload) the first row that has a mean gives it; rows keep their order,
 * and a row with no mean neither shows nor hides a namesake. */
static void test_bmf_namesakes(void **state)
{
	struct compare c;
	struct rset sets[2];
	(void)state;

	fake(&c, sets, 5, "dev", "w", 3);
	c.rows[0].s[1][M_IOPS].n = 0;            /* "dev: w", no mean */
	c.rows[1].workload = "x";
	c.rows[2].s[1][M_IOPS].mean = 2000;      /* "dev: w": the first with one */
	c.rows[4].s[1][M_IOPS].mean = 3000;      /* "dev: w" again: left out */
	cJSON *j = compare_bmf(&c);
	char *s = cJSON_PrintUnformatted(j);
	assert_non_null(s);
	assert_non_null(strstr(s, "{\"dev: x\":{\"iops\":{\"value\":1000,"));
	assert_non_null(strstr(s, "\"dev: w\":{\"iops\":{\"value\":2000,"));
	assert_null(strstr(s, "3000"));
	assert_int_equal(cJSON_GetArraySize(j), 2);
	free(s);
	cJSON_Delete(j);
	free(c.rows);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_summary_bounded),
		cmocka_unit_test(test_names_as_text),
		cmocka_unit_test(test_bmf_bounds),
		cmocka_unit_test(test_bmf_namesakes),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
