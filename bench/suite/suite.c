/*
 * suite.c - load a YAML suite, validate it strictly and expand its matrix into
 * cells (suite.h).  Every cell key goes through ONE table (cell_keys[] of keys.c):
 * parsing, range checks, defaults, the key help and did-you-mean all read it.
 * All errors of a file are collected in one pass, each with line:col.
 *
 * libyaml boundary: the yaml_document_t is owned by suite_load_buffer() and
 * deleted before it returns; nothing keeps pointers into it (values are
 * copied into struct kval / struct suite).
 */
#include <ctype.h>
#include <errno.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <sys/stat.h>

#include <yaml.h>

#include "common/fsutil.h"
#include "engines/engine.h"
#include "common/sha256.h"
#include "keys.h"
#include "ssd_keys.h"
#include "suite.h"
#include "common/cpulist.h"
#include "common/units.h"

/* A "billion laughs" file is small but its aliases expand to billions of
 * nodes.  We walk the document once, counting every node visit through
 * aliases, and give up past the document's own nodes plus this bound. */
#define SUITE_MAX_ALIAS_NODES 10000
#define SUITE_MAX_DEPTH 32
/* Enumerating the raw product to apply `exclude` is cheap, but not forever. */
#define SUITE_MAX_RAW_PRODUCT 1000000ULL
/* No map of a suite has more keys than the key table; devices and exclude
 * entries are compared pairwise, so bound them to keep validation fast on
 * hostile input. */
#define SUITE_MAX_MAP_KEYS 64
#define SUITE_MAX_DEVICES 256
#define SUITE_MAX_EXCLUDES 64
#define SUITE_MAX_ERRORS 200

static const char *const top_keys[] = { "suite", "title", "description",
	"defaults", "devices", "matrix", "exclude", "include", "keep_files",
	"rounds", "hosts", "aggregate", NULL };
static const char *const pattern_words[] = { "read", "write", "randread",
	"randwrite", "readwrite", "randrw", "rewrite", "seqrd", "seqwr", "rndrd",
	"rndwr", "rndrw", "seqrewr", NULL };

/* One parsed value of a key, with where it was written. */
struct kval {
	uint64_t u;      /* pattern, sizes, numbers, bools, durations, data kind */
	double pct;      /* KT_SIZE_PCT/KT_OFFSET: >0 percent; KT_DATA: compress % */
	const char *s;   /* engine, label, cpulist, exclude device: owned by
			  * the ctx (ctx_str), NULL for the other types; a
			  * matrix of 100,000 numbers carries no string room */
	const struct steady_rule *ss; /* KT_STEADY, owned by the ctx */
	unsigned line, col;
};

/* A set of key values (defaults, a device, an include entry). */
struct pset {
	uint64_t set;            /* bit k: cell_keys[k] given */
	struct kval v[NKEYS];
};

struct mvals {                   /* one matrix key, or one exclude key */
	int key;                 /* index in cell_keys[], or -1: device (exclude) */
	struct kval *vals;
	size_t n;
	unsigned line, col;
};

struct dev {
	struct suite_device d;
	bool has_path;
	bool named;          /* a name was given (maybe a bad one) */
	struct pset ps;
	unsigned line, col;
	unsigned path_line, path_col; /* 0: from --device */
};

struct excl {
	struct mvals *m;
	size_t n;
};

struct incl {
	struct pset ps;
	unsigned line, col;
};

/* Where a key that only matters for some cells was given, and whether any
 * cell it reached could use it (rwmixread on a mixed pattern, fsync on a
 * writing one). */
struct usage {
	int key;
	unsigned line, col;
	bool used;
};

struct ctx {
	char **strs;         /* the strings of kvals (ctx_str), freed at release */
	size_t nstrs, astrs;
	const char *file;
	struct errlist *errs;
	unsigned nerrs_start;
	bool too_many;
	yaml_document_t *doc;
	struct suite *s;
	struct pset defaults;
	struct dev *devs;
	size_t ndevs;
	struct mvals *matrix;
	size_t nmatrix;
	unsigned matrix_line, matrix_col;
	bool have_matrix;
	struct excl *excl;
	size_t nexcl;
	struct incl *incl;
	size_t nincl;
	bool have_suite, have_devices;
	struct kval top_keep;      /* top-level keep_files, merged into defaults */
	bool have_top_keep;
	/* Parsing found errors: still check the cells that parsed, so every
	 * mistake is reported in one pass, but stay quiet about conclusions
	 * drawn from missing pieces (no pattern, empty matrix). */
	bool partial;
	struct usage *usage;
	size_t nusage, ausage;
	struct track_pos *track_pos; /* rounds: where each track was written */
};

/* ---- errors ------------------------------------------------------------ */

/* Add one error at a position; identical messages (one problem reached by
 * many cells) are reported once. */
static void err_at(struct ctx *x, unsigned line, unsigned col, const char *fmt, ...)
	__attribute__((format(printf, 4, 5)));
static void err_at(struct ctx *x, unsigned line, unsigned col, const char *fmt, ...)
{
	char msg[900];
	va_list ap;

	if (x->too_many)
		return;
	va_start(ap, fmt);
	vsnprintf(msg, sizeof(msg), fmt, ap);
	va_end(ap);
	errlist_add(x->errs, x->file, line, col, "%s", msg);
	struct errlist *e = x->errs;
	if (e->n > x->nerrs_start + 1) {
		for (size_t i = x->nerrs_start; i + 1 < e->n; i++)
			if (!strcmp(e->msgs[i], e->msgs[e->n - 1])) {
				free(e->msgs[--e->n]);
				return;
			}
	}
	if (e->n - x->nerrs_start >= SUITE_MAX_ERRORS) {
		errlist_add(e, x->file, 0, 0, "too many errors; stopping");
		x->too_many = true;
	}
}

