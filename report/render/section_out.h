/*
 * section_out.h - what the optional sections (model/section.h) add to the
 * output: keys of the template context (of the report, of a workload
 * group), report.csv columns and rows, report.json keys.  A section's row
 * points at its struct section_out (.out); cmd/sections.c fills both, the
 * renderer calls these hooks through the row, the model never does: it
 * builds the sections' state (model/fleet.h, ssd.h, qos.h), this renders
 * it.  Every hook may be NULL.
 *
 * Ownership: the hooks add to the caller's objects and buffers; chart_json
 * returns a new object the caller owns.
 */
#ifndef IOMATRIX_SECTION_OUT_H
#define IOMATRIX_SECTION_OUT_H

#include <stdbool.h>
#include <stddef.h>

#include <cjson/cJSON.h>

#include "model/report.h"
#include "model/section.h"
#include "util/sbuf.h"

struct section_out {
	/* Add the section's keys to the template context (cs may be NULL). */
	void (*context)(const struct report *r, const struct chart_set *cs,
			bool html, cJSON *ctx);
	/* Add the section's keys to the context of workload group gi. */
	void (*group_context)(const struct report *r, size_t gi, cJSON *group);
	/* report.csv: csv_columns (",name,name...", csv_ncolumns of them) end
	 * every row's header; a cell's own rows leave them empty.  csv_row
	 * appends the i-th extra row's values of entry k of group gi (exactly
	 * csv_ncolumns, each ",value", numbers only) and returns true, or
	 * returns false when the entry has no i-th row. */
	const char *csv_columns;
	size_t csv_ncolumns;
	bool (*csv_row)(const struct report *r, size_t gi, size_t k, size_t i,
			struct sbuf *cols);
	/* report.json: add the section's keys to the object of entry k of
	 * group gi. */
	void (*result_json)(const struct report *r, size_t gi, size_t k, cJSON *o);
};

/* Section i of r's output hooks: its own, else a row of NULL hooks. */
static inline const struct section_out *section_out_of(const struct report *r, size_t i)
{
	static const struct section_out none;
	return r->sections[i]->out ? r->sections[i]->out : &none;
}

/* The template object of one chart (title, svg, png, svgfile, image). */
cJSON *chart_json(const struct chart *c, bool html);
/* into["charts"]: the charts a section drew (chart.section) for its device
 * or cell dev (chart.section_dev), in the order drawn; cs may be NULL. */
void section_charts_json(const struct chart_set *cs, const char *section, size_t dev,
			 bool html, cJSON *into);

/* ---- the sections' hooks (render/fleet_out.c, ssd_out.c, qos_out.c, lattime_out.c) ---- */

/* Fleet: "fleet" at the top (hosts, mode, intro), and per workload group
 * gi "fleet_lines" (spread, skew) and "fleet_outliers". */
void fleet_context(const struct report *r, const struct chart_set *cs, bool html,
		   cJSON *ctx);
void fleet_group_context(const struct report *r, size_t gi, cJSON *group);

/* SSD: "steady", "pts" and "preconditioning". */
void ssd_report_context(const struct report *r, const struct chart_set *cs,
			bool html, cJSON *ctx);

/* QoS: "qos" (each swept cell) and "response_cells"; one CSV row and one
 * "load_points" object per load point, the cell file's numbers
 * unchanged. */
void qos_report_context(const struct report *r, const struct chart_set *cs,
			bool html, cJSON *ctx);
extern const char qos_csv_columns[];
#define QOS_CSV_NCOLUMNS 10
bool qos_csv_row(const struct report *r, size_t gi, size_t k, size_t i, struct sbuf *cols);
void qos_result_json(const struct report *r, size_t gi, size_t k, cJSON *o);

/* Latency over time: "lattime", each cell the section shows. */
void lattime_context(const struct report *r, const struct chart_set *cs, bool html,
		     cJSON *ctx);

#endif
