/*
 * cmd_plan.c - `iomatrix plan SUITE`: its option table, then the expanded cells
 * in run order with their stop rule, the cell count and an estimated time.
 * No IO.  The JSON form is resultset_plan_write(), byte for byte what
 * `run` writes as plan.json, streamed.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli.h"
#include "resultset/resultset.h"
#include "pts/ssd_plan.h"
#include "suite/suite_cli.h"
#include "suite/workload.h"
#include "util/termesc.h"
#include "util/units.h"

struct plan_args {
	struct suite_cli sc;
	const char *format;
};

static const struct option_spec plan_opts[] = {
	{ "--format", .kind = OPTK_WORD, .arg = "text|json", .words = "text json",
	  OPT_AT(struct plan_args, format), .def = "text",
	  .help = "text (a table) or json (the plan.json that run writes)" },
	OPT_INCLUDE(suite_cli_table, struct plan_args, sc),
	{ NULL },
};

/* "30s", "100000 req", "1G io", joined by " or "; "1 pass" when none. */
static void stop_rule(const struct cell *c, char *buf, size_t len)
{
	char t[32];

	buf[0] = '\0';
	if (c->runtime_ns) {
		units_format_duration(c->runtime_ns, t, sizeof(t));
		snprintf(buf + strlen(buf), len - strlen(buf), "%s", t);
	}
	if (c->requests)
		snprintf(buf + strlen(buf), len - strlen(buf), "%s%llu req",
			 buf[0] ? " or " : "", (unsigned long long)c->requests);
	if (c->io_size) {
		units_format_size_short(c->io_size, t, sizeof(t));
		snprintf(buf + strlen(buf), len - strlen(buf), "%s%s io",
			 buf[0] ? " or " : "", t);
	}
	if (c->io_size_mult > 0)
		snprintf(buf + strlen(buf), len - strlen(buf), "%s%gx io",
			 buf[0] ? " or " : "", c->io_size_mult);
	if (!buf[0])
		snprintf(buf, len, "1 pass");
}

static void size_col(const struct cell *c, char *buf, size_t len)
{
	char s[32], off[40] = "";

	if (c->size_pct)
		snprintf(s, sizeof(s), "%g%%", c->size_pct);
	else
		units_format_size_short(c->size, s, sizeof(s));
	if (c->offset_pct)
		snprintf(off, sizeof(off), " @%g%%", c->offset_pct);
	else if (c->offset) {
		char o[32];
		units_format_size_short(c->offset, o, sizeof(o));
		snprintf(off, sizeof(off), " @%s", o);
	}
	snprintf(buf, len, "%s x %u%s", s, c->files, off);
}

/* The keys the table's columns show. */
#define PLAN_COLUMNS (WORKLOAD_KEY(K_PATTERN) | WORKLOAD_KEY(K_BS) | WORKLOAD_KEY(K_IODEPTH) | \
		      WORKLOAD_KEY(K_JOBS) | WORKLOAD_KEY(K_ENGINE) | WORKLOAD_KEY(K_DIRECT) | \
		      WORKLOAD_KEY(K_SIZE) | WORKLOAD_KEY(K_FILES) | WORKLOAD_KEY(K_OFFSET) | \
		      WORKLOAD_KEY(K_RUNTIME) | WORKLOAD_KEY(K_REQUESTS) | WORKLOAD_KEY(K_IO_SIZE))

/* What tells each cell apart from the cells that share its label
 * (workload_apart) beyond the columns: "rate_iops 200".  NULL when no
 * more needs saying; else one string per cell ("" where nothing does),
 * which the caller frees. */
static char **apart_texts(const struct suite *s)
{
	const struct cell **cells = malloc((s->ncells ? s->ncells : 1) * sizeof(*cells));
	uint64_t *apart = malloc((s->ncells ? s->ncells : 1) * sizeof(*apart));
	char **out = NULL;
	bool any = false;

	for (size_t i = 0; cells && i < s->ncells; i++)
		cells[i] = &s->cells[i];
	if (!cells || !apart || workload_apart(cells, s->ncells, WORKLOAD_ALL & ~PLAN_COLUMNS, apart) < 0)
		goto out;
	for (size_t i = 0; i < s->ncells; i++)
		any |= apart[i] != 0;
	if (!any || !(out = calloc(s->ncells, sizeof(*out))))
		goto out;
	for (size_t i = 0; i < s->ncells; i++) {
		struct sbuf b = SBUF_INIT;
		workload_say(&s->cells[i], apart[i], &b);
		out[i] = b.len ? sbuf_detach(&b) : strdup("");
		sbuf_release(&b);
	}
out:
	free(cells);
	free(apart);
	return out;
}

