/*
 * suite_expand.c - expand the matrix (suite_int.h): the cartesian product
 * on every device minus exclude, plus include, each cell resolved from
 * defaults, device and entry, checked (suite_check.c) and scaled.
 */
#include <ctype.h>
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "suite_int.h"

static void pset_apply(const struct pset *ps, struct cell *c, struct pos *p)
{
	for (int k = 0; k < NKEYS; k++)
		if (ps->set & (1ull << k)) {
			value_apply(k, &ps->v[k], c);
			p->line[k] = ps->v[k].line;
			p->col[k] = ps->v[k].col;
		}
}
/* Apply --scale: size (not below bs, multiple of bs), runtime, requests,
 * io_size, and ramp and cooldown too: --scale is for trying a big suite
 * quickly, and an unscaled 10 s pause after a 30 ms cell would make the
 * pauses the whole run (seed 002 at 0.01 took 4 minutes, 3.5 of them idle).
 * A scaled run is a rehearsal, not a measurement to publish. */
static void cell_scale(struct cell *c, double f, uint64_t grain)
{
	if (!(f > 0) || f == 1.0)
		return;
	if (c->size_pct) {
		c->size_pct *= f;
		if (c->size_pct > 100)
			c->size_pct = 100;
	} else {
		uint64_t s = (uint64_t)((double)c->size * f);
		/* whole MiB, or the device's largest power-of-two block size
		 * (grain) where that is more: cells of one device then share
		 * one file size (and its layout), and it reads "409 MiB" */
		uint64_t unit = grain % c->bs == 0 && s >= grain ? grain : c->bs;
		s -= s % unit;
		c->size = s < c->bs ? c->bs : s;
	}
	c->ramp_ns = (uint64_t)((double)c->ramp_ns * f);
	c->cooldown_ns = (uint64_t)((double)c->cooldown_ns * f);
	if (c->runtime_ns) {
		c->runtime_ns = (uint64_t)((double)c->runtime_ns * f);
		if (c->runtime_ns < 1000000ULL)
			c->runtime_ns = 1000000ULL;
	}
	if (c->requests) {
		c->requests = (uint64_t)((double)c->requests * f);
		if (!c->requests)
			c->requests = 1;
	}
	if (c->io_size) {
		uint64_t s = (uint64_t)((double)c->io_size * f);
		s -= s % c->bs;
		c->io_size = s < c->bs ? c->bs : s;
	}
}

static bool excluded(const struct ctx *x, const struct cell *c)
{
	for (size_t e = 0; e < x->nexcl; e++) {
		const struct excl *ex = &x->excl[e];
		bool all = ex->n > 0;
		for (size_t m = 0; m < ex->n && all; m++) {
			bool any = false;
			for (size_t v = 0; v < ex->m[m].n && !any; v++)
				any = ex->m[m].key < 0 ?
					!strcmp(ex->m[m].vals[v].s, c->device) :
					value_matches(ex->m[m].key, &ex->m[m].vals[v], c);
			all = any;
		}
		if (all)
			return true;
	}
	return false;
}

/* Does include entry in run on device d (its device list, or every
 * device)? */
static bool include_on(const struct incl *in, const struct dev *d)
{
	if (!in->devs)
		return true;
	for (size_t i = 0; i < in->ndevs; i++)
		if (!strcmp(in->devs[i], d->d.name))
			return true;
	return false;
}

/* Every device an include entry names is one of the suite's (checked
 * here, once all are known, wherever 'devices' stands in the file). */
