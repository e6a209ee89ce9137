/*
 * run_ssd.h - the SNIA PTS side of `run`: purge and
 * preconditioning before a device's first cell (precondition/DEVICE.json),
 * the per-device rounds state judged after every round (steady/DEVICE.json),
 * and the cell-file bookkeeping that keeps every round's or repetition's
 * results while the summary covers only the measurement window.
 *
 * Functions return 0 or -errno with a message in err (lower-case, subject
 * quoted); -EINTR when the stop flag was raised.
 */
#ifndef IOMATRIX_RUN_SSD_H
#define IOMATRIX_RUN_SSD_H

#include <signal.h>
#include <stdbool.h>

#include <cjson/cJSON.h>

#include "resultset/ptsfile.h"
#include "runner/runner.h"
#include "suite/cell.h"
#include "suite/suite.h"

/* ---- purge and preconditioning ---- */

/* Does a run of s write device d: a writing cell, purge or
 * preconditioning (which write the whole device)? */
bool ssd_device_writes(const struct suite *s, const struct suite_device *d);

/* Preconditioning pass idx (p) as a cell pc on the file set of device's
 * first cell: what run measures and what export fio writes as a job.  The
 * amount is not set (io_size 0): it needs the file set's size. */
void ssd_precond_cell(const struct cell *first, const struct precond_pass *p,
		      unsigned idx, struct cell *pc);

/*
 * Purge (when the device says so) and precondition device d on the file set
 * of its first cell `first`, measuring every pass like a write cell, and
 * write SETDIR/precondition/NAME.json.  Nothing to do: returns 0 at once.
 * *created is set when it made files that the cells' target must remove.
 */
int ssd_prepare_device(const struct suite_device *d, const struct cell *first,
		       bool yes_destroy_data, struct run_ctl *ctl,
		       const char *setdir, bool quiet, bool *created,
		       char *err, size_t errlen);

/* ---- rounds (struct rounds_state: resultset/ptsfile.h, the steady file) ---- */

/* Start the state of device dev: from SETDIR/steady/DEV.json when resuming
 * (rounds_done then says where to go on), else round 0.  The cells of the
 * tracks are looked up in s. */
int rounds_state_load(struct rounds_state *st, const struct suite *s,
		      const char *dev, const char *setdir, char *err,
		      size_t errlen);
void rounds_state_release(struct rounds_state *st);
/* Note cell c's value of this round (ignored unless c is tracked). */
void rounds_state_note(struct rounds_state *st, const struct cell *c,
		       double value);
/* The round is complete: judge it, write SETDIR/steady/DEV.json.  Sets
 * st->finished when steady or at the maximum. */
int rounds_state_end_round(struct rounds_state *st, const char *setdir,
			   char *err, size_t errlen);

#endif
