/*
 * cmd_run.c - `iomatrix run`: load the suite, check safety, create (or
 * resume) a result set, run every cell's repetitions through the runner,
 * write each cell and the manifest as soon as it is known, show progress,
 * and stop cleanly on SIGINT/SIGTERM.
 *
 * Exit rule: anything wrong with the input that is found before a cell does
 * IO (suite errors, unsafe device, results dir, O_DIRECT refused, bs below
 * the logical block size, engine not built in, missing path or permission)
 * exits 2 and runs no further cell; a failure while doing IO (EIO, ENOSPC)
 * marks that cell failed, the run goes on, and the exit code is 1.
 */
#include <ctype.h>
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <math.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/file.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "cli.h"
#include "suite/suite_cli.h"
#include "common/fsutil.h"
#include "fleet/run_fleet.h"
#include "engines/engine.h"
#include "host/fingerprint.h"
#include "host/run_devices.h"
#include "resultset/resultset.h"
#include "resultset/resume.h"
#include "pts/run_ssd.h"
#include "runner/runner.h"
#include "host/safety.h"
#include "common/stats.h"
#include "suite/suite.h"
#include "common/units.h"
#include "common/testhook.h"

struct run_args {
	const char *suite_path;
	const char **devices;   /* "NAME=PATH", owned array, borrowed strings */
	size_t ndevices;
	const char *out;
	const char *resume;
	double scale;           /* 0: not given */
	bool yes_destroy_data;
	bool quiet;
	const char *progress;   /* "auto" (default), "tty", "plain", "none" */
	struct run_fleet fleet; /* --hosts and friends (run_fleet.c) */
};

/* Set by the signal handler; the runner polls it through run_ctl.stop. */
static volatile sig_atomic_t stop_flag;

static void on_signal(int sig)
{
	stop_flag = sig;
}

/* Form 0 runs here, form 1 on a fleet (fleet/run_fleet.c parses those). */
static const struct option_spec run_opts[] = {
	{ "--device", NULL, "NAME=PATH", .flags = OPT_REPEAT },
	{ "--out", "-o --output", "DIR", .value = OPTV_DIR },
	{ "--resume", NULL, "SETDIR", .value = OPTV_DIR },
	{ "--scale", NULL, "F" },
	{ "--yes-destroy-data" },
	{ "--quiet", "-q" },
	{ "--progress", NULL, "auto|tty|plain|none", .value = OPTV_WORDS,
	  .words = "auto tty plain none" },
	{ "--hosts", NULL, "H1,H2,...", OPT_FORM(1), OPT_REQUIRED },
	{ "--aggregate", .forms = OPT_FORM(1) },
	{ "--ssh-config", NULL, "F", OPT_FORM(1), .value = OPTV_FILE },
	{ "--ssh-option", NULL, "O", OPT_FORM(1), OPT_REPEAT },
	{ "--remote-iomatrix", NULL, "PATH", OPT_FORM(1), .value = OPTV_FILE },
	{ "--parallel", NULL, "N", OPT_FORM(1) },
	{ "--skip-unreachable", .forms = OPT_FORM(1) },
	{ NULL },
};

const struct command_spec run_spec = {
	.name = "run", .forms = { "SUITE.yaml", "SUITE.yaml" },
	.opts = run_opts, .operand = OPTV_SUITE,
};

static void usage(FILE *f)
{
	optspec_usage(f, &run_spec);
	fprintf(f,
		"\n"
		"Run every cell of the suite and write a dated result set.\n"
		"\n"
		"  --device NAME=PATH  run device NAME of the suite on PATH instead\n"
		"  --out DIR           write the set to DIR (default: a new\n"
		"                      <time>_<suite>_<host> directory under\n"
		"                      $IOMATRIX_RESULTS or ./results)\n"
		"  --resume SETDIR     run only the cells SETDIR lacks (same suite\n"
		"                      sha256 required; SUITE.yaml may be omitted)\n"
		"  --scale F           multiply size, runtime, requests, io_size,\n"
		"                      ramp and cooldown by F (a quick rehearsal)\n"
		"  --yes-destroy-data  confirm writes to block devices marked\n"
		"                      'destructive: true' in the suite\n"
		"  --quiet             no progress output\n"
		"  --progress MODE     how a running cell reports: tty (one line\n"
		"                      rewritten in place on stderr), plain (one line\n"
		"                      per second on stderr, also when redirected),\n"
		"                      none; auto (default): tty when stderr is a\n"
		"                      terminal, else none.  Each finished cell prints\n"
		"                      one line in every mode but --quiet\n"
		"\n"
		"On a fleet, through ssh (docs/fleet.md):\n"
		"  --hosts H1,H2,...   run on these ssh destinations (survey: each on\n"
		"                      its own disks); one set <time>_<suite>_fleet\n"
		"  --aggregate         every host runs each cell at the same instant\n"
		"                      (shared storage); the set sums them exactly\n"
		"  --ssh-config FILE   ssh -F FILE     --ssh-option OPT   ssh -o OPT\n"
		"  --remote-iomatrix PATH  iomatrix on the hosts (default: on PATH)\n"
		"  --parallel N        survey: hosts driven at once (default all)\n"
		"  --skip-unreachable  run on the hosts that answer; record the rest\n"
		"  --device HOST:NAME=PATH  a device path for one host only\n"
		"\n"
		"The set directory is printed on stdout.  Exit: 0 ok, 1 a cell failed,\n"
		"2 bad input, 130 interrupted (finished cells kept; use --resume).\n");
}

/* "--opt VALUE" or "--opt=VALUE"; advances *i.  NULL when missing. */
static const char *opt_value(int argc, char **argv, int *i, const char *name)
{
	size_t n = strlen(name);

	if (!strncmp(argv[*i], name, n) && argv[*i][n] == '=')
		return argv[*i] + n + 1;
	if (strcmp(argv[*i], name))
		return NULL;
	if (*i + 1 >= argc)
		return NULL;
	return argv[++*i];
}

static bool is_opt(const char *arg, const char *name)
{
	size_t n = strlen(name);
	return !strncmp(arg, name, n) && (arg[n] == '\0' || arg[n] == '=');
}

