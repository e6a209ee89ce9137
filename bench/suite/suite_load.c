/*
 * suite_load.c - load a YAML suite, validate it strictly and expand its
 * matrix into cells (suite.h): the entry points, the error list and the key
 * help.  The loader is four rooms sharing suite_int.h: suite_parse.c reads the
 * document's sections, suite_value.c one value of a key, suite_expand.c
 * makes the cells, suite_check.c checks them.  Every cell key goes through
 * ONE table (cell_keys[] of keys.c): parsing, range checks, defaults, the
 * key help and did-you-mean all read it.  All errors of a file are
 * collected in one pass, each with line:col.
 *
 * libyaml boundary: the yaml_document_t is owned by suite_load_buffer() and
 * deleted before it returns; nothing keeps pointers into it (values are
 * copied into struct kval / struct suite).
 */
#include <errno.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "util/fsutil.h"
#include "util/sha256.h"
#include "util/suggest.h"
#include "util/units.h"
#include "engines/engine.h"
#include "suite_int.h"
#include "workload.h"

/* ---- errors ------------------------------------------------------------ */

/* ---- did you mean ------------------------------------------------------ */

/* ---- top level --------------------------------------------------------- */

/*
 * libyaml's scanner slows down quadratically with nesting depth (it walks
 * its stack of possible simple keys for every token), so a 1 MiB file of
 * '[' takes minutes.  Stream the events first and stop at the first node
 * nested too deep: the scanner then never gets deep.  Returns true (and the
 * position) when too deep; syntax errors are left to the real load.
 */
static bool too_deep(const char *buf, size_t len, unsigned *line, unsigned *col)
{
	yaml_parser_t p;
	yaml_event_t ev;
	unsigned depth = 0;
	bool deep = false, done = false;

	if (!yaml_parser_initialize(&p))
		return false;
	yaml_parser_set_input_string(&p, (const unsigned char *)buf, len);
	while (!done && !deep && yaml_parser_parse(&p, &ev)) {
		switch (ev.type) {
		case YAML_SEQUENCE_START_EVENT:
		case YAML_MAPPING_START_EVENT:
			if (++depth > SUITE_MAX_DEPTH) {
				deep = true;
				*line = (unsigned)ev.start_mark.line + 1;
				*col = (unsigned)ev.start_mark.column + 1;
			}
			break;
		case YAML_SEQUENCE_END_EVENT:
		case YAML_MAPPING_END_EVENT:
			depth--;
			break;
		case YAML_STREAM_END_EVENT:
			done = true;
			break;
		default:
			break;
		}
		yaml_event_delete(&ev);
	}
	yaml_parser_delete(&p);
	return deep;
}

/* First byte offset that is not valid UTF-8 (or a NUL), or -1. */
static long utf8_bad(const unsigned char *p, size_t len)
{
	for (size_t i = 0; i < len;) {
		unsigned char c = p[i];
		size_t n;
		uint32_t cp;
		if (c == 0)
			return (long)i;
		if (c < 0x80) {
			i++;
			continue;
		}
		if ((c & 0xe0) == 0xc0) { n = 1; cp = c & 0x1f; }
		else if ((c & 0xf0) == 0xe0) { n = 2; cp = c & 0x0f; }
		else if ((c & 0xf8) == 0xf0) { n = 3; cp = c & 0x07; }
		else return (long)i;
		for (size_t k = 1; k <= n; k++) {
			if (i + k >= len || (p[i + k] & 0xc0) != 0x80)
				return (long)i;
			cp = cp << 6 | (p[i + k] & 0x3f);
		}
		if ((n == 1 && cp < 0x80) || (n == 2 && cp < 0x800) ||
		    (n == 3 && (cp < 0x10000 || cp > 0x10ffff)) ||
		    (cp >= 0xd800 && cp <= 0xdfff))
			return (long)i;
		i += n + 1;
	}
	return -1;
}

static void ctx_release(struct ctx *x)
{
	for (size_t i = 0; i < x->nstrs; i++)
		free(x->strs[i]);
	free(x->strs);
	free(x->devs);
	for (size_t m = 0; m < x->nmatrix; m++)
		free(x->matrix[m].vals);
	free(x->matrix);
	for (size_t e = 0; e < x->nexcl; e++) {
		for (size_t m = 0; m < x->excl[e].n; m++)
			free(x->excl[e].m[m].vals);
		free(x->excl[e].m);
	}
	free(x->excl);
	for (size_t i = 0; i < x->nincl; i++)
		free(x->incl[i].devs);
	free(x->incl);
	free(x->usage);
	free(x->track_pos);
}

