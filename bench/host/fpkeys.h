/*
 * fpkeys.h - the one list of the keys of a host and a device fingerprint
 * (results/README.md documents each).  fingerprint.c writes them, the
 * importers write them all null (the measuring machine is unknown), and the
 * report's Environment section shows the ones with a label, in this order.
 * A new fingerprint key is one row here plus the code that reads it.
 */
#ifndef IOMATRIX_FPKEYS_H
#define IOMATRIX_FPKEYS_H

#include <stdbool.h>

#include <cjson/cJSON.h>

struct fp_key {
	const char *name;     /* the JSON key */
	const char *label;    /* the report's row name; NULL: not shown */
	bool optional;        /* written only where it applies (stacked_on,
			       * loop_backing_file ...); else always present,
			       * null when unknown */
};

/* Both tables end with a row whose name is NULL. */
extern const struct fp_key fp_host_keys[];
extern const struct fp_key fp_device_keys[];

/* Add a JSON null for every non-optional key of keys that o lacks, so that
 * every fingerprint has every key whatever path wrote it.  o stays the
 * caller's; NULL o is a no-op. */
void fp_fill_nulls(cJSON *o, const struct fp_key *keys);

/* A host fingerprint with every key null but hostname, which is name when
 * it is given and not empty: a machine that another tool ran on.  New
 * object owned by the caller; NULL when out of memory. */
cJSON *fp_host_unknown(const char *name);

/* A device fingerprint with every key null.  New object owned by the
 * caller; NULL when out of memory. */
cJSON *fp_device_unknown(void);

/* The members of a device fingerprint that say which disk it measures,
 * each NULL or non-empty. */
struct fp_disk {
	const char *block_device, *disk, *loop_backing_disk;
};
/* Those of fingerprint fp (strings inside fp; NULL fp: all NULL). */
void fp_disk_of(const cJSON *fp, struct fp_disk *out);
/*
 * True when a and b measure the same disk: the same block device, or,
 * where either is a loop device, the same whole disk under its backing
 * file (a loop over a file on /dev/vda1 and a directory on /dev/vda2 both
 * measure vda).  *what (may be NULL) gets the device or disk to name, a
 * string inside a or b.  Whether two targets are one device is
 * devident.h's, which asks this of storage.
 */
bool fp_disk_same(const struct fp_disk *a, const struct fp_disk *b, const char **what);

#endif
