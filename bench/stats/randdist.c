/*
 * randdist.c - randdist.h: fio's random_distribution values, parsed with
 * fio's limits, and sampled with our own generators (so equal seeds do not
 * give fio's offsets; the shapes are the same):
 *
 *  - zipf:θ by rejection-inversion (Hörmann and Derflinger, "Rejection-
 *    inversion to generate variates from monotone discrete distributions",
 *    1996): exact for any θ > 0, O(1) per draw with no table, so it needs
 *    no cap on n (fio sums its zeta over at most 10^7 ranks).  With
 *    h(x) = x^-θ and H its antiderivative (x^(1-θ) - 1)/(1-θ), a uniform u
 *    between H(n + 1/2) and H(3/2) - 1 is inverted to x = H^-1(u) and
 *    rounded to k; k is kept when it lies within s of x (the region where
 *    the hat equals the target) or when u >= H(k + 1/2) - h(k); else draw
 *    again.  Acceptance is above 90 % for every θ.
 *  - pareto:h as fio means it: rank = n * U^(ln h / ln(1 - h)), so that
 *    P(rank < h n) = 1 - h: h = 0.2 puts 80 % of the IOs on 20 % of the
 *    blocks.
 *  - normal:σ: Box-Muller around the middle of the range, σ in percent of
 *    the range, draws outside the range drawn again.
 *  - zoned: a zone by its access share, then uniform inside its range.
 * For zipf, pareto and normal the rank is scattered over the range by the
 * caller (a fixed keyed permutation, as fio hashes it), so the hot blocks
 * are not all at the start of the device.
 */
#include "randdist.h"
#include "util/units.h"

#include <math.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static int why_set(char *why, size_t len, const char *fmt, const char *s)
{
	snprintf(why, len, fmt, s);
	return -1;
}

/* One number of a zone list; end at the separator. */
static int zone_num(const char **p, double *out)
{
	char *end;
	*out = strtod(*p, &end);
	if (end == *p || !isfinite(*out))
		return -1;
	*p = end;
	return 0;
}

/* "a/r:a/r..." (zoned) or "a/size:..." (zoned_abs) after the colon. */
static int parse_zones(const char *s, const char *list, struct randdist *d,
		       char *why, size_t len)
{
	bool abs_ = d->kind == RANDDIST_ZONED_ABS;
	double asum = 0, rsum = 0;
	const char *p = list;

	while (*p) {
		if (d->nzones == RANDDIST_MAX_ZONES) {
			snprintf(why, len, "%s: at most %d zones", s, RANDDIST_MAX_ZONES);
			return -1;
		}
		unsigned z = d->nzones;
		double a;
		if (zone_num(&p, &a) < 0 || *p != '/' || a < 0 || a > 100)
			return why_set(why, len, abs_ ?
				"%s: each zone is ACCESS%%/SIZE with ACCESS in 0..100 (e.g. zoned_abs:60/1g:40/3g)" :
				"%s: each zone is ACCESS%%/RANGE%% in 0..100 (e.g. zoned:60/10:30/20:10/70)", s);
		p++;
		const char *e = strchr(p, ':');
		size_t l = e ? (size_t)(e - p) : strlen(p);
		char tok[40];
		if (l == 0 || l >= sizeof(tok))
			return why_set(why, len, "%s: a zone has no range", s);
		memcpy(tok, p, l);
		tok[l] = '\0';
		if (abs_) {
			if (units_parse_size(tok, &d->range_bytes[z]) < 0 || !d->range_bytes[z])
				return why_set(why, len, "%s: a zone's size is not a size above 0 (e.g. 1g)", s);
		} else {
			char *end;
			double r = strtod(tok, &end);
			if (*end || !(r > 0 && r <= 100))
				return why_set(why, len, "%s: a zone's range must be in (0, 100]", s);
			d->range_pct[z] = r;
			rsum += r;
		}
		d->access_pct[z] = a;
		asum += a;
		d->nzones++;
		p += l;
		if (*p == ':' && !*++p)
			return why_set(why, len, "%s: a zone list must not end in ':'", s);
	}
	if (!d->nzones)
		return why_set(why, len, "%s: no zones (e.g. zoned:60/10:40/90)", s);
	if (fabs(asum - 100) > 1e-9) {
		snprintf(why, len, "%s: the access shares sum to %g, not 100", s, asum);
		return -1;
	}
	if (!abs_ && fabs(rsum - 100) > 1e-9) {
		snprintf(why, len, "%s: the range shares sum to %g, not 100", s, rsum);
		return -1;
	}
	return 0;
}

