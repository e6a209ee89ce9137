/*
 * repro.h - the verdicts of a reproduction (`iomatrix reproduce`, and the
 * reproduction sections of report, compare and site): pair each workload of
 * an original set with the same workload on the same device name of the set
 * that reproduces it, and judge the ratio reproduction/original of the
 * primary metric (sides.h) by its confidence interval (ratio.h, 95 % per
 * workload): "reproduced" when the whole interval lies within
 * 1 +- tolerance, "faster" or "slower" when it lies wholly beyond a bound
 * (for latency a higher ratio is slower), "inconclusive" when it reaches
 * across one, "too few repetitions" with fewer than 2 a side: the one
 * verdict of model/ratio.h, Bonferroni over the workloads judged, as
 * compare's.  An inconclusive workload whose original alone spreads wider
 * than the tolerance is named: the original's repetitions were too few.  Beside the
 * verdicts: the differences between the two environments that could
 * explain a miss (kernel, CPU, device model and firmware, filesystem and
 * mount options, IO scheduler, cell parameters such as the random map and
 * the reaping, the iomatrix version).  Pure code over a loaded model:
 * repro.c judges into struct repro, repro_out.c writes it (repro_print,
 * repro_context).
 */
#ifndef IOMATRIX_REPRO_H
#define IOMATRIX_REPRO_H

#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>

#include <cjson/cJSON.h>

#include "model/report.h"
#include "model/ratio.h"
#include "model/sides.h"

#define REPRO_DEFAULT_TOLERANCE_PCT 10.0

enum repro_verdict { RV_SLOWER, RV_FASTER, RV_INCONC, RV_FEW, RV_SAME, RV__N };
/* "slower" "faster" "inconclusive" "too few repetitions" "reproduced" */
extern const char *const repro_verdict_words[RV__N];

struct repro_row {
	const char *device;          /* borrowed: the device name */
	const char *workload;        /* borrowed: the group title */
	enum metric m;               /* the primary metric */
	struct side o, n;            /* original, reproduction */
	struct ratio_ci ci;          /* n/o; ok false: no interval */
	double ratio;                /* n.mean / o.mean */
	enum repro_verdict v;
	double orig_spread;          /* ratio_spread() of the original */
	bool orig_too_few;           /* inconclusive, and orig_spread > tolerance */
};

struct repro {
	double tol_pct;
	size_t orig, rep;            /* indexes into the model's sets */
	struct repro_row *rows;      /* owned, in group order */
	size_t n;
	size_t count[RV__N];
	size_t orig_too_few;         /* rows with orig_too_few */
	char **env;                  /* owned sentences: "kernel: A here, B there" */
	size_t nenv;
	char unknown[512];           /* what the original did not record */
};

/* Judge set rep of r against set orig.  0, or -1 when out of memory
 * (out is then empty).  Release with repro_release(). */
int repro_judge(const struct report *r, size_t orig, size_t rep, double tol_pct,
		struct repro *out);
void repro_release(struct repro *p);
/* A workload was faster or slower beyond the tolerance. */
bool repro_missed(const struct repro *p);
/* The one-line verdict of the whole reproduction, its headline from the
 * verdicts: "Reproduced: ..." when every workload is; "Not reproduced
 * within ±10 %: ..." when one is shown slower or faster; else "Undecided
 * within ±10 %: ..." (inconclusive, too few repetitions).  Caller frees. */
char *repro_sentence(const struct repro *p);
/* One line per workload and then the environment differences, for a
 * terminal. */
void repro_print(const struct repro *p, const struct report *r, FILE *f);
/* The template object: {tolerance, sentence, original, reproduction,
 * rows: [{device, workload, metric, original, reproduction, ratio, ci,
 * verdict, cls}], env: [text], missed}.  Caller owns it. */
cJSON *repro_context(const struct repro *p, const struct report *r);

/* Is set rep of r a reproduction of set orig (its manifest's "reproduces"
 * names orig's directory and the sha256 of orig's manifest.json bytes)?
 * Reads orig's manifest.json again to hash it. */
bool repro_of(const struct report *r, size_t orig, size_t rep);

/* Loads the original set orig_dir and its reproduction repro_dir, prints
 * one line per workload and the environment differences to out; returns 0
 * (*missed: a workload was faster or slower beyond tol_pct), or 2 with the
 * reason printed to stderr (1 when out of memory). */
int repro_judge_sets(const char *orig_dir, const char *repro_dir, double tol_pct,
		     FILE *out, bool *missed);

#endif
