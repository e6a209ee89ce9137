/*
 * history_json.c - `history --format json` (history.h), written as it is
 * made: the bytes cJSON_PrintUnformatted gives for the same tree (cJSON
 * 1.7's number and string rules), without the tree.  10,000 sets made a
 * tree of 4 million items, 16 MB printed: 0.37 s of history's 3.7 s CPU.
 */
#include <float.h>
#include <math.h>
#include <pthread.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "history.h"
#include "util/array.h"
#include "util/sbuf.h"

/* A string as cJSON prints it: " \ and the control characters escaped,
 * every other byte as it is. */
static void hjson_str(struct sbuf *b, const char *s)
{
	static const char hex[] = "0123456789abcdef";
	sbuf_addc(b, '"');
	for (const unsigned char *p = (const unsigned char *)s; *p;) {
		/* the bytes printed as they are, as one run (a call a byte was
		 * 2 % of history's CPU) */
		size_t run = 0;
		while (p[run] >= 0x20 && p[run] != '"' && p[run] != '\\')
			run++;
		sbuf_add(b, p, run);
		if (!*(p += run))
			break;
		const char *e = NULL;
		switch (*p) {
		case '"': e = "\\\""; break;
		case '\\': e = "\\\\"; break;
		case '\b': e = "\\b"; break;
		case '\f': e = "\\f"; break;
		case '\n': e = "\\n"; break;
		case '\r': e = "\\r"; break;
		case '\t': e = "\\t"; break;
		default: break;
		}
		if (e) {
			sbuf_adds(b, e);
		} else {
			char u[7] = { '\\', 'u', '0', '0', hex[*p >> 4], hex[*p & 15], 0 };
			sbuf_adds(b, u);
		}
		p++;
	}
	sbuf_addc(b, '"');
}

/* "key":"value", as cJSON_AddStringToObject adds it (nothing for NULL:
 * cJSON adds no item then). */
static void hjson_kstr(struct sbuf *b, const char *k, const char *v, bool *first)
{
	if (!v)
		return;
	if (!*first)
		sbuf_addc(b, ',');
	sbuf_addc(b, '"');
	sbuf_adds(b, k);
	sbuf_add(b, "\":", 2);
	*first = false;
	hjson_str(b, v);
}

/* p significant digits dig (the last may be zeros) times 10^x, as %g
 * with precision p prints them: fixed when -4 <= x < p, else d.ddde+XX;
 * trailing zeros and a bare point dropped.  At most 26 bytes with NUL. */
static void g_format(char *o, bool neg, const char *dig, int p, int x)
{
	int nd = p;
	while (nd > 1 && dig[nd - 1] == '0')
		nd--;
	if (neg)
		*o++ = '-';
	if (x < -4 || x >= p) {
		*o++ = dig[0];
		if (nd > 1) {
			*o++ = '.';
			memcpy(o, dig + 1, (size_t)nd - 1);
			o += nd - 1;
		}
		*o++ = 'e';
		*o++ = x < 0 ? '-' : '+';
		int ax = x < 0 ? -x : x;
		if (ax >= 100)
			*o++ = (char)('0' + ax / 100);
		*o++ = (char)('0' + ax / 10 % 10);
		*o++ = (char)('0' + ax % 10);
	} else if (x >= 0) {
		for (int i = 0; i <= x; i++)
			*o++ = i < nd ? dig[i] : '0';
		if (nd > x + 1) {
			*o++ = '.';
			memcpy(o, dig + x + 1, (size_t)(nd - x - 1));
			o += nd - x - 1;
		}
	} else {
		*o++ = '0';
		*o++ = '.';
		for (int i = 0; i < -x - 1; i++)
			*o++ = '0';
		memcpy(o, dig, (size_t)nd);
		o += nd;
	}
	*o = 0;
}