int randdist_parse(const char *s, struct randdist *d, char *why, size_t whylen)
{
	static const struct { const char *name; enum randdist_kind kind; } kinds[] = {
		{ "zipf:", RANDDIST_ZIPF }, { "pareto:", RANDDIST_PARETO },
		{ "normal:", RANDDIST_NORMAL }, { "zoned:", RANDDIST_ZONED },
		{ "zoned_abs:", RANDDIST_ZONED_ABS },
	};
	memset(d, 0, sizeof(*d));
	if (!strcmp(s, "random"))
		return 0;
	for (size_t i = 0; i < sizeof(kinds) / sizeof(kinds[0]); i++) {
		size_t l = strlen(kinds[i].name);
		if (strncmp(s, kinds[i].name, l))
			continue;
		d->kind = kinds[i].kind;
		if (d->kind == RANDDIST_ZONED || d->kind == RANDDIST_ZONED_ABS)
			return parse_zones(s, s + l, d, why, whylen);
		char *end;
		double v = strtod(s + l, &end);
		bool num = end != s + l && !*end && isfinite(v);
		if (d->kind == RANDDIST_ZIPF && (!num || !(v > 0) || v == 1.0))
			return why_set(why, whylen, "%s: θ must be above 0 and not 1 (e.g. zipf:1.2)", s);
		if (d->kind == RANDDIST_PARETO && (!num || !(v > 0 && v < 1)))
			return why_set(why, whylen, "%s: h must be between 0 and 1, both excluded (e.g. pareto:0.2)", s);
		if (d->kind == RANDDIST_NORMAL && (!num || !(v > 0 && v < 100)))
			return why_set(why, whylen, "%s: σ is a percentage of the range above 0 and below 100 (e.g. normal:10)", s);
		d->param = v;
		return 0;
	}
	return why_set(why, whylen, "unknown distribution '%s'; use random, zipf:θ, pareto:h, normal:σ, zoned:A/R:... or zoned_abs:A/SIZE:...", s);
}

void randdist_format(const struct randdist *d, char *buf, size_t len)
{
	static const char *const names[] = { "random", "zipf", "pareto", "normal",
		"zoned", "zoned_abs" };
	size_t n = (size_t)snprintf(buf, len, "%s", names[d->kind]);

	if (d->kind == RANDDIST_ZIPF || d->kind == RANDDIST_PARETO ||
	    d->kind == RANDDIST_NORMAL) {
		snprintf(buf + n, n < len ? len - n : 0, ":%.10g", d->param);
		return;
	}
	for (unsigned z = 0; z < d->nzones && n < len; z++) {
		char r[40];
		if (d->kind == RANDDIST_ZONED)
			snprintf(r, sizeof(r), "%.10g", d->range_pct[z]);
		else
			units_format_size_short(d->range_bytes[z], r, sizeof(r));
		n += (size_t)snprintf(buf + n, len - n, ":%.10g/%s", d->access_pct[z], r);
	}
}

/* H(x) = (x^(1-θ) - 1) / (1-θ) and its inverse, written so that they stay
 * exact near θ = 1 (log1p/expm1 over their argument). */
static double helper1(double x)
{
	return fabs(x) > 1e-8 ? log1p(x) / x : 1 - x * (0.5 - x / 3);
}

static double helper2(double x)
{
	return fabs(x) > 1e-8 ? expm1(x) / x : 1 + x * 0.5 * (1 + x / 3);
}

static double zipf_H(double theta, double x)
{
	double lx = log(x);
	return helper2((1 - theta) * lx) * lx;
}

static double zipf_Hinv(double theta, double y)
{
	double t = y * (1 - theta);
	if (t < -1)
		t = -1; /* rounding at the very edge */
	return exp(helper1(t) * y);
}

static double zipf_h(double theta, double x)
{
	return exp(-theta * log(x));
}

