/*
 * resultset.h - write a dated, self-describing result set:
 *
 *   DIR/manifest.json  DIR/suite.yaml  DIR/plan.json  DIR/cells/0001.json
 *
 * Every file is written atomically (temp file, fsync, rename, fsync of the
 * directory) and the manifest is rewritten after each cell, so a set on disk
 * is always readable.  The schema is documented in results/README.md.
 * Used by `run` and by the importers.  Functions return 0 or -errno with a
 * message in err.
 */
#ifndef IOMATRIX_RESULTSET_H
#define IOMATRIX_RESULTSET_H

#include <stdbool.h>
#include <stddef.h>

#include <cjson/cJSON.h>

#include "common/rep.h"
#include "schema.h"
#include "suite/cell.h"


struct resultset {
	char *dir;          /* owned */
	cJSON *manifest;    /* owned; "cells" array kept up to date */
	bool batch;         /* import into a hidden directory renamed into
			     * place when done: cells are written without
			     * fsync and the manifest only by
			     * resultset_finish(), which syncs once */
};

/* cJSON_Print + fsutil_write_atomic (common/fsutil.h).  0 or -errno. */
int atomic_write_json(const char *path, const cJSON *j);

/*
 * Create a new set directory.  If out_dir is NULL, the name is
 * results_root/<UTC YYYY-MM-DDTHHMMSSZ>_<suite>_<host> (suffix -2, -3 ... if
 * taken; parents are created).  Otherwise out_dir is the set directory
 * itself (created with its parents; refused if it already holds a
 * manifest).  rs takes ownership of `manifest` in every case (freed on
 * failure); its "status" becomes "running" and it is written at once.
 */
int resultset_create(struct resultset *rs, const char *results_root,
		     const char *out_dir, const char *suite_name,
		     cJSON *manifest, char *err, size_t errlen);
/* Open an existing set (for --resume); reads its manifest. */
int resultset_open(struct resultset *rs, const char *dir, char *err,
		   size_t errlen);
/* Write cells/NNNN.json (takes ownership of cell) and update the manifest's
 * cell index, then rewrite the manifest. */
int resultset_write_cell(struct resultset *rs, int id, cJSON *cell,
			 char *err, size_t errlen);
/* --resume: remove a killed writer's temporary files, set status back to
 * "running" and finished_at to null, append now to resumed_at, rewrite. */
int resultset_resume_begin(struct resultset *rs, char *err, size_t errlen);
/* Set status ("complete", "interrupted", "failed"), finished_at, rewrite. */
int resultset_finish(struct resultset *rs, const char *status, char *err,
		     size_t errlen);
void resultset_release(struct resultset *rs);

/* Rewrite manifest.json from rs->manifest (after the caller changed it). */
int resultset_save_manifest(struct resultset *rs, char *err, size_t errlen);
/* The manifest's index entry of cell id, NULL if not written yet.  Borrowed
 * from rs->manifest. */
const cJSON *resultset_cell_entry(const struct resultset *rs, int id);
/* Remove temporary files (fsutil's, and the NAME.tmp.PID of older
 * versions) that a killed writer left in the
 * set; call only while no other process writes it (resume).  Returns how
 * many were removed. */
int resultset_remove_stale_temps(struct resultset *rs);
/* Resume trusts no index: is cells/NNNN.json of cell c present, readable
 * (a regular file, not a link), valid JSON, of c's id, status "ok", and
 * measured with exactly c's parameters?  0 yes; -1 with the reason in why. */
int resultset_cell_verify(const struct resultset *rs, const struct cell *c,
			  char *why, size_t whylen);
/* Read and parse a JSON file; caller owns the result.  NULL with err set. */
cJSON *resultset_read_json(const char *path, char *err, size_t errlen);

/* ---- manifest ---- */

/* What a new manifest says (results/README.md MANIFEST).  Strings are
 * copied; tool and host are taken (NULL: written as null). */
struct manifest_info {
	const char *started_at;     /* NULL: now */
	double scale;
	const cJSON *source;        /* copied; NULL: {"kind": "iomatrix"} */
	char **command;             /* argv of the run; NULL: no "command" */
	int ncommand;
	cJSON *tool, *host;
	const char *suite_name, *title, *description, *file, *sha256;
	size_t cells_total;
};
/* A manifest with status "running" and no cells yet.  Caller owns it;
 * NULL when out of memory (tool and host are freed then too). */
cJSON *resultset_manifest_new(const struct manifest_info *mi);
/* Append {name, path, destructive (unless < 0), fingerprint} to the
 * manifest's devices; fp is taken (NULL: null).  0 or -ENOMEM. */
int resultset_manifest_add_device(cJSON *manifest, const char *name,
				  const char *path, int destructive, cJSON *fp);

/* plan.json (also what `plan --format json` prints): every expanded cell
 * with all parameters resolved.  Caller owns the result. */
cJSON *resultset_plan_to_json(const struct suite *s);

/* ---- cell files (cellfile.c) ---- */

/* How a cell ended: the rest of its cell file besides the parameters. */
struct cell_outcome {
	const char *error;          /* NULL: status "ok" */
	const char *started_at, *finished_at; /* NULL: unknown (null) */
	const struct rep_result *reps;
	size_t nreps;
	char *const *warnings;      /* besides the repetitions' own */
	size_t nwarnings;
	const cJSON *source;        /* tool-specific extras (copied), or NULL */
};
/* The cells/NNNN.json object of cell c (id c->id).  Caller owns it; NULL
 * when out of memory. */
cJSON *resultset_cell_to_json(const struct cell *c, const struct cell_outcome *o);
/* One element of "repetitions" (rep_no counts from 1).  Caller owns it. */
cJSON *resultset_rep_to_json(const struct rep_result *r, int rep_no);
/* A histogram as [[low_ns, count], ...] of its non-empty buckets; NULL h
 * gives [].  Caller owns it. */
cJSON *hist_to_json(const struct lat_hist *h);
/* The reverse; accepts the bare array or {"scheme": "loglin64",
 * "buckets": [...]}.  0, or -1 (h zeroed) when it is not a histogram this
 * scheme wrote. */
int hist_from_json(const cJSON *j, struct lat_hist *h);

/* UTC ISO 8601 time, "2026-11-30T02:40:12Z". */
void iso8601_now(char *buf, size_t len);

#endif
