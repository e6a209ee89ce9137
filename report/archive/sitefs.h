/*
 * sitefs.h - the files of a static site (`iomatrix site`), all reached
 * from one descriptor of SITE/: every directory below it is opened one
 * component at a time without following a link (a link planted inside the
 * site is refused, exit 2, before anything is written), and every file the
 * site writes is recorded with its sha256 in the site's manifest.  A file
 * is removed only when it is recorded, was neither written again nor kept
 * by this run, and still has its recorded hash: a user's my-notes.txt, a
 * page they edited, or a name a tampered manifest lists are left alone.
 *
 * Functions taking errs return 0 / a descriptor, or -1 with a message
 * there.  Ownership: struct sitefs owns its descriptor and lists;
 * sitefs_close().  Names ("rel") are relative to SITE/, '/'-separated.
 */
#ifndef IOMATRIX_SITEFS_H
#define IOMATRIX_SITEFS_H

#include <stdbool.h>
#include <stddef.h>

#include "util/errlist.h"

struct site_manifest_map;

struct sitefs_file {
	char *rel;
	char hex[65];
	bool seen;           /* old: written again or kept by this run */
	size_t order;        /* now: the n-th write (the last one wins) */
};

struct sitefs {
	int root;            /* SITE/, -1 when closed */
	char *path;          /* SITE as named, for messages */
	struct sitefs_file *old;     /* the previous manifest's, sorted */
	size_t nold;
	struct sitefs_file *now;     /* written by this run */
	size_t nnow, alloc;
	bool refused;        /* a link or a non-directory was met: exit 2 */
};

/*
 * Open SITE (made with its parents; links in the path the user gave are
 * theirs), make .cache, devices, suites and sets below it, and look
 * for links where the site keeps directories or gnuplot writes (the top
 * folders, sets/ and devices/ and their folders' entries, .cache/): any
 * link there is refused before anything is written.  0, -1 bad input (a
 * link, not a directory, not writable: exit 2), -2 runtime error.
 */
int sitefs_open(struct sitefs *f, const char *path, struct errlist *errs);

/* Take the previous manifest's files (site_manifest.h: read whole and
 * checked, names inside the site, sorted; NULL or empty for none: then
 * nothing is ever removed).  Copied. */
void sitefs_load(struct sitefs *f, const struct site_manifest_map *files);

/* Descriptor of directory rel (made when create), no link followed; the
 * caller closes it.  -1 with a message. */
int sitefs_dir(struct sitefs *f, const char *rel, bool create, struct errlist *errs);

/* Write rel atomically (unique O_EXCL|O_NOFOLLOW temp file renamed into
 * place, no fsync: a site is rebuilt, not kept) into its directory (made
 * when missing), and record its hash.  0 or -1. */
int sitefs_put(struct sitefs *f, const char *rel, const void *data, size_t len,
	       struct errlist *errs);

/* Record rel as written by this run with the hash of what is there now
 * (what gnuplot drew).  0, or -1 when it is not a regular file. */
int sitefs_record(struct sitefs *f, const char *rel);

/* Keep rel from the previous run (an unchanged page), or with a trailing
 * '/' every recorded file below that folder. */
void sitefs_keep(struct sitefs *f, const char *rel);

/* Before a program writes rel by name (gnuplot): remove what is there if
 * it is a link (never followed), a FIFO or a device, or a file this
 * program recorded with that hash.  Another regular file stays (and will
 * be overwritten by name). */
void sitefs_claim(struct sitefs *f, const char *rel);

/* Is there an entry at rel (not following links)? */
bool sitefs_exists(struct sitefs *f, const char *rel);

/* Read rel (a regular file, no link followed) whole; caller frees.  NULL
 * with errno set. */
char *sitefs_read(struct sitefs *f, const char *rel, size_t max, size_t *len);

/*
 * Remove every recorded file this run neither wrote nor kept that still
 * has its recorded hash, and devices/<x>/ folders left empty.  Adds the
 * new manifest's files to files, in name order.  0, or -1 out of memory.
 */
int sitefs_finish(struct sitefs *f, struct site_manifest_map *files);

void sitefs_close(struct sitefs *f);

#endif
