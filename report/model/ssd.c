/*
 * ssd.c - steady state, preconditioning, the PTS IOPS table and the write
 * cliff in a report (ssd.h): what the run stored in steady/DEVICE.json,
 * precondition/DEVICE.json and each write repetition's "cliff" object,
 * turned into sentences, warnings and the tables' numbers; their output
 * is render/ssd_out.c's.
 */
#include "lattime.h"
#include "ssd.h"

#include <fcntl.h>
#include <limits.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "section.h"
#include "util/fsutil.h"
#include "resultset/ptsfile.h"
#include "util/ramkind.h"
#include "resultset/rset.h"


/* The device's steady/DEVICE.json and precondition/DEVICE.json; an
 * unreadable file is a warning (absence is the normal case).  0, or -1
 * when out of memory. */
static int read_dev_files(struct report *r, const char *dir, const char *name,
			  struct ssd_dev *d)
{
	char why[PATH_MAX + 256];
	int rc = rset_steady_load(dir, name, &d->steady, why, sizeof(why));
	if (rc < 0)
		return -1;
	if (!rc && why[0])
		report_warn(r, "%s; ignored", why);
	rc = rset_precond_load(dir, name, &d->pre, why, sizeof(why));
	if (rc < 0)
		return -1;
	if (!rc && why[0])
		report_warn(r, "%s; ignored", why);
	return 0;
}

/* The values of one track and its two windows judged again under rule r
 * (the stored verdicts are of the final window only). */
static void track_load(struct ssd_track *t, const struct rset_track *o,
		       const struct steady_rule *r)
{
	t->label = o->label ? o->label : "?";
	t->values = o->values;
	t->n = o->n;
	size_t k = steady_first_round(t->values, t->n, r);
	t->first_steady_round = (int)k;
	if (k)
		steady_judge(t->values, k, r, &t->at_steady);
	steady_judge(t->values, t->n, r, &t->last);
}

static int dev_load_steady(struct ssd_dev *d)
{
	const struct rset_steady *s = &d->steady;

	d->rule.window = s->window >= 2 ? (unsigned)s->window : 2;
	d->rule.range_frac = s->range_pct / 100;
	d->rule.slope_frac = s->slope_pct / 100;
	d->rule.max = s->max > 0 ? (unsigned)s->max : d->rule.window;
	d->t = calloc(s->ntracks ? s->ntracks : 1, sizeof(*d->t));
	if (!d->t)
		return -1;
	for (size_t i = 0; i < s->ntracks; i++)
		track_load(&d->t[d->nt++], &s->tracks[i], &d->rule);
	return 0;
}

/* ---- the PTS IOPS table ---- */

static int mix_of(const struct rset_cell *c)
{
	if (c->cell.pattern == PAT_RANDREAD)
		return 100;
	if (c->cell.pattern == PAT_RANDWRITE)
		return 0;
	if (c->cell.pattern == PAT_RANDRW)
		return c->cell.rwmixread;
	return -1;
}

/* Index of v in the descending array a of n values, inserted if absent;
 * -1 when full.  Serves both axes of the PTS table (mixes and sizes). */
static int idx_insert_desc(uint64_t *a, int *n, uint64_t v)
{
	int i = 0;
	while (i < *n && a[i] > v)
		i++;
	if (i < *n && a[i] == v)
		return i;
	if (*n >= SSD_PTS_MAX)
		return -1;
	memmove(a + i + 1, a + i, sizeof(*a) * (size_t)(*n - i));
	a[i] = v;
	(*n)++;
	return i;
}

/* Random cells of device dev, one table cell per (mix, bs); a table needs
 * two mixes or two block sizes to be worth a grid. */
