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
 *   -EINTR   unpack: stopped by a signal, nothing left (exit 130)
 *   other    the system failed (IO, memory; exit 1)
 */
#ifndef IOMATRIX_RESULTSET_PACK_H
#define IOMATRIX_RESULTSET_PACK_H

#include <signal.h>
#include <stdbool.h>
#include <stddef.h>

#include "resultset/sums.h"

/* What unpack accepts at most (and pack refuses to exceed): members
 * (files and directories), bytes of all files together (as declared,
 * checked before anything is written, and as read), bytes of one file,
 * and path length of a member.  A set of a few thousand cells is far
 * below each. */
#define PACK_MAX_MEMBERS 50000
#define PACK_MAX_TOTAL_BYTES (1ull << 30)     /* 1 GiB */
#define PACK_MAX_FILE_BYTES (64ull << 20)     /* 64 MiB, rset's read bound */
#define PACK_MAX_PATH 1024
/* Components of a member's path: the set's directory, the directories a
 * set may nest (sums.h walks no deeper) and the file.  Deeper is refused
 * by unpack (and cannot be packed: verify calls such a set FAILED). */
#define PACK_MAX_DEPTH (SUMS_MAX_DEPTH + 2)
/* Every byte the decompressor yields is counted (unpack.c): the tar
 * stream may hold each member's data rounded up to 512 bytes, this much
 * for each member's header (a ustar header is 512; a long name's pax or
 * GNU header takes the rest), and PACK_STREAM_SLACK besides (the end
 * blocks and one read ahead).  More is data no header declared (a GNU
 * dumpdir, a skipped member): refused as soon as it is read. */
#define PACK_HEADER_ALLOWANCE 2048
#define PACK_STREAM_SLACK (256u << 10)

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
 * checked before its data is read (regular files and directories only,
 * no directory with data (GNU dumpdir) or sparse file; no link, device,
 * FIFO, absolute path, "..", duplicate, or name outside [A-Za-z0-9._+-];
 * within the PACK_MAX_* caps; one top directory, the set, whose name is a
 * set's name (packname_set_ok)), every decompressed byte counted (above),
 * written below a
 * temporary directory FSUTIL_TMP_PREFIX "unpack.PID.N" in dest_root (PID
 * this process, which holds flock() on it: an unpack removes, first,
 * every such directory in dest_root whose PID no longer runs and whose
 * lock nobody holds, the leftovers of a SIGKILLed or crashed unpack; list, history and site skip hidden names, and
 * rset_load() refuses a temporary directory as a set), then the set's
 * SHA256SUMS (sums.h) must be intact, or absent (*warn set true: a set
 * packed before checksums), and only then is it renamed to
 * dest_root/SETNAME, never over an existing entry (-EEXIST).  On failure
 * nothing is left behind: not the temporary tree, at any depth, nor a
 * directory of dest_root this call made.  set_dir gets "dest_root/SETNAME".
 * When *stop becomes non-zero (a signal handler sets it; stop may be NULL)
 * it gives up within one read of the pack: -EINTR, nothing left.
 *
 * This is the one entry `reproduce FILE` uses: after it returns 0, set_dir
 * is an ordinary, verified set.
 */
int resultset_unpack(const char *file, const char *dest_root, char *set_dir,
		     size_t set_dir_len, bool *warn, const volatile sig_atomic_t *stop,
		     char *err, size_t errlen);

/* The same from memory (the fuzz target): data of len bytes. */
int resultset_unpack_mem(const void *data, size_t len, const char *dest_root,
			 char *set_dir, size_t set_dir_len, bool *warn,
			 char *err, size_t errlen);

#endif
