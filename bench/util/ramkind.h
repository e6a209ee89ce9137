/*
 * ramkind.h - the one list of RAM-backed storage: block devices whose
 * "disk" is memory (zram, brd's ram0.., emulated pmem) and filesystems that
 * live in memory (tmpfs, ramfs, devtmpfs).  The fingerprint names a device's
 * kind from it, `run` warns before the first cell and the report warns and
 * marks the device table, so a mistyped path that lands in RAM is never
 * published as a disk.  Add a kind here and every user sees it.
 */
#ifndef IOMATRIX_RAMKIND_H
#define IOMATRIX_RAMKIND_H

#include <stdbool.h>

/* Is `kind` (a fingerprint's "virtual_kind": "zram", "ram", "brd",
 * "pmem", "tmpfs", "ramfs", "devtmpfs") RAM-backed?  NULL: no. */
bool ram_kind_is(const char *kind);

/* The RAM kind of a whole disk named as sysfs names it ("zram0" -> "zram",
 * "ram3" -> "ram", "pmem0" -> "pmem"), or NULL.  Static string. */
const char *ram_kind_of_disk(const char *disk);

/* The RAM kind of a filesystem type from mountinfo ("tmpfs", "ramfs",
 * "devtmpfs"), or NULL.  Static string. */
const char *ram_kind_of_fs(const char *fstype);

/* The end of every RAM warning, run's and the report's alike. */
#define RAM_KIND_WHY "it measures memory and, for zram, compression on the CPU"

#endif
