/*
 * cmd_history.c - `iomatrix history [DIR...]`: every device's numbers
 * across the dated sets of an archive, with change points and what changed
 * in the environment (its option table, then report/archive/history.h).
 * Sets are streamed one at a time (archive.h), so memory follows the
 * numbers, not the sets.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "archive/setarchive.h"
#include "cli.h"
#include "archive/history.h"
#include "resultset/schema.h"

struct history_args {
	struct hist_opts h;
	const char *format;
	bool all;
};

#define H(f) OPT_AT(struct history_args, h.f)

const struct option_spec history_series_opts[] = {
	{ "--threshold", .kind = OPTK_PERCENT, OPT_AT(struct hist_opts, threshold),
	  OPT_FROM_BELOW(0, 1e6), .def = "5",
	  .help = "smallest change that counts, as compare's" },
	{ "--same", .kind = OPTK_PAIR, .arg = "A=B", .flags = OPT_REPEAT,
	  OPT_AT(struct hist_opts, same),
	  .help = "treat device B as device A (names as HOST:DEVICE)" },
	{ NULL },
};

static const struct option_spec history_opts[] = {
	{ "--device", .kind = OPTK_STRING, .arg = "D", H(device),
	  .help = "only device D (a name, or HOST:DEVICE)" },
	{ "--workload", .kind = OPTK_STRING, .arg = "LABEL", H(workload),
	  .help = "only this workload label (e.g. 'RND4K Q1T1')" },
	/* the words in the order of arc_metric_names: the index is the metric */
	{ "--metric", .kind = OPTK_WORD, .arg = "iops|mbs|lat_mean|lat_p99",
	  .words = "iops mbs lat_mean lat_p99", H(metric),
	  .help = "iops, mbs (MB/s, 10^6 B/s), lat_mean or lat_p99 (µs); default: mbs "
		  "for sequential cells of 64 KiB or more, iops otherwise" },
	{ "--format", .kind = OPTK_WORD, .arg = "text|json|csv", .words = "text json csv",
	  OPT_AT(struct history_args, format), .def = "text", .help = "the output's form" },
	OPT_INCLUDE(history_series_opts, struct history_args, h),
	{ "--all", .kind = OPTK_FLAG, OPT_AT(struct history_args, all),
	  .help = "also the repository's example and reference sets (examples/ and "
		  "reference/ below DIR), which, as in list and site, count only when "
		  "asked for" },
	{ NULL },
};

int cmd_history(const struct cmd_call *c)
{
	const struct history_args *a = c->opts;
	const struct optlist *ops = c->ops;
	size_t nrefs = 0;
	struct history h;

	history_init(&h, &a->h);
	const char *root = resultset_root(); /* arc_scan only reads it */
	int rc = history_build(&h, ops->n ? (char **)ops->v : (char **)&root,
			       ops->n ? ops->n : 1, a->all, &nrefs, stderr, c->errs);
	if (rc != EXIT_OK)
		goto out;
	if (!strcmp(a->format, "json")) {
		if (history_write_json(&h, stdout) < 0)
			rc = EXIT_RUNTIME;
	} else if (!strcmp(a->format, "csv")) {
		history_write_csv(&h, stdout);
	} else {
		if (!nrefs)
			printf("no result sets found (make one with 'iomatrix run SUITE.yaml')\n");
		history_write_text(&h, stdout);
		history_write_failed(&h, stdout);
	}
	if (fflush(stdout) != 0)
		rc = EXIT_RUNTIME;
out:
	history_release(&h);
	return rc;
}

const struct command_spec history_spec = {
	.name = "history", .forms = { "[DIR...]" }, OPTSPEC_OPTS(history_opts, struct history_args),
	.opts_init = &(const struct history_args){ .h = { .metric = -1 } },
	.operand = OPTK_DIR,
	.about =
	"Each device's value of each workload in every dated result set under DIR\n"
	"(default $IOMATRIX_RESULTS or ./results; a set, or a directory of sets),\n"
	"in date order, with the change points and what changed in the environment.\n"
	"\n"
	"Device identity: the same device across sets is the same host name and\n"
	"device name plus, where the fingerprint has them, the same device model\n"
	"and sha256 of the serial; otherwise the same path.  A model device\n"
	"(engine: model) is its model keys: other keys make another device.  Two\n"
	"devices of one set are never one series, even on one disk.  --same A=B\n"
	"joins identities that rule keeps apart (a device renamed between sets;\n"
	"names as HOST:DEVICE).\n"
	"\n"
	"Which sets count: every set under DIR except the repository's own\n"
	"examples/ and reference/ sets (as list); --all counts them too, and a\n"
	"DIR named on the command line always counts.\n"
	"\n"
	"Series: one per device, workload label and metric.  Rehearsals (--scale\n"
	"below 1) and sets whose parameters differ for the same label are kept in\n"
	"series of their own, named 'LABEL [why]'.\n"
	"\n"
	"Change points ('step'): compare's rule between neighbouring sets of a\n"
	"series.  The confidence interval of the ratio new/old (Welch's t on\n"
	"the logs of the repetitions, Bonferroni over the series' own\n"
	"neighbouring pairs, family-wise 95 %) must lie wholly beyond the\n"
	"threshold, and the new level must stay: one set out of line is not a\n"
	"change, and a series of two sets has none.  Sets of other devices or\n"
	"workloads in the archive never change a series' change points.  The\n"
	"archive keeps each set's mean, spread and count, not the repetitions:\n"
	"the logs are taken as log-normal with that mean and spread.  With 3\n"
	"repetitions only large steps clear the interval; use more to see\n"
	"smaller ones.",
	.epilog =
	"--format json prints {\"series\": [{\"host\", \"device\", \"workload\", \"metric\",\n"
	"\"points\": [{\"set\", \"date\", \"value\", \"ci95\", \"n\", \"change\",\n"
	"\"env_changes\"}]}]}: set is the set directory's name, change is true on\n"
	"the first point of a new level, env_changes lists what changed since the\n"
	"previous point (\"kernel 6.1.0 → 6.6.0\").",
};
