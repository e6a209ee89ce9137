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

#endif