static int parse_args(int argc, char **argv, struct run_args *a)
{
	memset(a, 0, sizeof(*a));
	run_fleet_init(&a->fleet, argc);
	a->devices = calloc((size_t)argc, sizeof(*a->devices));
	if (!a->devices) {
		fprintf(stderr, "iomatrix: out of memory\n");
		return -1;
	}
	for (int i = 1; i < argc; i++) {
		const char *arg = argv[i], *v;

		if (is_opt(arg, "--device")) {
			v = opt_value(argc, argv, &i, "--device");
			if (!v || !strchr(v, '=') || v[0] == '=') {
				fprintf(stderr, "iomatrix: '--device' needs NAME=PATH, e.g. --device ssd=/mnt/ssd\n");
				return -1;
			}
			a->devices[a->ndevices++] = v;
		} else if (is_opt(arg, "--out") || cli_is_out(arg)) {
			v = cli_is_out(arg) ? (i + 1 < argc ? argv[++i] : NULL)
					    : opt_value(argc, argv, &i, "--out");
			if (!v || !*v) {
				fprintf(stderr, "iomatrix: '--out' needs a directory\n");
				return -1;
			}
			a->out = v;
		} else if (is_opt(arg, "--resume")) {
			v = opt_value(argc, argv, &i, "--resume");
			if (!v || !*v) {
				fprintf(stderr, "iomatrix: '--resume' needs a result-set directory\n");
				return -1;
			}
			a->resume = v;
		} else if (is_opt(arg, "--scale")) {
			v = opt_value(argc, argv, &i, "--scale");
			if (!v) {
				fprintf(stderr, "iomatrix: '--scale' needs a factor, e.g. --scale 0.1\n");
				return -1;
			}
			if (suite_cli_scale(v, &a->scale) < 0)
				return -1;
		} else if (!strcmp(arg, "--yes-destroy-data")) {
			a->yes_destroy_data = true;
		} else if (!strcmp(arg, "--quiet") || !strcmp(arg, "-q")) {
			a->quiet = true;
		} else if (is_opt(arg, "--progress")) {
			const char *pm = opt_value(argc, argv, &i, "--progress");
			if (!pm || (strcmp(pm, "auto") && strcmp(pm, "tty") && strcmp(pm, "plain") &&
				    strcmp(pm, "none"))) {
				fprintf(stderr, "iomatrix: '--progress' takes auto, tty, plain or none\n");
				return -1;
			}
			a->progress = pm;
		} else if (!strcmp(arg, "--")) {
			if (i + 1 < argc && !a->suite_path)
				a->suite_path = argv[++i];
		} else if (arg[0] == '-' && arg[1]) {
			int r = run_fleet_option(&a->fleet, argc, argv, &i);
			if (r < 0)
				return -1;
			if (r > 0)
				continue;
			fprintf(stderr, "iomatrix: unknown option '%s'; see 'iomatrix run --help'\n", arg);
			return -1;
		} else if (!a->suite_path) {
			a->suite_path = arg;
		} else {
			fprintf(stderr, "iomatrix: one suite at a time ('%s' and '%s'); run them one after the other\n",
				a->suite_path, arg);
			return -1;
		}
	}
	if (a->out && a->resume) {
		fprintf(stderr, "iomatrix: '--out' and '--resume' exclude each other (a resumed set stays where it is)\n");
		return -1;
	}
	if (!a->suite_path && !a->resume) {
		fprintf(stderr, "iomatrix: missing SUITE.yaml; see 'iomatrix run --help'\n");
		return -1;
	}
	return 0;
}

static double mono_s(void)
{
	struct timespec ts;
	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}

/* ---- progress ---- */

struct progress_state {
	bool tty, quiet;
	bool plain;                  /* one line per second, newline-ended */
	size_t k, n;                 /* current cell (1-based), cells in plan */
	const struct cell *c;
	unsigned rep;
	unsigned round;              /* 0: the suite has no rounds */
	double set_start;
	double cell_start;
	double known_left_s;         /* estimate of the cells after this one */
	size_t unknown_left;         /* of those, cells stopped by size */
	double done_s;               /* wall time of cells finished so far */
	size_t done_n;
	double last_print;
	bool line_open;
};

/* Seconds a cell takes when it is time-limited, -1 when unknown. */
static double cell_estimate_s(const struct cell *c)
{
	uint64_t ns = cell_estimate_ns(c);
	return ns ? (double)ns / 1e9 : -1;
}

static void format_eta(double s, char *buf, size_t len)
{
	if (s < 0) {
		snprintf(buf, len, "?");
		return;
	}
	unsigned long t = (unsigned long)(s + 0.5);
	if (t >= 3600)
		snprintf(buf, len, "%luh%02lum", t / 3600, t / 60 % 60);
	else if (t >= 60)
		snprintf(buf, len, "%lum%02lus", t / 60, t % 60);
	else
		snprintf(buf, len, "%lus", t);
}

static double eta_s(const struct progress_state *ps, double cell_elapsed)
{
	double avg = ps->done_n ? ps->done_s / (double)ps->done_n : -1;
	double cur = cell_estimate_s(ps->c);
	double left;

	if (cur < 0)
		cur = avg;
	if (cur < 0 || (ps->unknown_left && avg < 0))
		return -1;
	left = cur - cell_elapsed;
	if (left < 0)
		left = 0;
	return left + ps->known_left_s + (double)ps->unknown_left * avg;
}

static void progress_cb(void *arg, const struct progress *p)
{
	struct progress_state *ps = arg;
	char eta[32], line[512];
	double now = mono_s();

	if (ps->quiet || (!ps->tty && !ps->plain))
		return;
	if (now - ps->last_print < (ps->plain ? 1.0 : 0.2))
		return;
	ps->last_print = now;
	format_eta(eta_s(ps, now - ps->cell_start), eta, sizeof(eta));
	if (p->in_layout) {
		snprintf(line, sizeof(line), "cell %zu/%zu %s %s %s  laying out %3.0f%%  ETA %s",
			 ps->k, ps->n, ps->c->device, ps->c->label,
			 pattern_name(ps->c->pattern),
			 p->layout_frac * 100, eta);
	} else {
		char round[32] = "";   /* steady-state rounds: "round 3 " */
		if (ps->round)
			snprintf(round, sizeof(round), "round %u ", ps->round);
		snprintf(line, sizeof(line), "%scell %zu/%zu %s %s %s rep %u/%u%s  %.0f IOPS  %.1f MB/s  ETA %s",
			 round, ps->k, ps->n, ps->c->device, ps->c->label,
			 pattern_name(ps->c->pattern), ps->rep,
			 ps->c->steady.window ? ps->c->steady.max : ps->c->repeat,
			 p->in_ramp ? " (ramp)" : "", p->iops,
			 p->bw_bytes_s / 1e6, eta);
	}
	if (ps->plain) {
		fprintf(stderr, "%s\n", line);
		fflush(stderr);
		return;
	}
	fprintf(stderr, "\r\033[K%s", line);
	fflush(stderr);
	ps->line_open = true;
}