static void include_devices_check(struct ctx *x)
{
	const char **words = calloc(x->ndevs + 1, sizeof(*words));
	char sug[96];
	for (size_t d = 0; words && d < x->ndevs; d++)
		words[d] = x->devs[d].d.name;
	for (size_t i = 0; words && i < x->nincl; i++)
		for (size_t k = 0; k < x->incl[i].ndevs; k++) {
			bool found = false;
			for (size_t d = 0; d < x->ndevs && !found; d++)
				found = !strcmp(x->devs[d].d.name, x->incl[i].devs[k]);
			if (found || !x->ndevs)
				continue;
			suite_suggest(x->incl[i].devs[k], words, sug, sizeof(sug));
			err_at(x, x->incl[i].dline, x->incl[i].dcol,
			       "unknown device '%s' in an 'include' entry%s", x->incl[i].devs[k],
			       sug[0] ? sug : "; give the name of one of the suite's devices");
		}
	free(words);
}

/* Resolve the cell of device d for matrix combination idx[] (or include
 * entry in when not NULL): defaults < matrix or include < device.  The device
 * wins because what it says is a fact about that device (no O_DIRECT on
 * tmpfs, psync only), which must hold in every one of its cells. */
static void cell_resolve(struct ctx *x, const struct dev *d, const size_t *idx,
			 const struct incl *in, struct cell *c, struct pos *p)
{
	cell_init(c);
	memset(p, 0, sizeof(*p));
	pset_apply(&x->defaults, c, p);
	if (in) {
		pset_apply(&in->ps, c, p);
	} else {
		for (size_t m = 0; m < x->nmatrix; m++) {
			const struct kval *v = &x->matrix[m].vals[idx[m]];
			value_apply(x->matrix[m].key, v, c);
			p->line[x->matrix[m].key] = v->line;
			p->col[x->matrix[m].key] = v->col;
		}
	}
	pset_apply(&d->ps, c, p);
	/* borrowed from the parse context; pointed at suite->devices once
	 * expansion is over (suite_load_buffer) */
	c->device = d->d.name;
	c->path = d->d.path;
	c->destructive = d->d.destructive;
	if (!c->label_given)
		cell_set_label_derived(c);
}

/* Next matrix combination, last key fastest; false when done. */
static bool odometer_next(const struct ctx *x, size_t *idx)
{
	for (size_t m = x->nmatrix; m-- > 0;) {
		if (++idx[m] < x->matrix[m].n)
			return true;
		idx[m] = 0;
	}
	return false;
}

