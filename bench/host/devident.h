/*
 * devident.h - the device identity (DESIGN.md "one device identity"): the
 * one answer to "are these two targets one device?".  run (its warning
 * before the first cell), the report (its alert and the summary that then
 * names no device faster) and history (a device's series) ask it here.
 *
 * A storage target is the disk its IO reaches on its machine (fpkeys.h
 * fp_disk_same: one block device, or one disk under a loop device's
 * backing file).  A model device (engine: model) is no disk: it is what
 * its keys make it, whatever disk holds the working directory, so two
 * model devices are one device exactly when their keys are one text, and
 * a model device is never a storage target.  A target whose fingerprint
 * is unknown (an import) is one device with nothing.
 */
#ifndef IOMATRIX_DEVIDENT_H
#define IOMATRIX_DEVIDENT_H

#include <stdbool.h>

#include "fpkeys.h"

struct dev_ident {
	const char *host;       /* the machine the IO ran on (a fleet cell:
				 * its host), NULL when unknown */
	struct fp_disk disk;    /* from the device fingerprint; all NULL
				 * when unknown */
	const char *model;      /* a model device: its keys as one text
				 * (suite/workload.h
				 * workload_model_device), else NULL */
};

/* True when a and b are one device.  *what (may be NULL) gets what to
 * call it: the disk ("/dev/vda"), or "model device" for two model devices
 * with the same keys; a string inside a or b, or static. */
bool devident_same(const struct dev_ident *a, const struct dev_ident *b,
		   const char **what);

#endif
