/*
 * render.c - turn the report model into the template context (cJSON, raw
 * strings: the template engine escapes them for Markdown or HTML), the CSV
 * file (RFC 4180, one row per cell x device x direction) and report.json,
 * and build the equivalent fio command of a cell.
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "util/version.h"
#include "util/units.h"
#include "escape.h"
#include "host/fpkeys.h"
#include "render.h"
#include "section_out.h"
#include "suite/fio_map.h"
#include "suite/keys.h"
#include "model/report.h"
#include "model/section.h"
#include "util/ramkind.h"
#include "util/jsonw.h"
#include "util/termesc.h"


/* Control characters (newlines) become spaces: one line, no fence break. */
static void one_line_str(struct sbuf *b)
{
	for (size_t i = 0; i < b->len; i++)
		if ((unsigned char)b->buf[i] < 0x20 || b->buf[i] == 0x7f)
			b->buf[i] = ' ';
}

/* ---- fio command ---- */

/* Does s hold a byte termesc would write as text (a control, a byte that
 * is not UTF-8)?  Such a string is written in $'...' below. */
static bool shq_needs_ansi(const char *s)
{
	struct sbuf t = SBUF_INIT;
	termesc_append_field(&t, s);
	bool differs = t.oom || strcmp(sbuf_str(&t), s) != 0;
	sbuf_release(&t);
	return differs;
}

/* Quote s for a shell: as is when plain, else single-quoted; a string
 * with a control character (a set's path holding ESC ] 2 ; ... BEL) in
 * bash's $'...', every such byte as \xNN, so the line stays one line of
 * text and copies back to the same bytes. */
static void shq(struct sbuf *b, const char *s)
{
	bool plain = *s != '\0';
	for (const char *p = s; *p; p++)
		if (!strchr("abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789_-./=:%,", *p))
			plain = false;
	if (plain) {
		sbuf_adds(b, s);
		return;
	}
	if (shq_needs_ansi(s)) {
		sbuf_adds(b, "$'");
		for (const unsigned char *p = (const unsigned char *)s; *p; p++) {
			if (*p == '\'' || *p == '\\')
				sbuf_addf(b, "\\%c", *p);
			else if (*p < 0x20 || *p >= 0x7f)
				sbuf_addf(b, "\\x%02x", *p);
			else
				sbuf_addc(b, (char)*p);
		}
		sbuf_addc(b, '\'');
		return;
	}
	sbuf_addc(b, '\'');
	for (; *s; s++) {
		if (*s == '\'')
			sbuf_adds(b, "'\\''");
		else
			sbuf_addc(b, *s);
	}
	sbuf_addc(b, '\'');
}

static void fio_opt_arg(void *arg, const char *key, const char *val)
{
	struct sbuf *b = arg;
	sbuf_addf(b, " --%s=", key);
	shq(b, val);
}

/* The cell as one fio command line: the same options as `iomatrix export
 * fio` writes (bench/suite/fio_map.c), shell-quoted. */
void report_fio_command(const struct rset_cell *rc, bool dir, struct sbuf *b)
{
	struct cell c;

	c = rc->cell;
	sbuf_addf(b, "fio --name=cell-%04d", rc->id);
	fio_map_cell(&c, dir, fio_opt_arg, b);
	sbuf_adds(b, " --output-format=json");
}

const char *report_fio_unlike(const struct rset_cell *rc, char *buf, size_t len)
{
	const char *why = fio_map_unlike(&rc->cell);
	if (why || !rc->inferred)
		return why;
	/* an import's guess: the job runs what was guessed */
	size_t n = (size_t)snprintf(buf, len, "the import inferred");
	for (int k = 0; k < NKEYS && n < len; k++)
		if (rc->inferred >> k & 1)
			n += (size_t)snprintf(buf + n, len - n, "%s %s", n > 19 ? "," : "",
					      cell_keys[k].name);
	if (n < len)
		snprintf(buf + n, len - n, "; the job runs those guesses");
	return buf;
}

char *report_set_command(const struct rset *rs)
{
	struct sbuf b = SBUF_INIT;

	if (!rs->ncommand)
		return NULL;
	sbuf_adds(&b, "iomatrix");
	for (size_t i = 0; i < rs->ncommand; i++) {
		sbuf_addc(&b, ' ');
		shq(&b, rs->command[i]);
	}
	one_line_str(&b);
	return sbuf_detach(&b);
}

bool rdev_is_dir(const struct rdev *d)
{
	return d->info && d->info->kind && !strcmp(d->info->kind, "directory");
}

/* ---- helpers ---- */

static const char *str_or(const struct rset_obj *o, const char *k, const char *def)
{
	const char *v = rset_obj_str(o, k);
	return v ? v : def;
}

/* The method's lines: one per Method label of the key table, in rank
 * order; keys that share a label share the line. */
