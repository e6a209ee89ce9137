/*
 * suite_parse.c - the sections of a suite document (defaults, devices,
 * matrix, exclude, include, hosts and the top-level keys) into the loader's
 * context (suite_int.h); each value goes through suite_value.c.
 */
#include <ctype.h>
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "util/units.h"
#include "ssd_keys.h"
#include "suite_int.h"

/* ---- document helpers -------------------------------------------------- */

static yaml_node_t *node_at(struct ctx *x, int idx)
{
	return yaml_document_get_node(x->doc, idx);
}

/* Count node visits through aliases; false once past the bound or depth. */
bool count_nodes(struct ctx *x, yaml_node_t *n, unsigned depth,
		 size_t *count, size_t limit)
{
	if (!n)
		return true;
	if (++*count > limit || depth > SUITE_MAX_DEPTH)
		return false;
	if (n->type == YAML_SEQUENCE_NODE) {
		for (yaml_node_item_t *i = n->data.sequence.items.start;
		     i < n->data.sequence.items.top; i++)
			if (!count_nodes(x, node_at(x, *i), depth + 1, count, limit))
				return false;
	} else if (n->type == YAML_MAPPING_NODE) {
		for (yaml_node_pair_t *p = n->data.mapping.pairs.start;
		     p < n->data.mapping.pairs.top; p++) {
			if (!count_nodes(x, node_at(x, p->key), depth + 1, count, limit) ||
			    !count_nodes(x, node_at(x, p->value), depth + 1, count, limit))
				return false;
		}
	}
	return true;
}

struct pair_call {
	struct ctx *x;
	pair_fn fn;
	void *arg;
};

static int pair_tramp(const struct ykit *y, const char *key, yaml_node_t *kn,
		      yaml_node_t *vn, void *arg)
{
	struct pair_call *pc = arg;
	(void)y;
	pc->fn(pc->x, key, kn, vn, pc->arg);
	return 0;
}

/* false if n is not a map (or too big: error given) */
bool each_pair(struct ctx *x, yaml_node_t *n, const char *what,
	       pair_fn fn, void *arg)
{
	struct ykit y = ctx_ykit(x);
	struct pair_call pc = { x, fn, arg };
	bool map = n->type == YAML_MAPPING_NODE &&
		   n->data.mapping.pairs.top - n->data.mapping.pairs.start <= YMAP_MAX_KEYS;
	ymap_each(&y, n, what, pair_tramp, &pc);
	return map;
}

static const char *const top_keys[] = { "suite", "title", "description",
	"defaults", "devices", "matrix", "exclude", "include", "keep_files",
	"rounds", "hosts", "aggregate", NULL };
/* ---- sections ---------------------------------------------------------- */

static const char *const *cell_key_names(bool with_label, bool with_device)
{
	static const char *names[NKEYS + 6];
	size_t n = 0;

	for (int k = 0; k < NKEYS; k++)
		if (k != K_LABEL || with_label)
			names[n++] = cell_keys[k].name;
	if (with_device)
		names[n++] = "device";
	names[n] = NULL;
	return names;
}

/* fio's names of keys iomatrix spells otherwise: a user coming from a
 * job file types these first, and none is near its key's spelling. */
static const char *const fio_names[][2] = {
	{ "rw", "pattern" },         { "readwrite", "pattern" }, { "numjobs", "jobs" },
	{ "ioengine", "engine" },    { "blocksize", "bs" },      { "filesize", "size" },
	{ "ramp_time", "ramp" },     { "nrfiles", "files" },     { "randseed", "seed" },
	{ "number_ios", "requests" }, { "filename", "path" },    { "iodepth_batch_submit", "iodepth_batch" },
	{ "rwmixwrite", "rwmixread" },
};

/* " (fio's 'KEY' is 'NAME' here)" when key is fio's name of one of words */
static bool suggest_fio_name(const char *key, const char *const *words, char *buf, size_t len)
{
	for (size_t i = 0; i < sizeof(fio_names) / sizeof(fio_names[0]); i++) {
		if (strcmp(key, fio_names[i][0]))
			continue;
		for (size_t w = 0; words[w]; w++)
			if (!strcmp(words[w], fio_names[i][1])) {
				snprintf(buf, len, " (fio's '%s' is '%s' here%s)", key, fio_names[i][1],
					 strcmp(key, "rwmixwrite") ? "" : ": 100 minus it");
				return true;
			}
	}
	return false;
}

