/*
 * optspec_help.c - optspec.h's text: the "usage:" lines, the synopses of
 * `iomatrix --help` and the whole of `iomatrix CMD --help`, all from the
 * command's table (the man page is made from these: man/mkman.sh).
 */
#include <string.h>

#include "util/optspec.h"
#include "util/optspec_int.h"

#define WIDTH 79
#define HELP_COL 28   /* where an option's help starts in --help */

/* "[--x ARG]...", "--x ARG" (required) into buf; its length. */
static size_t optspec_token(const struct option_spec *o, char *buf, size_t len)
{
	bool req = o->flags & OPT_REQUIRED;
	const char *arg = optspec_arg(o);
	int n = snprintf(buf, len, "%s%s%s%s%s%s", req ? "" : "[", o->name,
			 arg ? " " : "", arg ? arg : "", req ? "" : "]",
			 o->flags & OPT_REPEAT ? "..." : "");
	return n < 0 ? 0 : (size_t)n < len ? (size_t)n : len - 1;
}

/* prefix NAME OPERANDS OPTION... [OPTION]..., the options a form requires
 * first (what makes it that form: "--mpi [--aggregate]"), wrapped before
 * an option at WIDTH with continuation lines indented by indent; no
 * newline at the end. */
static size_t optspec_form_print(FILE *f, const char *prefix, const struct command_spec *c,
				 int form, size_t indent)
{
	const char *ops = c->forms[form];
	size_t col = (size_t)fprintf(f, "%s%s", prefix, c->name ? c->name : "");
	char tok[256];
	const struct option_spec *o;

	if (ops && *ops)
		col += (size_t)fprintf(f, " %s", ops);
	for (int pass = 0; pass < 2; pass++)
	for (size_t k = 0; (o = optspec_row(c, k, NULL)); k++) {
		bool req = o->flags & OPT_REQUIRED;
		if (!optspec_in_form(o, form) || (o->flags & OPT_HIDDEN) || req != (pass == 0))
			continue;
		size_t len = optspec_token(o, tok, sizeof(tok));
		if (col + 1 + len > WIDTH && col > indent) {
			col = (size_t)fprintf(f, "\n%*s%s", (int)indent, "", tok) - 1;
		} else {
			col += 1 + len;
			fprintf(f, " %s", tok);
		}
	}
	return col;
}

void optspec_usage(FILE *f, const struct command_spec *c)
{
	size_t indent = strlen("usage: iomatrix ") + (c->name ? strlen(c->name) + 1 : 0);

	for (int i = 0; i < optspec_nforms(c); i++) {
		optspec_form_print(f, i ? "       iomatrix " : "usage: iomatrix ", c, i, indent);
		fputc('\n', f);
	}
}

void optspec_synopsis(FILE *f, const struct command_spec *c)
{
	int n = optspec_nforms(c);

	for (int i = 0; i < n; i++) {
		size_t col = optspec_form_print(f, "  iomatrix ", c, i, 6);
		if (c->note && i == n - 1) {
			if (col + 2 + strlen(c->note) > WIDTH)
				fprintf(f, "\n      %s", c->note);
			else
				fprintf(f, "  %s", c->note);
		}
		fputc('\n', f);
	}
}

/* text from column col (the cursor is there), words wrapped at WIDTH onto
 * lines indented by indent; ends the line. */
static void optspec_wrap(FILE *f, const char *text, size_t col, size_t indent)
{
	bool first = true;

	for (const char *p = text; *p;) {
		p += strspn(p, " ");
		size_t l = strcspn(p, " ");
		if (!l)
			break;
		if (!first && col + 1 + l > WIDTH) {
			col = (size_t)fprintf(f, "\n%*s", (int)indent, "") - 1;
			first = true;
		}
		col += (size_t)fprintf(f, "%s%.*s", first ? "" : " ", (int)l, p);
		first = false;
		p += l;
	}
	fputc('\n', f);
}

/* "  -o, --out, --output DIR" into buf; its length. */
static size_t optspec_label(const struct option_spec *o, char *buf, size_t len)
{
	const char *arg = optspec_arg(o);
	size_t n = (size_t)snprintf(buf, len, "  %s", o->name);

	for (const char *a = o->alias; a && *a && n < len;) {
		a += strspn(a, " ");
		size_t l = strcspn(a, " ");
		if (l)
			n += (size_t)snprintf(buf + n, len - n, ", %.*s", (int)l, a);
		a += l;
	}
	if (arg && n < len)
		n += (size_t)snprintf(buf + n, len - n, " %s", arg);
	return n < len ? n : len - 1;
}

/* One option's lines of --help: its label, then its help (and its
 * default, and that it may be repeated) from column HELP_COL. */
static void optspec_option_help(FILE *f, const struct option_spec *o)
{
	char label[160], text[1024];
	size_t n = optspec_label(o, label, sizeof(label));

	snprintf(text, sizeof(text), "%s%s%s%s%s", o->help ? o->help : "",
		 o->flags & OPT_REPEAT ? " (repeatable)" : "",
		 o->def ? " (default: " : "", o->def ? o->def : "", o->def ? ")" : "");
	fputs(label, f);
	if (n + 2 > HELP_COL) {
		fprintf(f, "\n%*s", HELP_COL, "");
		n = HELP_COL;
	} else {
		fprintf(f, "%*s", (int)(HELP_COL - n), "");
		n = HELP_COL;
	}
	optspec_wrap(f, text, n, HELP_COL);
}

void optspec_help(FILE *f, const struct command_spec *c)
{
	const struct option_spec *o;
	bool any = false;

	optspec_usage(f, c);
	if (c->about)
		fprintf(f, "\n%s\n", c->about);
	for (size_t k = 0; (o = optspec_row(c, k, NULL)); k++) {
		if (o->flags & OPT_HIDDEN)
			continue;
		if (!any || o->section)
			fputc('\n', f);
		if (o->section && *o->section)
			fprintf(f, "%s\n", o->section);
		optspec_option_help(f, o);
		any = true;
	}
	if (c->epilog)
		fprintf(f, "\n%s\n", c->epilog);
	if (c->more) {
		fputc('\n', f);
		c->more(f);
	}
}
