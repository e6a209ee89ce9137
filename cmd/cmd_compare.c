/*
 * cmd_compare.c - `iomatrix compare OLD NEW [-o DIR] [--threshold PCT]
 * [--map OLD=NEW]... [--format md,html,json] [--fail-on-regression]`: pair
 * the workloads of two result sets by device and parameters and give each
 * pair ONE verdict, from its primary metric: the confidence interval of the
 * ratio new/old (Welch's t on the logs of the repetitions, Bonferroni over
 * the whole comparison, ratio.h) lies wholly beyond +-threshold (a
 * regression or an improvement), wholly within it (no change), or reaches
 * across a bound (inconclusive: the data can rule out neither).
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli.h"
#include "util/termesc.h"
#include "model/ratio.h"
#include "reproduce/repro.h"
#include "compare/sides.h"
#include "resultset/sums.h"
#include "util/fsutil.h"
#include "resultset/reprofile.h"
#include "resultset/resultset.h"
#include "model/report.h"
#include "render/template.h"
#include "render/outdir.h"
#include "render/tmplpath.h"
#include "sections.h"


static const struct option_spec compare_opts[] = {
	{ "-o", "--out --output", "DIR", .value = OPTV_DIR },
	{ "--threshold", NULL, "PCT" },
	{ "--map", NULL, "OLD=NEW", .flags = OPT_REPEAT },
	{ "--format", NULL, "md,html,json", .value = OPTV_WORDS,
	  .words = "md html json md,html,json" },
	{ "--fail-on-regression" },
	{ "--fail-on-inconclusive" },
	{ "--template", NULL, "DIR", .value = OPTV_DIR },
	{ NULL },
};

const struct command_spec compare_spec = {
	.name = "compare", .forms = { "OLD_SET NEW_SET" }, .opts = compare_opts,
	.operand = OPTV_DIR,
};

static void usage(FILE *f)
{
	optspec_usage(f, &compare_spec);
	fprintf(f,
		"\n"
		"Pair the workloads of two result sets (same device name and parameters)\n"
		"and give each pair one verdict from its primary metric: MB/s for blocks\n"
		"of 64 KiB and more, mean latency for latency cells (label starting LAT),\n"
		"IOPS otherwise.  The change is judged by the confidence interval of the\n"
		"ratio new/old (Welch's t on the logs of the repetitions; Bonferroni over\n"
		"every pair compared, family-wise 95 %%): a regression or an improvement\n"
		"when the whole interval lies beyond the threshold, \"no change\" when it\n"
		"lies within it, \"inconclusive\" otherwise: the data rule out neither,\n"
		"and more repetitions would tell.  With fewer than %d repetitions on\n"
		"either side there is no verdict (\"not enough repetitions to judge\").\n"
		"Writes compare.md, compare.html and compare.json to DIR (default\n"
		"NEW_SET/compare, derived output with its own SHA256SUMS: the set's own\n"
		"checksums, and so verify, list, history and site, are unchanged).\n\n"
		"  -o, --out DIR           where to write (--output also works)\n"
		"  --threshold PCT         smallest change that counts (default 5; when NEW\n"
		"                          reproduces OLD, the tolerance it recorded)\n"
		"  --map OLD=NEW           pair device OLD of the old set with NEW of the\n"
		"                          new set (repeatable; names may differ)\n"
		"  --format LIST           any of md,html,json (default: all)\n"
		"  --fail-on-regression    exit 3 when a regression is found\n"
		"  --fail-on-inconclusive  exit 4 when a change beyond the threshold is\n"
		"                          inconclusive (and no regression was found)\n"
		"  --template DIR          take compare.md.tmpl / compare.html.tmpl from DIR\n\n"
		"Exit: 0 compared; 2 bad usage or no workload matched; 3 regression with\n"
		"--fail-on-regression; 4 an inconclusive change beyond the threshold with\n"
		"--fail-on-inconclusive.\n", VERDICT_MIN_REPS);
}

enum verdict { V_WORSE, V_BETTER, V_INCONC, V_SAME, V_FEW, V__N };

static const char *const verdict_words[V__N] = {
	"regression", "improvement", "inconclusive", "no change",
	"not enough repetitions to judge",
};
static const char *const verdict_cls[V__N] = { "worse", "better", "few", "same", "few" };


struct cmp_row {
	const char *dev_old, *dev_new;  /* raw names */
	const char *workload;           /* group title */
	const struct rgroup *g;
	const struct rset_cell *co, *cn;
	enum metric primary;
	struct side s[2][M__N];          /* [old/new][metric] */
	double change[M__N];            /* percent */
	struct ratio_ci ci;             /* new/old of the primary metric */
	bool tested;
	enum verdict v;
};

