/*
 * termesc.c - termesc.h: a string from a set made inert for a terminal.
 */
#include "termesc.h"

#include <stdbool.h>
#include <stdio.h>
#include <string.h>

/* Length of the valid UTF-8 sequence at s that is not a C1 control (or an
 * overlong form, a surrogate, or above U+10FFFF); 0 if there is none. */
static size_t utf8_ok(const unsigned char *s)
{
	unsigned c = s[0], cp, n;

	if (c >= 0xc2 && c <= 0xdf)
		n = 2, cp = c & 0x1f;
	else if (c >= 0xe0 && c <= 0xef)
		n = 3, cp = c & 0x0f;
	else if (c >= 0xf0 && c <= 0xf4)
		n = 4, cp = c & 0x07;
	else
		return 0;
	for (unsigned i = 1; i < n; i++) {
		if ((s[i] & 0xc0) != 0x80)
			return 0;
		cp = cp << 6 | (s[i] & 0x3f);
	}
	if ((n == 2 && cp < 0xa0) || (n == 3 && cp < 0x800) || (n == 4 && cp < 0x10000) ||
	    (cp >= 0xd800 && cp <= 0xdfff) || cp > 0x10ffff)
		return 0;
	return n;
}

static void termesc_text(struct sbuf *b, const char *s, bool keep_backslash)
{
	const unsigned char *p = (const unsigned char *)(s ? s : "");

	while (*p) {
		unsigned c = *p;
		size_t n;
		if (c >= 0x20 && c < 0x7f && (c != '\\' || keep_backslash)) {
			sbuf_addc(b, (char)c);
			p++;
		} else if (c >= 0x80 && (n = utf8_ok(p)) > 0) {
			sbuf_add(b, p, n);
			p += n;
		} else {
			switch (c) {
			case '\n': sbuf_adds(b, "\\n"); break;
			case '\r': sbuf_adds(b, "\\r"); break;
			case '\t': sbuf_adds(b, "\\t"); break;
			case 0x1b: sbuf_adds(b, "\\e"); break;
			case '\\': sbuf_adds(b, "\\\\"); break;
			default: sbuf_addf(b, "\\x%02x", c); break;
			}
			p++;
		}
	}
}

void termesc_append(struct sbuf *b, const char *s)
{
	termesc_text(b, s, false);
}

void termesc_append_field(struct sbuf *b, const char *s)
{
	termesc_text(b, s, true);
}

void termesc_puts(FILE *f, const char *prefix, const char *s)
{
	struct sbuf b = SBUF_INIT;

	sbuf_adds(&b, prefix ? prefix : "");
	termesc_append(&b, s);
	sbuf_addc(&b, '\n');
	if (!b.oom)
		fputs(sbuf_str(&b), f);
	sbuf_release(&b);
}

const char *termesc(const char *s, char *buf, size_t len)
{
	struct sbuf b = SBUF_INIT;

	if (!len)
		return buf;
	termesc_append(&b, s);
	if (b.oom || b.len >= len) {
		const char *t = b.oom ? "" : sbuf_str(&b);
		size_t keep = len > 4 ? len - 4 : 0;
		snprintf(buf, len, "%.*s%s", (int)keep, t, len > 4 ? "..." : "");
	} else {
		memcpy(buf, sbuf_str(&b), b.len + 1);
	}
	sbuf_release(&b);
	return buf;
}
