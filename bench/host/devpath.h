/*
 * devpath.h - a device path under /dev must name a block device.  /dev is
 * devtmpfs (or, in a container, a tmpfs): memory.  `path: /dev/zram99`
 * with no such device used to validate, lay out a scratch file in /dev and
 * publish RAM speed as a disk, so a path on the filesystem of /dev (or on
 * any devtmpfs) that is not a block device is bad input, caught at
 * validate time (through suite_opts.check_path) and again by the runner
 * before it creates anything.
 */
#ifndef IOMATRIX_DEVPATH_H
#define IOMATRIX_DEVPATH_H

#include <stdbool.h>
#include <stddef.h>

/*
 * 0 when `path` is a block device or is not on the /dev filesystem; -1
 * when it exists there and is not a block device (a character device, a
 * file), with err holding "no block device /dev/null (it is a character
 * device) ..."; DEVPATH_MISSING when nothing is there on this machine, with
 * err holding "no block device /dev/zram99 on this machine; did you mean
 * /dev/zram0? ..." (the nearest block device of the same directory by edit
 * distance, when there is one).  A missing device is the machine's, not the
 * suite's: validate warns (a shipped suite names /dev/nvme0n1), run refuses.
 * Follows links, as the runner does; reads only metadata and
 * /proc/self/mountinfo.
 */
#define DEVPATH_MISSING 1
int devpath_check(const char *path, char *err, size_t errlen);

#endif