/*
 * The verdicts: the one verdict (model/ratio.h) of each row's primary
 * metric, the family being every row that can be judged.  For latency a
 * lower value is better, so its ratio is read the other way round.
 */
static int judge_all(struct cmp_row *rows, size_t n, double threshold)
{
	size_t m = 0;
	for (size_t i = 0; i < n; i++) {
		struct cmp_row *r = &rows[i];
		for (int k = 0; k < M__N; k++) {
			double a = r->s[0][k].mean, b = r->s[1][k].mean;
			r->change[k] = a > 0 && isfinite(b) ? (b - a) / a * 100 : NAN;
		}
		r->tested = ratio_judgeable(r->s[0][r->primary].n, r->s[1][r->primary].n);
		m += r->tested;
	}
	for (size_t i = 0; i < n; i++) {
		struct cmp_row *r = &rows[i];
		const struct side *o = &r->s[0][r->primary], *nw = &r->s[1][r->primary];
		bool up_good = r->primary != M_LAT;
		switch (ratio_verdict(o->v, o->n, nw->v, nw->n, m, threshold / 100, &r->ci)) {
		case RATIO_UP: r->v = up_good ? V_BETTER : V_WORSE; break;
		case RATIO_DOWN: r->v = up_good ? V_WORSE : V_BETTER; break;
		case RATIO_SAME: r->v = V_SAME; break;
		case RATIO_FEW: r->v = V_FEW; break;
		default: r->v = V_INCONC; break;
		}
	}
	return 0;
}

/* An inconclusive row whose point estimate lies beyond the threshold: a
 * change the data neither show nor rule out. */
static bool inconclusive_beyond(const struct cmp_row *r, double threshold)
{
	return r->v == V_INCONC && fabs(r->change[r->primary]) >= threshold;
}

static int row_cmp(const void *a, const void *b)
{
	const struct cmp_row *x = a, *y = b;
	if (x->v != y->v)
		return (int)x->v - (int)y->v;
	double cx = fabs(x->change[x->primary]), cy = fabs(y->change[y->primary]);
	return cx < cy ? 1 : cx > cy ? -1 : 0;
}

/* ---- text ---- */

static void fmt_change(double pct, char *buf, size_t len)
{
	char v[32]; /* a 3-significant-digit number; keeps buf (48) from truncating */
	double a = fabs(pct);
	if (!isfinite(pct)) {
		snprintf(buf, len, "–");
		return;
	}
	if (a < 100)
		snprintf(v, sizeof(v), "%.1f", a);
	else
		fmt_sig3(a, v, sizeof(v));
	snprintf(buf, len, "%s%s %%", pct < 0 ? "−" : "+", v);
}

static void fmt_side(const struct side *s, enum metric m, double ldiv, char *buf, size_t len)
{
	double div = m == M_LAT ? ldiv : 1;
	double ci = side_ci95(s);
	fmt_stat(s->mean, ci, (int)s->n, div, buf, len);
}

/* Mapping of old device names to new ones (--map OLD=NEW). */
struct devmap {
	const char *old[64], *new[64];
	size_t n;
};

static const char *map_name(const struct devmap *mp, const char *old)
{
	for (size_t i = 0; i < mp->n; i++)
		if (!strcmp(mp->old[i], old))
			return mp->new[i];
	return old;
}

static void add_s(cJSON *o, const char *k, const char *v)
{
	cJSON_AddItemToObject(o, k, v ? cJSON_CreateString(v) : cJSON_CreateNull());
}

