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

struct setlist_entry {
	char *date, *suite, *host, *devices, *scale, *cells, *status, *path; /* owned */
	double scale_v;       /* 1: full size; else a --scale rehearsal */
	int done, total, failed;
	char *source;         /* owned: "iomatrix", "fio", ... */
	int verify;           /* enum sums_state; -1 not checked (running, corrupt) */
	char *unverified;     /* owned: what fails verification, or NULL */
};

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
/* One set's entry from its files (setlist_entry.c): 0 (a set whose
 * manifest cannot be read is an entry saying so); release it. */
int setlist_entry_read(const char *path, struct setlist_entry *e);
/* The same, the set's SHA256SUMS check already done (verify: its enum
 * sums_state, why: what fails) by the caller. */
int setlist_entry_read_known(const char *path, int verify, const char *why,
			     struct setlist_entry *e);
void setlist_entry_release(struct setlist_entry *e);
/* The aligned table (or "no result sets in DIR"), the sets failing
 * verification, the hidden count. */
void setlist_write_text(const struct setlist *l, const char *dir, FILE *f);
/* A JSON array, one object per set. */
void setlist_write_json(const struct setlist *l, FILE *f);
void setlist_release(struct setlist *l);

#endif
