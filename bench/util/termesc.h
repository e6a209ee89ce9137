/*
 * termesc.h - the one escape of a string that came from a set or a pack
 * (a file name, a member, a device, a host) before it reaches a terminal:
 * a control character there could move the cursor, recolour the screen,
 * retitle the window or, as a newline, forge a line of output that looks
 * like iomatrix's own.  HTML, Markdown and CSV have theirs in
 * report/render/escape.h.
 */
#ifndef IOMATRIX_TERMESC_H
#define IOMATRIX_TERMESC_H

#include <stddef.h>
#include <stdio.h>

#include "sbuf.h"

/* Append s (NULL: "") with every byte a terminal would act on written as
 * text: \n \r \t \e \\ and \xNN for the other C0 controls, DEL, the C1
 * controls (U+0080-U+009F, and their 8-bit bytes) and any byte that is not
 * part of valid UTF-8.  Printable ASCII and other valid UTF-8 stay. */
void termesc_append(struct sbuf *b, const char *s);

/* termesc_append, but a backslash stays one backslash: for a field whose
 * reader unescapes nothing (a CSV cell), where doubling it would only
 * change an honest name.  Every control still becomes text. */
void termesc_append_field(struct sbuf *b, const char *s);

/* Write prefix (as is: the caller's own text), s escaped, and a newline:
 * one line of output that holds a name or a message built from a set.
 * An allocation failure writes nothing. */
void termesc_puts(FILE *f, const char *prefix, const char *s);

/* The same into buf (len bytes, cut short with "..." when it does not
 * fit); returns buf, for a printf argument. */
const char *termesc(const char *s, char *buf, size_t len);

#endif
