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
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "cli.h"
#include "host/devpath.h"
#include "suite/suite_cli.h"
#include "util/fsutil.h"
#include "fleet/run_fleet.h"
#include "engines/engine.h"
#include "host/fingerprint.h"
#include "host/run_devices.h"
#include "resultset/ptsfile.h"
#include "resultset/qosfile.h"
#include "resultset/resultset.h"
#include "resultset/resume.h"
#include "resultset/reprofile.h"
#include "pts/run_ssd.h"
#include "runner/cellreps.h"
#include "runner/run_progress.h"
#include "runner/runner.h"
#include "runner/sweep.h"
#include "host/safety.h"
#include "stats/stats.h"
#include "suite/suite.h"
#include "util/units.h"
#include "util/testhook.h"

struct run_args {
	const char *suite_path;
	struct run_shared sh;   /* --device, --out, --scale, ... (suite_cli.h) */
	const char *resume;
	struct run_fleet fleet; /* --hosts and friends (run_fleet.c) */
};

/* Set by the signal handler; the runner polls it through run_ctl.stop. */
static volatile sig_atomic_t stop_flag;

static void on_signal(int sig)
{
	stop_flag = sig;
}

enum { RUN_RESUME = 1 };

/* Form 0 runs here, form 1 on a fleet (fleet/run_fleet.c takes those);
 * the rows shared with reproduce come first (suite/suite_cli.h run_shared_opts). */
static const struct option_spec run_opts[] = {
	{ "--resume", NULL, "SETDIR", .value = OPTV_DIR, .id = RUN_RESUME },
	{ "--hosts", NULL, "H1,H2,...", OPT_FORM(1), OPT_REQUIRED },
	{ "--aggregate", .forms = OPT_FORM(1) },
	{ "--ssh-config", NULL, "F", OPT_FORM(1), .value = OPTV_FILE },
	{ "--ssh-option", NULL, "O", OPT_FORM(1), OPT_REPEAT },
	{ "--remote-iomatrix", NULL, "PATH", OPT_FORM(1), .value = OPTV_FILE },
	{ "--parallel", NULL, "N", OPT_FORM(1) },
	{ "--skip-unreachable", .forms = OPT_FORM(1) },
	{ "--mpi", .forms = OPT_FORM(1) },
	{ NULL },
};

const struct command_spec run_spec = {
	.name = "run", .forms = { "SUITE.yaml", "SUITE.yaml" },
	.shared = run_shared_opts, .opts = run_opts, .operand = OPTV_SUITE,
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
		"On the ranks of mpirun or srun (docs/fleet.md):\n"
		"  --mpi               every rank is a host NODE:LOCAL_RANK of one fleet\n"
		"                      set; rank 0 writes it.  With --aggregate as above;\n"
		"                      device paths may hold {rank}, {node}, {local_rank}\n"
		"\n"
		"The set directory is printed on stdout.  Exit: 0 ok, 1 a cell failed,\n"
		"2 bad input, 130 interrupted (finished cells kept; use --resume).\n");
}

/* Parsed by the table (optspec_next): run's own rows, the rows it shares
 * with reproduce (suite_cli.h) and the fleet's (fleet/run_fleet.c).  -1 with
 * the fix printed. */
static int parse_args(int argc, char **argv, struct run_args *a)
{
	struct optspec_parse p = { .c = &run_spec, .argc = argc, .argv = argv, .i = 1 };
	int r;

	memset(a, 0, sizeof(*a));
	run_fleet_init(&a->fleet, argc);
	if (run_shared_init(&a->sh, argc) < 0)
		return -1;
	while ((r = run_shared_next(&p, &a->sh)) > 0) {
		if (p.opt && p.opt->id == RUN_RESUME)
			a->resume = p.value;
		else if (p.opt)
			r = run_fleet_option(&a->fleet, p.opt->name, p.value);
		else if (!a->suite_path)
			a->suite_path = p.value;
		else {
			fprintf(stderr, "iomatrix: one suite at a time ('%s' and '%s'); run them one after the other\n",
				a->suite_path, p.value);
			return -1;
		}
		if (r < 0)
			return -1;
	}
	if (r < 0)
		return -1;
	if (a->sh.out && a->resume) {
		fprintf(stderr, "iomatrix: '--out' and '--resume' exclude each other (a resumed set stays where it is)\n");
		return -1;
	}
	if (!a->suite_path && !a->resume) {
		fprintf(stderr, "iomatrix: missing SUITE.yaml; see 'iomatrix run --help'\n");
		return -1;
	}
	return 0;
}

