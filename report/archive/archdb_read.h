/*
 * archdb_read.h - rows of the archive's index back into what history, the
 * site and list use (archdb_read.c): every number within the bounds of a
 * set's own, or the row is not used.  Thread-safe on one struct archdb.
 */
#ifndef IOMATRIX_ARCHDB_READ_H
#define IOMATRIX_ARCHDB_READ_H

#include "setarchive.h"
#include "setlist_entry.h"
#include "util/errlist.h"

struct archdb;

/* The row of the set at rel (its path below the archive) when it is
 * current for dirs (arc_dirs_stamp; a set with a digest, whose row holds
 * this stamp): its id (> 0), *date and (stamp not NULL) the arc_stamp it
 * was read with; else 0.  Thread-safe. */
long long archdb_current(struct archdb *db, const char *rel, const char *dirs, char **date,
			 char stamp[65]);

/*
 * Set id's record, as arc_set_load() makes it from the files (named, with
 * path, by ref), with the warnings and errors loading it gave; every
 * number through cellcheck_value().  1 with *s (release it), *rc the
 * load's result (-1: the set was skipped, its errs say why); 0 when the
 * row fails a check (the caller reads the set); -1 out of memory.
 */
int archdb_record(struct archdb *db, long long id, const struct arc_ref *ref,
		  struct arc_set *s, int *rc, struct errlist *errs, struct errlist *warns);

/* List's entry of set id, path as the walk found it (setlist.c's
 * entry_read() from the files).  1, 0 a failed check, -1 OOM. */
int archdb_list_entry(struct archdb *db, long long id, const char *path,
		      struct setlist_entry *e);

#endif
