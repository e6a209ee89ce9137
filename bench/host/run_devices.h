/*
 * run_devices.h - what `iomatrix run` says about its devices before the
 * first cell: the block device and filesystem each path resolves to, the
 * paths it is about to create, and devices that are one and the same
 * device.
 */
#ifndef IOMATRIX_RUN_DEVICES_H
#define IOMATRIX_RUN_DEVICES_H

#include <stdbool.h>
#include <stdio.h>

#include <cjson/cJSON.h>

/* What the cells of one device make of it (run.c fills one per device of
 * the manifest, in its order). */
struct run_target {
	const char *model;   /* a model device: its keys (suite/workload.h
			      * workload_model_target), else NULL */
	bool no_io;          /* every cell's engine does no IO (null, model):
			      * nothing is created at the path */
};

/*
 * Print one line per device of a manifest's "devices" array (name, path,
 * block device, filesystem, "will be created" for a path that does not
 * exist yet and will take IO; a model device by its keys), a warning for
 * every RAM-backed device (util/ramkind.h), then a warning for every
 * group of devices that are one device (host/devident.h: one disk, or
 * model devices with one set of keys; printed even when quiet).
 * targets: one per device, or NULL (all storage).  Returns the number of
 * such groups.
 */
int run_devices_describe(const cJSON *devices, const struct run_target *targets,
			 bool quiet, FILE *out);

#endif