/* The 17 significant digits of d (finite, not 0) and its decimal
 * exponent, as %.16e gives them (the binary value m * 2^e rounded to 17
 * digits, half to even), by 128-bit integers where they hold the value
 * times the power of ten (a history's numbers: 1e-5 to 1e17): 0, or -1
 * (printf then).  printf's exact digits (hack_digit, mpn_divrem) were
 * half of the writer's CPU. */
static int digits17(double d, char dig[17], int *xout)
{
	int be;
	double fr = frexp(fabs(d), &be);
	uint64_t m = (uint64_t)ldexp(fr, 53);   /* |d| = m * 2^e, exactly */
	int e = be - 53;
	int x = (int)floor(log10(fabs(d)));
	const unsigned __int128 e16 = 10000000000000000ull, e17 = e16 * 10;
	for (int tries = 0; tries < 3; tries++) {
		int s = 16 - x;   /* the digits: round(|d| * 10^s) */
		unsigned __int128 num = m, den = 1, p = 1;
		if (s > 22 || s < -38 || e > 60 || e < -120)
			return -1;
		for (int i = 0; i < (s < 0 ? -s : s); i++)
			p *= 10;
		if (s >= 0)
			num *= p;   /* < 2^53 * 10^22 < 2^127 */
		else
			den = p;
		if (e >= 0) {
			if (num >> (126 - e))
				return -1;
			num <<= e;
		} else {
			den <<= -e;   /* 10^-s * 2^-e: s < 0 only for |d| >= 1e17, e >= 4 */
		}
		unsigned __int128 q = num / den, r = num % den;
		if (r > den - r || (r == den - r && (q & 1)))
			q++;
		if (q >= e17) {
			x++;
			continue;
		}
		if (q < e16) {
			x--;
			continue;
		}
		for (int i = 16; i >= 0; i--, q /= 10)
			dig[i] = (char)('0' + (int)(q % 10));
		*xout = x;
		return 0;
	}
	return -1;
}

/* The double nearest to the 15 digits dig times 10^(x - 14), as strtod
 * reads them (a 15-digit integer is exact, and one multiplication or
 * division by an exact power of ten rounds once: Clinger's fast path),
 * or NAN where that does not hold. */
static double read_back15(bool neg, const char *dig, int x)
{
	static const double p10[] = { 1e0,  1e1,  1e2,  1e3,  1e4,  1e5,  1e6,  1e7,
				      1e8,  1e9,  1e10, 1e11, 1e12, 1e13, 1e14, 1e15,
				      1e16, 1e17, 1e18, 1e19, 1e20, 1e21, 1e22 };
	int k = x - 14;
	if (k < -22 || k > 22)
		return NAN;
	int64_t n = 0;
	for (int i = 0; i < 15; i++)
		n = n * 10 + (dig[i] - '0');
	double v = k >= 0 ? (double)n * p10[k] : (double)n / p10[-k];
	return neg ? -v : v;
}

/* A number as cJSON 1.7.15 prints it: the shortest of %1.15g and %1.17g
 * that reads back (so 3, -0, 1e+15); null for NaN and infinities.
 * tests/unit/test_history_json.c holds it to the library's bytes.
 * The 17 digits %.16e gives (digits17, else that printf), and the 15 are
 * rounded from them: two printf calls a number were 6 % of a history's
 * CPU (100,000 points).
 * Rounding the 17 digits again is exact unless their last two are "50"
 * (d may lie either side of the half); but then the 15 digits are half
 * their last unit, at least 4.95e-16 of d, from it, past the 2.2e-16 the
 * read-back allows, so the 17 are printed whichever way they round. */