static void unknown_key(struct ctx *x, yaml_node_t *kn, const char *key,
			const char *where, const char *const *words)
{
	char sug[96];

	if (!suggest_fio_name(key, words, sug, sizeof(sug)))
		suite_suggest(key, words, sug, sizeof(sug));
	err_at(x, NLINE(kn), NCOL(kn), "unknown key '%s' in %s%s", key, where, sug);
}

struct pset_arg {
	struct pset *ps;
	const char *where;
	bool allow_label;
};

static void pset_pair(struct ctx *x, const char *key, yaml_node_t *kn,
		      yaml_node_t *vn, void *arg)
{
	struct pset_arg *a = arg;
	int k = key_find(key);

	if (k < 0) {
		unknown_key(x, kn, key, a->where, cell_key_names(a->allow_label, false));
		return;
	}
	if (k == K_LABEL && !a->allow_label) {
		err_at(x, NLINE(kn), NCOL(kn),
		       "'label' names one cell: give it in an 'include' entry, not in %s",
		       a->where);
		return;
	}
	if (value_parse(x, k, vn, &a->ps->v[k]) == 0)
		a->ps->set |= 1ull << k;
}

static void parse_defaults(struct ctx *x, yaml_node_t *n)
{
	struct pset_arg a = { &x->defaults, "'defaults'", false };
	each_pair(x, n, "'defaults'", pset_pair, &a);
}

static bool name_ok(const char *s, bool upper)
{
	if (!*s || strlen(s) >= CELL_NAME_MAX)
		return false;
	for (; *s; s++) {
		unsigned char c = (unsigned char)*s;
		if (!(islower(c) || isdigit(c) || c == '.' || c == '_' || c == '-' ||
		      (upper && isupper(c))))
			return false;
	}
	return true;
}

static void device_pair(struct ctx *x, const char *key, yaml_node_t *kn,
			yaml_node_t *vn, void *arg)
{
	struct dev *d = arg;

	if (!strcmp(key, "name") || !strcmp(key, "path")) {
		if (vn->type != YAML_SCALAR_NODE || suite_is_null(vn)) {
			err_at(x, NLINE(vn), NCOL(vn), "device '%s' must be a string", key);
			return;
		}
		const char *v = suite_scalar(vn);
		if (!strcmp(key, "name")) {
			d->named = true;
			if (!name_ok(v, true)) {
				err_at(x, NLINE(vn), NCOL(vn),
				       "bad device name '%s': use 1..%d of a-z A-Z 0-9 . _ -",
				       v, CELL_NAME_MAX - 1);
				return;
			}
			snprintf(d->d.name, sizeof(d->d.name), "%s", v);
		} else {
			if (!v[0]) {
				err_at(x, NLINE(vn), NCOL(vn), "device path is empty; give a "
				       "directory, file or block device");
				return;
			}
			if (strlen(v) >= sizeof(d->d.path)) {
				err_at(x, NLINE(vn), NCOL(vn), "device path is too long");
				return;
			}
			snprintf(d->d.path, sizeof(d->d.path), "%s", v);
			d->has_path = true;
			d->path_line = NLINE(vn);
			d->path_col = NCOL(vn);
		}
		return;
	}
	if (!strcmp(key, "purge") || !strcmp(key, "precondition")) {
		struct ykit y = ctx_ykit(x);
		if (!strcmp(key, "purge"))
			ssd_parse_purge(&y, vn, &d->d);
		else
			ssd_parse_precondition(&y, vn, &d->d.pre);
		return;
	}
	if (!strcmp(key, "destructive")) {
		if (vn->type != YAML_SCALAR_NODE ||
		    (strcasecmp(suite_scalar(vn), "true") && strcasecmp(suite_scalar(vn), "false") &&
		     strcasecmp(suite_scalar(vn), "yes") && strcasecmp(suite_scalar(vn), "no"))) {
			err_at(x, NLINE(vn), NCOL(vn), "'destructive' must be true or false");
			return;
		}
		d->d.destructive = !strcasecmp(suite_scalar(vn), "true") ||
				   !strcasecmp(suite_scalar(vn), "yes");
		return;
	}
	int k = key_find(key);
	if (k < 0 || k == K_LABEL) {
		static const char *words[NKEYS + 6];
		const char *const *ck = cell_key_names(false, false);
		size_t n = 0;
		for (; ck[n]; n++)
			words[n] = ck[n];
		words[n++] = "name";
		words[n++] = "path";
		words[n++] = "destructive";
		words[n++] = "purge";
		words[n++] = "precondition";
		words[n] = NULL;
		if (k == K_LABEL)
			err_at(x, NLINE(kn), NCOL(kn),
			       "'label' names one cell: give it in an 'include' entry, not in a device");
		else
			unknown_key(x, kn, key, "a device", words);
		return;
	}
	if (value_parse(x, k, vn, &d->ps.v[k]) == 0)
		d->ps.set |= 1ull << k;
}

