/*
 * cellsums.c - cellsums.h: the sums inside one cell agree.  Pure.
 */
#include "cellsums.h"

#include <math.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#define TWO64 18446744073709551616.0

/* A count of o (cellcheck bounded it): *v, or false when absent. */
static bool cellsums_count(const cJSON *o, const char *k, uint64_t *v)
{
	const cJSON *x = cJSON_GetObjectItemCaseSensitive(o, k);

	if (!cJSON_IsNumber(x) || !(x->valuedouble >= 0 && x->valuedouble < TWO64))
		return false;
	*v = (uint64_t)x->valuedouble;
	return true;
}

/* The total of a list of counts (a series' ios), or of the second items
 * of [low, count] pairs (a histogram's buckets): false on overflow or a
 * value that is no count. */
static bool cellsums_total(const cJSON *a, bool pairs, uint64_t *total)
{
	const cJSON *e;

	*total = 0;
	cJSON_ArrayForEach(e, a) {
		const cJSON *n = pairs ? cJSON_GetArrayItem(e, 1) : e;
		if (!cJSON_IsNumber(n) || !(n->valuedouble >= 0 && n->valuedouble < TWO64) ||
		    __builtin_add_overflow(*total, (uint64_t)n->valuedouble, total))
			return false;
	}
	return true;
}

static bool cellsums_close(double a, double b)
{
	return fabs(a - b) <= CELLSUMS_REL * fmax(fabs(a), fabs(b)) + 1e-9;
}

/* Direction d of one repetition; w: "repetition 2: read: ". */
static int cellsums_dir(const cJSON *d, bool own, uint64_t bs, const char *w, char *why,
			size_t whylen)
{
	const cJSON *hist = cJSON_GetObjectItemCaseSensitive(d, "hist");
	const cJSON *se = cJSON_GetObjectItemCaseSensitive(d, "series");
	uint64_t ios = 0, bytes = 0, t;
	bool have_ios = cellsums_count(d, "ios", &ios), have_bytes = cellsums_count(d, "bytes", &bytes);

	if (have_ios && hist &&
	    cellsums_total(cJSON_GetObjectItemCaseSensitive(hist, "buckets"), true, &t) && t != ios) {
		snprintf(why, whylen, "%sthe histogram holds %llu IOs, ios says %llu", w,
			 (unsigned long long)t, (unsigned long long)ios);
		return -1;
	}
	static const char *const sums[] = { "ios", "bytes" };
	for (int k = 0; k < 2 && se; k++) {
		const cJSON *a = cJSON_GetObjectItemCaseSensitive(se, sums[k]);
		uint64_t want = k ? bytes : ios;
		if (!a || !(k ? have_bytes : have_ios))
			continue;
		if (!cellsums_total(a, false, &t) || t != want) {
			snprintf(why, whylen, "%sthe series' %s add up to %llu, not to the %s %llu", w,
				 sums[k], (unsigned long long)t, sums[k], (unsigned long long)want);
			return -1;
		}
	}
	if (!own || !have_ios || !have_bytes)
		return 0;
	uint64_t ib;
	if (bs && (__builtin_mul_overflow(ios, bs, &ib) || ib != bytes)) {
		snprintf(why, whylen, "%sbytes %llu is not ios %llu x bs %llu", w,
			 (unsigned long long)bytes, (unsigned long long)ios, (unsigned long long)bs);
		return -1;
	}
	const cJSON *iops = cJSON_GetObjectItemCaseSensitive(d, "iops");
	const cJSON *bw = cJSON_GetObjectItemCaseSensitive(d, "bw_bytes_s");
	if (cJSON_IsNumber(iops) && cJSON_IsNumber(bw) && ios &&
	    !cellsums_close(bw->valuedouble * (double)ios, iops->valuedouble * (double)bytes)) {
		snprintf(why, whylen, "%sbw_bytes_s %g is not iops %g x bytes / ios (%g), the "
			 "bytes of one IO", w, bw->valuedouble, iops->valuedouble,
			 (double)bytes / (double)ios);
		return -1;
	}
	return 0;
}