static cJSON *set_obj(const struct rset *rs, const char *label)
{
	cJSON *o = cJSON_CreateObject();
	char cells[64], date[32] = "?";
	add_s(o, "label", label);
	add_s(o, "dir", rs->dir);
	add_s(o, "host", rs->hostname);
	add_s(o, "suite", rs->suite_name ? rs->suite_name : "?");
	add_s(o, "sha256", rs->suite_sha256 ? rs->suite_sha256 : "unknown");
	add_s(o, "started_at", rs->started_at ? rs->started_at : "?");
	if (rs->started_at)
		snprintf(date, sizeof(date), "%.10s", rs->started_at);
	add_s(o, "date", date);
	add_s(o, "status", rs->status);
	snprintf(cells, sizeof(cells), "%zu/%d", rs->ncells, rs->cells_total);
	add_s(o, "cells", cells);
	if (rs->scale != 1) {
		char sc[32];
		snprintf(sc, sizeof(sc), "%g", rs->scale);
		add_s(o, "scale", sc);
	}
	return o;
}

/* One template row and one JSON row per workload pair. */
static void row_objs(const struct cmp_row *row, cJSON *trow, cJSON *jrow)
{
	char o[64], n[64], ch[64], other[256] = "", dev[300], metric[64];
	double lats[2] = { row->s[0][M_LAT].mean, row->s[1][M_LAT].mean }, ldiv;
	const char *lunit = fmt_lat_unit(lats, 2, &ldiv);
	enum metric pm = row->primary;

	fmt_side(&row->s[0][pm], pm, ldiv, o, sizeof(o));
	fmt_side(&row->s[1][pm], pm, ldiv, n, sizeof(n));
	fmt_change(row->change[pm], ch, sizeof(ch));
	if (pm == M_LAT)
		snprintf(metric, sizeof(metric), "mean latency (%s)", lunit);
	else
		snprintf(metric, sizeof(metric), "%s", metric_names[pm]);
	size_t ol = 0;
	for (int k = 0; k < M__N; k++) {
		char c2[48];
		/* IOPS and MB/s of one block size move together: one of them */
		if (k == (int)pm || (pm != M_LAT && k != M_LAT) || (pm == M_LAT && k == M_MBS))
			continue;
		fmt_change(row->change[k], c2, sizeof(c2));
		ol += (size_t)snprintf(other + ol, sizeof(other) - ol, "%s%s %s",
				       ol ? ", " : "", metric_names[k], c2);
	}
	if (strcmp(row->dev_old, row->dev_new))
		snprintf(dev, sizeof(dev), "%s → %s", row->dev_old, row->dev_new);
	else
		snprintf(dev, sizeof(dev), "%s", row->dev_old);
	add_s(trow, "device", dev);
	add_s(trow, "workload", row->workload);
	add_s(trow, "metric", metric);
	add_s(trow, "old", o);
	add_s(trow, "new", n);
	add_s(trow, "change", ch);
	add_s(trow, "other", other);
	char vw[160], ci[112];
	if (row->v == V_INCONC)
		snprintf(vw, sizeof(vw), "inconclusive (%s, %zu reps)", ch,
			 row->s[0][pm].n < row->s[1][pm].n ? row->s[0][pm].n : row->s[1][pm].n);
	else
		snprintf(vw, sizeof(vw), "%s", verdict_words[row->v]);
	add_s(trow, "verdict", vw);
	add_s(trow, "cls", verdict_cls[row->v]);
	if (row->tested && row->ci.ok) {
		char lo[48], hi[48];
		fmt_change((row->ci.lo - 1) * 100, lo, sizeof(lo));
		fmt_change((row->ci.hi - 1) * 100, hi, sizeof(hi));
		snprintf(ci, sizeof(ci), "%s … %s", lo, hi);
		add_s(trow, "p", ci);
	} else {
		add_s(trow, "p", "–");
	}
	if (row->v == V_WORSE)
		cJSON_AddTrueToObject(trow, "regression");

	add_s(jrow, "device_old", row->dev_old);
	add_s(jrow, "device_new", row->dev_new);
	add_s(jrow, "workload", row->workload);
	cJSON_AddNumberToObject(jrow, "cell_old", row->co->id);
	cJSON_AddNumberToObject(jrow, "cell_new", row->cn->id);
	add_s(jrow, "primary_metric", pm == M_IOPS ? "iops" : pm == M_MBS ? "mb_s" : "lat_mean_ns");
	static const char *const jk[M__N] = { "iops", "mb_s", "lat_mean_ns" };
	for (int k = 0; k < M__N; k++) {
		cJSON *m = cJSON_AddObjectToObject(jrow, jk[k]);
		for (int s = 0; s < 2; s++) {
			cJSON *sd = cJSON_AddObjectToObject(m, s ? "new" : "old");
			cJSON_AddNumberToObject(sd, "n", (double)row->s[s][k].n);
			if (row->s[s][k].n) {
				cJSON_AddNumberToObject(sd, "mean", row->s[s][k].mean);
				cJSON_AddNumberToObject(sd, "stddev", row->s[s][k].sd);
			}
		}
		if (isfinite(row->change[k]))
			cJSON_AddNumberToObject(m, "change_pct", row->change[k]);
	}
	if (row->tested && row->ci.ok) {
		cJSON_AddNumberToObject(jrow, "ratio", row->ci.ratio);
		cJSON_AddNumberToObject(jrow, "ratio_ci_low", row->ci.lo);
		cJSON_AddNumberToObject(jrow, "ratio_ci_high", row->ci.hi);
	}
	add_s(jrow, "verdict", verdict_words[row->v]);
}

