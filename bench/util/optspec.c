/*
 * optspec.c - optspec.h's parser: the rows of a command (includes
 * flattened), each value checked by its row's kind, range and check and
 * stored in its field, then the forms, the required options and the
 * operands checked.  Usage, help, completion and the dump are in
 * optspec_help.c and optspec_complete.c.
 */
#include <ctype.h>
#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "util/optspec.h"
#include "util/optspec_int.h"
#include "util/suggest.h"
#include "util/testhook.h"
#include "util/units.h"

/* Row i of the table t (its includes flattened), *off the includes'
 * offsets added up; NULL when t has fewer rows (*i then reduced by all). */
static const struct option_spec *optspec_row_in(const struct option_spec *t, size_t *i,
						size_t *off, int depth)
{
	for (const struct option_spec *o = t; o && (o->name || o->include); o++) {
		if (o->kind == OPTK_INCLUDE) {
			size_t sub = 0;
			const struct option_spec *r =
				depth < 4 ? optspec_row_in(o->include, i, &sub, depth + 1) : NULL;
			if (r) {
				*off += o->off + sub;
				return r;
			}
			continue;
		}
		if ((*i)-- == 0)
			return o;
	}
	return NULL;
}

const struct option_spec *optspec_row(const struct command_spec *c, size_t i, size_t *off)
{
	size_t o = 0;
	const struct option_spec *r = optspec_row_in(c->opts, &i, &o, 0);

	if (off)
		*off = o;
	return r;
}

int optspec_word_index(const char *list, const char *word, size_t wl)
{
	int k = 0;

	for (const char *p = list; p && *p; k++) {
		while (*p == ' ')
			p++;
		size_t l = strcspn(p, " ");
		if (!l)
			break;
		if (l == wl && !strncmp(p, word, l))
			return k;
		p += l;
	}
	return -1;
}

bool optspec_in_form(const struct option_spec *o, int form)
{
	unsigned m = o->forms ? o->forms : OPT_FORM(0);
	return (m & OPT_FORM(form)) != 0;
}

int optspec_nforms(const struct command_spec *c)
{
	int n = 0;
	while (n < OPTSPEC_MAX_FORMS && c->forms[n])
		n++;
	return n ? n : 1; /* no forms given: one without operands */
}

void optspec_form_count(const struct command_spec *c, int form, size_t *min, size_t *max)
{
	const char *p = c->forms[form];

	*min = *max = 0;
	while (p && *p) {
		size_t l = strcspn(p, " ");
		if (l) {
			if (p[0] != '[')
				++*min;
			if (*max != SIZE_MAX)
				*max = memmem(p, l, "...", 3) ? SIZE_MAX : *max + 1;
		}
		p += l + (p[l] == ' ');
	}
}

const struct option_spec *optspec_find(const struct command_spec *c, const char *arg)
{
	const struct option_spec *o;

	for (size_t k = 0; (o = optspec_row(c, k, NULL)); k++)
		if (!strcmp(o->name, arg) || optspec_word_index(o->alias, arg, strlen(arg)) >= 0)
			return o;
	return NULL;
}

const char *optspec_arg(const struct option_spec *o)
{
	static const char *const by_kind[] = {
		[OPTK_STRING] = "TEXT", [OPTK_PAIR] = "A=B", [OPTK_DIR] = "DIR",
		[OPTK_FILE] = "FILE", [OPTK_SUITE] = "SUITE.yaml", [OPTK_WORD] = "WORD",
		[OPTK_WORDS] = "LIST", [OPTK_INT] = "N", [OPTK_NUMBER] = "F",
		[OPTK_PERCENT] = "PCT", [OPTK_SIZE] = "SIZE", [OPTK_DURATION] = "TIME",
	};
	if (o->kind == OPTK_FLAG)
		return NULL;
	if (o->arg)
		return o->arg;
	return o->kind < sizeof(by_kind) / sizeof(by_kind[0]) && by_kind[o->kind] ?
	       by_kind[o->kind] : "VALUE";
}

