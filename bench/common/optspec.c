/*
 * optspec.c - optspec.h: usage lines, `iomatrix --help` synopses and bash
 * completion answers, all generated from the commands' option tables.
 */
#include <string.h>

#include "common/optspec.h"

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
	for (const struct option_spec *o = c->opts; o && o->name; o++) {
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

const struct option_spec *optspec_find(const struct command_spec *c, const char *arg)
{
	for (const struct option_spec *o = c->opts; o && o->name; o++)
		if (!strcmp(o->name, arg) || word_in(o->alias, arg))
			return o;
	return NULL;
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
		for (const struct option_spec *o = c->opts; o && o->name; o++)
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
