/*
 * site_manifest.h - the site's own records on disk, typed, one reader and
 * one writer each: SITE/.iomatrix-site.json (what the last build wrote:
 * each set's stamp, each page's input hash, each file's sha256) and each
 * set page's lattime.json (the latency-over-time charts that page drew).
 * Both are derived files: a reader believes one only whole, at this
 * format's version, every name and hash checked; anything else (no file,
 * a newer or older version, one odd entry, a duplicate name) reads as no
 * record at all, and the site is rebuilt from the sets, removing nothing
 * (sitefs.h).  A name read here is never a path outside SITE/.  It
 * lives with the set readers because every parse of bytes from disk does:
 * report/ works on typed structs only (tests/check_json_reads.sh).
 *
 * Ownership: each struct owns its strings; _release() frees them and
 * leaves an empty struct.  Parsers return 0, or -1 with why filled and the
 * struct empty; adders return 0, or -1 out of memory.
 */
#ifndef IOMATRIX_SITE_MANIFEST_H
#define IOMATRIX_SITE_MANIFEST_H

#include <stdbool.h>
#include <stddef.h>

#define SITE_MANIFEST_NAME ".iomatrix-site.json"
/* 1: "version", "generator", "sets" (by folder name), "pages", "files".
 * A build before the version field keyed "sets" by the set's realpath:
 * not believed (its site is rebuilt once). */
#define SITE_MANIFEST_VERSION 1

/* One name and its hash (64 lowercase hex; a set's stamp may be "": its
 * files could not be read). */
struct site_manifest_ent {
	char *name;
	char hex[65];
};

/* Name -> hash; sorted by name once site_manifest_sort() ran (a parsed
 * map is), which site_manifest_get() needs. */
struct site_manifest_map {
	struct site_manifest_ent *v;
	size_t n, alloc;
};

struct site_manifest {
	int version;                     /* 0: no record */
	struct site_manifest_map sets;   /* a set's folder below SITE/sets/
					    (one name, never a path) -> its
					    arc_ref stamp */
	struct site_manifest_map pages;  /* page rel -> input hash */
	struct site_manifest_map files;  /* file rel -> sha256 of its bytes */
};

/* A name below SITE/: relative, '/'-separated, each component a plain
 * name (not "", ".", ".."; at most NAME_MAX bytes), no control
 * character, shorter than PATH_MAX. */
bool site_manifest_rel_ok(const char *rel);

/* Parse the manifest's len bytes into m (zeroed first); buf[len] is a NUL,
 * as fsutil_read_at() gives.  0, or -1 with why
 * ("newer version 2 (this build reads 1)", "files: '../x' is not a name
 * inside the site") and m empty. */
int site_manifest_parse(struct site_manifest *m, const char *buf, size_t len, char *why,
			size_t whylen);

/* Read dirfd's SITE_MANIFEST_NAME (no link followed) into m.  1 read and
 * believed, 0 none there, -1 not believed (why filled); m is empty unless
 * 1. */
int site_manifest_read_at(struct site_manifest *m, int dirfd, char *why, size_t whylen);

/* The hash recorded for name in a sorted map, or NULL. */
const char *site_manifest_get(const struct site_manifest_map *m, const char *name);

/* Append name -> hex (copied); site_manifest_sort() before a lookup. */
int site_manifest_add(struct site_manifest_map *m, const char *name, const char *hex);

/* Sort m by name; of a name added twice the last stays. */
void site_manifest_sort(struct site_manifest_map *m);

/* The manifest's JSON text (maps sorted first), generator the writing
 * build's version; caller frees.  NULL out of memory. */
char *site_manifest_print(struct site_manifest *m, const char *generator);

void site_manifest_map_release(struct site_manifest_map *m);
void site_manifest_release(struct site_manifest *m);

/* ---- lattime.json: [{"device", "label", "chart"}] ---- */

#define SITE_LATTIME_NAME "lattime.json"
/* Every chart a set page lists is below its charts folder and named so. */
#define SITE_LATTIME_PREFIX "charts/lattime-"

struct site_lattime_ent {
	char *device, *label, *chart;   /* one block, freed through device */
};

struct site_lattime {
	struct site_lattime_ent *v;
	size_t n, alloc;
};

int site_lattime_add(struct site_lattime *l, const char *device, const char *label,
		     const char *chart);

/* Parse lattime.json's len bytes (buf[len] a NUL) into l.  0, or -1 with
 * why and l empty: not an array of such objects, a chart not one file
 * below SITE_LATTIME_PREFIX. */
int site_lattime_parse(struct site_lattime *l, const char *buf, size_t len, char *why,
		       size_t whylen);

/* The JSON text; caller frees.  NULL out of memory. */
char *site_lattime_print(const struct site_lattime *l);

void site_lattime_release(struct site_lattime *l);

#endif