/* "see 'iomatrix CMD --help'" for c. */
static const char *optspec_see(const struct command_spec *c, char *buf, size_t len)
{
	snprintf(buf, len, "see 'iomatrix %s%s--help'", c->name ? c->name : "",
		 c->name ? " " : "");
	return buf;
}

void optspec_unknown(const struct command_spec *c, const char *arg)
{
	char spell[OPTSPEC_MAX_ROWS * 2][32], word[SUGGEST_MAX_LEN + 1], see[96];
	const char *words[OPTSPEC_MAX_ROWS * 2 + 1];
	const struct option_spec *o;
	size_t n = 0, cap = OPTSPEC_MAX_ROWS * 2;

	for (size_t k = 0; (o = optspec_row(c, k, NULL)) && n < cap; k++) {
		if (o->flags & OPT_HIDDEN)
			continue;
		words[n++] = o->name;
		for (const char *a = o->alias; a && *a && n < cap;) {
			a += strspn(a, " ");
			size_t l = strcspn(a, " ");
			if (l && l < sizeof(spell[0])) {
				snprintf(spell[n], sizeof(spell[n]), "%.*s", (int)l, a);
				words[n] = spell[n];
				n++;
			}
			a += l;
		}
	}
	words[n] = NULL;
	snprintf(word, sizeof(word), "%s", arg);
	const char *near = suggest_word(word, words);
	fprintf(stderr, "iomatrix: unknown option '%s'%s%s%s; %s\n", word,
		near ? " (did you mean '" : "", near ? near : "", near ? "'?)" : "",
		optspec_see(c, see, sizeof(see)));
}

/* A number as people write it: 1000000, not 1e+06. */
static void optspec_num(double v, const struct option_spec *o, char *buf, size_t len)
{
	if (o->kind == OPTK_DURATION && v >= 0 && v < 1.8e19)
		units_format_duration((uint64_t)v, buf, len);
	else if (v == floor(v) && fabs(v) < 1e15)
		snprintf(buf, len, "%.0f", v);
	else
		snprintf(buf, len, "%g", v);
}

/* The range of o in words ("from 1 to 4096", "above 0"), or "". */
static void optspec_range(const struct option_spec *o, char *buf, size_t len)
{
	char lo[48], hi[48];
	unsigned b = o->bounds;

	optspec_num(o->min, o, lo, sizeof(lo));
	optspec_num(o->max, o, hi, sizeof(hi));
	bool has_lo = b & (OPTB_MIN | OPTB_MIN_OPEN), has_hi = b & (OPTB_MAX | OPTB_MAX_OPEN);
	const char *l = b & OPTB_MIN_OPEN ? "above " : has_hi ? "from " : "";
	const char *h = b & OPTB_MAX_OPEN ? "below " : "up to ";
	if (has_lo && has_hi)
		snprintf(buf, len, " %s%s%s%s%s", l, lo,
			 (b & OPTB_MIN_OPEN) && (b & OPTB_MAX_OPEN) ? " and " :
			 (b & OPTB_MIN) && (b & OPTB_MAX) ? " " : ", ",
			 (b & OPTB_MIN) && (b & OPTB_MAX) ? "to " : h, hi);
	else if (has_lo)
		snprintf(buf, len, b & OPTB_MIN_OPEN ? " above %s" : " of %s or more", lo);
	else if (has_hi)
		snprintf(buf, len, " %s%s", h, hi);
	else
		buf[0] = '\0';
}

void optspec_takes(const struct option_spec *o, char *buf, size_t len)
{
	char r[128];

	optspec_range(o, r, sizeof(r));
	switch (o->kind) {
	case OPTK_WORD: snprintf(buf, len, "one of: %s", o->words); return;
	case OPTK_WORDS:
		snprintf(buf, len, "one or more of %s, comma-separated", o->words);
		return;
	case OPTK_INT: snprintf(buf, len, "a whole number%s", r); return;
	case OPTK_NUMBER: snprintf(buf, len, "a number%s", r); return;
	case OPTK_PERCENT: snprintf(buf, len, "a percentage%s (5 or 5%%)", r); return;
	case OPTK_SIZE: snprintf(buf, len, "a size%s (4k, 1MiB)", r); return;
	case OPTK_DURATION: snprintf(buf, len, "a duration%s (500ms, 30s, 2m)", r); return;
	case OPTK_STRING:
		if ((o->bounds & OPTB_MIN) && (o->bounds & OPTB_MAX)) {
			snprintf(buf, len, "text of %.0f to %.0f characters", o->min, o->max);
			return;
		}
		if (o->bounds) {
			snprintf(buf, len, "text of%s characters", r);
			return;
		}
		/* fall through */
	default: snprintf(buf, len, "%s", optspec_arg(o)); return;
	}
}

