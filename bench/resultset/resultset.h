/*
 * resultset.h - write a dated, self-describing result set:
 *
 *   DIR/manifest.json  DIR/suite.yaml  DIR/plan.json  DIR/cells/0001.json
 *
 * Every file is written atomically (util/fsutil.h).  The manifest is
 * written when the set is made, when a run resumes and when it ends; in
 * between each finished cell is one new file in cells/ (no whole-manifest
 * rewrite per cell, so a run's bookkeeping is flat in the number of
 * cells).  Cell files are made durable in batches (resultset_sync, at most
 * RESULTSET_SYNC_NS apart, and always before the final manifest).  A set
 * whose run was killed says "running" and lists its cells in cells/ only:
 * the reader (rset.h) and --resume (resultset_open) read cells/.  The
 * schema is documented in results/README.md.  Used by `run` and by the
 * importers.  Functions return 0 or -errno with a message in err.
 *
 * The functions are setdir.c's (the directory, its manifest and index),
 * cellfile.c's, planfile.c's and rset_json.c's (resultset_read_json), as
 * each part says; setdir.c calls the others, which include this header,
 * so no resultset.c shares its name.
 */
#ifndef IOMATRIX_RESULTSET_H
#define IOMATRIX_RESULTSET_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include <cjson/cJSON.h>

#include "histfile.h"   /* hist_to_json, hist_from_json */
#include "stats/rep.h"
#include "schema.h"
#include "suite/cell.h"


/* Cell files written are made durable at least this often. */
#define RESULTSET_SYNC_NS 1000000000ull

struct resultset {
	char *dir;          /* owned */
	int dirfd;          /* the set directory; -1 when none */
	cJSON *manifest;    /* owned; its "cells" index is rewritten from
			     * entries by resultset_finish() */
	cJSON **entries;    /* index entry of cell id at [id - 1], NULL: none
			     * yet; owned */
	size_t nentries;
	uint64_t synced_ns; /* CLOCK_MONOTONIC of the last resultset_sync() */
	bool dirty;         /* cell files written since */
};

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
/* Open an existing set (for --resume): its manifest, and the index of its
 * cells from the manifest and from the files in cells/ (which win). */
int resultset_open(struct resultset *rs, const char *dir, char *err,
		   size_t errlen);
/* --resume: remove a killed writer's temporary files, set status back to
 * "running" and finished_at to null, append now to resumed_at, rewrite the
 * manifest. */
int resultset_resume_begin(struct resultset *rs, char *err, size_t errlen);
/* Write cells/NNNN.json (takes ownership of cell) and put the cell in the
 * index; the manifest is not rewritten (resultset_finish() does).  See
 * RESULTSET_KILL_ENV. */
int resultset_write_cell(struct resultset *rs, int id, cJSON *cell,
			 char *err, size_t errlen);
/* Make the cell files written so far durable (one syncfs). */
int resultset_sync(struct resultset *rs);
/* Sync the cells, then set status ("complete", "interrupted", "failed"),
 * finished_at and the cell index, and rewrite the manifest. */
int resultset_finish(struct resultset *rs, const char *status, char *err,
		     size_t errlen);
void resultset_release(struct resultset *rs);

/* Rewrite manifest.json from rs->manifest (after the caller changed it). */
int resultset_save_manifest(struct resultset *rs, char *err, size_t errlen);
/* The index entry {id, file, device, label, status} of cell id, NULL if
 * not written yet.  O(1); borrowed from rs. */
const cJSON *resultset_cell_entry(const struct resultset *rs, int id);
/* Is cell id in the index with status "ok" (measured, nothing to redo)? */
bool resultset_cell_ok(const struct resultset *rs, int id);

/* What --resume needs of an open set's manifest; strings are borrowed
 * from rs->manifest (NULL when absent or not a string). */
struct resultset_facts {
	const char *source_kind;    /* "iomatrix" for runs, "fio" ... imports */
	const char *hostname;       /* the host it was started on */
	const char *suite_sha256;
	double scale;               /* 1 when absent, -1 when not a number */
};
void resultset_facts(const struct resultset *rs, struct resultset_facts *f);
/* The set's devices as run's --device arguments "NAME=PATH", in manifest
 * order, NULL-terminated; *n gets the count.  The caller frees each string
 * and the array; NULL when out of memory. */
