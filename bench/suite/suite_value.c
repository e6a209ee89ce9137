/*
 * suite_value.c - one value of a cell key, parsed and range-checked as its
 * row of the key table says (suite_int.h), then applied to a cell or
 * matched against one.
 */
#include <ctype.h>
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "util/intern.h"
#include "util/cpulist.h"
#include "stats/randdist.h"
#include "util/units.h"
#include "engines/engine.h"
#include "ssd_keys.h"
#include "suite_int.h"

static const char *const pattern_words[] = { "read", "write", "randread",
	"randwrite", "readwrite", "randrw", "rewrite", "seqrd", "seqwr", "rndrd",
	"rndwr", "rndrw", "seqrewr", NULL };

/* ---- values ------------------------------------------------------------ */

void suite_fmt_size(uint64_t v, char *buf, size_t len)
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
		suite_fmt_size(k->min, lo, sizeof(lo));
		suite_fmt_size(k->max, hi, sizeof(hi));
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
	if (k->max == KEY_EXACT_MAX && v > k->max)
		err_at(x, line, col, "'%s' %s is out of range %s..%s (the largest whole "
		       "number a result set records exactly, in 15 digits)", k->name, raw, lo, hi);
	else if (k->max && k->max != KEY_EXACT_MAX)
		err_at(x, line, col, "'%s' %s is out of range %s..%s", k->name,
		       raw, lo, hi);
	else
		err_at(x, line, col, "'%s' %s is too small: at least %s", k->name,
		       raw, lo);
	return -1;
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
	suite_suggest(v, kinds, sug, sizeof(sug));
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

/* A text the cell holds by pointer (cpulist, random_distribution): the
 * interned copy (util/intern.h), "" for the empty default. */
static int value_interned(struct ctx *x, const char *text, unsigned line, unsigned col,
			  struct kval *out)
{
	out->s = text[0] ? intern_str(text) : "";
	if (!out->s) {
		err_at(x, line, col, "out of memory");
		return -1;
	}
	return 0;
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
	return value_interned(x, list, line, col, out);
}

/* random_distribution: fio's syntax and limits (stats/randdist.h), kept in
 * canonical text; "random" is the default, stored as "". */
static int value_parse_randdist(struct ctx *x, const struct key *key, const char *v,
				unsigned line, unsigned col, struct kval *out)
{
	struct randdist d;
	char why[240], text[RANDDIST_TEXT_MAX] = "";
	if (randdist_parse(v, &d, why, sizeof(why)) < 0) {
		err_at(x, line, col, "'%s' %s", key->name, why);
		return -1;
	}
	if (d.kind != RANDDIST_RANDOM)
		randdist_format(&d, text, sizeof(text));
	return value_interned(x, text, line, col, out);
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
int value_parse(struct ctx *x, int k, yaml_node_t *n, struct kval *out)
{
	const struct key *key = &cell_keys[k];
	unsigned line = NLINE(n), col = NCOL(n);
	char sug[96];
	const char *v;

	memset(out, 0, sizeof(*out));
	out->line = line;
	out->col = col;
	if (key->type == KT_STEADY) {
		struct ykit y = ctx_ykit(x);
		struct steady_rule r;
		int ret = ssd_parse_steady(&y, n, &r);
		char *keep = ret == 0 ? (char *)ctx_str_n(x, &r, sizeof(r)) : NULL;
		if (keep)
			out->ss = (const struct steady_rule *)keep;
		return keep || ret < 0 ? ret : -1;
	}
	if (key->type == KT_CUSTOM) {
		struct ykit y = ctx_ykit(x);
		_Alignas(16) char buf[1024];
		if (key->ops->size > sizeof(buf) || key->ops->parse(&y, n, buf) < 0)
			return -1;
		out->blob = ctx_str_n(x, buf, key->ops->size);
		return out->blob ? 0 : -1;
	}
	if (n->type != YAML_SCALAR_NODE) {
		err_at(x, line, col, "'%s' takes a single value here, not %s",
		       key->name, ykit_kind(n));
		return -1;
	}
	v = suite_scalar(n);
	/* `engine: null` means the null engine, not a YAML null */
	if (suite_is_null(n) && !(key->type == KT_ENGINE && !strcmp(v, "null"))) {
		err_at(x, line, col, "'%s' has no value", key->name);
		return -1;
	}
	switch (key->type) {
	case KT_PATTERN: {
		enum pattern p;
		if (pattern_parse(v, &p) < 0) {
			suite_suggest(v, pattern_words, sug, sizeof(sug));
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
		suite_suggest(v, engine_names(), sug, sizeof(sug));
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
	case KT_STEADY: case KT_CUSTOM:
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
	case KT_RANDDIST:
		return value_parse_randdist(x, key, v, line, col, out);
	case KT_LABEL:
		return value_parse_label(x, v, line, col, out);
	}
	return -1;
}

/* Store a parsed value into a cell. */
void value_apply(int k, const struct kval *v, struct cell *c)
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
		cell_set_label(c, v->s); /* out of memory: "" (the suite is small) */
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
		c->cpus_allowed = v->s[0] ? v->s : NULL; /* interned */
		break;
	case KT_CUSTOM:
		if (v->blob)
			memcpy((char *)c + cell_keys[k].off, v->blob, cell_keys[k].ops->size);
		break;
	case KT_RANDDIST:
		c->random_distribution = v->s[0] ? v->s : NULL; /* interned */
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
bool value_matches(int k, const struct kval *v, const struct cell *c)
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
	case KT_CPULIST: return !strcmp(v->s, key_str(k, c));
	case KT_CUSTOM:
		return v->blob && !memcmp((const char *)c + cell_keys[k].off, v->blob,
					  cell_keys[k].ops->size);
	case KT_RANDDIST: return !strcmp(v->s, key_str(k, c));
	case KT_BOOL: return key_load_u64(k, c) == (v->u != 0);
	default: return key_load_u64(k, c) == v->u;
	}
}