/* v within o's range? */
static bool optspec_in_range(const struct option_spec *o, double v)
{
	unsigned b = o->bounds;
	return !((b & OPTB_MIN && v < o->min) || (b & OPTB_MIN_OPEN && v <= o->min) ||
		 (b & OPTB_MAX && v > o->max) || (b & OPTB_MAX_OPEN && v >= o->max));
}

/* A decimal number, all of s (with a '%' after it when pct): strtod's
 * hex, inf and nan are refused. */
static int optspec_decimal(const char *s, bool pct, double *out)
{
	char *end;
	const char *d = s + (*s == '-' || *s == '+');

	if (!(isdigit((unsigned char)*d) || (*d == '.' && isdigit((unsigned char)d[1]))))
		return -1;
	size_t n = strspn(s, "0123456789.eE+-");
	if (s[n] && !(pct && s[n] == '%' && !s[n + 1]))
		return -1;
	errno = 0;
	*out = strtod(s, &end);
	return errno || end != s + n || !isfinite(*out) ? -1 : 0;
}

/* The value of v for o (not .check): 0 and *num (numbers), *idx (a word's
 * index); -1 when v is not of o's kind. */
static int optspec_kind_parse(const struct option_spec *o, const char *v, double *num, int *idx)
{
	uint64_t u;
	char *end;

	switch (o->kind) {
	case OPTK_WORD:
		return (*idx = optspec_word_index(o->words, v, strlen(v))) < 0 ? -1 : 0;
	case OPTK_WORDS:
		for (const char *p = v;; p++) {
			size_t l = strcspn(p, ",");
			if (optspec_word_index(o->words, p, l) < 0)
				return -1;
			p += l;
			if (!*p)
				return 0;
		}
	case OPTK_PAIR: {
		const char *eq = strchr(v, '=');
		return eq && eq != v && eq[1] ? 0 : -1;
	}
	case OPTK_INT: {
		errno = 0;
		long long n = strtoll(v, &end, 10);
		if (errno || end == v || *end || isspace((unsigned char)*v) || n < INT32_MIN ||
		    n > INT32_MAX)
			return -1;
		*num = (double)n;
		return 0;
	}
	case OPTK_NUMBER:
	case OPTK_PERCENT:
		return optspec_decimal(v, o->kind == OPTK_PERCENT, num);
	case OPTK_SIZE:
	case OPTK_DURATION:
		if ((o->kind == OPTK_SIZE ? units_parse_size(v, &u) : units_parse_duration(v, &u)) < 0)
			return -1;
		*num = (double)u;
		return 0;
	case OPTK_STRING:
		*num = (double)strlen(v);
		return 0;
	default:
		return 0;
	}
}

int optspec_value_ok(const struct option_spec *o, const char *v, char *why, size_t len)
{
	double num = 0;
	int idx;
	bool ranged = o->kind != OPTK_WORD && o->kind != OPTK_WORDS && o->kind != OPTK_PAIR;

	if (optspec_kind_parse(o, v, &num, &idx) < 0 || (ranged && !optspec_in_range(o, num))) {
		optspec_takes(o, why, len);
		return -1;
	}
	const char *bad = o->check ? o->check(v) : NULL;
	if (bad) {
		snprintf(why, len, "%s", bad);
		return -1;
	}
	return 0;
}

