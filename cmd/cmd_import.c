/*
 * cmd_import.c - `iomatrix import fio|sysbench|csv FILE...`: read another
 * tool's output (or a table of published numbers) and store it as a normal
 * result set.  Its option table checks the arguments (each form's options:
 * --mode is sysbench's), and bench/import's import_run() (import.h) does
 * the rest: every input is parsed and checked before anything is written;
 * bad input exits 2 with file:line:col, a failed write exits 1.
 */
#include <stdio.h>
#include <string.h>

#include "cli.h"
#include "import/import.h"

struct import_args {
	struct import_req q;
	int threads;                /* --threads, 0: from the log */
	struct optlist hist_logs;   /* --hist-log, fio's histogram logs */
};

/* --date: "2026-11-30" (midnight UTC) or "2026-11-30T02:40:12Z"; iso
 * gets the second form.  0, or -1 when in is neither. */
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

static const char *import_date_check(const char *v)
{
	char iso[80];
	return parse_date(v, iso, sizeof(iso)) < 0 ?
	       "a date: YYYY-MM-DD or YYYY-MM-DDTHH:MM:SSZ (UTC)" : NULL;
}

static const char *import_host_check(const char *v)
{
	return strpbrk(v, "/\n\t ") ? "a host name without '/' or blanks" : NULL;
}

#define Q(f) OPT_AT(struct import_args, q.f)
#define HOST_MAX (sizeof(((struct import_set *)0)->host) - 1)

/* Form 0 is fio, 1 sysbench, 2 csv. */
static const struct option_spec import_opts[] = {
	{ "--device", .kind = OPTK_STRING, .arg = "NAME", .forms = OPT_FORM(0) | OPT_FORM(1),
	  Q(device), OPT_FROM_TO(1, CELL_NAME_MAX - 1),
	  .help = "device name for every cell (default: the job's directory or file name "
		  "for fio, the log's name for sysbench; csv names them in its 'device' "
		  "column)" },
	{ "--hist-log", .kind = OPTK_FILE, .arg = "FILE", .flags = OPT_REPEAT,
	  .forms = OPT_FORM(0), OPT_AT(struct import_args, hist_logs),
	  .help = "a histogram log of the fio job (write_hist_log with log_hist_msec; "
		  "again for the logs of its numjobs clones): each window becomes an "
		  "interval's latency histogram; the JSON must be json+ of that one job" },
	{ "-o", "--out --output", .kind = OPTK_DIR, .arg = "SETDIR", .forms = OPT_ALL_FORMS,
	  Q(out), .help = "the result set directory (default: $IOMATRIX_RESULTS or "
			  "results/, <UTC>_<kind>_<name>)" },
	{ "--title", .kind = OPTK_STRING, .forms = OPT_ALL_FORMS, Q(title),
	  .help = "report title" },
	{ "--host", .kind = OPTK_STRING, .arg = "NAME", .forms = OPT_ALL_FORMS, Q(host),
	  OPT_FROM_TO(1, HOST_MAX), .check = import_host_check, .example = "box",
	  .help = "the machine the tool ran on (default: unknown)" },
	{ "--date", .kind = OPTK_STRING, .arg = "WHEN", .forms = OPT_ALL_FORMS, Q(date),
	  .check = import_date_check, .example = "2026-11-30",
	  .help = "when it was measured, YYYY-MM-DD or YYYY-MM-DDTHH:MM:SSZ (UTC), for "
		  "inputs that do not say: fio's JSON has its 'timestamp'; sysbench logs "
		  "only where a script logged `date` (in UTC); the set's name and `list` "
		  "use it" },
	{ "--mode", .kind = OPTK_WORD, .arg = "M", .forms = OPT_FORM(1),
	  .words = "rndrd rndwr rndrw seqrd seqwr seqrewr", Q(sysbench.mode),
	  .section = "sysbench only (default: what the log says):",
	  .help = "the test mode: rndrd rndwr rndrw seqrd seqwr seqrewr" },
	{ "--bs", .kind = OPTK_SIZE, .forms = OPT_FORM(1), Q(sysbench.bs), OPT_ABOVE(0),
	  .help = "the block size, like 16k or 16384" },
	{ "--threads", .kind = OPTK_INT, .forms = OPT_FORM(1),
	  OPT_AT(struct import_args, threads), OPT_FROM_TO(1, 4096),
	  .help = "the number of threads" },
	{ NULL },
};

int cmd_import(const struct cmd_call *c)
{
	struct import_args *a = c->opts;
	struct import_req *q = &a->q;
	char dir[4096], date_iso[80] = "";

	q->kind = c->ops->v[0];
	q->files = c->ops->v + 1;
	q->nfiles = c->ops->n - 1;
	if (q->date)
		parse_date(q->date, date_iso, sizeof(date_iso));
	q->date_iso = date_iso[0] ? date_iso : NULL;
	q->sysbench.threads = (unsigned)a->threads;
	q->hist_logs = a->hist_logs.v;
	q->nhist_logs = a->hist_logs.n;
	int rc = import_run(q, dir, sizeof(dir));
	if (rc == EXIT_OK)
		cmd_index_set_said(dir);
	return rc;
}

const struct command_spec import_spec = {
	.name = "import",
	.forms = { "fio FILE.json...", "sysbench FILE.log...", "csv FILE.csv" },
	OPTSPEC_OPTS(import_opts, struct import_args), .first_words = "fio sysbench csv", .first_what = "kind",
	.operand = OPTK_FILE,
	.about =
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
	"            may be a sysbench alias (rndrd, seqwr, ...).",
	.epilog = "exit: 0 ok (prints the set directory), 1 write failed, 2 bad input or usage",
};