/* ---- checks before any IO ---- */

/* Once every check passed: say what each block device about to be
 * written holds, the last chance to press Ctrl-C (printed when quiet). */
static void destroy_notice(const struct suite *s)
{
	char held[SAFETY_HOLDS_MAX];

	for (size_t i = 0; i < s->ndevices; i++)
		if (ssd_device_writes(s, &s->devices[i]) &&
		    safety_describe_device(s->devices[i].path, held, sizeof(held)) == 0)
			fprintf(stderr, "iomatrix: device '%s': %s: all of it will be overwritten\n",
				s->devices[i].name, held);
}

static int check_inputs(const struct suite *s, const struct run_args *a)
{
	int bad = 0;

	for (size_t i = 0; i < s->ndevices; i++) {
		const struct suite_device *d = &s->devices[i];
		char err[SAFETY_HOLDS_MAX + 1024], parent[PATH_MAX];
		struct stat st;
		bool writes = ssd_device_writes(s, d);

		if (d->purge == PURGE_DISCARD && !a->sh.yes_destroy_data) {
			char held[SAFETY_HOLDS_MAX] = "";
			safety_describe_device(d->path, held, sizeof(held));
			fprintf(stderr, "%s:%u:%u: 'purge: discard' of device '%s' erases "
				"all of '%s': add --yes-destroy-data to the command line "
				"if that is what you want%s%s%s\n", s->file, d->purge_line,
				d->purge_col, d->name, d->path, held[0] ? " (" : "", held,
				held[0] ? ")" : "");
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
					a->sh.yes_destroy_data, err, sizeof(err)) < 0) {
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
					a->sh.yes_destroy_data, err, sizeof(err)) < 0) {
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
	if (!bad)
		destroy_notice(s);
	return bad ? -1 : 0;
}

/* ---- the cell loop: devices, rounds, cells ---- */

/* What the loop shares while it runs cells, device by device and round by
 * round. */
struct run_state {
	const struct suite *s;
	const struct run_args *a;
	struct resultset *rs;
	struct run_progress *ps;
	struct run_ctl *ctl;
	struct runner_files files;    /* runner/cellreps.h */
	struct runner_reps reps;      /* grown per cell */
	bool failed_any;
	int fatal, rc;
};

/* load_sweep: after the probe (the repetitions), the load points; NULL:
 * none, stopped, or failed (cerr) */
static cJSON *cell_sweep(struct run_state *st, const struct cell *c,
			 unsigned nreps, char *cerr, size_t len)
{
	static struct qos_point pts[SWEEP_MAX_POINTS];
	struct sweep_data sd = { .pts = pts, .target = c->qos, .knee = -1 };

	if (!load_sweep_on(&c->load_sweep) || !nreps || cerr[0] || stop_flag)
		return NULL;
	int ret = runner_sweep(c, &st->files.tgt, st->ctl, st->reps.reps, nreps, &sd.max_iops,
			       pts, &sd.n, cerr, len);
	run_progress_clear(st->ps);
	return ret < 0 ? NULL : resultset_sweep_to_json(&sd);
}

/* Run cell i (round 0: no rounds) and write its file.  rst gets the
 * tracked value of this round. */
static void run_cell(struct run_state *st, size_t i, unsigned round,
		     struct rounds_state *rst)
{
	const struct cell *c = &st->s->cells[i];
	struct run_progress *ps = st->ps;
	char started[32], finished[32], cerr[PATH_MAX + 512] = "", err[1024];
	struct steady_verdict sv = { 0 };
	unsigned nreps = 0;
	cJSON *sweep = NULL;

