/*
 * optspec.c - optspec.h: usage lines, `iomatrix --help` synopses and bash
 * completion answers, all generated from the commands' option tables.
 */
#include <string.h>

#include "util/optspec.h"
#include "util/suggest.h"

#define WIDTH 79

static bool in_form(const struct option_spec *o, int form)
{
	unsigned m = o->forms ? o->forms : OPT_FORM(0);
	return (m & OPT_FORM(form)) != 0;
}

/* "[--x ARG]...", "--x ARG" (required) into buf; its length. */
static size_t opt_token(const struct option_spec *o, char *buf, size_t len)
{
	bool req = o->flags & OPT_REQUIRED;
	int n = snprintf(buf, len, "%s%s%s%s%s%s", req ? "" : "[", o->name,
			 o->arg ? " " : "", o->arg ? o->arg : "", req ? "" : "]",
			 o->flags & OPT_REPEAT ? "..." : "");
	return n < 0 ? 0 : (size_t)n < len ? (size_t)n : len - 1;
}

/* prefix NAME OPERANDS [OPTION]..., wrapped before an option at WIDTH with
 * continuation lines indented by indent; no newline at the end. */
static size_t form_print(FILE *f, const char *prefix, const struct command_spec *c,
			 int form, size_t indent)
{
	const char *ops = c->forms[form];
	size_t col = (size_t)fprintf(f, "%s%s", prefix, c->name);
	char tok[256];

	if (ops && *ops)
		col += (size_t)fprintf(f, " %s", ops);
	const struct option_spec *o;

	for (size_t k = 0; (o = optspec_row(c, k)); k++) {
		if (!in_form(o, form))
			continue;
		size_t len = opt_token(o, tok, sizeof(tok));
		if (col + 1 + len > WIDTH && col > indent) {
			col = (size_t)fprintf(f, "\n%*s%s", (int)indent, "", tok) - 1;
		} else {
			col += 1 + len;
			fprintf(f, " %s", tok);
		}
	}
	return col;
}

static int nforms(const struct command_spec *c)
{
	int n = 0;
	while (n < OPTSPEC_MAX_FORMS && c->forms[n])
		n++;
	return n ? n : 1; /* no forms given: one without operands */
}

void optspec_usage(FILE *f, const struct command_spec *c)
{
	size_t indent = strlen("usage: iomatrix ") + strlen(c->name) + 1;

	for (int i = 0; i < nforms(c); i++) {
		form_print(f, i ? "       iomatrix " : "usage: iomatrix ", c, i, indent);
		fputc('\n', f);
	}
}

void optspec_synopsis(FILE *f, const struct command_spec *c)
{
	for (int i = 0; i < nforms(c); i++) {
		size_t col = form_print(f, "  iomatrix ", c, i, 6);
		if (c->note && i == nforms(c) - 1) {
			if (col + 2 + strlen(c->note) > WIDTH)
				fprintf(f, "\n      %s", c->note);
			else
				fprintf(f, "  %s", c->note);
		}
		fputc('\n', f);
	}
}

/* Is word one of the space-separated words of list? */
static bool word_in(const char *list, const char *word)
{
	size_t wl = strlen(word);

	for (const char *p = list; p && *p;) {
		while (*p == ' ')
			p++;
		size_t l = strcspn(p, " ");
		if (l && l == wl && !strncmp(p, word, l))
			return true;
		p += l;
	}
	return false;
}

const struct option_spec *optspec_row(const struct command_spec *c, size_t i)
{
	const struct option_spec *const tables[] = { c->shared, c->opts };

	for (size_t t = 0; t < 2; t++)
		for (const struct option_spec *o = tables[t]; o && o->name; o++)
			if (i-- == 0)
				return o;
	return NULL;
}

const struct option_spec *optspec_find(const struct command_spec *c, const char *arg)
{
	const struct option_spec *o;

	for (size_t k = 0; (o = optspec_row(c, k)); k++)
		if (!strcmp(o->name, arg) || word_in(o->alias, arg))
			return o;
	return NULL;
}

/* "unknown option '--x' (did you mean '--y'?); see ..." for arg, the
 * nearest of c's spellings (names and aliases) when one is near enough. */
