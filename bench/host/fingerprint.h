/*
 * fingerprint.h - what a result set records about where it was measured:
 * the host (kernel, OS, CPU, memory, governor, virtualization), the tool
 * (version, commit, compiler, libraries) and each device (resolved block
 * device, model, firmware, hashed serial, geometry, scheduler, cache,
 * filesystem).  Read from procfs/sysfs only; nothing here needs root.
 *
 * Every fingerprint_*() returns a new cJSON object owned by the caller; a
 * value that cannot be found is JSON null rather than an error.
 */
#ifndef IOMATRIX_FINGERPRINT_H
#define IOMATRIX_FINGERPRINT_H

#include <stdbool.h>
#include <stddef.h>
#include <sys/types.h>

#include <cjson/cJSON.h>

cJSON *fingerprint_host(void);
/* The tool object of this binary (version, commit and compiler from
 * version.c). */
cJSON *fingerprint_tool(void);
/* Same with the build identity given (NULL: "unknown"); for tests. */
cJSON *fingerprint_tool_build(const char *version, const char *git_commit,
			      const char *compiler);
/* path: a directory, a file (need not exist yet: its directory is used) or
 * a block device.  Keys are documented in results/README.md. */
cJSON *fingerprint_device(const char *path);

/* A block device as sysfs names it. */
struct blkdev {
	dev_t dev;
	char name[64];        /* "sda1", "nvme0n1", "loop3" */
	char disk[64];        /* the whole disk: "sda" for "sda1" */
	bool partition;
	char sysdir[512];     /* /sys/devices/.../block/sda/sda1 (resolved) */
};

/* Resolve a device number through /sys/dev/block/MAJ:MIN.  0 or -errno
 * (-ENOENT: not a block device known to sysfs, e.g. tmpfs or overlay). */
int blkdev_resolve(dev_t dev, struct blkdev *out);

/* Read a one-line sysfs/procfs file into buf without the newline.  0 or
 * -errno. */
int sysfs_read(const char *path, char *buf, size_t len);

#endif