/* Which C types a row of kind k may store into. */
static bool optspec_ctype_fits(const struct option_spec *o)
{
	if (o->flags & OPT_REPEAT)
		return o->ctype == OPTT_LIST && o->kind != OPTK_FLAG && o->kind < OPTK_INT;
	switch (o->kind) {
	case OPTK_FLAG: return o->ctype == OPTT_BOOL;
	case OPTK_WORD: return o->ctype == OPTT_STR || o->ctype == OPTT_INT;
	case OPTK_INT: return o->ctype == OPTT_INT;
	case OPTK_NUMBER:
	case OPTK_PERCENT: return o->ctype == OPTT_DOUBLE;
	case OPTK_SIZE:
	case OPTK_DURATION: return o->ctype == OPTT_U64;
	default: return o->ctype == OPTT_STR;
	}
}

/* v (checked) into o's field at p. */
static int optspec_store(const struct option_spec *o, void *p, const char *v)
{
	double num = 0;
	int idx = 0;

	if (o->flags & OPT_REPEAT) {
		struct optlist *l = p;
		const char **nv = realloc(l->v, (l->n + 2) * sizeof(*nv));
		if (!nv)
			return -1;
		nv[l->n++] = v;
		nv[l->n] = NULL;
		l->v = nv;
		return 0;
	}
	optspec_kind_parse(o, v, &num, &idx);
	switch (o->ctype) {
	case OPTT_BOOL: *(bool *)p = true; break;
	case OPTT_STR: *(const char **)p = v; break;
	case OPTT_INT: *(int *)p = o->kind == OPTK_WORD ? idx : (int)num; break;
	case OPTT_DOUBLE: *(double *)p = num; break;
	case OPTT_U64: *(uint64_t *)p = (uint64_t)num; break;
	default: return -1;
	}
	return 0;
}

/* The spellings of o (name, then aliases) one by one: *p starts at NULL;
 * false after the last.  The spelling is *w, *l bytes long. */
static bool optspec_spelling(const struct option_spec *o, const char **p, const char **w, size_t *l)
{
	if (!*p) {
		*p = o->alias ? o->alias : "";
		*w = o->name;
		*l = strlen(o->name);
		return true;
	}
	*p += strspn(*p, " ");
	*l = strcspn(*p, " ");
	*w = *p;
	*p += *l;
	return *l > 0;
}

/* What is wrong with row o (index k) of c, or NULL. */
static const char *optspec_row_wrong(const struct command_spec *c, const struct option_spec *o,
				     size_t k)
{
	char why[256];
	const char *p = NULL, *w, *q, *w2;
	size_t l, l2;
	unsigned outs = 0;

	if (k >= OPTSPEC_MAX_ROWS)
		return "is one row too many (OPTSPEC_MAX_ROWS)";
	if (!optspec_ctype_fits(o))
		return "is stored in a field of another type than its kind's";
	if (o->def && optspec_value_ok(o, o->def, why, sizeof(why)) < 0)
		return "has a default it refuses";
	if (!o->help || !o->help[0])
		return "has no help";
	if ((o->kind == OPTK_WORD || o->kind == OPTK_WORDS) && !(o->words && o->words[0]))
		return "takes words but lists none";
	while (optspec_spelling(o, &p, &w, &l)) {
		if (w[0] != '-' || l < 2 || (w[1] != '-' && l != 2))
			return "has a spelling that is neither -x nor --xy";
		outs |= (l == 2 && !strncmp(w, "-o", 2)) | (l == 5 && !strncmp(w, "--out", 5)) << 1 |
			(l == 8 && !strncmp(w, "--output", 8)) << 2;
		const struct option_spec *r;
		for (size_t j = 0; j < k && (r = optspec_row(c, j, NULL)); j++)
			for (q = NULL; optspec_spelling(r, &q, &w2, &l2);)
				if (l2 == l && !strncmp(w, w2, l))
					return "is spelt as an earlier row is";
	}
	/* every command that writes takes all three (-o is the short one) */
	if (outs && outs != 7)
		return "has one of -o, --out, --output but not all three";
	return NULL;
}

