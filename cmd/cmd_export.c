/*
 * cmd_export.c - `iomatrix export fio SUITE`: its option table, then the
 * suite loaded and handed to bench/export's export_fio() (fio_export.h says
 * what it writes).
 */
#include <limits.h>
#include <stdio.h>

#include "cli.h"
#include "export/fio_export.h"
#include "suite/suite_cli.h"

struct export_args {
	struct suite_cli sc;
	const char *out;
};

static const struct option_spec export_opts[] = {
	{ "-o", "--out --output", .kind = OPTK_DIR, OPT_AT(struct export_args, out),
	  .help = "where to write the job files (default: ./fio-SUITE; created if "
		  "needed)" },
	OPT_INCLUDE(suite_cli_table, struct export_args, sc),
	{ NULL },
};

int cmd_export(const struct cmd_call *c)
{
	const struct export_args *a = c->opts;
	struct suite *s = suite_cli_load(&a->sc, c->ops->v[1]);
	char dir[PATH_MAX];

	if (!s)
		return EXIT_USAGE;
	if (a->out)
		snprintf(dir, sizeof(dir), "%s", a->out);
	else
		snprintf(dir, sizeof(dir), "fio-%s", s->name);
	int rc = export_fio(s, dir);
	suite_free(s);
	return rc;
}

const struct command_spec export_spec = {
	.name = "export", .forms = { "fio SUITE.yaml" }, OPTSPEC_OPTS(export_opts, struct export_args),
	.first_words = "fio", .first_what = "format", .operand = OPTK_SUITE,
	.about =
	"Write one fio job file per cell of the suite (NNNN-device-label-pattern.fio)\n"
	"and run-all.sh, which runs them in order with --output-format=json.\n"
	"Purge is a blkdiscard step that asks first, preconditioning pre-DEVICE-N.fio\n"
	"jobs before the device's cells, rounds a loop; what fio cannot do (the\n"
	"steady-state stop) is marked NOT THE SAME in the job files and on stderr.\n"
	"run-all.sh writes a block device only with IOMATRIX_YES_DESTROY_DATA=1.",
};