struct copts {
	const char *out, *tdir, *format;
	const char *paths[2];
	double threshold;
	bool threshold_given;   /* --threshold on the command line */
	bool fail_on_reg, fail_on_inconc;
	struct devmap map;
};

static int parse_args(int argc, char **argv, struct copts *c)
{
	int npos = 0;
	for (int i = 1; i < argc; i++) {
		const char *a = argv[i];
		bool needs = cli_is_out(a) || !strcmp(a, "--threshold") ||
			     !strcmp(a, "--template") || !strcmp(a, "--map") || !strcmp(a, "--format");
		if (needs && i + 1 >= argc) {
			fprintf(stderr, "iomatrix: option '%s' needs a value\n", a);
			return -1;
		}
		if (cli_is_out(a)) {
			c->out = argv[++i];
		} else if (!strcmp(a, "--template")) {
			c->tdir = argv[++i];
		} else if (!strcmp(a, "--format")) {
			c->format = argv[++i];
		} else if (!strcmp(a, "--map")) {
			const char *v = argv[++i], *eq = strchr(v, '=');
			if (!eq || eq == v || !eq[1] || c->map.n >= 64) {
				fprintf(stderr, "iomatrix: bad --map '%s' (OLD=NEW: a device "
					"name of the old set, '=', one of the new set)\n", v);
				return -1;
			}
			char *o = strndup(v, (size_t)(eq - v));
			if (!o)
				return -1;
			c->map.old[c->map.n] = o;
			c->map.new[c->map.n++] = eq + 1;
		} else if (!strcmp(a, "--threshold")) {
			c->threshold_given = true;
			if (ratio_parse_threshold(argv[++i], &c->threshold) < 0)
				return -1;
		} else if (!strcmp(a, "--fail-on-inconclusive")) {
			c->fail_on_inconc = true;
		} else if (!strcmp(a, "--fail-on-regression")) {
			c->fail_on_reg = true;
		} else if (a[0] == '-' && a[1]) {
			fprintf(stderr, "iomatrix: unknown option '%s' (see 'iomatrix compare --help')\n", a);
			return -1;
		} else if (npos < 2) {
			c->paths[npos++] = a;
		} else {
			fprintf(stderr, "iomatrix: give exactly two result sets (OLD NEW)\n");
			return -1;
		}
	}
	if (npos != 2) {
		fprintf(stderr, "iomatrix: give two result sets: OLD NEW\n");
		usage(stderr);
		return -1;
	}
	for (const char *p = c->format; *p;) {
		size_t l = strcspn(p, ",");
		if (!((l == 2 && !strncmp(p, "md", 2)) || (l == 4 && !strncmp(p, "html", 4)) ||
		      (l == 4 && !strncmp(p, "json", 4)))) {
			fprintf(stderr, "iomatrix: unknown format '%.*s' (use md, html, json)\n",
				(int)l, p);
			return -1;
		}
		p += l + (p[l] == ',');
	}
	return 0;
}