static void parse_devices(struct ctx *x, yaml_node_t *n)
{
	if (n->type != YAML_SEQUENCE_NODE) {
		err_at(x, NLINE(n), NCOL(n),
		       "'devices' must be a list of devices ('- name: ...'), not %s",
		       ykit_kind(n));
		return;
	}
	size_t cnt = (size_t)(n->data.sequence.items.top - n->data.sequence.items.start);
	if (!cnt) {
		err_at(x, NLINE(n), NCOL(n), "'devices' is empty: give at least one device");
		return;
	}
	if (cnt > SUITE_MAX_DEVICES) {
		err_at(x, NLINE(n), NCOL(n), "more than %d devices; split the suite",
		       SUITE_MAX_DEVICES);
		return;
	}
	x->devs = calloc(cnt, sizeof(*x->devs));
	if (!x->devs) {
		err_at(x, NLINE(n), NCOL(n), "out of memory");
		return;
	}
	for (yaml_node_item_t *i = n->data.sequence.items.start;
	     i < n->data.sequence.items.top; i++) {
		yaml_node_t *dn = node_at(x, *i);
		struct dev *d = &x->devs[x->ndevs];
		if (!dn)
			continue;
		d->line = NLINE(dn);
		d->col = NCOL(dn);
		if (!each_pair(x, dn, "a device", device_pair, d))
			continue;
		if (!d->d.name[0]) {
			if (!d->named)
				err_at(x, d->line, d->col, "device without a 'name'");
			continue;
		}
		bool dup = false;
		for (size_t j = 0; j < x->ndevs; j++)
			if (!strcmp(x->devs[j].d.name, d->d.name)) {
				err_at(x, d->line, d->col,
				       "duplicate device name '%s' (first at line %u); names must be unique",
				       d->d.name, x->devs[j].line);
				dup = true;
			}
		if (!dup)
			x->ndevs++;
	}
}

/* A matrix or exclude value list: one scalar or a non-empty list. */
static int parse_values(struct ctx *x, int k, yaml_node_t *vn, struct mvals *m)
{
	yaml_node_t *single[1] = { vn };
	size_t cnt = 1;

	if (vn->type == YAML_MAPPING_NODE) {
		err_at(x, NLINE(vn), NCOL(vn), "'%s' takes a value or a list of values, not a map",
		       k >= 0 ? cell_keys[k].name : "device");
		return -1;
	}
	if (vn->type == YAML_SEQUENCE_NODE) {
		cnt = (size_t)(vn->data.sequence.items.top - vn->data.sequence.items.start);
		if (!cnt) {
			err_at(x, NLINE(vn), NCOL(vn), "'%s' has an empty list; give at least one value",
			       k >= 0 ? cell_keys[k].name : "device");
			return -1;
		}
	}
	m->vals = calloc(cnt, sizeof(*m->vals));
	if (!m->vals)
		return -1;
	for (size_t i = 0; i < cnt; i++) {
		yaml_node_t *en = vn->type == YAML_SEQUENCE_NODE ?
			node_at(x, vn->data.sequence.items.start[i]) : single[0];
		if (!en)
			continue;
		if (k < 0) { /* device name in an exclude */
			if (en->type != YAML_SCALAR_NODE) {
				err_at(x, NLINE(en), NCOL(en), "'device' takes a device name");
				continue;
			}
			bool found = false;
			for (size_t d = 0; d < x->ndevs; d++)
				found |= !strcmp(x->devs[d].d.name, suite_scalar(en));
			if (!found) {
				err_at(x, NLINE(en), NCOL(en), "unknown device '%s' in 'exclude'",
				       suite_scalar(en));
				continue;
			}
			m->vals[m->n].s = ctx_str(x, suite_scalar(en));
			m->n++;
			continue;
		}
		if (value_parse(x, k, en, &m->vals[m->n]) == 0)
			m->n++;
	}
	return m->n == cnt ? 0 : -1;
}

