/*
 * optspec_complete.c - optspec.h's answers to the bash completion
 * (`iomatrix --complete`), and the tables for the tests: the dump of every
 * option (`iomatrix --dump-options`) and many command lines parsed in one
 * process (`iomatrix --parse-lines`), all from the commands' tables.
 */
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "util/optspec.h"
#include "util/optspec_int.h"
#include "util/units.h"

/* The space-separated words of list, one per line. */
static void optspec_words_print(FILE *f, const char *list)
{
	for (const char *p = list; p && *p;) {
		p += strspn(p, " ");
		size_t l = strcspn(p, " ");
		if (l)
			fprintf(f, "%.*s\n", (int)l, p);
		p += l;
	}
}

/* What completes a value of kind k (words: OPTK_WORD's and OPTK_WORDS'). */
static void optspec_value_print(FILE *f, enum optkind k, const char *words)
{
	switch (k) {
	case OPTK_WORD:
	case OPTK_WORDS: optspec_words_print(f, words); break;
	case OPTK_DIR: fputs("@dir\n", f); break;
	case OPTK_FILE: fputs("@file\n", f); break;
	case OPTK_SUITE: fputs("@suite\n", f); break;
	default: break;
	}
}

/* Complete words[n - 1], an argument of command c (words[cmd] is its
 * name). */
static void optspec_command_complete(FILE *f, const struct command_spec *c, int cmd,
				     int n, char **words)
{
	const char *cur = words[n - 1];
	const struct option_spec *o;
	int operands = 0;

	if (n - 2 > cmd) {
		const struct option_spec *prev = optspec_find(c, words[n - 2]);
		if (prev && prev->kind != OPTK_FLAG) {
			optspec_value_print(f, prev->kind, prev->words);
			return;
		}
	}
	if (cur[0] == '-') {
		for (size_t k = 0; (o = optspec_row(c, k, NULL)); k++)
			if (!(o->flags & OPT_HIDDEN))
				fprintf(f, "%s\n", o->name);
		return;
	}
	for (int i = cmd + 1; i < n - 1; i++) {
		o = optspec_find(c, words[i]);
		if (o && o->kind != OPTK_FLAG)
			i++; /* its value */
		else if (!o && (words[i][0] != '-' || !words[i][1]))
			operands++;
	}
	if (c->first_words && operands == 0)
		optspec_words_print(f, c->first_words);
	else
		optspec_value_print(f, c->operand, NULL);
}

void optspec_complete(FILE *f, const struct command_spec *top,
		      const struct command_spec *const *cmds, size_t n_cmds, int n, char **words)
{
	const struct option_spec *o;

	if (n < 1)
		return;
	for (int i = 0; i < n - 1; i++) {
		if (words[i][0] == '-')
			continue;
		for (size_t k = 0; k < n_cmds; k++)
			if (!strcmp(cmds[k]->name, words[i])) {
				optspec_command_complete(f, cmds[k], i, n, words);
				return;
			}
		return; /* an unknown command: nothing to offer */
	}
	for (size_t k = 0; k < n_cmds; k++)
		if (!cmds[k]->hidden)
			fprintf(f, "%s\n", cmds[k]->name);
	for (size_t k = 0; (o = optspec_row(top, k, NULL)); k++)
		if (!(o->flags & OPT_HIDDEN))
			fprintf(f, "%s\n", o->name);
}

/* A number of o's kind as the command line writes it (sizes in bytes,
 * durations as units.h does). */
static void optspec_dump_num(const struct option_spec *o, double v, char *buf, size_t len)
{
	if (o->kind == OPTK_DURATION)
		units_format_duration(v > 0 ? (uint64_t)v : 0, buf, len);
	else if (v == floor(v) && fabs(v) < 1e15)
		snprintf(buf, len, "%.0f", v);
	else
		snprintf(buf, len, "%.17g", v);
}

/* A value o takes: its example, its default, else one its kind and range
 * allow. */
static void optspec_dump_value(const struct option_spec *o, char *buf, size_t len)
{
	unsigned b = o->bounds;
	double lo = o->min, hi = o->max, v = 1;

	/* (a default with a blank, a title, would be two words to a test) */
	if (o->example || (o->def && !strchr(o->def, ' '))) {
		snprintf(buf, len, "%s", o->example ? o->example : o->def);
		return;
	}
	switch (o->kind) {
	case OPTK_FLAG: snprintf(buf, len, "-"); return;
	case OPTK_WORD:
	case OPTK_WORDS: snprintf(buf, len, "%.*s", (int)strcspn(o->words, " "), o->words); return;
	case OPTK_PAIR: snprintf(buf, len, "a=b"); return;
	case OPTK_STRING: {
		int n = b & OPTB_MIN ? (int)lo : b & OPTB_MIN_OPEN ? (int)lo + 1 : 1;
		snprintf(buf, len, "%.*s", n < 1 ? 1 : n, "xxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxx");
		return;
	}
	case OPTK_DIR: case OPTK_FILE: case OPTK_SUITE: snprintf(buf, len, "x"); return;
	default: break;
	}
	double step = o->kind == OPTK_DURATION ? 1e9 : 1;
	if (b & OPTB_MIN)
		v = lo;
	else if (b & OPTB_MIN_OPEN)
		v = (b & (OPTB_MAX | OPTB_MAX_OPEN)) && lo + step >= hi ? (lo + hi) / 2 : lo + step;
	else if (b & OPTB_MAX)
		v = hi;
	else if (b & OPTB_MAX_OPEN)
		v = hi - step;
	else if (o->kind == OPTK_DURATION)
		v = 1e9;
	optspec_dump_num(o, v, buf, len);
	if (o->kind == OPTK_PERCENT)
		strncat(buf, "%", len - strlen(buf) - 1);
}