/* The bytes of row o's field (its C type's), 0 for none. */
static size_t optspec_field_size(const struct option_spec *o)
{
	static const size_t csize[] = {
		[OPTT_NONE] = 0, [OPTT_BOOL] = sizeof(bool), [OPTT_STR] = sizeof(char *),
		[OPTT_INT] = sizeof(int), [OPTT_DOUBLE] = sizeof(double),
		[OPTT_U64] = sizeof(uint64_t), [OPTT_LIST] = sizeof(struct optlist),
	};

	return o->ctype < sizeof(csize) / sizeof(csize[0]) ? csize[o->ctype] : 0;
}

int optspec_check_table(const struct command_spec *c)
{
	const struct option_spec *o;
	size_t off;

	for (size_t k = 0; (o = optspec_row(c, k, &off)); k++) {
		const char *bad = optspec_row_wrong(c, o, k);
		if (!bad && c->opts_size && off + o->off + optspec_field_size(o) > c->opts_size)
			bad = "is stored past the end of the command's struct (OPTSPEC_OPTS)";
		if (bad) {
			fprintf(stderr, "iomatrix: internal error: option '%s' of '%s' %s\n",
				o->name, c->name ? c->name : "iomatrix", bad);
			return -1;
		}
	}
	return 0;
}

/* The form the operands pick (first_words), or 0; -1 with the message
 * printed when the first operand is missing or not one of them. */
static int optspec_form(const struct command_spec *c, const struct optlist *ops)
{
	char see[96];

	if (!c->first_words)
		return 0;
	if (!ops->n) {
		fprintf(stderr, "iomatrix: say which %s: %s; %s\n", c->first_what, c->first_words,
			optspec_see(c, see, sizeof(see)));
		return -1;
	}
	int f = optspec_word_index(c->first_words, ops->v[0], strlen(ops->v[0]));
	if (f < 0) {
		fprintf(stderr, "iomatrix: unknown %s '%s' (use %s); %s\n", c->first_what,
			ops->v[0], c->first_words, optspec_see(c, see, sizeof(see)));
		return -1;
	}
	return f;
}

/* After argv: the given options fit the form, the required ones are there,
 * the operands are as many as the form takes.  0 or -1 (printed). */
static int optspec_after(const struct command_spec *c, const bool *given, const struct optlist *ops)
{
	const struct option_spec *o;
	char see[96], prefix[64];
	int form = optspec_form(c, ops);
	bool chosen = c->first_words || optspec_nforms(c) == 1;
	size_t min, max, skip = 0;

	if (form < 0)
		return -1;
	snprintf(prefix, sizeof(prefix), "%s%s%s", c->name ? c->name : "",
		 c->first_words ? " " : "", c->first_words ? ops->v[0] : "");
	optspec_form_count(c, form, &min, &max);
	for (size_t k = 0; (o = optspec_row(c, k, NULL)); k++) {
		if (given[k] && chosen && !optspec_in_form(o, form)) {
			fprintf(stderr, "iomatrix: %s is not an option of 'iomatrix %s'; %s\n",
				o->name, prefix, optspec_see(c, see, sizeof(see)));
			return -1;
		}
		if (!given[k] && chosen && (o->flags & OPT_REQUIRED) && optspec_in_form(o, form)) {
			fprintf(stderr, "iomatrix: missing %s %s; %s\n", o->name, optspec_arg(o),
				optspec_see(c, see, sizeof(see)));
			return -1;
		}
		if (given[k] && (o->flags & OPT_OPERAND) && min)
			min--, skip = 1;
	}
	if (ops->n < min) {
		/* the words of the form not given: "NEW_SET", "SUITE.yaml" */
		const char *p = c->forms[form];
		for (size_t i = 0; i < ops->n + skip && *p; i++)
			p += strcspn(p, " "), p += *p == ' ';
		fprintf(stderr, "iomatrix: missing %s; %s\n", p, optspec_see(c, see, sizeof(see)));
		return -1;
	}
	if (ops->n > max) {
		const char *f = c->forms[form] ? c->forms[form] : "";
		f += c->first_words ? strlen(ops->v[0]) + 1 : 0;
		fprintf(stderr, "iomatrix: %s takes %s%s; '%s' is one too many (%s)\n", prefix,
			*f ? "" : "no operands", f, ops->v[max], optspec_see(c, see, sizeof(see)));
		return -1;
	}
	return 0;
}

