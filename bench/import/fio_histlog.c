/*
 * fio_histlog.c - fio_histlog.h: fio's histogram log lines into windows of
 * iomatrix buckets, the logs of a job's clones summed, the rest of the
 * json+ histogram appended, the series filled.
 */
#include "fio_histlog.h"

#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "import.h"
#include "util/array.h"

/* The windows of one direction: their buckets, bytes and end times. */
struct hl_dir {
	struct ivhist iv;
	uint64_t *bytes, *t_ms;
	size_t n, alloc;
};

/* The lowest value of fio's bin i (fio's stat.c plat_idx_to_val without
 * the half bin it adds): iomatrix's bucket of it holds the whole bin. */
static uint64_t fio_bin_low(unsigned i)
{
	if (i < 128)
		return i;
	unsigned eb = (i >> 6) - 1;
	return (uint64_t)(64 + (i & 63)) << eb;
}

/* One decimal field at *p ("12, " or "12\n"); -1 when it is none. */
static int hl_field(const char **p, uint64_t *v)
{
	const char *s = *p;
	uint64_t x = 0;

	while (*s == ' ' || *s == '\t')
		s++;
	if (*s < '0' || *s > '9')
		return -1;
	for (; *s >= '0' && *s <= '9'; s++)
		if (__builtin_mul_overflow(x, 10u, &x) ||
		    __builtin_add_overflow(x, (uint64_t)(*s - '0'), &x))
			return -1;
	while (*s == ' ' || *s == '\t' || *s == '\r')
		s++;
	if (*s == ',')
		s++;
	*p = s;
	*v = x;
	return 0;
}

/* Room for n windows' bytes and times (zeroed when new). */
static int hl_grow(struct hl_dir *h, size_t n)
{
	return ARRAY_RESERVE2(h->bytes, h->t_ms, h->alloc, n, 64);
}

/* One more window: its end (ms), bytes and buckets. */
static int hl_push(struct hl_dir *h, uint64_t t, uint64_t bytes, const uint16_t *idx,
		   const uint64_t *cnt, size_t k)
{
	if (hl_grow(h, h->n + 1) < 0 || ivhist_push(&h->iv, idx, cnt, k) < 0)
		return -1;
	h->bytes[h->n] = bytes;
	h->t_ms[h->n++] = t;
	return 0;
}

/* A clone's windows into all's, window by window (fio starts the clones
 * together; their windows are log_hist_msec apart from their start). */
static int hl_merge(struct hl_dir *all, const struct hl_dir *one)
{
	if (ivhist_merge(&all->iv, &one->iv) < 0 || hl_grow(all, one->n) < 0)
		return -1;
	for (size_t i = 0; i < one->n; i++) {
		all->bytes[i] += one->bytes[i];
		if (i >= all->n)
			all->t_ms[i] = one->t_ms[i];
	}
	if (one->n > all->n)
		all->n = one->n;
	return 0;
}

/* One log line at buf + off into its direction's windows.  0; -1 with the
 * reason in errs. */
