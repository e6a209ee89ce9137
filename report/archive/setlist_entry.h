/*
 * setlist_entry.h - what `iomatrix list` shows of one result set
 * (setlist_entry.c: from its manifest and cells/), which the archive's
 * index also stores (archdb_write.c) and gives back (archdb_read.c).
 * Strings are owned by the entry, terminal-safe (control characters
 * escaped); release with setlist_entry_release().
 */
#ifndef IOMATRIX_SETLIST_ENTRY_H
#define IOMATRIX_SETLIST_ENTRY_H

#include "render/render.h"

struct setlist_entry {
	/* the table's columns, terminal-safe */
	char *date, *suite, *host, *devices, *scale, *cells, *status, *path;
	char *unverified;     /* what fails verification, or NULL */
	struct set_brief brief; /* the set in brief, typed: what --format json
				 * gives (set_brief_json) */
};

/* One set's entry from its files (setlist_entry.c): 0 (a set whose
 * manifest cannot be read is an entry saying so), or -1 out of memory;
 * release it either way. */
int setlist_entry_read(const char *path, struct setlist_entry *e);
/* The same, the set's SHA256SUMS check already done (verify: its enum
 * sums_state, why: what fails) by the caller. */
int setlist_entry_read_known(const char *path, int verify, const char *why,
			     struct setlist_entry *e);
void setlist_entry_release(struct setlist_entry *e);

#endif