static void progress_clear(struct progress_state *ps)
{
	if (ps->line_open) {
		fprintf(stderr, "\r\033[K");
		ps->line_open = false;
	}
}

/* ---- manifest ---- */

static cJSON *manifest_new(const struct suite *s, double scale, int argc,
			   char **argv)
{
	struct manifest_info mi = {
		.scale = scale > 0 ? scale : 1,
		.command = argv, .ncommand = argc,
		.tool = fingerprint_tool(), .host = fingerprint_host(),
		.suite_name = s->name, .title = s->title,
		.description = s->description, .file = s->file,
		.sha256 = s->sha256, .cells_total = s->ncells,
	};
	cJSON *m = resultset_manifest_new(&mi);

	for (size_t i = 0; m && i < s->ndevices; i++) {
		const struct suite_device *d = &s->devices[i];
		resultset_manifest_add_device(m, d->name, d->path, d->destructive,
					      fingerprint_device(d->path));
	}
	return m;
}

/* ---- checks before any IO ---- */

static int check_inputs(const struct suite *s, const struct run_args *a)
{
	int bad = 0;

	for (size_t i = 0; i < s->ndevices; i++) {
		const struct suite_device *d = &s->devices[i];
		char err[1024], parent[PATH_MAX];
		struct stat st;
		bool writes = false;

		for (size_t k = 0; k < s->ncells; k++)
			if (!strcmp(s->cells[k].device, d->name) &&
			    pattern_writes(s->cells[k].pattern))
				writes = true;
		/* purge and preconditioning write the whole device */
		writes |= d->purge != PURGE_NONE || d->pre.kind != PRECOND_NONE;
		if (d->purge == PURGE_DISCARD && !a->yes_destroy_data) {
			fprintf(stderr, "%s:%u:%u: 'purge: discard' of device '%s' erases "
				"all of '%s': add --yes-destroy-data to the command line "
				"if that is what you want\n", s->file, d->purge_line,
				d->purge_col, d->name, d->path);
			bad = 1;
			continue;
		}
		if (stat(d->path, &st) < 0) {
			/* a file that does not exist yet is fine if its
			 * directory does: the runner creates it */
			fsutil_parent(d->path, parent, sizeof(parent));
			if (errno != ENOENT || stat(parent, &st) < 0 ||
			    !S_ISDIR(st.st_mode)) {
				fprintf(stderr, "iomatrix: device '%s': cannot use '%s': %s; create it or pass --device %s=PATH\n",
					d->name, d->path, strerror(errno == 0 ? ENOENT : errno),
					d->name);
				bad = 1;
				continue;
			}
		}
		bool direct = false, io = false;
		for (size_t k = 0; k < s->ncells; k++) {
			const struct engine *e = engine_find(s->cells[k].engine);
			bool cell_io = !e || !(e->flags & ENGINE_NO_IO);
			if (!strcmp(s->cells[k].device, d->name) && cell_io) {
				io = true;
				direct = direct || s->cells[k].direct;
			}
		}
		/* before the O_DIRECT probe, which creates a file */
		if (safety_check_target(d->name, d->path, writes, io, d->destructive,
					a->yes_destroy_data, err, sizeof(err)) < 0) {
			fprintf(stderr, "iomatrix: %s\n", err);
			bad = 1;
			continue;
		}
		if (direct && runner_check_direct(d->path, err, sizeof(err)) < 0) {
			fprintf(stderr, "iomatrix: %s\n", err);
			bad = 1;
			continue;
		}
		if (safety_check_device(d->name, d->path, writes, d->destructive,
					a->yes_destroy_data, err, sizeof(err)) < 0) {
			fprintf(stderr, "iomatrix: %s\n", err);
			bad = 1;
		}
	}
	for (size_t k = 0; k < s->ncells; k++) {
		const struct cell *c = &s->cells[k];
		if (!engine_find(c->engine)) {
			/* suggest the first built-in engine that does real IO */
			const char *alt = "psync";
			for (const char *const *n = engine_names(); *n; n++) {
				const struct engine *e = engine_find(*n);
				if (e && !(e->flags & ENGINE_NO_IO)) {
					alt = *n;
					break;
				}
			}
			fprintf(stderr, "iomatrix: cell %d (%s %s): engine '%s' is not built into this iomatrix; use %s or rebuild with its library installed\n",
				c->id, c->device, c->label, c->engine, alt);
			bad = 1;
			break;
		}
	}
	return bad ? -1 : 0;
}

/* Errors from runner_prepare that mean the input is wrong (exit 2) rather
 * than that the IO failed. */
static bool prepare_error_is_input(int e)
{
	switch (e) {
	case -EINVAL: case -ENOENT: case -ENOTDIR: case -EISDIR:
	case -EACCES: case -EPERM: case -EOPNOTSUPP: case -ENODEV:
	case -ENOSYS: case -EROFS: case -ENXIO: case -ENOTBLK: case -EEXIST:
#if EOPNOTSUPP != ENOTSUP
	case -ENOTSUP:
#endif
		return true;
	default:
		return false;
	}
}

/* Sleep up to ns, waking early when stopped. */
static void cooldown(uint64_t ns)
{
	while (ns > 0 && !stop_flag) {
		uint64_t step = ns < 50000000ull ? ns : 50000000ull;
		struct timespec ts = { (time_t)(step / 1000000000ull),
				       (long)(step % 1000000000ull) };
		nanosleep(&ts, NULL);
		ns -= step;
	}
}

static bool same_file_set(const struct cell *a, const struct cell *b)
{
	return !strcmp(a->device, b->device) && !strcmp(a->path, b->path) &&
	       a->files == b->files;
}

static void print_cell_line(const struct progress_state *ps,
			    const struct cell *c, const char *error,
			    const struct rep_result *reps, unsigned nreps)
{
	double iops = 0, bw = 0, lat = 0;
	uint64_t latn = 0;

	/* a failure is an error message, not progress: --quiet keeps it */
	if (error) {
		fprintf(stderr, "cell %zu/%zu %s %s %s: failed: %s\n", ps->k, ps->n,
			c->device, c->label, pattern_name(c->pattern), error);
		return;
	}
	if (ps->quiet)
		return;
	for (unsigned r = 0; r < nreps; r++) {
		double secs = (double)reps[r].runtime_ns / 1e9;
		for (int d = 0; d < DIR__COUNT; d++) {
			if (secs > 0) {
				iops += (double)reps[r].dir[d].ios / secs;
				bw += (double)reps[r].dir[d].bytes / secs;
			}
			lat += reps[r].dir[d].lat.mean * (double)reps[r].dir[d].lat.n;
			latn += reps[r].dir[d].lat.n;
		}
	}
	if (nreps) {
		iops /= nreps;
		bw /= nreps;
	}
	fprintf(stderr, "cell %zu/%zu %s %s %s: %.0f IOPS  %.1f MB/s  lat mean %.1f us  (%u rep%s)\n",
		ps->k, ps->n, c->device, c->label, pattern_name(c->pattern),
		iops, bw / 1e6,
		latn ? lat / (double)latn / 1e3 : 0.0, nreps, nreps == 1 ? "" : "s");
}