static int hl_line(const char *path, const char *buf, size_t off, struct hl_dir *dirs,
		   uint16_t *idx, uint64_t *cnt, struct errlist *errs)
{
	const char *p = buf + off;
	uint64_t t, dd, bs, v, bytes = 0;
	unsigned line, col, nb = 0;
	size_t k = 0;

	if (hl_field(&p, &t) < 0 || hl_field(&p, &dd) < 0 || hl_field(&p, &bs) < 0)
		goto bad;
	if (dd > 1) {
		import_linecol(buf, off, &line, &col);
		errlist_add(errs, path, line, col, "direction %" PRIu64 " (%s): iomatrix keeps "
			    "reads (0) and writes (1)", dd, dd == 2 ? "trim" : "unknown");
		return -1;
	}
	while (*p && *p != '\n') {
		if (nb == FIO_HISTLOG_BINS || hl_field(&p, &v) < 0)
			goto bad;
		if (v) {
			idx[k] = (uint16_t)hist_index(fio_bin_low(nb));
			cnt[k++] = v;
			if (__builtin_mul_overflow(v, bs, &v) ||
			    __builtin_add_overflow(bytes, v, &bytes))
				goto bad;
		}
		nb++;
	}
	if (nb != FIO_HISTLOG_BINS) {
		import_linecol(buf, off, &line, &col);
		if (nb && FIO_HISTLOG_BINS % nb == 0)
			errlist_add(errs, path, line, col, "%u bins a line: fio merged its bins "
				    "(log_hist_coarseness=%d), and iomatrix keeps fio's own; run fio "
				    "with log_hist_coarseness=0 (the default)", nb,
				    __builtin_ctz(FIO_HISTLOG_BINS / nb));
		else
			errlist_add(errs, path, line, col, "%u bins, not fio's %d: not a histogram "
				    "log of fio 3.x (write_hist_log, log_hist_msec)", nb,
				    FIO_HISTLOG_BINS);
		return -1;
	}
	if (hl_push(&dirs[dd], t, bytes, idx, cnt, k) < 0) {
		errlist_add(errs, path, 0, 0, "out of memory");
		return -1;
	}
	return 0;
bad:
	import_linecol(buf, (size_t)(p - buf), &line, &col);
	errlist_add(errs, path, line, col, "not a line of fio's histogram log (\"msec, "
		    "direction, bs, then %d counts\")", FIO_HISTLOG_BINS);
	return -1;
}

/* One log file into dirs (released by the caller). */
static int hl_read(const char *path, struct hl_dir *dirs, struct errlist *errs)
{
	size_t len;
	char *buf = import_read_file(path, &len, errs);
	uint16_t *idx = malloc(FIO_HISTLOG_BINS * sizeof(*idx));
	uint64_t *cnt = malloc(FIO_HISTLOG_BINS * sizeof(*cnt));
	int ret = -1;

	if (!buf || !idx || !cnt) {
		if (buf)
			errlist_add(errs, path, 0, 0, "out of memory");
		goto out;
	}
	for (size_t off = 0; off < len;) {
		const char *nl = memchr(buf + off, '\n', len - off);
		size_t end = nl ? (size_t)(nl - buf) : len;
		if (end > off && hl_line(path, buf, off, dirs, idx, cnt, errs) < 0)
			goto out;
		off = end + 1;
	}
	if (!dirs[0].n && !dirs[1].n) {
		errlist_add(errs, path, 1, 1, "no line: fio logs a window once log_hist_msec "
			    "has passed; run the job longer than its log_hist_msec");
		goto out;
	}
	ret = 0;
out:
	free(buf);
	free(idx);
	free(cnt);
	return ret;
}

static void hl_release(struct hl_dir *h)
{
	ivhist_release(&h->iv);
	free(h->bytes);
	free(h->t_ms);
	memset(h, 0, sizeof(*h));
}

/* The log's interval: the median spacing of its lines (fio keeps the
 * windows log_hist_msec apart, drift taken back); one line: its time. */
static uint64_t hl_interval_ns(const struct hl_dir *h)
{
	if (h->n < 2)
		return h->n ? h->t_ms[0] * 1000000ull : 0;
	double *d = malloc((h->n - 1) * sizeof(*d));
	if (!d)
		return 0;
	for (size_t i = 1; i < h->n; i++)
		d[i - 1] = (double)(h->t_ms[i] - h->t_ms[i - 1]);
	double m = stats_median_inplace(d, h->n - 1);
	free(d);
	return (uint64_t)(m + 0.5) * 1000000ull;
}

/* Direction d of rep gets the windows of h and the rest of its json+
 * histogram as its series.  0, or -1 with the reason in why. */
