/*
 * commands.c - the subcommands that read result sets, as the table that
 * bench/main.c dispatches through (struct command in bench/cli.h).
 */
#include <stddef.h>

#include "cli.h"

const struct command report_commands[] = {
	{ "report", cmd_report, "report SET... [-o DIR] [--baseline DEVICE] [--format md,html,csv,json] [--charts summary|all|none[,svg,png]] [--chart-scale auto|linear|log] [--no-ci] [--template DIR] [--title TEXT]" },
	{ "compare", cmd_compare, "compare OLD_SET NEW_SET [-o DIR] [--threshold PCT] [--map OLD=NEW]... [--format md,html,json] [--fail-on-regression] [--template DIR]" },
	{ "list", cmd_list, "list [RESULTS_DIR] [--all] [--format text|json]" },
	{ "history", cmd_history, "history [DIR...] [--device D] [--workload LABEL] [--metric iops|mbs|lat_mean|lat_p99] [--format text|json|csv] [--threshold PCT] [--same HOST:DEV=HOST:DEV]..." },
	{ "site", cmd_site, "site [DIR...] -o SITE [--title TEXT] [--baseline HOST:DEVICE] [--threshold PCT] [--same A=B]... [--charts svg|none] [--template DIR]" },
	{ NULL, NULL, NULL },
};
