/*
 * ivhist.c - ivhist.h: per-interval histograms as sparse pairs,
 * grown by doubling, merged by a two-way merge of each interval's sorted
 * pairs.
 */
#include "ivhist.h"
#include "util/array.h"

#include <stdbool.h>
#include <stdlib.h>
#include <string.h>

void ivhist_init(struct ivhist *s)
{
	memset(s, 0, sizeof(*s));
}

void ivhist_release(struct ivhist *s)
{
	free(s->off);
	free(s->idx);
	free(s->cnt);
	ivhist_init(s);
}

static int ivhist_grow_n(struct ivhist *s, size_t want)
{
	if (want <= s->alloc_n && s->off)
		return 0;
	size_t n = s->alloc_n ? s->alloc_n : 16;
	while (n < want)
		n *= 2;
	size_t *o = realloc(s->off, (n + 1) * sizeof(*o));
	if (!o)
		return -1;
	if (!s->off)
		o[0] = 0;
	s->off = o;
	s->alloc_n = n;
	return 0;
}

static int ivhist_grow_pairs(struct ivhist *s, size_t want)
{
	return ARRAY_RESERVE2(s->idx, s->cnt, s->alloc_pairs, want, 256);
}

int ivhist_reserve(struct ivhist *s, size_t intervals, size_t pairs)
{
	return ivhist_grow_n(s, intervals) < 0 || ivhist_grow_pairs(s, pairs) < 0 ? -1 : 0;
}

size_t ivhist_diff(struct lat_hist *snap, const struct lat_hist *run, uint16_t *idx,
		   uint64_t *cnt)
{
	size_t k = 0;
	for (unsigned i = 0; i < HIST_BUCKETS; i++) {
		if (run->count[i] == snap->count[i])
			continue;
		idx[k] = (uint16_t)i;
		cnt[k++] = run->count[i] - snap->count[i];
		snap->count[i] = run->count[i];
	}
	return k;
}

int ivhist_close(struct ivhist *s, struct lat_hist *snap, const struct lat_hist *run)
{
	size_t k = 0;
	for (unsigned i = 0; i < HIST_BUCKETS; i++)
		k += run->count[i] != snap->count[i];
	if (ivhist_grow_n(s, s->n + 1) < 0 || ivhist_grow_pairs(s, s->npairs + k) < 0)
		return -1;
	s->npairs += ivhist_diff(snap, run, s->idx + s->npairs, s->cnt + s->npairs);
	s->off[++s->n] = s->npairs;
	return 0;
}

int ivhist_push(struct ivhist *s, const uint16_t *idx, const uint64_t *cnt, size_t k)
{
	if (ivhist_grow_n(s, s->n + 1) < 0 || ivhist_grow_pairs(s, s->npairs + k) < 0)
		return -1;
	if (k) {
		memcpy(s->idx + s->npairs, idx, k * sizeof(*idx));
		memcpy(s->cnt + s->npairs, cnt, k * sizeof(*cnt));
	}
	s->npairs += k;
	s->off[++s->n] = s->npairs;
	return 0;
}

void ivhist_truncate(struct ivhist *s, size_t n)
{
	if (n >= s->n)
		return;
	s->n = n;
	s->npairs = s->off[n];
}

int ivhist_merge(struct ivhist *dst, const struct ivhist *src)
{
	if (!src->n)
		return 0;
	if (!dst->n)
		return ivhist_copy(dst, src);
	struct ivhist m;
	size_t n = dst->n > src->n ? dst->n : src->n;
	ivhist_init(&m);
	if (ivhist_reserve(&m, n, dst->npairs + src->npairs) < 0) {
		ivhist_release(&m);
		return -1;
	}
	size_t p = 0;
	for (size_t i = 0; i < n; i++) {
		size_t a = i < dst->n ? dst->off[i] : 0, ae = i < dst->n ? dst->off[i + 1] : 0;
		size_t b = i < src->n ? src->off[i] : 0, be = i < src->n ? src->off[i + 1] : 0;
		while (a < ae || b < be) {
			if (b == be || (a < ae && dst->idx[a] < src->idx[b])) {
				m.idx[p] = dst->idx[a];
				m.cnt[p++] = dst->cnt[a++];
			} else if (a == ae || src->idx[b] < dst->idx[a]) {
				m.idx[p] = src->idx[b];
				m.cnt[p++] = src->cnt[b++];
			} else {
				m.idx[p] = dst->idx[a];
				m.cnt[p++] = dst->cnt[a++] + src->cnt[b++];
			}
		}
		m.off[i + 1] = p;
	}
	m.n = n;
	m.npairs = p;
	ivhist_release(dst);
	*dst = m;
	return 0;
}

int ivhist_copy(struct ivhist *dst, const struct ivhist *src)
{
	struct ivhist c;
	ivhist_init(&c);
	if (ivhist_reserve(&c, src->n, src->npairs) < 0) {
		ivhist_release(&c);
		return -1;
	}
	if (src->n)
		memcpy(c.off, src->off, (src->n + 1) * sizeof(*c.off));
	if (src->npairs) {
		memcpy(c.idx, src->idx, src->npairs * sizeof(*c.idx));
		memcpy(c.cnt, src->cnt, src->npairs * sizeof(*c.cnt));
	}
	c.n = src->n;
	c.npairs = src->npairs;
	ivhist_release(dst);
	*dst = c;
	return 0;
}