static void matrix_pair(struct ctx *x, const char *key, yaml_node_t *kn,
			yaml_node_t *vn, void *arg)
{
	(void)arg;
	int k = key_find(key);
	if (k < 0) {
		unknown_key(x, kn, key, "'matrix'", cell_key_names(false, false));
		return;
	}
	if (k == K_LABEL) {
		err_at(x, NLINE(kn), NCOL(kn),
		       "'label' names one cell: give it in an 'include' entry, not in 'matrix'");
		return;
	}
	struct mvals *m = &x->matrix[x->nmatrix];
	m->key = k;
	m->line = NLINE(kn);
	m->col = NCOL(kn);
	if (parse_values(x, k, vn, m) == 0 || m->n > 0)
		x->nmatrix++; /* keep the values that parsed: they are checked too */
	else {
		free(m->vals);
		memset(m, 0, sizeof(*m));
	}
}

static void parse_matrix(struct ctx *x, yaml_node_t *n)
{
	x->have_matrix = true;
	x->matrix_line = NLINE(n);
	x->matrix_col = NCOL(n);
	if (n->type == YAML_MAPPING_NODE) {
		size_t cnt = (size_t)(n->data.mapping.pairs.top - n->data.mapping.pairs.start);
		x->matrix = calloc(cnt ? cnt : 1, sizeof(*x->matrix));
		if (!x->matrix) {
			err_at(x, NLINE(n), NCOL(n), "out of memory");
			return;
		}
		if (!cnt)
			err_at(x, NLINE(n), NCOL(n), "'matrix' is empty; give keys with lists of values");
	}
	each_pair(x, n, "'matrix'", matrix_pair, NULL);
}

static void exclude_pair(struct ctx *x, const char *key, yaml_node_t *kn,
			 yaml_node_t *vn, void *arg)
{
	struct excl *e = arg;
	int k = strcmp(key, "device") ? key_find(key) : -1;

	if (k < 0 && strcmp(key, "device")) {
		unknown_key(x, kn, key, "'exclude'", cell_key_names(true, true));
		return;
	}
	struct mvals *m = &e->m[e->n];
	m->key = k;
	m->line = NLINE(kn);
	m->col = NCOL(kn);
	if (parse_values(x, k, vn, m) == 0)
		e->n++;
	else {
		free(m->vals);
		memset(m, 0, sizeof(*m));
	}
}

/* device: NAME or [A, B] in an include entry: the devices it runs on. */
static void include_devices(struct ctx *x, struct incl *in, yaml_node_t *vn)
{
	size_t cnt = vn->type == YAML_SEQUENCE_NODE ?
		(size_t)(vn->data.sequence.items.top - vn->data.sequence.items.start) : 1;
	in->dline = NLINE(vn);
	in->dcol = NCOL(vn);
	if (vn->type == YAML_MAPPING_NODE || !cnt) {
		err_at(x, NLINE(vn), NCOL(vn), "'device' takes a device name or a list of them");
		return;
	}
	free(in->devs);
	in->ndevs = 0;
	in->devs = calloc(cnt, sizeof(*in->devs));
	if (!in->devs) {
		err_at(x, NLINE(vn), NCOL(vn), "out of memory");
		return;
	}
	for (size_t i = 0; i < cnt; i++) {
		yaml_node_t *en = vn->type == YAML_SEQUENCE_NODE ?
			node_at(x, vn->data.sequence.items.start[i]) : vn;
		if (!en || en->type != YAML_SCALAR_NODE) {
			err_at(x, en ? NLINE(en) : in->dline, en ? NCOL(en) : in->dcol,
			       "'device' takes a device name");
			continue;
		}
		in->devs[in->ndevs++] = ctx_str(x, suite_scalar(en));
	}
}

