/*
 * fio_map.h - the one mapping from a cell to the equivalent fio options.
 * `export fio` writes it as a job file, the report prints it as a command
 * line; both go through fio_map_cell() so they can never disagree.
 */
#ifndef IOMATRIX_FIO_MAP_H
#define IOMATRIX_FIO_MAP_H

#include <stdbool.h>

#include "cell.h"

/* Called once per option, in job-file order; val is never NULL. */
typedef void (*fio_map_emit)(void *arg, const char *key, const char *val);

/*
 * Emit the fio options doing what cell c does (rw, bs, ioengine, iodepth,
 * direct, numjobs, group_reporting, filename, size, offset, stop rule,
 * rwmixread, fsync, data, seed).  dir: the device path is a directory
 * holding the CELL_FILE_FMT files (see fio_map_path_is_dir()).
 */
void fio_map_cell(const struct cell *c, bool dir, fio_map_emit emit, void *arg);

/* As the runner decides: an existing directory, or a path ending in '/'. */
bool fio_map_path_is_dir(const char *path);

#endif
