/*
 * setlist_entry.h - what `iomatrix list` shows of one result set
 * (setlist_entry.c: from its manifest and cells/), which the archive's
 * index also stores (archdb_write.c) and gives back (archdb_read.c).
 * Strings are owned by the entry, terminal-safe (control characters
 * escaped); release with setlist_entry_release().
 */
#ifndef IOMATRIX_SETLIST_ENTRY_H
#define IOMATRIX_SETLIST_ENTRY_H

struct setlist_entry {
	char *date, *suite, *host, *devices, *scale, *cells, *status, *path; /* owned */
	double scale_v;       /* 1: full size; else a --scale rehearsal */
	int done, total, failed;
	char *source;         /* owned: "iomatrix", "fio", ... */
	int verify;           /* enum sums_state; -1 not checked (running, corrupt) */
	char *unverified;     /* owned: what fails verification, or NULL */
	struct cJSON *json;   /* owned: the set in brief (render.h
			       * set_summary_json), what --format json gives */
};

/* One set's entry from its files (setlist_entry.c): 0 (a set whose
 * manifest cannot be read is an entry saying so); release it. */
int setlist_entry_read(const char *path, struct setlist_entry *e);
/* The same, the set's SHA256SUMS check already done (verify: its enum
 * sums_state, why: what fails) by the caller. */
int setlist_entry_read_known(const char *path, int verify, const char *why,
			     struct setlist_entry *e);
void setlist_entry_release(struct setlist_entry *e);

#endif
