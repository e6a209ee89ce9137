/*
 * import_fio2.h - fio 2.x JSON brought to fio 3.x's shape before the fio
 * importer (import_fio.c) reads it, so that one reader serves both.
 *
 * What differs (fio 2.x stat.c, add_ddir_status_json): latencies are in
 * microseconds under "slat"/"clat"/"lat" (3.x: nanoseconds under
 * "slat_ns"/"clat_ns"/"lat_ns", each with a sample count "N"); "io_bytes"
 * is in KiB (later 2.x: "io_kbytes"; 3.x: bytes); "bw" is KiB/s (3.x adds
 * "bw_bytes"); "total_ios" is missing before 2.2; and the percentile
 * object pads its list to 20 entries with the key "0.00" repeated.
 */
#ifndef IOMATRIX_IMPORT_FIO2_H
#define IOMATRIX_IMPORT_FIO2_H

#include <stdbool.h>

#include <cjson/cJSON.h>

/* Is "fio version" v a fio 2.x ("fio-2.")? */
bool import_fio2_version(const char *v);

/* Rewrite every job of doc in place to fio 3.x's keys and units: µs ->
 * ns (rounded to 0.001 ns, so the 2 decimals fio printed come out exact),
 * KiB -> bytes, KiB/s -> bytes/s, N from total_ios, "0.00" padding
 * dropped.  Values that are not numbers are left for the reader to
 * refuse.  0, or -1 when out of memory. */
int import_fio2_normalize(cJSON *doc);

/* The units converted, as the cell's source records them ("units_converted"):
 * a new object the caller owns, NULL when out of memory. */
cJSON *import_fio2_units_json(void);

#endif
