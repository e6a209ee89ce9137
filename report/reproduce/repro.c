/*
 * repro.c - repro.h: a reproduction's verdicts workload by workload, and
 * the environment differences that could explain a miss.
 */
#include "repro.h"

#include <fcntl.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "util/fsutil.h"
#include "util/sha256.h"
#include "util/termesc.h"
#include "resultset/rset_out.h"
#include "resultset/schema.h"
#include "util/jsonw.h"
#include "suite/workload.h"

const char *const repro_verdict_words[RV__N] = {
	"slower", "faster", "inconclusive", "too few repetitions", "reproduced",
};
static const char *const verdict_cls[RV__N] = { "worse", "better", "few", "few", "same" };

/* Each row's verdict: the one verdict (model/ratio.h) of its primary
 * metric, the family being every row that can be judged, as compare's;
 * for latency up is slower.  A row left inconclusive whose original alone
 * spreads beyond the tolerance is marked: its own repetitions were too
 * few to tell, whatever the reproduction measures. */
static void judge_rows(struct repro *p)
{
	size_t family = 0;
	double tol = p->tol_pct / 100;
	for (size_t i = 0; i < p->n; i++)
		family += ratio_judgeable(p->rows[i].o.n, p->rows[i].n.n);
	for (size_t i = 0; i < p->n; i++) {
		struct repro_row *w = &p->rows[i];
		bool up_good = w->m != M_LAT;
		switch (ratio_verdict(w->o.v, w->o.n, w->n.v, w->n.n, family, tol, &w->ci)) {
		case RATIO_UP: w->v = up_good ? RV_FASTER : RV_SLOWER; break;
		case RATIO_DOWN: w->v = up_good ? RV_SLOWER : RV_FASTER; break;
		case RATIO_SAME: w->v = RV_SAME; break;
		case RATIO_FEW: w->v = RV_FEW; break;
		default: w->v = RV_INCONC; break;
		}
		w->orig_spread = ratio_spread(w->o.v, w->o.n, family);
		w->orig_too_few = w->v == RV_INCONC && w->orig_spread > tol;
		p->count[w->v]++;
		p->orig_too_few += w->orig_too_few;
	}
}

static int add_row(struct repro *p, size_t *alloc, const struct rgroup *g,
		   const struct rentry *eo, const struct rentry *en, const char *dev)
{
	if (p->n == *alloc) {
		size_t na = *alloc ? *alloc * 2 : 16;
		struct repro_row *nr = realloc(p->rows, na * sizeof(*nr));
		if (!nr)
			return -1;
		p->rows = nr;
		*alloc = na;
	}
	struct repro_row *w = &p->rows[p->n++];
	struct side so[M__N], sn[M__N];
	memset(w, 0, sizeof(*w));
	w->device = dev;
	w->workload = g->title;
	w->m = primary_metric(eo->cell);
	cell_sides(eo->cell, so);
	cell_sides(en->cell, sn);
	w->o = so[w->m];
	w->n = sn[w->m];
	w->ratio = w->o.mean > 0 ? w->n.mean / w->o.mean : NAN;
	return 0;
}

static int env_add(struct repro *p, char *s)
{
	char **ne = s ? realloc(p->env, (p->nenv + 1) * sizeof(*ne)) : NULL;
	if (!ne) {
		free(s);
		return -1;
	}
	p->env = ne;
	p->env[p->nenv++] = s;
	return 0;
}

/* "what: A in the original, B here" when a and b differ (NULL is
 * "unknown"). */
static int env_cmp(struct repro *p, const char *what, const char *a, const char *b)
{
	if ((!a && !b) || (a && b && !strcmp(a, b)))
		return 0;
	if (!a) { /* an import records no fingerprint: one line for all */
		size_t l = strlen(p->unknown);
		snprintf(p->unknown + l, sizeof(p->unknown) - l, "%s%s", l ? ", " : "", what);
		return 0;
	}
	return env_add(p, fmt_str("%s: %s in the original, %s in the reproduction", what,
				  a ? a : "unknown", b ? b : "unknown"));
}