/* ---- the cell loop: devices, rounds, cells ---- */

/* What the loop shares while it runs cells, device by device and round by
 * round. */
struct run_state {
	const struct suite *s;
	const struct run_args *a;
	struct resultset *rs;
	struct progress_state *ps;
	struct run_ctl *ctl;
	struct target tgt;
	const struct cell *tgt_cell;
	bool have_tgt, failed_any, pre_created;
	int fatal, rc;
	struct rep_result *reps;      /* grown per cell */
	unsigned areps;
	double *eta_known;            /* eta_init's suffix sums, owned */
	size_t *eta_unknown;
};

static bool cell_done(const struct resultset *rs, int id)
{
	const cJSON *st = cJSON_GetObjectItemCaseSensitive(
		resultset_cell_entry(rs, id), "status");
	return cJSON_IsString(st) && !strcmp(st->valuestring, "ok");
}

/* ETA bookkeeping: what remains after cell i (one pass of the plan), from
 * suffix sums made once (eta_init): a scan of the remaining cells per cell
 * made a run quadratic in its cells. */
static void eta_prepare(struct run_state *st, size_t i)
{
	struct progress_state *ps = st->ps;
	ps->known_left_s = st->eta_known ? st->eta_known[i + 1] : 0;
	ps->unknown_left = st->eta_unknown ? st->eta_unknown[i + 1] : 0;
}

/* The suffix sums of eta_prepare: estimate and count of cells stopped by
 * size from cell k on (done cells of a resumed set left out, except in
 * rounds, which run every cell again).  Without memory the ETA is "?". */
static void eta_init(struct run_state *st)
{
	size_t n = st->s->ncells;

	st->eta_known = calloc(n + 1, sizeof(*st->eta_known));
	st->eta_unknown = calloc(n + 1, sizeof(*st->eta_unknown));
	if (!st->eta_known || !st->eta_unknown) {
		free(st->eta_known);
		free(st->eta_unknown);
		st->eta_known = NULL;
		st->eta_unknown = NULL;
		return;
	}
	for (size_t k = n; k-- > 0;) {
		double est = -1;
		if (st->s->rounds.on || !cell_done(st->rs, st->s->cells[k].id))
			est = cell_estimate_s(&st->s->cells[k]);
		bool skip = !st->s->rounds.on && cell_done(st->rs, st->s->cells[k].id);
		st->eta_known[k] = st->eta_known[k + 1] + (!skip && est >= 0 ? est : 0);
		st->eta_unknown[k] = st->eta_unknown[k + 1] + (!skip && est < 0);
	}
}

/* Files are reused while consecutive cells use the same set of files;
 * runner_prepare re-checks O_DIRECT and geometry for each cell and re-lays
 * out only when the size changed.  0 or -errno with cerr filled in. */
static int cell_target(struct run_state *st, const struct cell *c,
		       char *cerr, size_t len)
{
	if (st->have_tgt && !same_file_set(st->tgt_cell, c)) {
		runner_cleanup(&st->tgt, st->tgt_cell->keep_files);
		target_release(&st->tgt);
		st->have_tgt = false;
	}
	struct target nt = { 0 };
	int ret = runner_prepare(c, &nt, st->ctl, cerr, len);
	progress_clear(st->ps);
	if (st->have_tgt) {
		/* The same files: still ours to remove if they were.  A failed
		 * prepare hands back an empty target, so the files made for
		 * earlier cells are removed now. */
		if (ret < 0)
			runner_cleanup(&st->tgt, st->tgt_cell->keep_files);
		else if (st->tgt.created)
			nt.created = true;
		target_release(&st->tgt);
		st->have_tgt = false;
	}
	if (ret == 0 && st->pre_created) {
		nt.created = true; /* preconditioning made them */
		st->pre_created = false;
	}
	st->tgt = nt;
	st->have_tgt = true;
	st->tgt_cell = c;
	return ret;
}

/* Repetitions of one cell: `repeat` of them, or with steady_state until
 * the last `window` are steady (at most `max`).  Returns how many finished;
 * cerr says why it stopped early. */
static unsigned cell_reps(struct run_state *st, const struct cell *c,
			  struct steady_verdict *sv, char *cerr, size_t len)
{
	unsigned want = c->steady.window ? c->steady.max : c->repeat, n = 0;
	double *vals = NULL;

	memset(sv, 0, sizeof(*sv));
	if (want > st->areps) {
		struct rep_result *nr = realloc(st->reps, sizeof(*nr) * want);
		vals = NULL;
		if (!nr) {
			snprintf(cerr, len, "out of memory");
			return 0;
		}
		st->reps = nr;
		st->areps = want;
	}
	if (c->steady.window && !(vals = calloc(want, sizeof(*vals)))) {
		snprintf(cerr, len, "out of memory");
		return 0;
	}
	for (unsigned r = 0; r < want && !stop_flag; r++) {
		if (r > 0)
			cooldown(c->cooldown_ns);
		if (stop_flag)
			break;
		st->ps->rep = r + 1;
		memset(&st->reps[n], 0, sizeof(st->reps[n]));
		int ret = runner_run_rep(c, &st->tgt, st->ctl, &st->reps[n], cerr, len);
		progress_clear(st->ps);
		if (ret == -EINTR || stop_flag) {
			rep_result_release(&st->reps[n]);
			break;
		}
		if (ret < 0) {
			rep_result_release(&st->reps[n]);
			if (!cerr[0])
				snprintf(cerr, len, "%s", strerror(-ret));
			if (want > 1) { /* say which one */
				char tmp[PATH_MAX + 512];
				snprintf(tmp, sizeof(tmp), "%s", cerr);
				snprintf(cerr, len, "repetition %u of %u: %.*s", r + 1,
					 want, (int)len - 40, tmp);
			}
			break;
		}
		n++;
		if (vals) {
			vals[n - 1] = ssd_reps_metric(&st->reps[n - 1], 1, SS_IOPS);
			steady_judge(vals, n, &c->steady, sv);
			if (sv->steady)
				break;
		}
	}
	free(vals);
	return n;
}

