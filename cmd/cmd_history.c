/*
 * cmd_history.c - `iomatrix history [DIR...] [--device D] [--workload L]
 * [--metric M] [--format text|json|csv] [--threshold PCT] [--same A=B]`:
 * every device's numbers across the dated sets of an archive, with change
 * points and what changed in the environment.  Sets are streamed one at a
 * time (archive.h), so memory follows the numbers, not the sets.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "archive/setarchive.h"
#include "cli.h"
#include "archive/history.h"
#include "model/ratio.h"
#include "resultset/schema.h"

static const struct option_spec history_opts[] = {
	{ "--device", NULL, "D" },
	{ "--workload", NULL, "LABEL" },
	{ "--metric", NULL, "iops|mbs|lat_mean|lat_p99", .value = OPTV_WORDS,
	  .words = "iops mbs lat_mean lat_p99" },
	{ "--format", NULL, "text|json|csv", .value = OPTV_WORDS,
	  .words = "text json csv" },
	{ "--threshold", NULL, "PCT" },
	{ "--same", NULL, "HOST:DEV=HOST:DEV", .flags = OPT_REPEAT },
	{ "--all", NULL, NULL },
	{ NULL },
};

const struct command_spec history_spec = {
	.name = "history", .forms = { "[DIR...]" }, .opts = history_opts,
	.operand = OPTV_DIR,
};

static void usage(FILE *f)
{
	optspec_usage(f, &history_spec);
	fprintf(f,
		"\n"
		"Each device's value of each workload in every dated result set under DIR\n"
		"(default $IOMATRIX_RESULTS or ./results; a set, or a directory of sets),\n"
		"in date order, with "
		"the change points and what changed in the environment.\n\n"
		"Device identity: the same device across sets is the same host name and\n"
		"device name plus, where the fingerprint has them, the same device model\n"
		"and sha256 of the serial; otherwise the same path.  Two devices of one\n"
		"set are never one series, even on one disk.  --same A=B joins identities\n"
		"that rule keeps apart (a device renamed between sets; names as\n"
		"HOST:DEVICE).\n\n"
		"Which sets count: every set under DIR except the repository's own\n"
		"examples/ and reference/ sets (as list); --all counts them too, and a\n"
		"DIR named on the command line always counts.\n\n"
		"Series: one per device, workload label and metric.  Rehearsals (--scale\n"
		"below 1) and sets whose parameters differ for the same label are kept in\n"
		"series of their own, named 'LABEL [why]'.\n\n"
		"Change points ('step'): compare's rule between neighbouring sets of a\n"
		"series.  The confidence interval of the ratio new/old (Welch's t on\n"
		"the logs of the repetitions, Bonferroni over the series' own\n"
		"neighbouring pairs, family-wise 95 %%) must lie wholly beyond the\n"
		"threshold, and the new level must stay: one set out of line is not a\n"
		"change, and a series of two sets has none.  Sets of other devices or\n"
		"workloads in the archive never change a series' change points.  The\n"
		"archive keeps each set's mean, spread and count, not the repetitions:\n"
		"the logs are taken as log-normal with that mean and spread.  With 3\n"
		"repetitions only large steps clear the interval; use more to see\n"
		"smaller ones.\n\n"
		"  --device D        only device D (a name, or HOST:DEVICE)\n"
		"  --workload LABEL  only this workload label (e.g. 'RND4K Q1T1')\n"
		"  --metric M        iops, mbs (MB/s, 10^6 B/s), lat_mean or lat_p99 (µs);\n"
		"                    default: mbs for sequential cells of 64 KiB or more,\n"
		"                    iops otherwise\n"
		"  --format F        text (default), json or csv\n"
		"  --threshold PCT   smallest change that counts (default 5, as compare)\n"
		"  --same A=B        treat device B as device A (repeatable)\n"
		"  --all             also the repository's example and reference sets\n"
		"                    (examples/ and reference/ below DIR), which, as in\n"
		"                    list and site, count only when asked for\n\n"
		"--format json prints {\"series\": [{\"host\", \"device\", \"workload\", \"metric\",\n"
		"\"points\": [{\"set\", \"date\", \"value\", \"ci95\", \"n\", \"change\",\n"
		"\"env_changes\"}]}]}: set is the set directory's name, change is true on\n"
		"the first point of a new level, env_changes lists what changed since the\n"
		"previous point (\"kernel 6.1.0 → 6.6.0\").\n");
}

static int parse_metric(const char *s)
{
	for (int m = 0; m < ARC_NMETRIC; m++)
		if (!strcmp(s, arc_metric_names[m]))
			return m;
	return -2;
}

static int parse_args(int argc, char **argv, struct hist_opts *opt, const char **format,
		      bool *all, char **dirs, size_t *ndirs, char **same)
{
	for (int i = 1; i < argc; i++) {
		const char *a = argv[i];
		bool val = !strcmp(a, "--device") || !strcmp(a, "--workload") || !strcmp(a, "--metric") ||
			   !strcmp(a, "--format") || !strcmp(a, "--threshold") || !strcmp(a, "--same");
		if (val && i + 1 >= argc) {
			fprintf(stderr, "iomatrix: option '%s' needs a value\n", a);
			return -1;
		}
		if (!strcmp(a, "--device")) {
			opt->device = argv[++i];
		} else if (!strcmp(a, "--workload")) {
			opt->workload = argv[++i];
		} else if (!strcmp(a, "--metric")) {
			opt->metric = parse_metric(argv[++i]);
			if (opt->metric < -1) {
				fprintf(stderr, "iomatrix: unknown metric '%s' (iops, mbs, "
					"lat_mean or lat_p99)\n", argv[i]);
				return -1;
			}
		} else if (!strcmp(a, "--format")) {
			*format = argv[++i];
			if (strcmp(*format, "text") && strcmp(*format, "json") && strcmp(*format, "csv")) {
				fprintf(stderr, "iomatrix: unknown format '%s' (text, json or csv)\n",
					*format);
				return -1;
			}
		} else if (!strcmp(a, "--threshold")) {
			if (ratio_parse_threshold(argv[++i], &opt->threshold) < 0)
				return -1;
		} else if (!strcmp(a, "--all")) {
			*all = true;
		} else if (!strcmp(a, "--same")) {
			same[opt->nsame++] = argv[++i];
		} else if (a[0] == '-' && a[1]) {
			fprintf(stderr, "iomatrix: unknown option '%s' (see 'iomatrix history --help')\n", a);
			return -1;
		} else {
			dirs[(*ndirs)++] = argv[i];
		}
	}
	return 0;
}

int cmd_history(int argc, char **argv)
{
	struct hist_opts opt = { .metric = -1, .threshold = 5 };
	const char *format = "text";
	char **dirs = calloc((size_t)argc + 1, sizeof(char *));
	char **same = calloc((size_t)argc + 1, sizeof(char *));
	size_t ndirs = 0;
	bool all = false;
	struct errlist errs = ERRLIST_INIT;
	size_t nrefs = 0;
	struct history h;
	int rc = EXIT_USAGE;

	history_init(&h, &opt);
	if (!dirs || !same) {
		rc = EXIT_RUNTIME;
		goto out;
	}
	if (cli_wants_help(argc, argv)) {
		usage(stdout);
		rc = EXIT_OK;
		goto out;
	}
	if (parse_args(argc, argv, &opt, &format, &all, dirs, &ndirs, same) < 0)
		goto out;
	if (!ndirs)
		dirs[ndirs++] = (char *)resultset_root(); /* arc_scan only reads it */
	opt.same = same;
	history_init(&h, &opt);

	rc = history_build(&h, dirs, ndirs, all, &nrefs, stderr, &errs);
	if (rc != EXIT_OK)
		goto out_errs;
	if (!strcmp(format, "json")) {
		cJSON *j = history_json(&h);
		char *s = j ? cJSON_PrintUnformatted(j) : NULL;
		if (s)
			printf("%s\n", s);
		else
			rc = EXIT_RUNTIME;
		free(s);
		cJSON_Delete(j);
	} else if (!strcmp(format, "csv")) {
		history_write_csv(&h, stdout);
	} else {
		if (!nrefs)
			printf("no result sets found (make one with 'iomatrix run SUITE.yaml')\n");
		history_write_text(&h, stdout);
		history_write_failed(&h, stdout);
	}
	if (fflush(stdout) != 0)
		rc = EXIT_RUNTIME;
out_errs:
	for (size_t i = 0; i < errs.n; i++)
		fprintf(stderr, "iomatrix: %s\n", errs.msgs[i]);
out:
	history_release(&h);
	free(dirs);
	free(same);
	errlist_release(&errs);
	return rc;
}
