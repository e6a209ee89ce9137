/*
 * ptsfile.h - the SNIA PTS files of a result set and the PTS parts of a
 * cell file (results/README.md, "Preconditioning, rounds and steady
 * state"): precondition/DEVICE.json, steady/DEVICE.json, a cell's
 * "rounds" and "steady_state", and reading back the repetitions of
 * earlier rounds.  What to run and when to stop is pts/run_ssd.c's; the
 * steady-state math is stats/steady.c's; only the JSON lives here.
 *
 * Functions return 0 or -errno with a message in err (lower-case, subject
 * quoted); a builder returns NULL only when out of memory.
 */
#ifndef IOMATRIX_PTSFILE_H
#define IOMATRIX_PTSFILE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include <cjson/cJSON.h>

#include "stats/rep.h"
#include "stats/steady.h"
#include "resultset.h"
#include "suite/cell.h"

/* ---- steady/DEVICE.json: the rounds of one device ---- */

struct rounds_track {
	char label[CELL_LABEL_MAX];
	int cell_id;
	double *values;          /* one per round done */
	size_t n;
	size_t first_steady;     /* round, 0: never */
	struct steady_verdict v; /* over the current window */
};

struct rounds_state {
	char device[CELL_NAME_MAX];
	const struct suite_rounds *cfg;
	unsigned rounds_done;
	unsigned steady_round;   /* 0: not (yet) */
	bool finished;           /* steady, or max rounds run */
	struct rounds_track *t;
	size_t nt;
	double *pending;         /* this round's value per track, NAN: not yet */
};

/* Write SETDIR/steady/DEV.json from st (atomically; steady/ is made). */
int resultset_steady_write(const char *setdir, const struct rounds_state *st,
			   char *err, size_t errlen);
/*
 * Read SETDIR/steady/DEV.json back into st, whose tracks (labels, value
 * arrays of cfg->rule.max) are set up: the values of the rounds all of
 * whose cells were written (rounds_done, bounded by the rule's max), per
 * track by label.  A track with fewer values than that restarts the
 * device (rounds_done 0).  Only rounds_done and the values are set.
 * 0, or -1 when there is no readable file (round 0).
 */
int resultset_steady_read(const char *setdir, struct rounds_state *st);

/*
 * The reader's side, for a set from anyone (the report): SETDIR/SUB/DEV.json
 * with SUB "steady" or "precondition", bounded (16 MiB), never through a
 * link, and only for a device name the suite language allows
 * ([a-z0-9._-], no leading dot: a hostile manifest cannot point outside
 * the set).  The object (caller owns it), or NULL: why[0] is 0 when there
 * is simply no such file (the normal case), else it says what is wrong.
 */
cJSON *resultset_pts_read(const char *setdir, const char *sub, const char *dev,
			  char *why, size_t whylen);

/* ---- precondition/DEVICE.json ---- */

/* The file of device dev's purge and preconditioning, started now: the
 * caller owns it.  kind is precond_kind_name()'s. */
cJSON *resultset_precond_new(const char *dev, const char *kind);
/* Its "purge": a discard of bytes in runtime_ns, or null when !done, and
 * the empty "passes".  0 or -ENOMEM. */
int resultset_precond_purge(cJSON *j, bool done, uint64_t bytes,
			    uint64_t runtime_ns);
/* Append the pass that ran cell pc (its PARAMS) and measured rep. */
int resultset_precond_add_pass(cJSON *j, const struct cell *pc,
			       const struct rep_result *rep);
/* Mark j finished "ok" now and write it as SETDIR/precondition/DEV.json
 * (j stays the caller's). */
int resultset_precond_write(const char *setdir, const char *dev, cJSON *j,
			    char *err, size_t errlen);

/* ---- cell files measured in rounds or until steady ---- */

/*
 * The cell file of cell c whose repetitions this time were o->reps
 * (o->nreps of them).  round 0: no rounds; else the cell's round `round`
 * of a suite whose window is rounds_window: the repetitions of earlier
 * rounds are read back from SETDIR's cell file and kept, and the summary
 * covers the window's rounds.  With c->steady.window the summary covers
 * the last window repetitions and sv is written as "steady_state".
 * Caller owns the result; NULL when out of memory.
 */
cJSON *resultset_cell_window_json(const char *setdir, const struct cell *c,
				  const struct cell_outcome *o, unsigned round,
				  unsigned rounds_window,
				  const struct steady_verdict *sv);
/* Rebuild what a summary needs of a stored repetition (counts, exact
 * latency moments, histogram).  0, or -1 when it is not one we wrote.
 * Release with rep_result_release(). */
int resultset_rep_from_json(const cJSON *rep, struct rep_result *out);

#endif
