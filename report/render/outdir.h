/*
 * outdir.h - the directory a report or compare writes into.  A result set
 * received from someone else may hold planted links, so the directory is
 * opened without following a link iomatrix did not get from the user,
 * locked against a second writer, written through unique temp names, and
 * cleaned only of files an earlier iomatrix run listed as its own.
 *
 * Every function returns 0 or -1 with a message in errs (the message says
 * what to do); ownership: struct outdir owns its path, fd and lists.
 */
#ifndef IOMATRIX_OUTDIR_H
#define IOMATRIX_OUTDIR_H

#include <stdbool.h>
#include <stddef.h>

#include "util/errlist.h"

/* Each output directory lists what iomatrix wrote there in this file, one
 * "SHA256  NAME" line per file (sha256sum's format: `sha256sum -c
 * .iomatrix-files` checks them).  A file is removed later only when it is
 * listed and still has the listed hash: a file the user put there, or one
 * they edited, is theirs. */
#define OUTDIR_LIST ".iomatrix-files"

struct outdir_file {
	char *name;
	char hex[65];      /* sha256; "" until known (a claimed name) */
};

struct outdir {
	char *path;        /* for messages */
	int fd;            /* O_DIRECTORY, -1 when closed */
	struct outdir_file *old;     /* what the previous run listed */
	size_t nold, oldalloc;
	struct outdir_file *written; /* what this run wrote */
	size_t nwritten, alloc;
	bool nosync;       /* skip the fsyncs (a site: rebuilt, not kept) */
	bool locked;       /* flock held (by it or its parent) */
};

/*
 * Open `user_path` (a directory the user named: links in it are the user's
 * own, made with its parents when missing), then, when sub is not NULL,
 * its child `sub` (made when missing, never a link: SET/report and
 * SET/compare live inside a set that may come from anyone).  Takes an
 * exclusive flock on the result; when another iomatrix holds it, says so
 * on stderr and waits for it.
 * Returns 0, -1 for an error of the input (a planted link, not a
 * directory: exit 2) or -2 for a runtime error (exit 1).
 */
int outdir_open(struct outdir *o, const char *user_path, const char *sub,
		const char *cmd, struct errlist *errs);

/* Open directory `name` below parentfd (a directory the caller opened
 * without following links; parent_path for messages) the same way: made
 * when missing, never a link, locked.  Same returns. */
int outdir_open_at(struct outdir *o, int parentfd, const char *parent_path,
		   const char *name, const char *cmd, struct errlist *errs);

/* Open child directory `name` of parent the same way (made when missing,
 * never a link), sharing the parent's lock.  Same returns. */
int outdir_open_child(struct outdir *o, struct outdir *parent, const char *name,
		      struct errlist *errs);

/* Write file `name` atomically through fsutil_write_atomic_at() (a unique
 * O_EXCL|O_NOFOLLOW temp file, 0666 less the umask, fsync, rename into
 * place) and record the name. */
int outdir_write(struct outdir *o, const char *name, const void *data,
		 size_t len, struct errlist *errs);

/* Record `name` as written by something else on iomatrix's behalf (the
 * charts gnuplot draws) and remove a link, FIFO or device that holds that
 * name now (or the file an earlier run listed, unchanged), so that the
 * writer creates a fresh file instead of following a planted link. */
void outdir_claim(struct outdir *o, const char *name);

/*
 * Finish: remove the files the previous run listed that this run did not
 * write (stale charts), and write the new list.  Call after everything
 * else is written, so that an interrupted report never points at deleted
 * files.
 */
int outdir_finish(struct outdir *o, struct errlist *errs);

void outdir_close(struct outdir *o);

/*
 * Remove what an earlier run wrote in directory `name` below parentfd
 * (never a link: a link or a non-directory there is left alone): every
 * listed file that still has its listed hash, then the list, then the
 * directory when nothing else is left in it.  Files iomatrix did not
 * write, or that were changed since, stay.  Returns how many files were
 * removed.
 */
int outdir_remove(int parentfd, const char *name);

#endif
