/*
 * site.h - the static site of an archive (`iomatrix site`): an index of
 * every set, a page per device identity with trend charts and history
 * tables, a page per suite ranking its devices, and each set's HTML report.
 * The model is built by streaming set records (archive.h) into a history
 * (history.h) plus the little the index and suite pages need; each page
 * carries a hash of its inputs so that a rebuild rewrites only pages whose
 * inputs changed (site_model.c, cmd_site.c).  Charts: site_chart.c.
 * The model and the page contexts are site_model.c's; it calls
 * site_repro.c, which reads struct site from here, so no site.c shares
 * this header's name.
 *
 * Ownership: struct site owns everything; site_release().
 */
#ifndef IOMATRIX_SITE_H
#define IOMATRIX_SITE_H

#include <stdbool.h>
#include <stddef.h>

#include <cjson/cJSON.h>

#include "setarchive.h"
#include "util/errlist.h"
#include "util/sbuf.h"
#include "util/sha256.h"
#include "history.h"

/* A set as the index shows it. */
struct site_set {
	char *name, *slug, *path, *date, *suite, *host, *status, *source;
	char stamp[80];
	double scale;
	int cells_done, cells_total, cells_failed;
	bool has_report;
	char *failed_why;            /* fails verification: what (archive.h);
					NULL when intact or without checksums */
	char **devs;                 /* device names */
	char **dev_idents;           /* their identity keys */
	size_t ndevs;
	bool dirty;                  /* its report page must be (re)written */
};

/* One device's newest full-size set of a suite (or newest rehearsal). */
struct site_entry {
	char *ident;                 /* identity key (raw, before --same) */
	size_t set;                  /* index into site.sets */
	double scale;                /* of that set: a rehearsal is used only
					while no full-size set exists */
	struct arc_cell *cells;      /* owned copies: label, metric value */
	size_t ncells;
};

struct site_suite {
	char *name, *title, *slug;
	size_t nsets;
	struct site_entry *e;
	size_t ne;
	struct sha256 hash;          /* of its sets' names and stamps */
};

struct site {
	struct history h;
	struct site_set *sets;
	size_t nsets, sets_alloc;
	struct site_suite *suites;
	size_t nsuites;
	char **ident_slug;           /* per history identity, after finish */
	size_t *slug_tab, slug_cap;  /* sets by slug: open addressing, SIZE_MAX empty */
};

void site_init(struct site *s, const struct hist_opts *opt);
/* Take one set record (date order); stamp from its arc_ref (the caller
 * marks a set dirty once slugs are known).  0, -1 out of memory. */
int site_add(struct site *s, const struct arc_set *set, const char *stamp);
/* After the last set: history, slugs.  0 or -1 with a message. */
int site_finish(struct site *s, struct errlist *errs);
void site_release(struct site *s);

/* Stable file-name slug of a key: escape_slug(text) plus 8 hex digits of
 * the key's sha256 (so hostile or colliding names still get unique,
 * unchanging names). */
void site_slug(const char *text, const char *key, char *buf, size_t len);

/* Page contexts for the templates (caller owns).  base: the site's common
 * fields (title, version, css). */
cJSON *site_index_context(const struct site *s, const char *title);
/* charts[i], lattime[i]: series i's trend chart and the latency-over-time
 * chart of its latest set (paths from devices/), NULL each when none. */
cJSON *site_device_context(const struct site *s, size_t ident, const char *title,
			   const char *const *charts, const char *const *lattime,
			   double threshold);
cJSON *site_suite_context(const struct site *s, size_t suite, const char *title,
			  const char *baseline);

/* Hex sha256 of everything a page shows, for the manifest of inputs. */
void site_device_hash(const struct site *s, size_t ident, const char *salt, char hex[65]);
void site_suite_hash(const struct site *s, size_t suite, const char *salt, char hex[65]);
void site_index_hash(const struct site *s, const char *salt, char hex[65]);

/* ---- site_chart.c ---- */
/* Where site_chart_write() puts file `name` of a device's chart folder:
 * 0, or -1 (errno) when it cannot be written. */
typedef int (*site_put_fn)(void *ctx, const char *name, const struct sbuf *b);
/* Write the trend chart of series si (.dat, .gp) through put (into the
 * device's chart folder, "devices/SLUG" from the site root, rel), base name
 * file, and append its lines to all, a script run in SITE/.cache.  0; 1
 * when the series has no dated point; -1 (errno) when a file cannot be
 * written. */
int site_chart_write(const struct history *h, size_t si, site_put_fn put, void *ctx,
		     const char *rel, const char *file, struct sbuf *all);

/* Add to the rows of the index context (rows[i]: set i's row) the links
 * between originals and their reproductions: each original's row gets
 * "reproductions": [{href, name, verdict, cls}], each reproduction's row
 * "reproduces": {href, name, verdict, cls} (site_repro.c); called by
 * site_index_context.  0, or -1 on OOM. */
int site_repro_links(const struct site *s, cJSON *const *rows);

#endif
