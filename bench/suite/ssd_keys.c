/*
 * ssd_keys.c - parse and check the SNIA PTS keys of a suite (ssd_keys.h):
 * purge, precondition, rounds, steady_state.  Values are copied out of the
 * libyaml document; nothing keeps pointers into it.
 */
#include "ssd_keys.h"

#include <ctype.h>
#include <errno.h>
#include <math.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "util/suggest.h"
#include "util/units.h"

#define MiB (1024ULL * 1024)
#define ROUNDS_MAX_TRACK 16
#define ROUNDS_MAX_ROUNDS 1000
#define STEADY_MAX_WINDOW 100

static const char *scalar_of(const yaml_node_t *n)
{
	return n->type == YAML_SCALAR_NODE ? (const char *)n->data.scalar.value : NULL;
}

/* known: the allowed keys, NULL-terminated. */
static int unknown(const struct ykit *y, yaml_node_t *kn, const char *key,
		   const char *where, const char *const *known)
{
	char list[200] = "";
	const char *best = suggest_word(key, known);
	for (size_t i = 0; known[i]; i++)
		snprintf(list + strlen(list), sizeof(list) - strlen(list), "%s%s",
			 i ? ", " : "", known[i]);
	if (best)
		ykit_err(y, kn, "unknown key '%s' in '%s' (did you mean '%s'?)", key,
		    where, best);
	else
		ykit_err(y, kn, "unknown key '%s' in '%s'; use %s", key, where, list);
	return -1;
}

/* A whole number in [lo, hi]. */
static int get_uint(const struct ykit *y, yaml_node_t *vn, const char *what,
		    unsigned lo, unsigned hi, unsigned *out)
{
	const char *v = scalar_of(vn);
	char *end;
	if (!v || !isdigit((unsigned char)*v)) {
		ykit_err(y, vn, "'%s' must be a whole number %u..%u", what, lo, hi);
		return -1;
	}
	errno = 0;
	unsigned long u = strtoul(v, &end, 10);
	if (*end || errno || u < lo || u > hi) {
		ykit_err(y, vn, "'%s' %s is out of range %u..%u", what, v, lo, hi);
		return -1;
	}
	*out = (unsigned)u;
	return 0;
}

/* "20%" or "20": a share in (0, 100] percent, returned as a fraction. */
static int get_share(const struct ykit *y, yaml_node_t *vn, const char *what,
		     double *out)
{
	const char *v = scalar_of(vn);
	double pct;
	char *end;
	if (v && v[0] && v[strlen(v) - 1] == '%') {
		if (units_parse_percent(v, &pct) == 0) {
			*out = pct / 100.0;
			return 0;
		}
	} else if (v && (isdigit((unsigned char)*v) || *v == '.')) {
		pct = strtod(v, &end);
		if (!*end && pct > 0 && pct <= 100) {
			*out = pct / 100.0;
			return 0;
		}
	}
	ykit_err(y, vn, "'%s' %s is not a percentage in 0.01..100%% (e.g. 20%%)", what,
	    v ? v : "(a list or map)");
	return -1;
}

/* ---- purge -------------------------------------------------------------- */

int ssd_parse_purge(const struct ykit *y, yaml_node_t *vn, struct suite_device *d)
{
	const char *v = scalar_of(vn);
	d->purge_line = YLINE(vn);
	d->purge_col = YCOL(vn);
	if (v && !strcmp(v, "none")) {
		d->purge = PURGE_NONE;
		return 0;
	}
	if (v && !strcmp(v, "discard")) {
		d->purge = PURGE_DISCARD;
		return 0;
	}
	ykit_err(y, vn, "unknown purge '%s'; use none or discard (BLKDISCARD of the "
	    "whole block device)", v ? v : "(a list or map)");
	return -1;
}

/* ---- precondition ------------------------------------------------------- */