static void hjson_num(struct sbuf *b, double d)
{
	char t[40];
	if (isnan(d) || isinf(d)) {
		sbuf_adds(b, "null");
		return;
	}
	if (d == floor(d) && fabs(d) < 1e15) {   /* what %1.15g prints, without printf */
		long long v = (long long)fabs(d);
		char *q = t + sizeof(t);
		*--q = 0;
		do
			*--q = (char)('0' + v % 10);
		while ((v /= 10));
		if (signbit(d))
			*--q = '-';
		sbuf_adds(b, q);
		return;
	}
	char dig[17], d15[15];
	bool neg = signbit(d);
	int x;
	if (digits17(d, dig, &x) < 0) {
		char e[40];
		snprintf(e, sizeof(e), "%.16e", d);   /* [-]d.dddddddddddddddde[+-]XX */
		const char *m = e + neg;
		dig[0] = m[0];
		memcpy(dig + 1, m + 2, 16);
		x = atoi(m + 19);
	}
	int x15 = x;
	memcpy(d15, dig, 15);
	if (dig[15] > '5' || (dig[15] == '5' && dig[16] > '0')) {   /* up */
		int i = 14;
		while (i >= 0 && d15[i] == '9')
			d15[i--] = '0';
		if (i < 0)
			d15[0] = '1', x15++;
		else
			d15[i]++;
	}
	g_format(t, neg, d15, 15, x15);
	double back = read_back15(neg, d15, x15);   /* what cJSON's sscanf("%lg") reads */
	if (isnan(back))
		back = strtod(t, NULL);
	double mx = fabs(back) > fabs(d) ? fabs(back) : fabs(d);
	if (!(fabs(back - d) <= mx * DBL_EPSILON))
		g_format(t, neg, dig, 17, x);
	sbuf_adds(b, t);
}

/* What every point of set i starts with, up to its value's colon:
 * {"set":NAME,"date":DATE,"value": (hjson_kstr's rules), made once a set:
 * its escaping was 8 % of the writer's CPU made for each of 100,000
 * points.  NULL on OOM. */
static char **json_heads(const struct history *h)
{
	char **v = calloc(h->nsets ? h->nsets : 1, sizeof(*v));
	for (size_t i = 0; v && i < h->nsets; i++) {
		struct sbuf b = SBUF_INIT;
		bool first = true;
		sbuf_addc(&b, '{');
		hjson_kstr(&b, "set", h->sets[i].name, &first);
		hjson_kstr(&b, "date", h->sets[i].date, &first);
		sbuf_adds(&b, first ? "\"value\":" : ",\"value\":");
		if (b.oom || !(v[i] = sbuf_detach(&b))) {
			sbuf_release(&b);
			while (i)
				free(v[--i]);
			free(v);
			return NULL;
		}
	}
	return v;
}

static void hjson_point(struct sbuf *b, const char *head, const struct hist_point *p)
{
	sbuf_adds(b, head);
	hjson_num(b, p->v.mean);
	sbuf_adds(b, ",\"ci95\":");
	hjson_num(b, p->v.ci95);
	sbuf_adds(b, ",\"n\":");
	hjson_num(b, p->v.n);
	sbuf_adds(b, p->cp.kind != CP_NONE ? ",\"change\":true" : ",\"change\":false");
	sbuf_adds(b, ",\"env_changes\":[");
	for (size_t x = 0, k = 0; x < p->nenv_changes; x++) {
		if (!p->env_changes[x])
			continue;
		if (k++)
			sbuf_addc(b, ',');
		hjson_str(b, p->env_changes[x]);
	}
	sbuf_adds(b, "]}");
}

/* Series [from, to) of a history into b, each but the very first after
 * a comma; written to f each 64 KiB, or (f NULL) kept as a list of such
 * pieces: one buffer grown to 8 MB was a fifth of the second thread's
 * CPU in copies and page faults. */
struct json_piece {
	char *p;
	size_t n;
};

struct json_part {
	const struct history *h;
	char *const *heads;
	size_t from, to;
	struct sbuf b;
	FILE *f;
	struct json_piece *pieces;
	size_t npieces, apieces;
	bool oom;
};