/* The steady_state record of a cell that repeated until steady. */
static void cell_steady_json(cJSON *j, const struct cell *c,
			     const struct steady_verdict *v, unsigned nreps)
{
	cJSON *o = cJSON_AddObjectToObject(j, "steady_state");
	if (!o)
		return;
	cJSON_AddNumberToObject(o, "window", c->steady.window);
	cJSON_AddNumberToObject(o, "range_pct", c->steady.range_frac * 100);
	cJSON_AddNumberToObject(o, "slope_pct", c->steady.slope_frac * 100);
	cJSON_AddNumberToObject(o, "max", c->steady.max);
	cJSON_AddBoolToObject(o, "steady", v->steady);
	if (v->steady)
		cJSON_AddNumberToObject(o, "steady_rep", nreps);
	else
		cJSON_AddNullToObject(o, "steady_rep");
	cJSON_AddNumberToObject(o, "range_found_pct", v->range_frac * 100);
	cJSON_AddNumberToObject(o, "slope_found_pct", v->slope_frac * 100);
}

/*
 * The cell file: its summary covers the measurement window (the last
 * `window` rounds, or repetitions with steady_state), while "repetitions"
 * keeps everything measured, each repetition tagged with its round.
 */
static cJSON *cell_file_json(struct run_state *st, const struct cell *c,
			     const char *cerr, const char *started,
			     const char *finished, unsigned nreps,
			     unsigned round, const struct steady_verdict *sv)
{
	const struct rep_result *win = st->reps;
	unsigned nwin = nreps;
	struct rep_result *old = NULL;
	unsigned nold = 0;
	cJSON *all = NULL, *j = NULL, *x;

	if (c->steady.window && nreps > c->steady.window) {
		win = st->reps + nreps - c->steady.window;
		nwin = c->steady.window;
	}
	if (round) {
		unsigned w = st->s->rounds.rule.window;
		unsigned wf = round >= w ? round - w + 1 : 1;
		all = round > 1 ? ssd_old_round_reps(st->rs->dir, c->id, round) :
				  cJSON_CreateArray();
		if (!all)
			return NULL;
		old = calloc((size_t)cJSON_GetArraySize(all) + nreps + 1, sizeof(*old));
		if (!old)
			goto out;
		cJSON_ArrayForEach(x, all) {
			const cJSON *rn = cJSON_GetObjectItemCaseSensitive(x, "round");
			if (cJSON_IsNumber(rn) && rn->valuedouble >= wf &&
			    ssd_rep_from_json(x, &old[nold]) == 0)
				nold++;
		}
		/* the window: earlier rounds' from their JSON, this round's as
		 * measured (copies that borrow the histograms) */
		memcpy(old + nold, st->reps, sizeof(*old) * nreps);
		win = old;
		nwin = nold + nreps;
	}
	struct cell_outcome out = {
		.error = cerr, .started_at = started, .finished_at = finished,
		.reps = win, .nreps = nwin,
	};
	j = resultset_cell_to_json(c, &out);
	if (!j || (!round && !c->steady.window))
		goto out;
	if (!round) { /* steady_state: keep every repetition */
		cJSON *ra = cJSON_CreateArray();
		for (unsigned r = 0; ra && r < nreps; r++)
			cJSON_AddItemToArray(ra, resultset_rep_to_json(&st->reps[r], (int)r + 1));
		if (ra)
			cJSON_ReplaceItemInObjectCaseSensitive(j, "repetitions", ra);
		cell_steady_json(j, c, sv, nreps);
		goto out;
	}
	int no = cJSON_GetArraySize(all);
	for (unsigned r = 0; r < nreps; r++) {
		cJSON *rj = resultset_rep_to_json(&st->reps[r], no + (int)r + 1);
		if (rj) {
			cJSON_AddNumberToObject(rj, "round", round);
			cJSON_AddItemToArray(all, rj);
		}
	}
	cJSON_ReplaceItemInObjectCaseSensitive(j, "repetitions", all);
	all = NULL;
	x = cJSON_AddObjectToObject(j, "rounds");
	if (x) {
		unsigned w = st->s->rounds.rule.window;
		cJSON_AddNumberToObject(x, "done", round);
		cJSON_AddNumberToObject(x, "window_first", round >= w ? round - w + 1 : 1);
		cJSON_AddNumberToObject(x, "window_last", round);
	}
	if (c->steady.window)
		cell_steady_json(j, c, sv, nreps);
out:
	for (unsigned r = 0; r < nold; r++)
		rep_result_release(&old[r]);
	free(old);
	cJSON_Delete(all);
	return j;
}

/* Run cell i (round 0: no rounds) and write its file.  rst gets the
 * tracked value of this round. */
static void run_cell(struct run_state *st, size_t i, unsigned round,
		     struct rounds_state *rst)
{
	const struct cell *c = &st->s->cells[i];
	struct progress_state *ps = st->ps;
	char started[32], finished[32], cerr[PATH_MAX + 512] = "", err[1024];
	struct steady_verdict sv = { 0 };
	unsigned nreps = 0;

	if (!round && cell_done(st->rs, c->id)) {
		/* resume: the index says measured; the file must agree */
		char why[256];
		if (resultset_cell_verify(st->rs, c, why, sizeof(why)) == 0)
			return;
		fprintf(stderr, "iomatrix: cell %d (%s %s): %s; measuring it again\n",
			c->id, c->device, c->label, why);
	}
	eta_prepare(st, i);
	ps->k = i + 1;
	ps->c = c;
	ps->rep = 0;
	ps->round = round;
	ps->cell_start = mono_s();
	iso8601_now(started, sizeof(started));
	int ret = cell_target(st, c, cerr, sizeof(cerr));
	if (ret == -EINTR || stop_flag)
		return;
	if (ret < 0) {
		if (!cerr[0])
			snprintf(cerr, sizeof(cerr), "cannot prepare '%s': %s", c->path,
				 strerror(-ret));
		if (prepare_error_is_input(ret)) {
			st->fatal = 1;
			fprintf(stderr, "iomatrix: %s\n", cerr);
		}
	} else {
		nreps = cell_reps(st, c, &sv, cerr, sizeof(cerr));
		if (stop_flag) {
			/* an unfinished cell is not kept: --resume reruns it */
			for (unsigned r = 0; r < nreps; r++)
				rep_result_release(&st->reps[r]);
			return;
		}
	}
	iso8601_now(finished, sizeof(finished));
	if (rst)
		rounds_state_note(rst, c, ssd_reps_metric(st->reps, nreps,
							  st->s->rounds.metric));
	cJSON *cj = cell_file_json(st, c, cerr[0] ? cerr : NULL, started, finished,
				   nreps, round, &sv);
	if (!st->fatal) /* a fatal error was printed once already */
		print_cell_line(ps, c, cerr[0] ? cerr : NULL, st->reps, nreps);
	for (unsigned r = 0; r < nreps; r++)
		rep_result_release(&st->reps[r]);
	if (!cj) {
		fprintf(stderr, "iomatrix: out of memory writing cell %d\n", c->id);
		st->rc = EXIT_RUNTIME;
		st->fatal = 1;
		return;
	}
	if (cerr[0])
		st->failed_any = true;
	if (resultset_write_cell(st->rs, c->id, cj, err, sizeof(err)) < 0) {
		fprintf(stderr, "iomatrix: %s\n", err);
		st->rc = EXIT_RUNTIME;
		st->fatal = 1;
		return;
	}
	testhook_point("cell");
	ps->done_s += mono_s() - ps->cell_start;
	ps->done_n++;
}