/* The command's check of device i's final path (suite_opts.check_path),
 * for a device that some cell does IO on (engine null opens nothing). */
static void check_dev_path(struct ctx *x, const struct suite *s, size_t i,
			   const struct suite_opts *opts)
{
	const struct dev *d = &x->devs[i];
	char err[PATH_MAX + 512];
	bool io = false;

	for (size_t k = 0; !io && k < s->ncells; k++) {
		const struct engine *e = engine_find(s->cells[k].engine);
		io = !strcmp(s->cells[k].device, s->devices[i].name) &&
		     (!e || !(e->flags & ENGINE_NO_IO));
	}
	int r;
	if (!io || !opts || !opts->check_path ||
	    (r = opts->check_path(s->devices[i].path, err, sizeof(err))) == 0)
		return;
	if (r > 0 && opts->warnings) { /* missing here: the machine's */
		if (d->path_line)
			errlist_add(opts->warnings, x->file, d->path_line, d->path_col,
				    "warning: device '%s': %s; run refuses it here",
				    d->d.name, err);
		else
			errlist_add(opts->warnings, NULL, 0, 0, "warning: --device %s=%s: %s; "
				    "run refuses it here", d->d.name, s->devices[i].path, err);
	} else if (d->path_line) {
		err_at(x, d->path_line, d->path_col, "device '%s': %s", d->d.name, err);
	} else {
		errlist_add(x->errs, NULL, 0, 0, "--device %s=%s: %s", d->d.name,
			    s->devices[i].path, err);
	}
}

static void apply_overrides(struct ctx *x, const struct suite_opts *opts)
{
	for (size_t i = 0; opts && i < opts->ndevice_overrides; i++) {
		const char *o = opts->device_overrides[i], *eq = strchr(o, '=');
		if (!eq || eq == o || !eq[1]) {
			errlist_add(x->errs, NULL, 0, 0,
				    "--device '%s': expected NAME=PATH", o);
			continue;
		}
		size_t nl = (size_t)(eq - o);
		struct dev *d = NULL;
		for (size_t j = 0; j < x->ndevs; j++)
			if (strlen(x->devs[j].d.name) == nl &&
			    !strncmp(x->devs[j].d.name, o, nl))
				d = &x->devs[j];
		if (!d) {
			char names[512] = "";
			for (size_t j = 0; j < x->ndevs; j++)
				snprintf(names + strlen(names), sizeof(names) - strlen(names),
					 "%s%s", j ? ", " : "", x->devs[j].d.name);
			errlist_add(x->errs, NULL, 0, 0,
				    "--device '%s': the suite has no device '%.*s' (it has: %s)",
				    o, (int)nl, o, names);
			continue;
		}
		if (strlen(eq + 1) >= sizeof(d->d.path)) {
			errlist_add(x->errs, NULL, 0, 0, "--device '%s': path too long", o);
			continue;
		}
		snprintf(d->d.path, sizeof(d->d.path), "%s", eq + 1);
		d->has_path = true;
		d->path_line = d->path_col = 0;
	}
	if (opts && (isnan(opts->scale) || opts->scale < 0))
		errlist_add(x->errs, NULL, 0, 0, "--scale must be a positive number");
}

/* A suite is a short UTF-8 text: refuse anything else before parsing it.
 * 0 ok, -1 (error given). */
static int suite_check_text(const char *name, const char *buf, size_t len,
			    struct errlist *errs)
{
	long bad;

	if (len > SUITE_MAX_BYTES) {
		errlist_add(errs, name, 0, 0, "file is larger than 1 MiB (%zu bytes); a suite is a short text file",
			    len);
		return -1;
	}
	if ((bad = utf8_bad((const unsigned char *)buf, len)) >= 0) {
		unsigned line = 1, col = 1;
		for (long i = 0; i < bad; i++) {
			if (buf[i] == '\n') {
				line++;
				col = 1;
			} else if (((unsigned char)buf[i] & 0xc0) != 0x80) {
				col++;
			}
		}
		errlist_add(errs, name, line, col,
			    "file is not UTF-8 text (%s byte 0x%02x); save it as UTF-8",
			    buf[bad] ? "bad" : "NUL", (unsigned char)buf[bad]);
		return -1;
	}
	return 0;
}