static void pts_build(struct report *r, size_t dev, struct ssd_pts *p)
{
	memset(p, 0, sizeof(*p));
	p->dev = dev;
	for (size_t gi = 0; gi < r->ngroups; gi++)
		for (size_t k = 0; k < r->groups[gi].n; k++) {
			const struct rentry *e = &r->groups[gi].e[k];
			if (e->dev != dev || !e->cell->ok || mix_of(e->cell) < 0)
				continue;
			idx_insert_desc(p->mix, &p->nmix, (uint64_t)mix_of(e->cell));
			idx_insert_desc(p->bs, &p->nbs, e->cell->cell.bs);
		}
	for (int i = 0; i < SSD_PTS_MAX; i++)
		for (int j = 0; j < SSD_PTS_MAX; j++)
			p->iops[i][j] = NAN;
	for (size_t gi = 0; gi < r->ngroups; gi++)
		for (size_t k = 0; k < r->groups[gi].n; k++) {
			const struct rentry *e = &r->groups[gi].e[k];
			if (e->dev != dev || !e->cell->ok || mix_of(e->cell) < 0)
				continue;
			int mi = idx_insert_desc(p->mix, &p->nmix, (uint64_t)mix_of(e->cell));
			int bi = idx_insert_desc(p->bs, &p->nbs, e->cell->cell.bs);
			if (mi >= 0 && bi >= 0)
				p->iops[mi][bi] = rentry_iops(e);
		}
}

/* ---- the write cliff ---- */

void ssd_fmt_bytes(double b, char *buf, size_t len)
{
	char v[40];
	const char *u = "GB";
	double d = 1e9;
	if (b < 1e9) {
		u = "MB";
		d = 1e6;
	}
	fmt_sig3(b / d, v, sizeof(v));
	snprintf(buf, len, "%s %s", v, u);
}

/* "ssd, sustained 1M sequential writes: 1,710 MB/s for the first 855 MB
 * (0.5 s), then 600 MB/s for 2.10 GB (3.5 s), then 150 MB/s sustained (write
 * cliff, 91 % lower)." Every plateau is named; the last is the sustained
 * level.  Each level has its latency beside it where its interval
 * histograms tell it (lattime_span_text).  On RAM (ram: its kind) the
 * cliff is said with why it is not a cache's: every cliff a cell found is
 * said where its chart is marked (a loop device over tmpfs found 41.9 ->
 * 17.0 MB/s at 3.0 s, the chart said so, and a summary silent on it
 * misled). */
static void cliff_sentence(struct report *r, const char *dev, const char *what,
			   const struct rset_rep *rep, const struct rset_cliff *c,
			   const char *ram)
{
	struct sbuf b = SBUF_INIT;
	sbuf_addf(&b, "%s, sustained %s: ", dev, what);
	for (size_t k = 0; k < c->nplateaus; k++) {
		const struct rset_plateau *p = &c->plateaus[k];
		char lv[48], by[64], lt[96];
		fmt_sig3(p->level_bw_bytes_s / 1e6, lv, sizeof(lv));
		/* "MB/s (latency p50 .., p99 ..)": the plateau's own intervals */
		lattime_span_text(rep, p->start_ns, p->duration_ns, lt, sizeof(lt));
		ssd_fmt_bytes(p->bytes, by, sizeof(by));
		if (k == 0)
			sbuf_addf(&b, "%s MB/s%s for the first %s (%.1f s), ", lv, lt, by,
				  p->duration_ns / 1e9);
		else if (k + 1 < c->nplateaus)
			sbuf_addf(&b, "then %s MB/s%s for %s (%.1f s), ", lv, lt, by,
				  p->duration_ns / 1e9);
		else
			sbuf_addf(&b, "then %s MB/s%s sustained (write cliff, %.0f %% lower%s%s%s).",
				  lv, lt, c->drop_pct, ram ? "; the device is RAM (" : "",
				  ram ? ram : "", ram ? "): no cache ran out, the host "
				  "slowed the writes" : "");
	}
	report_summary_add(r, sbuf_detach(&b));
}

static void stall_warning(struct report *r, const char *dev, const char *what,
			  const struct rset_rep *rep)
{
	const struct rset_cliff *c = rep ? &rep->dir[DIR_WRITE].cliff : NULL;
	if (!c || !c->nstalls)
		return;
	double iv = c->interval_ns / 1e9;
	double first = isnan(c->stalls[0]) ? 0 : c->stalls[0];
	report_warn(r, "%s, %s: %zu stall%s (intervals below 10 %% of the median "
		    "throughput), the first at %.1f s", dev, what, c->nstalls,
		    c->nstalls == 1 ? "" : "s", first * iv);
}

