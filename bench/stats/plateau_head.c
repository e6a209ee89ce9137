/*
 * plateau_head.c - a cache too short for the coarse intervals, found in the
 * fine samples of a write's start and put in front of the coarse plateaus
 * (plateau_fit_head, plateau.h).
 */
#include "plateau.h"

#include <string.h>

/* The cliff rule of plateau.h from the head plateau p[0]: its level part
 * is plateau_levels_rule, as plateau_fit judges; the noise test is the
 * fine fit's t. */
static void judge_from_head(struct plateaus *out, double run_s, bool ram, double t)
{
	size_t k = 1, low = out->n - 1, ref = 0;

	out->cliff = false;
	out->cliff_at = 0;
	out->drop = 0;
	out->t = t;
	if (ram) {
		out->why_not = "the device is RAM-backed";
		return;
	}
	if (run_s < PLATEAU_CLIFF_MIN_RUN_S) {
		out->why_not = "the run is too short to show a cliff";
		return;
	}
	if ((out->why_not = plateau_levels_rule(out, run_s, true, &k, &low, &ref)))
		return;
	out->cliff = true;
	out->cliff_at = k;
	out->low = low;
	out->ref = ref;
	double lref = out->p[ref].level;
	out->drop = lref > 0 ? 1 - out->p[low].level / lref : 0;
}

int plateau_fit_head(const double *x, size_t n, double interval_s,
		     const double *fine, size_t nf, double fine_s, bool ram,
		     struct plateaus *out)
{
	struct plateaus f;

	if (plateau_fit(x, n, interval_s, ram, out) < 0)
		return -1;
	if (!fine || ram || out->n == 0 || out->n >= PLATEAU_MAX || !(fine_s > 0) ||
	    !(fine_s < interval_s) || nf < 2 * PLATEAU_MIN_SAMPLES)
		return 0;
	if (plateau_fit_fine(fine, nf, fine_s, &f) < 0)
		return -1;
	/* the head is the fine fit's reference: the cache that ran out */
	if (!f.cliff || f.n < 2 || f.ref != 0)
		return 0;
	const struct plateau h = f.p[0];
	/* a start burst (plateau.h), long enough for the coarse fit (its
	 * windows), or already its first level */
	if (h.dur_s + 1e-9 < PLATEAU_HEAD_MIN_S ||
	    h.dur_s >= PLATEAU_MIN_SAMPLES * (double)out->window * interval_s ||
	    out->p[0].level >= (1 - PLATEAU_MIN_STEP) * h.level)
		return 0;
	memmove(&out->p[1], &out->p[0], out->n * sizeof(out->p[0]));
	out->n++;
	out->p[0] = h;
	out->p[0].first = out->p[0].end = 0;
	out->p[0].start_s = 0;
	/* the coarse first plateau begins where the head ends */
	struct plateau *c = &out->p[1];
	double cut = h.dur_s - c->start_s;
	if (cut > 0 && cut < c->dur_s) {
		c->start_s += cut;
		c->dur_s -= cut;
		c->bytes = c->bytes > h.bytes ? c->bytes - h.bytes : 0;
	}
	out->head = true;
	judge_from_head(out, (double)n * interval_s, ram, f.t);
	return 0;
}