/* "2x", "1.5x" (times the file set or device) or a size. */
static int get_amount(const struct ykit *y, yaml_node_t *vn, struct precond_pass *p)
{
	const char *v = scalar_of(vn);
	size_t n = v ? strlen(v) : 0;
	char *end;
	if (n > 1 && (v[n - 1] == 'x' || v[n - 1] == 'X')) {
		double m = strtod(v, &end);
		if (end == v + n - 1 && m > 0 && m <= 100) {
			p->amount_mult = m;
			return 0;
		}
		ykit_err(y, vn, "'amount' %s: the multiple of the file set or device "
		    "must be in 0.01x..100x (e.g. 2x)", v);
		return -1;
	}
	if (v && units_parse_size(v, &p->amount_bytes) == 0 && p->amount_bytes > 0)
		return 0;
	ykit_err(y, vn, "'amount' %s is neither a multiple (2x) nor a size (64GiB)",
	    v ? v : "(a list or map)");
	return -1;
}

static int pass_pair(const struct ykit *y, const char *key, yaml_node_t *kn,
		     yaml_node_t *vn, void *arg)
{
	struct precond_pass *p = arg;
	const char *v = scalar_of(vn);
	if (!strcmp(key, "pattern")) {
		enum pattern pat;
		if (!v || pattern_parse(v, &pat) < 0 ||
		    (pat != PAT_WRITE && pat != PAT_RANDWRITE)) {
			ykit_err(y, vn, "preconditioning 'pattern' %s: it writes, so use "
			    "write (sequential) or randwrite", v ? v : "(not a value)");
			return -1;
		}
		p->pattern = pat;
		return 0;
	}
	if (!strcmp(key, "bs")) {
		if (!v || units_parse_size(v, &p->bs) < 0 || p->bs < 512 ||
		    p->bs > 64 * MiB || p->bs % 512) {
			ykit_err(y, vn, "preconditioning 'bs' %s must be a size 512B..64MiB, "
			    "a multiple of 512", v ? v : "(not a value)");
			return -1;
		}
		return 0;
	}
	if (!strcmp(key, "amount"))
		return get_amount(y, vn, p);
	if (!strcmp(key, "iodepth"))
		return get_uint(y, vn, "iodepth", 1, 1024, &p->iodepth);
	if (!strcmp(key, "jobs"))
		return get_uint(y, vn, "jobs", 1, 256, &p->jobs);
	static const char *const known[] = { "pattern", "bs", "amount", "iodepth",
					     "jobs", NULL };
	return unknown(y, kn, key, "precondition", known);
}

/* sequential: 2x at 128 KiB QD32; random adds 2x of 4 KiB random writes */
static void pass_default(struct precond_pass *p, bool random)
{
	memset(p, 0, sizeof(*p));
	p->pattern = random ? PAT_RANDWRITE : PAT_WRITE;
	p->bs = random ? 4096 : 128 * 1024;
	p->iodepth = 32;
	p->jobs = 1;
	p->amount_mult = 2;
}

int ssd_parse_precondition(const struct ykit *y, yaml_node_t *vn,
			   struct precondition *p)
{
	const char *v = scalar_of(vn);
	memset(p, 0, sizeof(*p));
	if (vn->type == YAML_MAPPING_NODE) {
		p->kind = PRECOND_CUSTOM;
		p->npass = 1;
		pass_default(&p->pass[0], false);
		return ymap_each(y, vn, "'precondition'", pass_pair, &p->pass[0]);
	}
	if (v && !strcmp(v, "none"))
		return 0;
	if (v && !strcmp(v, "sequential")) {
		p->kind = PRECOND_SEQUENTIAL;
		p->npass = 1;
		pass_default(&p->pass[0], false);
		return 0;
	}
	if (v && !strcmp(v, "random")) {
		p->kind = PRECOND_RANDOM;
		p->npass = 2;
		pass_default(&p->pass[0], false);
		pass_default(&p->pass[1], true);
		return 0;
	}
	ykit_err(y, vn, "unknown precondition '%s'; use none, sequential (2x in 128 KiB "
	    "sequential writes), random (sequential, then 2x 4 KiB random writes) "
	    "or a map {pattern, bs, amount, iodepth, jobs}", v ? v : "(a list)");
	return -1;
}

/* ---- steady_state and rounds -------------------------------------------- */

struct rule_arg {
	struct steady_rule *r;
	bool rounds;                 /* rounds: also metric and track */
	struct suite_rounds *sr;
	struct track_pos **pos;
	yaml_node_t *max_node, *window_node;
};