static void cliffs_cells(struct report *r)
{
	for (size_t gi = 0; gi < r->ngroups; gi++) {
		const struct rgroup *g = &r->groups[gi];
		for (size_t k = 0; k < g->n; k++) {
			const struct rset_cell *c = g->e[k].cell;
			const char *dev = r->devs[g->e[k].dev].display;
			if (!c->ok || !c->dir[DIR_WRITE].present)
				continue;
			const struct rset_rep *rep = c->nreps && c->reps ? &c->reps[0] : NULL;
			const struct rset_cliff *cl = rset_rep_cliff(rep);
			const struct rdev *dv = &r->devs[g->e[k].dev];
			/* RAM has no cache to run out of: a slower stretch is
			 * the host's, and the sentence says so */
			const char *vk = dv->info ? dv->info->virt_kind : NULL;
			if (cl)
				cliff_sentence(r, dev, g->words, rep, cl,
					       ram_kind_is(vk) ? vk : NULL);
			stall_warning(r, dev, g->words, rep);
		}
	}
}

void ssd_pass_words(const struct rset_pass *pass, char *buf, size_t len)
{
	char bs[32];
	fmt_bs(pass->bs, bs, sizeof(bs));
	snprintf(buf, len, "preconditioning with %s %s", bs,
		 report_pattern_words(pass->pattern, true));
}

static void cliffs_pre(struct report *r, const struct ssd_dev *d)
{
	char what[128];
	for (size_t i = 0; i < d->pre.npasses; i++) {
		const struct rset_pass *p = &d->pre.passes[i];
		ssd_pass_words(p, what, sizeof(what));
		const struct rset_cliff *cl = rset_rep_cliff(&p->rep);
		const struct rdev *dv = &r->devs[d->dev];
		const char *vk = dv->info ? dv->info->virt_kind : NULL;
		if (cl)
			cliff_sentence(r, dv->display, what, &p->rep, cl,
				       ram_kind_is(vk) ? vk : NULL);
		stall_warning(r, r->devs[d->dev].display, what, &p->rep);
	}
}

/* ---- warnings ---- */

static bool dev_writes(const struct report *r, size_t dev)
{
	for (size_t gi = 0; gi < r->ngroups; gi++)
		for (size_t k = 0; k < r->groups[gi].n; k++)
			if (r->groups[gi].e[k].dev == dev &&
			    r->groups[gi].e[k].cell->ok &&
			    r->groups[gi].e[k].cell->dir[DIR_WRITE].present)
				return true;
	return false;
}

/* The SNIA PTS verdict of a device's rounds, in the summary: where the
 * rounds ended is what every number of the device rests on. */
static void steady_summary(struct report *r, const struct ssd_dev *d)
{
	const char *dev = r->devs[d->dev].display;

	if (d->steady.running)
		report_summary_add(r, fmt_str("%s: the SNIA PTS rounds stopped after round "
					      "%d of at most %d (the set was interrupted): "
					      "no steady-state verdict yet.", dev,
					      d->steady.rounds_done, d->steady.max));
	else if (d->steady.steady_round > 0)
		report_summary_add(r, fmt_str("%s reached steady state at round %d (SNIA "
					      "PTS rule); its results are the averages of "
					      "rounds %d to %d.", dev, d->steady.steady_round,
					      d->steady.win_first, d->steady.win_last));
	else
		report_summary_add(r, fmt_str("%s: not steady after %d rounds (SNIA PTS "
					      "rule: range %g %%, slope %g %%); its results "
					      "are the averages of rounds %d to %d, not "
					      "steady-state numbers.", dev, d->steady.rounds_done,
					      d->steady.range_pct, d->steady.slope_pct,
					      d->steady.win_first, d->steady.win_last));
}

static void steady_warnings(struct report *r, const struct ssd_dev *d)
{
	const char *dev = r->devs[d->dev].display;
	if (!d->steady.present)
		return;
	steady_summary(r, d);
	if (d->steady.running) {
		report_warn(r, "%s: the rounds stopped after round %d of at most %d "
			    "(the set was interrupted); no steady-state verdict yet, "
			    "continue with run --resume", dev, d->steady.rounds_done, d->steady.max);
		return;
	}
	if (d->steady.steady_round > 0)
		return;
	struct sbuf b = SBUF_INIT;
	for (size_t i = 0; i < d->nt; i++)
		sbuf_addf(&b, "%s%s: range %.1f %%, slope %.1f %%", i ? "; " : "",
			  d->t[i].label, d->t[i].last.range_frac * 100,
			  d->t[i].last.slope_frac * 100);
	report_warn(r, "%s: NOT STEADY after %d rounds (limits: range %g %%, slope "
		    "%g %% of the window average; %s); the results are the average of "
		    "the last %d rounds, not steady-state numbers", dev,
		    d->steady.rounds_done, d->steady.range_pct, d->steady.slope_pct, sbuf_str(&b),
		    d->steady.window);
	sbuf_release(&b);
}

