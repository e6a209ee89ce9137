/*
 * safety.h - refuse what could destroy data or waste a long run: writes to a
 * block device without both `destructive: true` and --yes-destroy-data, a
 * block device that is mounted, used as swap or held by another device
 * (LVM, md, dm-crypt), a target on a kernel pseudo filesystem or a special
 * file, writes to an existing file iomatrix did not make without the same
 * double opt-in, and a results directory that is read-only or full.
 *
 * All checks happen before any IO.  They return 0 when allowed, or -1 with
 * the reason in err (lower-case, the device quoted, says the fix).
 */
#ifndef IOMATRIX_SAFETY_H
#define IOMATRIX_SAFETY_H

#include <stdbool.h>
#include <stddef.h>

/* Minimum free space in the results directory before a run starts. */
#define SAFETY_RESULTS_MIN_FREE (1024 * 1024)

/*
 * Check device `name` at `path`.  Paths that are not block devices pass.
 * A block device is refused when mounted (itself or one of its partitions),
 * used as swap, or held by another device (a member of an active LVM, md
 * or dm-crypt stack) or claimed in the kernel's view (an exclusive open
 * fails: mounted in another mount namespace), whatever the opt-ins say; when `writes` is true it
 * also needs `destructive` (from the suite) and `yes_destroy_data` (the
 * flag), and the refusal names what the device holds (libblkid).
 */
int safety_check_device(const char *name, const char *path, bool writes,
			bool destructive, bool yes_destroy_data, char *err,
			size_t errlen);

/* Room for safety_describe_device()'s text. */
#define SAFETY_HOLDS_MAX 4096

/*
 * "/dev/loop0 holds ext4 'precious' (UUID ...)", then what each of its
 * partitions holds (libblkid, signature.h), into out.  Printed by `run`
 * before the first write and part of every refusal to write.  -1 when
 * `path` is not a block device.
 */
int safety_describe_device(const char *path, char *out, size_t len);

/*
 * Check that a result set can be written under `dir` (which need not exist
 * yet: its nearest existing parent is checked): writable, not on a
 * read-only filesystem, at least SAFETY_RESULTS_MIN_FREE bytes free.
 */
int safety_check_results_dir(const char *dir, char *err, size_t errlen);

/*
 * The name of the pseudo filesystem (procfs, sysfs, devpts, debugfs,
 * cgroup ...) that holds `path` (its directory when it does not exist
 * yet), or NULL for a filesystem that stores data.  Benchmark IO on a
 * pseudo filesystem writes kernel knobs, not storage.
 */
const char *safety_pseudo_fs(const char *path);

/*
 * Check device `name` at `path` when it is not a block device: refused on a
 * pseudo filesystem, refused when a character device or other special file
 * unless `io` is false (every cell uses the null engine), and an existing
 * regular file that iomatrix did not make (no scratch marker) may only be
 * written with both `destructive` and `yes_destroy_data`.
 */
int safety_check_target(const char *name, const char *path, bool writes,
			bool io, bool destructive, bool yes_destroy_data,
			char *err, size_t errlen);

#endif