/* Copy the devices into the suite and point the expanded cells' device
 * names and paths at those copies.  0 ok, -1 out of memory. */
static int suite_adopt_devices(struct ctx *x, struct suite *s)
{
	s->devices = calloc(x->ndevs, sizeof(*s->devices));
	if (!s->devices)
		return -1;
	for (size_t d = 0; d < x->ndevs; d++)
		s->devices[d] = x->devs[d].d;
	s->ndevices = x->ndevs;
	/* the cells' strings now belong to the suite (cell.h) */
	for (size_t i = 0, d = 0; i < s->ncells; i++) {
		struct cell *c = &s->cells[i];
		if (c->device != x->devs[d].d.name)
			for (d = 0; d + 1 < x->ndevs && c->device != x->devs[d].d.name; d++)
				;
		c->device = s->devices[d].name;
		c->path = s->devices[d].path;
	}
	return 0;
}

int suite_load_buffer(const char *name, const char *buf, size_t len,
		      const struct suite_opts *opts, struct suite **out,
		      struct errlist *errs)
{
	struct ctx x = { .file = name, .errs = errs, .nerrs_start = (unsigned)errs->n };
	yaml_parser_t parser;
	yaml_document_t doc;
	bool parser_ok = false, doc_ok = false;
	struct suite *s = NULL;

	*out = NULL;
	if (suite_check_text(name, buf, len, errs) < 0)
		return -1;
	s = calloc(1, sizeof(*s));
	if (!s)
		goto oom;
	x.s = s;
	s->aggregate = -1; /* not given */
	s->file = strdup(name);
	s->text = malloc(len + 1);
	if (!s->file || !s->text)
		goto oom;
	memcpy(s->text, buf, len);
	s->text[len] = '\0';
	s->text_len = len;
	sha256_hex(buf, len, s->sha256);

