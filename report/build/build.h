/*
 * build.h - one report written (`iomatrix report`): the templates, the
 * sets loaded into the model, the charts, fio-commands.txt, report.md,
 * report.html, report.csv and report.json in the output directory, and its
 * SHA256SUMS.  The command parses its options, calls report_build and
 * prints report_build_print.
 */
#ifndef IOMATRIX_REPORT_BUILD_H
#define IOMATRIX_REPORT_BUILD_H

#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>

#include "charts/chart.h"
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

/* Is word one of the comma-separated words of list (--format, --charts)? */
bool report_list_has(const char *list, const char *word);

#endif
