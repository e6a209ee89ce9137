/*
 * build.h - one report written (`iomatrix report`): the templates, the
 * sets loaded into the model, the charts, fio-commands.txt, report.md,
 * report.html, report.csv and report.json in the output directory, and its
 * SHA256SUMS.  One comparison written (`iomatrix compare`) the same way:
 * the templates, the two sets paired and judged (compare/compare.h),
 * compare.md, compare.html, compare.json and SHA256SUMS.  A command parses
 * its options, calls report_build or compare_build and prints what it
 * made with report_build_print or compare_build_print.
 */
#ifndef IOMATRIX_REPORT_BUILD_H
#define IOMATRIX_REPORT_BUILD_H

#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>

#include "charts/chart.h"
#include "compare/compare.h"
#include "model/report.h"
#include "render/outdir.h"

struct report_build_opts {
	char **sets;                /* the set directories */
	size_t nsets;
	const char *out;            /* -o DIR, or NULL: SET/report */
	const char *baseline, *title, *tdir; /* NULL: none given */
	char **argv;                /* the command's, where templates are looked for */
	const char *format;         /* md,html,csv,json */
	struct chart_opts charts;   /* svg, png: what was asked (md or html
				     * also needed) */
	/* the optional sections (cmd/sections.h's report_sections) */
	const struct report_section *const *sections;
};

struct report_build {
	struct report r;
	bool loaded;
	struct chart_set cs;
	struct outdir od;
	const char *files[24];      /* name, description, ... as written */
	size_t nfiles;
};

/*
 * Write the report o asks for.  Each set's own warnings are printed to
 * warnf as soon as it is loaded.  Returns EXIT_OK, or an exit code
 * (util/cliopt.h) with messages in errs: EXIT_USAGE (a bad set, template,
 * baseline or output directory), EXIT_RUNTIME (a file not written; the
 * others still are).  Release b either way.
 */
int report_build(const struct report_build_opts *o, struct report_build *b,
		 FILE *warnf, struct errlist *errs);
/* What was written, the summary lines and the warning count, to out; the
 * chart note (gnuplot missing) to err. */
void report_build_print(const struct report_build *b, FILE *out, FILE *err);
void report_build_release(struct report_build *b);

struct compare_build_opts {
	const char *paths[2];       /* the OLD and NEW set directories */
	const char *out;            /* -o DIR, or NULL: NEW/compare */
	FILE *docf;                 /* not NULL: -o -, the one format asked for
				     * written here instead of a directory */
	const char *tdir;           /* --template DIR, or NULL */
	char **argv;                /* the command's, where templates are looked for */
	const char *format;         /* md,html,json,junit,bmf: which files */
	const char *step_summary;   /* GITHUB_STEP_SUMMARY, or NULL: where the
				     * verdicts' Markdown section is appended */
	double threshold;           /* percent; see compare_run */
	bool threshold_given;
	const struct compare_map *map;
	/* the optional sections (cmd/sections.h's report_sections) */
	const struct report_section *const *sections;
};

struct compare_build {
	struct compare c;
	struct outdir od;
	bool judged;                /* paired and judged: compare_build_print has
				     * verdicts to print */
};

/*
 * Write the comparison o asks for, as report_build writes a report: the
 * templates first, each set's warnings to warnf once loaded, the files,
 * the directory's SHA256SUMS (or the one document to o->docf), then the
 * step summary appended to o->step_summary (a warning on warnf when it
 * cannot be: never an exit code).  Returns EXIT_OK or an exit code (EXIT_USAGE:
 * a bad set, template, --map or output directory, no workload matched;
 * EXIT_RUNTIME: a file not written) with messages in errs; the verdicts'
 * own exit codes are the command's (--fail-on-...).  Release b either way.
 */
int compare_build(const struct compare_build_opts *o, struct compare_build *b,
		  FILE *warnf, struct errlist *errs);
/* The verdict lines (compare_print), then "written: DIR/" when rc, what
 * compare_build returned, says everything was. */
void compare_build_print(const struct compare_build *b, int rc, FILE *out);
void compare_build_release(struct compare_build *b);

/* Is word one of the comma-separated words of list (--format, --charts)? */
bool report_list_has(const char *list, const char *word);

#endif
