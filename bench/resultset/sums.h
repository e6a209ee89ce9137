/*
 * sums.h - SHA256SUMS of a result set (results/README.md SHA256SUMS): the
 * list that lets anyone check a set with plain `sha256sum -c SHA256SUMS`,
 * and its checker (`iomatrix verify`, unpack, site, history).
 *
 * The list is coreutils' format, one line per file, "HEX  PATH\n", sorted
 * by PATH in byte order, PATH relative to the set ("cells/0001.json").  It
 * covers every regular file below the set except SHA256SUMS itself,
 * iomatrix's temporary files and, in a set, the directories of derived
 * output (sums_derived_dirs: report/ and compare/), each of which has its
 * own list (report/SHA256SUMS written by `report`, compare/SHA256SUMS by
 * `compare`).  So a command that writes a report or a comparison into a
 * finished set never changes what its SHA256SUMS covers: the measurement.
 *
 * Walking never follows a link: a link, FIFO or device below the set is
 * not listed, and the checker names it as an extra file.  Functions
 * return 0 or -errno.
 */
#ifndef IOMATRIX_RESULTSET_SUMS_H
#define IOMATRIX_RESULTSET_SUMS_H

#include <signal.h>
#include <stdbool.h>
#include <stddef.h>

#define SUMS_FILE "SHA256SUMS"
/* The directories of a set that hold derived output, each left to its own
 * list and checked apart from the measurement. */
#define SUMS_REPORT_DIR "report"
#define SUMS_COMPARE_DIR "compare"
#define SUMS_NDERIVED 2
extern const char *const sums_derived_dirs[SUMS_NDERIVED];
/* Deepest directory nesting walked, and most files listed or checked: far
 * above what a set holds (RESULTSET_MAX_ID cells would be slower to check
 * than to re-run; a set of 10^5 cells is already unusual). */
#define SUMS_MAX_DEPTH 8
#define SUMS_MAX_FILES 200000
/* Largest SHA256SUMS read. */
#define SUMS_MAX_LIST_BYTES (32u << 20)

/* Flags of sums_write_at() and sums_verify_at(). */
enum {
	/* The directory is a result set: its derived directories are not covered. */
	SUMS_SET = 1 << 0,
};

/*
 * Write dirfd's SHA256SUMS (atomically, util/fsutil.h) over the files
 * the header describes.  0, or -errno (-E2BIG past SUMS_MAX_FILES).
 */
int sums_write_at(int dirfd, unsigned flags);

/* The relative paths of the files sums_write_at() lists, sorted, into
 * *paths (*n of them; the caller frees each and the array).  With
 * include_sums, SHA256SUMS too when present.  0 or -errno. */
int sums_list_at(int dirfd, unsigned flags, bool include_sums, char ***paths,
		 size_t *n);
void sums_free_list(char **paths, size_t n);

enum sums_state {
	SUMS_INTACT,   /* every listed file present and unchanged, no extra */
	SUMS_NONE,     /* no SHA256SUMS: a set written before checksums */
	SUMS_FAILED,   /* see problems */
};

/* One derived directory of a set, checked against its own list. */
struct sums_derived {
	bool present;           /* the directory exists */
	enum sums_state state;  /* SUMS_NONE: no list of its own (written
				 * before iomatrix kept one) */
	size_t nfiles;
	char **problems;        /* "changed report/report.md" */
	size_t nproblems;
};

/* What a check found.  problems are lines such as "changed cells/0001.json",
 * "missing plan.json", "extra notes.txt", "SHA256SUMS:3: malformed line";
 * owned (sums_check_release).  state, nfiles and problems are the
 * measurement's; derived output is apart in derived[] (SUMS_SET only), in
 * the order of sums_derived_dirs. */
struct sums_check {
	enum sums_state state;
	size_t nfiles;          /* files the list names */
	char **problems;
	size_t nproblems;
	struct sums_derived derived[SUMS_NDERIVED];
	const volatile sig_atomic_t *stop; /* sums_verify_stop_at's, or NULL */
};

/*
 * Check dirfd against its SHA256SUMS.  With SUMS_SET, each derived
 * directory present is checked against its own SHA256SUMS into
 * c->derived[] (its problems read "report/..."), apart from the
 * measurement.  Never follows a link.  0 with *c filled, or -errno when
 * the directory cannot be read (c is then released).
 */
int sums_verify_at(int dirfd, unsigned flags, struct sums_check *c);
/* The same, giving up between two files once *stop is non-zero (a signal
 * handler sets it): -EINTR, c released (unpack: Ctrl-C always works). */
int sums_verify_stop_at(int dirfd, unsigned flags, const volatile sig_atomic_t *stop,
			struct sums_check *c);
void sums_check_release(struct sums_check *c);
/* The measurement or a derived directory FAILED: what a set must not be to
 * travel (pack, unpack) or to pass `verify`. */
bool sums_check_failed(const struct sums_check *c);
/* Problem k of all of c's problems, the measurement's first, then each
 * derived directory's; NULL past the last.  Borrowed from c. */
const char *sums_check_problem(const struct sums_check *c, size_t k);

/*
 * Check the directory dir (a set with SUMS_SET) as sums_verify_at(): the
 * state of its measurement (enum sums_state; derived output does not
 * count: list, history, site and report judge a set by what it measured),
 * with *why (caller frees) the first problems when FAILED ("changed
 * cells/0001.json, missing plan.json and 2 more"), else NULL.  A directory
 * that cannot be read is FAILED ("cannot be read"): a set nobody can check
 * is not intact.  -ENOMEM out of memory.
 */
int sums_verify_dir(const char *dir, unsigned flags, char **why);
/* "intact", "no checksums", "FAILED" */
const char *sums_state_name(enum sums_state s);

#endif
