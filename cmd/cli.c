/*
 * cli.c - the one table of every command, and the list of every command's
 * option table (cli.h).  Kept out of main.c so that the
 * unit tests, which link everything but main.o, can walk the tables.
 */
#include "cli.h"

/* agent's table lives here: cmd_agent.c only prints the usage it makes */
const struct command_spec agent_spec = {
	.name = "agent", .forms = { "" },
	.note = "(not for people: a fleet run starts it over ssh)",
	.hidden = true,
};

/* The order is the order of `iomatrix --help` and of the man page. */
const struct command commands[] = {
	/* the commands that make result sets */
	{ &run_spec, cmd_run },
	{ &plan_spec, cmd_plan },
	{ &validate_spec, cmd_validate },
	{ &import_spec, cmd_import },
	{ &export_spec, cmd_export },
	{ &verify_spec, cmd_verify },
	{ &pack_spec, cmd_pack },
	{ &unpack_spec, cmd_unpack },
	{ &reproduce_spec, cmd_reproduce },
	{ &agent_spec, cmd_agent },
	/* the commands that read them */
	{ &report_spec, cmd_report },
	{ &compare_spec, cmd_compare },
	{ &list_spec, cmd_list },
	{ &history_spec, cmd_history },
	{ &site_spec, cmd_site },
	{ NULL, NULL },
};

size_t cli_command_specs(const struct command_spec **out, size_t max)
{
	size_t n = 0;

	for (const struct command *c = commands; c->spec && n < max; c++)
		out[n++] = c->spec;
	return n;
}
