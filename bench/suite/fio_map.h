/*
 * fio_map.h - the one mapping from a cell to the equivalent fio options.
 * `export fio` writes it as a job file, the report prints it as a command
 * line; both go through fio_map_cell() so they can never disagree.
 */
#ifndef IOMATRIX_FIO_MAP_H
#define IOMATRIX_FIO_MAP_H

#include <stdbool.h>

#include "cell.h"
#include "key_ops.h" /* fio_map_emit: the qos keys say their options too */

/*
 * Emit the fio options doing what cell c does (rw, bs, ioengine, iodepth,
 * direct, numjobs, group_reporting, filename, size, active_range, offset,
 * stop rule with io_size as a multiple, rwmixread, fsync, data, seed).
 * What fio cannot express (purge, preconditioning as a separate step,
 * rounds, steady-state stops) is bench/export's to write or annotate.
 * dir: the device path is a directory holding the CELL_FILE_FMT files
 * (see fio_map_path_is_dir()).
 */
void fio_map_cell(const struct cell *c, bool dir, fio_map_emit emit, void *arg);

/*
 * fio's io_size=N% stops at 100 % (fio 3.33), so a cell writing 1.5x a
 * device sized by percentage (ssd-write-cliff) gets io_size=${IOMATRIX_IO_SIZE}
 * and the runner of the job file sets it in bytes.  This returns the share
 * of the device's bytes each job must do in that case (0: not needed).
 */
#define FIO_MAP_IO_SIZE_ENV "IOMATRIX_IO_SIZE"
double fio_map_io_size_env(const struct cell *c);

/* Where the job fio_map_cell() writes is not the workload cell c runs, the
 * reason, for a comment in the job ("NOT THE SAME: ..."); NULL: it is. */
const char *fio_map_unlike(const struct cell *c);

/* As the runner decides: an existing directory, or a path ending in '/'. */
bool fio_map_path_is_dir(const char *path);

#endif
