/*
 * sitebuild.h - the static site of an archive built (`iomatrix site`,
 * sitebuild.c): scan, read each new or changed set, write the pages whose
 * inputs changed, record the site's manifest.  The command parses its
 * options, calls site_build and prints the counts.
 */
#ifndef IOMATRIX_SITEBUILD_H
#define IOMATRIX_SITEBUILD_H

#include <stdbool.h>
#include <stddef.h>

#include "history.h"
#include "util/errlist.h"

struct report_section;

struct site_build_opts {
	const char *out, *title, *baseline, *tdir;
	bool charts, all;
	struct hist_opts hist;
	/* the optional report sections of each set's page (cmd/sections.h) */
	const struct report_section *const *sections;
};

/* What a build did, for the command's closing lines. */
struct site_build_stats {
	size_t nsets, nsuites, written, total;
	long fresh;                 /* sets read afresh (not from the cache) */
	bool built;                 /* the pages were written (maybe not all) */
};

/*
 * Build the site o->out from the sets under dirs (templates looked for as
 * argv[0]'s).  Returns EXIT_OK, or an exit code (util/cliopt.h) with
 * messages in errs: EXIT_USAGE (a bad template, directory, --same name, a
 * link planted in the site), EXIT_RUNTIME (a file not written).  st is
 * filled (st->built) once the pages were written, whatever the result.
 */
int site_build(const struct site_build_opts *o, char **dirs, size_t ndirs, char **argv,
	       struct site_build_stats *st, struct errlist *errs);

#endif
