/*
 * dir.h - the one direction enum of iomatrix (reads, writes), and the
 * one latency-kind enum, shared by the runner, the importers, the
 * result-set reader and the report.
 */
#ifndef IOMATRIX_DIR_H
#define IOMATRIX_DIR_H

enum dir { DIR_READ = 0, DIR_WRITE = 1, DIR__COUNT = 2 };

/* "read" / "write": the JSON key of a direction in cell files. */
const char *dir_name(int d);

/*
 * Which latency a cell's `lat_ns` objects hold (results/README.md,
 * "latency_kind"): total runs from submission to completion (fio's lat,
 * what the runner measures); completion from when the kernel took the IO
 * to its completion, the submission excluded (fio's clat); response from
 * each IO's intended start in a rate schedule to its completion (a cell
 * run at a rate: rate_iops, a load point), queueing behind a device that
 * fell behind included.
 */
enum lat_kind {
	LAT_TOTAL = 0,
	LAT_COMPLETION,
	LAT_RESPONSE,
	LAT__COUNT,
};
/* "total" / "completion" / "response" */
const char *lat_kind_name(enum lat_kind k);

#endif
