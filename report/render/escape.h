/*
 * escape.h - make any string from a suite or a result set safe for the
 * format it lands in: HTML text/attributes, a GitHub-flavoured Markdown table
 * cell, an RFC 4180 CSV field, a gnuplot single-quoted string or data-file
 * field, and a file-name slug.  Every function takes arbitrary bytes and
 * never fails except on allocation (sticky in the sbuf).
 */
#ifndef IOMATRIX_ESCAPE_H
#define IOMATRIX_ESCAPE_H

#include <stddef.h>

#include "util/sbuf.h"

enum esc_mode {
	ESC_NONE,     /* copy as is (text we generated ourselves) */
	ESC_HTML,     /* & < > " ' as entities; safe in text and quoted attributes */
	ESC_MD,       /* Markdown inline text/table cell: punctuation backslashed,
			 newlines become spaces, so it cannot break a table row,
			 start a code span, a link or raw HTML */
	ESC_CSV,      /* one RFC 4180 field, quoted when needed */
	ESC_GNUPLOT,  /* the inside of a gnuplot single-quoted string:
			 ' doubled, backquotes and @ (command/macro substitution)
			 and control characters replaced */
	ESC_GPDATA,   /* a double-quoted field of a gnuplot data file
			 (including the quotes): " and control characters replaced */
};

/* Append s (NULL counts as "") escaped for mode. */
void escape_append(struct sbuf *b, const char *s, enum esc_mode mode);
/* Escaped copy, caller frees; NULL on allocation failure. */
char *escape_dup(const char *s, enum esc_mode mode);
/* Parse "html", "md", "csv", "gnuplot", "none"; -1 if unknown. */
int escape_mode_parse(const char *name, enum esc_mode *out);

/*
 * A file-name slug: lower-case [a-z0-9._-], other runs become one '-',
 * no leading dot or dash, never empty ("x"), at most len-1 bytes.
 */
void escape_slug(const char *s, char *buf, size_t len);

#endif