/* jp's text so far out: to its file, else onto its pieces. */
static void json_flush(struct json_part *jp)
{
	jp->oom |= jp->b.oom;
	if (jp->f) {
		fwrite(sbuf_str(&jp->b), 1, jp->b.len, jp->f);
		sbuf_reset(&jp->b);
		return;
	}
	struct json_piece *v = array_grow(jp->pieces, &jp->apieces, jp->npieces, sizeof(*v), 64);
	size_t n = jp->b.len;
	char *p = v ? sbuf_detach(&jp->b) : NULL;
	if (!p) {
		jp->oom = true;
		sbuf_reset(&jp->b);
		return;
	}
	jp->pieces = v;
	jp->pieces[jp->npieces++] = (struct json_piece){ p, n };
}

static void json_series(struct json_part *jp)
{
	const struct history *h = jp->h;
	struct sbuf *b = &jp->b;
	for (size_t i = jp->from; i < jp->to; i++) {
		const struct hist_series *s = &h->series[i];
		const struct hist_ident *id = &h->idents[s->ident];
		bool first = true;
		sbuf_adds(b, i ? ",{" : "{");
		hjson_kstr(b, "host", id->host, &first);
		hjson_kstr(b, "device", id->device, &first);
		hjson_kstr(b, "workload", s->workload, &first);
		hjson_kstr(b, "metric", arc_metric_names[s->metric], &first);
		sbuf_adds(b, ",\"points\":[");
		for (size_t k = 0; k < s->n; k++) {
			if (k)
				sbuf_addc(b, ',');
			hjson_point(b, jp->heads[s->pts[k].set], &s->pts[k]);
		}
		sbuf_adds(b, "]}");
		if (b->len > 1 << 16)
			json_flush(jp);
	}
	json_flush(jp);
}

static void *json_series_thread(void *arg)
{
	json_series(arg);
	return NULL;
}

int history_write_json(const struct history *h, FILE *f)
{
	char **heads = json_heads(h);
	if (!heads)
		return -1;
	/* the series' second half (by points) made on a second thread while
	 * the first is made and written: the writer runs after every set is
	 * read, alone (16 MB of 10,000 sets, its numbers' printf most of it) */
	size_t total = 0, half = 0, mid = 0;
	for (size_t i = 0; i < h->nseries; i++)
		total += h->series[i].n;
	while (mid < h->nseries && half < total / 2)
		half += h->series[mid++].n;
	struct json_part p[2] = { { h, heads, 0, mid, SBUF_INIT, f, NULL, 0, 0, false },
				  { h, heads, mid, h->nseries, SBUF_INIT, NULL, NULL, 0, 0, false } };
	pthread_t th;
	bool two = total > 1000 && pthread_create(&th, NULL, json_series_thread, &p[1]) == 0;
	sbuf_adds(&p[0].b, "{\"series\":[");
	json_series(&p[0]);
	if (two)
		pthread_join(th, NULL);
	else
		json_series(&p[1]);
	bool oom = p[0].oom || p[1].oom;
	for (size_t k = 0; k < p[1].npieces; k++) {
		if (!oom)
			fwrite(p[1].pieces[k].p, 1, p[1].pieces[k].n, f);
		free(p[1].pieces[k].p);
	}
	free(p[1].pieces);
	sbuf_release(&p[0].b);
	sbuf_release(&p[1].b);
	for (size_t i = 0; i < h->nsets; i++)
		free(heads[i]);
	free(heads);
	/* sets whose numbers were left out, and why */
	struct sbuf b = SBUF_INIT;
	sbuf_adds(&b, "],\"failed_verification\":[");
	for (size_t i = 0; i < h->nfailed; i++) {
		bool first = true;
		sbuf_adds(&b, i ? ",{" : "{");
		hjson_kstr(&b, "set", h->failed[i].set, &first);
		hjson_kstr(&b, "path", h->failed[i].path, &first);
		hjson_kstr(&b, "problems", h->failed[i].problems, &first);
		sbuf_addc(&b, '}');
	}
	sbuf_adds(&b, "]}\n");
	oom |= b.oom;
	if (!oom)
		fwrite(sbuf_str(&b), 1, b.len, f);
	sbuf_release(&b);
	return oom ? -1 : 0;
}
