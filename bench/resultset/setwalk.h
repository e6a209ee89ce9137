/*
 * setwalk.h - what a result set directory is, and the one walker of a
 * directory that holds sets (the archive: results/, a site's or history's
 * DIR...).  `list`, `history` and `site` find the same sets through it.
 */
#ifndef IOMATRIX_SETWALK_H
#define IOMATRIX_SETWALK_H

#include <stdbool.h>
#include <sys/types.h>

/* Is dir a result set: its manifest.json a regular file, or (a set killed
 * before it wrote its manifest) a cells/ directory?  Neither is followed
 * through a link. */
bool resultset_is_set(const char *dir);
/* The same rule from what a reader already stat'ed without following
 * links: the modes of the directory's manifest.json and of its cells
 * (0: absent, or not looked at). */
bool resultset_is_set_modes(mode_t manifest, mode_t cells);

/*
 * Call fn for each set in root and, depth levels further down, in the
 * directories that are no set (a set's own subdirectories are never
 * entered), in readdir order.  Hidden names are skipped (temporary
 * directories .iomatrix-tmp.*, .git), and so are links and anything not a
 * directory.  fn gets the set's path and its path relative to root
 * ("2026-..._x_host", "examples/2026-..."); a negative return stops the
 * walk and is returned.  0, or -errno when root cannot be read
 * (subdirectories that cannot be read are skipped).
 */
int resultset_walk(const char *root, int depth,
		   int (*fn)(const char *set, const char *rel, void *arg), void *arg);

/* Call fn for each directory directly in root that the walk would look
 * at (hidden names, links and anything not a directory skipped, and one
 * whose manifest path would not fit PATH_MAX), set or not, in readdir
 * order: for a caller that learns whether each is a set from stats of
 * its own.  fn's return as resultset_walk's.  0, or -errno when root
 * cannot be read. */
int resultset_walk_dirs(const char *root, int (*fn)(const char *dir, const char *rel, void *arg),
			void *arg);

/* Which sets an archive counts, the one rule of list, history and site
 * (docs/reports.md): a set found under examples/ or reference/ of the
 * directory walked (rel as resultset_walk gives it) is the repository's
 * own example or reference, not the user's archive, and is left out
 * unless --all is given; a directory named on the command line itself
 * (history results/reference) counts. */
bool resultset_repo_own(const char *rel);

#endif
