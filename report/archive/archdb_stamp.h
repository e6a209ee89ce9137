/*
 * archdb_stamp.h - when a row of the archive's index may stand for a set,
 * and which machine and archive an index was made for (archdb_stamp.c
 * says why the stamp is what it is).
 */
#ifndef IOMATRIX_ARCHDB_STAMP_H
#define IOMATRIX_ARCHDB_STAMP_H

#include <stdbool.h>

#include "setarchive.h"


/*
 * What decides whether a set's row is current: digest, the hex sha256 of
 * its SHA256SUMS bytes ("" when it has none); stamp, the hex sha256 of the
 * digest and of every entry below the set (name, type, device, inode,
 * size, mtime and ctime; not followed through links; report/ and compare/
 * only by report/report.html), and of the record's format.  0, or -1 when
 * the set cannot be read.
 */
int arc_stamp(const char *setdir, char digest[65], char stamp[65]);
/*
 * What history, list and site check before they use a set's row (a stat
 * each of the set's directory, its cells/ and every file in the two, no
 * read): their device, inode, size, mtime and ctime, as text
 * (setarchive.h's ARC_DIRS_STAMP_MAX bytes at most, "" when the set is
 * gone).  An entry added, removed or replaced (every writer of a set and
 * `sed -i` rename) changes it, and so does a file of either rewritten in
 * place under its own name (its mtime and ctime: a cell changed after the
 * index read it must not be served from the row).  Deeper files (the
 * set's own report/, a cell's extra directories) only `index` (arc_stamp)
 * and `verify` see.  0, or -1.
 */
int arc_dirs_stamp(const char *setdir, char out[ARC_DIRS_STAMP_MAX]);
/* The same of setdir relative to directory descriptor at (AT_FDCWD: as
 * arc_dirs_stamp), which a scan holds open for its archive: short
 * lookups instead of every set's full path. */
int arc_dirs_stamp_at(int at, const char *setdir, char out[ARC_DIRS_STAMP_MAX]);
/* The stat of every file of several sets at once (io_uring where the
 * kernel lets it, else fstatat): one a thread, made by arc_statq_new
 * (NULL on OOM) and freed by arc_statq_free. */
struct arc_statq;
struct arc_statq *arc_statq_new(void);
void arc_statq_free(struct arc_statq *q);
/* arc_dirs_stamp_at of n sets (setdirs relative to at), into out[0..n),
 * ARC_STAMP_BATCH of them at a time through q (NULL: one file after
 * another); the same text as one at a time.  is_set (NULL: not asked)
 * gets resultset_is_set of each, from the same stats.  0, or -1 when any
 * set's is "" (it cannot be read). */
#define ARC_STAMP_BATCH 8
int arc_dirs_stamp_many(struct arc_statq *q, int at, const char *const *setdirs, size_t n,
			char (*out)[ARC_DIRS_STAMP_MAX], bool *is_set);
/* Which machine and archive directory an index was made for: the hex
 * sha256 of /etc/machine-id (else the boot id) and the archive's device,
 * inode and real path.  0, or -1. */
int archdb_made_for(const char *archive, char hex[65]);

#endif
