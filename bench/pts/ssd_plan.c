/*
 * ssd_plan.c - what `plan` says about SNIA PTS testing: each
 * device's purge and preconditioning, the rounds and their rule, and the
 * duration as a range (steady at the earliest after `window` rounds or
 * repetitions, at the latest after `max`).
 */
#include <stdio.h>
#include <string.h>

#include "ssd_plan.h"
#include "util/units.h"

static uint64_t rep_ns(const struct cell *c)
{
	return c->ramp_ns + c->runtime_ns + c->cooldown_ns;
}

/* Wall time of one cell (one round of it): [lo, hi]; false when a size
 * rule stops it (not estimated). */
static bool cell_range(const struct cell *c, uint64_t *lo, uint64_t *hi)
{
	if (!c->runtime_ns)
		return false;
	if (c->steady.window) {
		*lo = (uint64_t)c->steady.window * rep_ns(c);
		*hi = (uint64_t)c->steady.max * rep_ns(c);
	} else {
		*lo = *hi = (uint64_t)c->repeat * rep_ns(c);
	}
	return true;
}

static void dur(uint64_t ns, char *buf, size_t len)
{
	units_format_duration(ns / 1000000000ULL * 1000000000ULL, buf, len);
}

static void print_pre(const struct suite_device *d, FILE *f)
{
	fprintf(f, "  %s:", d->name);
	if (d->purge == PURGE_DISCARD)
		fprintf(f, " purge (BLKDISCARD of the whole device)%s",
			d->pre.kind != PRECOND_NONE ? ", then" : "");
	if (d->pre.kind != PRECOND_NONE)
		fprintf(f, " precondition %s:", precond_kind_name(d->pre.kind));
	for (unsigned i = 0; i < d->pre.npass; i++) {
		const struct precond_pass *p = &d->pre.pass[i];
		char bs[32], amt[48];
		units_format_size_short(p->bs, bs, sizeof(bs));
		if (p->amount_mult > 0)
			snprintf(amt, sizeof(amt), "%gx the file set", p->amount_mult);
		else
			units_format_size_short(p->amount_bytes, amt, sizeof(amt));
		fprintf(f, "%s %s of %s %s at QD%u, %u job%s", i ? ";" : "", amt, bs,
			pattern_name(p->pattern), p->iodepth, p->jobs,
			p->jobs == 1 ? "" : "s");
	}
	fprintf(f, "\n");
}

void ssd_plan_print(const struct suite *s, FILE *f)
{
	bool pre = false, steady_cells = false;
	for (size_t d = 0; d < s->ndevices; d++)
		pre |= s->devices[d].purge || s->devices[d].pre.kind;
	for (size_t i = 0; i < s->ncells; i++)
		steady_cells |= s->cells[i].steady.window > 0;
	if (!pre && !s->rounds.on && !steady_cells)
		return;
	if (pre) {
		fprintf(f, "\nbefore the first cell of a device (measured; time depends on "
			"the device's write speed, not estimated):\n");
		for (size_t d = 0; d < s->ndevices; d++)
			if (s->devices[d].purge || s->devices[d].pre.kind)
				print_pre(&s->devices[d], f);
	}
	const struct suite_rounds *r = &s->rounds;
	if (r->on) {
		fprintf(f, "\nrounds: each device's cells are one round, run again until "
			"the tracked cells are steady: over the last %u rounds the %s "
			"range <= %g %% and the least-squares slope excursion <= %g %% "
			"of the window average; %u..%u rounds; tracking", r->rule.window,
			ss_metric_name(r->metric), r->rule.range_frac * 100,
			r->rule.slope_frac * 100, r->rule.window, r->rule.max);
		for (size_t t = 0; t < r->ntrack; t++)
			fprintf(f, "%s '%s'", t ? "," : "", r->track[t]);
		fprintf(f, "\n");
	}
	if (!r->on && !steady_cells)
		return;
	uint64_t lo = 0, hi = 0;
	size_t unknown = 0;
	for (size_t i = 0; i < s->ncells; i++) {
		uint64_t a, b;
		if (!cell_range(&s->cells[i], &a, &b)) {
			unknown++;
			continue;
		}
		lo += a;
		hi += b;
	}
	if (r->on) {
		lo *= r->rule.window;
		hi *= r->rule.max;
	}
	char a[64], b[64];
	dur(lo, a, sizeof(a));
	dur(hi, b, sizeof(b));
	fprintf(f, "with %s: estimated duration %s (steady at the first chance) .. %s "
		"(never steady)%s\n", r->on ? "rounds" : "steady_state cells", a, b,
		unknown ? "; cells stopped by size not included" : "");
}
