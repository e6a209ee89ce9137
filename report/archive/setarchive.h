/*
 * archive.h - an archive of result sets as a stream of compact records, for
 * history and site: find the sets under some directories and order them by
 * date without loading them, then load one at a time (rset.h) and keep only
 * what history needs (identity and environment of each device, one value
 * per metric and workload).  Where an archive has a current index
 * (archdb.h), a set's record comes from it instead of its files, the same
 * record to the byte.
 *
 * Device identity (documented for users in `iomatrix history --help`): the
 * host name and the device name plus, where the fingerprint has them, the
 * device model and the sha256 of its serial; otherwise its path; a model
 * device (host/devident.h) by its model keys instead of a disk.  A series
 * is one target of one set: two targets of one set never share one.
 * Ownership: every struct owns its strings; release with the matching
 * _release().
 */
#ifndef IOMATRIX_ARCHIVE_H
#define IOMATRIX_ARCHIVE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <time.h>

#include "util/errlist.h"
#include "util/sbuf.h"

enum arc_metric { ARC_IOPS, ARC_MBS, ARC_LAT_MEAN, ARC_LAT_P99, ARC_NMETRIC };
/* "iops", "mbs", "lat_mean", "lat_p99" and their units for people */
extern const char *const arc_metric_names[ARC_NMETRIC];
extern const char *const arc_metric_units[ARC_NMETRIC];
/* Lower is better (latency). */
bool arc_metric_lower_better(enum arc_metric m);

/* What history reports as "the environment changed": kernel, iomatrix
 * version, firmware, scheduler, mount options, filesystem, governor,
 * virtualisation. */
enum { ARC_ENV_KERNEL, ARC_ENV_TOOL, ARC_ENV_FIRMWARE, ARC_ENV_SCHED,
       ARC_ENV_MOUNT, ARC_ENV_FS, ARC_ENV_GOVERNOR, ARC_ENV_VIRT, ARC_NENV };
extern const char *const arc_env_names[ARC_NENV];

struct arc_val {
	double mean, stddev, ci95;   /* IOPS, MB/s (10^6 B/s) or microseconds */
	int n;                       /* repetitions; 0: metric absent */
};

struct arc_dev {
	char *name, *path, *model;
	char *host;                  /* the host it ran on: the set's, or in a
					fleet set the cell's host ("all" for
					the fleet's aggregate) */
	char *ident;                 /* identity key (see above) */
	int ram;                     /* RAM-backed (util/ramkind.h): 1, 0, -1
					unknown (the index's devices.ram) */
	char *env[ARC_NENV];         /* NULL when unknown */
};

struct arc_cell {
	size_t dev;                  /* index into arc_set.devs */
	char *label;                 /* the workload: "LABEL PATTERN", e.g.
					"RND4K Q1T1 randread" */
	char *sig;                   /* every parameter that shapes the result,
					"pattern=randread;bs=4K;..." */
	bool seq_large;              /* sequential, cell_judged_by_bw: MB/s matters */
	struct arc_val m[ARC_NMETRIC];
};

struct arc_set {
	char *name;                  /* the set directory's name */
	char *path;                  /* as found */
	char *date;                  /* started_at, UTC ISO 8601 */
	char *suite, *title, *host, *status, *source;
	double scale;
	int cells_done, cells_total, cells_failed;
	bool has_report;             /* SET/report/report.html exists */
	/* SHA256SUMS (resultset/sums.h): a set that fails it keeps its name,
	 * devices and counts but no cells, so no number of it is published
	 * as if intact; failed_why names the files ("changed cells/0001.json,
	 * ..."), NULL otherwise.  no_sums: written before checksums. */
	bool failed_verify, no_sums;
	char *failed_why;
	struct arc_dev *devs;
	size_t ndevs;
	struct arc_cell *cells;      /* the ok cells */
	size_t ncells;
};

struct archdb;