/* A value of the wrong kind (bad) and one out of range (outside), "-"
 * where o has none: free text takes anything. */
static void optspec_dump_bad(const struct option_spec *o, char *bad, char *outside, size_t len)
{
	unsigned b = o->bounds;
	double step = o->kind == OPTK_DURATION ? 1e9 : 1;

	snprintf(bad, len, "-");
	snprintf(outside, len, "-");
	if (o->kind == OPTK_FLAG || o->check)
		return;
	if (o->kind >= OPTK_WORD || o->kind == OPTK_PAIR)
		snprintf(bad, len, "nope");
	if (o->kind == OPTK_WORD || o->kind == OPTK_WORDS || o->kind == OPTK_PAIR || !b)
		return;
	if (o->kind == OPTK_STRING) {
		if (b & (OPTB_MAX | OPTB_MAX_OPEN))
			snprintf(outside, len, "%.*s", (int)o->max + 1,
				 "yyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyy");
		return;
	}
	double v = b & OPTB_MIN ? o->min - step : b & OPTB_MIN_OPEN ? o->min :
		   b & OPTB_MAX ? o->max + step : o->max;
	if (v < 0 && (o->kind == OPTK_SIZE || o->kind == OPTK_DURATION))
		return; /* no negative sizes to write */
	optspec_dump_num(o, v, outside, len);
}

/* The operands and required options a parse of o's first form needs. */
static void optspec_dump_base(FILE *f, const struct command_spec *c, const struct option_spec *o)
{
	int form = 0;
	size_t min, max;
	const struct option_spec *r;
	char v[128];

	while (form < OPTSPEC_MAX_FORMS - 1 && !optspec_in_form(o, form))
		form++;
	optspec_form_count(c, form, &min, &max);
	const char *sep = "";
	for (size_t i = 0; i < min; i++, sep = " ") {
		if (i == 0 && c->first_words)
			fprintf(f, "%.*s", (int)strcspn(c->forms[form], " "), c->forms[form]);
		else
			fprintf(f, "%sx", sep);
	}
	for (size_t k = 0; (r = optspec_row(c, k, NULL)); k++)
		if (r != o && (r->flags & OPT_REQUIRED) && optspec_in_form(r, form) &&
		    (c->first_words || optspec_nforms(c) == 1)) {
			optspec_dump_value(r, v, sizeof(v));
			fprintf(f, "%s%s %s", sep, r->name, v);
			sep = " ";
		}
}

void optspec_dump(FILE *f, const struct command_spec *const *cmds, size_t n_cmds)
{
	char v[128], bad[128], out[128];
	const struct option_spec *o;

	for (size_t i = 0; i < n_cmds; i++)
		for (size_t k = 0; (o = optspec_row(cmds[i], k, NULL)); k++) {
			if (o->flags & OPT_HIDDEN)
				continue;
			optspec_dump_value(o, v, sizeof(v));
			optspec_dump_bad(o, bad, out, sizeof(bad));
			fprintf(f, "%s\t%s%s%s\t%s\t%s\t%s\t", cmds[i]->name, o->name,
				o->alias ? " " : "", o->alias ? o->alias : "", v, bad, out);
			optspec_dump_base(f, cmds[i], o);
			fputc('\n', f);
		}
}

/* One command line (argv[0] the command) parsed by its table into a
 * scratch struct: "0<TAB>what it parsed" or "2<TAB>the message". */
static void optspec_parse_line(FILE *out, const struct command_spec *c, int argc, char **argv)
{
	void *opts = optspec_opts_new(c);
	struct optlist ops = { 0 };
	bool given[OPTSPEC_MAX_ROWS];
	char msg[1024] = "";
	FILE *err = tmpfile();
	int saved = dup(2), r = -1;

	if (opts && err && saved >= 0) {
		fflush(stderr);
		dup2(fileno(err), 2);
		r = optspec_parse_in(c, argc, argv, opts, &ops, given);
		fflush(stderr);
		dup2(saved, 2);
		rewind(err);
		if (!fgets(msg, sizeof(msg), err))
			msg[0] = '\0';
		msg[strcspn(msg, "\n")] = '\0';
	}
	if (r == 0) {
		fputs("0\t", out);
		optspec_print_parsed(out, c, given, opts, &ops);
	} else {
		fprintf(out, "2\t%s\n", msg);
	}
	if (saved >= 0)
		close(saved);
	if (err)
		fclose(err);
	if (opts)
		optspec_release(c, opts, &ops);
	free(opts);
}

void optspec_parse_lines(FILE *in, FILE *out, const struct command_spec *const *cmds,
			 size_t n_cmds)
{
	char line[8192];

	while (fgets(line, sizeof(line), in)) {
		char *argv[128], *save;
		int argc = 0;
		line[strcspn(line, "\n")] = '\0';
		for (char *t = strtok_r(line, "\t", &save); t && argc < 127; t = strtok_r(NULL, "\t", &save))
			argv[argc++] = t;
		argv[argc] = NULL;
		const struct command_spec *c = NULL;
		for (size_t k = 0; argc && k < n_cmds && !c; k++)
			if (cmds[k]->name && !strcmp(cmds[k]->name, argv[0]))
				c = cmds[k];
		if (c)
			optspec_parse_line(out, c, argc, argv);
		else
			fprintf(out, "2\tno command '%s'\n", argc ? argv[0] : "");
	}
	fflush(out);
}
