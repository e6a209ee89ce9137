/*
 * fio_infer.h - what a fio job did when its options do not say: fio's JSON
 * holds only the options given (fio 2.2.10 run from a job file can hold
 * none), so a job without "rw" would import as fio's default, a sequential
 * read, of 0 IOPS.  The direction is read from the sections that did IO.
 */
#ifndef IOMATRIX_FIO_INFER_H
#define IOMATRIX_FIO_INFER_H

#include <stddef.h>

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

#endif
