/*
 * archdb_write.h - one set into the archive's index (archdb_write.c): read
 * from its files (on any thread), then written as rows, every value a
 * bound parameter.
 */
#ifndef IOMATRIX_ARCHDB_WRITE_H
#define IOMATRIX_ARCHDB_WRITE_H

#include <stdbool.h>

#include "archdb.h"
#include "setarchive.h"
#include "setlist_entry.h"
#include "resultset/rset.h"
#include "util/errlist.h"

/* What goes into the index of one set, read from its files (no database
 * touched: another thread may read the next set while one is written). */
struct archdb_setdata {
	struct arc_set rec;         /* its record (archive.c) */
	bool loaded;                /* the record loaded (else e says why) */
	int verified;               /* enum sums_state */
	struct setlist_entry le;    /* list's entry */
	struct rset rs;             /* every fact, through the typed reader */
	bool full;                  /* rs loaded */
	struct errlist e, w, re;    /* the record's errors, warnings; rs's */
};
/* Read the set of ref: 0 (a set that cannot be read is data that says
 * so); release d either way. */
int archdb_read_set(const struct arc_ref *ref, struct archdb_setdata *d);
void archdb_setdata_release(struct archdb_setdata *d);

/*
 * Put the set of ref (ref->rel its path below the archive, ref->stamp and
 * digest from arc_stamp), read into d, into the index in place of its old
 * rows (the caller holds the transaction).  0, or -1 with errs.
 */
int archdb_put_read(struct archdb *x, const struct arc_ref *ref, const char *digest,
		    const struct archdb_setdata *d, struct errlist *errs);
/* Read and put in one: *verified, its enum sums_state. */
int archdb_put(struct archdb *x, const struct arc_ref *ref, const char *digest,
	       int *verified, struct errlist *errs);

#endif
