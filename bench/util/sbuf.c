/*
 * sbuf.c - growable string buffer with sticky allocation failure (sbuf.h).
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "sbuf.h"

void sbuf_init(struct sbuf *b)
{
	b->buf = NULL;
	b->len = b->alloc = 0;
	b->oom = false;
}

static bool sbuf_grow(struct sbuf *b, size_t extra)
{
	if (b->oom)
		return false;
	if (b->len + extra + 1 <= b->alloc)
		return true;
	size_t want = b->alloc ? b->alloc : 64;
	while (want < b->len + extra + 1) {
		if (want > ((size_t)-1) / 2) {
			b->oom = true;
			return false;
		}
		want *= 2;
	}
	char *p = realloc(b->buf, want);
	if (!p) {
		b->oom = true;
		return false;
	}
	b->buf = p;
	b->alloc = want;
	return true;
}

void sbuf_add(struct sbuf *b, const void *data, size_t len)
{
	if (!sbuf_grow(b, len))
		return;
	if (len)
		memcpy(b->buf + b->len, data, len);
	b->len += len;
	b->buf[b->len] = '\0';
}

void sbuf_adds(struct sbuf *b, const char *s)
{
	sbuf_add(b, s, strlen(s));
}

void sbuf_addc(struct sbuf *b, char c)
{
	sbuf_add(b, &c, 1);
}

void sbuf_vaddf(struct sbuf *b, const char *fmt, va_list ap)
{
	va_list cp;
	char small[256];

	va_copy(cp, ap);
	int n = vsnprintf(small, sizeof(small), fmt, cp);
	va_end(cp);
	if (n < 0)
		return;
	if ((size_t)n < sizeof(small)) {
		sbuf_add(b, small, (size_t)n);
		return;
	}
	if (!sbuf_grow(b, (size_t)n))
		return;
	vsnprintf(b->buf + b->len, (size_t)n + 1, fmt, ap);
	b->len += (size_t)n;
}

void sbuf_addf(struct sbuf *b, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	sbuf_vaddf(b, fmt, ap);
	va_end(ap);
}

const char *sbuf_str(const struct sbuf *b)
{
	return b->buf ? b->buf : "";
}

char *sbuf_detach(struct sbuf *b)
{
	char *s;

	if (b->oom) {
		sbuf_release(b);
		return NULL;
	}
	s = b->buf ? b->buf : strdup("");
	sbuf_init(b);
	return s;
}

void sbuf_reset(struct sbuf *b)
{
	b->len = 0;
	if (b->buf)
		b->buf[0] = '\0';
}

void sbuf_release(struct sbuf *b)
{
	free(b->buf);
	sbuf_init(b);
}

int strfmt(char *buf, size_t len, const char *fmt, ...)
{
	va_list ap;
	int n;

	va_start(ap, fmt);
	n = vsnprintf(buf, len, fmt, ap);
	va_end(ap);
	return n;
}
