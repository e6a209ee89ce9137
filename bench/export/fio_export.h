/*
 * fio_export.h - `iomatrix export fio`: one fio job file per cell
 * (NNNN-<device>-<label>-<pattern>.fio) doing what the cell does, plus
 * run-all.sh running them in order, each repetition to its own JSON file.
 * Readers use these to check our numbers against fio's.  What fio cannot
 * do is a shell step (purge: blkdiscard, after asking), a job of its own
 * (preconditioning: pre-DEV-N.fio) or a loop (rounds), and every stop rule
 * fio cannot judge (steady state) is annotated in the job and on stderr.
 * run-all.sh refuses to write a block device without
 * IOMATRIX_YES_DESTROY_DATA=1 and refuses a /dev path that is not one.
 * Paths are not checked here: the suite may be meant for another machine.
 *
 * The mapping itself is bench/suite/fio_map.c, shared with the report.
 */
#ifndef IOMATRIX_FIO_EXPORT_H
#define IOMATRIX_FIO_EXPORT_H

#include "suite/cell.h"

/* Write the job files and run-all.sh of s into dir (made if missing); the
 * notes on what fio does differently go to stderr, one summary line to
 * stdout.  Returns the exit code (util/cliopt.h): 0, 1 cannot write, 2 a
 * path fio cannot hold. */
int export_fio(const struct suite *s, const char *dir);

#endif
