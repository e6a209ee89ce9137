/*
 * histfile.c - histfile.h: the repetition's histogram as pairs, the
 * skip-counts text of each interval, written and read back, and the sums
 * checked.
 */
#include "histfile.h"

#include <stdbool.h>
#include <inttypes.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* ---- hist: [low_ns, count] pairs ---- */

cJSON *hist_to_json(const struct lat_hist *h)
{
	cJSON *a = cJSON_CreateArray();
	if (!a)
		return NULL;
	if (!h)
		return a;
	for (unsigned i = 0; i < HIST_BUCKETS; i++) {
		if (!h->count[i])
			continue;
		cJSON *pair = cJSON_CreateArray();
		if (!pair)
			goto err;
		cJSON_AddItemToArray(a, pair);
		cJSON *lo = cJSON_CreateNumber((double)hist_bucket_low(i));
		cJSON *n = cJSON_CreateNumber((double)h->count[i]);
		if (lo)
			cJSON_AddItemToArray(pair, lo);
		if (n)
			cJSON_AddItemToArray(pair, n);
		if (!lo || !n)
			goto err;
	}
	return a;
err:
	cJSON_Delete(a);
	return NULL;
}

/* Accepts the bare bucket array or the {"scheme","buckets"} object. */
int hist_from_json(const cJSON *j, struct lat_hist *h)
{
	memset(h, 0, sizeof(*h));
	if (cJSON_IsObject(j)) {
		const cJSON *sc = cJSON_GetObjectItemCaseSensitive(j, "scheme");
		if (sc && (!cJSON_IsString(sc) || strcmp(sc->valuestring, "loglin64")))
			return -1;
		j = cJSON_GetObjectItemCaseSensitive(j, "buckets");
	}
	if (!cJSON_IsArray(j))
		return -1;
	const cJSON *pair;
	cJSON_ArrayForEach(pair, j) {
		if (!cJSON_IsArray(pair) || cJSON_GetArraySize(pair) != 2)
			goto err;
		const cJSON *lo = cJSON_GetArrayItem(pair, 0);
		const cJSON *n = cJSON_GetArrayItem(pair, 1);
		if (!cJSON_IsNumber(lo) || !cJSON_IsNumber(n) ||
		    lo->valuedouble < 0 || n->valuedouble < 0 ||
		    lo->valuedouble > 1.8e19 || n->valuedouble > 1.8e19)
			goto err;
		uint64_t low = (uint64_t)lo->valuedouble;
		uint64_t cnt = (uint64_t)n->valuedouble;
		if ((double)low != lo->valuedouble || (double)cnt != n->valuedouble)
			goto err;
		unsigned idx = hist_index(low);
		if (hist_bucket_low(idx) != low)
			goto err; /* not a bucket boundary of this scheme */
		if (h->total + cnt < h->total)
			goto err; /* counts that overflow are not a histogram we wrote */
		h->count[idx] += cnt;
		h->total += cnt;
	}
	return 0;
err:
	memset(h, 0, sizeof(*h));
	return -1;
}

/* ---- series.hist: skip-counts text ---- */

/* Longest text of one interval: every bucket a 20-digit count. */
#define HISTFILE_MAX_TEXT (HIST_BUCKETS * 22u + 1)

size_t histfile_encode(const struct ivhist *s, size_t i, char *buf, size_t len)
{
	size_t w = 0;
	unsigned cur = 0;
	char tok[32];

	if (len)
		buf[0] = 0;
	if (i >= s->n)
		return 0;
	for (size_t p = s->off[i]; p < s->off[i + 1]; p++) {
		int k = 0;
		if (s->idx[p] > cur)
			k = snprintf(tok, sizeof(tok), "%s-%u", w ? " " : "", s->idx[p] - cur);
		k += snprintf(tok + k, sizeof(tok) - (size_t)k, "%s%" PRIu64,
			      w || k ? " " : "", s->cnt[p]);
		if (w + (size_t)k < len)
			memcpy(buf + w, tok, (size_t)k + 1);
		w += (size_t)k;
		cur = s->idx[p] + 1u;
	}
	return w;
}

