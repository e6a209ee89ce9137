/*
 * fio_infer.h - what a fio job did when its options do not say: fio's JSON
 * holds only the options given (fio 2.2.10 run from a job file can hold
 * none), so a job without "rw" would import as fio's default, a sequential
 * read, of 0 IOPS.  The direction is read from the sections that did IO.
 */
#ifndef IOMATRIX_FIO_INFER_H
#define IOMATRIX_FIO_INFER_H

#include <stddef.h>
#include <stdint.h>

#include <cjson/cJSON.h>

#include "suite/cell.h"

enum { FIO_DID_READ = 1, FIO_DID_WRITE = 2, FIO_DID_TRIM = 4 };

/* The IOs of fio's "read", "write" and "trim" sections summed over a job's
 * entries (total_ios, else io_bytes when an entry has no count), and the
 * FIO_DID_* bits of those above zero. */
struct fio_done {
	double ios[3];
	unsigned mask;
};
void fio_done_of(const cJSON *const *entries, size_t n, struct fio_done *f);

/*
 * The pattern of a job that names no rw, from what it did: reads only a
 * read, writes only a write, both a mix whose rwmixread is the read share
 * of the IOs.  Sequential or random is not in the data: fio's default
 * (sequential) is what the caller says it assumed.  0 with *p and
 * *rwmixread set; -1 when the job did no reads or writes (nothing, or only
 * trims, which have no iomatrix pattern).
 */
int fio_infer_pattern(const struct fio_done *f, enum pattern *p,
		      unsigned *rwmixread);

/*
 * The queue depth of a job whose options do not name iodepth, from fio's
 * "iodepth_level" (the share of IOs issued at each bucket of depths: 1, 2,
 * 4 ... 32, >=64): the least depth of the bucket that holds at least
 * FIO_DEPTH_SHARE_MIN % of them.  0 with *depth and why ("64 or more,
 * from fio's iodepth_level (100.0 % of IOs ...)"); -1 with why saying it
 * is not recorded.  A bucket is a range: the depth is its floor, and why
 * says the range, which the report shows as inferred.
 */
#define FIO_DEPTH_SHARE_MIN 90.0
int fio_infer_depth(const cJSON *job, unsigned *depth, char *why, size_t len);

/* The block size of a job whose options do not name bs: the bytes per IO
 * of a direction that did IO, when that is a whole multiple of 512 (one
 * block size; a bssplit would leave a fraction).  0 with *bs, else -1. */
int fio_infer_bs(uint64_t bytes, uint64_t ios, uint64_t *bs);

#endif
