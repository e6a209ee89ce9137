/*
 * run_suite.c - run.h's run_suite(): the phases of one run on one struct
 * run: resume (lock and open the set), load and check the suite, make the
 * set, the cell loop (run_loop.c), and the end (the set's status, decided
 * once); or the hand-over of a --hosts run to bench/fleet/.
 */
#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "util/cliopt.h"
#include "host/devpath.h"
#include "host/run_devices.h"
#include "host/safety.h"
#include "resultset/reprofile.h"
#include "resultset/resume.h"
#include "reproduce/received.h"
#include "util/sbuf.h"
#include "util/termesc.h"
#include "suite/suite.h"
#include "run_int.h"

/* Everything one `run` holds, so that its phases can be functions. */
struct run {
	struct run_opts *a;          /* the caller's */
	volatile sig_atomic_t *stop; /* the command's signal flag */
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
	struct run_opts *a = r->a;
	struct resume_set rz = { .scale = a->sh.sc.scale, .suite_given = a->suite_path };

	r->rc = EXIT_USAGE;
	int ret = resume_open(&r->rs, a->resume, &rz, r->err, sizeof(r->err));
	r->lock_fd = rz.lock_fd;
	r->have_rs = r->rs.manifest != NULL;
	if (ret < 0) {
		termesc_puts(stderr, "iomatrix: ", r->err);
		return -1;
	}
	struct resultset_facts f;
	resultset_facts(&r->rs, &f);
	char here[256] = "";
	gethostname(here, sizeof(here) - 1);
	char db[512], hb[256];   /* the set's words, as text (termesc.h) */
	if (f.hostname && strcmp(f.hostname, here) && !a->sh.quiet)
		fprintf(stderr, "iomatrix: warning: set '%s' was started on host '%s', this is '%s'; its fingerprint describes the first host\n",
			termesc(r->rs.dir, db, sizeof(db)), termesc(f.hostname, hb, sizeof(hb)), here);
	if (!a->suite_path) {
		snprintf(r->resume_suite, sizeof(r->resume_suite), "%s", rz.suite_path);
		a->suite_path = r->resume_suite;
	}
	a->sh.sc.scale = rz.scale;
	if (a->sh.sc.devices.n == 0) { /* the set fixes the device paths */
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
	struct run_opts *a = r->a;

	if (!r->so.device_overrides) {
		r->so.device_overrides = a->sh.sc.devices.v;
		r->so.ndevice_overrides = a->sh.sc.devices.n;
	}
	r->so.scale = a->sh.sc.scale;
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
	if (run_check_inputs(r->s, a->sh.yes_destroy_data) < 0)
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
	struct run_opts *a = r->a;

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
		termesc_puts(stderr, "iomatrix: ", r->err);
		r->rc = EXIT_USAGE;
		return -1;
	}
	if (r->x && r->x->argv) { /* the command the user typed */
		argc = r->x->argc;
		argv = r->x->argv;
	}
	cJSON *m = resultset_manifest_for_suite(r->s, a->sh.sc.scale, argc, argv,
						r->s->ncells, true);
	if (m && r->x && r->x->reproduces &&
	    reprofile_add(m, r->x->reproduces) < 0) {
		cJSON_Delete(m);
		m = NULL;
	}
	if (resultset_create(&r->rs, root, a->sh.out, r->s->name, m, r->err, sizeof(r->err)) < 0) {
		termesc_puts(stderr, "iomatrix: ", r->err);
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
	const bool stopped = *r->stop != 0;
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
	if (r->fatal && r->rc == EXIT_USAGE && !r->a->resume &&
	    resultset_discard_refused(&r->rs) == 0) {
		fprintf(stderr, "iomatrix: stopped before cell %zu/%zu did any IO; "
			"no result set was kept\n", r->ps.k, r->ps.n);
		return;
	}
	if (resultset_finish(&r->rs, status, r->err, sizeof(r->err)) < 0) {
		termesc_puts(stderr, "iomatrix: ", r->err);
		if (r->rc == EXIT_OK)
			r->rc = EXIT_RUNTIME;
	}
	if (r->fatal && r->rc == EXIT_USAGE)
		fprintf(stderr, "iomatrix: stopped before cell %zu/%zu did any IO; finished cells are kept in '%s'\n",
			r->ps.k, r->ps.n, r->rs.dir);
	if (stopped && !r->a->sh.quiet)
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
}

/* Where each device really is, and devices that are one (the warning even
 * with --quiet): the manifest's devices with what their cells make of
 * them (a model device is its keys, not its directory's disk). */
static void run_describe(const struct run *r)
{
	const struct suite *s = r->s;
	struct run_target *t = calloc(s->ndevices ? s->ndevices : 1, sizeof(*t));
	struct sbuf *models = calloc(s->ndevices ? s->ndevices : 1, sizeof(*models));

	for (size_t i = 0; t && models && i < s->ndevices; i++)
		if (suite_device_model(s, i, &models[i], &t[i].no_io))
			t[i].model = sbuf_str(&models[i]);
	run_devices_describe(cJSON_GetObjectItemCaseSensitive(r->rs.manifest, "devices"),
			     t && models ? t : NULL, r->a->sh.quiet, stderr);
	for (size_t i = 0; models && i < s->ndevices; i++)
		sbuf_release(&models[i]);
	free(models);
	free(t);
}

/* The cells, device by device and round by round (run_all). */
static void run_cells(struct run *r)
{
	struct run_opts *a = r->a;
	const struct suite *s = r->s;
	bool *skip = calloc(s->ncells + 1, sizeof(*skip));

	run_describe(r);
	/* the ETA leaves out done cells of a resumed set, except in rounds,
	 * which run every cell again */
	for (size_t k = 0; skip && k < s->ncells; k++)
		skip[k] = !s->rounds.on && resultset_cell_ok(&r->rs, s->cells[k].id);
	run_progress_init(&r->ps, a->sh.progress, a->sh.quiet, s->cells, s->ncells, skip);
	free(skip);
	r->ctl = (struct run_ctl){ r->stop, run_progress_cb, &r->ps };
	struct run_state st = { .s = s, .a = a, .stop = r->stop, .rs = &r->rs,
				.ps = &r->ps, .ctl = &r->ctl, .rc = r->rc };
	run_all(&st);
	free(st.reps.reps);
	run_progress_release(&r->ps);
	r->rc = st.rc;
	r->fatal = st.fatal;
	r->failed_any = st.failed_any;
}

/* The orchestration of `iomatrix run` (run.h). */
int run_suite(struct run_opts *o, const struct run_extra *x, int argc, char **argv,
	      volatile sig_atomic_t *stop)
{
	struct run *r;
	bool set_finished = false;
	int rc;

	if (!(r = calloc(1, sizeof(*r)))) {
		fprintf(stderr, "iomatrix: out of memory\n");
		return EXIT_RUNTIME;
	}
	r->lock_fd = -1;
	r->x = x;
	r->a = o;
	r->stop = stop;
	/* --hosts: bench/fleet/; a received set's hosts: never (received.h) */
	if (!(x && x->received) &&
	    run_fleet_wanted(&r->a->fleet, r->a->suite_path, r->a->resume)) {
		struct run_fleet_common fc = {
			r->a->suite_path, r->a->sh.out, r->a->resume, r->a->sh.sc.devices.v,
			r->a->sh.sc.devices.n, r->a->sh.sc.scale, r->a->sh.yes_destroy_data,
			r->a->sh.quiet, argc, argv, stop, x ? x->set_dir : NULL,
			x ? x->set_dir_len : 0,
		};
		r->rc = run_fleet(&r->a->fleet, &fc);
		set_finished = true;
		goto out;
	}
	if ((r->a->resume && run_resume_open(r) < 0) || run_load(r) < 0 ||
	    *stop /* interrupted while loading: nothing to keep */ ||
	    run_set_begin(r, argc, argv) < 0)
		goto out;
	if (!r->a->sh.quiet)
		fprintf(stderr, "iomatrix: %s result set '%s' (%zu cell%s)\n",
			r->a->resume ? "resuming" : "writing", r->rs.dir, r->s->ncells,
			r->s->ncells == 1 ? "" : "s");
	run_cells(r);
	set_finished = true;
	run_set_end(r);
out:
	if (!set_finished && *stop && r->rc == EXIT_OK)
		r->rc = EXIT_INTERRUPTED; /* stopped before any cell ran */
	rc = r->rc;
	run_release(r);
	free(r);
	return rc;
}
