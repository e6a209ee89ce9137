/*
 * sbuf.h - a growable NUL-terminated byte buffer (in the spirit of git's
 * strbuf and redis' sds): the one string builder of iomatrix.
 *
 * Allocation failure is sticky: the buffer remembers it (b->oom) and later
 * appends are no-ops, so callers check once at the end instead of after
 * every append.
 */
#ifndef IOMATRIX_SBUF_H
#define IOMATRIX_SBUF_H

#include <stdarg.h>
#include <stdbool.h>
#include <stddef.h>

struct sbuf {
	char *buf;     /* owned; always NUL-terminated once anything is added */
	size_t len, alloc;
	bool oom;      /* an allocation failed; content is truncated */
};

#define SBUF_INIT { NULL, 0, 0, false }

void sbuf_init(struct sbuf *b);
void sbuf_add(struct sbuf *b, const void *data, size_t len);
void sbuf_adds(struct sbuf *b, const char *s);
void sbuf_addc(struct sbuf *b, char c);
void sbuf_addf(struct sbuf *b, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));
void sbuf_vaddf(struct sbuf *b, const char *fmt, va_list ap);
/* Never NULL: "" for an empty buffer.  Valid until the next append. */
const char *sbuf_str(const struct sbuf *b);
/* Hand the string to the caller (who frees it); the buffer is reset.
 * Returns NULL if an allocation failed earlier. */
char *sbuf_detach(struct sbuf *b);
void sbuf_reset(struct sbuf *b);   /* empty, keep the allocation */
void sbuf_release(struct sbuf *b); /* free and re-init */

/* snprintf into a fixed buffer where cutting the text short is acceptable
 * (sysfs paths and values, messages): returns what snprintf returns. */
int strfmt(char *buf, size_t len, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));

#endif
