/*
 * repro_cli.c - what `iomatrix reproduce` prints once its run is done:
 * repro_judge_sets() (repro.h), called by cmd/cmd_reproduce.c, which sits
 * above both halves.
 */
#include <stdio.h>

#include "util/cliopt.h"
#include "repro.h"

int repro_judge_sets(const char *orig_dir, const char *repro_dir, double tol_pct,
		 FILE *out, bool *missed)
{
	static const char *const labels[2] = { "original", "reproduction" };
	char *dirs[2] = { (char *)orig_dir, (char *)repro_dir };
	struct errlist errs = ERRLIST_INIT;
	struct report r;
	struct repro p;

	/* a verdict reads the two sets' groups and repetitions: no optional
	 * section is loaded */
	int rc = report_load_labelled(&r, dirs, 2, labels, NULL, &errs);
	if (rc) {
		errlist_print_as(&errs, stderr, "iomatrix: ");
		errlist_release(&errs);
		report_release(&r);
		return rc;
	}
	errlist_release(&errs);
	if (repro_judge(&r, 0, 1, tol_pct, &p) < 0) {
		fprintf(stderr, "iomatrix: out of memory\n");
		report_release(&r);
		return EXIT_RUNTIME;
	}
	repro_print(&p, &r, out);
	*missed = repro_missed(&p);
	repro_release(&p);
	report_release(&r);
	return EXIT_OK;
}
