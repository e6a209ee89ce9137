/*
 * sections.c - report_sections[] (sections.h): the one file that names
 * every optional report section.  A row points into model/ (load,
 * summary), render/ (its output: template context, CSV, JSON) and charts/
 * (drawing), so it lives above them; the commands hand it to
 * report_load(), and the model, renderer and charts below only iterate
 * the table they are given.
 */
#include "charts/chart.h"
#include "reproduce/repro_section.h"
#include "model/fleet.h"
#include "model/lattime.h"
#include "model/section.h"
#include "sections.h"
#include "model/qos.h"
#include "model/ssd.h"
#include "render/section_out.h"

static const struct section_out fleet_out = {
	.context = fleet_context,
	.group_context = fleet_group_context,
};

static const struct report_section fleet_section = {
	.name = "fleet",
	.title = fleet_title,
	.summary = fleet_summary,
	.dev_fp = fleet_dev_fp,
	.out = &fleet_out,
};

static const struct section_out ssd_out = {
	.context = ssd_report_context,
};

static const struct report_section ssd_section = {
	.name = "ssd",
	.load = ssd_report_load,
	.release = ssd_report_release,
	.charts = ssd_charts,
	.out = &ssd_out,
};

static const struct section_out qos_out = {
	.context = qos_report_context,
	.csv_columns = qos_csv_columns,
	.csv_ncolumns = QOS_CSV_NCOLUMNS,
	.csv_row = qos_csv_row,
	.result_json = qos_result_json,
};

static const struct report_section qos_section = {
	.name = "qos",
	.load = qos_report_load,
	.release = qos_report_release,
	.charts = qos_charts,
	.out = &qos_out,
};

static const struct section_out lattime_out = {
	.context = lattime_context,
};

static const struct report_section lattime_section = {
	.name = "lattime",
	.load = lattime_load,
	.release = lattime_release,
	.charts = lattime_charts,
	.out = &lattime_out,
};

static const struct section_out repro_out = {
	.context = repro_section_context,
};

static const struct report_section repro_section = {
	.name = "reproduction",
	.load = repro_section_load,
	.release = repro_section_release,
	.out = &repro_out,
};

const struct report_section *const report_sections[] = {
	&fleet_section,
	&ssd_section,
	&qos_section,
	&lattime_section,
	&repro_section,
	NULL,
};