	unsigned dl, dc;
	if (too_deep(buf, len, &dl, &dc)) {
		err_at(&x, dl, dc, "nested deeper than %d levels; a suite needs 4",
		       SUITE_MAX_DEPTH);
		goto err;
	}
	if (!yaml_parser_initialize(&parser))
		goto oom;
	parser_ok = true;
	yaml_parser_set_input_string(&parser, (const unsigned char *)buf, len);
	if (!yaml_parser_load(&parser, &doc)) {
		err_at(&x, (unsigned)parser.problem_mark.line + 1,
		       (unsigned)parser.problem_mark.column + 1, "yaml: %s%s%s",
		       parser.problem ? parser.problem : "syntax error",
		       parser.context ? " " : "", parser.context ? parser.context : "");
		goto err;
	}
	doc_ok = true;
	x.doc = &doc;
	yaml_node_t *root = yaml_document_get_root_node(&doc);
	if (!root || suite_is_null(root)) {
		err_at(&x, 1, 1, "empty suite: give 'suite', 'devices' and a 'matrix'");
		goto err;
	}
	{
		/* a second document would be silently ignored: refuse it */
		yaml_document_t doc2;
		if (yaml_parser_load(&parser, &doc2)) {
			yaml_node_t *r2 = yaml_document_get_root_node(&doc2);
			if (r2)
				err_at(&x, NLINE(r2), NCOL(r2),
				       "a second YAML document ('---'); a suite file holds one");
			yaml_document_delete(&doc2);
		}
	}
	/* a "\0" escape in a quoted scalar would cut every C string that
	 * carries it (a path silently shortened): refuse NUL anywhere */
	for (yaml_node_t *nd = doc.nodes.start; nd < doc.nodes.top; nd++)
		if (nd->type == YAML_SCALAR_NODE &&
		    memchr(nd->data.scalar.value, '\0', nd->data.scalar.length))
			err_at(&x, NLINE(nd), NCOL(nd), "string holds a NUL character "
			       "('\\0'); remove it");
	if (has_errors(&x))
		goto err;
	size_t own = (size_t)(doc.nodes.top - doc.nodes.start), count = 0;
	if (!count_nodes(&x, root, 0, &count, own + SUITE_MAX_ALIAS_NODES)) {
		err_at(&x, NLINE(root), NCOL(root),
		       "YAML aliases expand to more than %d nodes (or nest deeper than %d); refusing (a 'billion laughs' file?)",
		       SUITE_MAX_ALIAS_NODES, SUITE_MAX_DEPTH);
		goto err;
	}
	if (root->type != YAML_MAPPING_NODE) {
		err_at(&x, NLINE(root), NCOL(root), "a suite is a map of keys (suite:, devices:, matrix:), not %s",
		       ykit_kind(root));
		goto err;
	}
	each_pair(&x, root, "the suite", top_pair, NULL);
	if (x.have_top_keep) {
		if (x.defaults.set & (1ull << K_KEEP_FILES))
			err_at(&x, x.top_keep.line, x.top_keep.col,
			       "'keep_files' is given both at the top and in 'defaults'; keep one");
		x.defaults.v[K_KEEP_FILES] = x.top_keep;
		x.defaults.set |= 1ull << K_KEEP_FILES;
	}
	if (!x.have_suite)
		err_at(&x, NLINE(root), NCOL(root), "missing 'suite: NAME' (names the result set)");
	if (!x.have_devices)
		err_at(&x, NLINE(root), NCOL(root), "missing 'devices' (a list of '- name: .. path: ..')");
	if (!x.have_matrix && !x.nincl && !has_errors(&x))
		err_at(&x, NLINE(root), NCOL(root), "no cells: add a 'matrix' or an 'include'");
	apply_overrides(&x, opts);
	for (size_t d = 0; d < x.ndevs; d++)
		if (!x.devs[d].has_path)
			err_at(&x, x.devs[d].line, x.devs[d].col,
			       "device '%s' has no 'path'; add one or give --device %s=PATH",
			       x.devs[d].d.name, x.devs[d].d.name);
	/* Every value is copied out of the YAML tree by now: free it before
	 * the expansion, which is where a 100,000-cell suite needs memory. */
	yaml_document_delete(&doc);
	doc_ok = false;
	x.doc = NULL;
	yaml_parser_delete(&parser);
	parser_ok = false;
	x.partial = has_errors(&x);
	suite_expand(&x, opts);
	if (has_errors(&x))
		goto err;
	if (suite_adopt_devices(&x, s) < 0)
		goto oom;
	{
		/* checks that need the devices' final paths and the cells
		 * (from the positions kept: the YAML tree is gone) */
		struct ykit y = ctx_ykit(&x);
		for (size_t d = 0; d < s->ndevices; d++) {
			ssd_check_device(&y, &s->devices[d]);
			check_dev_path(&x, s, d, opts);
		}
		ssd_check_tracks(&y, s, x.track_pos);
		if (has_errors(&x))
			goto err;
	}
	ctx_release(&x);
	*out = s;
	return 0;
oom:
	errlist_add(errs, name, 0, 0, "out of memory");
err:
	if (!has_errors(&x))
		errlist_add(errs, name, 0, 0, "invalid suite");
	if (doc_ok)
		yaml_document_delete(&doc);
	if (parser_ok)
		yaml_parser_delete(&parser);
	ctx_release(&x);
	suite_free(s);
	return -1;
}

int suite_load(const char *path, const struct suite_opts *opts,
	       struct suite **out, struct errlist *errs)
{
	size_t n;
	int rc;

	*out = NULL;
	char *buf = fsutil_read(path, SUITE_MAX_BYTES, &n);
	if (!buf) {
		if (errno == EFBIG)
			errlist_add(errs, path, 0, 0, "file is larger than 1 MiB; a suite is a short text file");
		else if (errno == EISDIR)
			errlist_add(errs, path, 0, 0, "is a directory, not a suite file");
		else
			errlist_add(errs, path, 0, 0, "cannot open suite: %s",
				    fsutil_strerror(errno));
		return -1;
	}
	rc = suite_load_buffer(path, buf, n, opts, out, errs);
	free(buf);
	return rc;
}