struct mline {
	const char *label;
	int keys[NKEYS];
	int n;
};

static int mline_cmp(const void *pa, const void *pb)
{
	const struct mline *a = pa, *b = pb;
	unsigned ra = cell_keys[a->keys[0]].method_rank;
	unsigned rb = cell_keys[b->keys[0]].method_rank;
	return ra < rb ? -1 : ra > rb;
}

static size_t method_lines(struct mline *lines)
{
	size_t n = 0;
	for (int k = 0; k < NKEYS; k++) {
		const char *label = cell_keys[k].method;
		size_t l = 0;
		if (!label)
			continue;
		while (l < n && strcmp(lines[l].label, label))
			l++;
		if (l == n) {
			lines[n].label = label;
			lines[n++].n = 0;
		}
		lines[l].keys[lines[l].n++] = k;
	}
	qsort(lines, n, sizeof(*lines), mline_cmp);
	return n;
}

/* One cell's text of a method line.  A set written before the line's keys
 * existed says "not recorded" (false: nothing recorded); the options of
 * another engine say "none (not io_uring)". */
static bool mline_text(const struct rset_cell *rc, const struct mline *l, struct sbuf *b)
{
	const struct key *first = &cell_keys[l->keys[0]];
	sbuf_reset(b);
	if (!first->omit_default && !rset_cell_recorded(rc, l->keys[0])) {
		sbuf_adds(b, "not recorded");
		return false;
	}
	if (first->engine && strcmp(rc->cell.engine, first->engine)) {
		sbuf_addf(b, "none (not %s)", first->engine);
		return true;
	}
	/* the random offsets of an import that could not say sequential or
	 * random are not known either */
	for (int i = 0; i < l->n && (rc->inferred >> K_PATTERN & 1); i++)
		if (l->keys[i] == K_NORANDOMMAP || l->keys[i] == K_SEQ_SHARED) {
			sbuf_adds(b, "not recorded (sequential or random is not)");
			return true;
		}
	struct sbuf part = SBUF_INIT;
	for (int i = 0; i < l->n; i++) {
		sbuf_reset(&part);
		key_text(l->keys[i], &rc->cell, KEY_TEXT_METHOD, &part);
		if (!part.len) /* said by another key of the line */
			continue;
		if (l->n > 1)
			sbuf_addf(b, "%s%s ", b->len ? ", " : "", cell_keys[l->keys[i]].name);
		sbuf_adds(b, sbuf_str(&part));
		/* a value an importer inferred says so, and from what */
		const char *why = rc->inferred >> l->keys[i] & 1 ?
			rset_obj_str(&rc->inferred_why, cell_keys[l->keys[i]].name) : NULL;
		if (why)
			sbuf_addf(b, " (inferred: %s)", why);
	}
	sbuf_release(&part);
	return true;
}

/* A CPU time per IO as a reader reads it: "850 ns", "4.21 µs", "1.24 ms". */
static void fmt_cpu_ns(double ns, char *buf, size_t len)
{
	char v[32];
	if (ns < 1e3) {
		snprintf(buf, len, "%.0f ns", ns);
		return;
	}
	fmt_sig3(ns < 1e6 ? ns / 1e3 : ns / 1e6, v, sizeof(v));
	snprintf(buf, len, "%s %s", v, ns < 1e6 ? "\xc2\xb5s" : "ms");
}

/* The method's line on CPU per IO: what cpu.ns_per_io is and its range
 * over the cells that have it (none: no line). */
static void method_cpu_per_io(const struct report *r, cJSON *ctx)
{
	double lo = 0, hi = 0;
	size_t n = 0, sq = 0;
	char a[48], b[48];
	for (size_t s = 0; s < r->nsets; s++)
		for (size_t i = 0; i < r->sets[s].ncells; i++) {
			const struct rset_cell *c = &r->sets[s].cells[i];
			sq += c->cpu_per_io_sqpoll && !c->have_cpu_per_io;
			if (!c->have_cpu_per_io)
				continue;
			if (!n || c->cpu_ns_per_io < lo)
				lo = c->cpu_ns_per_io;
			if (!n || c->cpu_ns_per_io > hi)
				hi = c->cpu_ns_per_io;
			n++;
		}
	fmt_cpu_ns(lo, a, sizeof(a));
	fmt_cpu_ns(hi, b, sizeof(b));
	char span[128];
	if (n == 1)
		snprintf(span, sizeof(span), "%s in the one cell", a);
	else
		snprintf(span, sizeof(span), "%s to %s over %zu cells", a, b, n);
	if (n && sq)
		jsonw_fmt(ctx, "cpu_per_io", "%s (not in the %zu with sqthread_poll, where the "
			"kernel's SQ thread submits)", span, sq);
	else if (n)
		jsonw_fmt(ctx, "cpu_per_io", "%s", span);
}

