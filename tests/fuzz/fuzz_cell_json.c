/*
 * fuzz_cell_json.c - libFuzzer target for the cell parameter reader
 * (cell_from_json of suite/cell_params.c), the part of the set loader that
 * bench/ owns.  A cell that loads must also survive cell_to_json and load
 * again to the same JSON.  A "hist" member (or a bare bucket array) goes
 * through hist_from_json (bench/resultset/cellfile.c), percentiles and back.
 * Also built into tests/unit/test_fuzz_regress.c to replay regress inputs.
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cjson/cJSON.h>

#include "suite/cell.h"
#include "stats/stats.h"
#include "resultset/resultset.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

/* Histogram of a latency object: load, query, write, load again. */
static void cell_fuzz_hist(const cJSON *hj)
{
	static struct lat_hist h, h2;
	cJSON *out;

	if (hist_from_json(hj, &h) < 0)
		return;
	for (size_t i = 0; i < stats_fio_npercentiles; i++)
		(void)hist_percentile(&h, stats_fio_percentiles[i]);
	/* counts are JSON numbers (doubles): exact only below 2^53, so only
	 * histograms whose counts stay below that must survive the trip */
	double sum = 0;
	for (unsigned i = 0; i < HIST_BUCKETS; i++)
		sum += (double)h.count[i];
	out = hist_to_json(&h);
	if (out && sum < 9007199254740992.0 &&
	    (hist_from_json(out, &h2) < 0 || h2.total != h.total)) {
		fprintf(stderr, "histogram does not round-trip\n");
		abort();
	}
	cJSON_Delete(out);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct cell c, c2;
	char err[256];
	cJSON *j, *j1 = NULL, *j2 = NULL;
	char *s1 = NULL, *s2 = NULL;

	j = cJSON_ParseWithLength((const char *)data, size);
	if (!j)
		return 0;
	if (cJSON_IsArray(j))
		cell_fuzz_hist(j);
	else if (cJSON_GetObjectItemCaseSensitive(j, "hist"))
		cell_fuzz_hist(cJSON_GetObjectItemCaseSensitive(j, "hist"));
	/* Accept both a bare PARAMS object and a cell file with "params". */
	const cJSON *p = cJSON_GetObjectItemCaseSensitive(j, "params");
	if (!p)
		p = j;
	if (cell_from_json(p, &c, err, sizeof(err)) == 0) {
		char label[CELL_LABEL_MAX];
		cell_label_derive(&c, label, sizeof(label));
		j1 = cell_to_json(&c);
		if (j1 && cell_from_json(j1, &c2, err, sizeof(err)) == 0 &&
		    (j2 = cell_to_json(&c2))) {
			s1 = cJSON_PrintUnformatted(j1);
			s2 = cJSON_PrintUnformatted(j2);
			if (s1 && s2 && strcmp(s1, s2)) {
				fprintf(stderr, "cell JSON does not round-trip:\n%s\n%s\n",
					s1, s2);
				abort();
			}
		}
	}
	free(s1);
	free(s2);
	cJSON_Delete(j2);
	cJSON_Delete(j1);
	cJSON_Delete(j);
	return 0;
}
