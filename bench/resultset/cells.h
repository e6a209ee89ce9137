/*
 * cells.h - the cells/ directory of a result set: the one grammar of a
 * cell file's name and the one walker of the directory.  Resume's index
 * (resultset_open), the reader (rset_load) and `list` all see the same
 * cells through it.
 *
 * The grammar (results/README.md, "cells/NNNN.json"): a cell file is named
 * exactly as resultset_cell_name() writes it, the decimal id zero-padded to
 * four digits (0001.json .. 9999.json) and, from 10000 on, without leading
 * zeros (10000.json .. 9999999.json).  Any other spelling of an id
 * (00001.json, 1.json, 0000.json) is not a cell file: two names for one id
 * would make two files claim one cell.
 */
#ifndef IOMATRIX_CELLS_H
#define IOMATRIX_CELLS_H

#include <stddef.h>

#include "schema.h"

/* Room for "cells/" + the longest cell file name + NUL. */
#define RESULTSET_CELL_NAME_MAX 32

/* The file name of cell id inside cells/ ("0001.json") into buf. */
void resultset_cell_name(int id, char *buf, size_t len);
/* The id a name in cells/ stands for (1 .. RESULTSET_MAX_ID), or 0 when it
 * is not a cell file's name under the grammar above. */
int resultset_cell_file_id(const char *name);
/*
 * Open the cells/ directory of the set open at setfd without following a
 * link (a planted SET/cells -> /elsewhere is refused).  A descriptor the
 * caller closes, or -1 with errno set (ENOENT: no cells/ yet).
 */
int resultset_cells_open(int setfd);
/*
 * Walk the directory cellsfd (left open, its read position moved; -1
 * gives no cell): the ids of its cell files, ascending and without
 * duplicates, into *ids (malloc'ed, the caller frees; NULL when there is
 * none) and *n.  Only names are looked at: what a file holds is its
 * reader's business.  0, or -ENOMEM
 * (*ids NULL).
 */
int resultset_cells_list(int cellsfd, int **ids, size_t *n);
/*
 * The status of the cell file of id in cellsfd, for a reader that needs
 * no more of it (`list` on a set whose run was killed): 1 "ok", 0 any
 * other status, -1 unreadable or not JSON.  Reads the file bounded by
 * RESULTSET_MAX_FILE_BYTES, never through a link.
 */
int resultset_cell_status_ok(int cellsfd, int id);

#endif