static void method_params(const struct report *r, cJSON *ctx)
{
	cJSON *common = cJSON_AddArrayToObject(ctx, "common");
	struct sbuf vary = SBUF_INIT, a = SBUF_INIT, b = SBUF_INIT;
	struct mline lines[NKEYS];
	size_t nlines = method_lines(lines);

	for (size_t p = 0; p < nlines; p++) {
		bool same = true, first = true, recorded = false;
		/* an engine's own options are compared among its cells: an
		 * engine matrix's io_uring options do not "differ" for being
		 * none beside libaio */
		const char *only = cell_keys[lines[p].keys[0]].engine;
		size_t others = 0;
		if (!report_keys_used(r, lines[p].keys, lines[p].n))
			continue; /* rate_iops ... where no cell has a rate */
		for (size_t s = 0; s < r->nsets && same; s++)
			for (size_t i = 0; i < r->sets[s].ncells && same; i++) {
				const struct rset_cell *c = &r->sets[s].cells[i];
				if (only && strcmp(c->cell.engine, only)) {
					/* "not recorded" (false) by a set older than the keys */
					recorded |= mline_text(c, &lines[p], &b);
					others++;
					continue;
				}
				recorded |= mline_text(c, &lines[p], first ? &a : &b);
				if (!first && strcmp(sbuf_str(&a), sbuf_str(&b)))
					same = false;
				first = false;
			}
		if (first && others) { /* no cell runs the engine */
			sbuf_reset(&a);
			sbuf_addf(&a, "none (not %s)", only);
			first = false;
			others = 0;
		}
		/* sets from before these keys: nothing to say */
		if (same && !first && !recorded)
			continue;
		if (same && !first) {
			cJSON *o = cJSON_CreateObject();
			jsonw_str(o, "name", lines[p].label);
			if (others)
				jsonw_fmt(o, "value", "%s (the %s cells)", sbuf_str(&a), only);
			else
				jsonw_str(o, "value", sbuf_str(&a));
			cJSON_AddItemToArray(common, o);
		} else if (!same) {
			sbuf_addf(&vary, "%s%s", vary.len ? ", " : "", lines[p].label);
		}
	}
	jsonw_str(ctx, "varying", vary.len ? sbuf_str(&vary) : "nothing but the device");
	sbuf_release(&vary);
	sbuf_release(&a);
	sbuf_release(&b);
	method_cpu_per_io(r, ctx);
}

/* One environment table: attribute rows x columns. */
/* An environment table of the context: its "cols", and *rows for env_row. */
static cJSON *env_table(cJSON *ctx, const char *key, const char *corner, cJSON **rows)
{
	cJSON *t = cJSON_AddObjectToObject(ctx, key);
	jsonw_str(t, "corner", corner);
	cJSON *cols = cJSON_AddArrayToObject(t, "cols");
	*rows = cJSON_AddArrayToObject(t, "rows");
	return cols;
}

/* A new row of rows named name; its "cells". */
static cJSON *env_row(cJSON *rows, const char *name)
{
	cJSON *row = cJSON_CreateObject();
	jsonw_str(row, "name", name);
	cJSON *cells = cJSON_AddArrayToObject(row, "cells");
	cJSON_AddItemToArray(rows, row);
	return cells;
}

static const char *fp_text(const struct rset_obj *o, const char *k, char *buf, size_t len)
{
	const struct rset_value *v = o ? rset_obj_get(o, k) : NULL;
	if (v && v->type == RSET_V_STR)
		snprintf(buf, len, "%s", v->str);
	else if (v && v->type == RSET_V_BOOL)
		snprintf(buf, len, "%s", v->b ? "yes" : "no");
	else if (v && v->type == RSET_V_NUM) {
		if (strstr(k, "bytes") && v->num >= 1 << 20)
			units_format_size(v->num, buf, len);
		else
			snprintf(buf, len, "%.15g", v->num);
	} else
		snprintf(buf, len, "–");
	return buf;
}