void suite_free(struct suite *s)
{
	if (!s)
		return;
	free(s->file);
	free(s->name);
	free(s->title);
	free(s->description);
	free(s->text);
	free(s->devices);
	free(s->cells);
	ssd_rounds_release(&s->rounds);
	for (size_t i = 0; i < s->nhosts; i++)
		free(s->hosts[i]);
	free(s->hosts);
	free(s);
}

static const char *ktype_name(enum ktype t)
{
	switch (t) {
	case KT_PATTERN: return "pattern";
	case KT_SIZE: return "size";
	case KT_SIZE_PCT: return "size|N%";
	case KT_OFFSET: return "size|N%";
	case KT_UINT: case KT_U64: return "integer";
	case KT_BOOL: return "bool";
	case KT_ENGINE: return "engine";
	case KT_DURATION: return "duration";
	case KT_DATA: return "data";
	case KT_LABEL: return "text";
	case KT_PCT: return "N%";
	case KT_STEADY: return "map";
	case KT_IO_SIZE: return "size|Nx";
	case KT_INT: return "integer";
	case KT_CPULIST: return "cpulist";
	case KT_CUSTOM: return "value|map";
	case KT_RANDDIST: return "distribution";
	}
	return "?";
}

void suite_keys_help(FILE *f)
{
	fprintf(f, "cell keys (in 'defaults', a device, 'matrix' as a value or list,\n"
		   "'exclude' and 'include' entries):\n");
	for (int k = 0; k < NKEYS; k++) {
		const struct key *key = &cell_keys[k];
		char range[80] = "", lo[32], hi[32];
		if (key->type == KT_INT) {
			snprintf(range, sizeof(range), " %lld..%lld",
				 (long long)(int64_t)key->min, (long long)(int64_t)key->max);
		} else if (key->type == KT_UINT || key->type == KT_U64) {
			if (key->max)
				snprintf(range, sizeof(range), " %llu..%llu",
					 (unsigned long long)key->min,
					 (unsigned long long)key->max);
		} else if (key->type == KT_DURATION && key->max) {
			units_format_duration(key->min, lo, sizeof(lo));
			units_format_duration(key->max, hi, sizeof(hi));
			snprintf(range, sizeof(range), " %s..%s", lo, hi);
		} else if (key->type == KT_SIZE && key->max) {
			suite_fmt_size(key->min, lo, sizeof(lo));
			suite_fmt_size(key->max, hi, sizeof(hi));
			snprintf(range, sizeof(range), " %s..%s", lo, hi);
		}
		char engines[128] = "";
		if (key->type == KT_ENGINE) /* the registry is the one list */
			for (const char *const *n = engine_names(); *n; n++)
				snprintf(engines + strlen(engines),
					 sizeof(engines) - strlen(engines), "%s%s",
					 engines[0] ? " " : "", *n);
		fprintf(f, "  %-12s %-9s%-12s default %-9s %s\n", key->name,
			ktype_name(key->type), range, key->def,
			key->help ? key->help : engines);
	}
	fprintf(f, "\nsuite keys: suite (name, [a-z0-9._-]), title, description, defaults,\n"
		   "devices (name, path, destructive, any cell key: wins over matrix),\n"
		   "matrix (cartesian product, first key outermost), exclude (drop matrix\n"
		   "cells matching every key given; 'device' allowed), include (extra cells,\n"
		   "run on every device, or on those its 'device' names: NAME or [A, B]),\n"
		   "keep_files.  Sizes: 4k 1m 8GiB (powers of 1024);\n"
		   "durations: 500ms 30s 2m.  Run order: device by device, matrix cells then\n"
		   "includes.\n");
	ssd_keys_help(f);
}

bool suite_device_model(const struct suite *s, size_t dev, struct sbuf *model,
			bool *no_io)
{
	const struct cell **cells = malloc((s->ncells ? s->ncells : 1) * sizeof(*cells));
	size_t n = 0;
	bool is_model = false;

	*no_io = true;
	for (size_t i = 0; cells && i < s->ncells; i++) {
		const struct cell *c = &s->cells[i];
		if (strcmp(c->device, s->devices[dev].name))
			continue;
		const struct engine *e = engine_find(c->engine);
		*no_io &= e && (e->flags & ENGINE_NO_IO);
		cells[n++] = c;
	}
	if (cells)
		is_model = workload_model_target(cells, n, model);
	*no_io &= cells && n > 0;
	free(cells);
	return is_model;
}
