/*
 * purge.h - the SNIA PTS purge before testing, for us: discard the whole
 * block device (BLKDISCARD), so that the SSD's mapping tables start empty.
 * Block devices only, and only under the double opt-in (the suite's
 * `destructive: true` on the device and --yes-destroy-data).
 */
#ifndef IOMATRIX_PURGE_H
#define IOMATRIX_PURGE_H

#include <signal.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

/* Discard in chunks so that SIGINT is seen within about a second even on a
 * large device whose firmware discards slowly. */
#define PURGE_CHUNK (1ull << 30)

/*
 * Discard all of block device `path` (device `name` in the suite).  Refuses
 * (-EPERM) unless the path is a block device, `destructive` and
 * `yes_destroy_data` are both true and safety_check_device() allows writes;
 * -EOPNOTSUPP when the device cannot discard; -EINTR when *stop became
 * non-zero between chunks.  Returns 0 or -errno with err filled in;
 * *bytes gets what was discarded.
 */
int purge_discard(const char *name, const char *path, bool destructive,
		  bool yes_destroy_data, volatile sig_atomic_t *stop,
		  uint64_t *bytes, char *err, size_t errlen);

#endif
