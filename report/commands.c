/*
 * commands.c - the subcommands that read result sets, as the table that
 * bench/main.c dispatches through (struct command in bench/cli.h).
 */
#include <stddef.h>

#include "cli.h"

const struct command report_commands[] = {
	{ "report", cmd_report, "report SET... [-o DIR] [--baseline DEVICE] [--format md,html,csv,json] [--charts svg,png|none] [--template DIR] [--title TEXT]" },
	{ "compare", cmd_compare, "compare OLD_SET NEW_SET [-o DIR] [--threshold PCT] [--fail-on-regression]" },
	{ "list", cmd_list, "list [RESULTS_DIR]" },
	{ "history", cmd_history, "history [DIR...] [--device D] [--workload LABEL] [--metric iops|mbs|lat_mean|lat_p99] [--format text|json|csv] [--same A=B]" },
	{ "site", cmd_site, "site [DIR...] -o SITE/ [--baseline HOST:DEVICE] [--title TEXT]" },
	{ NULL, NULL, NULL },
};