static bool fmt_has(const char *list, const char *w)
{
	size_t wl = strlen(w);
	for (const char *p = list; *p;) {
		size_t l = strcspn(p, ",");
		if (l == wl && !strncmp(p, w, l))
			return true;
		p += l + (p[l] == ',');
	}
	return false;
}

/* Fleet devices are "host · name": a pair needs the same host too. */
static bool same_host_of(const struct rdev *a, const struct rdev *b)
{
	return (!a->host && !b->host) || (a->host && b->host && !strcmp(a->host, b->host));
}

/* Pair every old entry with the new entry its (mapped) name names. */
static int pair_rows(const struct report *r, const struct devmap *mp, cJSON *only_old,
		     cJSON *only_new, struct cmp_row **rows_out, size_t *nrows_out)
{
	struct cmp_row *rows = NULL;
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
				cJSON *o = cJSON_CreateObject();
				add_s(o, "device", dv->label ? dv->label : dv->name);
				add_s(o, "workload", g->title);
				cJSON_AddItemToArray(dv->set == 0 ? only_old : only_new, o);
				continue;
			}
			if (dv->set != 0)
				continue;
			const struct rset_cell *co = e->cell, *cn = pair->cell;
			if (!co->ok || !cn->ok) {
				cJSON *o = cJSON_CreateObject();
				add_s(o, "device", dv->label ? dv->label : dv->name);
				add_s(o, "workload", g->title);
				add_s(o, "why", !co->ok ? "failed in the old set" : "failed in the new set");
				cJSON_AddItemToArray(co->ok ? only_old : only_new, o);
				continue;
			}
			if (nrows == alloc) {
				alloc = alloc ? alloc * 2 : 32;
				struct cmp_row *p = realloc(rows, alloc * sizeof(*p));
				if (!p) {
					free(rows);
					return -1;
				}
				rows = p;
			}
			struct cmp_row *row = &rows[nrows++];
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
}

static int write_outputs(const struct copts *c, struct outdir *od, cJSON *ctx,
			 cJSON *json, struct tmpl *tmd, struct tmpl *thtml,
			 const char *css, struct errlist *errs)
{
	int rc = EXIT_OK;
	struct sbuf o = SBUF_INIT;
	if (fmt_has(c->format, "md") &&
	    (tmpl_render(tmd, ctx, ESC_MD, &o) < 0 ||
	     outdir_write(od, "compare.md", sbuf_str(&o), o.len, errs) < 0))
		rc = EXIT_RUNTIME;
	sbuf_reset(&o);
	if (fmt_has(c->format, "html")) {
		cJSON_AddStringToObject(ctx, "css", css);
		if (tmpl_render(thtml, ctx, ESC_HTML, &o) < 0 ||
		    outdir_write(od, "compare.html", sbuf_str(&o), o.len, errs) < 0)
			rc = EXIT_RUNTIME;
	}
	sbuf_release(&o);
	if (fmt_has(c->format, "json")) {
		char *s = cJSON_Print(json);
		if (!s || outdir_write(od, "compare.json", s, strlen(s), errs) < 0)
			rc = EXIT_RUNTIME;
		free(s);
	}
	return rc;
}

/* The template context and compare.json around the rows; the summary
 * sentence is left in buf for stdout. */
