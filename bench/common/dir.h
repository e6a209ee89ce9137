/*
 * dir.h - the one direction enum of iomatrix (reads, writes), shared by
 * the runner, the importers, the result-set reader and the report.
 */
#ifndef IOMATRIX_DIR_H
#define IOMATRIX_DIR_H

enum dir { DIR_READ = 0, DIR_WRITE = 1, DIR__COUNT = 2 };

/* "read" / "write": the JSON key of a direction in cell files. */
const char *dir_name(int d);

#endif
