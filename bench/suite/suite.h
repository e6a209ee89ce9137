/*
 * suite.h - load a YAML suite file, validate it strictly and expand its
 * matrix into cells (struct suite in cell.h).
 *
 * Error convention (parsers): return -1 and append every problem found to an
 * errlist as "file:line:col: message"; keep going so that all errors of a file
 * are reported in one pass.
 *
 * The functions are suite_load.c's: the loader's other rooms take struct
 * suite_opts and the limits from here through suite_int.h, so no suite.c
 * shares this header's name.
 */
#ifndef IOMATRIX_SUITE_H
#define IOMATRIX_SUITE_H

#include "cell.h"
#include "util/errlist.h"

#define SUITE_MAX_BYTES (1024 * 1024)
#define SUITE_MAX_CELLS 100000

/* Overrides given on the command line (--device NAME=PATH, --scale F). */
struct suite_opts {
	const char **device_overrides; /* "NAME=PATH" strings, may be NULL */
	size_t ndevice_overrides;
	double scale;                  /* 0 or 1: none */
	/* Checks each device's final path (after --device); -1 with a
	 * message in err makes it an error at the path's position.  The
	 * commands set it (host/devpath.h: no files in /dev); NULL: none.
	 * A positive return (the device is missing on this machine) is a
	 * warning in `warnings` when that is set (validate), else an error
	 * (run). */
	int (*check_path)(const char *path, char *err, size_t errlen);
	struct errlist *warnings;      /* not owned; may be NULL */
};

/*
 * Load, validate and expand the suite at path.  On success returns 0 and
 * *out owns a new suite (free with suite_free()).  On failure returns -1,
 * *out is NULL and errs holds every error found.
 */
int suite_load(const char *path, const struct suite_opts *opts,
	       struct suite **out, struct errlist *errs);

/* Same, from a buffer (name is used in messages). */
int suite_load_buffer(const char *name, const char *buf, size_t len,
		      const struct suite_opts *opts, struct suite **out,
		      struct errlist *errs);

void suite_free(struct suite *s);

/* What the cells of device dev make of it: true when it is a model device
 * (every cell runs the model engine with one set of keys; their text is
 * appended to model: workload.h workload_model_target), else false;
 * *no_io: every one of its cells' engines does no IO (null, model), so
 * nothing is made at its path.  Linear in the cells. */
struct sbuf;
bool suite_device_model(const struct suite *s, size_t dev, struct sbuf *model,
			bool *no_io);

/* Print the help of every cell key (from the key table) to f. */
#include <stdio.h>
void suite_keys_help(FILE *f);

#endif
