/*
 * proto.c - proto.h: the bounded line reader, message parsing with a depth
 * limit, and the clock and barrier arithmetic of the fleet protocol.
 */
#include "proto.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "resultset/jsonread.h"
#include "resultset/rset.h"
#include "util/jsonutil.h"

#define READ_CHUNK (256u * 1024)

void linebuf_init(struct linebuf *lb, size_t max)
{
	memset(lb, 0, sizeof(*lb));
	lb->max = max;
}

void linebuf_release(struct linebuf *lb)
{
	free(lb->buf);
	linebuf_init(lb, lb->max);
}

size_t linebuf_pending(const struct linebuf *lb)
{
	return lb->len - lb->start;
}

/* Room for `need` more bytes: drop what was consumed, then grow by
 * doubling, never past max + 1 line terminator + one read chunk. */
static int reserve(struct linebuf *lb, size_t need)
{
	if (lb->start) {
		memmove(lb->buf, lb->buf + lb->start, lb->len - lb->start);
		lb->len -= lb->start;
		lb->tail -= lb->start;
		lb->start = 0;
	}
	if (lb->len + need + 1 <= lb->alloc)
		return 0;
	size_t n = lb->alloc ? lb->alloc : 4096;
	while (n < lb->len + need + 1)
		n *= 2;
	char *p = realloc(lb->buf, n);
	if (!p)
		return -ENOMEM;
	lb->buf = p;
	lb->alloc = n;
	return 0;
}

/* Only the bytes just added are searched for the last '\n', so a long
 * line costs linear time; a partial line past max is refused before it
 * grows further. */
static int check_bound(struct linebuf *lb, size_t added)
{
	const char *fresh = lb->buf + lb->len - added;
	const char *nl = memrchr(fresh, '\n', added);

	if (nl)
		lb->tail = (size_t)(nl + 1 - lb->buf);
	if (lb->len - lb->tail > lb->max)
		return -EMSGSIZE;
	return 0;
}

int linebuf_feed(struct linebuf *lb, const char *data, size_t len)
{
	if (reserve(lb, len) < 0)
		return -ENOMEM;
	memcpy(lb->buf + lb->len, data, len);
	lb->len += len;
	lb->buf[lb->len] = '\0';
	return check_bound(lb, len);
}

long linebuf_fill(struct linebuf *lb, int fd)
{
	size_t want = READ_CHUNK;
	ssize_t n;

	if (reserve(lb, want) < 0)
		return -ENOMEM;
	do
		n = read(fd, lb->buf + lb->len, want);
	while (n < 0 && errno == EINTR);
	if (n < 0)
		return errno == EWOULDBLOCK ? -EAGAIN : -errno;
	lb->len += (size_t)n;
	lb->buf[lb->len] = '\0';
	if (n > 0 && check_bound(lb, (size_t)n) < 0)
		return -EMSGSIZE;
	return (long)n;
}

char *linebuf_next(struct linebuf *lb, size_t *len)
{
	char *p = lb->buf ? lb->buf + lb->start : NULL;
	char *nl;

	/* no '\n' after start: nothing to scan (keeps long lines linear) */
	if (!p || lb->start >= lb->len || lb->tail <= lb->start)
		return NULL;
	nl = memchr(p, '\n', lb->tail - lb->start);
	if (!nl)
		return NULL;
	*nl = '\0';
	if (len)
		*len = (size_t)(nl - p);
	lb->start += (size_t)(nl - p) + 1;
	if ((size_t)(nl - p) > lb->max) /* a whole line fed at once */
		return NULL;
	return p;
}

/* Offset of the first byte that is not well-formed UTF-8 (RFC 3629: no
 * overlongs, no surrogates, nothing past U+10FFFF), or len.  cJSON copies
 * string bytes as they come, so without this a message would carry them
 * into error lines, the manifest and the terminal. */
static size_t utf8_bad_at(const unsigned char *s, size_t len)
{
	size_t i = 0;

	while (i < len) {
		unsigned c = s[i];
		size_t n;
		unsigned lo = 0x80, hi = 0xBF;
		if (c < 0x80) {
			i++;
			continue;
		}
		if (c >= 0xC2 && c <= 0xDF)
			n = 1;
		else if (c >= 0xE0 && c <= 0xEF)
			n = 2;
		else if (c >= 0xF0 && c <= 0xF4)
			n = 3;
		else
			return i;
		if (c == 0xE0)
			lo = 0xA0;
		else if (c == 0xED)
			hi = 0x9F;
		else if (c == 0xF0)
			lo = 0x90;
		else if (c == 0xF4)
			hi = 0x8F;
		if (n >= len - i)
			return i; /* cut short */
		if (s[i + 1] < lo || s[i + 1] > hi)
			return i;
		for (size_t k = 2; k <= n; k++)
			if (s[i + k] < 0x80 || s[i + k] > 0xBF)
				return i;
		i += n + 1;
	}
	return len;
}