static int tracks_parse(const struct ykit *y, yaml_node_t *vn, struct rule_arg *a)
{
	size_t n = vn->type == YAML_SEQUENCE_NODE ?
		(size_t)(vn->data.sequence.items.top - vn->data.sequence.items.start) : 0;
	if (vn->type != YAML_SEQUENCE_NODE || n == 0 || n > ROUNDS_MAX_TRACK) {
		ykit_err(y, vn, "'track' must be a list of 1..%d cell labels "
		    "(e.g. [\"RND4K Q16T2 R0\"])", ROUNDS_MAX_TRACK);
		return -1;
	}
	free(a->sr->track);
	free(*a->pos);
	a->sr->track = calloc(n, sizeof(*a->sr->track));
	*a->pos = calloc(n, sizeof(**a->pos));
	a->sr->ntrack = 0;
	if (!a->sr->track || !*a->pos)
		return -1;
	int rc = 0;
	for (size_t i = 0; i < n; i++) {
		yaml_node_t *en = yaml_document_get_node(y->doc,
				vn->data.sequence.items.start[i]);
		const char *v = en ? scalar_of(en) : NULL;
		if (!v || !*v || strlen(v) >= CELL_LABEL_MAX) {
			if (en)
				ykit_err(y, en, "a 'track' entry must be a cell label "
				    "(1..%d characters)", CELL_LABEL_MAX - 1);
			rc = -1;
			continue;
		}
		snprintf(a->sr->track[a->sr->ntrack], CELL_LABEL_MAX, "%s", v);
		(*a->pos)[a->sr->ntrack].line = YLINE(en);
		(*a->pos)[a->sr->ntrack].col = YCOL(en);
		a->sr->ntrack++;
	}
	return rc;
}

static int rule_pair(const struct ykit *y, const char *key, yaml_node_t *kn,
		     yaml_node_t *vn, void *arg)
{
	struct rule_arg *a = arg;
	const char *v = scalar_of(vn);
	if (!strcmp(key, "window")) {
		a->window_node = vn;
		return get_uint(y, vn, "window", 2, STEADY_MAX_WINDOW, &a->r->window);
	}
	if (!strcmp(key, "max")) {
		a->max_node = vn;
		return get_uint(y, vn, "max", 2, ROUNDS_MAX_ROUNDS, &a->r->max);
	}
	if (!strcmp(key, "range"))
		return get_share(y, vn, "range", &a->r->range_frac);
	if (!strcmp(key, "slope"))
		return get_share(y, vn, "slope", &a->r->slope_frac);
	if (a->rounds && !strcmp(key, "metric")) {
		if (v && !strcmp(v, "iops"))
			a->sr->metric = SS_IOPS;
		else if (v && !strcmp(v, "bw"))
			a->sr->metric = SS_BW;
		else if (v && !strcmp(v, "lat_mean"))
			a->sr->metric = SS_LAT_MEAN;
		else {
			ykit_err(y, vn, "unknown metric '%s'; use iops, bw or lat_mean",
			    v ? v : "(not a value)");
			return -1;
		}
		return 0;
	}
	if (a->rounds && !strcmp(key, "track"))
		return tracks_parse(y, vn, a);
	static const char *const kr[] = { "max", "window", "range", "slope",
					  "metric", "track", NULL };
	static const char *const ks[] = { "window", "range", "slope", "max", NULL };
	return unknown(y, kn, key, a->rounds ? "rounds" : "steady_state",
		       a->rounds ? kr : ks);
}

static int rule_finish(const struct ykit *y, yaml_node_t *n, struct rule_arg *a,
		       const char *what)
{
	if (a->r->max < a->r->window) {
		ykit_err(y, a->max_node ? a->max_node : a->window_node ? a->window_node : n,
		    "'%s' max %u is below its window %u: steady state is judged over "
		    "a full window", what, a->r->max, a->r->window);
		return -1;
	}
	return 0;
}

int ssd_parse_steady(const struct ykit *y, yaml_node_t *vn, struct steady_rule *r)
{
	struct rule_arg a = { .r = r };
	steady_rule_init(r);
	if (ymap_each(y, vn, "'steady_state'", rule_pair, &a) < 0)
		return -1;
	return rule_finish(y, vn, &a, "steady_state");
}