void optspec_print_parsed(FILE *f, const struct command_spec *c, const bool *given,
			  const void *opts_v, const struct optlist *ops)
{
	const char *opts = opts_v;
	const struct option_spec *o;
	size_t off;

	fprintf(f, "%s", c->name ? c->name : "iomatrix");
	for (size_t k = 0; (o = optspec_row(c, k, &off)); k++) {
		const char *p = opts + off + o->off;
		if (!given[k])
			continue;
		if (o->flags & OPT_REPEAT) {
			for (size_t i = 0; i < ((const struct optlist *)p)->n; i++)
				fprintf(f, " %s=%s", o->name, ((const struct optlist *)p)->v[i]);
			continue;
		}
		switch (o->ctype) {
		case OPTT_BOOL: fprintf(f, " %s", o->name); break;
		case OPTT_STR: fprintf(f, " %s=%s", o->name, *(const char *const *)p); break;
		case OPTT_INT: fprintf(f, " %s=%d", o->name, *(const int *)p); break;
		case OPTT_DOUBLE: fprintf(f, " %s=%.17g", o->name, *(const double *)p); break;
		case OPTT_U64: fprintf(f, " %s=%llu", o->name, (unsigned long long)*(const uint64_t *)p); break;
		}
	}
	fprintf(f, " --");
	for (size_t i = 0; i < ops->n; i++)
		fprintf(f, " %s", ops->v[i]);
	fprintf(f, "\n");
}

/* " (did you mean 'html'?)" for the word of v (a list: its first wrong
 * word) that is near one of o's words, in buf; else "". */
static const char *optspec_near_word(const struct option_spec *o, const char *v, char *buf,
				     size_t len)
{
	const char *words[65], *bad = v, *near;
	char list[512], *save, w[SUGGEST_MAX_LEN + 1];
	size_t n = 0;

	if (o->kind != OPTK_WORD && o->kind != OPTK_WORDS)
		return "";
	snprintf(list, sizeof(list), "%s", o->words);
	for (char *t = strtok_r(list, " ", &save); t && n < 64; t = strtok_r(NULL, " ", &save))
		words[n++] = t;
	words[n] = NULL;
	for (const char *p = v; o->kind == OPTK_WORDS && *p; p += strcspn(p, ","), p += *p == ',')
		if (optspec_word_index(o->words, p, strcspn(p, ",")) < 0) {
			bad = p;
			break;
		}
	snprintf(w, sizeof(w), "%.*s", (int)strcspn(bad, ","), bad);
	if (!(near = suggest_word(w, words)))
		return "";
	snprintf(buf, len, " (did you mean '%s'?)", near);
	return buf;
}

/* One option argument, argv[*i]: its row (index *k) found, its value (the
 * next argument or after '=') checked and stored.  0 or -1 (printed). */
static int optspec_option(const struct command_spec *c, int argc, char **argv, int *i,
			  char *opts, size_t *k)
{
	const char *arg = argv[(*i)++], *v, *eq = arg[1] == '-' ? strchr(arg, '=') : NULL;
	const struct option_spec *o;
	char name[SUGGEST_MAX_LEN + 1], see[96], why[512];
	size_t len = eq ? (size_t)(eq - arg) : strlen(arg), off;

	snprintf(name, sizeof(name), "%.*s", (int)(len < SUGGEST_MAX_LEN ? len : SUGGEST_MAX_LEN), arg);
	for (*k = 0; (o = optspec_row(c, *k, &off)); ++*k)
		if (!strcmp(o->name, name) || optspec_word_index(o->alias, name, strlen(name)) >= 0)
			break;
	if (!o || len > SUGGEST_MAX_LEN) {
		optspec_unknown(c, name);
		return -1;
	}
	if (o->kind == OPTK_FLAG) {
		if (eq) {
			fprintf(stderr, "iomatrix: '%s' takes no value; give it alone, without "
				"'=%s'\n", o->name, eq + 1);
			return -1;
		}
		v = "";
	} else {
		v = eq ? eq + 1 : *i < argc ? argv[(*i)++] : NULL;
		if (!v || !*v) {
			fprintf(stderr, "iomatrix: '%s' needs a value: '%s %s'; %s\n", o->name,
				o->name, optspec_arg(o), optspec_see(c, see, sizeof(see)));
			return -1;
		}
		if (optspec_value_ok(o, v, why, sizeof(why)) < 0) {
			fprintf(stderr, "iomatrix: bad %s '%s': it takes %s%s\n", o->name, v, why,
				optspec_near_word(o, v, see, sizeof(see)));
			return -1;
		}
	}
	if (optspec_store(o, opts + off + o->off, v) < 0) {
		fprintf(stderr, "iomatrix: out of memory\n");
		return -1;
	}
	return 0;
}