static int env_host(struct repro *p, const struct rset *o, const struct rset *n)
{
	static const char *const hk[][2] = {
		{ "kernel", "kernel" }, { "cpu_model", "CPU model" }, { "os", "OS" },
		{ "governor", "CPU governor" }, { "virtualization", "virtualization" },
	};
	for (size_t i = 0; i < sizeof(hk) / sizeof(hk[0]); i++)
		if (env_cmp(p, hk[i][1], rset_obj_str(&o->host, hk[i][0]),
			    rset_obj_str(&n->host, hk[i][0])) < 0)
			return -1;
	return env_cmp(p, "iomatrix version", rset_obj_str(&o->tool, "version"),
		       rset_obj_str(&n->tool, "version"));
}

static int env_devices(struct repro *p, const struct rset *o, const struct rset *n)
{
	static const char *const dk[][2] = {
		{ "kind", "kind" }, { "model", "model" }, { "firmware", "firmware" },
		{ "fs_type", "filesystem" }, { "mount_options", "mount options" },
		{ "scheduler", "IO scheduler" }, { "write_cache", "write cache" },
		{ "virtual_kind", "virtual device" },
	};
	char what[160];
	for (size_t i = 0; i < o->ndevices; i++) {
		const struct rset_device *dn = rset_device_find(n, o->devices[i].name);
		if (!dn)
			continue;
		for (size_t k = 0; k < sizeof(dk) / sizeof(dk[0]); k++) {
			snprintf(what, sizeof(what), "device %s %s", o->devices[i].name, dk[k][1]);
			if (env_cmp(p, what, rset_obj_str(&o->devices[i].fp, dk[k][0]),
				    rset_obj_str(&dn->fp, dk[k][0])) < 0)
				return -1;
		}
	}
	return 0;
}

/* The reproduction's entries by cell id, for rep_entry()'s bisection:
 * pairing every original cell by walking every group was n squared. */
struct rep_index {
	const struct rentry **e;
	size_t n;
};

static int rep_index_cmp(const void *a, const void *b)
{
	int x = (*(const struct rentry *const *)a)->cell->id;
	int y = (*(const struct rentry *const *)b)->cell->id;
	return x < y ? -1 : x > y;
}

static int rep_index_build(const struct report *r, size_t rep, struct rep_index *ix)
{
	size_t n = 0;
	for (size_t gi = 0; gi < r->ngroups; gi++)
		n += r->groups[gi].n;
	ix->n = 0;
	if (!(ix->e = calloc(n ? n : 1, sizeof(*ix->e))))
		return -1;
	for (size_t gi = 0; gi < r->ngroups; gi++)
		for (size_t k = 0; k < r->groups[gi].n; k++)
			if (r->devs[r->groups[gi].e[k].dev].set == rep)
				ix->e[ix->n++] = &r->groups[gi].e[k];
	qsort(ix->e, ix->n, sizeof(*ix->e), rep_index_cmp);
	return 0;
}

/* What a reproduction's cell must share with its original to be judged
 * at all: the shape of the workload.  Its other keys may differ (--scale
 * changes the size and the stop rule; a newer iomatrix may record a key
 * the original lacked): the pair is judged, and the environment
 * differences name each key in which the two are not one workload. */
#define REPRO_SHAPE (WORKLOAD_KEY(K_PATTERN) | WORKLOAD_KEY(K_BS) | \
		     WORKLOAD_KEY(K_IODEPTH) | WORKLOAD_KEY(K_JOBS))

/* The reproduction's cell of original cell c: the same id (one suite
 * expands to one plan, so ids agree) on the same device and of the same
 * shape (suite/workload.h, REPRO_SHAPE).  NULL when there is none. */
static const struct rentry *rep_entry(const struct rep_index *ix, const struct rset_cell *c)
{
	size_t lo = 0, hi = ix->n;
	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;
		if (ix->e[mid]->cell->id < c->id)
			lo = mid + 1;
		else
			hi = mid;
	}
	/* ids may repeat (a fleet set's hosts): the one of c's device */
	for (; lo < ix->n && ix->e[lo]->cell->id == c->id; lo++) {
		const struct rset_cell *x = ix->e[lo]->cell;
		if (strcmp(x->cell.device, c->cell.device))
			continue;
		if (!x->ok || !workload_same(&x->cell, &c->cell, REPRO_SHAPE))
			return NULL;
		return ix->e[lo];
	}
	return NULL;
}

