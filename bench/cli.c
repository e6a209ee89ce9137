/*
 * cli.c - the table of the commands that make result sets, and the list of
 * every command's option table (cli.h).  Kept out of main.c so that the
 * unit tests, which link everything but main.o, can walk the tables.
 */
#include <stdlib.h>
#include <string.h>

#include "cli.h"
#include "suite/suite_cli.h"

enum { SH_DEVICE = 1, SH_OUT, SH_SCALE, SH_DESTROY, SH_QUIET };

const struct option_spec run_shared_opts[] = {
	{ "--device", NULL, "NAME=PATH", .flags = OPT_REPEAT, .id = SH_DEVICE },
	{ "--out", "-o --output", "DIR", .value = OPTV_DIR, .id = SH_OUT },
	{ "--scale", NULL, "F", .id = SH_SCALE },
	{ "--yes-destroy-data", .id = SH_DESTROY },
	{ "--quiet", "-q", .id = SH_QUIET },
	{ NULL },
};

int run_shared_init(struct run_shared *s, int argc)
{
	memset(s, 0, sizeof(*s));
	if (!(s->devices = calloc((size_t)argc + 1, sizeof(*s->devices)))) {
		fprintf(stderr, "iomatrix: out of memory\n");
		return -1;
	}
	return 0;
}

void run_shared_release(struct run_shared *s)
{
	free(s->devices);
	s->devices = NULL;
}

int run_shared_option(struct run_shared *s, const struct optspec_parse *p)
{
	const char *v = p->value;

	if (!p->opt || p->opt < run_shared_opts ||
	    p->opt >= run_shared_opts + sizeof(run_shared_opts) / sizeof(run_shared_opts[0]))
		return 0;
	switch (p->opt->id) {
	case SH_DEVICE:
		if (!strchr(v, '=') || v[0] == '=') {
			fprintf(stderr, "iomatrix: '--device %s' needs NAME=PATH, e.g. --device "
				"ssd=/mnt/ssd\n", v);
			return -1;
		}
		s->devices[s->ndevices++] = v;
		break;
	case SH_OUT: s->out = v; break;
	case SH_SCALE:
		if (suite_cli_scale(v, &s->scale) < 0)
			return -1;
		s->scale_arg = v;
		break;
	case SH_DESTROY: s->yes_destroy_data = true; break;
	case SH_QUIET: s->quiet = true; break;
	default: return 0;
	}
	return 1;
}

/* agent's table lives here: cmd_agent.c only prints the usage it makes */
const struct command_spec agent_spec = {
	.name = "agent", .forms = { "" },
	.note = "(not for people: a fleet run starts it over ssh)",
	.hidden = true,
};

/* The order is the order of `iomatrix --help` and of the man page. */
const struct command bench_commands[] = {
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
	{ NULL, NULL },
};

size_t cli_command_specs(const struct command_spec **out, size_t max)
{
	const struct command *const tables[] = { bench_commands, report_commands };
	size_t n = 0;

	for (size_t t = 0; t < sizeof(tables) / sizeof(tables[0]); t++)
		for (const struct command *c = tables[t]; c->spec; c++)
			if (n < max)
				out[n++] = c->spec;
			else
				return n;
	return n;
}
