/*
 * sides.c - sides.h: the per-repetition numbers of a cell, for compare and
 * reproduce.
 */
#include "sides.h"

#include <math.h>
#include <string.h>
#include <strings.h>

#include "stats/student.h"
#include "report.h"

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
	memset(out, 0, sizeof(struct side) * M__N);
	for (int r = 0; c->reps && r < c->nreps; r++) {
		double iops = 0, bw = 0, lsum = 0, lw = 0;
		bool any = false;
		if (out[0].n >= SIDE_MAX_REPS)
			break;
		for (int k = 0; k < DIR__COUNT; k++) {
			const struct rset_rep_dir *d = &c->reps[r].dir[k];
			if (isnan(d->iops))
				continue;
			any = true;
			iops += d->iops;
			bw += isnan(d->bw_bytes_s) ? 0 : d->bw_bytes_s;
			if (!isnan(d->lat_mean_ns)) {
				double w = d->ios > 0 ? d->ios : 1;
				lsum += d->lat_mean_ns * w;
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
	if (c->cell.label && !strncasecmp(c->cell.label, "lat", 3))
		return M_LAT;
	return cell_judged_by_bw(&c->cell) ? M_MBS : M_IOPS;
}

double side_ci95(const struct side *s)
{
	return s->n >= 2 ? student_t95(s->n - 1) * s->sd / sqrt((double)s->n) : 0;
}