/* "parameter KEY: A in the original, B in the reproduction", once per
 * key; a key one side omits (the key table omits some at their default:
 * the random map, the reaping modes) is "absent (default)". */
static char *value_text(const cJSON *v)
{
	return v ? cJSON_PrintUnformatted(v) : NULL;
}

static int env_param(struct repro *p, const char *key, const cJSON *x, const cJSON *y)
{
	char what[128];
	snprintf(what, sizeof(what), "parameter %s", key);
	for (size_t e = 0; e < p->nenv; e++)
		if (!strncmp(p->env[e], what, strlen(what)) && p->env[e][strlen(what)] == ':')
			return 0;
	char *a = value_text(x), *b = value_text(y);
	int ret = env_cmp(p, what, a ? a : "absent (default)", b ? b : "absent (default)");
	free(a);
	free(b);
	return ret;
}

/* Each parameter in which the two cells differ, either way round: their
 * params as the files recorded them (numbers equal within the larger's
 * epsilon, cJSON_Compare). */
static int env_cell(struct repro *p, const struct rset_cell *co, const struct rset_cell *cn)
{
	static const char *const skip[] = { "id", "path", "device" };
	cJSON *side[2] = { rset_cell_params_json(co), rset_cell_params_json(cn) };
	int ret = side[0] && side[1] ? 0 : -1;
	for (int k = 0; k < 2 && !ret; k++) {
		const cJSON *x;
		cJSON_ArrayForEach(x, side[k]) {
			const cJSON *y = cJSON_GetObjectItemCaseSensitive(side[!k], x->string);
			bool skipped = false;
			for (size_t i = 0; i < sizeof(skip) / sizeof(skip[0]); i++)
				skipped |= !strcmp(x->string, skip[i]);
			if (skipped || (y && cJSON_Compare(x, y, true)) || (k == 1 && y))
				continue;
			if (env_param(p, x->string, k ? y : x, k ? x : y) < 0) {
				ret = -1;
				break;
			}
		}
	}
	cJSON_Delete(side[0]);
	cJSON_Delete(side[1]);
	return ret;
}

static int env_params(struct repro *p, const struct report *r, const struct rep_index *ix)
{
	for (size_t gi = 0; gi < r->ngroups; gi++) {
		const struct rgroup *g = &r->groups[gi];
		for (size_t k = 0; k < g->n; k++) {
			const struct rentry *eo = &g->e[k], *en;
			if (r->devs[eo->dev].set != p->orig || !(en = rep_entry(ix, eo->cell)))
				continue;
			if (env_cell(p, eo->cell, en->cell) < 0)
				return -1;
		}
	}
	return 0;
}

int repro_judge(const struct report *r, size_t orig, size_t rep, double tol_pct,
		struct repro *p)
{
	size_t alloc = 0;
	struct rep_index ix = { NULL, 0 };

	memset(p, 0, sizeof(*p));
	p->tol_pct = tol_pct;
	p->orig = orig;
	p->rep = rep;
	if (rep_index_build(r, rep, &ix) < 0)
		goto oom;
	for (size_t gi = 0; gi < r->ngroups; gi++) {
		const struct rgroup *g = &r->groups[gi];
		for (size_t k = 0; k < g->n; k++) {
			const struct rdev *d = &r->devs[g->e[k].dev];
			const struct rentry *en;
			if (d->set != orig || !g->e[k].cell->ok || !(en = rep_entry(&ix, g->e[k].cell)))
				continue;
			if (add_row(p, &alloc, g, &g->e[k], en, d->name) < 0)
				goto oom;
		}
	}
	judge_rows(p);
	if (env_host(p, &r->sets[orig], &r->sets[rep]) < 0 ||
	    env_devices(p, &r->sets[orig], &r->sets[rep]) < 0 || env_params(p, r, &ix) < 0 ||
	    (p->unknown[0] && env_add(p, fmt_str("not recorded by the original, so not "
						  "comparable: %s", p->unknown)) < 0))
		goto oom;
	free(ix.e);
	return 0;
oom:
	free(ix.e);
	repro_release(p);
	return -1;
}

