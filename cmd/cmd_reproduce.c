/*
 * cmd_reproduce.c - `iomatrix reproduce SET|FILE`: its option table, then
 * report/reproduce/repro_flow.h's repro_reproduce() does the rest: re-run a
 * result set here from its own suite.yaml under the received-set rule
 * (bench/reproduce/received.h: the set supplies the workload, this command
 * line everything else), through run's one code path (handed in:
 * run_command), into a new set whose manifest records what it reproduces;
 * then judge it workload by workload.
 */
#include <stdio.h>

#include "cli.h"
#include "reproduce/repro_flow.h"
#include "suite/suite_cli.h"

struct repro_args {
	struct run_shared sh;       /* run's options, handed on to it */
	double tolerance;
	bool fail;
	bool drop_caches;
};

/* --device, --scale, --out, --yes-destroy-data, --quiet and --progress are
 * run's (suite/suite_cli.h run_shared_opts): reproduce hands them on. */
static const struct option_spec reproduce_opts[] = {
	OPT_INCLUDE(run_shared_opts, struct repro_args, sh),
	{ "--tolerance", .kind = OPTK_PERCENT, OPT_AT(struct repro_args, tolerance),
	  OPT_ABOVE_BELOW(0, 1000), .def = "10",
	  .help = "a ratio within +-PCT % is reproduced" },
	{ "--fail-if-not-reproduced", .kind = OPTK_FLAG, OPT_AT(struct repro_args, fail),
	  .help = "exit 3 when a workload is faster or slower beyond the tolerance" },
	{ "--drop-caches", .kind = OPTK_FLAG, OPT_AT(struct repro_args, drop_caches),
	  .help = "let the cells whose drop_caches is true sync and drop this machine's "
		  "page cache before each repetition (root)" },
	{ NULL },
};

int cmd_reproduce(const struct cmd_call *c)
{
	const struct repro_args *a = c->opts;
	struct repro_request rq = { c->ops->v[0], &a->sh, a->tolerance, a->fail, c->argc,
				    c->argv, a->drop_caches, cmd_index_set_made };

	return repro_reproduce(&rq, run_command);
}

const struct command_spec reproduce_spec = {
	.name = "reproduce", .forms = { "SET|FILE" }, OPTSPEC_OPTS(reproduce_opts, struct repro_args),
	.operand = OPTK_FILE, /* a set directory or a pack: bash offers both */
	.about =
	"Run a result set again here, from its own suite.yaml (its sha256 must\n"
	"match the manifest) with the same parameters, scale and seeds, into a\n"
	"new set whose manifest records the set it reproduces.  Then judge each\n"
	"workload: original ± CI, reproduction ± CI, their ratio and a verdict:\n"
	"\"reproduced\" when the confidence interval of the ratio lies within\n"
	"±tolerance, \"faster\" or \"slower\" when it lies wholly beyond it,\n"
	"\"inconclusive\" otherwise; and the differences between the two\n"
	"environments that could explain a miss.\n"
	"\n"
	"A received set supplies the workload and nothing else (SECURITY.md):\n"
	"every device its manifest or its suite names must be mapped with\n"
	"--device, no path, host or opt-in of the set is used (its hosts: are\n"
	"ignored, the cells run here), keep_files: true is refused, so is\n"
	"drop_caches: true without --drop-caches, and every safety rule of\n"
	"'run' applies: --yes-destroy-data allows writes to the\n"
	"block devices given with --device (the set's destructive: is ignored),\n"
	"and --scale replaces the set's own scale.",
	.epilog =
	"Prints the new set's directory on stdout, as run does (its one line\n"
	"there), and one line per workload and the verdict on stderr; 'report\n"
	"ORIGINAL NEW' and 'compare ORIGINAL NEW' show the same.\n"
	"A packed set (FILE, from 'iomatrix pack') is unpacked into the results\n"
	"directory first and verified, as 'iomatrix unpack FILE' does.\n"
	"Exit: 0 judged, 1 a cell failed, 2 bad input (no mapping, changed suite,\n"
	"an imported set without its parameters, a safety refusal), 3 not\n"
	"reproduced (with --fail-if-not-reproduced), 130 interrupted.",
};