cJSON *proto_parse(const char *line, size_t len, char *why, size_t whylen)
{
	char jwhy[128];
	size_t bad = utf8_bad_at((const unsigned char *)line, len);
	cJSON *m;
	const cJSON *op;

	if (bad < len) {
		snprintf(why, whylen, "not UTF-8 (byte %zu)", bad + 1);
		return NULL;
	}
	m = rset_parse_json(line, len, jwhy, sizeof(jwhy));
	if (!m) {
		snprintf(why, whylen, "not JSON (%s)", jwhy);
		return NULL;
	}
	if (!cJSON_IsObject(m)) {
		snprintf(why, whylen, "not a JSON object");
		goto bad;
	}
	op = cJSON_GetObjectItemCaseSensitive(m, "op");
	if (!cJSON_IsString(op) || !op->valuestring[0] ||
	    strlen(op->valuestring) > 32) {
		snprintf(why, whylen, "no \"op\" string");
		goto bad;
	}
	return m;
bad:
	cJSON_Delete(m);
	return NULL;
}

const char *proto_op(const cJSON *msg)
{
	return cJSON_GetObjectItemCaseSensitive(msg, "op")->valuestring;
}

bool proto_get_i64(const cJSON *msg, const char *key, int64_t *out)
{
	const cJSON *v = cJSON_GetObjectItemCaseSensitive(msg, key);

	/* doubles hold integers exactly to 2^53: ns clocks up to 104 days
	 * of uptime difference; beyond that, refuse rather than round */
	if (!cJSON_IsNumber(v) || v->valuedouble != v->valuedouble ||
	    v->valuedouble > 9007199254740992.0 ||
	    v->valuedouble < -9007199254740992.0)
		return false;
	*out = (int64_t)v->valuedouble;
	return true;
}

bool proto_get_u64(const cJSON *msg, const char *key, uint64_t *out)
{
	int64_t v;

	if (!proto_get_i64(msg, key, &v) || v < 0)
		return false;
	*out = (uint64_t)v;
	return true;
}

const char *proto_get_str(const cJSON *msg, const char *key)
{
	return json_str(msg, key);
}

cJSON *proto_msg_new(const char *op)
{
	cJSON *m = cJSON_CreateObject();
	if (m && !cJSON_AddStringToObject(m, "op", op)) {
		cJSON_Delete(m);
		m = NULL;
	}
	return m;
}

char *proto_line(const cJSON *msg, size_t *len)
{
	char *s = cJSON_PrintUnformatted(msg);
	size_t n;

	if (!s)
		return NULL;
	n = strlen(s);
	char *p = realloc(s, n + 2);
	if (!p) {
		free(s);
		return NULL;
	}
	p[n] = '\n';
	p[n + 1] = '\0';
	*len = n + 1;
	return p;
}

void proto_sanitize(const char *in, size_t inlen, char *out, size_t max)
{
	size_t o = 0;

	if (!max)
		return;
	for (size_t i = 0; i < inlen && o + 1 < max; i++) {
		unsigned char c = (unsigned char)in[i];
		out[o++] = (c >= 0x20 && c < 0x7f) ? (char)c : '?';
	}
	if (inlen >= max && max > 4)
		memcpy(out + max - 4, "...", 3), o = max - 1;
	out[o] = '\0';
}

static int cmp_i64(const void *a, const void *b)
{
	int64_t x = *(const int64_t *)a, y = *(const int64_t *)b;
	return x < y ? -1 : x > y;
}

int clock_estimate(const struct clock_sample *s, size_t n, struct clock_est *out)
{
	int64_t *d = calloc(n ? n : 1, sizeof(*d));
	size_t k = 0, best = 0;
	int64_t best_delay = 0;

	memset(out, 0, sizeof(*out));
	if (!d)
		return -1;
	for (size_t i = 0; i < n; i++) {
		int64_t delay = (s[i].t3 - s[i].t0) - (s[i].t2 - s[i].t1);
		if (delay < 0 || s[i].t3 < s[i].t0 || s[i].t2 < s[i].t1)
			continue; /* clocks stepped or a lying agent */
		if (!k || delay < best_delay) {
			best_delay = delay;
			best = i;
		}
		d[k++] = delay;
	}
	if (!k) {
		free(d);
		return -1;
	}
	qsort(d, k, sizeof(*d), cmp_i64);
	out->rtt_min_ns = d[0];
	out->rtt_med_ns = d[k / 2];
	/* The sample with the least delay has the least room for asymmetry:
	 * the true offset lies within +- delay/2 of its estimate. */
	out->offset_ns = ((s[best].t1 - s[best].t0) + (s[best].t2 - s[best].t3)) / 2;
	out->error_ns = d[0] / 2;
	out->n = k;
	out->best = best;
	free(d);
	return 0;
}

int64_t barrier_margin_ns(const struct clock_est *hosts, size_t n,
			  int64_t floor_ns)
{
	int64_t worst = 0;

	for (size_t i = 0; i < n; i++)
		if (hosts[i].rtt_med_ns > worst)
			worst = hosts[i].rtt_med_ns;
	/* go travels one way (about rtt/2) and the agent must be scheduled;
	 * 4 round trips leave room for a jitter spike of 3 more.  The go
	 * lines leave one after another: 50 us each for the write and ssh. */
	int64_t m = 4 * worst;
	return (m > floor_ns ? m : floor_ns) + (int64_t)n * 50000;
}
