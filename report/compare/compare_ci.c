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
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "compare.h"
#include "util/keyfirst.h"
#include "render/escape.h"
#include "util/termesc.h"

static const char *const ci_words[CMP__N] = {
	"regression", "improvement", "inconclusive", "no change", "not enough repetitions",
};

/* A name from a set into b for format mode: first every control
 * character and every byte that is not UTF-8 as visible text (termesc.h:
 * an ESC becomes "\e"), because XML 1.0 cannot hold them even as
 * references and a JSON or Markdown reader shows them as garbage; then
 * the format's own escape (escape.h). */
static void ci_text(struct sbuf *b, const char *s, enum esc_mode mode)
{
	struct sbuf t = SBUF_INIT;
	termesc_append_field(&t, s);
	if (t.oom)
		b->oom = true;
	else
		escape_append(b, sbuf_str(&t), mode);
	sbuf_release(&t);
}

/* "OLDDEV" or "OLDDEV -> NEWDEV" when --map paired two names, as is. */
static void ci_device(const struct compare_row *row, struct sbuf *b)
{
	sbuf_adds(b, row->dev_old);
	if (strcmp(row->dev_old, row->dev_new))
		sbuf_addf(b, " -> %s", row->dev_new);
}

/* "IOPS -23.4 % (family-wise 95 % CI of new/old: -30.1 % .. -16.2 %),
 * threshold 5 %", or with too few repetitions how many there were. */
static void ci_change(const struct compare *c, const struct compare_row *row, struct sbuf *b)
{
	double ch = row->change[row->primary];
	sbuf_addf(b, "%s ", metric_names[row->primary]);
	if (isfinite(ch))
		sbuf_addf(b, "%+.1f %%", ch);
	else
		sbuf_adds(b, "change unknown");
	if (row->v == CMP_FEW)
		sbuf_addf(b, " (%zu old and %zu new repetitions; a verdict needs %d on each side)",
			  row->s[0][row->primary].n, row->s[1][row->primary].n, VERDICT_MIN_REPS);
	else if (row->ci.ok)
		sbuf_addf(b, " (family-wise 95 %% CI of new/old: %+.1f %% .. %+.1f %%)",
			  (row->ci.lo - 1) * 100, (row->ci.hi - 1) * 100);
	sbuf_addf(b, ", threshold %g %%", c->threshold);
}

void compare_junit(const struct compare *c, struct sbuf *b)
{
	size_t fail = c->count[CMP_WORSE], skip = c->count[CMP_INCONC] + c->count[CMP_FEW];
	struct sbuf t = SBUF_INIT;

	sbuf_adds(b, "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n<testsuites name=\"iomatrix compare\"");
	sbuf_addf(b, " tests=\"%zu\" failures=\"%zu\" errors=\"0\" skipped=\"%zu\">\n"
		  "<testsuite name=\"", c->nrows, fail, skip);
	sbuf_addf(&t, "%s -> %s", c->r.sets[0].shown, c->r.sets[1].shown);
	ci_text(b, sbuf_str(&t), ESC_HTML);
	sbuf_addf(b, "\" tests=\"%zu\" failures=\"%zu\" errors=\"0\" skipped=\"%zu\">\n",
		  c->nrows, fail, skip);
	for (size_t i = 0; i < c->nrows; i++) {
		const struct compare_row *row = &c->rows[i];
		sbuf_reset(&t);
		ci_device(row, &t);
		sbuf_adds(b, "<testcase classname=\"");
		ci_text(b, sbuf_str(&t), ESC_HTML);
		sbuf_adds(b, "\" name=\"");
		ci_text(b, row->workload, ESC_HTML);
		sbuf_adds(b, "\"");
		sbuf_reset(&t);
		sbuf_addf(&t, "%s: ", ci_words[row->v]);
		ci_change(c, row, &t);
		/* the message is ours, the names in it are in classname and
		 * name: ESC_HTML alone */
		if (row->v == CMP_WORSE || row->v == CMP_INCONC || row->v == CMP_FEW) {
			sbuf_adds(b, row->v == CMP_WORSE ? ">\n  <failure type=\"regression\" message=\"" :
				  ">\n  <skipped message=\"");
			escape_append(b, sbuf_str(&t), ESC_HTML);
			sbuf_adds(b, "\"/>\n</testcase>\n");
		} else {
			sbuf_adds(b, ">\n  <system-out>");
			escape_append(b, sbuf_str(&t), ESC_HTML);
			sbuf_adds(b, "</system-out>\n</testcase>\n");
		}
	}
	sbuf_adds(b, "</testsuite>\n</testsuites>\n");
	if (t.oom)
		b->oom = true;
	sbuf_release(&t);
}

/* A row's benchmark name in BMF: "DEVICE: WORKLOAD" as text (ci_text). */
struct ci_bmf_name {
	char *name;          /* owned */
	size_t row;
	size_t first;        /* the first row of that name */
};

/* The side BMF gives of row i: the new set's primary metric, NULL when it
 * has no mean. */
static const struct side *ci_bmf_side(const struct compare *c, size_t i)
{
	const struct compare_row *row = &c->rows[i];
	const struct side *s = &row->s[1][row->primary];
	return s->n && isfinite(s->mean) ? s : NULL;
}