void repro_release(struct repro *p)
{
	for (size_t i = 0; i < p->nenv; i++)
		free(p->env[i]);
	free(p->env);
	free(p->rows);
	memset(p, 0, sizeof(*p));
}

bool repro_missed(const struct repro *p)
{
	return p->count[RV_SLOWER] || p->count[RV_FASTER];
}

/* " The original's own repetitions were too few to tell on 2 of them:
 * ..." when some were (else ""); caller frees. */
static char *too_few_note(const struct repro *p)
{
	double worst = 0;
	if (!p->orig_too_few)
		return fmt_str("%s", "");
	for (size_t i = 0; i < p->n; i++)
		if (p->rows[i].orig_too_few && p->rows[i].orig_spread > worst)
			worst = p->rows[i].orig_spread;
	return fmt_str(" The original's own repetitions were too few to tell on %zu of "
		       "them: their spread alone (up to ±%.0f %%) is wider than the ±%g %% "
		       "tolerance, so no reproduction of %s can be judged; rerun the original "
		       "with more repetitions on a quiet machine.", p->orig_too_few,
		       worst * 100, p->tol_pct, p->orig_too_few == 1 ? "it" : "them");
}

char *repro_sentence(const struct repro *p)
{
	if (!p->n)
		return fmt_str("No workload of the original was measured again: nothing to judge.");
	if (p->count[RV_SAME] == p->n && p->n == 1)
		return fmt_str("Reproduced: the workload is within ±%g %% of the original "
			       "(the 95 %% confidence interval of the ratio lies inside).",
			       p->tol_pct);
	if (p->count[RV_SAME] == p->n)
		return fmt_str("Reproduced: all %zu workloads within ±%g %% of the original "
			       "(the family-wise 95 %% confidence interval of each ratio lies "
			       "inside).", p->n, p->tol_pct);
	char *note = too_few_note(p);
	/* the headline follows the verdicts: with no workload shown slower or
	 * faster, what is not reproduced is undecided, not a miss */
	if (note && !repro_missed(p)) {
		char *u = fmt_str("Undecided within ±%g %%: %zu of %zu workload%s reproduced and "
				  "none shown slower or faster; %zu inconclusive (the interval of "
				  "the ratio reaches past ±%g %% without lying beyond it), %zu with "
				  "too few repetitions to judge.%s", p->tol_pct, p->count[RV_SAME],
				  p->n, p->n == 1 ? "" : "s", p->count[RV_INCONC], p->tol_pct,
				  p->count[RV_FEW], note);
		free(note);
		return u;
	}
	char *s = note ? fmt_str("Not reproduced within ±%g %%: %zu of %zu workload%s "
				 "reproduced, %zu slower, %zu faster, %zu inconclusive, %zu with "
				 "too few repetitions to judge.%s", p->tol_pct, p->count[RV_SAME],
				 p->n, p->n == 1 ? "" : "s", p->count[RV_SLOWER],
				 p->count[RV_FASTER], p->count[RV_INCONC], p->count[RV_FEW],
				 note) : NULL;
	free(note);
	return s;
}

/* "48,200 ± 1.2 %" of a side in the unit of its row's metric (latency
 * in the unit that suits both sides). */
static void fmt_side(const struct repro_row *w, const struct side *s, char *buf, size_t len)
{
	double lats[2] = { w->o.mean, w->n.mean }, div = 1;
	const char *unit = w->m == M_LAT ? fmt_lat_unit(lats, 2, &div) : NULL;
	fmt_stat(s->mean, side_ci95(s), (int)s->n, div, buf, len);
	if (unit) {
		strncat(buf, " ", len - strlen(buf) - 1);
		strncat(buf, unit, len - strlen(buf) - 1);
	}
}

static void fmt_ci(const struct repro_row *w, char *buf, size_t len)
{
	if (w->ci.ok)
		snprintf(buf, len, "%.3f … %.3f", w->ci.lo, w->ci.hi);
	else
		snprintf(buf, len, "–");
}