void suite_expand(struct ctx *x, const struct suite_opts *opts)
{
	uint64_t raw = x->have_matrix ? 1 : 0;
	size_t *idx = NULL, kept = 0, total, n = 0;
	struct srcpos *src = NULL;
	struct cell c;
	struct pos p;
	unsigned ml = x->matrix_line, mc = x->matrix_col;

	/* raw combinations on all devices, before exclude: each is resolved
	 * and matched, so bound the work before doing it */
	uint64_t bound = SUITE_MAX_RAW_PRODUCT / (x->ndevs ? x->ndevs : 1);
	for (size_t m = 0; m < x->nmatrix; m++) {
		if (raw > bound / x->matrix[m].n) {
			err_at(x, ml, mc, "'matrix' expands to more than %llu combinations on %zu device%s before 'exclude'; split the suite",
			       (unsigned long long)SUITE_MAX_RAW_PRODUCT, x->ndevs,
			       x->ndevs == 1 ? "" : "s");
			return;
		}
		raw *= x->matrix[m].n;
	}
	idx = calloc(x->nmatrix + 1, sizeof(*idx));
	if (!idx)
		return;
	/* pass 1: count and check matrix cells */
	for (size_t d = 0; d < x->ndevs && raw; d++) {
		size_t dev_kept = 0;
		memset(idx, 0, (x->nmatrix + 1) * sizeof(*idx));
		do {
			cell_resolve(x, &x->devs[d], idx, NULL, &c, &p);
			if (excluded(x, &c))
				continue;
			dev_kept++;
			cell_check(x, &c, &p, ml, mc);
		} while (odometer_next(x, idx) && !x->too_many);
		if (!dev_kept && !x->partial)
			err_at(x, ml, mc, "the matrix is empty for device '%s': 'exclude' drops every cell",
			       x->devs[d].d.name);
		kept += dev_kept;
		if (kept > SUITE_MAX_CELLS)
			break;
	}
	size_t nincl_cells = 0;
	include_devices_check(x);
	for (size_t d = 0; d < x->ndevs; d++)
		for (size_t i = 0; i < x->nincl; i++) {
			if (!include_on(&x->incl[i], &x->devs[d]))
				continue;
			cell_resolve(x, &x->devs[d], NULL, &x->incl[i], &c, &p);
			cell_check(x, &c, &p, x->incl[i].line, x->incl[i].col);
			nincl_cells++;
		}
	for (size_t i = 0; i < x->nusage && !x->partial; i++) {
		char why[300];
		if (x->usage[i].used)
			continue;
		usage_text(x->usage[i].key, why, sizeof(why));
		err_at(x, x->usage[i].line, x->usage[i].col, "%s", why);
	}
	total = kept + nincl_cells;
	if (total > SUITE_MAX_CELLS) {
		err_at(x, ml ? ml : 1, ml ? mc : 1, "the suite expands to %zu cells, more than %d; split it",
		       total, SUITE_MAX_CELLS);
		goto out;
	}
	if (!total && !has_errors(x))
		err_at(x, 1, 1, "the suite has no cells: add a 'matrix' or an 'include'");
	if (has_errors(x))
		goto out;
	/* pass 2: fill in run order: for each device, matrix cells then includes */
	x->s->cells = calloc(total, sizeof(*x->s->cells));
	src = calloc(total, sizeof(*src));
	if (!x->s->cells || !src) {
		err_at(x, 0, 0, "out of memory for %zu cells", total);
		goto out;
	}
	for (size_t d = 0; d < x->ndevs; d++) {
		memset(idx, 0, (x->nmatrix + 1) * sizeof(*idx));
		if (raw) {
			do {
				cell_resolve(x, &x->devs[d], idx, NULL, &c, &p);
				if (excluded(x, &c))
					continue;
				src[n].line = ml;
				src[n].col = mc;
				x->s->cells[n++] = c;
			} while (odometer_next(x, idx));
		}
		for (size_t i = 0; i < x->nincl; i++) {
			if (!include_on(&x->incl[i], &x->devs[d]))
				continue;
			cell_resolve(x, &x->devs[d], NULL, &x->incl[i], &c, &p);
			src[n].line = x->incl[i].line;
			src[n].col = x->incl[i].col;
			x->s->cells[n++] = c;
		}
	}
	x->s->ncells = n;
	for (size_t i = 0; i < n; i++)
		x->s->cells[i].id = (int)i + 1;
	/* the matrix's values are in the cells now (48 bytes a value: 4.6 MiB
	 * of a 100,000-value list, held beside the cells at the peak of a big
	 * plan otherwise) */
	for (size_t m = 0; m < x->nmatrix; m++) {
		free(x->matrix[m].vals);
		x->matrix[m].vals = NULL;
		x->matrix[m].n = 0;
	}
	duplicates_check(x, src);
	if (opts && opts->scale > 0 && opts->scale != 1.0 && n) {
		/* the grain of each cell, before any is scaled: 1 MiB, or the
		 * largest power-of-two bs among the cells of the same device
		 * and file size */
		uint64_t *grain = calloc(n, sizeof(*grain));
		for (size_t i = 0; grain && i < n; i++) {
			const struct cell *ci = &x->s->cells[i];
			grain[i] = 1u << 20;
			for (size_t k = 0; k < n; k++) {
				const struct cell *o = &x->s->cells[k];
				if (!strcmp(o->device, ci->device) && o->size == ci->size &&
				    (o->bs & (o->bs - 1)) == 0 && o->bs > grain[i])
					grain[i] = o->bs;
			}
		}
		for (size_t i = 0; i < n; i++)
			cell_scale(&x->s->cells[i], opts->scale, grain ? grain[i] : (1u << 20));
		free(grain);
	}
out:
	free(src);
	free(idx);
}