struct incl_arg {
	struct incl *in;
	struct pset_arg ps;
};

/* A key of an include entry: device picks the devices, the rest are cell
 * keys (label too). */
static void include_pair(struct ctx *x, const char *key, yaml_node_t *kn,
			 yaml_node_t *vn, void *arg)
{
	struct incl_arg *a = arg;
	if (!strcmp(key, "device"))
		include_devices(x, a->in, vn);
	else if (key_find(key) < 0)
		unknown_key(x, kn, key, "an 'include' entry", cell_key_names(true, true));
	else
		pset_pair(x, key, kn, vn, &a->ps);
}

/* parse a list of maps: exclude or include */
static void parse_list(struct ctx *x, yaml_node_t *n, bool is_include)
{
	const char *what = is_include ? "'include'" : "'exclude'";

	if (n->type != YAML_SEQUENCE_NODE) {
		err_at(x, NLINE(n), NCOL(n), "%s must be a list of maps ('- {pattern: read, bs: 4k}'), not %s",
		       what, ykit_kind(n));
		return;
	}
	size_t cnt = (size_t)(n->data.sequence.items.top - n->data.sequence.items.start);
	if (!is_include && cnt > SUITE_MAX_EXCLUDES) {
		err_at(x, NLINE(n), NCOL(n), "more than %d 'exclude' entries; narrow the matrix instead",
		       SUITE_MAX_EXCLUDES);
		return;
	}
	if (is_include)
		x->incl = calloc(cnt ? cnt : 1, sizeof(*x->incl));
	else
		x->excl = calloc(cnt ? cnt : 1, sizeof(*x->excl));
	if (is_include ? !x->incl : !x->excl) {
		err_at(x, NLINE(n), NCOL(n), "out of memory");
		return;
	}
	for (yaml_node_item_t *i = n->data.sequence.items.start;
	     i < n->data.sequence.items.top; i++) {
		yaml_node_t *en = node_at(x, *i);
		if (!en)
			continue;
		if (is_include) {
			struct incl *in = &x->incl[x->nincl];
			struct incl_arg a = { in, { &in->ps, "an 'include' entry", true } };
			in->line = NLINE(en);
			in->col = NCOL(en);
			if (en->type == YAML_MAPPING_NODE &&
			    en->data.mapping.pairs.top == en->data.mapping.pairs.start) {
				err_at(x, in->line, in->col, "empty 'include' entry");
				continue;
			}
			if (each_pair(x, en, "an 'include' entry", include_pair, &a))
				x->nincl++;
			else
				memset(in, 0, sizeof(*in));
		} else {
			struct excl *e = &x->excl[x->nexcl];
			size_t np = en->type == YAML_MAPPING_NODE ?
				(size_t)(en->data.mapping.pairs.top - en->data.mapping.pairs.start) : 0;
			if (en->type == YAML_MAPPING_NODE && !np) {
				err_at(x, NLINE(en), NCOL(en),
				       "empty 'exclude' entry would drop every cell");
				continue;
			}
			e->m = calloc(np ? np : 1, sizeof(*e->m));
			if (!e->m)
				continue;
			x->nexcl++; /* counted now so that its memory is freed */
			each_pair(x, en, "an 'exclude' entry", exclude_pair, e);
		}
	}
}

/* hosts: [h1, user@h2] -- the fleet of `run --hosts` (the command line
 * wins).  Only the shape is checked here; the fleet checks each name as
 * an ssh destination before ssh runs. */