void repro_print(const struct repro *p, const struct report *r, FILE *f)
{
	char o[64], n[64], ci[64], d[128], w[256], a[512], b[512];
	char *s = repro_sentence(p);

	/* names and facts from the sets reach the terminal as text (termesc.h) */
	fprintf(f, "reproduce: original %s -> reproduction %s (tolerance ±%g %%)\n",
		termesc(r->sets[p->orig].dir, a, sizeof(a)),
		termesc(r->sets[p->rep].dir, b, sizeof(b)), p->tol_pct);
	for (size_t i = 0; i < p->n; i++) {
		const struct repro_row *row = &p->rows[i];
		fmt_side(row, &row->o, o, sizeof(o));
		fmt_side(row, &row->n, n, sizeof(n));
		fmt_ci(row, ci, sizeof(ci));
		fprintf(f, "  %-12s %s: %s, %s: original %s, reproduction %s, ratio %.3f (CI %s)\n",
			repro_verdict_words[row->v], termesc(row->device, d, sizeof(d)),
			termesc(row->workload, w, sizeof(w)), metric_names[row->m],
			o, n, row->ratio, ci);
	}
	fprintf(f, "%s\n", s ? termesc(s, a, sizeof(a)) : "");
	free(s);
	if (p->count[RV_SAME] != p->n) {
		if (!p->nenv)
			fprintf(f, "no difference between the two environments was recorded\n");
		else
			fprintf(f, "differences that could explain it:\n");
		for (size_t i = 0; i < p->nenv; i++)
			fprintf(f, "  %s\n", termesc(p->env[i], a, sizeof(a)));
	}
}

cJSON *repro_context(const struct repro *p, const struct report *r)
{
	cJSON *o = cJSON_CreateObject(), *rows, *env;
	char buf[96], a[64], b[64];
	char *s = repro_sentence(p);

	if (!o)
		return NULL;
	snprintf(buf, sizeof(buf), "%g", p->tol_pct);
	jsonw_text(o, "tolerance", buf);
	jsonw_text(o, "sentence", s);
	free(s);
	jsonw_text(o, "original", r->sets[p->orig].dir);
	jsonw_text(o, "reproduction", r->sets[p->rep].dir);
	rows = cJSON_AddArrayToObject(o, "rows");
	for (size_t i = 0; rows && i < p->n; i++) {
		const struct repro_row *w = &p->rows[i];
		cJSON *t = cJSON_CreateObject();
		fmt_side(w, &w->o, a, sizeof(a));
		fmt_side(w, &w->n, b, sizeof(b));
		jsonw_text(t, "device", w->device);
		jsonw_text(t, "workload", w->workload);
		jsonw_text(t, "metric", metric_names[w->m]);
		jsonw_text(t, "original", a);
		jsonw_text(t, "reproduction", b);
		snprintf(buf, sizeof(buf), "%.3f", w->ratio);
		jsonw_text(t, "ratio", buf);
		fmt_ci(w, buf, sizeof(buf));
		jsonw_text(t, "ci", buf);
		jsonw_text(t, "verdict", repro_verdict_words[w->v]);
		jsonw_text(t, "cls", verdict_cls[w->v]);
		cJSON_AddItemToArray(rows, t);
	}
	env = cJSON_AddArrayToObject(o, "env");
	for (size_t i = 0; env && i < p->nenv; i++)
		cJSON_AddItemToArray(env, cJSON_CreateString(p->env[i]));
	if (repro_missed(p))
		cJSON_AddTrueToObject(o, "missed");
	return o;
}

/* The last component of a directory path. */
static const char *base_of(const char *dir, char *buf, size_t len)
{
	size_t n, b = fsutil_last_component(dir, &n);
	snprintf(buf, len, "%.*s", (int)n, dir + b);
	return buf;
}

bool repro_of(const struct report *r, size_t orig, size_t rep)
{
	const struct rset_reproduces *rp = &r->sets[rep].reproduces;
	char path[4200], id[256], hex[65];
	size_t len;

	if (!rp->present || strcmp(rp->set, base_of(r->sets[orig].dir, id, sizeof(id))))
		return false;
	snprintf(path, sizeof(path), "%s/manifest.json", r->sets[orig].dir);
	char *buf = fsutil_read_at(AT_FDCWD, path, RESULTSET_MAX_FILE_BYTES, 0, &len);
	if (!buf)
		return false;
	sha256_hex(buf, len, hex);
	free(buf);
	return !strcmp(hex, rp->manifest_sha256);
}
