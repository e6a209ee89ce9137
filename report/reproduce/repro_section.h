/*
 * repro_section.h - the report's optional "Reproduction" section (a row of
 * report_sections[], cmd/sections.c): for every loaded set that
 * reproduces another loaded set (repro_of), the verdicts of repro.h at the
 * tolerance the reproduction recorded (else the default), one summary sentence, and the environment
 * differences; a set whose original is not loaded gets a warning naming
 * it.  Lives in compare/ because the verdicts are ratio.h's.
 */
#ifndef IOMATRIX_REPRO_SECTION_H
#define IOMATRIX_REPRO_SECTION_H

#include <stdbool.h>

#include <cjson/cJSON.h>

#include "model/section.h"
#include "repro.h"

struct repro_report {
	struct repro *p;       /* owned, one per (original, reproduction) pair */
	size_t n;
};

int repro_section_load(struct report *r);
void repro_section_release(struct report *r);
/* ctx["reproduction"]: an array of repro_context() objects. */
void repro_section_context(const struct report *r, const struct chart_set *cs,
			   bool html, cJSON *ctx);

#endif