/* cell-level steady_state: the repetitions never settled */
static void cell_steady_warnings(struct report *r)
{
	for (size_t gi = 0; gi < r->ngroups; gi++)
		for (size_t k = 0; k < r->groups[gi].n; k++) {
			const struct rset_cell *c = r->groups[gi].e[k].cell;
			const struct rset_cell_steady *ss = &c->steady;
			if (!c->ok || !ss->present || ss->steady)
				continue;
			report_warn(r, "%s, %s: not steady after %d repetitions (range "
				    "%.1f %%, slope %.1f %%); its result is the average of "
				    "the last %d", r->devs[r->groups[gi].e[k].dev].display,
				    r->groups[gi].title, c->nreps, ss->range_found_pct,
				    ss->slope_found_pct, ss->window);
		}
}

int ssd_report_load(struct report *r)
{
	struct ssd_report *s = calloc(1, sizeof(*s));
	if (!s)
		return -1;
	r->ssd = s;
	s->d = calloc(r->ndevs ? r->ndevs : 1, sizeof(*s->d));
	s->pts = calloc(r->ndevs ? r->ndevs : 1, sizeof(*s->pts));
	if (!s->d || !s->pts)
		return -1;
	for (size_t i = 0; i < r->ndevs; i++) {
		const struct rdev *dv = &r->devs[i];
		const char *dir = r->sets[dv->set].dir;
		struct ssd_dev *d = &s->d[s->n];
		memset(d, 0, sizeof(*d));
		d->dev = i;
		if (read_dev_files(r, dir, dv->name, d) < 0)
			return -1;
		if (d->steady.present && dev_load_steady(d) < 0)
			return -1;
		if (d->steady.present || d->pre.present)
			s->n++;
		if (d->pre.present)
			cliffs_pre(r, d);
		steady_warnings(r, d);
		if (d->steady.present) {
			pts_build(r, i, &s->pts[s->npts]);
			if (s->pts[s->npts].nmix >= 2 || s->pts[s->npts].nbs >= 2)
				s->npts++;
		}
		/* RAM (zram, brd, tmpfs, pmem) has no flash to fill up.  Without
		 * a purge or preconditioning the set cannot know the flash's
		 * state: a device written full looks the same as a new one, so
		 * "fresh-out-of-box" is never claimed here (a purge is silent:
		 * a fresh device is what it asked for). */
		const char *vk = dv->info ? dv->info->virt_kind : NULL;
		bool ram = ram_kind_is(vk);
		if (!d->pre.present && !ram && dv->info && dv->info->rotational == 0 &&
		    dev_writes(r, i))
			report_warn(r, "%s: writes were measured on a non-rotational "
				    "device with no purge or preconditioning: its state "
				    "is unknown (fresh, full or in between) and the numbers "
				    "hold for that state only; add 'purge: discard' to "
				    "measure it fresh or 'precondition: sequential' (or "
				    "random) to measure it full", dv->display);
	}
	cliffs_cells(r);
	cell_steady_warnings(r);
	return 0;
}

void ssd_report_release(struct report *r)
{
	struct ssd_report *s = r->ssd;
	if (!s)
		return;
	for (size_t i = 0; i < r->ndevs && s->d; i++) {
		free(s->d[i].t);
		rset_steady_release(&s->d[i].steady);
		rset_precond_release(&s->d[i].pre);
	}
	free(s->d);
	free(s->pts);
	free(s);
	r->ssd = NULL;
}

double ssd_metric_div(const char *m)
{
	return !strcmp(m, "bw_bytes_s") ? 1e6 : !strcmp(m, "lat_mean_ns") ? 1e3 : 1;
}