static void environment(const struct report *r, cJSON *ctx)
{
	char buf[256];

	cJSON *ht, *hcols = env_table(ctx, "env_hosts", "host", &ht);
	for (size_t s = 0; s < r->nsets; s++)
		cJSON_AddItemToArray(hcols, cJSON_CreateString(r->sets[s].hostname));
	/* the rows: the fingerprint keys that have a label (host/fpkeys.h) */
	for (const struct fp_key *k = fp_host_keys; k->name; k++) {
		if (!k->label)
			continue;
		cJSON *cells = env_row(ht, k->label);
		for (size_t s = 0; s < r->nsets; s++)
			cJSON_AddItemToArray(cells, cJSON_CreateString(
				fp_text(&r->sets[s].host, k->name, buf, sizeof(buf))));
	}
	{
		cJSON *cells = env_row(ht, "iomatrix");
		for (size_t s = 0; s < r->nsets; s++) {
			const struct rset_obj *t = &r->sets[s].tool;
			snprintf(buf, sizeof(buf), "%s (git %s)", str_or(t, "version", "?"),
				 str_or(t, "git_commit", "?"));
			cJSON_AddItemToArray(cells, cJSON_CreateString(buf));
		}
	}

	cJSON *dt, *dcols = env_table(ctx, "env_devices", "device", &dt);
	for (size_t d = 0; d < r->ndevs; d++)
		cJSON_AddItemToArray(dcols, cJSON_CreateString(r->devs[d].display));
	{
		cJSON *cells = env_row(dt, "path");
		for (size_t d = 0; d < r->ndevs; d++) {
			const char *fpath = NULL; /* fleet: the path on its host */
			report_dev_fp(r, &r->devs[d], &fpath);
			cJSON_AddItemToArray(cells, cJSON_CreateString(
				fpath ? fpath : r->devs[d].info ? r->devs[d].info->path : "–"));
		}
	}
	if (r->nsets > 1) {
		cJSON *cells = env_row(dt, "host");
		for (size_t d = 0; d < r->ndevs; d++)
			cJSON_AddItemToArray(cells, cJSON_CreateString(r->sets[r->devs[d].set].hostname));
	}
	for (const struct fp_key *k = fp_device_keys; k->name; k++) {
		if (!k->label)
			continue;
		cJSON *cells = env_row(dt, k->label);
		for (size_t d = 0; d < r->ndevs; d++) {
			const struct rset_obj *fp = r->devs[d].host ?
				report_dev_fp(r, &r->devs[d], NULL) :
				r->devs[d].info && r->devs[d].info->fp.present ?
				&r->devs[d].info->fp : NULL;
			const char *vk = fp ? rset_obj_str(fp, "virtual_kind") : NULL;
			/* RAM is named in the table itself, not only in the
			 * warnings: a reader who skips those must still see it */
			if (!strcmp(k->name, "virtual") && vk && ram_kind_is(vk))
				snprintf(buf, sizeof(buf), "RAM (%s): measures memory, not storage",
					 vk);
			else
				fp_text(fp, k->name, buf, sizeof(buf));
			cJSON_AddItemToArray(cells, cJSON_CreateString(buf));
		}
	}
}

/* The report's one mean latency or p99 (rset.h: of all IOs of all
 * repetitions), with the repetitions' 95 % interval as a share of their
 * own mean: how much the number moves from one repetition to the next. */
/* A direction's one latency (report_dir_lat) into buf; false when
 * unknown. */
static bool fmt_lat_all(const struct rset_dir *d, bool p99, double div, char *buf,
			size_t len)
{
	struct rset_stat l;
	report_dir_lat(d, p99, &l);
	if (l.n)
		fmt_stat(l.mean, l.ci95, l.n, div, buf, len);
	return l.n > 0;
}

/* Cell key of row: d's mean latency (p99 false) or its p99, then tag;
 * "–" when d has none. */
static void add_lat_cell(cJSON *row, const char *key, const struct rset_dir *d, bool p99,
			 double latdiv, const char *tag)
{
	char buf[96];

	if (fmt_lat_all(d, p99, latdiv, buf, sizeof(buf))) {
		if (tag)
			strncat(buf, tag, sizeof(buf) - strlen(buf) - 1);
	} else {
		snprintf(buf, sizeof(buf), "–");
	}
	jsonw_str(row, key, buf);
}

/* tag: NULL, or the latency kind named after each latency value when a
 * table's column would otherwise hold two kinds: " (completion)". */
static void add_stat_cells(cJSON *row, const struct rset_dir *d, double latdiv,
			   const char *mean_tag, const char *pct_tag)
{
	char buf[96];

	fmt_stat(d->iops.mean, d->iops.ci95, d->iops.n, 1, buf, sizeof(buf));
	jsonw_str(row, "iops", buf);
	fmt_stat(d->bw.mean, d->bw.ci95, d->bw.n, 1e6, buf, sizeof(buf));
	jsonw_str(row, "mbs", buf);
	add_lat_cell(row, "lat_mean", d, false, latdiv, mean_tag);
	add_lat_cell(row, "lat_p99", d, true, latdiv, pct_tag);
}

/*
 * A column holds one latency kind (results/README.md, latency_kind): when
 * every row of the group has the same non-total kind the header names it
 * ("Mean latency (completion, µs)"); when the rows differ each value names
 * its own.  Bits 1 << kind of the group's rows, mean and percentiles.
 */