cJSON *histfile_to_json(const struct ivhist *s)
{
	cJSON *o = cJSON_CreateObject(), *a;
	char *buf = malloc(HISTFILE_MAX_TEXT);

	if (!o || !buf || !cJSON_AddStringToObject(o, "scheme", "loglin64") ||
	    !cJSON_AddStringToObject(o, "encoding", "skip-counts") ||
	    !(a = cJSON_AddArrayToObject(o, "intervals")))
		goto err;
	for (size_t i = 0; i < s->n; i++) {
		histfile_encode(s, i, buf, HISTFILE_MAX_TEXT);
		cJSON *t = cJSON_CreateString(buf);
		if (!t)
			goto err;
		cJSON_AddItemToArray(a, t);
	}
	free(buf);
	return o;
err:
	free(buf);
	cJSON_Delete(o);
	return NULL;
}

/* One interval's text into idx/cnt (room for HIST_BUCKETS); its pairs, or
 * -1 with why. */
static long histfile_decode(const char *t, uint16_t *idx, uint64_t *cnt, uint64_t *total,
			    char *why, size_t whylen)
{
	unsigned long long cur = 0;
	long k = 0;
	bool skipped = false;

	*total = 0;
	while (*t) {
		bool skip = *t == '-';
		const char *d = t + skip;
		unsigned long long v = 0;
		/* digits by hand: strtoull with its errno and locale was half
		 * of the reading time of a one-hour cell */
		if (*d < '1' || *d > '9')
			goto bad;
		for (; *d >= '0' && *d <= '9'; d++)
			if (__builtin_mul_overflow(v, 10ull, &v) ||
			    __builtin_add_overflow(v, (unsigned long long)(*d - '0'), &v))
				goto bad;
		if (*d && (*d != ' ' || !d[1]))
			goto bad;
		t = *d ? d + 1 : d;
		if (skip) {
			if (skipped || v >= HIST_BUCKETS || cur + v >= HIST_BUCKETS)
				goto past;
			cur += v;
			skipped = true;
			continue;
		}
		if (cur >= HIST_BUCKETS)
			goto past;
		if (*total + v < *total) {
			snprintf(why, whylen, "counts past 2^64");
			return -1;
		}
		idx[k] = (uint16_t)cur++;
		cnt[k++] = v;
		*total += v;
		skipped = false;
	}
	if (skipped)
		goto bad;
	return k;
bad:
	snprintf(why, whylen, "not skip-counts text at '%.16s'", t);
	return -1;
past:
	snprintf(why, whylen, "a bucket past the last of loglin64");
	return -1;
}

int histfile_read(const cJSON *series, struct ivhist *out, char *why, size_t whylen)
{
	const cJSON *h = cJSON_GetObjectItemCaseSensitive(series, "hist");
	const cJSON *ios = cJSON_GetObjectItemCaseSensitive(series, "ios");
	uint16_t *idx = NULL;
	uint64_t *cnt = NULL;
	int ret = -1;

	ivhist_release(out);
	if (!h)
		return 0;
	const cJSON *sc = cJSON_GetObjectItemCaseSensitive(h, "scheme");
	const cJSON *en = cJSON_GetObjectItemCaseSensitive(h, "encoding");
	const cJSON *iv = cJSON_GetObjectItemCaseSensitive(h, "intervals");
	if (!cJSON_IsString(sc) || strcmp(sc->valuestring, "loglin64") ||
	    !cJSON_IsString(en) || strcmp(en->valuestring, "skip-counts")) {
		snprintf(why, whylen, "series.hist is not loglin64 in skip-counts");
		return -1;
	}
	int n = cJSON_GetArraySize(iv);
	if (!cJSON_IsArray(iv) || !cJSON_IsArray(ios) || cJSON_GetArraySize(ios) != n) {
		snprintf(why, whylen, "series.hist holds %d intervals, the series %d",
			 cJSON_IsArray(iv) ? n : 0, cJSON_GetArraySize(ios));
		return -1;
	}
	idx = malloc(HIST_BUCKETS * sizeof(*idx));
	cnt = malloc(HIST_BUCKETS * sizeof(*cnt));
	if (!idx || !cnt || ivhist_reserve(out, (size_t)n, (size_t)n * 64) < 0) {
		ret = -2;
		goto out;
	}
	const cJSON *t = iv->child, *io = ios->child;
	for (int i = 0; i < n; i++, t = t->next, io = io->next) {
		uint64_t total;
		char w[96];
		long k = cJSON_IsString(t) ? histfile_decode(t->valuestring, idx, cnt, &total,
							     w, sizeof(w)) : -1;
		if (k < 0) {
			snprintf(why, whylen, "series.hist interval %d: %s", i,
				 cJSON_IsString(t) ? w : "not a string");
			goto out;
		}
		if (!cJSON_IsNumber(io) || io->valuedouble != (double)total) {
			snprintf(why, whylen, "series.hist interval %d holds %" PRIu64
				 " IOs, the series' ios %.0f", i, total,
				 cJSON_IsNumber(io) ? io->valuedouble : NAN);
			goto out;
		}
		if (ivhist_push(out, idx, cnt, (size_t)k) < 0) {
			ret = -2;
			goto out;
		}
	}
	ret = 0;
out:
	free(idx);
	free(cnt);
	if (ret < 0)
		ivhist_release(out);
	return ret;
}