int ssd_parse_rounds(const struct ykit *y, yaml_node_t *vn,
		     struct suite_rounds *r, struct track_pos **pos)
{
	struct rule_arg a = { .r = &r->rule, .rounds = true, .sr = r, .pos = pos };
	ssd_rounds_release(r);
	steady_rule_init(&r->rule);
	r->on = true;
	int rc = ymap_each(y, vn, "'rounds'", rule_pair, &a);
	if (rc == 0 && !r->ntrack) {
		ykit_err(y, vn, "'rounds' needs 'track': the labels of the cells whose "
		    "steady state is judged (e.g. track: [\"RND4K Q16T2 R0\"])");
		rc = -1;
	}
	if (rc == 0)
		rc = rule_finish(y, vn, &a, "rounds");
	return rc;
}

void ssd_rounds_release(struct suite_rounds *r)
{
	free(r->track);
	memset(r, 0, sizeof(*r));
}

/* ---- checks on the expanded plan ---------------------------------------- */

void ssd_check_device(const struct ykit *y, const struct suite_device *d)
{
	struct stat st;
	size_t n = strlen(d->path);
	if (d->purge != PURGE_DISCARD)
		return;
	if (!d->destructive) {
		errlist_add(y->errs, y->file, d->purge_line, d->purge_col,
			    "'purge: discard' erases all of device '%s': it needs "
			    "'destructive: true' on the device (and --yes-destroy-data "
			    "on the command line)", d->name);
		return;
	}
	if ((n && d->path[n - 1] == '/') ||
	    (stat(d->path, &st) == 0 && !S_ISBLK(st.st_mode)))
		errlist_add(y->errs, y->file, d->purge_line, d->purge_col,
			    "'purge: discard' needs a block device, and '%s' of "
			    "device '%s' is not one; use purge: none for files",
			    d->path, d->name);
}

/* Closest label among a device's cells, for did-you-mean. */
static const char *closest_label(const struct suite *s, const char *dev,
				 const char *want)
{
	const char *best = NULL;
	size_t bestd = (size_t)-1;
	for (size_t i = 0; i < s->ncells; i++) {
		if (strcmp(s->cells[i].device, dev))
			continue;
		size_t d = suggest_distance(s->cells[i].label, want);
		if (d < bestd) {
			bestd = d;
			best = s->cells[i].label;
		}
	}
	return bestd <= 4 ? best : NULL;
}

void ssd_check_tracks(const struct ykit *y, const struct suite *s,
		      const struct track_pos *pos)
{
	if (!s->rounds.on)
		return;
	for (size_t t = 0; t < s->rounds.ntrack; t++) {
		const char *want = s->rounds.track[t];
		for (size_t d = 0; d < s->ndevices; d++) {
			const char *dev = s->devices[d].name;
			size_t n = 0;
			for (size_t i = 0; i < s->ncells; i++)
				n += !strcmp(s->cells[i].device, dev) &&
				     !strcmp(s->cells[i].label, want);
			if (n == 1)
				continue;
			if (n == 0) {
				const char *near = closest_label(s, dev, want);
				errlist_add(y->errs, y->file, pos[t].line, pos[t].col,
					    "'track' '%s' names no cell of device '%s'%s%s%s",
					    want, dev, near ? " (did you mean '" : "",
					    near ? near : "", near ? "'?)" : "");
			} else {
				errlist_add(y->errs, y->file, pos[t].line, pos[t].col,
					    "'track' '%s' names %zu cells of device '%s'; a "
					    "tracking variable is one cell: give it its own "
					    "'label' in an include entry", want, n, dev);
			}
			break; /* one message per entry */
		}
	}
}

void ssd_keys_help(FILE *f)
{
	fprintf(f,
		"\nDevice keys (SNIA PTS):\n"
		"  %-13s %-11s %s\n  %-13s %-11s %s\n"
		"\nSuite key:\n  %-13s %-11s %s\n",
		"purge", "none", "none | discard: BLKDISCARD the whole block device "
		"first (needs destructive: true and --yes-destroy-data)",
		"precondition", "none", "none | sequential (2x, 128 KiB, QD32) | random "
		"(sequential + 2x 4 KiB random) | {pattern, bs, amount: 2x|SIZE, "
		"iodepth, jobs}",
		"rounds", "none", "{max: 25, window: 5, range: 20%, slope: 10%, "
		"metric: iops|bw|lat_mean, track: [LABEL...]}: run the matrix round "
		"by round until the tracked cells are steady");
}
