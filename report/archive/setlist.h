/*
 * setlist.h - the result sets of a directory, one entry each, newest
 * first: what `iomatrix list` shows (setlist.c).  Strings are owned by the
 * entries, terminal-safe (control characters are '?'); release with
 * setlist_release().
 */
#ifndef IOMATRIX_SETLIST_H
#define IOMATRIX_SETLIST_H

#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>

#include "setlist_entry.h"


struct archdb;

struct setlist {
	struct setlist_entry *e;
	size_t n, alloc;
	bool all;          /* --all: the repository's own sets too */
	size_t hidden;     /* sets under examples/ and reference/ left out */
	struct archdb *db; /* while scanning: the archive's index, or NULL */
};

/* The sets under dir (resultset_walk), sorted newest first; with
 * use_index, each set unchanged since the archive's index read it from
 * there (archdb.h).  0, or -errno when dir cannot be read. */
int setlist_scan(struct setlist *l, const char *dir, bool use_index);

/* The aligned table (or "no result sets in DIR"), the sets failing
 * verification, the hidden count. */
void setlist_write_text(const struct setlist *l, const char *dir, FILE *f);
/* A JSON array, one object per set: each set in brief
 * (render/render.h, set_summary_json). */
void setlist_write_json(const struct setlist *l, FILE *f);
void setlist_release(struct setlist *l);

#endif
