/*
 * cmd_import.c - `iomatrix import fio|sysbench|csv FILE...`: read another
 * tool's output (or a table of published numbers) and store it as a normal
 * result set.  The command checks its arguments and hands them to
 * bench/import's import_run() (import.h): every input is parsed and checked
 * before anything is written; bad input exits 2 with file:line:col, a
 * failed write exits 1.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli.h"
#include "import/import.h"
#include "util/units.h"

/* Form 0 is fio, 1 sysbench, 2 csv. */
static const struct option_spec import_opts[] = {
	{ "--mode", NULL, "M", OPT_FORM(1), .value = OPTV_WORDS,
	  .words = "rndrd rndwr rndrw seqrd seqwr seqrewr" },
	{ "--bs", NULL, "SIZE", OPT_FORM(1) },
	{ "--threads", NULL, "N", OPT_FORM(1) },
	{ "--device", NULL, "NAME", OPT_FORM(0) | OPT_FORM(1) },
	{ "-o", "--out --output", "SETDIR", OPT_ALL_FORMS, .value = OPTV_DIR },
	{ "--title", NULL, "TEXT", OPT_ALL_FORMS },
	{ "--host", NULL, "NAME", OPT_ALL_FORMS },
	{ "--date", NULL, "WHEN", OPT_ALL_FORMS },
	{ NULL },
};

const struct command_spec import_spec = {
	.name = "import",
	.forms = { "fio FILE.json...", "sysbench FILE.log...", "csv FILE.csv" },
	.opts = import_opts, .first_words = "fio sysbench csv", .operand = OPTV_FILE,
};

static void usage(FILE *f)
{
	optspec_usage(f, &import_spec);
	fprintf(f,
		"\n"
		"Turn another tool's output into a result set that 'iomatrix report' and\n"
		"'iomatrix compare' read like a run of iomatrix.\n"
		"\n"
		"  fio       fio 3.x --output-format=json or json+ (json+ bins become the\n"
		"            latency histogram); several jobs, group_reporting, mixed\n"
		"            read/write, --status-interval files (the last full report is\n"
		"            used) and warning lines before the JSON are all accepted.\n"
		"            A job is one cell; the same job in several files becomes\n"
		"            repetitions of that cell.\n"
		"  sysbench  sysbench 1.0 fileio 'run' output; the mode, block size and\n"
		"            threads come from the log (or --mode/--bs/--threads).  A log\n"
		"            may hold several runs (e.g. a script appending to one file).\n"
		"  csv       published numbers: header device,pattern,bs,iops,lat_ms,mb_s\n"
		"            (mb_s is 10^6 bytes/s; use mib_s instead for 2^20), optional\n"
		"            columns jobs,iodepth,engine,direct; RFC 4180 quoting; pattern\n"
		"            may be a sysbench alias (rndrd, seqwr, ...).\n"
		"\n"
		"options:\n"
		"  --device NAME  device name for every cell (default: the job's directory\n"
		"                 or file name for fio, the log's name for sysbench)\n"
		"  -o SETDIR      the result set directory (default:\n"
		"                 $IOMATRIX_RESULTS or results/, <UTC>_<kind>_<name>)\n"
		"  --title TEXT   report title\n"
		"  --host NAME    the machine the tool ran on (default: unknown)\n"
		"  --date WHEN    when it was measured, YYYY-MM-DD or YYYY-MM-DDTHH:MM:SSZ\n"
		"                 (UTC), for inputs that do not say: fio's JSON has its\n"
		"                 'timestamp'; sysbench logs only where a script logged\n"
		"                 `date` (in UTC); the set's name and `list` use it\n"
		"\n"
		"exit: 0 ok (prints the set directory), 1 write failed, 2 bad input or usage\n");
}

/* --date: "2026-11-30" (midnight UTC) or "2026-11-30T02:40:12Z". */
static int parse_date(const char *in, char *iso, size_t len)
{
	int Y, m, d, H = 0, M = 0, S = 0, n = 0;
	size_t l = strlen(in);
	if (l == 10 && sscanf(in, "%4d-%2d-%2d%n", &Y, &m, &d, &n) == 3 && n == 10)
		;
	else if (l == 20 && sscanf(in, "%4d-%2d-%2dT%2d:%2d:%2dZ%n", &Y, &m, &d, &H, &M, &S, &n) == 6 &&
		 n == 20)
		;
	else
		return -1;
	if (Y < 1970 || m < 1 || m > 12 || d < 1 || d > 31 || H > 23 || M > 59 || S > 60)
		return -1;
	snprintf(iso, len, "%04d-%02d-%02dT%02d:%02d:%02dZ", Y, m, d, H, M, S);
	return 0;
}

/* --host and --date are well formed (date_iso gets the ISO form); -1 with
 * the message printed. */
static int when_where_check(const char *host, const char *date, char *date_iso, size_t len)
{
	if (date && parse_date(date, date_iso, len) < 0) {
		fprintf(stderr, "iomatrix import: bad --date '%s'; write it as YYYY-MM-DD or "
			"YYYY-MM-DDTHH:MM:SSZ (UTC)\n", date);
		return -1;
	}
	size_t hmax = sizeof(((struct import_set *)0)->host) - 1;
	if (host && (!host[0] || strlen(host) > hmax || strpbrk(host, "/\n\t "))) {
		fprintf(stderr, "iomatrix import: --host '%s' must be 1..%zu characters, no '/' "
			"or spaces\n", host, hmax);
		return -1;
	}
	return 0;
}

