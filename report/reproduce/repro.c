/*
 * repro.c - repro.h: a reproduction's verdicts workload by workload, and
 * the environment differences that could explain a miss, into struct
 * repro (its writers, for a terminal and a template, are repro_out.c's).
 */
#include "repro.h"

#include <fcntl.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "util/fsutil.h"
#include "util/array.h"
#include "util/sha256.h"
#include "resultset/schema.h"
#include "suite/keys.h"
#include "suite/workload.h"

const char *const repro_verdict_words[RV__N] = {
	"slower", "faster", "inconclusive", "too few repetitions", "reproduced",
};

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
	return array_add_str(&p->env, &p->nenv, s);
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
 * field; a field one side omits (the key table omits some at their
 * default: the random map, the reaping modes) is "absent (default)". */
static int env_param(struct repro *p, const char *key, const char *a, const char *b)
{
	char what[128];
	snprintf(what, sizeof(what), "parameter %s", key);
	for (size_t e = 0; e < p->nenv; e++)
		if (!strncmp(p->env[e], what, strlen(what)) && p->env[e][strlen(what)] == ':')
			return 0;
	return env_cmp(p, what, a ? a : "absent (default)", b ? b : "absent (default)");
}

/* The PARAMS fields of a cell as its file recorded them (the keys of
 * c->recorded), each as JSON text (suite/cell.h cell_param_texts), by
 * key: the fields of key k are f[k][0 .. n[k]). */
struct repro_params {
	struct cell_param_text f[NKEYS][2];
	int n[NKEYS];
};

static void repro_params_release(struct repro_params *rp)
{
	for (int k = 0; k < NKEYS; k++)
		for (int i = 0; i < rp->n[k]; i++)
			free(rp->f[k][i].text);
}

/* The fields of c's keys in mask (those it recorded). */
static int repro_params_get(const struct rset_cell *c, uint64_t mask, struct repro_params *rp)
{
	for (int k = 0; k < NKEYS; k++)
		rp->n[k] = 0;
	for (int k = 0; k < NKEYS; k++)
		if ((c->recorded & mask) >> k & 1 &&
		    (rp->n[k] = cell_param_texts(k, &c->cell, rp->f[k])) < 0) {
			rp->n[k] = 0;
			repro_params_release(rp);
			return -1;
		}
	return 0;
}

/* Key k's field named name in rp, NULL when the file had none. */
static const char *repro_params_text(const struct repro_params *rp, int k, const char *name)
{
	for (int i = 0; i < rp->n[k]; i++)
		if (!strcmp(rp->f[k][i].name, name))
			return rp->f[k][i].text;
	return NULL;
}

/* the label first, as cell_to_json writes it: the table's last key */
_Static_assert(K_LABEL == NKEYS - 1, "env_cell walks the label first, then keys 0..NKEYS-2");

/* Each parameter in which the two cells differ, either way round, in the
 * order of their files' params (the label, then the key table's): first
 * each field of the original that the reproduction lacks or records
 * otherwise, then each field only the reproduction has. */
static int env_cell(struct repro *p, const struct rset_cell *co, const struct rset_cell *cn)
{
	struct repro_params *side = calloc(2, sizeof(*side));
	int got = 0, ret = -1;
	uint64_t differ = 0;

	/* the keys both record alike (key_same: the writer's text is one)
	 * need no text: a reproduction's cells are mostly the original's */
	for (int k = 0; k < NKEYS; k++)
		if (!((co->recorded & cn->recorded) >> k & 1) || !key_same(k, &co->cell, &cn->cell))
			differ |= 1ULL << k;
	/* repro_params_get releases what it read when it fails */
	if (side && repro_params_get(co, differ, &side[got]) == 0 && ++got &&
	    repro_params_get(cn, differ, &side[got]) == 0 && ++got)
		ret = 0;
	for (int s = 0; s < 2 && !ret; s++)
		for (int i = 0; i < NKEYS && !ret; i++) {
			int k = i ? i - 1 : K_LABEL;
			for (int f = 0; f < side[s].n[k] && !ret; f++) {
				const struct cell_param_text *x = &side[s].f[k][f];
				const char *y = repro_params_text(&side[!s], k, x->name);
				if (y && (s == 1 || !strcmp(x->text, y)))
					continue;
				ret = env_param(p, x->name, s ? y : x->text, s ? x->text : y);
			}
		}
	while (got)
		repro_params_release(&side[--got]);
	free(side);
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
