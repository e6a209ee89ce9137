/*
 * fleet.h - what the report adds for fleet sets (`run --hosts`): each
 * host.device is a device of the report (rows "h1 · ssd", "all · san" for
 * aggregate), and fleet.c adds a Fleet section (the hosts, their
 * fingerprints and clock offsets), per workload the fleet spread
 * (min / median / max across hosts) with outliers named, and in aggregate
 * mode the start skew with a warning when it exceeds 1 % of the runtime.
 * These are the model's hooks of the fleet row of report_sections[]
 * (section.h; its output is render/section_out.h's); nothing calls them by
 * name but cmd/sections.c.
 */
#ifndef IOMATRIX_REPORT_FLEET_H
#define IOMATRIX_REPORT_FLEET_H

#include <stdbool.h>

#include "resultset/rset.h"

struct report;

/* A fleet device's own fingerprint and path on its host, from the
 * manifest's fleet.hosts[].devices (the set-level devices have none);
 * NULL for other devices and for "all".  Borrowed from the set. */
struct rdev;
const struct rset_obj *fleet_dev_fp(const struct report *r, const struct rdev *d,
				    const char **path);

/* Default report title of a fleet set: "quick: survey of 3 hosts";
 * NULL for other sets.  Caller frees. */
char *fleet_title(const struct rset *rs);

/* The summary of a report of one fleet set: per workload the hosts'
 * range (survey) or their sum (aggregate), through report_summary_add().
 * Returns false, adding nothing, for other reports. */
bool fleet_summary(struct report *r);

#endif
