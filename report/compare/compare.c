/*
 * compare.c - compare.h: pair the workloads of two sets and judge each
 * pair on its primary metric, into struct compare (its writers are
 * compare_out.c's and compare_ci.c's).
 */
#include "compare.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "util/array.h"
#include "util/termesc.h"
#include "util/cliopt.h"

const char *const compare_verdict_words[CMP__N] = {
	"regression", "improvement", "inconclusive", "no change",
	"not enough repetitions to judge",
};

/*
 * The verdicts: the one verdict (model/ratio.h) of each row's primary
 * metric, the family being every row that can be judged.  For latency a
 * lower value is better, so its ratio is read the other way round.
 */
static int judge_all(struct compare_row *rows, size_t n, double threshold)
{
	size_t m = 0;
	for (size_t i = 0; i < n; i++) {
		struct compare_row *r = &rows[i];
		for (int k = 0; k < M__N; k++) {
			double a = r->s[0][k].mean, b = r->s[1][k].mean;
			r->change[k] = a > 0 && isfinite(b) ? (b - a) / a * 100 : NAN;
		}
		r->tested = ratio_judgeable(r->s[0][r->primary].n, r->s[1][r->primary].n);
		m += r->tested;
	}
	for (size_t i = 0; i < n; i++) {
		struct compare_row *r = &rows[i];
		const struct side *o = &r->s[0][r->primary], *nw = &r->s[1][r->primary];
		bool up_good = r->primary != M_LAT;
		switch (ratio_verdict(o->v, o->n, nw->v, nw->n, m, threshold / 100, &r->ci)) {
		case RATIO_UP: r->v = up_good ? CMP_BETTER : CMP_WORSE; break;
		case RATIO_DOWN: r->v = up_good ? CMP_WORSE : CMP_BETTER; break;
		case RATIO_SAME: r->v = CMP_SAME; break;
		case RATIO_FEW: r->v = CMP_FEW; break;
		default: r->v = CMP_INCONC; break;
		}
	}
	return 0;
}

/* An inconclusive row whose point estimate lies beyond the threshold: a
 * change the data neither show nor rule out. */
static bool inconclusive_beyond(const struct compare_row *r, double threshold)
{
	return r->v == CMP_INCONC && fabs(r->change[r->primary]) >= threshold;
}

static int row_cmp(const void *a, const void *b)
{
	const struct compare_row *x = a, *y = b;
	if (x->v != y->v)
		return (int)x->v - (int)y->v;
	double cx = fabs(x->change[x->primary]), cy = fabs(y->change[y->primary]);
	return cx < cy ? 1 : cx > cy ? -1 : 0;
}

static const char *map_name(const struct compare_map *mp, const char *old)
{
	for (size_t i = 0; i < mp->n; i++)
		if (!strcmp(mp->old[i], old))
			return mp->new[i];
	return old;
}

/* Fleet devices are "host · name": a pair needs the same host too. */
static bool same_host_of(const struct rdev *a, const struct rdev *b)
{
	return (!a->host && !b->host) || (a->host && b->host && !strcmp(a->host, b->host));
}

/* A workload of side sd (0 old, 1 new) alone: why NULL when nothing
 * paired with it, else in which set its pair failed.  0, or -1 when out
 * of memory. */
static int only_add(struct compare *c, size_t alloc[2], int sd, const struct rdev *dv,
		    const char *workload, const char *why)
{
	struct compare_only *p = array_grow(c->only[sd], &alloc[sd], c->nonly[sd], sizeof(*p), 16);
	if (!p)
		return -1;
	c->only[sd] = p;
	p[c->nonly[sd]++] = (struct compare_only){ dv->label ? dv->label : dv->name, workload, why };
	return 0;
}

/* Pair every old entry with the new entry its (mapped) name names; the
 * rest into c->only. */
static int pair_rows(const struct report *r, const struct compare_map *mp, struct compare *c,
		     struct compare_row **rows_out, size_t *nrows_out)
{
	size_t oalloc[2] = { 0, 0 };
	struct compare_row *rows = NULL;
	size_t nrows = 0, alloc = 0;

