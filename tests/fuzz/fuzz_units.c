/*
 * fuzz_units.c - libFuzzer target for the size, duration and percent parsers
 * (bench/units.c).  Besides "no crash, no UB", it checks that what the
 * formatters print parses back to the same value.
 * Also built into tests/unit/test_fuzz_regress.c to replay regress inputs.
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "util/units.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	char buf[128], out[128];
	uint64_t v, v2;
	double pct;

	/* Suite values are short; longer inputs add nothing but time. */
	if (size >= sizeof(buf))
		return 0;
	memcpy(buf, data, size);
	buf[size] = '\0';

	if (units_parse_size(buf, &v) == 0) {
		units_format_size_short(v, out, sizeof(out));
		if (units_parse_size(out, &v2) != 0 || v2 != v) {
			fprintf(stderr, "size '%s' -> %llu -> '%s' does not parse back\n",
				buf, (unsigned long long)v, out);
			abort();
		}
		units_format_size(v, out, sizeof(out));
	}
	if (units_parse_duration(buf, &v) == 0) {
		units_format_duration(v, out, sizeof(out));
		if (units_parse_duration(out, &v2) != 0 || v2 != v) {
			fprintf(stderr, "duration '%s' -> %llu ns -> '%s' does not parse back\n",
				buf, (unsigned long long)v, out);
			abort();
		}
	}
	if (units_parse_percent(buf, &pct) == 0 && !(pct > 0.0 && pct <= 100.0)) {
		fprintf(stderr, "percent '%s' -> %g is outside (0,100]\n", buf, pct);
		abort();
	}
	return 0;
}