int optspec_parse_in(const struct command_spec *c, int argc, char **argv, void *opts,
		     struct optlist *operands, bool *given)
{
	bool only_operands = false;
	const struct option_spec *o;
	size_t off, k;

	memset(operands, 0, sizeof(*operands));
	memset(given, 0, OPTSPEC_MAX_ROWS * sizeof(*given));
	if (optspec_check_table(c) < 0)
		return -1;
	for (k = 0; (o = optspec_row(c, k, &off)); k++)
		if (o->def && optspec_store(o, (char *)opts + off + o->off, o->def) < 0)
			return -1;
	for (int i = 1; i < argc;) {
		const char *a = argv[i];
		if (!only_operands && !strcmp(a, "--")) {
			only_operands = true;
			i++;
		} else if (only_operands || a[0] != '-' || !a[1]) {
			const char **nv = realloc(operands->v, (operands->n + 2) * sizeof(*nv));
			if (!nv) {
				fprintf(stderr, "iomatrix: out of memory\n");
				return -1;
			}
			nv[operands->n++] = a;
			nv[operands->n] = NULL;
			operands->v = nv;
			i++;
		} else if (optspec_option(c, argc, argv, &i, opts, &k) < 0) {
			return -1;
		} else {
			given[k] = true;
		}
	}
	return optspec_after(c, given, operands);
}

int optspec_parse(const struct command_spec *c, int argc, char **argv, void *opts,
		  struct optlist *operands)
{
	bool given[OPTSPEC_MAX_ROWS];

	if (optspec_parse_in(c, argc, argv, opts, operands, given) < 0)
		return -1;
	if (testhook_value("parse_only")) {
		optspec_print_parsed(stdout, c, given, opts, operands);
		fflush(stdout);
		exit(0);
	}
	return 0;
}

void *optspec_opts_new(const struct command_spec *c)
{
	const struct option_spec *o;
	size_t n = c->opts_size, off;

	/* a table without OPTSPEC_OPTS (the tests' scratch parse): room for
	 * every field its rows name */
	for (size_t k = 0; !c->opts_size && (o = optspec_row(c, k, &off)); k++)
		if (off + o->off + optspec_field_size(o) > n)
			n = off + o->off + optspec_field_size(o);
	void *opts = calloc(1, n ? n : 1);
	if (opts && c->opts_init)
		memcpy(opts, c->opts_init, c->opts_size);
	return opts;
}

bool optspec_is_stdout(const char *v)
{
	return v && !strcmp(v, "-");
}

void optspec_release(const struct command_spec *c, void *opts, struct optlist *operands)
{
	const struct option_spec *o;
	size_t off;

	for (size_t k = 0; (o = optspec_row(c, k, &off)); k++)
		if ((o->flags & OPT_REPEAT) && o->ctype == OPTT_LIST) {
			struct optlist *l = (struct optlist *)((char *)opts + off + o->off);
			free(l->v);
			l->v = NULL;
			l->n = 0;
		}
	if (operands) {
		free(operands->v);
		operands->v = NULL;
		operands->n = 0;
	}
}
