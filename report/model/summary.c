/*
 * summary.c - the summary sentences at the top of a report: per device the
 * workloads where it leads or trails the baseline most ("ssd: 219x hdd for
 * 16K random-read IOPS"), the seed-000 style detail of one workload, and
 * the sentences of a section that says it better (fleet: hosts, not
 * devices).  Split from load.c; report_summary_add() is the door for the
 * optional sections.
 */
#include <ctype.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "report.h"
#include "report_int.h"
#include "section.h"
#include "util/array.h"

static const struct rentry *group_entry(const struct rgroup *g, size_t dev)
{
	for (size_t k = 0; k < g->n; k++)
		if (g->e[k].dev == dev)
			return &g->e[k];
	return NULL;
}

/* ---- summary sentences ---- */

struct cand {
	size_t g, fast, slow;
	const struct rentry *e, *be;  /* the device's and the baseline's */
	double ratio;
	bool sig;      /* the one verdict: the ratio's interval lies wholly
			* beyond +-5 % (model/ratio.h) */
	bool bw;       /* compared in MB/s (cell_judged_by_bw, suite/cell.h) */
	bool once;     /* a side ran once: no interval, so never significant */
	bool same_disk; /* the device and the baseline are one disk: what
			 * differs is run-to-run variation, never a verdict */
};

/* A difference the summary counts as a win: the one verdict of
 * model/ratio.h (compare's, reproduce's and history's), the family being
 * every pair the summary judges, says the ratio's interval lies wholly
 * beyond +-SUMMARY_THRESHOLD, as compare calls a change a regression or
 * an improvement. */
#define SUMMARY_THRESHOLD 0.05
static bool cand_wins(const struct cand *c)
{
	return c->sig;
}

static int cand_cmp(const void *a, const void *b)
{
	double x = ((const struct cand *)a)->ratio, y = ((const struct cand *)b)->ratio;
	return x < y ? 1 : x > y ? -1 : 0;
}

/* A sentence is the summary's (freed when it cannot be added). */
static void summary_add(struct report *r, char *s)
{
	(void)array_add_str(&r->summary, &r->nsummary, s);
}

/* One latency, one unit that reads well: "111 µs", "8.39 ms". */
static void fmt_lat_one(double ns, char *buf, size_t len)
{
	double div;
	char v[48];
	const char *u = fmt_lat_unit(&ns, 1, &div);
	fmt_sig3(ns / div, v, sizeof(v));
	snprintf(buf, len, "%s %s", v, u);
}

/* Seed-000 style detail of one workload: "On 4K random reads: hdd moved
 * 0.489 MB/s at 8.39 ms mean latency, ssd 37.2 MB/s at 111 µs."  Device
 * names are the user's ("a", "throttled"): they stand as names, never as
 * nouns behind "the" or before "'s". */
static char *detail_sentence(const struct report *r, const struct rgroup *g)
{
	struct sbuf b = SBUF_INIT;
	size_t said = 0;

	sbuf_addf(&b, "On %s", g->words);
	for (size_t k = 0; k < g->n; k++) {
		const struct rentry *e = &g->e[k];
		double lat = rentry_lat(e);
		char mbs[48], l[64];
		if (!e->cell->ok || !isfinite(lat))
			continue;
		fmt_sig3(rentry_bw(e) / 1e6, mbs, sizeof(mbs));
		fmt_lat_one(lat, l, sizeof(l));
		/* fio's clat is named: it is not the total latency beside it */
		bool cl = e->cell->lat_mean_kind == LAT_COMPLETION;
		if (said == 0)
			sbuf_addf(&b, ": %s moved %s MB/s at %s mean %slatency",
				  r->devs[e->dev].display, mbs, l, cl ? "completion " : "");
		else
			sbuf_addf(&b, ", %s %s MB/s at %s%s", r->devs[e->dev].display, mbs, l,
				  cl ? " (completion latency)" : "");
		said++;
	}
	sbuf_adds(&b, ".");
	if (said < 2) {
		sbuf_release(&b);
		return NULL;
	}
	return sbuf_detach(&b);
}