/* A set found by arc_scan(): where, when, and a stamp of its inputs. */
#define ARC_DIRS_STAMP_MAX 256
struct arc_ref {
	char *path, *name, *date;
	char *real;                  /* realpath, to list a set once */
	char *rel;                   /* path below the directory walked */
	char stamp[65];              /* arc_stamp(): changes whenever a file of
					the set changes, and with the index's
					format; a current row's: the one
					it was read with */
	char dirs[ARC_DIRS_STAMP_MAX];  /* arc_dirs_stamp(): what a row is
					checked by */
	struct archdb *db;           /* the index holding its current row, */
	long long row;               /* and the row; NULL and 0: read the set */
	size_t order;                /* found n-th (of a set found twice, the
					first stays) */
};

/* The indexes arc_scan() opened (archdb.h), closed by arc_indexes_close. */
struct arc_indexes {
	struct archdb **v;
	size_t n;
};
void arc_indexes_close(struct arc_indexes *ix);

/*
 * Find the sets in dirs: each argument is a set, or a directory holding sets
 * (one more level down too, as results/reference/).  Sorted by date, then
 * name; the same directory given twice is listed once.  Without all, the
 * repository's own example and reference sets found below an argument
 * (resultset_repo_own(), the rule list keeps too) are left out and counted
 * in *hidden.  With ix, a directory of sets whose index is ours
 * (archdb_open_read) gives each set it holds a current row the row
 * (ref->db, ref->row): its record then comes from the index.  Returns 0,
 * or -1 with a message in errs for an argument that is no directory.
 */
int arc_scan(char **dirs, size_t ndirs, bool all, struct arc_indexes *ix, size_t *hidden,
	     struct arc_ref **refs, size_t *nrefs, struct errlist *errs);
void arc_refs_free(struct arc_ref *refs, size_t n);
/* One ref for the set at path (rel: below its archive), its date from its
 * manifest; 0, or -1 (no such directory, out of memory).  Release with
 * arc_ref_release. */
int arc_ref_make(const char *path, const char *rel, struct arc_ref *x);
void arc_ref_release(struct arc_ref *x);
/* On stderr, when hidden > 0: how many of the repository's own sets were
 * left out, and that --all counts them. */
void arc_say_hidden(size_t hidden);

/* Load one set into a record from its files.  0, or -1 with a message in
 * errs (an unreadable or empty set; the caller warns and goes on).
 * Warnings of the reader go to warns, and so does a set that fails
 * verification (its record then has failed_verify and no cells). */
int arc_set_load(const struct arc_ref *ref, struct arc_set *s,
		 struct errlist *errs, struct errlist *warns);
void arc_set_release(struct arc_set *s);
/* The warning of a set at path that fails verification (why: what). */
void arc_warn_failed(struct errlist *warns, const char *path, const char *why);

/* The workload key of cell c (history's series, the index's
 * cells.workload): the workload identity's (suite/workload.h), with an
 * importer's guesses spelled as guesses ("pattern~write"). */
struct rset_cell;
void arc_workload_key(const struct rset_cell *c, struct sbuf *b);

/*
 * Load refs[0..n-1] in order, two sets at a time on loader threads, at most
 * a few ahead of the consumer (memory stays bounded); a ref with a row
 * from its index's row (archdb_record), or from its files when that row
 * fails a check.  next(): 0 with *s filled and *rc the load's result
 * (release *s either way; messages appended to errs/warns), 1 when all
 * were taken.  stop() may come early.
 */
struct arc_stream;
struct arc_stream *arc_stream_start(const struct arc_ref *refs, size_t n);
int arc_stream_next(struct arc_stream *st, struct arc_set *s, int *rc,
		    struct errlist *errs, struct errlist *warns);
void arc_stream_stop(struct arc_stream *st);
/* Print what next() said of one set to f, each line made inert for the
 * terminal: errs as "warning: skipped: " (the set was not read), warns as
 * "warning: " (it was); both lists are released. */
void arc_stream_warn(FILE *f, struct errlist *errs, struct errlist *warns);

#endif