static void unknown_option(const struct command_spec *c, const char *arg, size_t len)
{
	char spell[64][32];
	const char *words[65];
	const struct option_spec *o;
	char word[SUGGEST_MAX_LEN + 1];
	size_t n = 0;

	for (size_t k = 0; (o = optspec_row(c, k)) && n < 64; k++) {
		words[n++] = o->name;
		for (const char *a = o->alias; a && *a && n < 64;) {
			while (*a == ' ')
				a++;
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
	snprintf(word, sizeof(word), "%.*s", (int)(len < SUGGEST_MAX_LEN ? len : SUGGEST_MAX_LEN), arg);
	const char *near = suggest_word(word, words);
	fprintf(stderr, "iomatrix: unknown option '%s'%s%s%s; see 'iomatrix %s --help'\n",
		word, near ? " (did you mean '" : "", near ? near : "", near ? "'?)" : "",
		c->name);
}

int optspec_next(struct optspec_parse *p)
{
	const char *arg, *eq;

	if (p->i >= p->argc)
		return 0;
	arg = p->argv[p->i++];
	p->opt = NULL;
	p->value = arg;
	if (!p->operands && !strcmp(arg, "--")) {
		p->operands = true;
		return optspec_next(p);
	}
	if (p->operands || arg[0] != '-' || !arg[1])
		return 1;
	/* "--x=V": only long spellings take their value after '=' */
	eq = arg[1] == '-' ? strchr(arg, '=') : NULL;
	size_t len = eq ? (size_t)(eq - arg) : strlen(arg);
	char name[SUGGEST_MAX_LEN + 1];
	snprintf(name, sizeof(name), "%.*s", (int)(len < SUGGEST_MAX_LEN ? len : SUGGEST_MAX_LEN), arg);
	if (len > SUGGEST_MAX_LEN || !(p->opt = optspec_find(p->c, name))) {
		unknown_option(p->c, arg, len);
		return -1;
	}
	if (!p->opt->arg) {
		if (eq) {
			fprintf(stderr, "iomatrix: '%s' takes no value; give it alone, without "
				"'=%s'\n", p->opt->name, eq + 1);
			return -1;
		}
		p->value = NULL;
		return 1;
	}
	if (eq)
		p->value = eq + 1;
	else
		p->value = p->i < p->argc ? p->argv[p->i++] : NULL;
	if (!p->value || !*p->value) {
		fprintf(stderr, "iomatrix: '%s' needs a value: '%s %s'; see 'iomatrix %s "
			"--help'\n", p->opt->name, p->opt->name, p->opt->arg,
			p->c->name);
		return -1;
	}
	if (p->opt->value == OPTV_WORDS && !word_in(p->opt->words, p->value)) {
		fprintf(stderr, "iomatrix: bad %s '%s': it takes one of: %s\n", p->opt->name,
			p->value, p->opt->words);
		return -1;
	}
	return 1;
}

/* The space-separated words of list, one per line. */
static void words_print(FILE *f, const char *list)
{
	for (const char *p = list; p && *p;) {
		while (*p == ' ')
			p++;
		size_t l = strcspn(p, " ");
		if (l)
			fprintf(f, "%.*s\n", (int)l, p);
		p += l;
	}
}

static void value_print(FILE *f, enum optv v, const char *words)
{
	switch (v) {
	case OPTV_WORDS: words_print(f, words); break;
	case OPTV_DIR: fputs("@dir\n", f); break;
	case OPTV_FILE: fputs("@file\n", f); break;
	case OPTV_SUITE: fputs("@suite\n", f); break;
	case OPTV_NONE: break;
	}
}

/* Complete words[n - 1], an argument of command c (words[cmd] is its
 * name). */
static void command_complete(FILE *f, const struct command_spec *c, int cmd,
			     int n, char **words)
{
	const char *cur = words[n - 1];
	int operands = 0;

	if (n - 2 > cmd) {
		const struct option_spec *prev = optspec_find(c, words[n - 2]);
		if (prev && prev->arg) {
			value_print(f, prev->value, prev->words);
			return;
		}
	}
	if (cur[0] == '-') {
		const struct option_spec *o;
		for (size_t k = 0; (o = optspec_row(c, k)); k++)
			fprintf(f, "%s\n", o->name);
		return;
	}
	for (int i = cmd + 1; i < n - 1; i++) {
		const struct option_spec *o = optspec_find(c, words[i]);
		if (o && o->arg)
			i++; /* its value */
		else if (!o && (words[i][0] != '-' || !words[i][1]))
			operands++;
	}
	if (c->first_words && operands == 0)
		words_print(f, c->first_words);
	else
		value_print(f, c->operand, NULL);
}

void optspec_complete(FILE *f, const struct command_spec *const *cmds, size_t n_cmds,
		      int n, char **words)
{
	if (n < 1)
		return;
	for (int i = 0; i < n - 1; i++) {
		if (words[i][0] == '-')
			continue;
		for (size_t k = 0; k < n_cmds; k++)
			if (!strcmp(cmds[k]->name, words[i])) {
				command_complete(f, cmds[k], i, n, words);
				return;
			}
		return; /* an unknown command: nothing to offer */
	}
	for (size_t k = 0; k < n_cmds; k++)
		if (!cmds[k]->hidden)
			fprintf(f, "%s\n", cmds[k]->name);
	fputs("--help\n--version\n", f);
}