/* A workload is named once in the summary, whatever its cell label. */
static bool words_used(const struct report *r, const size_t *used, size_t n, size_t g)
{
	for (size_t i = 0; i < n; i++)
		if (used[i] == g || !strcmp(r->groups[used[i]].words, r->groups[g].words))
			return true;
	return false;
}

static void gap_sentence(struct report *r, const char *lead, const struct cand *c)
{
	char q[48];
	fmt_ratio(c->ratio, q, sizeof(q));
	summary_add(r, fmt_str("%son %s, %s did %s the %s of %s.", lead,
				 r->groups[c->g].words, r->devs[c->fast].display, q,
				 c->bw ? "MB/s" : "IOPS", r->devs[c->slow].display));
}

/* "; no significant difference on 2: 4K random reads and 1M sequential
 * writes" (named up to 3):
 * the undecided workloads of device d that ran once (once) or not. */
static void ties_note(const struct report *r, size_t d, const struct cand *cands,
		      size_t ncand, size_t ties, bool once, struct sbuf *b)
{
	sbuf_addf(b, once ? "; no verdict on %zu" : "; no significant difference on %zu", ties);
	if (ties > 3)
		return;
	size_t said = 0;
	for (size_t i = 0; i < ncand; i++) {
		const struct cand *c = &cands[i];
		if ((c->fast != d && c->slow != d) || cand_wins(c) || c->once != once)
			continue;
		sbuf_addf(b, "%s%s", said == 0 ? ": " : said + 1 == ties ? " and " : ", ",
			  r->groups[c->g].words);
		said++;
	}
}

/* The device and the baseline are one disk (the alert says so): the
 * largest difference between them is run-to-run variation, and no device
 * is named faster.  false when they are two disks. */
static bool same_disk_sentence(struct report *r, size_t d, const struct cand *cands,
			       size_t ncand)
{
	const char *what;
	if (!report_same_disk(r, d, r->baseline, &what))
		return false;
	const struct cand *big = NULL;
	for (size_t i = 0; i < ncand && !big; i++)
		if (cands[i].fast == d || cands[i].slow == d)
			big = &cands[i];
	char q[48];
	fmt_ratio(big->ratio, q, sizeof(q));
	bool model = r->devs[d].model != NULL;
	summary_add(r, fmt_str("%s and %s are one %s (%s), so what differs between "
			       "them is run-to-run variation, not a difference between devices: "
			       "the largest, %s on %s, is how far two runs on this machine can "
			       "differ. Neither is named faster.", r->devs[d].display,
			       r->devs[r->baseline].display, model ? "model device" : "device",
			       model ? "the same model keys" : what, q, r->groups[big->g].words));
	return true;
}

/* "1 workload", "2 workloads"; every one of them (all): "both workloads",
 * "all 3 workloads" (never "all 2") */
static void workloads_all(struct sbuf *b, size_t n, bool all)
{
	if (all && n == 2)
		sbuf_adds(b, "both workloads");
	else
		sbuf_addf(b, "%s%zu workload%s", all && n > 2 ? "all " : "", n,
			  n == 1 ? "" : "s");
}

/*
 * One device against the baseline: who wins how many workloads, the largest
 * gap in each direction (a summary listing one side's wins hides where the
 * baseline is faster), and a plain "mixed" sentence when both sides win
 * some.  A difference whose ratio interval reaches within 5 % of equal
 * (cand_wins) is a tie, and ties are named.  cands is sorted,
 * largest first.
 */
