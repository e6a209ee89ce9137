/*
 * schema.h - the constants every reader and writer of result sets shares
 * (results/README.md): the one schema version and the bound on any one
 * file read back.
 */
#ifndef IOMATRIX_SCHEMA_H
#define IOMATRIX_SCHEMA_H

/* The one schema version of manifest.json, plan.json and cell files;
 * writers write it, readers accept it and older ones. */
#define RESULTSET_SCHEMA_VERSION 1
/* Largest manifest, plan or cell file read back: result files are KBs, a
 * huge one is corrupt or hostile. */
#define RESULTSET_MAX_FILE_BYTES (64u << 20)

/* Cell ids are 1 .. this (cells/NNNN.json, four to seven digits). */
#define RESULTSET_MAX_ID 9999999

/* Where result sets live when a command is given no directory: the
 * environment variable, else this directory of the working directory. */
#define RESULTSET_ROOT_ENV "IOMATRIX_RESULTS"
#define RESULTSET_ROOT_DEFAULT "results"
/* The results directory every command uses by default: $IOMATRIX_RESULTS
 * when set and not empty, else "results".  Borrowed (the environment's or
 * a literal); valid until the environment changes. */
const char *resultset_root(void);

#endif