static int hl_fill(struct dir_result *dr, struct hl_dir *h, uint64_t iv_ns, char *why,
		   size_t whylen)
{
	struct lat_hist *sum = calloc(1, sizeof(*sum));
	uint16_t *idx = malloc(HIST_BUCKETS * sizeof(*idx));
	uint64_t *cnt = malloc(HIST_BUCKETS * sizeof(*cnt));
	struct series s;
	size_t k = 0;
	int ret = -1;

	series_init(&s, iv_ns);
	if (!sum || !idx || !cnt || ivhist_sum(&h->iv, sum) < 0) {
		snprintf(why, whylen, sum && idx && cnt ? "counts past 2^64" : "out of memory");
		goto out;
	}
	for (unsigned i = 0; i < HIST_BUCKETS; i++) {
		if (sum->count[i] > dr->hist->count[i]) {
			snprintf(why, whylen, "the logs hold %" PRIu64 " IOs of %" PRIu64 "-%"
				 PRIu64 " ns, fio's json+ bins of the job %" PRIu64 ": give the "
				 "logs of this job's run", sum->count[i], hist_bucket_low(i),
				 hist_bucket_high(i), dr->hist->count[i]);
			goto out;
		}
		if (dr->hist->count[i] > sum->count[i]) {
			idx[k] = (uint16_t)i;
			cnt[k++] = dr->hist->count[i] - sum->count[i];
		}
	}
	/* the IOs after fio's last line: the last interval */
	uint64_t rest = 0, per_io = dr->ios ? dr->bytes / dr->ios : 0;
	for (size_t i = 0; i < k; i++)
		rest += cnt[i];
	if ((k && hl_push(h, 0, rest * per_io, idx, cnt, k) < 0) ||
	    series_reserve(&s, h->iv.n) < 0) {
		snprintf(why, whylen, "out of memory");
		goto out;
	}
	for (size_t i = 0; i < h->iv.n; i++) {
		uint64_t lat = 0;
		for (size_t p = h->iv.off[i]; p < h->iv.off[i + 1]; p++)
			lat += hist_bucket_mid(h->iv.idx[p]) * h->iv.cnt[p];
		s.ios[i] = ivhist_count(&h->iv, i);
		s.bytes[i] = h->bytes[i];
		s.lat_sum_ns[i] = lat;
	}
	s.n = h->iv.n;
	s.hist = h->iv;
	ivhist_init(&h->iv);
	series_release(&dr->series);
	dr->series = s;
	ret = 0;
out:
	if (ret < 0)
		series_release(&s);
	free(sum);
	free(idx);
	free(cnt);
	return ret;
}

int fio_histlog_attach(struct rep_result *rep, const char *const *paths, size_t n,
		       uint64_t interval_ns, struct errlist *errs)
{
	static const char *const names[] = { "reads", "writes" };
	struct hl_dir all[DIR__COUNT], one[DIR__COUNT];
	uint64_t iv_ns[DIR__COUNT] = { 0, 0 };
	char why[256];
	int ret = -1;

	memset(all, 0, sizeof(all));
	memset(one, 0, sizeof(one));
	for (size_t f = 0; f < n; f++) {
		if (hl_read(paths[f], one, errs) < 0)
			goto out;
		for (int d = 0; d < DIR__COUNT; d++) {
			if (!iv_ns[d])
				iv_ns[d] = interval_ns ? interval_ns : hl_interval_ns(&one[d]);
			if (hl_merge(&all[d], &one[d]) < 0)
				goto oom;
			hl_release(&one[d]);
		}
	}
	for (int d = 0; d < DIR__COUNT; d++) {
		struct dir_result *dr = &rep->dir[d];
		if (!all[d].n)
			continue;
		const char *why0 = !dr->present ? "the job has none" :
				   !dr->hist ? "the job's JSON has no json+ bins: run fio with "
					       "--output-format=json+ (the IOs after the log's last "
					       "line are only there)" :
				   rep->lat_kind != LAT_COMPLETION ?
					"fio logs completion latency (clat) and the job's histogram "
					"is of its total latency (lat_percentiles=1): run fio without "
					"lat_percentiles" : NULL;
		if (why0 || !iv_ns[d]) {
			errlist_add(errs, paths[0], 0, 0, "the histogram logs hold %s: %s", names[d],
				    why0 ? why0 : "its lines are not log_hist_msec apart");
			goto out;
		}
		if (hl_fill(dr, &all[d], iv_ns[d], why, sizeof(why)) < 0) {
			errlist_add(errs, paths[0], 0, 0, "%s: %s", names[d], why);
			goto out;
		}
	}
	ret = 0;
	goto out;
oom:
	errlist_add(errs, paths[0], 0, 0, "out of memory");
out:
	for (int d = 0; d < DIR__COUNT; d++) {
		hl_release(&all[d]);
		hl_release(&one[d]);
	}
	return ret;
}