	for (size_t gi = 0; gi < r->ngroups; gi++) {
		const struct rgroup *g = &r->groups[gi];
		for (size_t k = 0; k < g->n; k++) {
			const struct rentry *e = &g->e[k];
			const struct rdev *dv = &r->devs[e->dev];
			const struct rentry *pair = NULL;
			for (size_t m = 0; m < g->n; m++) {
				const struct rdev *d2 = &r->devs[g->e[m].dev];
				if (d2->set == dv->set)
					continue;
				const char *on = dv->set == 0 ? dv->name : d2->name;
				const char *nn = dv->set == 0 ? d2->name : dv->name;
				/* fleet: the same host too */
				if (!strcmp(map_name(mp, on), nn) &&
				    same_host_of(d2, dv))
					pair = &g->e[m];
			}
			if (!pair) {
				if (only_add(c, oalloc, dv->set != 0, dv, g->title, NULL) < 0)
					goto oom;
				continue;
			}
			if (dv->set != 0)
				continue;
			const struct rset_cell *co = e->cell, *cn = pair->cell;
			if (!co->ok || !cn->ok) {
				if (only_add(c, oalloc, !co->ok, dv, g->title, !co->ok ?
					     "failed in the old set" : "failed in the new set") < 0)
					goto oom;
				continue;
			}
			struct compare_row *p = array_grow(rows, &alloc, nrows, sizeof(*p), 32);
			if (!p)
				goto oom;
			rows = p;
			struct compare_row *row = &rows[nrows++];
			memset(row, 0, sizeof(*row));
			row->dev_old = dv->label ? dv->label : dv->name;
			row->dev_new = r->devs[pair->dev].label ? r->devs[pair->dev].label :
				       r->devs[pair->dev].name;
			row->workload = g->title;
			row->g = g;
			row->co = co;
			row->cn = cn;
			row->primary = primary_metric(co);
			cell_sides(co, row->s[0]);
			cell_sides(cn, row->s[1]);
			/* total against completion latency (a run against a
			 * fio import of clat) is no change: no latency side */
			if (co->lat_mean_kind != cn->lat_mean_kind)
				for (int sd = 0; sd < 2; sd++) {
					row->s[sd][M_LAT].n = 0;
					row->s[sd][M_LAT].mean = NAN;
				}
		}
	}
	*rows_out = rows;
	*nrows_out = nrows;
	return 0;
oom:
	free(rows);
	return -1;
}

/* The threshold of every verdict of this comparison: the one given, else
 * when NEW reproduces OLD the tolerance the reproduction recorded (so
 * compare and reproduce judge its pairs alike), else the default. */
static double compare_threshold(const struct report *r, double threshold, bool given)
{
	const struct rset_reproduces *rs = &r->sets[1].reproduces;

	if (given || !repro_of(r, 0, 1))
		return threshold;
	return rs->tolerance_pct > 0 ? rs->tolerance_pct : REPRO_DEFAULT_TOLERANCE_PCT;
}

/* Every --map name is a device of its set (or of its cells). */
static int map_check(const struct report *r, const struct compare_map *map,
		     struct errlist *errs)
{
	for (size_t i = 0; i < map->n; i++) {
		bool fo = rset_device_find(&r->sets[0], map->old[i]) != NULL;
		bool fn = rset_device_find(&r->sets[1], map->new[i]) != NULL;
		for (size_t k = 0; k < r->sets[0].ncells && !fo; k++)
			fo = !strcmp(r->sets[0].cells[k].cell.device, map->old[i]);
		for (size_t k = 0; k < r->sets[1].ncells && !fn; k++)
			fn = !strcmp(r->sets[1].cells[k].cell.device, map->new[i]);
		if (!fo || !fn) {
			errlist_add(errs, NULL, 0, 0, "--map %s=%s: the %s set has no device '%s'",
				    map->old[i], map->new[i], fo ? "new" : "old",
				    fo ? map->new[i] : map->old[i]);
			return -1;
		}
	}
	return 0;
}

