/*
 * render.h - a report model (model/report.h) as output: the template
 * context of report.md/report.html, report.csv and report.json, and the
 * command lines a reader can re-run (the set's, and fio's per cell).
 * Declared here, in the room that implements them, so that the model
 * below never names its renderer.
 */
#ifndef IOMATRIX_RENDER_H
#define IOMATRIX_RENDER_H

#include <stdbool.h>
#include <stddef.h>

#include <cjson/cJSON.h>

#include "util/sbuf.h"
#include "model/report.h"
#include "model/section.h"

/* The template context (caller owns); charts may be NULL. */
cJSON *report_context(const struct report *r, const struct chart_set *charts,
		      bool html, const char *const *files, size_t nfiles);
/* report.csv (appended to out; 0, or -1 on OOM) and report.json (caller
 * owns). */
int report_write_csv(const struct report *r, struct sbuf *out);
cJSON *report_json(const struct report *r);

/* fio command equivalent to a cell (see also `export fio`). */
void report_fio_command(const struct rset_cell *c, bool dir, struct sbuf *out);
/* Why that command is not c's workload (fio has no such option, or an
 * importer inferred some of c's keys: "the import inferred pattern,
 * iodepth; ..."), in buf or static; NULL when it is. */
const char *report_fio_unlike(const struct rset_cell *c, char *buf, size_t len);
/* The device path is a directory (files named CELL_FILE_FMT inside). */
bool rdev_is_dir(const struct rdev *d);
/* A set's command line as a shell would take it ("iomatrix run ..."),
 * or NULL for imported sets.  Caller frees. */
char *report_set_command(const struct rset *rs);

/*
 * A set in brief, as `list --format json` and report.json's "sets" give
 * it: one writer (set_brief_json), one set of keys (docs/reports.md, "A
 * set in brief"), from one typed struct, filled from a manifest
 * (set_brief_fill) or from the archive's index (report/archive's
 * archdb_read.c).  Every string is as the set says it (the JSON escapes
 * it); NULL is null.  Ownership: the struct owns its strings,
 * set_brief_release().
 */
struct set_brief {
	char *path, *started_at, *suite, *sha256, *host;
	long fleet_hosts;            /* hosts of a fleet set; -1: one host */
	char **devices;              /* the manifest's device names */
	size_t ndevices;
	double scale;
	char *source, *status, *command;
	int cells_done;              /* cell files read, ok or failed; -1 unknown */
	int cells_failed;            /* -1 unknown */
	int cells_total;             /* -1 unknown (the manifest's is no count) */
	int verify;                  /* enum sums_state; -1 not checked (running) */
	char *fails_verification;    /* what fails verification, or NULL */
	char *error;                 /* why its manifest is unusable, or NULL */
};

/* What a caller counted and checked of the set whose manifest is rs
 * (rset_load_manifest or rset_load). */
struct set_summary {
	const struct rset *rs;
	int cells_done, cells_failed, cells_total, verify;  /* as in set_brief */
	const char *fails_verification;
	const char *error;
};
/* b from s (every string copied).  0, or -1 out of memory (b released). */
int set_brief_fill(const struct set_summary *s, struct set_brief *b);
/* A new object (the caller owns it); NULL when out of memory. */
cJSON *set_brief_json(const struct set_brief *b);
void set_brief_release(struct set_brief *b);
/* set_brief_json of set_brief_fill(s). */
cJSON *set_summary_json(const struct set_summary *s);

#endif
