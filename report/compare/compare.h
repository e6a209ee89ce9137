/*
 * compare.h - two result sets, workload by workload (`iomatrix compare`):
 * pair the workloads of OLD and NEW by device and parameters and give each
 * pair ONE verdict, from its primary metric: the confidence interval of
 * the ratio new/old (Welch's t on the logs of the repetitions, Bonferroni
 * over the whole comparison, model/ratio.h) lies wholly beyond
 * +-threshold (a regression or an improvement), wholly within it (no
 * change), or reaches across a bound (inconclusive: the data can rule out
 * neither).  When NEW reproduces OLD, the reproduction's verdicts too.
 *
 * compare_run fills struct compare, typed; its writers make the
 * documents from it: compare_out.c the template context and compare.json,
 * compare_ci.c the CI formats.  compare_build (report/build/build.h)
 * writes them as report_build writes a report; the command
 * (cmd/cmd_compare.c) parses its options and prints compare_print.
 */
#ifndef IOMATRIX_COMPARE_H
#define IOMATRIX_COMPARE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>

#include <cjson/cJSON.h>

#include "model/ratio.h"
#include "model/report.h"
#include "reproduce/repro.h"
#include "model/sides.h"
#include "util/sbuf.h"

#define COMPARE_MAP_MAX 64

/* Mapping of old device names to new ones (--map OLD=NEW). */
struct compare_map {
	const char *old[COMPARE_MAP_MAX], *new[COMPARE_MAP_MAX];
	size_t n;
};

enum compare_verdict { CMP_WORSE, CMP_BETTER, CMP_INCONC, CMP_SAME, CMP_FEW, CMP__N };
/* "regression" "improvement" "inconclusive" "no change" "not enough
 * repetitions to judge" */
extern const char *const compare_verdict_words[CMP__N];

struct compare_row {
	const char *dev_old, *dev_new;  /* raw names */
	const char *workload;           /* group title */
	const struct rgroup *g;
	const struct rset_cell *co, *cn;
	enum metric primary;
	struct side s[2][M__N];          /* [old/new][metric] */
	double change[M__N];            /* percent */
	struct ratio_ci ci;             /* new/old of the primary metric */
	bool tested;
	enum compare_verdict v;
};

/* A workload of one set that no workload of the other pairs with, or
 * whose pair failed. */
struct compare_only {
	const char *device;             /* borrowed: the device's label or name */
	const char *workload;           /* borrowed: the group title */
	const char *why;                /* NULL (no pair), or "failed in the old
					 * set" / "failed in the new set" */
};

struct compare {
	struct report r;
	bool loaded;
	struct compare_row *rows;       /* owned, sorted: verdict, then change */
	size_t nrows;
	size_t count[CMP__N];
	struct compare_only *only[2];   /* owned: [old/new], in group order */
	size_t nonly[2];
	bool inconclusive_beyond;       /* an inconclusive row's estimate lies
					 * beyond the threshold */
	struct repro rp;                /* when have_rp: NEW reproduces OLD */
	bool have_rp;
	char summary[512];              /* "N workloads compared: ..." */
	double threshold;               /* of the verdicts (compare_run) */
};

/*
 * Load paths[0] (old) and paths[1] (new), pair and judge them with map at
 * threshold (percent) when threshold_given, else at the tolerance NEW
 * recorded when it reproduces OLD, else at threshold, with the optional
 * report sections given (cmd/sections.h).  Returns EXIT_OK, or an exit code
 * (util/cliopt.h) with messages in errs: EXIT_USAGE for an unreadable set,
 * a --map name neither set has or no workload matched; EXIT_RUNTIME when
 * out of memory.  Each set's own warnings are in c->r.sets[].warnings
 * once c->loaded.  Release c either way.
 */
int compare_run(struct compare *c, const char *const paths[2], double threshold,
		bool threshold_given, const struct compare_map *map,
		const struct report_section *const *sections, struct errlist *errs);
/* The verdict lines for stdout: the summary, the reproduction's, every
 * regression and improvement, the workloads on one side only. */
void compare_print(const struct compare *c, FILE *f);
void compare_release(struct compare *c);

/* ---- compare_out.c: the template context and compare.json ---- */

/* The template context of compare.md and compare.html (css: the style
 * sheet, added as "css" when not NULL): {only_old, only_new: [{device,
 * workload, why}], reproduction (repro_context), rows: [{device, workload,
 * metric, old, new, change, other, verdict, cls, p, regression}], version,
 * old, new (the sets), threshold, min_reps, summary, suite_note, alerts,
 * warnings}.  Caller owns it; NULL when out of memory. */
cJSON *compare_context(const struct compare *c, const char *css);
/* compare.json (docs/reports.md).  Caller owns it; NULL when out
 * of memory. */
cJSON *compare_json(const struct compare *c);

/* ---- compare_ci.c: the formats CI systems read ---- */

/* JUnit XML into b (compare.junit.xml): one test case per workload
 * (classname the device, name the workload); a regression is a failure,
 * an inconclusive change or too few repetitions skipped, no change and an
 * improvement pass.  Names from the sets are escaped for XML, their control
 * characters and bytes that are not UTF-8 written as text (termesc.h). */
void compare_junit(const struct compare *c, struct sbuf *b);
/* Bencher Metric Format (compare.bmf.json): {"DEVICE: WORKLOAD":
 * {"iops"|"mb_s"|"lat_mean_ns": {"value", "lower_value", "upper_value"}}},
 * the new set's mean of the primary metric and its 95 % confidence
 * interval (the bounds only with 2 repetitions or more).  Caller owns. */
cJSON *compare_bmf(const struct compare *c);

/* The Markdown table of the step summary stops adding rows past this many
 * bytes: GitHub keeps at most 1 MiB of one step's summary and drops the
 * whole upload beyond it, so four comparisons fit in one step. */
#define COMPARE_SUMMARY_MAX (256 * 1024)
/* The verdicts as a Markdown section for GITHUB_STEP_SUMMARY, appended to
 * b: the sets, the summary sentence, one table row per workload. */
void compare_step_summary(const struct compare *c, struct sbuf *b);

#endif