char **resultset_device_args(const struct resultset *rs, size_t *n);
/* Remove temporary files (fsutil's, and the NAME.tmp.PID of older
 * versions) that a killed writer left in the
 * set; call only while no other process writes it (resume).  Returns how
 * many were removed. */
int resultset_remove_stale_temps(struct resultset *rs);
/* Remove a set that resultset_create() made in this process whose run was
 * refused at its first cell, before any IO (a directory it may not write:
 * the user's input, not a result): it holds at most that one cell, status
 * "failed".  Removes the files the set is made of, that cell file, cells/
 * and the directory, each by name below rs->dirfd, never through a link;
 * anything else found there stays (and so does the directory).  0, or
 * -ENOTEMPTY when the set holds more than that. */
int resultset_discard_refused(struct resultset *rs);
/* Resume trusts no index: is cells/NNNN.json of cell c present, readable
 * (a regular file, not a link), valid JSON, of c's id, status "ok", and
 * measured with exactly c's parameters?  0 yes; -1 with the reason in why. */
int resultset_cell_verify(const struct resultset *rs, const struct cell *c,
			  char *why, size_t whylen);
/* The same for a cell stored under another id (a fleet set: host slot *
 * plan cells + plan id), c's own id being its params' id. */
int resultset_cell_verify_as(const struct resultset *rs, const struct cell *c,
			     int file_id, char *why, size_t whylen);
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
/* The manifest of a run of suite s on this machine (tool and host
 * fingerprints, each device with its fingerprint when fingerprints, else
 * null) with scale (<= 0: 1), the command argv and cells_total.  Caller
 * owns it; NULL when out of memory. */
cJSON *resultset_manifest_for_suite(const struct suite *s, double scale,
				    int argc, char **argv, size_t cells_total,
				    bool fingerprints);

/* plan.json (also what `plan --format json` prints): every expanded cell
 * with all parameters resolved, streamed to f one cell at a time.
 * 0, -ENOMEM, or -EIO when f failed. */
int resultset_plan_write(FILE *f, const struct suite *s);
/* The same into rs's plan.json, atomically.  0 or -errno. */
int resultset_write_plan(struct resultset *rs, const struct suite *s);
/* A new set's inputs: suite.yaml (the suite byte for byte) and plan.json,
 * atomically.  0 or the first -errno. */
int resultset_write_inputs(struct resultset *rs, const struct suite *s);

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
	const cJSON *load_sweep;    /* qosfile.h's object (copied), or NULL */
};
/* The cells/NNNN.json object of cell c (id c->id).  Caller owns it; NULL
 * when out of memory. */
cJSON *resultset_cell_to_json(const struct cell *c, const struct cell_outcome *o);
/* One element of "repetitions" (rep_no counts from 1).  Caller owns it. */
cJSON *resultset_rep_to_json(const struct rep_result *r, int rep_no);
/* hist_to_json, hist_from_json: histfile.h */

/*
 * The write-cliff object stored with a write direction's time series
 * (the fit and stalls are stats/cliff.h's):
 *   {"found", "samples", "interval_ns", "break_index", "break_ns",
 *    "before_bytes", "level1_bw_bytes_s", "level2_bw_bytes_s", "drop_pct",
 *    "median_bw_bytes_s", "stalls": [interval index...]}
 * NULL when the series has fewer than 2 usable intervals or on OOM.
 * Caller owns the result.
 */
cJSON *resultset_cliff_to_json(const struct series *s, uint64_t runtime_ns);

/* cJSON_Print of j plus a final newline, written to path atomically
 * (fsutil_write_atomic): the other JSON files a run keeps beside the set's
 * own.  0 or -errno. */
int resultset_write_json(const char *path, const cJSON *j);

/* UTC ISO 8601 time, "2026-11-30T02:40:12Z". */
void iso8601_now(char *buf, size_t len);

#endif
