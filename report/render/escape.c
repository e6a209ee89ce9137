/*
 * escape.c - per-format escaping of untrusted strings (escape.h).  Device
 * names, labels, hostnames and error texts come from files anyone can edit,
 * so each output format gets its own escaper and nothing is passed raw.
 */
#include <stdlib.h>
#include <string.h>

#include "escape.h"
#include "util/termesc.h"

static void esc_html(struct sbuf *b, const char *s)
{
	for (; *s; s++) {
		switch (*s) {
		case '&': sbuf_adds(b, "&amp;"); break;
		case '<': sbuf_adds(b, "&lt;"); break;
		case '>': sbuf_adds(b, "&gt;"); break;
		case '"': sbuf_adds(b, "&quot;"); break;
		case '\'': sbuf_adds(b, "&#39;"); break;
		default:
			/* other C0 controls are not allowed in HTML text */
			if ((unsigned char)*s < 0x20 && *s != '\n' && *s != '\t')
				sbuf_addc(b, ' ');
			else
				sbuf_addc(b, *s);
		}
	}
}

/* Every ASCII punctuation character may be backslash-escaped in CommonMark;
 * these are the ones that can start markup inside a table cell. */
static const char md_special[] = "\\`*_[]<>|~&!#$";

static void esc_md(struct sbuf *b, const char *s)
{
	for (; *s; s++) {
		unsigned char c = (unsigned char)*s;
		if (c == '\r' || c == '\n' || c == '\t' || c < 0x20) {
			sbuf_addc(b, ' ');
		} else if (strchr(md_special, c)) {
			sbuf_addc(b, '\\');
			sbuf_addc(b, (char)c);
		} else {
			sbuf_addc(b, (char)c);
		}
	}
}

/* RFC 4180 quoting.  A text field whose first character but spaces is
 * = + - @ is a formula to a spreadsheet (CSV injection; a tab or CR in
 * front is escaped below, and LibreOffice can trim spaces before it
 * evaluates):
 * it gets a leading ' and quotes, as OWASP advises; numbers are written by
 * the caller, not through here.  Control characters (an ESC, a BEL, a
 * newline) become text as termesc writes them (\e, \x07, \n): a CSV is
 * read in a terminal too, and a name has no line breaks. */
static void esc_csv(struct sbuf *b, const char *s)
{
	struct sbuf t = SBUF_INIT;
	const char *v = s + strspn(s, " ");
	bool formula = *v && strchr("=+-@", *v);

	termesc_append_field(&t, s);
	if (t.oom) {
		b->oom = true;
		return;
	}
	const char *e = sbuf_str(&t);
	bool quote = formula || strpbrk(e, ",\"") != NULL ||
		     (*e && (e[0] == ' ' || e[strlen(e) - 1] == ' '));
	if (!quote) {
		sbuf_adds(b, e);
		sbuf_release(&t);
		return;
	}
	sbuf_addc(b, '"');
	if (formula)
		sbuf_addc(b, '\'');
	for (; *e; e++) {
		if (*e == '"')
			sbuf_addc(b, '"');
		sbuf_addc(b, *e);
	}
	sbuf_addc(b, '"');
	sbuf_release(&t);
}

/*
 * gnuplot substitutes `cmd` (runs a shell) and @macro on its input lines;
 * inside a single-quoted string only '' is special, but we do not rely on
 * the substitution pass honouring quotes: backquotes become U+2018 and @
 * becomes U+FF20 so no substitution can ever trigger.  Newlines would end the
 * command, so they become spaces.
 */
static void esc_gnuplot(struct sbuf *b, const char *s)
{
	for (; *s; s++) {
		unsigned char c = (unsigned char)*s;
		if (c == '\'')
			sbuf_adds(b, "''");
		else if (c == '`')
			sbuf_adds(b, "\xe2\x80\x98");
		else if (c == '@')
			sbuf_adds(b, "\xef\xbc\xa0");
		else if (c < 0x20 || c == 0x7f)
			sbuf_addc(b, ' ');
		else
			sbuf_addc(b, (char)c);
	}
}

/* gnuplot data files cannot escape a double quote inside a quoted field. */
static void esc_gpdata(struct sbuf *b, const char *s)
{
	sbuf_addc(b, '"');
	for (; *s; s++) {
		unsigned char c = (unsigned char)*s;
		if (c == '"')
			sbuf_addc(b, '\'');
		else if (c < 0x20 || c == 0x7f)
			sbuf_addc(b, ' ');
		else
			sbuf_addc(b, (char)c);
	}
	sbuf_addc(b, '"');
}

void escape_append(struct sbuf *b, const char *s, enum esc_mode mode)
{
	if (!s)
		s = "";
	switch (mode) {
	case ESC_NONE: sbuf_adds(b, s); break;
	case ESC_HTML: esc_html(b, s); break;
	case ESC_MD: esc_md(b, s); break;
	case ESC_CSV: esc_csv(b, s); break;
	case ESC_GNUPLOT: esc_gnuplot(b, s); break;
	case ESC_GPDATA: esc_gpdata(b, s); break;
	}
}

char *escape_dup(const char *s, enum esc_mode mode)
{
	struct sbuf b = SBUF_INIT;

	escape_append(&b, s, mode);
	return sbuf_detach(&b);
}

int escape_mode_parse(const char *name, enum esc_mode *out)
{
	static const struct { const char *name; enum esc_mode mode; } modes[] = {
		{ "none", ESC_NONE }, { "html", ESC_HTML }, { "md", ESC_MD },
		{ "csv", ESC_CSV }, { "gnuplot", ESC_GNUPLOT },
	};
	for (size_t i = 0; i < sizeof(modes) / sizeof(modes[0]); i++) {
		if (!strcmp(name, modes[i].name)) {
			*out = modes[i].mode;
			return 0;
		}
	}
	return -1;
}

void escape_slug(const char *s, char *buf, size_t len)
{
	size_t n = 0;
	bool dash = false;

	if (!len)
		return;
	for (; s && *s && n + 1 < len; s++) {
		unsigned char c = (unsigned char)*s;
		if (c >= 'A' && c <= 'Z')
			c = (unsigned char)(c - 'A' + 'a');
		bool okc = (c >= 'a' && c <= 'z') || (c >= '0' && c <= '9') ||
			   c == '_' || (c == '.' && n > 0);
		if (okc) {
			if (dash && n > 0 && n + 2 < len)
				buf[n++] = '-';
			dash = false;
			buf[n++] = (char)c;
		} else {
			dash = true;
		}
	}
	if (n == 0)
		buf[n++] = 'x';
	buf[n] = '\0';
}