static void summary_device(struct report *r, size_t d, const struct cand *cands,
			   size_t ncand, size_t *used, size_t *nused)
{
	const size_t base = r->baseline;
	const struct cand *best_win = NULL, *best_loss = NULL;
	size_t wins = 0, losses = 0, ties = 0, once = 0;
	const char *dn = r->devs[d].display, *bn = r->devs[base].display;
	char q[48];

	for (size_t i = 0; i < ncand; i++) {
		const struct cand *c = &cands[i];
		if (c->fast != d && c->slow != d)
			continue;
		if (!cand_wins(c)) {
			/* a single run has no interval: undecided, not a tie (a
			 * 3x gap measured once is no tie) */
			ties += !c->once;
			once += c->once;
		}
		else if (c->fast == d) {
			wins++;
			if (!best_win)
				best_win = c;
		} else {
			losses++;
			if (!best_loss)
				best_loss = c;
		}
	}
	size_t total = wins + losses + ties + once;
	if (!total)
		return;
	if (same_disk_sentence(r, d, cands, ncand))
		return;
	struct sbuf b = SBUF_INIT;
	if (wins && losses) {
		fmt_ratio(best_loss->ratio, q, sizeof(q));
		sbuf_addf(&b, "The result is mixed: %s wins %zu of %zu workloads; %s wins ",
			  dn, wins, total, bn);
		if (losses <= 3) {
			size_t said = 0;
			for (size_t i = 0; i < ncand; i++) {
				const struct cand *c = &cands[i];
				if (c->fast != base || c->slow != d || !cand_wins(c))
					continue;
				sbuf_addf(&b, "%s%s", said == 0 ? "" : said + 1 == losses ? " and " : ", ",
					  r->groups[c->g].words);
				said++;
			}
		} else {
			sbuf_addf(&b, "%zu", losses);
		}
		sbuf_addf(&b, ", by up to %s", q);
	} else if (wins || losses) {
		if (ties || once) {
			sbuf_addf(&b, "%s is faster on %zu of %zu workloads", wins ? dn : bn,
				  wins + losses, total);
		} else {
			sbuf_addf(&b, "%s is faster on ", wins ? dn : bn);
			workloads_all(&b, total, true);
		}
	} else if (once == total) {
		/* single runs: no interval, so no claim either way */
		sbuf_addf(&b, "No difference between %s and %s is shown to be "
			  "significant: every workload ran once, so there is no confidence "
			  "interval to tell a difference from noise", dn, bn);
		once = 0;
	} else if (!once) {
		/* "on either workload", "on any of the 3": never "show no
		 * significant difference on both workloads" */
		sbuf_addf(&b, "%s and %s show no significant difference on ", dn, bn);
		if (ties == 1)
			sbuf_adds(&b, "the one workload");
		else if (ties == 2)
			sbuf_adds(&b, "either workload");
		else
			sbuf_addf(&b, "any of the %zu workloads", ties);
	} else {
		sbuf_addf(&b, "%s and %s show no significant difference on %zu of %zu workloads",
			  dn, bn, ties, total);
	}
	if (ties && (wins || losses))
		ties_note(r, d, cands, ncand, ties, false, &b);
	if (ties)
		sbuf_adds(&b, " (the 95 % confidence interval of the ratio reaches "
			  "within 5 % of equal: a tie or a difference too noisy to tell)");
	if (once) {
		ties_note(r, d, cands, ncand, once, true, &b);
		sbuf_addf(&b, " (%s once, so no confidence interval decides %s)",
			  once == 1 ? "it ran" : "each ran", once == 1 ? "it" : "them");
	}
	sbuf_adds(&b, ".");
	summary_add(r, sbuf_detach(&b));
	if (best_win && !words_used(r, used, *nused, best_win->g)) {
		char lead[300];
		snprintf(lead, sizeof(lead), "The largest gap in favour of %s: ", dn);
		gap_sentence(r, lead, best_win);
		used[(*nused)++] = best_win->g;
	}
	if (best_loss && !words_used(r, used, *nused, best_loss->g)) {
		char lead[300];
		snprintf(lead, sizeof(lead), "The largest gap in favour of %s: ", bn);
		gap_sentence(r, lead, best_loss);
		used[(*nused)++] = best_loss->g;
	}
}