static void group_lat_kinds(const struct rgroup *g, cJSON *go, unsigned *mean,
			    unsigned *pct)
{
	*mean = *pct = 0;
	for (size_t k = 0; k < g->n; k++)
		if (g->e[k].cell->ok) {
			*mean |= 1u << g->e[k].cell->lat_mean_kind;
			*pct |= 1u << g->e[k].cell->lat_pct_kind;
		}
	if (*mean == 1u << LAT_COMPLETION)
		jsonw_str(go, "lat_mean_kind", "completion");
	if (*pct == 1u << LAT_COMPLETION)
		jsonw_str(go, "lat_p99_kind", "completion");
}

static const char *kind_tag(unsigned mask, enum lat_kind k)
{
	if ((mask & (mask - 1)) == 0)
		return NULL;   /* one kind in the column */
	return k == LAT_COMPLETION ? " (completion)" : " (total)";
}

static void results(const struct report *r, const struct chart_set *cs,
		    bool html, cJSON *ctx)
{
	cJSON *groups = cJSON_AddArrayToObject(ctx, "groups");
	char buf[96];
	bool lat_completion = false;

	for (size_t gi = 0; gi < r->ngroups; gi++) {
		const struct rgroup *g = &r->groups[gi];
		cJSON *go = cJSON_CreateObject();
		double lats[2 * DIR__COUNT * 64];
		size_t nl = 0;

		for (size_t k = 0; k < g->n; k++)
			for (int dd = 0; dd < DIR__COUNT; dd++) {
				const struct rset_dir *d = &g->e[k].cell->dir[dd];
				if (!d->present || nl + 2 > sizeof(lats) / sizeof(lats[0]))
					continue;
				lats[nl++] = d->lat_mean_all;
				lats[nl++] = d->lat_p99_all;
			}
		double div;
		const char *unit = fmt_lat_unit(lats, nl, &div);
		jsonw_str(go, "title", g->title);
		jsonw_fmt(go, "anchor", "cell-%zu", gi + 1);
		jsonw_str(go, "lat_unit", unit);
		unsigned kmean, kpct;
		group_lat_kinds(g, go, &kmean, &kpct);
		/* the note under the summary says what "completion" means */
		if (((kmean | kpct) & (1u << LAT_COMPLETION)) && !lat_completion) {
			cJSON_AddTrueToObject(ctx, "lat_completion");
			lat_completion = true;
		}
		int nmin = 1 << 30, nmax = 0;
		bool flagged = false;
		for (size_t k = 0; k < g->n; k++)
			for (int dd = 0; dd < DIR__COUNT; dd++) {
				const struct rset_dir *d = &g->e[k].cell->dir[dd];
				if (!g->e[k].cell->ok || !d->present)
					continue;
				nmin = d->iops.n < nmin ? d->iops.n : nmin;
				nmax = d->iops.n > nmax ? d->iops.n : nmax;
				flagged |= d->iops.n >= 2 && (d->iops.ci95 >= d->iops.mean ||
					   d->bw.ci95 >= d->bw.mean || d->lat_mean.ci95 >= d->lat_mean.mean ||
					   d->lat_p99.ci95 >= d->lat_p99.mean);
			}
		if (nmax > 0) {
			struct sbuf nb = SBUF_INIT;
			if (nmin == nmax)
				sbuf_addf(&nb, "n = %d repetition%s per row", nmax, nmax == 1 ? "" : "s");
			else
				sbuf_addf(&nb, "n = %d to %d repetitions per row", nmin, nmax);
			if (nmax >= 2 && fmt_show_ci)
				sbuf_adds(&nb, "; ± is the 95 % confidence interval");
			if (nmax >= 2)
				sbuf_adds(&nb, "; mean and p99 latency are of every IO of the "
					  "repetitions together");
			if (flagged && fmt_show_ci)
				sbuf_adds(&nb, "; † too noisy for an interval (see Warnings)");
			sbuf_adds(&nb, ".");
			jsonw_str(go, "n_note", sbuf_str(&nb));
			sbuf_release(&nb);
		}
		cJSON *rows = cJSON_AddArrayToObject(go, "rows");
		for (size_t k = 0; k < g->n; k++) {
			const struct rentry *e = &g->e[k];
			const struct rset_cell *c = e->cell;
			if (!c->ok) {
				cJSON *row = cJSON_CreateObject();
				jsonw_str(row, "device", r->devs[e->dev].display);
				snprintf(buf, sizeof(buf), "failed");
				jsonw_str(row, "iops", buf);
				jsonw_str(row, "mbs", "–");
				jsonw_str(row, "lat_mean", "–");
				jsonw_str(row, "lat_p99", "–");
				jsonw_str(row, "error", c->error ? c->error : c->status);
				cJSON_AddTrueToObject(row, "failed");
				cJSON_AddItemToArray(rows, row);
				continue;
			}
			for (int dd = 0; dd < DIR__COUNT; dd++) {
				const struct rset_dir *d = &c->dir[dd];
				if (!d->present)
					continue;
				cJSON *row = cJSON_CreateObject();
				jsonw_str(row, "device", r->devs[e->dev].display);
				if (e->note)
					jsonw_str(row, "note", e->note);
				if (g->mixed)
					jsonw_str(row, "dir", dir_name(dd));
				add_stat_cells(row, d, div, kind_tag(kmean, c->lat_mean_kind),
					       kind_tag(kpct, c->lat_pct_kind));
				cJSON_AddItemToArray(rows, row);
			}
		}
		for (size_t i = 0; r->sections[i]; i++)
			if (section_out_of(r, i)->group_context)
				section_out_of(r, i)->group_context(r, gi, go);
		cJSON *charts = cJSON_AddArrayToObject(go, "charts");
		for (size_t i = 0; cs && i < cs->n; i++)
			if (cs->c[i].group == (int)gi)
				cJSON_AddItemToArray(charts, chart_json(&cs->c[i], html));
		cJSON_AddItemToArray(groups, go);
	}
}

