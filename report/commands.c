/*
 * commands.c - the subcommands that read result sets, as the table that
 * bench/main.c dispatches through (struct command in bench/cli.h).
 */
#include <stddef.h>

#include "cli.h"

const struct command report_commands[] = {
	{ &report_spec, cmd_report },
	{ &compare_spec, cmd_compare },
	{ &list_spec, cmd_list },
	{ &history_spec, cmd_history },
	{ &site_spec, cmd_site },
	{ NULL, NULL },
};
