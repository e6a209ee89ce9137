/*
 * received.h - the received-set rule (SECURITY.md), in this one place:
 * a result set that came from elsewhere supplies the workload, the cells'
 * parameters, and nothing else.  Every path, device, host, ssh option,
 * remote binary, output directory and opt-in comes from the command line
 * of `reproduce`; a received set's suite reaches run's code path only
 * through reproduce_received_load() below.
 */
#ifndef IOMATRIX_RECEIVED_H
#define IOMATRIX_RECEIVED_H

#include <stdbool.h>
#include <stddef.h>

#include "resultset/reprofile.h"
#include "suite/suite.h"
#include "util/errlist.h"
#include "util/sbuf.h"

/* A received set and what this command line says about where it runs. */
struct received {
	const struct repro_original *o;   /* the set: manifest, suite, sha256 */
	const char *const *devices;       /* --device NAME=PATH, as typed */
	size_t ndevices;
	bool yes_destroy_data;            /* --yes-destroy-data */
	bool drop_caches;                 /* --drop-caches */
};

/*
 * Load the set's suite under the rule; what run does with it then is
 * run's (every safety rule of run applies).
 *   - Every device the manifest or the suite names is mapped by --device;
 *     one that is not is named (exit 2): no path of the set is used.
 *   - The suite's text hashes to the manifest's suite sha256.
 *   - destructive: of each device is the command line's: --yes-destroy-data
 *     and a block device at the path given; the set's own `destructive:`
 *     opts nothing in.
 *   - keep_files: true is refused (where files stay on this machine is not
 *     a workload parameter); drop_caches: true is refused unless the
 *     command line says --drop-caches (as root it syncs and drops the
 *     whole machine's page cache before every repetition).
 *   - hosts: and aggregate: are dropped, with a line in note (reproduce
 *     has no --hosts: it runs here).
 * 0 with *out owned by the caller (suite_free), or -1 with every problem in
 * errs.  so: the suite_opts run uses (its overrides must be rv->devices).
 */
int reproduce_received_load(const struct received *rv, const struct suite_opts *so,
			    struct suite **out, struct sbuf *note, struct errlist *errs);

/* The suite part of the rule, for a suite already loaded from rv's set
 * (the fuzz target, and reproduce_received_load): 0, or -1 with errs. */
int reproduce_received_apply(struct suite *s, const struct received *rv,
			     struct sbuf *note, struct errlist *errs);

struct reproduces;
/* What `reproduce` adds to run's one code path (bench/run/run.h): the suite
 * is the received set's, loaded by reproduce_received_load(); the new
 * manifest records reproduces and argv as its command; the new set's
 * directory is copied to set_dir ("" when no set was kept). */
struct run_extra {
	const struct received *received;
	const struct reproduces *reproduces;
	int argc;
	char **argv;
	char *set_dir;
	size_t set_dir_len;
};

#endif
