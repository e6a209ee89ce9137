/*
 * fuzz_fleet.c - libFuzzer target for what a fleet agent can send the
 * controller: bytes split into lines by the bounded line reader, each line
 * parsed as a protocol message; pongs feed the clock estimate, results'
 * repetitions are read back and merged as aggregate mode does.  No crash,
 * no UB, no leak, whatever the agent says.
 * Also built into tests/unit/test_fuzz_regress.c to replay its inputs.
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "fleet/merge.h"
#include "fleet/proto.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

#define MAX_REPS 8

/* One message: what the controller would do with it. */
static void fleet_one_msg(const cJSON *m, struct clock_sample *cs, size_t *ncs,
			  struct rep_result *reps, size_t *nreps)
{
	const char *op = proto_op(m);
	int64_t v;
	char why[128];

	if (!strcmp(op, "pong") && *ncs < 8) {
		struct clock_sample *s = &cs[*ncs];
		if (proto_get_i64(m, "t0", &s->t0) && proto_get_i64(m, "t1", &s->t1) &&
		    proto_get_i64(m, "t2", &s->t2) && proto_get_i64(m, "t0", &v)) {
			s->t3 = s->t0 + 1000;
			(*ncs)++;
		}
	} else if (!strcmp(op, "result")) {
		const cJSON *r;
		cJSON_ArrayForEach(r, cJSON_GetObjectItemCaseSensitive(
					   cJSON_GetObjectItemCaseSensitive(m, "cell"), "repetitions")) {
			if (*nreps == MAX_REPS)
				break;
			if (fleet_rep_from_json(r, &reps[*nreps], why, sizeof(why)) == 0)
				(*nreps)++;
			else
				rep_result_release(&reps[*nreps]);
		}
	}
	proto_sanitize(op, strlen(op), why, sizeof(why));
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct linebuf lb;
	struct clock_sample cs[8];
	struct clock_est est;
	struct rep_result reps[MAX_REPS], merged;
	size_t ncs = 0, nreps = 0, off = 0, len;
	char *line, why[160];

	linebuf_init(&lb, 1u << 16);
	/* feed in uneven chunks: lines cross chunk boundaries */
	while (off < size) {
		size_t chunk = 1 + (data[off] % 97);
		if (chunk > size - off)
			chunk = size - off;
		if (linebuf_feed(&lb, (const char *)data + off, chunk) < 0)
			break;
		off += chunk;
		while ((line = linebuf_next(&lb, &len))) {
			cJSON *m = proto_parse(line, len, why, sizeof(why));
			if (m)
				fleet_one_msg(m, cs, &ncs, reps, &nreps);
			cJSON_Delete(m);
		}
	}
	linebuf_release(&lb);
	if (clock_estimate(cs, ncs, &est) == 0)
		(void)barrier_margin_ns(&est, 1, 20000000);
	if (nreps) {
		int64_t starts[MAX_REPS], skew;
		uint64_t rt[MAX_REPS];
		for (size_t i = 0; i < nreps; i++) {
			starts[i] = (int64_t)i * 1000;
			rt[i] = reps[i].runtime_ns;
		}
		uint64_t w = fleet_common_window(starts, rt, nreps, &skew);
		if (fleet_rep_merge(reps, nreps, w, &merged) == 0 &&
		    merged.dir[DIR_READ].hist) {
			uint64_t total = 0;
			for (size_t i = 0; i < nreps; i++)
				if (reps[i].dir[DIR_READ].present && reps[i].dir[DIR_READ].hist)
					total += reps[i].dir[DIR_READ].hist->total;
			if (merged.dir[DIR_READ].hist->total != total)
				abort(); /* the merge must be exact */
		}
		rep_result_release(&merged);
	}
	for (size_t i = 0; i < nreps; i++)
		rep_result_release(&reps[i]);
	return 0;
}