/* A workload two devices ran, both cells whole, that cands_build left out
 * because one of them completed no IO (an IOPS of 0: the warnings say
 * which). */
static bool noio_pair(const struct report *r)
{
	for (size_t gi = 0; gi < r->ngroups; gi++) {
		const struct rgroup *g = &r->groups[gi];
		for (size_t k = 0; k < g->n; k++) {
			if (!g->e[k].cell->ok || rentry_iops(&g->e[k]) > 0)
				continue;
			for (size_t j = 0; j < g->n; j++)
				if (g->e[j].cell->ok && rentry_iops(&g->e[j]) > 0 &&
				    g->e[j].dev != g->e[k].dev)
					return true;
		}
	}
	return false;
}

/* One candidate per workload and device that ran it beside the baseline,
 * unjudged.  0, -1 out of memory. */
static int cands_build(const struct report *r, struct cand **out, size_t *n)
{
	size_t alloc = 0;
	const size_t base = r->baseline;
	*out = NULL;
	*n = 0;
	for (size_t gi = 0; gi < r->ngroups; gi++) {
		const struct rentry *be = group_entry(&r->groups[gi], base);
		if (!be || !be->cell->ok)
			continue;
		for (size_t k = 0; k < r->groups[gi].n; k++) {
			const struct rentry *e = &r->groups[gi].e[k];
			if (e->dev == base || !e->cell->ok ||
			    !(rentry_iops(be) > 0 && rentry_iops(e) > 0))
				continue;
			if (*n == alloc) {
				alloc = alloc ? alloc * 2 : 32;
				struct cand *p = realloc(*out, alloc * sizeof(*p));
				if (!p)
					return -1;
				*out = p;
			}
			struct cand *c = &(*out)[(*n)++];
			memset(c, 0, sizeof(*c));
			c->g = gi;
			c->e = e;
			c->be = be;
			c->bw = cell_judged_by_bw(&e->cell->cell) && rentry_bw(e) > 0 &&
				rentry_bw(be) > 0;
			double di = c->bw ? rentry_bw(e) : rentry_iops(e);
			double bi = c->bw ? rentry_bw(be) : rentry_iops(be);
			c->fast = di >= bi ? e->dev : base;
			c->slow = di >= bi ? base : e->dev;
			c->ratio = di >= bi ? di / bi : bi / di;
			c->once = e->cell->nreps < 2 || be->cell->nreps < 2;
			const char *what;
			c->same_disk = report_same_disk(r, e->dev, base, &what);
		}
	}
	return 0;
}

/* The one verdict of each candidate, the family being every pair judged
 * (two disks, repetitions on both sides). */
static void cands_judge(const struct report *r, struct cand *cands, size_t n)
{
	size_t family = 0;
	for (size_t i = 0; i < n; i++) {
		const struct rset_cell *a = cands[i].e->cell, *b = cands[i].be->cell;
		family += !cands[i].same_disk && ratio_judgeable(b->nrepv, a->nrepv);
	}
	for (size_t i = 0; i < n; i++) {
		struct cand *c = &cands[i];
		const struct rset_cell *a = c->e->cell, *b = c->be->cell;
		struct ratio_ci ci;
		if (c->same_disk)
			continue;
		enum ratio_verdict v = ratio_verdict(c->bw ? b->rep_bw : b->rep_iops, b->nrepv,
						     c->bw ? a->rep_bw : a->rep_iops, a->nrepv,
						     family, SUMMARY_THRESHOLD, &ci);
		c->sig = (v == RATIO_UP && c->fast == c->e->dev) ||
			 (v == RATIO_DOWN && c->fast == r->baseline);
	}
}

