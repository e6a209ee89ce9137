/*
 * archdb_update.h - keeping ARCHIVE/index.sqlite current (archdb_update.c):
 * `iomatrix index` and the hook of the commands that make sets.
 */
#ifndef IOMATRIX_ARCHDB_UPDATE_H
#define IOMATRIX_ARCHDB_UPDATE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>

#include "util/errlist.h"

struct archdb_stats {
	size_t sets, read, dropped, kept, failed;  /* failed: verify */
	bool rebuilt;           /* the file was not ours: made anew */
};

/*
 * `iomatrix index ARCHIVE`: make or bring ARCHIVE/index.sqlite up to
 * date: every set below ARCHIVE (resultset_walk, depth 1; the
 * repository's own examples and references too) whose row is not current
 * is read again, rows of sets that are gone are dropped, all in one
 * transaction; a file that is not ours (or not for this archive) is
 * replaced by a new one.  Warnings of the reader to warnf.  0, or -1 with
 * errs.
 */
int archdb_update(const char *archive, struct archdb_stats *st, FILE *warnf,
		  struct errlist *errs);

/*
 * The hook of run, import, unpack and reproduce: add set setdir to the
 * index of the archive holding it (its parent, or its grandparent for
 * results/reference/SET), when that archive has an index that is ours;
 * one transaction.  0 nothing to do or done; -1 with errs (the caller
 * warns: the set itself is fine, `iomatrix index` repairs the index).
 */
int archdb_add_set(const char *setdir, struct errlist *errs);

#endif