static void compare_fill(const struct report *r, const struct copts *c, const size_t *count,
			 size_t nrows, cJSON *ctx, cJSON *json, cJSON *jrows,
			 const cJSON *only_old, const cJSON *only_new, char *buf, size_t buflen)
{
	add_s(ctx, "version", iomatrix_version);
	cJSON_AddItemToObject(ctx, "old", set_obj(&r->sets[0], "old"));
	cJSON_AddItemToObject(ctx, "new", set_obj(&r->sets[1], "new"));
	snprintf(buf, buflen, "%g", c->threshold);
	add_s(ctx, "threshold", buf);
	snprintf(buf, buflen, "%zu workload%s compared: %zu regression%s, %zu improvement%s, "
		 "%zu with no change beyond %g %%, %zu inconclusive, %zu with too few "
		 "repetitions to judge", nrows, nrows == 1 ? "" : "s",
		 count[V_WORSE], count[V_WORSE] == 1 ? "" : "s", count[V_BETTER],
		 count[V_BETTER] == 1 ? "" : "s", count[V_SAME], c->threshold, count[V_INCONC],
		 count[V_FEW]);
	add_s(ctx, "summary", buf);
	const char *so = r->sets[0].suite_sha256, *sn = r->sets[1].suite_sha256;
	if (so && sn && strcmp(so, sn))
		add_s(ctx, "suite_note", "The two sets were made from different suite files "
		      "(sha256 differs): only workloads whose parameters match are compared.");
	cJSON *al = cJSON_AddArrayToObject(ctx, "alerts");
	for (size_t i = 0; i < r->nalerts; i++)
		cJSON_AddItemToArray(al, cJSON_CreateString(r->alerts[i]));
	cJSON *w = cJSON_AddArrayToObject(ctx, "warnings");
	for (size_t i = 0; i < r->nwarns; i++)
		cJSON_AddItemToArray(w, cJSON_CreateString(r->warns[i].text));

	cJSON_AddNumberToObject(json, "schema_version", 1);
	add_s(json, "kind", "iomatrix-compare");
	cJSON_AddItemToObject(json, "old", set_obj(&r->sets[0], "old"));
	cJSON_AddItemToObject(json, "new", set_obj(&r->sets[1], "new"));
	cJSON_AddNumberToObject(json, "threshold_pct", c->threshold);
	add_s(json, "method", "ratio of geometric means, Welch t on logs");
	add_s(json, "correction", "bonferroni");
	cJSON_AddNumberToObject(json, "alpha", VERDICT_ALPHA);
	cJSON_AddNumberToObject(json, "min_repetitions", VERDICT_MIN_REPS);
	cJSON *jc = cJSON_AddObjectToObject(json, "counts");
	for (int v = 0; v < V__N; v++)
		cJSON_AddNumberToObject(jc, verdict_words[v], (double)count[v]);
	cJSON_AddItemToObject(json, "rows", jrows);
	cJSON_AddItemToObject(json, "only_old", cJSON_Duplicate(only_old, 1));
	cJSON_AddItemToObject(json, "only_new", cJSON_Duplicate(only_new, 1));

}

/* The threshold of every verdict of this comparison: --threshold, else
 * when NEW reproduces OLD the tolerance the reproduction recorded (so
 * compare and reproduce judge its pairs alike), else the default. */
static double compare_threshold(const struct report *r, const struct copts *c)
{
	struct reproduces rs;

	if (c->threshold_given || !repro_of(r, 0, 1))
		return c->threshold;
	reprofile_get(r->sets[1].manifest, &rs);
	return rs.tolerance_pct > 0 ? rs.tolerance_pct : REPRO_DEFAULT_TOLERANCE_PCT;
}

/* NEW reproduces OLD (its manifest says so, by OLD's manifest hash): the
 * reproduction's verdicts too, by the one verdict at the comparison's
 * threshold, so its table and the main one never disagree about a pair,
 * into the context and compare.json.  1 with *rp filled (the caller
 * releases it), 0 when NEW is no reproduction of OLD, -1 when out of
 * memory. */
static int compare_repro(const struct report *r, double threshold, cJSON *ctx,
			 cJSON *json, struct repro *rp)
{
	if (!repro_of(r, 0, 1))
		return 0;
	if (repro_judge(r, 0, 1, threshold, rp) < 0)
		return -1;
	cJSON_AddItemToObject(ctx, "reproduction", repro_context(rp, r));
	cJSON_AddItemToObject(json, "reproduction", repro_context(rp, r));
	return 1;
}