/* The summary's rates of direction dn against the repetitions': its n of
 * them are the last n (all of them, or a steady_state cell's window, the
 * last `window` repetitions), and its mean is theirs. */
static int cellsums_summary(const cJSON *cell, const char *dn, char *why, size_t whylen)
{
	static const char *const rates[] = { "iops", "bw_bytes_s" };
	const cJSON *reps = cJSON_GetObjectItemCaseSensitive(cell, "repetitions");
	const cJSON *sd = cJSON_GetObjectItemCaseSensitive(
		cJSON_GetObjectItemCaseSensitive(cell, "summary"), dn);
	int nreps = cJSON_GetArraySize(reps);

	/* a reader of summaries only (history, site) blanks the repetitions
	 * (rset_load.c): nothing to hold the summary against there */
	for (int k = 0; k < 2 && sd && nreps > 0; k++) {
		const cJSON *m = cJSON_GetObjectItemCaseSensitive(sd, rates[k]);
		const cJSON *n = cJSON_GetObjectItemCaseSensitive(m, "n");
		const cJSON *mean = cJSON_GetObjectItemCaseSensitive(m, "mean");
		double sum = 0;
		int count = 0, want;
		if (!cJSON_IsNumber(n) || !cJSON_IsNumber(mean))
			continue;
		want = n->valuedouble >= 0 && n->valuedouble <= nreps ? (int)n->valuedouble : -1;
		for (int i = nreps - (want > 0 ? want : 0); want >= 0 && i < nreps; i++) {
			const cJSON *v = cJSON_GetObjectItemCaseSensitive(
				cJSON_GetObjectItemCaseSensitive(cJSON_GetArrayItem(reps, i), dn),
				rates[k]);
			if (cJSON_IsNumber(v)) {
				sum += v->valuedouble;
				count++;
			}
		}
		if (want < 0 || count != want ||
		    (count && !cellsums_close(mean->valuedouble, sum / count))) {
			snprintf(why, whylen, "summary: %s: %s: n %g and mean %g are not those of "
				 "the last %g of the %d repetitions (%d with it, mean %g)", dn,
				 rates[k], n->valuedouble, mean->valuedouble, n->valuedouble,
				 nreps, count, count ? sum / count : 0.0);
			return -1;
		}
	}
	return 0;
}

int cellsums_check(const cJSON *cell, char *why, size_t whylen)
{
	static const char *const dirs[] = { "read", "write" };
	const cJSON *host = cJSON_GetObjectItemCaseSensitive(cell, "host");
	const cJSON *st = cJSON_GetObjectItemCaseSensitive(cell, "status");
	const cJSON *reps = cJSON_GetObjectItemCaseSensitive(cell, "repetitions"), *r;
	uint64_t bs = 0;
	bool own = !cJSON_GetObjectItemCaseSensitive(cell, "source");
	int i = 0;

	if (cJSON_IsString(host) && !strcmp(host->valuestring, "all"))
		return 0;
	cellsums_count(cJSON_GetObjectItemCaseSensitive(cell, "params"), "bs_bytes", &bs);
	cJSON_ArrayForEach(r, reps) {
		i++;
		for (int d = 0; d < 2; d++) {
			const cJSON *x = cJSON_GetObjectItemCaseSensitive(r, dirs[d]);
			char w[64];
			snprintf(w, sizeof(w), "repetition %d: %s: ", i, dirs[d]);
			if (cJSON_IsObject(x) && cellsums_dir(x, own, bs, w, why, whylen) < 0)
				return -1;
		}
	}
	for (int d = 0; d < 2; d++)
		if (cJSON_IsString(st) && !strcmp(st->valuestring, "ok") &&
		    cellsums_summary(cell, dirs[d], why, whylen) < 0)
			return -1;
	return 0;
}
