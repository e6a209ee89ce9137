/*
 * commands.c - the one table of every command, the list of every command's
 * option table and the program's own options (cli.h).  Kept out of main.c
 * so that the unit tests, which link everything but main.o, can walk the
 * tables.
 */
#include <string.h>

#include "cli.h"

#define M(f) OPT_AT(struct main_opts, f)

/* The program's own options, before any command (main.c). */
static const struct option_spec main_opts[] = {
	{ "--help", "-h", .kind = OPTK_FLAG, M(help), .help = "this text" },
	{ "--version", "-V", .kind = OPTK_FLAG, M(version),
	  .help = "the version, git commit and compiler" },
	{ "--complete", .kind = OPTK_FLAG, .flags = OPT_HIDDEN, M(complete),
	  .help = "the bash completion's helper (completion/iomatrix.bash)" },
	{ "--dump-options", .kind = OPTK_FLAG, .flags = OPT_HIDDEN, M(dump),
	  .help = "every command's options, for the tests (util/optspec.h)" },
	{ "--parse-lines", .kind = OPTK_FLAG, .flags = OPT_HIDDEN, M(parse_lines),
	  .help = "command lines from stdin parsed by their tables, for the tests" },
	{ NULL },
};

const struct command_spec main_spec = {
	.name = NULL, .forms = { "[WORD...]" }, .opts = main_opts,
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
	{ &index_spec, cmd_index },
	{ &query_spec, cmd_query },
	{ NULL, NULL },
};

size_t cli_command_specs(const struct command_spec **out, size_t max)
{
	size_t n = 0;

	for (const struct command *c = commands; c->spec && n < max; c++)
		out[n++] = c->spec;
	return n;
}

const struct command *cli_find(const char *name)
{
	for (const struct command *c = commands; c->spec; c++)
		if (!strcmp(name, c->spec->name))
			return c;
	return NULL;
}