int histfile_check_sum(const struct ivhist *s, const struct lat_hist *run,
		       char *why, size_t whylen)
{
	struct lat_hist *sum = malloc(sizeof(*sum));
	int ret = 0;

	if (!sum || ivhist_sum(s, sum) < 0) {
		snprintf(why, whylen, sum ? "series.hist: counts past 2^64" : "out of memory");
		free(sum);
		return -1;
	}
	for (unsigned i = 0; i < HIST_BUCKETS; i++) {
		if (sum->count[i] == run->count[i])
			continue;
		snprintf(why, whylen, "the intervals' histograms (series.hist) hold %" PRIu64
			 " IOs of %" PRIu64 "-%" PRIu64 " ns, the repetition's histogram (hist) %"
			 PRIu64, sum->count[i], hist_bucket_low(i), hist_bucket_high(i),
			 run->count[i]);
		ret = -1;
		break;
	}
	free(sum);
	return ret;
}

int histfile_check_dir(const cJSON *dir, const char *w, char *why, size_t whylen)
{
	const cJSON *se = cJSON_GetObjectItemCaseSensitive(dir, "series");
	struct ivhist s;
	struct lat_hist *run = NULL;
	char r[224];
	int rc;

	if (!cJSON_GetObjectItemCaseSensitive(se, "hist"))
		return 0;
	ivhist_init(&s);
	rc = histfile_read(se, &s, r, sizeof(r));
	if (rc == 0) {
		run = malloc(sizeof(*run));
		if (!run)
			rc = -2;
		else if (hist_from_json(cJSON_GetObjectItemCaseSensitive(dir, "hist"), run) < 0)
			memset(run, 0, sizeof(*run)); /* no histogram: nothing to add up to */
	}
	if (rc == 0)
		rc = histfile_check_sum(&s, run, r, sizeof(r));
	if (rc < 0)
		snprintf(why, whylen, "%s%s", w, rc == -2 ? "out of memory" : r);
	free(run);
	ivhist_release(&s);
	return rc < 0 ? -1 : 0;
}

int histfile_check_cell(const cJSON *cell, char *why, size_t whylen)
{
	static const char *const dirs[] = { "read", "write" };
	const cJSON *r;
	char w[64];
	int i = 0;

	cJSON_ArrayForEach(r, cJSON_GetObjectItemCaseSensitive(cell, "repetitions")) {
		i++;
		for (int d = 0; d < 2; d++) {
			const cJSON *x = cJSON_GetObjectItemCaseSensitive(r, dirs[d]);
			snprintf(w, sizeof(w), "repetition %d: %s: ", i, dirs[d]);
			if (x && histfile_check_dir(x, w, why, whylen) < 0)
				return -1;
		}
	}
	return 0;
}