static void parse_hosts(struct ctx *x, yaml_node_t *vn)
{
	if (vn->type != YAML_SEQUENCE_NODE) {
		err_at(x, NLINE(vn), NCOL(vn), "'hosts' must be a list of ssh destinations, e.g. [web1, user@db2]");
		return;
	}
	size_t n = (size_t)(vn->data.sequence.items.top - vn->data.sequence.items.start);
	char **h = calloc(n ? n : 1, sizeof(*h));
	if (!h)
		return;
	for (yaml_node_item_t *it = vn->data.sequence.items.start;
	     it < vn->data.sequence.items.top; it++) {
		yaml_node_t *en = node_at(x, *it);
		if (!en || en->type != YAML_SCALAR_NODE || !*suite_scalar(en)) {
			err_at(x, en ? NLINE(en) : NLINE(vn), en ? NCOL(en) : NCOL(vn),
			       "each host must be an ssh destination (text)");
			continue;
		}
		h[x->s->nhosts] = strdup(suite_scalar(en));
		if (h[x->s->nhosts])
			x->s->nhosts++;
	}
	for (size_t i = 0; x->s->hosts && i < x->s->nhosts; i++)
		free(x->s->hosts[i]);
	free(x->s->hosts);
	x->s->hosts = h;
}

void top_pair(struct ctx *x, const char *key, yaml_node_t *kn,
	      yaml_node_t *vn, void *arg)
{
	(void)arg;
	if (!strcmp(key, "suite")) {
		x->have_suite = true;
		if (vn->type != YAML_SCALAR_NODE || !name_ok(suite_scalar(vn), false)) {
			err_at(x, NLINE(vn), NCOL(vn),
			       "bad suite name%s%s%s: use 1..%d of a-z 0-9 . _ -",
			       vn->type == YAML_SCALAR_NODE ? " '" : "",
			       vn->type == YAML_SCALAR_NODE ? suite_scalar(vn) : "",
			       vn->type == YAML_SCALAR_NODE ? "'" : "", CELL_NAME_MAX - 1);
			return;
		}
		free(x->s->name);
		x->s->name = strdup(suite_scalar(vn));
	} else if (!strcmp(key, "title") || !strcmp(key, "description")) {
		if (vn->type != YAML_SCALAR_NODE) {
			err_at(x, NLINE(vn), NCOL(vn), "'%s' must be text, not %s", key,
			       ykit_kind(vn));
			return;
		}
		char **dst = !strcmp(key, "title") ? &x->s->title : &x->s->description;
		free(*dst);
		*dst = strdup(suite_scalar(vn));
	} else if (!strcmp(key, "defaults")) {
		parse_defaults(x, vn);
	} else if (!strcmp(key, "devices")) {
		x->have_devices = true;
		parse_devices(x, vn);
	} else if (!strcmp(key, "matrix")) {
		parse_matrix(x, vn);
	} else if (!strcmp(key, "exclude")) {
		parse_list(x, vn, false);
	} else if (!strcmp(key, "include")) {
		parse_list(x, vn, true);
	} else if (!strcmp(key, "keep_files")) {
		if (value_parse(x, K_KEEP_FILES, vn, &x->top_keep) == 0)
			x->have_top_keep = true;
	} else if (!strcmp(key, "rounds")) {
		struct ykit y = ctx_ykit(x);
		ssd_parse_rounds(&y, vn, &x->s->rounds, &x->track_pos);
	} else if (!strcmp(key, "hosts")) {
		parse_hosts(x, vn);
	} else if (!strcmp(key, "aggregate")) {
		const char *v = vn->type == YAML_SCALAR_NODE ? suite_scalar(vn) : "";
		if (!strcmp(v, "true") || !strcmp(v, "yes"))
			x->s->aggregate = 1;
		else if (!strcmp(v, "false") || !strcmp(v, "no"))
			x->s->aggregate = 0;
		else
			err_at(x, NLINE(vn), NCOL(vn), "'aggregate' must be true or false");
	} else {
		char sug[96];
		suite_suggest(key, top_keys, sug, sizeof(sug));
		if (!sug[0] && key_find(key) >= 0)
			snprintf(sug, sizeof(sug), " (cell keys go under 'defaults' or 'matrix')");
		err_at(x, NLINE(kn), NCOL(kn), "unknown key '%s'%s", key, sug);
	}
}