void summary_compute_sentences(struct report *r)
{
	size_t ncand = 0, nused = 0;
	struct cand *cands = NULL;
	size_t *used = NULL;
	const size_t base = r->baseline;

	/* a section may say it better (a fleet set reads as hosts, not as
	 * devices against a baseline) */
	for (size_t i = 0; r->sections[i]; i++)
		if (r->sections[i]->summary && r->sections[i]->summary(r))
			return;

	if (r->ndevs >= 2) {
		if (cands_build(r, &cands, &ncand) < 0)
			goto out;
		cands_judge(r, cands, ncand);
		if (ncand > 1) /* qsort(NULL, 0, ...) is undefined */
			qsort(cands, ncand, sizeof(*cands), cand_cmp);
		if (ncand == 0 && noio_pair(r))
			summary_add(r, fmt_str("No device is compared with another here: where "
						 "two ran one workload, one of them completed no "
						 "IO (see Warnings)."));
		else if (ncand == 0)
			summary_add(r, fmt_str("No workload ran with the same parameters on two "
						 "devices, so no device is compared with another here: "
						 "each table title says what its workload was."));
		used = calloc(ncand + 2 * r->ndevs + 4, sizeof(*used));
		if (!used)
			goto out;
		for (size_t d = 0; d < r->ndevs; d++)
			if (d != base)
				summary_device(r, d, cands, ncand, used, &nused);
		/* then up to two more large gaps, each on a pattern not yet named,
		 * so the summary covers reads, writes and mixes */
		size_t more = 0;
		for (size_t i = 0; i < ncand && more < 2; i++) {
			const struct cand *c = &cands[i];
			bool pat_seen = false;
			if (!cand_wins(c) || words_used(r, used, nused, c->g))
				continue;
			for (size_t k = 0; k < nused; k++)
				pat_seen |= r->groups[used[k]].proto->cell.pattern ==
					    r->groups[c->g].proto->cell.pattern;
			if (pat_seen)
				continue;
			gap_sentence(r, "", c);
			used[nused++] = c->g;
			more++;
		}
		/* "on 4K ..." starts a sentence: capitalise it */
		for (size_t i = 0; i < r->nsummary; i++)
			if (r->summary[i][0] == 'o')
				r->summary[i][0] = 'O';
		if (ncand > 0)
			summary_add(r, detail_sentence(r, &r->groups[cands[0].g]));
	}
	/* peaks per device */
	for (size_t d = 0; d < r->ndevs; d++) {
		const struct rgroup *gi_best = NULL, *gb_best = NULL;
		double bi = 0, bb = 0;
		for (size_t gi = 0; gi < r->ngroups; gi++) {
			const struct rentry *e = group_entry(&r->groups[gi], d);
			if (!e || !e->cell->ok)
				continue;
			if (rentry_iops(e) > bi) {
				bi = rentry_iops(e);
				gi_best = &r->groups[gi];
			}
			if (rentry_bw(e) > bb) {
				bb = rentry_bw(e);
				gb_best = &r->groups[gi];
			}
		}
		if (!gi_best || !gb_best) /* a set can hold IOPS without bandwidth */
			continue;
		char i1[48], b1[48];
		fmt_iops(bi, i1, sizeof(i1));
		fmt_sig3(bb / 1e6, b1, sizeof(b1));
		/* "best mean", not "peaked": a run's mean is not its peak, and a
		 * plateau sentence may name a faster first second of the same
		 * run; one workload that holds both is named once */
		if (gi_best == gb_best)
			summary_add(r, fmt_str("The best means of %s were %s IOPS and %s MB/s, "
						 "both on %s.", r->devs[d].display, i1, b1,
						 gi_best->words));
		else
			summary_add(r, fmt_str("The best means of %s were %s IOPS on %s and "
						 "%s MB/s on %s.", r->devs[d].display, i1,
						 gi_best->words, b1, gb_best->words));
	}
out:
	free(used);
	free(cands);
}

void report_summary_add(struct report *r, char *s)
{
	summary_add(r, s);
}
