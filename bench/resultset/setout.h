/*
 * setout.h - the one rule of where a command may write: never inside a
 * result set.  A set holds what its run wrote and SHA256SUMS lists it; a
 * report, a pack, an unpacked set or a new set written below it would be
 * an extra file, and the set would then fail `verify`.  Every command
 * that writes (run --out and its default results directory, reproduce
 * --out, import -o, unpack -o, pack -o, report -o, compare -o, site -o,
 * export -o, index) asks resultset_output_check() before it writes
 * anything.
 */
#ifndef IOMATRIX_SETOUT_H
#define IOMATRIX_SETOUT_H

#include <stddef.h>

/*
 * May a command write at path (a file or a directory, existing or not)?
 * Walks up from path, or from its nearest existing directory when path
 * does not exist yet, by "..", the way the kernel does (a link or a ".."
 * in the spelling changes nothing: each step is the directory's own
 * device and inode), and at each level asks whether the directory is a
 * result set: a regular manifest.json, and a cells/ directory or a
 * SHA256SUMS beside it (none followed through a link).
 *
 * derived: NULL, or the derived directory (sums.h: "report", "compare")
 * the command writes itself: the output may then be exactly SET/derived,
 * which verify checks apart from the measurement; anything else inside a
 * set, SET/derived/x included, is refused.
 *
 * 0 when path is inside no set; -EINVAL with err ("'SET/inner' is inside
 * the set 'SET', a result set, ...", names as text, termesc.h) when it is.  A
 * directory that cannot be read on the way up ends the walk (0): the
 * write itself then fails on its own terms.
 */
int resultset_output_check(const char *path, const char *derived, char *err,
			   size_t errlen);

#endif
