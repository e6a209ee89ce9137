/*
 * pack.h - a result set as one file and back (`iomatrix pack`, `unpack`,
 * and `reproduce` of a received FILE): a tar archive compressed with gzip
 * (or zstd when this libarchive has it), written and read with libarchive.
 *
 * A pack holds one set under one top directory named as the set
 * ("2026-11-30T024012Z_quick_host/manifest.json", ...), its files in byte
 * order of their paths, each a regular file with mtime 0, owner 0:0, mode
 * 0644; with the report, SET/report/... too.  The same set gives the same
 * bytes (no gzip timestamp or name), so a pack's sha256 names a set.
 *
 * Functions return 0, or -errno with a message in err:
 *   -EINVAL  bad input: not a set, a hostile or corrupt pack, checksums that
 *            fail, a cap exceeded (exit 2)
 *   -EEXIST  unpack: a set of that name exists already (exit 2)
 *   other    the system failed (IO, memory; exit 1)
 */
#ifndef IOMATRIX_RESULTSET_PACK_H
#define IOMATRIX_RESULTSET_PACK_H

#include <stdbool.h>
#include <stddef.h>

/* What unpack accepts at most (and pack refuses to exceed): members
 * (files and directories), bytes of all files together (as declared,
 * checked before anything is written, and as read), bytes of one file,
 * and path length of a member.  A set of a few thousand cells is far
 * below each. */
#define PACK_MAX_MEMBERS 50000
#define PACK_MAX_TOTAL_BYTES (1ull << 30)     /* 1 GiB */
#define PACK_MAX_FILE_BYTES (64ull << 20)     /* 64 MiB, rset's read bound */
#define PACK_MAX_PATH 1024

/* Compression by the name of the output: ".tar.gz"/".tgz" gzip,
 * ".tar.zst"/".tzst" zstd. */
bool pack_zstd_available(void);

/*
 * Write set directory setdir as one pack at out (atomically: a temp file
 * beside it, renamed).  The set must verify (intact, or "no checksums":
 * then *warn is set true); with with_report its report/ goes in too.
 * out's name chooses the compression (see above; another name is -EINVAL).
 */
int resultset_pack(const char *setdir, const char *out, bool with_report,
		   bool *warn, char *err, size_t errlen);

/*
 * Unpack `file` into directory dest_root (made if missing): every member is
 * checked (regular files and directories only; no link, device, FIFO,
 * absolute path, "..", duplicate, or name outside [A-Za-z0-9._+-]; within
 * the PACK_MAX_* caps; one top directory, the set), written below a
 * temporary directory FSUTIL_TMP_PREFIX "unpack.PID.N" in dest_root (PID
 * this process, which holds flock() on it: an unpack removes, first,
 * every such directory in dest_root whose PID no longer runs and whose
 * lock nobody holds, the leftovers of a SIGKILLed or crashed unpack; list, history and site skip hidden names, and
 * rset_load() refuses a temporary directory as a set), then the set's
 * SHA256SUMS (sums.h) must be intact, or absent (*warn set true: a set
 * packed before checksums), and only then is it renamed to
 * dest_root/SETNAME, never over an existing entry (-EEXIST).  On failure
 * nothing is left behind.  set_dir gets "dest_root/SETNAME".
 *
 * This is the one entry `reproduce FILE` uses: after it returns 0, set_dir
 * is an ordinary, verified set.
 */
int resultset_unpack(const char *file, const char *dest_root, char *set_dir,
		     size_t set_dir_len, bool *warn, char *err, size_t errlen);

/* The same from memory (the fuzz target): data of len bytes. */
int resultset_unpack_mem(const void *data, size_t len, const char *dest_root,
			 char *set_dir, size_t set_dir_len, bool *warn,
			 char *err, size_t errlen);

#endif