/* The names of the rows BMF can list, in row order, *n of them; the same
 * name twice (two cells of one workload) is first on its first row only.
 * NULL when out of memory.  Free with ci_bmf_names_free(). */
static struct ci_bmf_name *ci_bmf_names(const struct compare *c, size_t *n)
{
	struct ci_bmf_name *v = calloc(c->nrows ? c->nrows : 1, sizeof(*v));
	struct sbuf t = SBUF_INIT, d = SBUF_INIT;
	bool oom = !v;

	*n = 0;
	for (size_t i = 0; !oom && i < c->nrows; i++) {
		if (!ci_bmf_side(c, i))
			continue;
		sbuf_reset(&d);
		ci_device(&c->rows[i], &d);
		sbuf_addf(&d, ": %s", c->rows[i].workload);
		sbuf_reset(&t);
		ci_text(&t, sbuf_str(&d), ESC_NONE);  /* cJSON escapes the rest */
		if (t.oom || d.oom || !(v[*n].name = strdup(sbuf_str(&t))))
			oom = true;
		else
			v[(*n)++].row = i;
	}
	sbuf_release(&t);
	sbuf_release(&d);
	if (!oom && keyfirst_fill(v, *n, sizeof(*v), offsetof(struct ci_bmf_name, name),
				  offsetof(struct ci_bmf_name, row),
				  offsetof(struct ci_bmf_name, first)) < 0)
		oom = true;
	if (oom) {
		for (size_t i = 0; v && i < *n; i++)
			free(v[i].name);
		free(v);
		return NULL;
	}
	return v;
}

cJSON *compare_bmf(const struct compare *c)
{
	static const char *const measure[M__N] = { "iops", "mb_s", "lat_mean_ns" };
	size_t n;
	struct ci_bmf_name *v = ci_bmf_names(c, &n);
	cJSON *o = v ? cJSON_CreateObject() : NULL;

	for (size_t i = 0; o && i < n; i++) {
		const struct compare_row *row = &c->rows[v[i].row];
		const struct side *s = ci_bmf_side(c, v[i].row);
		if (v[i].first != v[i].row)
			continue;
		cJSON *bench = cJSON_AddObjectToObject(o, v[i].name);
		cJSON *m = cJSON_AddObjectToObject(bench, measure[row->primary]);
		cJSON_AddNumberToObject(m, "value", s->mean);
		/* one repetition has no interval: no bounds rather than a
		 * zero-width one */
		if (s->n >= 2) {
			double ci = side_ci95(s);
			cJSON_AddNumberToObject(m, "lower_value", s->mean - ci);
			cJSON_AddNumberToObject(m, "upper_value", s->mean + ci);
		}
	}
	for (size_t i = 0; v && i < n; i++)
		free(v[i].name);
	free(v);
	return o;
}

/* One row of the step summary's table. */
static void ci_summary_row(const struct compare_row *row, struct sbuf *b)
{
	double ch = row->change[row->primary];
	struct sbuf t = SBUF_INIT;

	ci_device(row, &t);
	sbuf_addf(b, row->v == CMP_WORSE ? "| **%s** | " : "| %s | ", ci_words[row->v]);
	ci_text(b, sbuf_str(&t), ESC_MD);
	sbuf_adds(b, " | ");
	ci_text(b, row->workload, ESC_MD);
	if (isfinite(ch))
		sbuf_addf(b, " | %s %+.1f %% | ", metric_names[row->primary], ch);
	else
		sbuf_addf(b, " | %s | ", metric_names[row->primary]);
	if (row->v != CMP_FEW && row->ci.ok)
		sbuf_addf(b, "%+.1f %% .. %+.1f %%", (row->ci.lo - 1) * 100, (row->ci.hi - 1) * 100);
	sbuf_adds(b, " |\n");
	if (t.oom)
		b->oom = true;
	sbuf_release(&t);
}

void compare_step_summary(const struct compare *c, struct sbuf *b)
{
	size_t start = b->len, i;

	sbuf_adds(b, "### iomatrix compare\n\nOld: ");
	ci_text(b, c->r.sets[0].shown, ESC_MD);
	sbuf_adds(b, ", new: ");
	ci_text(b, c->r.sets[1].shown, ESC_MD);
	sbuf_adds(b, ".\n\n**");
	ci_text(b, c->summary, ESC_MD);
	sbuf_adds(b, "**\n\n| verdict | device | workload | change | family-wise 95 % CI of new/old |\n"
		     "|---|---|---|---:|---|\n");
	/* rows come regressions first (compare_run sorts them), so what is
	 * left out is the least urgent */
	for (i = 0; i < c->nrows && b->len - start < COMPARE_SUMMARY_MAX; i++)
		ci_summary_row(&c->rows[i], b);
	if (i < c->nrows)
		sbuf_addf(b, "\n%zu more workload%s left out: GitHub keeps at most 1 MiB of a "
			  "step's summary. compare.md and compare.json list every one.\n",
			  c->nrows - i, c->nrows - i == 1 ? " is" : "s are");
	sbuf_adds(b, "\n");
}