	if (!round && resultset_cell_ok(st->rs, c->id)) {
		/* resume: the index says measured; the file must agree */
		char why[256];
		if (resultset_cell_verify(st->rs, c, why, sizeof(why)) == 0)
			return;
		fprintf(stderr, "iomatrix: cell %d (%s %s): %s; measuring it again\n",
			c->id, c->device, c->label, why);
	}
	run_progress_cell(ps, i, c, round);
	iso8601_now(started, sizeof(started));
	int ret = runner_files_use(&st->files, c, st->ctl, cerr, sizeof(cerr));
	run_progress_clear(ps);
	if (ret == -EINTR || stop_flag)
		return;
	if (ret < 0) {
		if (!cerr[0])
			snprintf(cerr, sizeof(cerr), "cannot prepare '%s': %s", c->path,
				 strerror(-ret));
		if (runner_error_is_input(ret)) {
			st->fatal = 1;
			fprintf(stderr, "iomatrix: %s\n", cerr);
		}
	} else {
		nreps = runner_cell_reps(c, &st->files.tgt, st->ctl, ps, &st->reps, &sv,
					 cerr, sizeof(cerr));
		sweep = cell_sweep(st, c, nreps, cerr, sizeof(cerr));
		if (stop_flag) {
			cJSON_Delete(sweep);
			/* an unfinished cell is not kept: --resume reruns it */
			for (unsigned r = 0; r < nreps; r++)
				rep_result_release(&st->reps.reps[r]);
			return;
		}
	}
	iso8601_now(finished, sizeof(finished));
	if (rst)
		rounds_state_note(rst, c, runner_reps_metric(st->reps.reps, nreps,
							     st->s->rounds.metric));
	struct cell_outcome out = {
		.error = cerr[0] ? cerr : NULL, .started_at = started,
		.finished_at = finished, .reps = st->reps.reps, .nreps = nreps,
		.load_sweep = sweep,
	};
	cJSON *cj = resultset_cell_window_json(st->rs->dir, c, &out, round,
					       st->s->rounds.rule.window, &sv);
	cJSON_Delete(sweep);
	if (!st->fatal) /* a fatal error was printed once already */
		run_progress_cell_line(ps, c, cerr[0] ? cerr : NULL, st->reps.reps, nreps);
	for (unsigned r = 0; r < nreps; r++)
		rep_result_release(&st->reps.reps[r]);
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
	run_progress_cell_done(ps);
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
	runner_files_drop(&st->files, first);
	int r = ssd_prepare_device(d, first, st->a->sh.yes_destroy_data, st->ctl,
				   st->rs->dir, st->a->sh.quiet, &st->files.pre_created,
				   err, sizeof(err));
	run_progress_clear(st->ps);
	if (r == -EINTR || stop_flag)
		return -1;
	if (r < 0) {
		fprintf(stderr, "iomatrix: device '%s': %s\n", d->name, err);
		st->fatal = 1;
		if (!runner_error_is_input(r)) {
			st->rc = EXIT_RUNTIME;
			st->failed_any = true;
		}
		return -1;
	}
	return 0;
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
			fresh &= !resultset_cell_ok(st->rs, s->cells[i].id);
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
	if (rst.finished)
		goto out;
	if (rst.rounds_done)
		run_progress_round(st->ps, rst.device, rst.rounds_done + 1, 0, true);
	if (d && device_begin(st, d, &s->cells[i0], rst.rounds_done == 0) < 0)
		goto out;
	while (!rst.finished && !stop_flag && !st->fatal) {
		unsigned round = rst.rounds_done + 1;
		run_progress_round(st->ps, rst.device, round, s->rounds.rule.max, false);
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
out:
	run_progress_rounds_verdict(st->ps, rst.device, rst.steady_round, rst.finished,
				    rst.rounds_done, rst.cfg->rule.window);
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
	run_progress_clear(st->ps);
	runner_files_drop(&st->files, NULL);
}

/* ---- the command ---- */

/* Everything one `run` holds, so that its phases can be functions. */
struct run {
	struct run_args a;
	struct suite_opts so;
	struct suite *s;
	struct resultset rs;
	bool have_rs;
	char **overrides;            /* resume: the set's NAME=PATH, owned */
	char resume_suite[PATH_MAX];
	const struct run_extra *x;   /* reproduce's additions, or NULL */
	int lock_fd;
	struct run_progress ps;
	struct run_ctl ctl;
	bool failed_any;
	int fatal, rc;
	char err[2048];
};

/* --resume: lock and open the set; the set fixes the suite, the device
 * paths and the scale unless the command line says otherwise.  0, or -1
 * with r->rc set and the message printed. */
static int run_resume_open(struct run *r)
{
	struct run_args *a = &r->a;
	struct resume_set rz = { .scale = a->sh.scale, .suite_given = a->suite_path };

	r->rc = EXIT_USAGE;
	int ret = resume_open(&r->rs, a->resume, &rz, r->err, sizeof(r->err));
	r->lock_fd = rz.lock_fd;
	r->have_rs = r->rs.manifest != NULL;
	if (ret < 0) {
		fprintf(stderr, "iomatrix: %s\n", r->err);
		return -1;
	}
	struct resultset_facts f;
	resultset_facts(&r->rs, &f);
	char here[256] = "";
	gethostname(here, sizeof(here) - 1);
	if (f.hostname && strcmp(f.hostname, here) && !a->sh.quiet)
		fprintf(stderr, "iomatrix: warning: set '%s' was started on host '%s', this is '%s'; its fingerprint describes the first host\n",
			r->rs.dir, f.hostname, here);
	if (!a->suite_path) {
		snprintf(r->resume_suite, sizeof(r->resume_suite), "%s", rz.suite_path);
		a->suite_path = r->resume_suite;
	}
	a->sh.scale = rz.scale;
	if (a->sh.ndevices == 0) { /* the set fixes the device paths */
		size_t n;
		if (!(r->overrides = resultset_device_args(&r->rs, &n))) {
			fprintf(stderr, "iomatrix: out of memory\n");
			r->rc = EXIT_RUNTIME;
			return -1;
		}
		r->so.device_overrides = (const char **)r->overrides;
		r->so.ndevice_overrides = n;
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
		r->so.device_overrides = a->sh.devices;
		r->so.ndevice_overrides = a->sh.ndevices;
	}
	r->so.scale = a->sh.scale;
	r->so.check_path = devpath_check;
	r->rc = EXIT_USAGE;
	/* a received set's suite only through the rule (reproduce/received.h) */
	struct sbuf note = SBUF_INIT;
	int lr = r->x && r->x->received ?
		reproduce_received_load(r->x->received, &r->so, &r->s, &note, &errs) :
		suite_load(a->suite_path, &r->so, &r->s, &errs);
	fputs(sbuf_str(&note), stderr);
	sbuf_release(&note);
	if (lr < 0) {
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
		struct resultset_facts f;
		resultset_facts(&r->rs, &f);
		if (!f.suite_sha256 || strcmp(f.suite_sha256, r->s->sha256)) {
			fprintf(stderr, "iomatrix: suite '%s' (sha256 %.12s) differs from the suite of set '%s' (sha256 %.12s); resume with the set's own copy: iomatrix run --resume %s\n",
				a->suite_path, r->s->sha256, r->rs.dir,
				f.suite_sha256 ? f.suite_sha256 : "?", r->rs.dir);
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
	const char *root = resultset_root();
	if (safety_check_results_dir(a->sh.out ? a->sh.out : root, r->err, sizeof(r->err)) < 0) {
		fprintf(stderr, "iomatrix: %s\n", r->err);
		r->rc = EXIT_USAGE;
		return -1;
	}
	if (r->x && r->x->argv) { /* the command the user typed */
		argc = r->x->argc;
		argv = r->x->argv;
	}
	cJSON *m = resultset_manifest_for_suite(r->s, a->sh.scale, argc, argv,
						r->s->ncells, true);
	if (m && r->x && r->x->reproduces &&
	    reprofile_add(m, r->x->reproduces) < 0) {
		cJSON_Delete(m);
		m = NULL;
	}
	if (resultset_create(&r->rs, root, a->sh.out, r->s->name, m, r->err, sizeof(r->err)) < 0) {
		fprintf(stderr, "iomatrix: %s\n", r->err);
		r->rc = EXIT_USAGE;
		return -1;
	}
	r->have_rs = true;
	resume_lock(r->rs.dir, &r->lock_fd, r->err, sizeof(r->err)); /* keeps a --resume of it out */
	int wr = resultset_write_inputs(&r->rs, r->s);
	if (wr < 0) {
		fprintf(stderr, "iomatrix: cannot write result set '%s': %s; free some space or use --out DIR\n",
			r->rs.dir, strerror(-wr));
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
	if (stopped && !r->a.sh.quiet)
		fprintf(stderr, "iomatrix: interrupted; finished cells are kept, continue with: iomatrix run --resume %s\n",
			r->rs.dir);
	printf("%s\n", r->rs.dir);
	fflush(stdout);
	if (r->x && r->x->set_dir)
		snprintf(r->x->set_dir, r->x->set_dir_len, "%s", r->rs.dir);
}

static void run_release(struct run *r)
{
	if (r->lock_fd >= 0)
		close(r->lock_fd);
	if (r->overrides) {
		for (size_t k = 0; r->overrides[k]; k++)
			free(r->overrides[k]);
		free(r->overrides);
	}
	suite_free(r->s);
	if (r->have_rs)
		resultset_release(&r->rs);
	run_shared_release(&r->a.sh);
	run_fleet_release(&r->a.fleet);
}

/* The cells, device by device and round by round (run_all). */
static void run_cells(struct run *r)
{
	struct run_args *a = &r->a;
	const struct suite *s = r->s;
	bool *skip = calloc(s->ncells + 1, sizeof(*skip));

	/* where each device really is; the same-device warning even with --quiet */
	run_devices_describe(cJSON_GetObjectItemCaseSensitive(r->rs.manifest, "devices"),
			     a->sh.quiet, stderr);
	/* the ETA leaves out done cells of a resumed set, except in rounds,
	 * which run every cell again */
	for (size_t k = 0; skip && k < s->ncells; k++)
		skip[k] = !s->rounds.on && resultset_cell_ok(&r->rs, s->cells[k].id);
	run_progress_init(&r->ps, a->sh.progress, a->sh.quiet, s->cells, s->ncells, skip);
	free(skip);
	r->ctl = (struct run_ctl){ &stop_flag, run_progress_cb, &r->ps };
	struct run_state st = { .s = s, .a = a, .rs = &r->rs, .ps = &r->ps,
				.ctl = &r->ctl, .rc = r->rc };
	run_all(&st);
	free(st.reps.reps);
	run_progress_release(&r->ps);
	r->rc = st.rc;
	r->fatal = st.fatal;
	r->failed_any = st.failed_any;
}

int cmd_run(int argc, char **argv)
{
	return run_command(argc, argv, NULL);
}

int run_command(int argc, char **argv, const struct run_extra *x)
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
	r->x = x;
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

	/* --hosts: bench/fleet/; a received set's hosts: never (received.h) */
	if (!(x && x->received) &&
	    run_fleet_wanted(&r->a.fleet, r->a.suite_path, r->a.resume)) {
		struct run_fleet_common fc = {
			r->a.suite_path, r->a.sh.out, r->a.resume, r->a.sh.devices, r->a.sh.ndevices,
			r->a.sh.scale, r->a.sh.yes_destroy_data, r->a.sh.quiet, argc, argv, &stop_flag,
		};
		r->rc = run_fleet(&r->a.fleet, &fc);
		set_finished = true;
		goto out;
	}
	if ((r->a.resume && run_resume_open(r) < 0) || run_load(r) < 0 ||
	    stop_flag /* interrupted while loading: nothing to keep */ ||
	    run_set_begin(r, argc, argv) < 0)
		goto out;
	if (!r->a.sh.quiet)
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
