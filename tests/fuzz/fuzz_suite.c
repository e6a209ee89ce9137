/*
 * fuzz_suite.c - libFuzzer target for the suite loader (bench/suite/suite*.c):
 * YAML parsing, strict validation with positions, aliases, matrix expansion.
 * A suite that loads must also turn into a plan (resultset_plan_write).  Every
 * fourth input is loaded with --scale 0.5 and a device override too.
 * Also built into tests/unit/test_fuzz_regress.c to replay regress inputs.
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cjson/cJSON.h>

#include "suite/cell.h"
#include "resultset/resultset.h"
#include "util/errlist.h"
#include "suite/suite.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	static const char *overrides[] = { "ssd=/tmp/x", "hdd=" };
	struct suite_opts opts;
	struct errlist errs = ERRLIST_INIT;
	struct suite *s = NULL;

	if (size > SUITE_MAX_BYTES)
		return 0;
	memset(&opts, 0, sizeof(opts));
	if (size % 4 == 3) {
		opts.device_overrides = overrides;
		opts.ndevice_overrides = 2;
		opts.scale = 0.5;
	}
	if (suite_load_buffer("fuzz.yaml", (const char *)data, size, &opts, &s,
			      &errs) == 0 && s) {
		char *txt = NULL;
		size_t len = 0;
		FILE *f = open_memstream(&txt, &len);
		if (f) {
			resultset_plan_write(f, s);
			fclose(f);
		}
		free(txt);
	}
	suite_free(s);
	errlist_release(&errs);
	return 0;
}