static void zoned_init(struct randdist_gen *g, const struct randdist *d,
		       uint64_t n, uint64_t bs)
{
	double acc = 0, rng = 0;
	uint64_t pos = 0;

	for (unsigned z = 0; z < d->nzones; z++) {
		acc += d->access_pct[z] / 100.0;
		g->cum[z] = acc;
		uint64_t end;
		if (d->kind == RANDDIST_ZONED) {
			rng += d->range_pct[z];
			end = z + 1 == d->nzones ? n : (uint64_t)((double)n * rng / 100.0);
		} else {
			end = pos + d->range_bytes[z] / bs;
		}
		if (end > n)
			end = n;
		g->start[z] = pos < n ? pos : n - 1;
		g->len[z] = end > pos ? end - pos : 1; /* a zone too small: one block */
		pos = end > pos ? end : pos;
	}
	g->cum[d->nzones - 1] = 1.0;
}

int randdist_zones_fit(const struct randdist *d, uint64_t n, uint64_t bs, char *why,
		       size_t whylen)
{
	uint64_t sum = 0;

	if (d->kind != RANDDIST_ZONED_ABS || !bs)
		return 0;
	for (unsigned z = 0; z < d->nzones; z++)
		if (__builtin_add_overflow(sum, d->range_bytes[z], &sum))
			sum = UINT64_MAX;
	if (sum / bs <= n)
		return 0;
	snprintf(why, whylen, "random_distribution zoned_abs: the zones cover %llu "
		 "bytes, more than the %llu addressed; shrink them or raise size",
		 (unsigned long long)sum, (unsigned long long)(n * bs));
	return -1;
}

int randdist_gen_init(struct randdist_gen *g, const struct randdist *d,
		      uint64_t n, uint64_t bs, char *why, size_t whylen)
{
	memset(g, 0, sizeof(*g));
	g->kind = d->kind;
	g->n = n ? n : 1;
	switch (d->kind) {
	case RANDDIST_RANDOM:
		break;
	case RANDDIST_ZIPF:
		g->theta = d->param;
		g->h_x1 = zipf_H(g->theta, 1.5) - 1;
		g->h_n = zipf_H(g->theta, (double)g->n + 0.5);
		g->s = 2 - zipf_Hinv(g->theta, zipf_H(g->theta, 2.5) - zipf_h(g->theta, 2));
		break;
	case RANDDIST_PARETO:
		g->pow = log(d->param) / log(1 - d->param);
		break;
	case RANDDIST_NORMAL:
		g->mean = (double)g->n / 2.0;
		g->sd = (double)g->n * d->param / 100.0;
		break;
	case RANDDIST_ZONED_ABS:
		if (randdist_zones_fit(d, g->n, bs, why, whylen) < 0)
			return -1;
		/* fall through */
	case RANDDIST_ZONED:
		g->nzones = d->nzones;
		zoned_init(g, d, g->n, bs ? bs : 1);
		break;
	}
	return 0;
}

static uint64_t zipf_next(const struct randdist_gen *g, struct prng *p)
{
	for (;;) {
		double u = g->h_n + randdist_unit(p) * (g->h_x1 - g->h_n);
		double x = zipf_Hinv(g->theta, u);
		double kd = floor(x + 0.5);
		if (kd < 1)
			kd = 1;
		if (kd > (double)g->n)
			kd = (double)g->n;
		if (kd - x <= g->s ||
		    u >= zipf_H(g->theta, kd + 0.5) - zipf_h(g->theta, kd))
			return (uint64_t)kd - 1;
	}
}

static uint64_t normal_next(const struct randdist_gen *g, struct prng *p)
{
	for (;;) {
		double u1 = randdist_unit(p), u2 = randdist_unit(p);
		double z = sqrt(-2.0 * log(1.0 - u1)) * cos(6.283185307179586 * u2);
		double v = g->mean + g->sd * z;
		if (v >= 0 && v < (double)g->n)
			return (uint64_t)v;
	}
}

uint64_t randdist_next(const struct randdist_gen *g, struct prng *p)
{
	switch (g->kind) {
	case RANDDIST_ZIPF:
		return g->n == 1 ? 0 : zipf_next(g, p);
	case RANDDIST_PARETO: {
		uint64_t r = (uint64_t)((double)g->n * pow(randdist_unit(p), g->pow));
		return r < g->n ? r : g->n - 1;
	}
	case RANDDIST_NORMAL:
		return normal_next(g, p);
	case RANDDIST_ZONED: case RANDDIST_ZONED_ABS: {
		double u = randdist_unit(p);
		unsigned z = 0;
		while (z + 1 < g->nzones && u >= g->cum[z])
			z++;
		return g->start[z] + prng_below(p, g->len[z]);
	}
	case RANDDIST_RANDOM:
		break;
	}
	return prng_below(p, g->n);
}