static const struct suite_device *device_of(const struct suite *s, const char *name)
{
	for (size_t d = 0; d < s->ndevices; d++)
		if (!strcmp(s->devices[d].name, name))
			return &s->devices[d];
	return NULL;
}

/* Purge and precondition before the device's first cell runs, unless a
 * resumed device already measured something (its state would be undone). */
static int device_begin(struct run_state *st, const struct suite_device *d,
			const struct cell *first, bool fresh)
{
	char err[PATH_MAX + 512] = "";
	if (!fresh || (d->purge == PURGE_NONE && d->pre.kind == PRECOND_NONE))
		return 0;
	if (st->have_tgt && !same_file_set(st->tgt_cell, first)) {
		runner_cleanup(&st->tgt, st->tgt_cell->keep_files);
		target_release(&st->tgt);
		st->have_tgt = false;
	}
	int r = ssd_prepare_device(d, first, st->a->yes_destroy_data, st->ctl,
				   st->rs->dir, st->a->quiet, &st->pre_created,
				   err, sizeof(err));
	progress_clear(st->ps);
	if (r == -EINTR || stop_flag)
		return -1;
	if (r < 0) {
		fprintf(stderr, "iomatrix: device '%s': %s\n", d->name, err);
		st->fatal = 1;
		if (!prepare_error_is_input(r)) {
			st->rc = EXIT_RUNTIME;
			st->failed_any = true;
		}
		return -1;
	}
	return 0;
}

static void rounds_verdict(const struct rounds_state *rst, bool quiet)
{
	if (quiet && rst->steady_round)
		return;
	if (rst->steady_round)
		fprintf(stderr, "iomatrix: %s: steady state at round %u (window %u..%u)\n",
			rst->device, rst->steady_round,
			rst->steady_round + 1 - rst->cfg->rule.window, rst->steady_round);
	else if (rst->finished)
		fprintf(stderr, "iomatrix: warning: %s: NOT steady after %u rounds; "
			"the results are the averages of the last %u\n", rst->device,
			rst->rounds_done, rst->cfg->rule.window);
}

/* The cells [i0, i1) of one device: once, or round by round. */
static void run_device(struct run_state *st, size_t i0, size_t i1)
{
	const struct suite *s = st->s;
	const struct suite_device *d = device_of(s, s->cells[i0].device);
	struct rounds_state rst;
	char err[1024];

	if (!s->rounds.on) {
		bool fresh = true;
		for (size_t i = i0; i < i1; i++)
			fresh &= !cell_done(st->rs, s->cells[i].id);
		if (d && device_begin(st, d, &s->cells[i0], fresh) < 0)
			return;
		for (size_t i = i0; i < i1 && !stop_flag && !st->fatal; i++)
			run_cell(st, i, 0, NULL);
		return;
	}
	if (rounds_state_load(&rst, s, s->cells[i0].device, st->rs->dir, err,
			      sizeof(err)) < 0) {
		fprintf(stderr, "iomatrix: %s\n", err);
		st->rc = EXIT_RUNTIME;
		st->fatal = 1;
		return;
	}
	if (rst.finished) {
		rounds_verdict(&rst, st->a->quiet);
		goto out;
	}
	if (rst.rounds_done && !st->a->quiet)
		fprintf(stderr, "iomatrix: %s: resuming at round %u\n", rst.device,
			rst.rounds_done + 1);
	if (d && device_begin(st, d, &s->cells[i0], rst.rounds_done == 0) < 0)
		goto out;
	while (!rst.finished && !stop_flag && !st->fatal) {
		unsigned round = rst.rounds_done + 1;
		if (!st->a->quiet)
			fprintf(stderr, "iomatrix: %s: round %u (at most %u)\n",
				rst.device, round, s->rounds.rule.max);
		for (size_t i = i0; i < i1 && !stop_flag && !st->fatal; i++)
			run_cell(st, i, round, &rst);
		if (stop_flag || st->fatal)
			break; /* an unfinished round is run again on --resume */
		if (rounds_state_end_round(&rst, st->rs->dir, err, sizeof(err)) < 0) {
			fprintf(stderr, "iomatrix: %s\n", err);
			st->rc = EXIT_RUNTIME;
			st->fatal = 1;
			break;
		}
	}
	rounds_verdict(&rst, st->a->quiet);
out:
	rounds_state_release(&rst);
}

/* Every device in plan order (a device's cells are contiguous). */
static void run_all(struct run_state *st)
{
	const struct suite *s = st->s;
	size_t i = 0;
	while (i < s->ncells && !stop_flag && !st->fatal) {
		size_t end = i + 1;
		while (end < s->ncells && !strcmp(s->cells[end].device, s->cells[i].device))
			end++;
		run_device(st, i, end);
		i = end;
	}
	progress_clear(st->ps);
	if (st->have_tgt) {
		runner_cleanup(&st->tgt, st->tgt_cell->keep_files);
		target_release(&st->tgt);
		st->have_tgt = false;
	}
}

/* ---- the command ---- */

/* Everything one `run` holds, so that its phases can be functions. */
struct run {
	struct run_args a;
	struct suite_opts so;
	struct suite *s;
	struct resultset rs;
	bool have_rs;
	const char **overrides;      /* resume: the set's NAME=PATH, owned */
	char resume_suite[PATH_MAX];
	int lock_fd;
	struct progress_state ps;
	struct run_ctl ctl;
	bool failed_any;
	int fatal, rc;
	char err[2048];
};