/* Each --map names a device of its set: -1 with the fix printed when not. */
static int check_map(const struct report *r, const struct copts *c)
{
	for (size_t i = 0; i < c->map.n; i++) {
		bool fo = rset_device_find(&r->sets[0], c->map.old[i]) != NULL;
		bool fn = rset_device_find(&r->sets[1], c->map.new[i]) != NULL;
		for (size_t k = 0; k < r->sets[0].ncells && !fo; k++)
			fo = !strcmp(r->sets[0].cells[k].device, c->map.old[i]);
		for (size_t k = 0; k < r->sets[1].ncells && !fn; k++)
			fn = !strcmp(r->sets[1].cells[k].device, c->map.new[i]);
		if (!fo || !fn) {
			fprintf(stderr, "iomatrix: --map %s=%s: the %s set has no device '%s'\n",
				c->map.old[i], c->map.new[i], fo ? "new" : "old",
				fo ? c->map.new[i] : c->map.old[i]);
			return -1;
		}
	}
	return 0;
}

/* The sets' warnings on stderr, as text (termesc.h: they quote the sets). */
static void compare_warnings(const struct report *r)
{
	char wb[1400];

	for (size_t s = 0; s < r->nsets; s++)
		for (size_t i = 0; i < r->sets[s].warnings.n; i++)
			fprintf(stderr, "iomatrix: warning: %s\n",
				termesc(r->sets[s].warnings.msgs[i], wb, sizeof(wb)));
}

