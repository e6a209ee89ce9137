/*
 * target.h - the file set a cell runs on, as runner_prepare() (runner.h,
 * layout.c) resolves it from the cell's path: what the runner, each job
 * thread (worker.h) and the cell's repetitions (cellreps.h) share.  Types
 * only: the threads that runner.c starts read it without including the
 * runner's own header, which would make a loop of them.
 */
#ifndef IOMATRIX_TARGET_H
#define IOMATRIX_TARGET_H

#include <stdbool.h>
#include <stdint.h>
#include <sys/types.h>

/* Identity of a file of the target, checked at every reopen and before
 * removal so that a name swapped for a link or another file is refused. */
struct target_id {
	dev_t dev;
	ino_t ino;          /* 0: not recorded (block device, null engine) */
};

/* The file set a cell runs on, resolved from cell->path. */
struct target {
	char **paths;       /* one per file (a block device: one path) */
	struct target_id *ids; /* one per file, NULL for a block device */
	unsigned nfiles;
	uint64_t file_size; /* bytes usable per file */
	uint64_t offset;    /* start offset in each file, resolved */
	bool is_blockdev;
	bool created;       /* files are ours (remove at the end): made by
			     * iomatrix now or earlier (scratch marker) */
	bool foreign;       /* an existing file iomatrix did not make: used in
			     * place, never laid out, truncated or removed */
	bool nofollow;      /* scratch names in a directory: never a link */
	unsigned logical_block; /* device logical block size, 0 unknown */
};

#endif