/* The device paths of a resumed set as NAME=PATH overrides (the set fixes
 * them unless --device is given).  0, or -1 when out of memory. */
static int resume_overrides(struct run *r)
{
	const cJSON *devs = cJSON_GetObjectItemCaseSensitive(r->rs.manifest, "devices"), *d;
	size_t nd = (size_t)cJSON_GetArraySize(devs), k = 0;

	r->overrides = calloc(nd + 1, sizeof(*r->overrides));
	if (!r->overrides)
		return -1;
	cJSON_ArrayForEach(d, devs) {
		const cJSON *n = cJSON_GetObjectItemCaseSensitive(d, "name");
		const cJSON *p = cJSON_GetObjectItemCaseSensitive(d, "path");
		if (!cJSON_IsString(n) || !cJSON_IsString(p))
			continue;
		char *o = malloc(strlen(n->valuestring) + strlen(p->valuestring) + 2);
		if (!o)
			continue;
		sprintf(o, "%s=%s", n->valuestring, p->valuestring);
		r->overrides[k++] = o;
	}
	r->so.device_overrides = r->overrides;
	r->so.ndevice_overrides = k;
	return 0;
}

/* --resume: lock and open the set; the set fixes the suite, the device
 * paths and the scale unless the command line says otherwise.  0, or -1
 * with r->rc set and the message printed. */
static int run_resume_open(struct run *r)
{
	struct run_args *a = &r->a;
	struct resume_set rz = { .scale = a->scale, .suite_given = a->suite_path };

	r->rc = EXIT_USAGE;
	int ret = resume_open(&r->rs, a->resume, &rz, r->err, sizeof(r->err));
	r->lock_fd = rz.lock_fd;
	r->have_rs = r->rs.manifest != NULL;
	if (ret < 0) {
		fprintf(stderr, "iomatrix: %s\n", r->err);
		return -1;
	}
	const cJSON *host = cJSON_GetObjectItemCaseSensitive(
		cJSON_GetObjectItemCaseSensitive(r->rs.manifest, "host"), "hostname");
	char here[256] = "";
	gethostname(here, sizeof(here) - 1);
	if (cJSON_IsString(host) && strcmp(host->valuestring, here) && !a->quiet)
		fprintf(stderr, "iomatrix: warning: set '%s' was started on host '%s', this is '%s'; its fingerprint describes the first host\n",
			r->rs.dir, host->valuestring, here);
	if (!a->suite_path) {
		snprintf(r->resume_suite, sizeof(r->resume_suite), "%s", rz.suite_path);
		a->suite_path = r->resume_suite;
	}
	a->scale = rz.scale;
	if (a->ndevices == 0 && resume_overrides(r) < 0) {
		fprintf(stderr, "iomatrix: out of memory\n");
		r->rc = EXIT_RUNTIME;
		return -1;
	}
	r->rc = EXIT_OK;
	return 0;
}

/* Load and check the suite (and, resuming, that it is the set's).  0, or
 * -1 with r->rc set and the messages printed. */
static int run_load(struct run *r)
{
	struct errlist errs = ERRLIST_INIT;
	struct run_args *a = &r->a;

	if (!r->so.device_overrides) {
		r->so.device_overrides = a->devices;
		r->so.ndevice_overrides = a->ndevices;
	}
	r->so.scale = a->scale;
	r->rc = EXIT_USAGE;
	if (suite_load(a->suite_path, &r->so, &r->s, &errs) < 0) {
		errlist_print(&errs, stderr);
		errlist_release(&errs);
		return -1;
	}
	errlist_release(&errs);
	if (r->s->ncells == 0) {
		fprintf(stderr, "iomatrix: '%s' expands to no cells; check matrix/exclude\n", a->suite_path);
		return -1;
	}
	if (r->have_rs) {
		const cJSON *suite = cJSON_GetObjectItemCaseSensitive(r->rs.manifest, "suite");
		const cJSON *sha = cJSON_GetObjectItemCaseSensitive(suite, "sha256");
		if (!cJSON_IsString(sha) || strcmp(sha->valuestring, r->s->sha256)) {
			fprintf(stderr, "iomatrix: suite '%s' (sha256 %.12s) differs from the suite of set '%s' (sha256 %.12s); resume with the set's own copy: iomatrix run --resume %s\n",
				a->suite_path, r->s->sha256, r->rs.dir,
				cJSON_IsString(sha) ? sha->valuestring : "?", r->rs.dir);
			return -1;
		}
	}
	if (check_inputs(r->s, a) < 0)
		return -1;
	r->rc = EXIT_OK;
	return 0;
}

/* Make the set (suite.yaml, plan.json, a 'running' manifest) or mark the
 * resumed one running.  The set comes before any device IO, so a
 * read-only or full results directory is found before hours are spent
 * measuring.  0, or -1 with r->rc set and the message printed. */
static int run_set_begin(struct run *r, int argc, char **argv)
{
	struct run_args *a = &r->a;

	if (r->have_rs) {
		int sr = resultset_resume_begin(&r->rs, r->err, sizeof(r->err));
		if (sr < 0) {
			/* a set the user cannot write is their input, not an IO
			 * failure: exit 2, as documented */
			bool input = sr == -EACCES || sr == -EPERM || sr == -EROFS;
			fprintf(stderr, "iomatrix: %s%s\n", r->err, input ?
				"; resume writes into the set: make it writable or copy it" : "");
			r->rc = input ? EXIT_USAGE : EXIT_RUNTIME;
			return -1;
		}
		return 0;
	}
	const char *root = getenv("IOMATRIX_RESULTS");
	if (!root || !*root)
		root = "results";
	if (safety_check_results_dir(a->out ? a->out : root, r->err, sizeof(r->err)) < 0) {
		fprintf(stderr, "iomatrix: %s\n", r->err);
		r->rc = EXIT_USAGE;
		return -1;
	}
	cJSON *m = manifest_new(r->s, a->scale, argc, argv);
	if (resultset_create(&r->rs, root, a->out, r->s->name, m, r->err, sizeof(r->err)) < 0) {
		fprintf(stderr, "iomatrix: %s\n", r->err);
		r->rc = EXIT_USAGE;
		return -1;
	}
	r->have_rs = true;
	resume_lock(r->rs.dir, &r->lock_fd, r->err, sizeof(r->err)); /* keeps a --resume of it out */
	int r1 = fsutil_write_atomic_at(r->rs.dirfd, "suite.yaml", r->s->text,
					r->s->text_len);
	int r2 = resultset_write_plan(&r->rs, r->s);
	if (r1 < 0 || r2 < 0) {
		fprintf(stderr, "iomatrix: cannot write result set '%s': %s; free some space or use --out DIR\n",
			r->rs.dir, strerror(r1 < 0 ? -r1 : -r2));
		r->rc = EXIT_RUNTIME;
		resultset_finish(&r->rs, "failed", r->err, sizeof(r->err));
		return -1;
	}
	return 0;
}

