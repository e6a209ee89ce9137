/*
 * report_int.h - between the files of the report model only: the steps of
 * report_load() that live in their own files.  Each reads the devices and
 * groups load.c built and adds to r (warnings, alerts, summary).
 */
#ifndef IOMATRIX_REPORT_INT_H
#define IOMATRIX_REPORT_INT_H

#include "report.h"

/* warnings.c: the warnings of every device, then the alerts. */
/* Check each set against its SHA256SUMS: r->unverified, and a warning of
 * the set (stderr and the Warnings section) for one that fails.  0, -1 OOM. */
int sets_verify(struct report *r);
void warnings_compute(struct report *r);
void alerts_compute(struct report *r);
/* Are devices a and b of r two names for one disk on one host (the alert
 * "a and b are the same device")?  *what: the device or disk to name. */
bool report_same_disk(const struct report *r, size_t a, size_t b, const char **what);
/* titles.c: each group's title and words, from its workload and the
 * others' (n log n).  0, or -1 out of memory. */
int report_group_titles(struct report *r);
/* summary.c: the summary sentences (a section's, when one has them). */
void summary_compute_sentences(struct report *r);

#endif
