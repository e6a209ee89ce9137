/*
 * section.h - the optional sections of a report (fleet, SSD/PTS, QoS,
 * reproduction), one row each in the table report_load() is given
 * (struct report's sections), and the plain data
 * the model, the sections and the renderer share: the list of drawn charts
 * and the host of a fleet cell.
 *
 * The model (load.c), the renderer (render/render.c) and the charts
 * (charts/chart_render.c) iterate the table and never call a section by
 * name, so a section's files depend on the model and never the other way
 * round.
 * The model builds, the renderer renders: a row's own hooks are the
 * model's (load, summary, title), its `out` the renderer's
 * (render/section_out.h: template context, CSV, JSON).
 * The rows are filled in cmd/sections.c (report_sections[], sections.h
 * there), in the commands room above report/: a row points into model/,
 * render/ and charts/, and only a file above them may name them all.  A
 * command hands the table to report_load() (and to what loads a report
 * for it: repro_judge_sets(), site_repro_links()); nothing below the
 * commands names it.  Adding a section is a new row there plus its files;
 * every hook may be NULL.
 */
#ifndef IOMATRIX_REPORT_SECTION_H
#define IOMATRIX_REPORT_SECTION_H

#include <stdbool.h>
#include <stddef.h>

#include "report.h"

/* ---- the charts a report has drawn (written by charts/, read by the
 * renderer and by sections) ---- */
struct chart {
	char *file;      /* owned: base name, e.g. "rnd4k-q1t1-randread-latency" */
	char *title;     /* owned: caption, plain text */
	int group;       /* -1: overview chart; else index into report.groups */
	char *svg;       /* owned: the <svg> element to inline, NULL if none */
	bool png;        /* a PNG was written */
	bool svgfile;    /* an SVG was written */
	const char *section; /* NULL: results; else placed by the section
				that drew it ("steady", "pts", "precondition") */
	size_t section_dev;  /* index into report.devs for a section chart */
};

struct chart_set {
	struct chart *c;
	size_t n, alloc;
	char *note;      /* owned: why charts are missing, NULL if all fine */
};

/* Free what the set owns and zero it (the struct itself is the caller's). */
void chart_set_release(struct chart_set *cs);

/* ---- the table ---- */
struct chart_sink;  /* charts/chart.h: where a section's charts go */
struct section_out; /* render/section_out.h: what a section adds to the
		     * output (template context, CSV rows, report.json) */

struct report_section {
	const char *name;
	/* Default title of a report of the one set rs (caller frees), NULL
	 * when the section has none for it. */
	char *(*title)(const struct rset *rs);
	/* The summary sentences, through report_summary_add(); true when the
	 * section wrote them and the model's own summary is skipped. */
	bool (*summary)(struct report *r);
	/* After the summary: read the section's files, add sentences and
	 * warnings, hang its state off struct report.  0, or -1 on OOM. */
	int (*load)(struct report *r);
	/* Free what load hung off r (also after a failed load). */
	void (*release)(struct report *r);
	/* A device's own fingerprint and path (borrowed from the set), NULL
	 * when the device is not the section's. */
	const struct rset_obj *(*dev_fp)(const struct report *r, const struct rdev *d,
					 const char **path);
	/* Add the section's charts to k.  0, or -1 when writing failed. */
	int (*charts)(const struct report *r, struct chart_sink *k);
	/* Its output: the renderer's part of the row, which the model never
	 * reads (NULL: the section adds nothing to it). */
	const struct section_out *out;
};

/* A device's own fingerprint from the first section that knows it, else
 * NULL; *path (when path is not NULL) is set only by that section. */
const struct rset_obj *report_dev_fp(const struct report *r, const struct rdev *d,
				     const char **path);

/* For a section's load: room for one zeroed element of size bytes per
 * entry of every group (at least one, so NULL is only out of memory). */
void *report_per_entry(const struct report *r, size_t size);

/* ---- fleet data every part reads ---- */
/* The host a fleet cell ran on as given in --hosts ("all" for aggregate
 * cells); NULL for cells of ordinary sets.  Borrowed from the cell. */
const char *report_cell_host(const struct rset_cell *c);
/* The manifest's fleet, NULL for ordinary sets.  Borrowed. */
const struct rset_fleet *report_set_fleet(const struct rset *rs);
/* Two hosts as report_cell_host() gives them are the same (both NULL: two
 * cells of ordinary sets). */
bool report_same_host(const char *a, const char *b);

#endif