int ivacc_init(struct ivacc *a, unsigned nadders)
{
	memset(a, 0, sizeof(*a));
	ivhist_init(&a->done);
	a->nadders = nadders;
	a->pos = calloc(nadders ? nadders : 1, sizeof(*a->pos));
	return a->pos ? 0 : -1;
}

/* The intervals below `below` appended to done, from their dense slots
 * (freed) or empty. */
static int ivacc_settle(struct ivacc *a, size_t below)
{
	while (a->done.n < below) {
		size_t f = a->done.n, k = 0;
		struct ivacc_open *o = NULL;
		for (size_t i = 0; i < a->nopen && !o; i++)
			if (a->open[i].at == f)
				o = &a->open[i];
		if (!o) {
			if (!a->nopen)   /* nothing open: no later interval holds IO */
				return 0;
			if (ivhist_push(&a->done, NULL, NULL, 0) < 0)
				return -1;
			continue;
		}
		for (unsigned b = 0; b < HIST_BUCKETS; b++)
			k += o->count[b] != 0;
		if (ivhist_grow_n(&a->done, f + 1) < 0 ||
		    ivhist_grow_pairs(&a->done, a->done.npairs + k) < 0)
			return -1;
		for (unsigned b = 0; b < HIST_BUCKETS; b++)
			if (o->count[b]) {
				a->done.idx[a->done.npairs] = (uint16_t)b;
				a->done.cnt[a->done.npairs++] = o->count[b];
			}
		a->done.off[++a->done.n] = a->done.npairs;
		free(o->count);
		*o = a->open[--a->nopen];
	}
	return 0;
}

int ivacc_add(struct ivacc *a, unsigned i, size_t at, size_t next, const uint16_t *idx,
	      const uint64_t *cnt, size_t k)
{
	if (k && at >= a->done.n) {
		struct ivacc_open *o = NULL;
		for (size_t x = 0; x < a->nopen && !o; x++)
			if (a->open[x].at == at)
				o = &a->open[x];
		if (!o) {
			struct ivacc_open *v = array_grow(a->open, &a->aopen, a->nopen,
							  sizeof(*v), 8);
			if (!v)
				return -1;
			a->open = v;
			o = &a->open[a->nopen];
			if (!(o->count = calloc(HIST_BUCKETS, sizeof(*o->count))))
				return -1;
			o->at = at;
			a->nopen++;
		}
		for (size_t x = 0; x < k; x++)
			o->count[idx[x]] += cnt[x];
	}
	if (i < a->nadders)
		a->pos[i] = next;
	size_t below = SIZE_MAX;
	for (unsigned x = 0; x < a->nadders; x++)
		below = a->pos[x] < below ? a->pos[x] : below;
	return below == SIZE_MAX ? 0 : ivacc_settle(a, below);
}

int ivacc_take(struct ivacc *a, size_t n, struct ivhist *out)
{
	size_t last = 0;
	for (size_t i = 0; i < a->nopen; i++)
		last = a->open[i].at + 1 > last ? a->open[i].at + 1 : last;
	if (ivacc_settle(a, last) < 0)
		return -1;
	while (a->done.n < n)
		if (ivhist_push(&a->done, NULL, NULL, 0) < 0)
			return -1;
	ivhist_truncate(&a->done, n);
	ivhist_release(out);
	*out = a->done;
	ivhist_init(&a->done);
	ivacc_release(a);
	return 0;
}

void ivacc_release(struct ivacc *a)
{
	for (size_t i = 0; i < a->nopen; i++)
		free(a->open[i].count);
	free(a->open);
	free(a->pos);
	ivhist_release(&a->done);
	memset(a, 0, sizeof(*a));
}

uint64_t ivhist_count(const struct ivhist *s, size_t i)
{
	uint64_t t = 0;
	for (size_t p = i < s->n ? s->off[i] : 0, e = i < s->n ? s->off[i + 1] : 0; p < e; p++)
		t += s->cnt[p];
	return t;
}

uint64_t ivhist_percentile(const struct ivhist *s, size_t i, double p)
{
	uint64_t rank = hist_rank(ivhist_count(s, i), p), cum = 0;
	if (!rank)
		return 0;
	size_t q = s->off[i], e = s->off[i + 1];
	for (; q < e; q++) {
		cum += s->cnt[q];
		if (cum >= rank)
			return hist_bucket_mid(s->idx[q]);
	}
	return hist_bucket_mid(s->idx[e - 1]);
}

int ivhist_sum(const struct ivhist *s, struct lat_hist *out)
{
	memset(out, 0, sizeof(*out));
	for (size_t p = 0; p < s->npairs; p++) {
		unsigned b = s->idx[p] < HIST_BUCKETS ? s->idx[p] : HIST_BUCKETS - 1;
		if (__builtin_add_overflow(out->count[b], s->cnt[p], &out->count[b]) ||
		    __builtin_add_overflow(out->total, s->cnt[p], &out->total))
			return -1;
	}
	return 0;
}

void ivhist_interval(const struct ivhist *s, size_t i, struct lat_hist *out)
{
	memset(out, 0, sizeof(*out));
	for (size_t p = i < s->n ? s->off[i] : 0, e = i < s->n ? s->off[i + 1] : 0; p < e; p++) {
		out->count[s->idx[p] < HIST_BUCKETS ? s->idx[p] : HIST_BUCKETS - 1] += s->cnt[p];
		out->total += s->cnt[p];
	}
}
