/*
 * signature.h - what a block device holds, as libblkid reads it: filesystem
 * type, label and UUID, partition table, LVM / RAID / crypt membership.
 * The guard names it in its refusal and `run` in the line before the first
 * write, so "destroys its data" says whose data.  Superblocks are never
 * parsed by hand here: libblkid knows every format util-linux knows.
 */
#ifndef IOMATRIX_SIGNATURE_H
#define IOMATRIX_SIGNATURE_H

#include <stddef.h>

/*
 * Describe the signatures on block device `path` into buf, e.g.
 * "ext4 'precious' (UUID 6f1c...)" or "a gpt partition table; LVM2_member
 * (LVM physical volume, UUID ...)", several joined by "; ".  Strings read
 * from the device are made printable.  Returns how many were found (0:
 * buf says "no filesystem, partition table, RAID, LVM or crypt signature
 * that libblkid knows"), or -errno when the device cannot be read (buf
 * then says why).  Opens the device read-only; never writes.
 */
int signature_describe(const char *path, char *buf, size_t len);

#endif
