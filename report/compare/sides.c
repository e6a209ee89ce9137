/*
 * sides.c - sides.h: the per-repetition numbers of a cell, for compare and
 * reproduce.
 */
#include "sides.h"

#include <math.h>
#include <string.h>
#include <strings.h>

#include "stats/student.h"
#include "model/report.h"

const char *const metric_names[M__N] = { "IOPS", "MB/s", "mean latency" };


static void side_stats(struct side *s)
{
	double sum = 0, ss = 0;
	for (size_t i = 0; i < s->n; i++)
		sum += s->v[i];
	s->mean = s->n ? sum / (double)s->n : NAN;
	for (size_t i = 0; i < s->n; i++)
		ss += (s->v[i] - s->mean) * (s->v[i] - s->mean);
	s->sd = s->n > 1 ? sqrt(ss / (double)(s->n - 1)) : 0;
}

/* Per repetition: IOPS and MB/s summed over directions, mean latency
 * weighted by IOs.  Sets without repetitions (some imports) give their
 * summary mean as one value. */
void cell_sides(const struct rset_cell *c, struct side out[M__N])
{
	const cJSON *reps = cJSON_GetObjectItemCaseSensitive(c->json, "repetitions");
	const cJSON *rep;
	static const char *const dn[DIR__COUNT] = { "read", "write" };

	memset(out, 0, sizeof(struct side) * M__N);
	cJSON_ArrayForEach(rep, reps) {
		double iops = 0, bw = 0, lsum = 0, lw = 0;
		bool any = false;
		if (out[0].n >= SIDE_MAX_REPS)
			break;
		for (int k = 0; k < DIR__COUNT; k++) {
			const cJSON *d = cJSON_GetObjectItemCaseSensitive(rep, dn[k]);
			const cJSON *io = cJSON_GetObjectItemCaseSensitive(d, "iops");
			const cJSON *b = cJSON_GetObjectItemCaseSensitive(d, "bw_bytes_s");
			const cJSON *l = cJSON_GetObjectItemCaseSensitive(
				cJSON_GetObjectItemCaseSensitive(d, "lat_ns"), "mean");
			const cJSON *ios = cJSON_GetObjectItemCaseSensitive(d, "ios");
			if (!cJSON_IsNumber(io))
				continue;
			any = true;
			iops += io->valuedouble;
			bw += cJSON_IsNumber(b) ? b->valuedouble : 0;
			if (cJSON_IsNumber(l)) {
				double w = cJSON_IsNumber(ios) && ios->valuedouble > 0 ? ios->valuedouble : 1;
				lsum += l->valuedouble * w;
				lw += w;
			}
		}
		if (!any)
			continue;
		out[M_IOPS].v[out[M_IOPS].n++] = iops;
		out[M_MBS].v[out[M_MBS].n++] = bw / 1e6;
		if (lw > 0)
			out[M_LAT].v[out[M_LAT].n++] = lsum / lw;
	}
	if (!out[M_IOPS].n) {
		struct rentry e = { .cell = c };
		out[M_IOPS].v[out[M_IOPS].n++] = rentry_iops(&e);
		out[M_MBS].v[out[M_MBS].n++] = rentry_bw(&e) / 1e6;
		double l = rentry_lat(&e);
		if (isfinite(l))
			out[M_LAT].v[out[M_LAT].n++] = l;
	}
	for (int m = 0; m < M__N; m++)
		side_stats(&out[m]);
}

enum metric primary_metric(const struct rset_cell *c)
{
	if (c->label && !strncasecmp(c->label, "lat", 3))
		return M_LAT;
	return c->bs >= 65536 ? M_MBS : M_IOPS;
}

double side_ci95(const struct side *s)
{
	return s->n >= 2 ? student_t95(s->n - 1) * s->sd / sqrt((double)s->n) : 0;
}
