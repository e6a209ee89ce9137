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

#define RESULTSET_SCHEMA_VERSION 1
/* Largest manifest/cell file read back (the report's loader uses the same). */
#define RESULTSET_MAX_FILE_BYTES (64 * 1024 * 1024)

struct resultset {
	char *dir;          /* owned */
	cJSON *manifest;    /* owned; "cells" array kept up to date */
	bool batch;         /* import into a hidden directory renamed into
			     * place when done: cells are written without
			     * fsync and the manifest only by
			     * resultset_finish(), which syncs once */
};

/* Read a whole file into a NUL-terminated buffer the caller frees; *len
 * (may be NULL) gets its size.  NULL with errno set: EFBIG past max bytes,
 * ENOMEM, or what fopen/fread said. */
char *read_file_bounded(const char *path, size_t max, size_t *len);

/* mkdir -p with mode 0755; 0 or -errno. */
int mkdir_parents(const char *path);

/* Write `data` to path atomically.  0 or -errno. */
int atomic_write_file(const char *path, const void *data, size_t len);
/* cJSON_Print + atomic_write_file.  0 or -errno. */
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
/* Set status ("complete", "interrupted", "failed"), finished_at, rewrite. */
int resultset_finish(struct resultset *rs, const char *status, char *err,
		     size_t errlen);
void resultset_release(struct resultset *rs);

/* Rewrite manifest.json from rs->manifest (after the caller changed it). */
int resultset_save_manifest(struct resultset *rs, char *err, size_t errlen);
/* The manifest's index entry of cell id, NULL if not written yet.  Borrowed
 * from rs->manifest. */
const cJSON *resultset_cell_entry(const struct resultset *rs, int id);
/* Remove temporary files (NAME.tmp.PID) that a killed writer left in the
 * set; call only while no other process writes it (resume).  Returns how
 * many were removed. */
int resultset_remove_stale_temps(struct resultset *rs);
/* Read and parse a JSON file; caller owns the result.  NULL with err set. */
cJSON *resultset_read_json(const char *path, char *err, size_t errlen);

/* UTC ISO 8601 time, "2026-11-30T02:40:12Z". */
void iso8601_now(char *buf, size_t len);

#endif