int cmd_compare(int argc, char **argv)
{
	struct copts c = { .format = "md,html,json", .threshold = 5 };
	static const char *const labels[2] = { "old", "new" };
	struct errlist errs = ERRLIST_INIT;
	struct report r;
	bool loaded = false;
	struct cmp_row *rows = NULL;
	size_t nrows = 0;
	struct tmpl *tmd = NULL, *thtml = NULL;
	char *css = NULL;
	struct outdir od = { .fd = -1 };
	cJSON *ctx = NULL, *json = NULL;
	struct repro rp;
	bool have_rp = false;
	int rc = EXIT_USAGE;

	if (cli_wants_help(argc, argv)) {
		usage(stdout);
		return EXIT_OK;
	}
	if (parse_args(argc, argv, &c) < 0)
		goto out;
	if (!(tmd = tmplpath_load("compare.md.tmpl", c.tdir, argv, &errs)) ||
	    !(thtml = tmplpath_load("compare.html.tmpl", c.tdir, argv, &errs)) ||
	    !(css = tmplpath_read("style.css", c.tdir, argv, &errs)))
		goto out_errs;

	rc = report_load_labelled(&r, (char **)c.paths, 2, labels, report_sections, &errs);
	loaded = true;
	compare_warnings(&r);
	if (rc)
		goto out_errs;
	if (check_map(&r, &c) < 0) {
		rc = EXIT_USAGE;
		goto out;
	}
	c.threshold = compare_threshold(&r, &c);

	ctx = cJSON_CreateObject();
	json = cJSON_CreateObject();
	if (!ctx || !json) {
		rc = EXIT_RUNTIME;
		goto out;
	}
	cJSON *only_old = cJSON_AddArrayToObject(ctx, "only_old");
	cJSON *only_new = cJSON_AddArrayToObject(ctx, "only_new");
	if (pair_rows(&r, &c.map, only_old, only_new, &rows, &nrows) < 0 ||
	    judge_all(rows, nrows, c.threshold) < 0) {
		rc = EXIT_RUNTIME;
		goto out;
	}
	/* a reproduction pairs its cells by plan id (repro.h), so at another
	 * --scale it is judged even when no workload matches by parameters */
	int rj = compare_repro(&r, c.threshold, ctx, json, &rp);
	if (rj < 0) {
		rc = EXIT_RUNTIME;
		goto out;
	}
	have_rp = rj > 0;
	if (nrows == 0 && !have_rp) {
		/* nothing compared is not "no regression": say so, write nothing */
		fprintf(stderr, "iomatrix: no workload of '%s' matches one of '%s' (a match "
			"needs the same device name and every result-changing parameter); pair "
			"differently named devices with --map OLD=NEW\n", c.paths[0], c.paths[1]);
		rc = EXIT_USAGE;
		goto out;
	}
	if (nrows > 1)
		qsort(rows, nrows, sizeof(*rows), row_cmp);

	size_t count[V__N] = { 0 };
	cJSON *trows = cJSON_AddArrayToObject(ctx, "rows");
	cJSON *jrows = cJSON_CreateArray();
	for (size_t i = 0; i < nrows; i++) {
		cJSON *t = cJSON_CreateObject(), *j = cJSON_CreateObject();
		count[rows[i].v]++;
		row_objs(&rows[i], t, j);
		cJSON_AddItemToArray(trows, t);
		cJSON_AddItemToArray(jrows, j);
	}

	char buf[512];
	compare_fill(&r, &c, count, nrows, ctx, json, jrows, only_old, only_new, buf, sizeof(buf));

	/* NEW/compare lives in a set that may come from anyone: never a link */
	int e = c.out ? outdir_open(&od, c.out, NULL, "compare", &errs) :
			outdir_open(&od, c.paths[1], "compare", "compare", &errs);
	if (e < 0) {
		rc = e == -1 ? EXIT_USAGE : EXIT_RUNTIME;
		goto out_errs;
	}
	rc = write_outputs(&c, &od, ctx, json, tmd, thtml, css, &errs);
	if (outdir_finish(&od, &errs) < 0)
		rc = EXIT_RUNTIME;
	/* its own SHA256SUMS: a set's list leaves compare/ out, and verify
	 * checks it apart from the measurement (resultset/sums.h) */
	int sr = rc == EXIT_OK ? sums_write_at(od.fd, 0) : 0;
	if (sr < 0) {
		errlist_add(&errs, NULL, 0, 0, "cannot write '%s/%s': %s", od.path,
			    SUMS_FILE, strerror(-sr));
		rc = EXIT_RUNTIME;
	}

	/* stdout: the verdict first, then every regression and improvement */
	printf("compare: old %s -> new %s\n", r.sets[0].dir, r.sets[1].dir);
	printf("%s\n", buf);
	if (have_rp)
		repro_print(&rp, &r, stdout);
	for (size_t i = 0; i < nrows; i++) {
		const struct cmp_row *row = &rows[i];
		char d0[256], wb[512];   /* the sets' names, as text (termesc.h) */
		if (row->v != V_WORSE && row->v != V_BETTER)
			continue;
		printf("  %-11s %s: %s, %s %+.1f %%\n", verdict_words[row->v],
		       termesc(row->dev_old, d0, sizeof(d0)), termesc(row->workload, wb, sizeof(wb)),
		       metric_names[row->primary], row->change[row->primary]);
	}
	int no = cJSON_GetArraySize(only_old), nn = cJSON_GetArraySize(only_new);
	if (no || nn)
		printf("%d workload%s only in old (or failed in new), %d only in new (or failed in old)\n",
		       no, no == 1 ? "" : "s", nn);
	if (rc == EXIT_OK)   /* "written" only when it is true */
		printf("written: %s/\n", od.path);
	if (rc == EXIT_OK && c.fail_on_reg && count[V_WORSE])
		rc = EXIT_REGRESSION;
	bool inconc = false;
	for (size_t i = 0; i < nrows; i++)
		inconc |= inconclusive_beyond(&rows[i], c.threshold);
	if (rc == EXIT_OK && c.fail_on_inconc && inconc)
		rc = EXIT_INCONCLUSIVE;
out_errs:
	for (size_t i = 0; i < errs.n; i++)
		fprintf(stderr, "iomatrix: %s\n", errs.msgs[i]);
out:
	if (have_rp)
		repro_release(&rp);
	cJSON_Delete(ctx);
	cJSON_Delete(json);
	free(rows);
	if (loaded)
		report_release(&r);
	for (size_t i = 0; i < c.map.n; i++)
		free((char *)c.map.old[i]);
	tmpl_free(tmd);
	tmpl_free(thtml);
	free(css);
	outdir_close(&od);
	errlist_release(&errs);
	return rc;
}