/* A device of an aggregate fleet set: 1 its "all" (the sum of the
 * hosts), 2 a host's part, 0 anything else. */
static int ratio_agg_role(const struct report *r, size_t dev)
{
	const struct rdev *d = &r->devs[dev];
	const struct rset_fleet *fl = d->host ? report_set_fleet(&r->sets[d->set]) : NULL;

	if (!fl || !fl->mode || strcmp(fl->mode, "aggregate"))
		return 0;
	return strcmp(d->host, "all") ? 2 : 1;
}

/* May a and b stand in one ratio?  Not a part with a whole (a rank of an
 * aggregate against an "all": 0.33x of its own sum is no comparison),
 * and not two parts of one aggregate: their spread is the fleet
 * section's (its skew and per-host rows), not a ratio table's. */
static bool ratio_pair_ok(const struct report *r, size_t a, size_t b)
{
	int ra = ratio_agg_role(r, a), rb = ratio_agg_role(r, b);

	if ((ra == 1 && rb == 2) || (ra == 2 && rb == 1))
		return false;
	return !(ra == 2 && rb == 2 && r->devs[a].set == r->devs[b].set);
}

static void ratios(const struct report *r, cJSON *ctx)
{
	char a[48], b[48], c[64];
	bool nsig = false;

	if (r->ndevs < 2)
		return;
	cJSON *ro = cJSON_CreateObject();
	jsonw_str(ro, "baseline", r->devs[r->baseline].display);
	cJSON *rows = cJSON_AddArrayToObject(ro, "rows");
	for (size_t gi = 0; gi < r->ngroups; gi++) {
		const struct rgroup *g = &r->groups[gi];
		const struct rentry *be = NULL;
		for (size_t k = 0; k < g->n; k++)
			if (g->e[k].dev == r->baseline)
				be = &g->e[k];
		if (!be || !be->cell->ok)
			continue;
		for (size_t k = 0; k < g->n; k++) {
			const struct rentry *e = &g->e[k];
			if (e == be || !e->cell->ok || !ratio_pair_ok(r, e->dev, be->dev))
				continue;
			/* "1.34x*": the ratio's confidence interval (compare's
			 * statistic) includes 1, or a single run has none, so
			 * the ratio may be noise; the note under the table says
			 * so */
			fmt_ratio(rentry_iops(e) / rentry_iops(be), a, sizeof(a) - 2);
			fmt_ratio(rentry_bw(e) / rentry_bw(be), b, sizeof(b) - 2);
			if (!rentry_differs(e, be, false)) {
				strcat(a, "*");
				nsig = true;
			}
			if (!rentry_differs(e, be, true)) {
				strcat(b, "*");
				nsig = true;
			}
			double lr = rentry_lat(be) / rentry_lat(e);
			if (e->cell->lat_mean_kind != be->cell->lat_mean_kind)
				/* total against completion latency is no ratio */
				snprintf(c, sizeof(c), "– (%s vs %s latency)",
					 lat_kind_name(e->cell->lat_mean_kind),
					 lat_kind_name(be->cell->lat_mean_kind));
			else if (!isfinite(lr) || lr <= 0)
				snprintf(c, sizeof(c), "–");
			else {
				fmt_ratio(lr >= 1 ? lr : 1 / lr, c, sizeof(c) - 8);
				/* a ratio that reads 1.00x is neither: never
				 * "1.00x slower" */
				if (strcmp(c, "1.00x"))
					strcat(c, lr >= 1 ? " faster" : " slower");
			}
			/* a cell run once has no interval for its latency either
			 * (the example's sustained write: "1.72x slower" beside
			 * "0.30x*") */
			if (isfinite(lr) && lr > 0 &&
			    e->cell->lat_mean_kind == be->cell->lat_mean_kind &&
			    (e->cell->nrepv < 2 || be->cell->nrepv < 2) &&
			    strlen(c) + 2 <= sizeof(c)) {
				strcat(c, "*");
				nsig = true;
			}
			cJSON *row = cJSON_CreateObject();
			jsonw_str(row, "group", g->title);
			jsonw_str(row, "device", r->devs[e->dev].display);
			if (e->note)
				jsonw_str(row, "note", e->note);
			jsonw_str(row, "iops", a);
			jsonw_str(row, "mbs", b);
			jsonw_str(row, "lat", c);
			cJSON_AddItemToArray(rows, row);
		}
	}
	/* no shared workload: no ratio section at all */
	if (nsig)
		cJSON_AddTrueToObject(ro, "not_significant");
	if (cJSON_GetArraySize(rows))
		cJSON_AddItemToObject(ctx, "ratios", ro);
	else
		cJSON_Delete(ro);
}

