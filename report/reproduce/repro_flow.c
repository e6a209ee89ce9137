/*
 * repro_flow.c - repro_flow.h: unpack, open and check the set, run its
 * suite under the received-set rule, judge.
 */
#include "repro_flow.h"

#include <errno.h>
#include <limits.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "reproduce/reproduce.h"
#include "repro.h"
#include "resultset/reprofile.h"
#include "resultset/resultset.h"
#include "share/pack.h"
#include "util/cliopt.h"
#include "util/sbuf.h"
#include "util/termesc.h"

/* A packed set (FILE): unpacked into the results directory, verified
 * before it is visible (pack.h), and that set is the one reproduced.
 * Ctrl-C removes what was unpacked (exit 130).  0 with dir filled, or -1
 * with the message printed and *rc set. */
static int flow_unpack(const char *file, char *dir, size_t dirlen, int *rc)
{
	static volatile sig_atomic_t stop;
	struct sigaction old[3];
	char err[PATH_MAX + 512];
	bool warn = false;

	cli_catch_signals(&stop, old);
	int r = resultset_unpack(file, resultset_root(), dir, dirlen, &warn, &stop, err,
				 sizeof(err));
	cli_release_signals(old);
	if (r < 0) {
		fprintf(stderr, "iomatrix: reproduce: %s%s\n", err, r == -EEXIST ?
			"; reproduce that set directory instead" : "");
		*rc = r == -EINTR ? EXIT_INTERRUPTED :
		      r == -EINVAL || r == -EEXIST ? EXIT_USAGE : EXIT_RUNTIME;
		return -1;
	}
	if (warn)
		fprintf(stderr, "iomatrix: warning: '%s' has no SHA256SUMS (packed from a set "
			"written before checksums); it cannot be proven intact\n", dir);
	fprintf(stderr, "iomatrix: unpacked '%s' into '%s'\n", file, dir);
	return 0;
}

/* The set: a directory (a packed FILE is unpacked first), its suite
 * unchanged, an imported set complete.  The devices are the rule's
 * (received.h, inside run).  0 or -1 with the message printed and *rc set. */
static int flow_open(const struct repro_request *rq, struct repro_original *o,
		     char *unpacked, size_t unpacked_len, int *rc)
{
	char err[PATH_MAX + 512];
	const char *set = rq->set;
	struct stat st;
	struct sbuf e = SBUF_INIT;

	*rc = EXIT_USAGE;
	if (stat(set, &st) < 0) {
		fprintf(stderr, "iomatrix: cannot use '%s': %s; give a result-set directory "
			"or a pack file\n", set, strerror(errno));
		return -1;
	}
	if (S_ISREG(st.st_mode)) {
		if (flow_unpack(set, unpacked, unpacked_len, rc) < 0)
			return -1;
		set = unpacked;
	} else if (!S_ISDIR(st.st_mode)) {
		fprintf(stderr, "iomatrix: '%s' is neither a result-set directory nor a pack "
			"file\n", set);
		return -1;
	}
	if (reprofile_original_open(o, set, err, sizeof(err)) < 0) {
		fprintf(stderr, "iomatrix: %s\n", err);
		return -1;
	}
	if (reproduce_check_complete(o, &e) < 0) {
		fprintf(stderr, "iomatrix: %s", sbuf_str(&e));
		sbuf_release(&e);
		return -1;
	}
	sbuf_release(&e);
	if (strcmp(o->manifest.status, "complete") && !rq->sh->quiet) {
		char sts[64];
		fprintf(stderr, "iomatrix: warning: set '%s' is '%s': only its finished cells "
			"can be judged\n", set, termesc(o->manifest.status, sts, sizeof(sts)));
	}
	return 0;
}

/* run's argv, from this command line only: the suite is the set's (its
 * workload), the scale the set's unless --scale; every other word is the
 * user's. */
static char **flow_argv(const struct repro_request *rq, const struct repro_original *o,
			char *scale, size_t scalelen, int *argc)
{
	const struct run_shared *sh = rq->sh;
	char **v = calloc(sh->sc.devices.n * 2 + 12, sizeof(*v));
	int n = 0;

	if (!v)
		return NULL;
	v[n++] = "run";
	v[n++] = (char *)o->suite_path;
	for (size_t i = 0; i < sh->sc.devices.n; i++) {
		v[n++] = "--device";
		v[n++] = (char *)sh->sc.devices.v[i];
	}
	snprintf(scale, scalelen, "%.17g", sh->sc.scale > 0 ? sh->sc.scale : o->manifest.scale);
	v[n++] = "--scale";
	v[n++] = scale;
	if (sh->out) {
		v[n++] = "--out";
		v[n++] = (char *)sh->out;
	}
	if (sh->yes_destroy_data)
		v[n++] = "--yes-destroy-data";
	if (sh->quiet)
		v[n++] = "--quiet";
	if (sh->progress) {
		v[n++] = "--progress";
		v[n++] = (char *)sh->progress;
	}
	*argc = n;
	return v;
}

int repro_reproduce(const struct repro_request *rq, repro_run_fn run)
{
	struct repro_original o = { 0 };
	char scale[64], set_dir[PATH_MAX] = "", unpacked[PATH_MAX] = "";
	char **rv = NULL;
	int rargc = 0, rc = EXIT_USAGE;
	bool missed = false;

	if (flow_open(rq, &o, unpacked, sizeof(unpacked), &rc) < 0)
		goto out;
	if (unpacked[0] && rq->set_made)
		rq->set_made(unpacked);
	if (!(rv = flow_argv(rq, &o, scale, sizeof(scale), &rargc))) {
		rc = EXIT_RUNTIME;
		goto out;
	}
	if (rq->sh->sc.scale > 0 && !rq->sh->quiet)
		fprintf(stderr, "iomatrix: warning: --scale %g instead of the set's %g: the "
			"numbers may differ for that reason alone\n", rq->sh->sc.scale,
			o.manifest.scale);
	struct received recv = { &o, rq->sh->sc.devices.v, rq->sh->sc.devices.n,
				 rq->sh->yes_destroy_data, rq->drop_caches };
	struct reproduces rp = { o.id, o.manifest_sha256, o.dir, rq->tolerance };
	struct run_extra x = { &recv, &rp, rq->argc, rq->argv, set_dir, sizeof(set_dir) };
	rc = run(rargc, rv, &x);
	if (set_dir[0] && rq->set_made)
		rq->set_made(set_dir);
	if ((rc != EXIT_OK && rc != EXIT_RUNTIME) || !set_dir[0])
		goto out;
	/* the verdicts are chatter beside the one line of stdout: the new
	 * set, as run prints it */
	int jr = repro_judge_sets(o.dir, set_dir, rq->tolerance, stderr, &missed);
	if (jr != EXIT_OK)
		rc = jr;
	else if (rc == EXIT_OK && rq->fail && missed)
		rc = EXIT_REGRESSION;
out:
	free(rv);
	reprofile_original_release(&o);
	return rc;
}