/* The kind, the number of files and which options fit it.  0 ok, -1 on a
 * usage error (message printed). */
static int import_args_check(const char *kind, size_t nfiles, const char *device,
			     bool sysbench_opts)
{
	if (!kind) {
		fprintf(stderr, "iomatrix: say what to import: fio, sysbench or csv; see 'iomatrix import --help'\n");
		return -1;
	}
	if (strcmp(kind, "fio") && strcmp(kind, "sysbench") && strcmp(kind, "csv")) {
		fprintf(stderr, "iomatrix: unknown kind '%s'; use fio, sysbench or csv\n",
			kind);
		return -1;
	}
	if (!nfiles) {
		fprintf(stderr, "iomatrix: import %s: no input file given\n", kind);
		return -1;
	}
	if (device && (!device[0] || strlen(device) >= CELL_NAME_MAX)) {
		fprintf(stderr, "iomatrix: --device name must be 1..%d characters\n",
			CELL_NAME_MAX - 1);
		return -1;
	}
	if (strcmp(kind, "sysbench") && sysbench_opts) {
		fprintf(stderr, "iomatrix: import %s: --mode, --bs and --threads are for sysbench logs\n",
			kind);
		return -1;
	}
	if (!strcmp(kind, "csv") && (device || nfiles > 1)) {
		fprintf(stderr, "iomatrix: import csv: give one file; device names come from its 'device' column\n");
		return -1;
	}
	return 0;
}

/* --mode, --bs and --threads of `import sysbench` into o.  0 ok, -1 on a
 * bad value (message printed). */
static int sysbench_opts_parse(const char *mode, const char *bs_s, const char *threads_s,
			       struct import_sysbench_opts *o)
{
	if (mode) {
		enum pattern p;
		if (pattern_parse(mode, &p) < 0) {
			fprintf(stderr, "iomatrix: import sysbench: unknown --mode '%s'; use rndrd rndwr rndrw seqrd seqwr seqrewr\n",
				mode);
			return -1;
		}
	}
	if (bs_s && (units_parse_size(bs_s, &o->bs) < 0 || o->bs == 0)) {
		fprintf(stderr, "iomatrix: import sysbench: bad --bs '%s'; write it like 16k or 16384\n",
			bs_s);
		return -1;
	}
	if (threads_s) {
		char *end;
		unsigned long t = strtoul(threads_s, &end, 10);
		if (*end || t < 1 || t > 4096 || threads_s[0] == '-') {
			fprintf(stderr, "iomatrix: import sysbench: bad --threads '%s'; expected 1..4096\n",
				threads_s);
			return -1;
		}
		o->threads = (unsigned)t;
	}
	return 0;
}

int cmd_import(int argc, char **argv)
{
	struct import_req q = { 0 };
	const char *mode = NULL, *bs_s = NULL, *threads_s = NULL;
	const char **files = NULL;
	char dir[4096], date_iso[80] = "";
	int rc = EXIT_USAGE;

	if (cli_wants_help(argc, argv)) {
		usage(stdout);
		return EXIT_OK;
	}
	files = calloc((size_t)argc + 1, sizeof(*files));
	if (!files) {
		fprintf(stderr, "iomatrix: out of memory\n");
		return EXIT_RUNTIME;
	}
	for (int i = 1; i < argc; i++) {
		const char *a = argv[i];
		const char **dst = NULL;
		if (!strcmp(a, "--device"))
			dst = &q.device;
		else if (cli_is_out(a))
			dst = &q.out;
		else if (!strcmp(a, "--title"))
			dst = &q.title;
		else if (!strcmp(a, "--mode"))
			dst = &mode;
		else if (!strcmp(a, "--bs"))
			dst = &bs_s;
		else if (!strcmp(a, "--threads"))
			dst = &threads_s;
		else if (!strcmp(a, "--host"))
			dst = &q.host;
		else if (!strcmp(a, "--date"))
			dst = &q.date;
		if (dst) {
			if (i + 1 >= argc) {
				fprintf(stderr, "iomatrix: '%s' needs a value\n", a);
				goto out;
			}
			*dst = argv[++i];
			continue;
		}
		if (a[0] == '-' && a[1]) {
			fprintf(stderr, "iomatrix: unknown option '%s'; see 'iomatrix import --help'\n",
				a);
			goto out;
		}
		if (!q.kind)
			q.kind = a;
		else
			files[q.nfiles++] = a;
	}
	q.files = files;
	if (import_args_check(q.kind, q.nfiles, q.device, mode || bs_s || threads_s) < 0 ||
	    when_where_check(q.host, q.date, date_iso, sizeof(date_iso)) < 0)
		goto out;
	q.date_iso = date_iso[0] ? date_iso : NULL;
	q.sysbench.mode = mode;
	if (!strcmp(q.kind, "sysbench") &&
	    sysbench_opts_parse(mode, bs_s, threads_s, &q.sysbench) < 0)
		goto out;
	rc = import_run(&q, dir, sizeof(dir));
	if (rc == EXIT_OK)
		printf("%s\n", dir);
out:
	free(files);
	return rc;
}
