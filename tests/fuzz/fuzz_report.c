/*
 * fuzz_report.c - libFuzzer target for the report model built from a
 * hostile result set (report/model/load.c, table.c): grouping, ratios, warnings,
 * number formatting, the template context, CSV and JSON.  Same input format
 * as fuzz_rset.c (manifest, cell 1, plan, cell 2 separated by "\n%%\n").
 * No gnuplot, no files written.
 * Also built into tests/unit/test_fuzz_regress.c to replay regress inputs.
 */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include <cjson/cJSON.h>

#include "util/errlist.h"
#include "report/model/report.h"
#include "report/render/render.h"
#include "cmd/sections.h"
#include "util/sbuf.h"
#include "fuzz_set_common.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct report r;
	struct errlist errs = ERRLIST_INIT;
	const char *dir = fuzz_set_fill(data, size);
	char *dirs[1];

	if (!dir)
		return 0;
	dirs[0] = (char *)dir;
	memset(&r, 0, sizeof(r));
	if (report_load(&r, dirs, 1, (size % 3) ? NULL : "ssd", NULL, report_sections,
			&errs) == 0) {
		struct sbuf csv = SBUF_INIT;
		cJSON *ctx = report_context(&r, NULL, size % 2 == 1, NULL, 0);
		cJSON *js = report_json(&r);
		char *txt = ctx ? cJSON_PrintUnformatted(ctx) : NULL;
		free(txt);
		txt = js ? cJSON_PrintUnformatted(js) : NULL;
		free(txt);
		report_write_csv(&r, &csv);
		for (size_t g = 0; g < r.ngroups; g++)
			for (size_t i = 0; i < r.groups[g].n; i++) {
				struct sbuf cmd = SBUF_INIT;
				report_fio_command(r.groups[g].e[i].cell, i % 2, &cmd);
				sbuf_release(&cmd);
			}
		sbuf_release(&csv);
		cJSON_Delete(js);
		cJSON_Delete(ctx);
	}
	report_release(&r);
	errlist_release(&errs);
	return 0;
}