static bool has_errors(const struct ctx *x)
{
	return x->errs->n > x->nerrs_start;
}

#define NLINE(n) ((unsigned)(n)->start_mark.line + 1)
#define NCOL(n) ((unsigned)(n)->start_mark.column + 1)

/* ---- did you mean ------------------------------------------------------ */

/* Optimal string alignment distance (a transposition costs 1: iodepht). */
static size_t edit_distance(const char *a, const char *b)
{
	size_t la = strlen(a), lb = strlen(b);
	size_t d[34][34];

	if (la > 32 || lb > 32)
		return 99;
	for (size_t i = 0; i <= la; i++)
		d[i][0] = i;
	for (size_t j = 0; j <= lb; j++)
		d[0][j] = j;
	for (size_t i = 1; i <= la; i++)
		for (size_t j = 1; j <= lb; j++) {
			size_t cost = tolower((unsigned char)a[i - 1]) !=
				      tolower((unsigned char)b[j - 1]);
			size_t v = d[i - 1][j] + 1;
			if (d[i][j - 1] + 1 < v)
				v = d[i][j - 1] + 1;
			if (d[i - 1][j - 1] + cost < v)
				v = d[i - 1][j - 1] + cost;
			if (i > 1 && j > 1 && a[i - 1] == b[j - 2] &&
			    a[i - 2] == b[j - 1] && d[i - 2][j - 2] + 1 < v)
				v = d[i - 2][j - 2] + 1;
			d[i][j] = v;
		}
	return d[la][lb];
}

/* " (did you mean 'x'?)" for the closest of words, or "" */
static void suggest(const char *word, const char *const *words, char *buf,
		    size_t len)
{
	const char *best = NULL;
	size_t bestd = 99, limit = strlen(word) <= 4 ? 1 : 2;

	for (size_t i = 0; words[i]; i++) {
		size_t d = edit_distance(word, words[i]);
		if (d < bestd) {
			bestd = d;
			best = words[i];
		}
	}
	if (best && bestd <= limit && bestd < strlen(word))
		snprintf(buf, len, " (did you mean '%s'?)", best);
	else
		buf[0] = '\0';
}

/* ---- document helpers -------------------------------------------------- */

static yaml_node_t *node_at(struct ctx *x, int idx)
{
	return yaml_document_get_node(x->doc, idx);
}

static const char *node_kind(const yaml_node_t *n)
{
	switch (n->type) {
	case YAML_SEQUENCE_NODE: return "a list";
	case YAML_MAPPING_NODE: return "a map";
	default: return "a value";
	}
}

static const char *scalar(const yaml_node_t *n)
{
	return (const char *)n->data.scalar.value;
}

/* True if the scalar is a plain (unquoted) YAML null: ~, null, or empty. */
static bool is_null(const yaml_node_t *n)
{
	if (n->type != YAML_SCALAR_NODE ||
	    n->data.scalar.style != YAML_PLAIN_SCALAR_STYLE)
		return false;
	const char *v = scalar(n);
	return !*v || !strcmp(v, "~") || !strcmp(v, "null") || !strcmp(v, "Null") ||
	       !strcmp(v, "NULL");
}