#define FIO_SHOWN 40

/* The footer says only what is true of this report's sets. */
static void footer(const struct report *r, cJSON *ctx)
{
	bool imported = false, runs = false;
	for (size_t s = 0; s < r->nsets; s++) {
		if (strcmp(r->sets[s].source_kind, "iomatrix"))
			imported = true;
		else
			runs = true;
	}
	struct sbuf b = SBUF_INIT;
	sbuf_addf(&b, "Made with iomatrix %s.", iomatrix_version);
	if (r->rehearsal)
		sbuf_adds(&b, " This is a rehearsal at reduced scale: the command lines in "
			  "Method repeat it exactly; the suite's own measurement is the same "
			  "command without --scale.");
	else if (runs)
		sbuf_adds(&b, " The command lines in Method, with the suite file of the "
			  "sha256 shown, repeat every iomatrix run here.");
	if (imported)
		sbuf_adds(&b, " Imported numbers were measured by another tool; Method "
			  "names the tool and, where its output recorded it, its command.");
	jsonw_str(ctx, "footer", sbuf_str(&b));
	sbuf_release(&b);
}

cJSON *report_context(const struct report *r, const struct chart_set *cs,
		      bool html, const char *const *files, size_t nfiles)
{
	cJSON *ctx = cJSON_CreateObject();
	char buf[128];
	time_t now = time(NULL);
	struct tm tm;
	size_t ncells = 0, nok = 0;

	if (!ctx)
		return NULL;
	/* reproducible builds convention: golden reports pin the date */
	const char *sde = getenv("SOURCE_DATE_EPOCH");
	if (sde && *sde && strspn(sde, "0123456789") == strlen(sde))
		now = (time_t)strtoll(sde, NULL, 10);
	gmtime_r(&now, &tm);
	strftime(buf, sizeof(buf), "%Y-%m-%d %H:%M UTC", &tm);
	jsonw_str(ctx, "title", r->title);
	jsonw_str(ctx, "generated_at", buf);
	jsonw_str(ctx, "version", iomatrix_version);
	for (size_t s = 0; s < r->nsets; s++) {
		ncells += r->sets[s].ncells;
		nok += r->sets[s].ncells - r->sets[s].ncells_failed;
	}
	char failed[48] = "";
	if (ncells > nok)
		snprintf(failed, sizeof(failed), ", %zu failed", ncells - nok);
	jsonw_fmt(ctx, "subtitle", "%zu device%s, %zu workload%s, %zu cell%s measured%s "
		"(%zu result set%s)", r->ndevs, r->ndevs == 1 ? "" : "s",
		r->ngroups, r->ngroups == 1 ? "" : "s", nok, nok == 1 ? "" : "s",
		failed, r->nsets, r->nsets == 1 ? "" : "s");
	cJSON *al = cJSON_AddArrayToObject(ctx, "alerts");
	for (size_t i = 0; i < r->nalerts; i++)
		cJSON_AddItemToArray(al, cJSON_CreateString(r->alerts[i]));
	footer(r, ctx);
	cJSON *sum = cJSON_AddArrayToObject(ctx, "summary");
	for (size_t i = 0; i < r->nsummary; i++)
		cJSON_AddItemToArray(sum, cJSON_CreateString(r->summary[i]));
	bool partial = false;
	for (size_t s = 0; s < r->nsets; s++)
		partial |= r->sets[s].partial;
	if (partial)
		jsonw_str(ctx, "partial", "This report is partial: at least one result set was "
			"interrupted or is missing cells (see Warnings).");
	/* sets */
	cJSON *sets = cJSON_AddArrayToObject(ctx, "sets");
	for (size_t s = 0; s < r->nsets; s++) {
		const struct rset *rs = &r->sets[s];
		cJSON *o = cJSON_CreateObject();
		if (r->set_numbers)
			jsonw_fmt(o, "num", "#%zu", s + 1);
		jsonw_str(o, "dir", rs->shown);
		jsonw_str(o, "suite", rs->suite_name ? rs->suite_name : "?");
		jsonw_str(o, "suite_file", rs->suite_file ? rs->suite_file : "?");
		jsonw_str(o, "sha256", rs->suite_sha256 ? rs->suite_sha256 : "unknown");
		jsonw_str(o, "host", rs->hostname);
		jsonw_str(o, "status", rs->status);
		jsonw_str(o, "started_at", rs->started_at ? rs->started_at : "?");
		jsonw_str(o, "source", rs->source_kind);
		jsonw_fmt(o, "cells", "%zu/%d", rs->ncells, rs->cells_total);
		if (rs->suite_desc)
			jsonw_str(o, "description", rs->suite_desc);
		char *cmd = report_set_command(rs);
		if (cmd)
			jsonw_str(o, "command", cmd);
		free(cmd);
		if (rs->scale != 1)
			jsonw_fmt(o, "scale", "%g", rs->scale);
		if (r->unverified && r->unverified[s])
			jsonw_str(o, "unverified", r->unverified[s]);
		if (strcmp(rs->source_kind, "iomatrix")) {
			const char *sc = str_or(&rs->source, "command", NULL);
			/* one line of text: the Markdown template puts it raw
			 * in a code fence, and a reader may cat report.md */
			struct sbuf t = SBUF_INIT;
			termesc_append(&t, sc);
			if (sc)
				jsonw_str(o, "source_command", sbuf_str(&t));
			sbuf_release(&t);
		}
		cJSON_AddItemToArray(sets, o);
	}
	method_params(r, ctx);
	/* fio commands: one per workload x device, first FIO_SHOWN shown */
	cJSON *fio = cJSON_AddArrayToObject(ctx, "fio");
	size_t nfio = 0;
	bool unlike = false;
	for (size_t gi = 0; gi < r->ngroups; gi++)
		for (size_t k = 0; k < r->groups[gi].n; k++, nfio++) {
			if (nfio >= FIO_SHOWN)
				continue;
			struct sbuf b = SBUF_INIT, h = SBUF_INIT;
			report_fio_command(r->groups[gi].e[k].cell, rdev_is_dir(&r->devs[r->groups[gi].e[k].dev]), &b);
			cJSON *o = cJSON_CreateObject();
			jsonw_str(o, "device", r->devs[r->groups[gi].e[k].dev].display);
			jsonw_str(o, "group", r->groups[gi].title);
			/* one line each, safe inside a Markdown code fence: the
			 * template inserts them raw there (escaping would show) */
			sbuf_addf(&h, "# %s: %s", r->devs[r->groups[gi].e[k].dev].display,
				  r->groups[gi].title);
			/* "equivalent" only where the job is the same workload:
			 * report_fio_unlike says where it is not */
			char ub[256];
			const char *why = report_fio_unlike(r->groups[gi].e[k].cell, ub, sizeof(ub));
			if (why) {
				sbuf_addf(&h, " (NOT THE SAME: %s)", why);
				unlike = true;
			}
			one_line_str(&h);
			one_line_str(&b);
			jsonw_str(o, "comment", sbuf_str(&h));
			jsonw_str(o, "cmd", sbuf_str(&b));
			sbuf_release(&h);
			cJSON_AddItemToArray(fio, o);
			sbuf_release(&b);
		}
	if (unlike)
		cJSON_AddTrueToObject(ctx, "fio_unlike");
	if (nfio > FIO_SHOWN)
		jsonw_fmt(ctx, "fio_more", "the first %d; %zu more in fio-commands.txt",
			FIO_SHOWN, nfio - FIO_SHOWN);
	environment(r, ctx);
	cJSON *ov = cJSON_AddArrayToObject(ctx, "charts");
	for (size_t i = 0; cs && i < cs->n; i++)
		if (cs->c[i].group < 0 && !cs->c[i].section)
			cJSON_AddItemToArray(ov, chart_json(&cs->c[i], html));
	if (cs && cs->note)
		jsonw_str(ctx, "charts_note", cs->note);
	results(r, cs, html, ctx);
	ratios(r, ctx);
	for (size_t i = 0; r->sections[i]; i++)
		if (section_out_of(r, i)->context)
			section_out_of(r, i)->context(r, cs, html, ctx);
	cJSON *w = cJSON_AddArrayToObject(ctx, "warnings");
	for (size_t i = 0; i < r->nwarns; i++)
		cJSON_AddItemToArray(w, cJSON_CreateString(r->warns[i].text));
	cJSON *f = cJSON_AddArrayToObject(ctx, "files");
	for (size_t i = 0; i + 1 < nfiles; i += 2) {
		cJSON *o = cJSON_CreateObject();
		jsonw_str(o, "name", files[i]);
		jsonw_str(o, "what", files[i + 1]);
		cJSON_AddItemToArray(f, o);
	}
	return ctx;
}
