/*
 * import.h - the importers (`iomatrix import fio|sysbench|csv`): each parser
 * turns another tool's output into an import_set of measured cells, and
 * import_set_write() stores that as a normal schema-v1 result set (manifest,
 * suite.yaml, plan.json, cells/) that `report` and `compare` read like a run.
 *
 * Error convention: parsers return -1 and append "file:line:col: message"
 * to an errlist (line:col of the offending byte where one exists); nothing
 * is written until every input parsed.  import_set_write() builds the set in
 * a temporary directory and renames it into place, so a failure never leaves
 * a half set behind.
 */
#ifndef IOMATRIX_IMPORT_H
#define IOMATRIX_IMPORT_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include <cjson/cJSON.h>

#include "suite/cell.h"
#include "util/errlist.h"
#include "stats/rep.h"

struct import_cell {
	struct cell params;         /* id is assigned by import_set_write;
				     * device and path point at the two below */
	char *device, *path;        /* owned */
	struct rep_result *reps;    /* owned; filled as the runner does (stats/rep.h) */
	size_t nreps;
	char **warnings;            /* owned strings */
	size_t nwarnings;
	cJSON *source;              /* owned, may be NULL: tool-specific extras */
};

struct import_device {
	char name[CELL_NAME_MAX];
	char path[PATH_MAX];
};

struct import_index;

struct import_set {
	const char *kind;           /* "fio", "sysbench", "csv" (static) */
	char name[64];              /* names the set directory and the suite */
	char *title, *description;  /* owned, may be NULL */
	cJSON *source;              /* owned: manifest "source" */
	struct import_cell *cells;  /* owned */
	size_t ncells, alloc;
	struct import_device *devices;
	size_t ndevices, devalloc;
	struct import_index *devidx, *cellidx; /* owned: lookups in O(1) */
	char started_at[32], finished_at[32]; /* "" unknown: import time used */
	char host[64];              /* --host, "" unknown: hostname null */
};

void import_set_init(struct import_set *s, const char *kind);
void import_set_release(struct import_set *s);

/* Set s->name from a file name: basename without extension, characters
 * outside [a-z0-9._-] folded or replaced by '-'. */
void import_set_name_from_file(struct import_set *s, const char *path);

/* Add the device if not yet known.  0, or -1 when out of memory. */
int import_set_add_device(struct import_set *s, const char *name,
			  const char *path);

/*
 * Add one repetition of a cell: if a cell with the same device and
 * parameters exists, rep becomes its next repetition, else a new cell is
 * made (with its own copies of params' device and path, which may point
 * into the parser's buffers).  Takes ownership of rep's histograms (rep is zeroed) and of source
 * (may be NULL).  Returns the cell, or NULL when out of memory.
 */
struct import_cell *import_set_add(struct import_set *s, const struct cell *params,
				   struct rep_result *rep, cJSON *source);

/* Append a warning (printf format) to a cell, once. */
void import_cell_warn(struct import_cell *c, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));

/* The cells/NNNN.json object of cell c (with id).  Caller owns it. */
cJSON *import_cell_to_json(const struct import_cell *c, int id);

/*
 * Would a set reader take cell c as it stands?  Its JSON through the one
 * cell validator (resultset/cellcheck.h) and its parameters back through
 * cell_from_json (the key table's ranges), as `report` reads them.  A
 * parser calls it on each cell it adds a repetition to, and refuses the
 * input when it says no: an import never writes a cell that its report
 * then treats as failed.  0, or -1 with the reason in why.
 */
int import_cell_check(const struct import_cell *c, char *why, size_t whylen);

/*
 * Write the set.  out_dir: the set directory itself (must not exist, or be
 * empty); NULL: results_root/<UTC>_<kind>_<name>.  On success the directory
 * is copied into dir_out.  0, or -1 with a message in err (exit 1: IO), or
 * -2 when the destination is inside a result set (resultset/setout.h:
 * exit 2, nothing written).
 */
int import_set_write(struct import_set *s, const char *results_root,
		     const char *out_dir, char *dir_out, size_t dir_outlen,
		     char *err, size_t errlen);

/* --- helpers shared by the parsers --- */

/* A count or size read as a double from another tool's output, as uint64_t:
 * negative and NaN give 0, values past 2^64 saturate (a plain cast would be
 * undefined behaviour on hostile input). */
uint64_t import_u64(double x);

/* Read a whole input file (NUL-terminated, at most 256 MiB, regular files
 * only: util/fsutil.h).  NULL with the reason added to errs. */
char *import_read_file(const char *path, size_t *len, struct errlist *errs);
/* 1-based line and column of byte offset off in buf. */
void import_linecol(const char *buf, size_t off, unsigned *line, unsigned *col);

/* The parsers.  Each appends what it read to s; -1 with errs filled on bad
 * input (s may then hold part of the input: the caller discards it). */
struct import_fio_opts {
	const char *device;         /* --device, or NULL */
};
int import_fio_file(struct import_set *s, const char *path,
		    const struct import_fio_opts *o, struct errlist *errs);

struct import_sysbench_opts {
	const char *device;         /* --device, or NULL */
	const char *mode;           /* --mode rndrd..., or NULL: from the log */
	uint64_t bs;                /* --bs, 0: from the log */
	unsigned threads;           /* --threads, 0: from the log */
};
int import_sysbench_file(struct import_set *s, const char *path,
			 const struct import_sysbench_opts *o,
			 struct errlist *errs);

int import_csv_file(struct import_set *s, const char *path,
		    struct errlist *errs);

/* Total IOPS of a cell's first repetition (read + write), for checks of
 * published ratios; 0 if none. */
double import_cell_iops(const struct import_cell *c);
/* The cell of device/pattern/bs, NULL if none. */
const struct import_cell *import_set_find(const struct import_set *s,
					  const char *device, enum pattern p,
					  uint64_t bs);

/* ---- the whole import (import_run.c) ---- */

/* What `import` is asked to read; every field checked by the caller. */
struct import_req {
	const char *kind;               /* "fio", "sysbench" or "csv" */
	const char *const *files;       /* nfiles >= 1; csv: one */
	size_t nfiles;
	const char *device;             /* --device, or NULL */
	const char *title, *out;        /* --title, --out, or NULL */
	const char *host;               /* --host, or NULL */
	const char *date, *date_iso;    /* --date as given and in ISO form, or NULL */
	struct import_sysbench_opts sysbench; /* --mode, --bs, --threads */
	const char *const *hist_logs;   /* fio: --hist-log FILE..., the one
					 * job's histogram logs (fio_histlog.h) */
	size_t nhist_logs;
};
/* Read every input, refuse them all on the first error (file:line:col on
 * stderr), fill in the machine and date, and write the set whole; its
 * directory into dir.  Returns the exit code (util/cliopt.h): 0, 1 the
 * write failed, 2 bad input or an existing destination. */
int import_run(const struct import_req *q, char *dir, size_t dirlen);

#endif