/* The summary sentence, for stdout and the documents. */
static void compare_summary(struct compare *c)
{
	const size_t *count = c->count;
	size_t nrows = c->nrows;
	snprintf(c->summary, sizeof(c->summary), "%zu workload%s compared: %zu regression%s, "
		 "%zu improvement%s, %zu with no change beyond %g %%, %zu inconclusive, %zu "
		 "with too few repetitions to judge", nrows, nrows == 1 ? "" : "s",
		 count[CMP_WORSE], count[CMP_WORSE] == 1 ? "" : "s", count[CMP_BETTER],
		 count[CMP_BETTER] == 1 ? "" : "s", count[CMP_SAME], c->threshold,
		 count[CMP_INCONC], count[CMP_FEW]);
}

int compare_run(struct compare *c, const char *const paths[2], double threshold,
		bool threshold_given, const struct compare_map *map,
		const struct report_section *const *sections, struct errlist *errs)
{
	static const char *const labels[2] = { "old", "new" };

	memset(c, 0, sizeof(*c));
	int rc = report_load_labelled(&c->r, (char **)paths, 2, labels, sections, errs);
	c->loaded = true;
	if (rc)
		return rc;
	if (map_check(&c->r, map, errs) < 0)
		return EXIT_USAGE;
	threshold = c->threshold = compare_threshold(&c->r, threshold, threshold_given);
	if (pair_rows(&c->r, map, c, &c->rows, &c->nrows) < 0 ||
	    judge_all(c->rows, c->nrows, threshold) < 0)
		return EXIT_RUNTIME;
	/* NEW reproduces OLD (its manifest says so, by OLD's manifest
	 * hash): the reproduction's verdicts too, by the one verdict at the
	 * comparison's threshold, so its table and the main one never
	 * disagree about a pair.  A reproduction pairs its cells by plan id
	 * (repro.h), so at another --scale it is judged even when no
	 * workload matches by parameters. */
	if (repro_of(&c->r, 0, 1)) {
		if (repro_judge(&c->r, 0, 1, threshold, &c->rp) < 0)
			return EXIT_RUNTIME;
		c->have_rp = true;
	}
	if (c->nrows == 0 && !c->have_rp) {
		/* nothing compared is not "no regression": say so, write nothing */
		errlist_add(errs, NULL, 0, 0, "no workload of '%s' matches one of '%s' (a match "
			    "needs the same device name and every result-changing parameter); "
			    "pair differently named devices with --map OLD=NEW", paths[0], paths[1]);
		return EXIT_USAGE;
	}
	if (c->nrows > 1)
		qsort(c->rows, c->nrows, sizeof(*c->rows), row_cmp);
	for (size_t i = 0; i < c->nrows; i++) {
		c->count[c->rows[i].v]++;
		c->inconclusive_beyond |= inconclusive_beyond(&c->rows[i], threshold);
	}
	compare_summary(c);
	return EXIT_OK;
}

void compare_print(const struct compare *c, FILE *f)
{
	char o[512], n[512];
	fprintf(f, "compare: old %s -> new %s\n", termesc(c->r.sets[0].shown, o, sizeof(o)),
		termesc(c->r.sets[1].shown, n, sizeof(n)));
	termesc_puts(f, NULL, c->summary);
	if (c->have_rp)
		repro_print(&c->rp, &c->r, f);
	for (size_t i = 0; i < c->nrows; i++) {
		const struct compare_row *row = &c->rows[i];
		if (row->v != CMP_WORSE && row->v != CMP_BETTER)
			continue;
		char d0[256], wb[512];   /* the sets' names, as text (termesc.h) */
		fprintf(f, "  %-11s %s: %s, %s %+.1f %%\n", compare_verdict_words[row->v],
			termesc(row->dev_old, d0, sizeof(d0)), termesc(row->workload, wb, sizeof(wb)),
			metric_names[row->primary], row->change[row->primary]);
	}
	size_t no = c->nonly[0], nn = c->nonly[1];
	if (no || nn)
		fprintf(f, "%zu workload%s only in old (or failed in new), %zu only in new (or failed in old)\n",
			no, no == 1 ? "" : "s", nn);
}

void compare_release(struct compare *c)
{
	if (c->have_rp)
		repro_release(&c->rp);
	free(c->only[0]);
	free(c->only[1]);
	free(c->rows);
	if (c->loaded)
		report_release(&c->r);
	memset(c, 0, sizeof(*c));
}