/* Count node visits through aliases; false once past the bound or depth. */
static bool count_nodes(struct ctx *x, yaml_node_t *n, unsigned depth,
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

/*
 * Check a mapping's keys: scalar, not duplicated.  Calls back for each pair
 * with a good key.  Returns false if n is not a mapping (error given).
 */
typedef void (*pair_fn)(struct ctx *x, const char *key, yaml_node_t *kn,
			yaml_node_t *vn, void *arg);
static bool each_pair(struct ctx *x, yaml_node_t *n, const char *what,
		      pair_fn fn, void *arg)
{
	if (n->type != YAML_MAPPING_NODE) {
		err_at(x, NLINE(n), NCOL(n), "%s must be a map of 'key: value', not %s",
		       what, node_kind(n));
		return false;
	}
	if (n->data.mapping.pairs.top - n->data.mapping.pairs.start > SUITE_MAX_MAP_KEYS) {
		err_at(x, NLINE(n), NCOL(n), "%s has more than %d keys; no suite map needs that many",
		       what, SUITE_MAX_MAP_KEYS);
		return false;
	}
	for (yaml_node_pair_t *p = n->data.mapping.pairs.start;
	     p < n->data.mapping.pairs.top; p++) {
		yaml_node_t *kn = node_at(x, p->key), *vn = node_at(x, p->value);
		if (!kn || !vn)
			continue;
		if (kn->type != YAML_SCALAR_NODE) {
			err_at(x, NLINE(kn), NCOL(kn), "a key in %s must be a name, not %s",
			       what, node_kind(kn));
			continue;
		}
		bool dup = false;
		for (yaml_node_pair_t *q = n->data.mapping.pairs.start; q < p; q++) {
			yaml_node_t *k2 = node_at(x, q->key);
			if (k2 && k2->type == YAML_SCALAR_NODE &&
			    !strcmp(scalar(k2), scalar(kn))) {
				err_at(x, NLINE(kn), NCOL(kn),
				       "duplicate key '%s' (first at line %u); keep one",
				       scalar(kn), NLINE(k2));
				dup = true;
				break;
			}
		}
		if (!dup)
			fn(x, scalar(kn), kn, vn, arg);
	}
	return true;
}

/* ---- values ------------------------------------------------------------ */

static void fmt_size(uint64_t v, char *buf, size_t len)
{
	units_format_size_short(v, buf, len);
	if (isdigit((unsigned char)buf[strlen(buf) - 1]) && strlen(buf) + 2 < len)
		strcat(buf, "B");
	else if (strlen(buf) + 3 < len)
		strcat(buf, "iB");
}

/* Range check of a parsed number/size/duration; error names the range. */
static int check_range(struct ctx *x, const struct key *k, const char *raw,
		       uint64_t v, unsigned line, unsigned col)
{
	char lo[32], hi[32];

	if (k->type == KT_INT ? (int64_t)v >= (int64_t)k->min && (int64_t)v <= (int64_t)k->max :
	    v >= k->min && (!k->max || v <= k->max))
		return 0;
	switch (k->type) {
	case KT_SIZE: case KT_SIZE_PCT: case KT_OFFSET:
		fmt_size(k->min, lo, sizeof(lo));
		fmt_size(k->max, hi, sizeof(hi));
		break;
	case KT_DURATION:
		units_format_duration(k->min, lo, sizeof(lo));
		units_format_duration(k->max, hi, sizeof(hi));
		break;
	case KT_INT:
		snprintf(lo, sizeof(lo), "%lld", (long long)(int64_t)k->min);
		snprintf(hi, sizeof(hi), "%lld", (long long)(int64_t)k->max);
		break;
	default:
		snprintf(lo, sizeof(lo), "%llu", (unsigned long long)k->min);
		snprintf(hi, sizeof(hi), "%llu", (unsigned long long)k->max);
	}
	if (k->max)
		err_at(x, line, col, "'%s' %s is out of range %s..%s", k->name,
		       raw, lo, hi);
	else
		err_at(x, line, col, "'%s' %s is too small: at least %s", k->name,
		       raw, lo);
	return -1;
}

/* A copy of v (n bytes; a string) owned by the ctx (kvals are copied by
 * value, so they share it); NULL ("" for a string) when out of memory,
 * with the error given. */
static const char *ctx_str_n(struct ctx *x, const void *v, size_t n)
{
	char *c;

	if (x->nstrs == x->astrs) {
		size_t na = x->astrs ? x->astrs * 2 : 64;
		char **p = realloc(x->strs, na * sizeof(*p));
		if (!p)
			goto oom;
		x->strs = p;
		x->astrs = na;
	}
	if (!(c = malloc(n)))
		goto oom;
	memcpy(c, v, n);
	x->strs[x->nstrs++] = c;
	return c;
oom:
	err_at(x, 0, 0, "out of memory");
	return NULL;
}

static const char *ctx_str(struct ctx *x, const char *v)
{
	const char *c = ctx_str_n(x, v, strlen(v) + 1);
	return c ? c : "";
}

/* A size; for 'size' and 'offset' also a percentage of the device. */
static int value_parse_size(struct ctx *x, const struct key *key, const char *v,
			    unsigned line, unsigned col, struct kval *out)
{
	/* v may be "" (a quoted empty scalar): no last character */
	if (key->type != KT_SIZE && v[0] && v[strlen(v) - 1] == '%') {
		double pct;
		if (key->type == KT_OFFSET && v[strspn(v, "0")] == '%' &&
		    v[0] == '0') {
			out->u = 0;
			return 0; /* "0%" is offset 0; "0junk%" is no number */
		}
		if (units_parse_percent(v, &pct) < 0 ||
		    (key->type == KT_OFFSET && pct >= 100.0)) {
			err_at(x, line, col, "'%s' %s is not a percentage in %s",
			       key->name, v, key->type == KT_OFFSET ?
			       "0..99.99%" : "0.01..100%");
			return -1;
		}
		out->pct = pct;
		return 0;
	}
	/* not a percentage: a size */
	if (units_parse_size(v, &out->u) < 0) {
		err_at(x, line, col, "'%s' %s is not a size (e.g. 4k, 1m, 8GiB%s)",
		       key->name, v, key->type == KT_SIZE ? "" : ", 50%");
		return -1;
	}
	return check_range(x, key, v, out->u, line, col);
}

/* 'data': random, zero or compressible:N. */
static int value_parse_data(struct ctx *x, const char *v, unsigned line, unsigned col,
			    struct kval *out)
{
	static const char *const kinds[] = { "random", "zero", "compressible", NULL };
	char sug[96];
	uint64_t pct;
	if (!strcmp(v, "random")) {
		out->u = DATA_RANDOM;
		return 0;
	}
	if (!strcmp(v, "zero")) {
		out->u = DATA_ZERO;
		return 0;
	}
	if (!strncmp(v, "compressible:", 13)) {
		if (units_parse_uint(v + 13, &pct) < 0 || pct > 100) {
			err_at(x, line, col, "'data' %s: the compressible share must be 0..100 (e.g. compressible:50)", v);
			return -1;
		}
		out->u = DATA_COMPRESSIBLE;
		out->pct = (double)pct;
		return 0;
	}
	suggest(v, kinds, sug, sizeof(sug));
	err_at(x, line, col, "unknown data '%s'%s; use random, zero or compressible:N",
	       v, sug);
	return -1;
}

/* A percentage in 0.01..100, with or without the '%'. */
static int value_parse_pct(struct ctx *x, const struct key *key, const char *v,
			   unsigned line, unsigned col, struct kval *out)
{
	char *end;
	double pct = v[strlen(v) - 1] == '%' ? (units_parse_percent(v, &pct) ?
		     -1 : pct) : strtod(v, &end);
	if (v[strlen(v) - 1] != '%' && (*end || end == v))
		pct = -1;
	if (!(pct > 0 && pct <= 100)) {
		err_at(x, line, col, "'%s' %s is not a percentage in 0.01..100%%",
		       key->name, v);
		return -1;
	}
	out->pct = pct;
	return 0;
}

/* A size, or a multiple of the file set (1.5x). */
static int value_parse_io_size(struct ctx *x, const struct key *key, const char *v,
			       unsigned line, unsigned col, struct kval *out)
{
	size_t l = strlen(v);
	if (l > 1 && (v[l - 1] == 'x' || v[l - 1] == 'X')) {
		char *end;
		double m = strtod(v, &end);
		if (end != v + l - 1 || !(m > 0 && m <= 1000)) {
			err_at(x, line, col, "'%s' %s: a multiple of the file set "
			       "must be in 0.01x..1000x (e.g. 1.5x)", key->name, v);
			return -1;
		}
		out->pct = m;
		return 0;
	}
	if (units_parse_size(v, &out->u) < 0) {
		err_at(x, line, col, "'%s' %s is not a size (e.g. 1g) or a "
		       "multiple of the file set (1.5x)", key->name, v);
		return -1;
	}
	return check_range(x, key, v, out->u, line, col);
}

/* A CPU list (0-3,8), kept in its canonical form. */
static int value_parse_cpulist(struct ctx *x, const struct key *key, const char *v,
			       unsigned line, unsigned col, struct kval *out)
{
	cpu_set_t set;
	char why[160];
	if (cpulist_parse(v, &set, why, sizeof(why)) < 0) {
		err_at(x, line, col, "'%s': %s", key->name, why);
		return -1;
	}
	char list[CELL_CPUS_MAX + 8];
	cpulist_format(&set, list, sizeof(list));
	if (strlen(list) + 1 >= CELL_CPUS_MAX) {
		err_at(x, line, col, "'%s' %s is too long a list; use ranges (0-63)",
		       key->name, v);
		return -1;
	}
	out->s = ctx_str(x, list);
	return 0;
}

/* 'label': one line of text, 1..CELL_LABEL_MAX-1 characters. */
static int value_parse_label(struct ctx *x, const char *v, unsigned line, unsigned col,
			     struct kval *out)
{
	if (strlen(v) >= CELL_LABEL_MAX || !*v) {
		err_at(x, line, col, "'label' must be 1..%d characters",
		       CELL_LABEL_MAX - 1);
		return -1;
	}
	for (const char *q = v; *q; q++)
		if ((unsigned char)*q < 0x20 || *q == 0x7f) {
			err_at(x, line, col, "'label' must be one line of text, without control characters");
			return -1;
		}
	out->s = ctx_str(x, v);
	return 0;
}

/* Parse one scalar node as the value of key k.  0 ok, -1 (error given). */
static int value_parse(struct ctx *x, int k, yaml_node_t *n, struct kval *out)
{
	const struct key *key = &cell_keys[k];
	unsigned line = NLINE(n), col = NCOL(n);
	char sug[96];
	const char *v;

	memset(out, 0, sizeof(*out));
	out->line = line;
	out->col = col;
	if (key->type == KT_STEADY) {
		struct ykit y = { x->doc, x->errs, x->file };
		struct steady_rule r;
		int ret = ssd_parse_steady(&y, n, &r);
		char *keep = ret == 0 ? (char *)ctx_str_n(x, &r, sizeof(r)) : NULL;
		if (keep)
			out->ss = (const struct steady_rule *)keep;
		return keep || ret < 0 ? ret : -1;
	}
	if (n->type != YAML_SCALAR_NODE) {
		err_at(x, line, col, "'%s' takes a single value here, not %s",
		       key->name, node_kind(n));
		return -1;
	}
	v = scalar(n);
	/* `engine: null` means the null engine, not a YAML null */
	if (is_null(n) && !(key->type == KT_ENGINE && !strcmp(v, "null"))) {
		err_at(x, line, col, "'%s' has no value", key->name);
		return -1;
	}
	switch (key->type) {
	case KT_PATTERN: {
		enum pattern p;
		if (pattern_parse(v, &p) < 0) {
			suggest(v, pattern_words, sug, sizeof(sug));
			err_at(x, line, col, "unknown pattern '%s'%s", v, sug);
			return -1;
		}
		out->u = (uint64_t)p;
		return 0;
	}
	case KT_SIZE_PCT:
	case KT_OFFSET:
	case KT_SIZE:
		return value_parse_size(x, key, v, line, col, out);
	case KT_UINT:
	case KT_U64:
		if (units_parse_uint(v, &out->u) < 0) {
			err_at(x, line, col, "'%s' must be a whole number, not '%s'",
			       key->name, v);
			return -1;
		}
		if (key->type == KT_UINT && !key->max && out->u > 0xffffffffULL) {
			err_at(x, line, col, "'%s' %s is too large", key->name, v);
			return -1;
		}
		return check_range(x, key, v, out->u, line, col);
	case KT_BOOL:
		if (!strcasecmp(v, "true") || !strcasecmp(v, "yes") || !strcasecmp(v, "on"))
			out->u = 1;
		else if (!strcasecmp(v, "false") || !strcasecmp(v, "no") ||
			 !strcasecmp(v, "off"))
			out->u = 0;
		else {
			err_at(x, line, col, "'%s' must be true or false, not '%s'",
			       key->name, v);
			return -1;
		}
		return 0;
	case KT_ENGINE:
		/* known engines validate even when not built in: `run` says
		 * how to get one, `plan` and `export` need none */
		if (engine_lookup(v)) {
			out->s = ctx_str(x, v);
			return 0;
		}
		suggest(v, engine_names(), sug, sizeof(sug));
		err_at(x, line, col, "unknown engine '%s'%s; use %s", v, sug,
		       engine_names_text());
		return -1;
	case KT_DURATION:
		if (units_parse_duration(v, &out->u) < 0) {
			err_at(x, line, col, "'%s' %s is not a duration (e.g. 500ms, 30s, 2m)",
			       key->name, v);
			return -1;
		}
		return check_range(x, key, v, out->u, line, col);
	case KT_DATA:
		return value_parse_data(x, v, line, col, out);
	case KT_PCT:
		return value_parse_pct(x, key, v, line, col, out);
	case KT_IO_SIZE:
		return value_parse_io_size(x, key, v, line, col, out);
	case KT_STEADY:
		return -1; /* handled above */
	case KT_INT: {
		bool neg = v[0] == '-';
		if (units_parse_uint(v + neg, &out->u) < 0 || out->u > 0x7fffffffULL) {
			err_at(x, line, col, "'%s' must be a whole number, not '%s'",
			       key->name, v);
			return -1;
		}
		out->u = neg ? (uint64_t)-(int64_t)out->u : out->u;
		return check_range(x, key, v, out->u, line, col);
	}
	case KT_CPULIST:
		return value_parse_cpulist(x, key, v, line, col, out);
	case KT_LABEL:
		return value_parse_label(x, v, line, col, out);
	}
	return -1;
}

/* Store a parsed value into a cell. */
static void value_apply(int k, const struct kval *v, struct cell *c)
{
	switch (cell_keys[k].type) {
	case KT_SIZE_PCT:
		c->size = v->pct > 0 ? 0 : v->u;
		c->size_pct = v->pct;
		break;
	case KT_OFFSET:
		c->offset = v->pct > 0 ? 0 : v->u;
		c->offset_pct = v->pct;
		break;
	case KT_ENGINE: {
		size_t n = strnlen(v->s, sizeof(c->engine) - 1); /* names are short */
		memcpy(c->engine, v->s, n);
		c->engine[n] = '\0';
		break;
	}
	case KT_DATA:
		c->data = (enum data_kind)v->u;
		c->compress_pct = (unsigned)v->pct;
		break;
	case KT_LABEL:
		snprintf(c->label, sizeof(c->label), "%.*s", (int)sizeof(c->label) - 1, v->s);
		c->label_given = true;
		break;
	case KT_PCT:
		memcpy((char *)c + cell_keys[k].off, &v->pct, sizeof(double));
		break;
	case KT_STEADY:
		if (v->ss)
			c->steady = *v->ss;
		break;
	case KT_IO_SIZE:
		c->io_size = v->pct > 0 ? 0 : v->u;
		c->io_size_mult = v->pct;
		break;
	case KT_CPULIST:
		snprintf(c->cpus_allowed, sizeof(c->cpus_allowed), "%s", v->s);
		break;
	default:
		key_store_u64(k, c, v->u);
		break;
	}
	if (k == K_INTERVAL)
		c->interval_given = true;
}

/* Does the cell hold the value v for key k?  (exclude matching; called
 * for every raw matrix cell and exclude entry, so no copies) */
static bool value_matches(int k, const struct kval *v, const struct cell *c)
{
	switch (cell_keys[k].type) {
	case KT_SIZE_PCT:
		return v->pct > 0 ? c->size_pct == v->pct :
				    (c->size_pct == 0 && c->size == v->u);
	case KT_OFFSET:
		return v->pct > 0 ? c->offset_pct == v->pct :
				    (c->offset_pct == 0 && c->offset == v->u);
	case KT_ENGINE: return !strcmp(c->engine, v->s);
	case KT_DATA:
		return (uint64_t)c->data == v->u &&
		       (v->u != DATA_COMPRESSIBLE || c->compress_pct == (unsigned)v->pct);
	case KT_LABEL: return !strcmp(v->s, c->label);
	case KT_PCT: {
		double d;
		memcpy(&d, (const char *)c + cell_keys[k].off, sizeof(d));
		return d == v->pct;
	}
	case KT_STEADY: return v->ss && !memcmp(&c->steady, v->ss, sizeof(*v->ss));
	case KT_IO_SIZE:
		return v->pct > 0 ? c->io_size_mult == v->pct :
				    (c->io_size_mult == 0 && c->io_size == v->u);
	case KT_CPULIST: return !strcmp(v->s, c->cpus_allowed);
	case KT_BOOL: return key_load_u64(k, c) == (v->u != 0);
	default: return key_load_u64(k, c) == v->u;
	}
}

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

static void unknown_key(struct ctx *x, yaml_node_t *kn, const char *key,
			const char *where, const char *const *words)
{
	char sug[96];

	suggest(key, words, sug, sizeof(sug));
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
		if (vn->type != YAML_SCALAR_NODE || is_null(vn)) {
			err_at(x, NLINE(vn), NCOL(vn), "device '%s' must be a string", key);
			return;
		}
		const char *v = scalar(vn);
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
		struct ykit y = { x->doc, x->errs, x->file };
		if (!strcmp(key, "purge"))
			ssd_parse_purge(&y, vn, &d->d);
		else
			ssd_parse_precondition(&y, vn, &d->d.pre);
		return;
	}
	if (!strcmp(key, "destructive")) {
		if (vn->type != YAML_SCALAR_NODE ||
		    (strcasecmp(scalar(vn), "true") && strcasecmp(scalar(vn), "false") &&
		     strcasecmp(scalar(vn), "yes") && strcasecmp(scalar(vn), "no"))) {
			err_at(x, NLINE(vn), NCOL(vn), "'destructive' must be true or false");
			return;
		}
		d->d.destructive = !strcasecmp(scalar(vn), "true") ||
				   !strcasecmp(scalar(vn), "yes");
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
		       node_kind(n));
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
				found |= !strcmp(x->devs[d].d.name, scalar(en));
			if (!found) {
				err_at(x, NLINE(en), NCOL(en), "unknown device '%s' in 'exclude'",
				       scalar(en));
				continue;
			}
			m->vals[m->n].s = ctx_str(x, scalar(en));
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

/* parse a list of maps: exclude or include */
static void parse_list(struct ctx *x, yaml_node_t *n, bool is_include)
{
	const char *what = is_include ? "'include'" : "'exclude'";

	if (n->type != YAML_SEQUENCE_NODE) {
		err_at(x, NLINE(n), NCOL(n), "%s must be a list of maps ('- {pattern: read, bs: 4k}'), not %s",
		       what, node_kind(n));
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
			struct pset_arg a = { &in->ps, "an 'include' entry", true };
			in->line = NLINE(en);
			in->col = NCOL(en);
			if (en->type == YAML_MAPPING_NODE &&
			    en->data.mapping.pairs.top == en->data.mapping.pairs.start) {
				err_at(x, in->line, in->col, "empty 'include' entry");
				continue;
			}
			if (each_pair(x, en, "an 'include' entry", pset_pair, &a))
				x->nincl++;
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
		if (!en || en->type != YAML_SCALAR_NODE || !*scalar(en)) {
			err_at(x, en ? NLINE(en) : NLINE(vn), en ? NCOL(en) : NCOL(vn),
			       "each host must be an ssh destination (text)");
			continue;
		}
		h[x->s->nhosts] = strdup(scalar(en));
		if (h[x->s->nhosts])
			x->s->nhosts++;
	}
	for (size_t i = 0; x->s->hosts && i < x->s->nhosts; i++)
		free(x->s->hosts[i]);
	free(x->s->hosts);
	x->s->hosts = h;
}

static void top_pair(struct ctx *x, const char *key, yaml_node_t *kn,
		     yaml_node_t *vn, void *arg)
{
	(void)arg;
	if (!strcmp(key, "suite")) {
		x->have_suite = true;
		if (vn->type != YAML_SCALAR_NODE || !name_ok(scalar(vn), false)) {
			err_at(x, NLINE(vn), NCOL(vn),
			       "bad suite name%s%s%s: use 1..%d of a-z 0-9 . _ -",
			       vn->type == YAML_SCALAR_NODE ? " '" : "",
			       vn->type == YAML_SCALAR_NODE ? scalar(vn) : "",
			       vn->type == YAML_SCALAR_NODE ? "'" : "", CELL_NAME_MAX - 1);
			return;
		}
		free(x->s->name);
		x->s->name = strdup(scalar(vn));
	} else if (!strcmp(key, "title") || !strcmp(key, "description")) {
		if (vn->type != YAML_SCALAR_NODE) {
			err_at(x, NLINE(vn), NCOL(vn), "'%s' must be text, not %s", key,
			       node_kind(vn));
			return;
		}
		char **dst = !strcmp(key, "title") ? &x->s->title : &x->s->description;
		free(*dst);
		*dst = strdup(scalar(vn));
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
		struct ykit y = { x->doc, x->errs, x->file };
		ssd_parse_rounds(&y, vn, &x->s->rounds, &x->track_pos);
	} else if (!strcmp(key, "hosts")) {
		parse_hosts(x, vn);
	} else if (!strcmp(key, "aggregate")) {
		const char *v = vn->type == YAML_SCALAR_NODE ? scalar(vn) : "";
		if (!strcmp(v, "true") || !strcmp(v, "yes"))
			x->s->aggregate = 1;
		else if (!strcmp(v, "false") || !strcmp(v, "no"))
			x->s->aggregate = 0;
		else
			err_at(x, NLINE(vn), NCOL(vn), "'aggregate' must be true or false");
	} else {
		char sug[96];
		suggest(key, top_keys, sug, sizeof(sug));
		if (!sug[0] && key_find(key) >= 0)
			snprintf(sug, sizeof(sug), " (cell keys go under 'defaults' or 'matrix')");
		err_at(x, NLINE(kn), NCOL(kn), "unknown key '%s'%s", key, sug);
	}
}

/* ---- expansion --------------------------------------------------------- */

struct pos {
	unsigned line[NKEYS], col[NKEYS]; /* 0: default */
};

static void pset_apply(const struct pset *ps, struct cell *c, struct pos *p)
{
	for (int k = 0; k < NKEYS; k++)
		if (ps->set & (1ull << k)) {
			value_apply(k, &ps->v[k], c);
			p->line[k] = ps->v[k].line;
			p->col[k] = ps->v[k].col;
		}
}

static void usage_note(struct ctx *x, int k, const struct pos *p, bool used)
{
	if (!p->line[k])
		return;
	for (size_t i = 0; i < x->nusage; i++)
		if (x->usage[i].key == k && x->usage[i].line == p->line[k] &&
		    x->usage[i].col == p->col[k]) {
			x->usage[i].used |= used;
			return;
		}
	if (x->nusage == x->ausage) {
		size_t na = x->ausage ? x->ausage * 2 : 16;
		struct usage *u = realloc(x->usage, na * sizeof(*u));
		if (!u)
			return;
		x->usage = u;
		x->ausage = na;
	}
	x->usage[x->nusage++] = (struct usage){ k, p->line[k], p->col[k], used };
}

/* The batching and io_uring keys of one resolved cell.  An io_uring key
 * set where no cell it reaches uses io_uring is an error (fio refuses
 * them for other engines), found through usage_note() like rwmixread. */
static void cell_check_engine_opts(struct ctx *x, const struct cell *c,
				   const struct pos *p, unsigned fl, unsigned fc)
{
#define L(k) (p->line[k] ? p->line[k] : fl)
#define C(k) (p->line[k] ? p->col[k] : fc)
	const struct engine *eng = engine_lookup(c->engine);
	bool async = eng && (eng->flags & ENGINE_ASYNC);
	bool uring = !strcmp(c->engine, "io_uring");
	static const int uring_keys[] = { K_REGISTERFILES, K_FIXEDBUFS, K_SQPOLL,
					  K_HIPRI, K_NONVECTORED };

	if (c->iodepth_batch_complete_max &&
	    c->iodepth_batch_complete_max < c->iodepth_batch_complete_min)
		err_at(x, L(K_BATCH_CMAX), C(K_BATCH_CMAX),
		       "'iodepth_batch_complete_max' %u is below 'iodepth_batch_complete_min' %u; raise it, or 0 for up to iodepth",
		       c->iodepth_batch_complete_max, c->iodepth_batch_complete_min);
	if (uring && c->hipri && !c->direct)
		err_at(x, L(K_HIPRI), C(K_HIPRI),
		       "'hipri' needs 'direct: true': polled completions exist for O_DIRECT IO only");
	usage_note(x, K_IODEPTH_BATCH, p, async);
	usage_note(x, K_BATCH_CMIN, p, async);
	usage_note(x, K_BATCH_CMAX, p, async);
	for (size_t i = 0; i < sizeof(uring_keys) / sizeof(uring_keys[0]); i++)
		usage_note(x, uring_keys[i], p, uring);
	usage_note(x, K_SQPOLL_CPU, p, uring && c->sqthread_poll);
#undef L
#undef C
}

/* Why a key that no cell uses is an error (usage_note() found it unused). */
static const char *usage_text(int k)
{
	switch (k) {
	case K_RWMIXREAD:
		return "'%s' only applies to readwrite or randrw, and no cell it reaches has one";
	case K_FSYNC: case K_END_FSYNC:
		return "'%s' only applies to writes, and no cell it reaches writes";
	case K_IODEPTH_BATCH: case K_BATCH_CMIN: case K_BATCH_CMAX:
		return "'%s' only applies to an async engine (libaio, io_uring), and no cell it reaches uses one";
	case K_SQPOLL_CPU:
		return "'%s' only applies with 'sqthread_poll: true' and engine io_uring, and no cell it reaches has both";
	default:
		return "'%s' is an io_uring option, and no cell it reaches has 'engine: io_uring'";
	}
}

/* Checks that involve several keys of one resolved cell. */
static void cell_check(struct ctx *x, const struct cell *c, const struct pos *p,
		       unsigned fl, unsigned fc)
{
	char a[32], b[32];
#define L(k) (p->line[k] ? p->line[k] : fl)
#define C(k) (p->line[k] ? p->col[k] : fc)

	if (!p->line[K_PATTERN] && !x->partial)
		err_at(x, fl, fc, "no 'pattern' for this cell; set it in 'defaults', 'matrix' or the entry");
	if (c->direct && c->bs % 512)
		err_at(x, L(K_BS), C(K_BS),
		       "'bs' %llu is not a multiple of 512, which 'direct: true' needs; use a multiple of 512 or 'direct: false'",
		       (unsigned long long)c->bs);
	/* A synchronous engine does one IO at a time per job: a Q32 label on a
	 * QD1 measurement would be a wrong number in a report, so this is an
	 * error, not a warning.  Use jobs for parallel synchronous IO. */
	const struct engine *eng = engine_lookup(c->engine);
	if (eng && !(eng->flags & ENGINE_ASYNC) && c->iodepth > 1)
		err_at(x, L(K_IODEPTH), C(K_IODEPTH),
		       "'iodepth' %u with engine '%s', which is synchronous (one IO per job); use iodepth 1 and 'jobs' for parallelism, or an async engine",
		       c->iodepth, c->engine);
	if (!c->size_pct && c->size < c->bs) {
		fmt_size(c->size, a, sizeof(a));
		fmt_size(c->bs, b, sizeof(b));
		err_at(x, L(K_SIZE), C(K_SIZE), "'size' %s is smaller than 'bs' %s", a, b);
	}
	if (!c->size_pct && !c->offset_pct && c->offset && c->offset >= c->size) {
		fmt_size(c->offset, a, sizeof(a));
		fmt_size(c->size, b, sizeof(b));
		err_at(x, L(K_OFFSET), C(K_OFFSET),
		       "'offset' %s leaves nothing of 'size' %s; use a smaller offset or a percentage",
		       a, b);
	}
	if (c->io_size && c->io_size < c->bs)
		err_at(x, L(K_IO_SIZE), C(K_IO_SIZE), "'io_size' is smaller than 'bs'");
	if (c->direct && c->offset % 512)
		err_at(x, L(K_OFFSET), C(K_OFFSET),
		       "'offset' is not a multiple of 512, which 'direct: true' needs");
	usage_note(x, K_RWMIXREAD, p, pattern_is_mixed(c->pattern));
	usage_note(x, K_FSYNC, p, pattern_writes(c->pattern));
	usage_note(x, K_END_FSYNC, p, pattern_writes(c->pattern));
	cell_check_engine_opts(x, c, p, fl, fc);
#undef L
#undef C
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
		cell_label_derive(c, c->label, sizeof(c->label));
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

/* Cells measured the same way: the device and every parameter from
 * `pattern` on (the label is only a name).  Fields are compared as bytes:
 * every cell starts from cell_init()'s memset, so padding is zero. */
static int cell_param_cmp(const struct cell *a, const struct cell *b)
{
	int r = strcmp(a->device, b->device);
	if (r)
		return r;
	return memcmp((const char *)a + offsetof(struct cell, pattern),
		      (const char *)b + offsetof(struct cell, pattern),
		      sizeof(struct cell) - offsetof(struct cell, pattern));
}

static const struct cell *sort_cells; /* qsort has no context argument */

static int cell_idx_cmp(const void *pa, const void *pb)
{
	size_t a = *(const size_t *)pa, b = *(const size_t *)pb;
	int r = cell_param_cmp(&sort_cells[a], &sort_cells[b]);
	return r ? r : (a < b ? -1 : a > b);
}

struct srcpos {
	unsigned line, col;
};

static int size_cmp(const void *pa, const void *pb)
{
	size_t a = *(const size_t *)pa, b = *(const size_t *)pb;
	return a < b ? -1 : a > b;
}

/* A cell that repeats another measures nothing new and shows twice in a
 * report: an error at the later one's matrix or include entry, once per
 * entry (not again for every device), in run order. */
static void duplicates_check(struct ctx *x, const struct srcpos *src)
{
	size_t n = x->s->ncells, ndup = 0;
	size_t *ord = calloc(n ? n : 1, sizeof(*ord));
	size_t *dup = calloc(n ? n : 1, sizeof(*dup));   /* later cell */
	size_t *orig = calloc(n ? n : 1, sizeof(*orig)); /* cell it repeats, by index */

	if (!ord || !dup || !orig)
		goto out;
	for (size_t i = 0; i < n; i++)
		ord[i] = i;
	sort_cells = x->s->cells;
	qsort(ord, n, sizeof(*ord), cell_idx_cmp);
	sort_cells = NULL;
	for (size_t i = 1; i < n; i++) {
		size_t first = ord[i - 1];
		while (i < n && !cell_param_cmp(&x->s->cells[first], &x->s->cells[ord[i]])) {
			orig[ord[i]] = first;
			dup[ndup++] = ord[i];
			i++;
		}
	}
	qsort(dup, ndup, sizeof(*dup), size_cmp);
	for (size_t k = 0; k < ndup; k++) {
		size_t j = dup[k];
		const struct cell *c = &x->s->cells[j], *a = &x->s->cells[orig[j]];
		bool seen = false;
		for (size_t q = 0; q < k && !seen; q++)
			seen = src[dup[q]].line == src[j].line && src[dup[q]].col == src[j].col &&
			       src[orig[dup[q]]].line == src[orig[j]].line &&
			       src[orig[dup[q]]].col == src[orig[j]].col;
		if (seen)
			continue;
		err_at(x, src[j].line, src[j].col,
		       "cell %d ('%s' on '%s') repeats cell %d ('%s') with the same parameters; drop one or make them differ",
		       c->id, c->label, c->device, a->id, a->label);
	}
out:
	free(ord);
	free(dup);
	free(orig);
}

static void expand(struct ctx *x, const struct suite_opts *opts)
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
	for (size_t d = 0; d < x->ndevs; d++)
		for (size_t i = 0; i < x->nincl; i++) {
			cell_resolve(x, &x->devs[d], NULL, &x->incl[i], &c, &p);
			cell_check(x, &c, &p, x->incl[i].line, x->incl[i].col);
		}
	for (size_t i = 0; i < x->nusage && !x->partial; i++)
		if (!x->usage[i].used)
			err_at(x, x->usage[i].line, x->usage[i].col,
			       usage_text(x->usage[i].key), cell_keys[x->usage[i].key].name);
	total = kept + x->ndevs * x->nincl;
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
			cell_resolve(x, &x->devs[d], NULL, &x->incl[i], &c, &p);
			src[n].line = x->incl[i].line;
			src[n].col = x->incl[i].col;
			x->s->cells[n++] = c;
		}
	}
	x->s->ncells = n;
	for (size_t i = 0; i < n; i++)
		x->s->cells[i].id = (int)i + 1;
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
	if (!io || !opts || !opts->check_path ||
	    opts->check_path(s->devices[i].path, err, sizeof(err)) == 0)
		return;
	if (d->path_line)
		err_at(x, d->path_line, d->path_col, "device '%s': %s", d->d.name, err);
	else
		errlist_add(x->errs, NULL, 0, 0, "--device %s=%s: %s", d->d.name,
			    s->devices[i].path, err);
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
	if (!root || is_null(root)) {
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
		       node_kind(root));
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
	expand(&x, opts);
	if (has_errors(&x))
		goto err;
	if (suite_adopt_devices(&x, s) < 0)
		goto oom;
	{
		/* checks that need the devices' final paths and the cells
		 * (from the positions kept: the YAML tree is gone) */
		struct ykit y = { x.doc, x.errs, x.file };
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
			fmt_size(key->min, lo, sizeof(lo));
			fmt_size(key->max, hi, sizeof(hi));
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
		   "run on every device), keep_files.  Sizes: 4k 1m 8GiB (powers of 1024);\n"
		   "durations: 500ms 30s 2m.  Run order: device by device, matrix cells then\n"
		   "includes.\n");
	ssd_keys_help(f);
}
