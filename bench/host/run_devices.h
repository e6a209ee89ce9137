/*
 * run_devices.h - what `iomatrix run` says about its devices before the
 * first cell: the block device and filesystem each path resolves to, the
 * paths it is about to create, and devices that are one and the same disk.
 */
#ifndef IOMATRIX_RUN_DEVICES_H
#define IOMATRIX_RUN_DEVICES_H

#include <stdbool.h>
#include <stdio.h>

#include <cjson/cJSON.h>

/*
 * Print one line per device of a manifest's "devices" array (name, path,
 * block device, filesystem, "will be created" for a path that does not
 * exist yet), a warning for every RAM-backed device (util/ramkind.h),
 * then a warning for every group of devices that resolve to the
 * same block device (printed even when quiet).  Returns the number of
 * such groups.
 */
int run_devices_describe(const cJSON *devices, bool quiet, FILE *out);

#endif
