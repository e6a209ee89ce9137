/*
 * history.h - a device's history across dated result sets: one series per
 * device identity, workload and metric, points in date order, change points
 * (changepoint.h) and what changed in the environment between points.
 * Built by streaming: history_add() takes one set record at a time
 * (archive.h) in date order and keeps only the numbers; history_finish()
 * joins identities (--same), keeps rehearsals and sets whose parameters
 * differ for a label apart (with the reason) and finds the change points.
 *
 * Ownership: struct history owns everything; history_release().
 */
#ifndef IOMATRIX_HISTORY_H
#define IOMATRIX_HISTORY_H

#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>

#include <cjson/cJSON.h>

#include "setarchive.h"
#include "changepoint.h"
#include "util/errlist.h"
#include "util/optspec.h"

struct hist_opts {
	const char *device;      /* NULL, a device name or HOST:DEVICE */
	const char *workload;    /* NULL or a label */
	int metric;              /* enum arc_metric, or -1: MB/s for sequential
				    cells of 64 KiB and more, IOPS otherwise */
	double threshold;        /* percent, as compare's --threshold */
	struct optlist same;     /* "HOST:DEV=HOST:DEV" joins (--same) */
};

struct hist_set {
	char *name, *date, *suite;
	double scale;
};

struct hist_ident {
	char *key;               /* identity key (archive.h) */
	char *host, *device, *model, *path;   /* as last seen */
	char **alias;            /* every "host:device" it was seen as */
	size_t nalias;
	size_t canon;            /* after --same: the identity it joins */
	char *display;           /* after finish: "host · device", with the
				    path or model when another identity
				    would read the same */
	size_t nsets;            /* sets it appears in */
};

struct hist_point {
	size_t set;              /* index into history.sets (date order) */
	size_t env;              /* index into history.envs */
	struct arc_val v;
	struct cp_result cp;
	char **env_changes;      /* owned: "kernel 6.1 → 6.6", ... */
	size_t nenv_changes;
};

struct hist_series {
	size_t ident;            /* canonical identity */
	char *label, *sig;
	double scale;
	int metric;              /* enum arc_metric */
	char *apart;             /* NULL for the label's main series, else why */
	char *workload;          /* label, or "label [why apart]" */
	struct hist_point *pts;
	size_t n, alloc;
	int nchanges;
};

/* A set left out because it fails verification (SHA256SUMS). */
struct hist_failed {
	char *set, *path, *problems;    /* owned */
};

struct history {
	struct hist_opts opt;
	struct hist_set *sets;
	size_t nsets, sets_alloc;
	struct hist_ident *idents;
	size_t nidents;
	char *(*envs)[ARC_NENV];
	size_t nenvs, envs_alloc;
	struct hist_series *series;
	size_t nseries, series_alloc;
	size_t *hash;            /* open addressing over series, SIZE_MAX empty */
	size_t hash_cap;
	size_t nchanges;
	struct errlist warns;
	struct hist_failed *failed;     /* owned (history_build) */
	size_t nfailed;
};

void history_init(struct history *h, const struct hist_opts *opt);
/* Take the numbers of one set (sets must come in date order).  0, -1 OOM. */
int history_add(struct history *h, const struct arc_set *s);
/* Join, separate, sort and detect.  0; -1 with a message in errs (an
 * unknown --same name, out of memory). */
int history_finish(struct history *h, struct errlist *errs);
void history_release(struct history *h);

/*
 * The whole of `iomatrix history` but its output (history_build.c): scan
 * dirs (arc_scan; all: the repository's own sets too, else their count
 * is said, arc_say_hidden), stream their sets in date order into h, keep those that
 * fail verification in h->failed, and finish.  *nfound gets the number of
 * sets found.  Each set's warnings are printed to warnf as they come
 * ("iomatrix: warning: ...").  Returns EXIT_OK, or EXIT_USAGE (nothing to
 * scan, an unknown --same name) or EXIT_RUNTIME (out of memory) with
 * messages in errs (util/cliopt.h).
 */
int history_build(struct history *h, char *const *dirs, size_t ndirs, bool all,
		  size_t *nfound, FILE *warnf, struct errlist *errs);
/* "left out: N sets failing verification" and one line per set, when
 * there are any (text output). */
void history_write_failed(const struct history *h, FILE *f);

/* "host · device" of an identity (caller frees). */
char *history_ident_name(const struct history *h, size_t ident);

/* Outputs.  text: for people; csv: one row per point; json: the shape
 * documented in `iomatrix history --help`, and a newline
 * (history_json.c; 0, or -1 out of memory). */
void history_write_text(const struct history *h, FILE *f);
void history_write_csv(const struct history *h, FILE *f);
int history_write_json(const struct history *h, FILE *f);

#endif
