/*
 * qos.h - the QoS section of a report: for every cell with a
 * load sweep, its load points (table and chart), the knee, and the
 * sentences "ssd sustains N IOPS of 4K random reads at QD32 with p99 <=
 * 1 ms (89 % of its maximum)" / "does not meet ... at any tested load",
 * and between devices of one workload at one target "ssd sustains 38x the
 * hdd's IOPS at p99 <= 10 ms".  A row of report_sections[]; qos_report
 * hangs off struct report and is freed by qos_report_release().
 */
#ifndef IOMATRIX_REPORT_QOS_H
#define IOMATRIX_REPORT_QOS_H

#include "report.h"
#include "section.h"
#include "resultset/qosfile.h"

/* A load point whose intervals' response p99s lie more than this many
 * times apart says so in its row: its p99 is an average over a device
 * that did not serve that load alike from interval to interval. */
#define QOS_IV_SPREAD 2.0

struct qos_cell {
	size_t dev, group;          /* indexes into report.devs, report.groups */
	size_t entry;               /* into the group's entries */
	const struct rset_cell *cell;
	struct sweep_data sd;       /* a copy of the cell's (rset_cell.sweep):
				     * its points are the cell's */
	struct qos_verdict v;       /* of sd.target, when there is one */
};

struct qos_report {
	struct qos_cell *c;
	size_t n;
};

int qos_report_load(struct report *r);
void qos_report_release(struct report *r);
/* The swept cell of entry k of group gi, NULL when it has no sweep. */
const struct qos_cell *qos_cell_of(const struct report *r, size_t gi, size_t k);

/* "1.40 ms", "850 µs" */
void qos_fmt_lat(double ns, char *buf, size_t len);

#endif