/* Decide the set's status once and write the final manifest: a signal
 * that lands after this point (while the manifest is being finished) must
 * not give exit 130 with a set that says "complete", nor the other way
 * round. */
static void run_set_end(struct run *r)
{
	const bool stopped = stop_flag != 0;
	const char *status;

	if (stopped) {
		status = "interrupted";
		r->rc = EXIT_INTERRUPTED;
	} else if (r->fatal) {
		status = "failed";
		if (r->rc == EXIT_OK)
			r->rc = EXIT_USAGE;
	} else if (r->failed_any) {
		status = "failed";
		r->rc = EXIT_RUNTIME;
	} else {
		status = "complete";
	}
	/* refused before any IO (a directory it may not write, a device it
	 * may not open) and nothing measured: the input was wrong, there is
	 * no result to keep, so a new set leaves no failed set behind */
	if (r->fatal && r->rc == EXIT_USAGE && !r->a.resume &&
	    resultset_discard_refused(&r->rs) == 0) {
		fprintf(stderr, "iomatrix: stopped before cell %zu/%zu did any IO; "
			"no result set was kept\n", r->ps.k, r->ps.n);
		return;
	}
	if (resultset_finish(&r->rs, status, r->err, sizeof(r->err)) < 0) {
		fprintf(stderr, "iomatrix: %s\n", r->err);
		if (r->rc == EXIT_OK)
			r->rc = EXIT_RUNTIME;
	}
	if (r->fatal && r->rc == EXIT_USAGE)
		fprintf(stderr, "iomatrix: stopped before cell %zu/%zu did any IO; finished cells are kept in '%s'\n",
			r->ps.k, r->ps.n, r->rs.dir);
	if (stopped && !r->a.quiet)
		fprintf(stderr, "iomatrix: interrupted; finished cells are kept, continue with: iomatrix run --resume %s\n",
			r->rs.dir);
	printf("%s\n", r->rs.dir);
	fflush(stdout);
}

static void run_release(struct run *r)
{
	if (r->lock_fd >= 0)
		close(r->lock_fd);
	if (r->overrides) {
		for (size_t k = 0; r->overrides[k]; k++)
			free((char *)r->overrides[k]);
		free(r->overrides);
	}
	suite_free(r->s);
	if (r->have_rs)
		resultset_release(&r->rs);
	free(r->a.devices);
	run_fleet_release(&r->a.fleet);
}

/* The cells, device by device and round by round (run_all). */
static void run_cells(struct run *r)
{
	struct run_args *a = &r->a;
	struct progress_state *ps = &r->ps;

	/* where each device really is; the same-device warning even with --quiet */
	run_devices_describe(cJSON_GetObjectItemCaseSensitive(r->rs.manifest, "devices"),
			     a->quiet, stderr);
	ps->tty = isatty(STDERR_FILENO);
	ps->quiet = a->quiet;
	if (a->progress && !strcmp(a->progress, "plain")) {
		ps->plain = true;
		ps->tty = false;
	} else if (a->progress && !strcmp(a->progress, "tty")) {
		ps->tty = true;
	} else if (a->progress && !strcmp(a->progress, "none")) {
		ps->tty = false;
	}
	ps->n = r->s->ncells;
	ps->set_start = mono_s();
	r->ctl = (struct run_ctl){ &stop_flag, progress_cb, ps };
	struct run_state st = { .s = r->s, .a = a, .rs = &r->rs, .ps = ps,
				.ctl = &r->ctl, .rc = r->rc };
	eta_init(&st);
	run_all(&st);
	free(st.reps);
	free(st.eta_known);
	free(st.eta_unknown);
	r->rc = st.rc;
	r->fatal = st.fatal;
	r->failed_any = st.failed_any;
}

int cmd_run(int argc, char **argv)
{
	struct run *r;
	struct sigaction sa, old_int, old_term;
	bool set_finished = false;
	int rc;

	if (cli_wants_help(argc, argv)) {
		usage(stdout);
		return EXIT_OK;
	}
	if (!(r = calloc(1, sizeof(*r)))) {
		fprintf(stderr, "iomatrix: out of memory\n");
		return EXIT_RUNTIME;
	}
	r->lock_fd = -1;
	if (parse_args(argc, argv, &r->a) < 0) {
		run_release(r);
		free(r);
		return EXIT_USAGE;
	}

	/* A signal from here on means: finish quickly and keep what is done.
	 * Installed before the set exists so that no signal can kill the
	 * process between writing a 'running' manifest and the cell loop. */
	memset(&sa, 0, sizeof(sa));
	sa.sa_handler = on_signal;
	sigemptyset(&sa.sa_mask);
	sa.sa_flags = 0; /* no SA_RESTART: let sleeps and waits return */
	stop_flag = 0;
	sigaction(SIGINT, &sa, &old_int);
	sigaction(SIGTERM, &sa, &old_term);

	if (run_fleet_wanted(&r->a.fleet, r->a.suite_path, r->a.resume)) { /* --hosts: bench/fleet/ */
		struct run_fleet_common fc = {
			r->a.suite_path, r->a.out, r->a.resume, r->a.devices, r->a.ndevices,
			r->a.scale, r->a.yes_destroy_data, r->a.quiet, argc, argv, &stop_flag,
		};
		r->rc = run_fleet(&r->a.fleet, &fc);
		set_finished = true;
		goto out;
	}
	if ((r->a.resume && run_resume_open(r) < 0) || run_load(r) < 0 ||
	    stop_flag /* interrupted while loading: nothing to keep */ ||
	    run_set_begin(r, argc, argv) < 0)
		goto out;
	if (!r->a.quiet)
		fprintf(stderr, "iomatrix: %s result set '%s' (%zu cell%s)\n",
			r->a.resume ? "resuming" : "writing", r->rs.dir, r->s->ncells,
			r->s->ncells == 1 ? "" : "s");
	run_cells(r);
	set_finished = true;
	run_set_end(r);
out:
	sigaction(SIGINT, &old_int, NULL);
	sigaction(SIGTERM, &old_term, NULL);
	if (!set_finished && stop_flag && r->rc == EXIT_OK)
		r->rc = EXIT_INTERRUPTED; /* stopped before any cell ran */
	rc = r->rc;
	run_release(r);
	free(r);
	return rc;
}