static void print_text(const struct suite *s)
{
	int wdev = 6, wlab = 5;
	uint64_t est_ns = 0;
	size_t by_size = 0;
	char t[64];
	char **apart = apart_texts(s);

	for (size_t i = 0; i < s->ncells; i++) {
		int l = (int)strlen(s->cells[i].device);
		if (l > wdev)
			wdev = l;
		l = (int)strlen(s->cells[i].label);
		if (l > wlab)
			wlab = l;
	}
	printf("suite %s: ", s->name);
	termesc_puts(stdout, NULL, s->title);
	printf("file %s, sha256 %s\n\n", s->file, s->sha256);
	printf("%5s  %-*s  %-*s  %-9s  %5s  %4s  %4s  %-8s  %-6s  %-14s  %-18s  %s%s\n",
	       "id", wdev, "device", wlab, "label", "pattern", "bs", "qd", "jobs",
	       "engine", "direct", "size x files", "stop", "repeat",
	       apart ? "  apart from its label's other cells by" : "");
	for (size_t i = 0; i < s->ncells; i++) {
		const struct cell *c = &s->cells[i];
		char bs[32], sz[96], stop[96];
		units_format_size_short(c->bs, bs, sizeof(bs));
		size_col(c, sz, sizeof(sz));
		stop_rule(c, stop, sizeof(stop));
		printf("%5d  %-*s  %-*s  %-9s  %5s  %4u  %4u  %-8s  %-6s  %-14s  %-18s  %*u%s%s\n",
		       c->id, wdev, c->device, wlab, c->label, pattern_name(c->pattern),
		       bs, c->iodepth, c->jobs, c->engine, c->direct ? "yes" : "no",
		       sz, stop, apart ? -6 : 0, c->repeat, apart ? "  " : "",
		       apart ? apart[i] : "");
		uint64_t est = cell_estimate_ns(c);
		if (est)
			est_ns += est;
		else
			by_size++;
	}
	/* whole seconds are enough for an estimate */
	units_format_duration(est_ns / 1000000000ULL * 1000000000ULL, t, sizeof(t));
	printf("\n%zu cell%s on %zu device%s, estimated duration %s", s->ncells,
	       s->ncells == 1 ? "" : "s", s->ndevices, s->ndevices == 1 ? "" : "s", t);
	if (by_size)
		printf(" + %zu cell%s stopped by size, not estimated", by_size,
		       by_size == 1 ? "" : "s");
	printf(" (ramp + runtime per repetition, cooldown between them; file layout not included)\n");
	ssd_plan_print(s, stdout);
	for (size_t i = 0; apart && i < s->ncells; i++)
		free(apart[i]);
	free(apart);
}

int cmd_plan(const struct cmd_call *c)
{
	const struct plan_args *a = c->opts;
	struct suite *s = suite_cli_load(&a->sc, c->ops->v[0]);
	int rc = EXIT_OK;

	if (!s)
		return EXIT_USAGE;
	if (strcmp(a->format, "json")) {
		print_text(s);
	} else if (resultset_plan_write(stdout, s) == -ENOMEM) {
		fprintf(stderr, "iomatrix: out of memory\n");
		rc = EXIT_RUNTIME;
	}
	if (rc == EXIT_OK && fflush(stdout))
		rc = EXIT_RUNTIME;
	suite_free(s);
	return rc;
}

const struct command_spec plan_spec = {
	.name = "plan", .forms = { "SUITE.yaml" }, OPTSPEC_OPTS(plan_opts, struct plan_args),
	.operand = OPTK_SUITE, .more = suite_keys_help,
	.about =
	"Print every cell of the suite in run order (device by device, matrix\n"
	"cells then includes), the number of cells and an estimated duration\n"
	"(ramp + runtime + cooldown per repetition).  No IO is done.  The JSON\n"
	"form is exactly the plan.json that 'iomatrix run' writes.",
};
