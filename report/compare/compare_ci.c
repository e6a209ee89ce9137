/*
 * compare_ci.c - compare's verdicts in the formats CI systems read
 * (compare.h): JUnit XML, one test case per workload (a regression fails,
 * an inconclusive change or one with too few repetitions is skipped, no
 * change and an improvement pass), which CI dashboards show; Bencher's
 * Metric Format (BMF), one benchmark per workload with the new set's value
 * of its primary metric and that mean's 95 % confidence interval; and the
 * Markdown table GitHub Actions shows on a run's page (GITHUB_STEP_SUMMARY).
 * Text from the sets is escaped for each format.
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "compare.h"
#include "render/escape.h"
#include "util/sbuf.h"

static const char *const ci_words[CMP__N] = {
	"regression", "improvement", "inconclusive", "no change", "not enough repetitions",
};

/* "OLDDEV" or "OLDDEV -> NEWDEV" when --map paired two names. */
static void ci_device(const struct compare_row *row, struct sbuf *b)
{
	sbuf_adds(b, row->dev_old);
	if (strcmp(row->dev_old, row->dev_new))
		sbuf_addf(b, " -> %s", row->dev_new);
}

/* "IOPS -23.4 % (95 % CI of new/old: -30.1 % .. -16.2 %), threshold 5 %" */
static void ci_change(const struct compare *c, const struct compare_row *row, struct sbuf *b)
{
	double ch = row->change[row->primary];
	sbuf_addf(b, "%s ", metric_names[row->primary]);
	if (isfinite(ch))
		sbuf_addf(b, "%+.1f %%", ch);
	else
		sbuf_adds(b, "change unknown");
	if (row->ci.ok)
		sbuf_addf(b, " (family-wise 95 %% CI of new/old: %+.1f %% .. %+.1f %%)",
			  (row->ci.lo - 1) * 100, (row->ci.hi - 1) * 100);
	sbuf_addf(b, ", threshold %g %%", c->threshold);
}

void compare_write_junit(const struct compare *c, FILE *f)
{
	size_t fail = c->count[CMP_WORSE], skip = c->count[CMP_INCONC] + c->count[CMP_FEW];
	struct sbuf b = SBUF_INIT, t = SBUF_INIT;

	sbuf_adds(&b, "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n<testsuites name=\"iomatrix compare\"");
	sbuf_addf(&b, " tests=\"%zu\" failures=\"%zu\" skipped=\"%zu\">\n<testsuite name=\"",
		  c->nrows, fail, skip);
	sbuf_addf(&t, "%s -> %s", c->r.sets[0].dir, c->r.sets[1].dir);
	escape_append(&b, sbuf_str(&t), ESC_HTML);
	sbuf_addf(&b, "\" tests=\"%zu\" failures=\"%zu\" skipped=\"%zu\">\n", c->nrows, fail, skip);
	for (size_t i = 0; i < c->nrows; i++) {
		const struct compare_row *row = &c->rows[i];
		sbuf_reset(&t);
		ci_device(row, &t);
		sbuf_adds(&b, "<testcase classname=\"");
		escape_append(&b, sbuf_str(&t), ESC_HTML);
		sbuf_adds(&b, "\" name=\"");
		escape_append(&b, row->workload, ESC_HTML);
		sbuf_adds(&b, "\"");
		sbuf_reset(&t);
		sbuf_addf(&t, "%s: ", ci_words[row->v]);
		ci_change(c, row, &t);
		if (row->v == CMP_WORSE || row->v == CMP_INCONC || row->v == CMP_FEW) {
			sbuf_adds(&b, row->v == CMP_WORSE ? ">\n  <failure type=\"regression\" message=\"" :
				  ">\n  <skipped message=\"");
			escape_append(&b, sbuf_str(&t), ESC_HTML);
			sbuf_adds(&b, "\"/>\n</testcase>\n");
		} else {
			sbuf_adds(&b, ">\n  <system-out>");
			escape_append(&b, sbuf_str(&t), ESC_HTML);
			sbuf_adds(&b, "</system-out>\n</testcase>\n");
		}
	}
	sbuf_adds(&b, "</testsuite>\n</testsuites>\n");
	fputs(sbuf_str(&b), f);
	sbuf_release(&b);
	sbuf_release(&t);
}

cJSON *compare_bmf(const struct compare *c)
{
	static const char *const measure[M__N] = { "iops", "mb_s", "lat_mean_ns" };
	cJSON *o = cJSON_CreateObject();
	struct sbuf t = SBUF_INIT;
	for (size_t i = 0; o && i < c->nrows; i++) {
		const struct compare_row *row = &c->rows[i];
		const struct side *s = &row->s[1][row->primary];
		if (!s->n || !isfinite(s->mean))
			continue;
		double ci = side_ci95(s);
		sbuf_reset(&t);
		ci_device(row, &t);
		sbuf_addf(&t, ": %s", row->workload);
		/* the same name twice (two cells of one workload): the first */
		if (cJSON_GetObjectItemCaseSensitive(o, sbuf_str(&t)))
			continue;
		cJSON *bench = cJSON_AddObjectToObject(o, sbuf_str(&t));
		cJSON *m = cJSON_AddObjectToObject(bench, measure[row->primary]);
		cJSON_AddNumberToObject(m, "value", s->mean);
		cJSON_AddNumberToObject(m, "lower_value", s->mean - ci);
		cJSON_AddNumberToObject(m, "upper_value", s->mean + ci);
	}
	sbuf_release(&t);
	return o;
}

int compare_step_summary(const struct compare *c, const char *path)
{
	struct sbuf b = SBUF_INIT, t = SBUF_INIT;
	sbuf_adds(&b, "### iomatrix compare\n\n");
	escape_append(&b, c->summary, ESC_MD);
	sbuf_adds(&b, "\n\n| verdict | device | workload | change | 95 % CI of new/old |\n"
		      "|---|---|---|---:|---|\n");
	for (size_t i = 0; i < c->nrows; i++) {
		const struct compare_row *row = &c->rows[i];
		double ch = row->change[row->primary];
		sbuf_reset(&t);
		ci_device(row, &t);
		sbuf_addf(&b, "| %s | ", ci_words[row->v]);
		escape_append(&b, sbuf_str(&t), ESC_MD);
		sbuf_adds(&b, " | ");
		escape_append(&b, row->workload, ESC_MD);
		if (isfinite(ch))
			sbuf_addf(&b, " | %s %+.1f %% | ", metric_names[row->primary], ch);
		else
			sbuf_addf(&b, " | %s | ", metric_names[row->primary]);
		if (row->ci.ok)
			sbuf_addf(&b, "%+.1f %% .. %+.1f %%", (row->ci.lo - 1) * 100, (row->ci.hi - 1) * 100);
		sbuf_adds(&b, " |\n");
	}
	sbuf_adds(&b, "\n");
	FILE *f = b.oom ? NULL : fopen(path, "a");
	int rc = f && fputs(sbuf_str(&b), f) >= 0 ? 0 : -1;
	if (f && fclose(f) != 0)
		rc = -1;
	sbuf_release(&b);
	sbuf_release(&t);
	return rc;
}
