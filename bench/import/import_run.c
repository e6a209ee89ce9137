/*
 * import_run.c - import.h's import_run(): every input read and checked
 * before anything is written, the machine and date filled in, the set
 * written whole or not at all (a signal waits for it).
 */
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "util/cliopt.h"
#include "resultset/resultset.h"
#include "import.h"
#include "fio_histlog.h"

/* The machine (host) and the measurement date: the input's own time wins;
 * date_iso fills in where it has none; neither is said out loud. */
static void when_where(struct import_set *set, const struct import_req *q)
{
	if (q->host)
		snprintf(set->host, sizeof(set->host), "%s", q->host);
	if (q->date_iso && set->started_at[0] && strncmp(set->started_at, q->date_iso, 10))
		fprintf(stderr, "iomatrix import %s: warning: the input says it was measured at %s; "
			"--date %s ignored\n", q->kind, set->started_at, q->date);
	else if (q->date_iso && !set->started_at[0])
		snprintf(set->started_at, sizeof(set->started_at), "%.20s", q->date_iso);
	if (!set->started_at[0])
		fprintf(stderr, "iomatrix import %s: warning: the input does not say when it was "
			"measured; the set is dated by this import (give --date YYYY-MM-DD)\n", q->kind);
}

/* --hist-log: the logs of the one job read into its cell's series, which
 * is then checked again as every imported cell is. */
static void import_hist_logs(struct import_set *set, const struct import_req *q,
			     struct errlist *errs)
{
	char why[256];
	if (set->ncells != 1 || set->cells[0].nreps != 1) {
		errlist_add(errs, q->files[0], 0, 0, "--hist-log goes with the JSON of one fio "
			    "job run once (fio writes a log per job); this input holds %zu jobs "
			    "and %zu runs: import each job with its own logs", set->ncells,
			    set->ncells ? set->cells[0].nreps : 0);
		return;
	}
	struct import_cell *c = &set->cells[0];
	/* fio echoes log_hist_msec among the job's options */
	const cJSON *ms = cJSON_GetObjectItemCaseSensitive(
		cJSON_GetObjectItemCaseSensitive(c->source, "fio_options"), "log_hist_msec");
	char *end = NULL;
	unsigned long long v = cJSON_IsString(ms) ? strtoull(ms->valuestring, &end, 10) : 0;
	uint64_t iv = end && !*end && v > 0 && v < 86400000ull ? v * 1000000ull : 0;
	if (fio_histlog_attach(&c->reps[0], q->hist_logs, q->nhist_logs, iv, errs) < 0)
		return;
	if (import_cell_check(c, why, sizeof(why)) < 0)
		errlist_add(errs, q->hist_logs[0], 0, 0, "the cell with these logs is not one "
			    "iomatrix writes (%s)", why);
}

/* Every file of q into set; errors in errs. */
static void import_read(struct import_set *set, const struct import_req *q,
			struct errlist *errs)
{
	if (!strcmp(q->kind, "fio")) {
		struct import_fio_opts o = { .device = q->device };
		for (size_t i = 0; i < q->nfiles; i++)
			import_fio_file(set, q->files[i], &o, errs);
		if (q->nhist_logs && !errs->n)
			import_hist_logs(set, q, errs);
	} else if (!strcmp(q->kind, "sysbench")) {
		struct import_sysbench_opts o = q->sysbench;
		o.device = q->device;
		for (size_t i = 0; i < q->nfiles; i++)
			import_sysbench_file(set, q->files[i], &o, errs);
	} else {
		import_csv_file(set, q->files[0], errs);
	}
}

int import_run(const struct import_req *q, char *dir, size_t dirlen)
{
	struct errlist errs = ERRLIST_INIT;
	struct import_set set;
	char err[1024];
	int rc = EXIT_USAGE;

	import_set_init(&set, !strcmp(q->kind, "fio") ? "fio" :
			      !strcmp(q->kind, "sysbench") ? "sysbench" : "csv");
	import_set_name_from_file(&set, q->files[0]);
	if (q->title && !(set.title = strdup(q->title))) {
		fprintf(stderr, "iomatrix: out of memory\n");
		rc = EXIT_RUNTIME;
		goto out;
	}
	import_read(&set, q, &errs);
	if (errs.n) {
		errlist_print(&errs, stderr);
		fprintf(stderr, "iomatrix: import %s: nothing written\n", q->kind);
		goto out;
	}
	if (!set.ncells) {
		fprintf(stderr, "iomatrix: import %s: no measurements found in the input; nothing written\n",
			q->kind);
		goto out;
	}
	when_where(&set, q);
	/* SIGINT/SIGTERM wait until the set is complete or removed: an
	 * interrupted import must leave no half-written hidden directory
	 * behind (the write takes seconds for thousands of cells at most,
	 * and starts no child that would inherit the mask) */
	sigset_t old;
	cli_hold_signals(&old);
	int wr = import_set_write(&set, resultset_root(), q->out, dir, dirlen, err, sizeof(err));
	sigprocmask(SIG_SETMASK, &old, NULL);
	if (wr < 0) {
		fprintf(stderr, "iomatrix: import %s: %s\n", q->kind, err);
		/* An existing destination is a usage problem, IO is runtime. */
		rc = wr == -2 || strstr(err, "already exists") ? EXIT_USAGE : EXIT_RUNTIME;
		goto out;
	}
	fprintf(stderr, "iomatrix: import %s: %zu cell%s, %zu device%s\n", q->kind,
		set.ncells, set.ncells == 1 ? "" : "s", set.ndevices,
		set.ndevices == 1 ? "" : "s");
	rc = EXIT_OK;
out:
	import_set_release(&set);
	errlist_release(&errs);
	return rc;
}
