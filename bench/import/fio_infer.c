/*
 * fio_infer.c - what a fio job did where its options do not say
 * (fio_infer.h): its direction from the sections that did IO, its queue
 * depth from iodepth_level, its block size from the bytes per IO.
 */
#include "fio_infer.h"

#include <math.h>
#include <stdio.h>

#include "util/jsonutil.h"

static double count(const cJSON *o, const char *key)
{
	double v;

	return json_num(o, key, &v) == 0 && v > 0 ? v : 0;
}

void fio_done_of(const cJSON *const *entries, size_t n, struct fio_done *f)
{
	static const char *const sect[3] = { "read", "write", "trim" };

	f->ios[0] = f->ios[1] = f->ios[2] = 0;
	f->mask = 0;
	for (size_t i = 0; i < n; i++)
		for (int k = 0; k < 3; k++) {
			const cJSON *o = cJSON_GetObjectItemCaseSensitive(entries[i], sect[k]);
			double v = count(o, "total_ios");
			if (v == 0)
				v = count(o, "io_bytes");
			f->ios[k] += v;
		}
	for (int k = 0; k < 3; k++)
		if (f->ios[k] > 0)
			f->mask |= 1u << k;
}

int fio_infer_pattern(const struct fio_done *f, enum pattern *p,
		      unsigned *rwmixread)
{
	bool r = f->mask & FIO_DID_READ, w = f->mask & FIO_DID_WRITE;

	if (r && w) {
		*p = PAT_READWRITE;
		long m = lround(100 * f->ios[0] / (f->ios[0] + f->ios[1]));
		*rwmixread = (unsigned)(m < 1 ? 1 : m > 99 ? 99 : m); /* a mix of both */
	} else if (r || w) {
		*p = r ? PAT_READ : PAT_WRITE;
	} else {
		return -1;
	}
	return 0;
}

/* fio's iodepth_level buckets: a key is the least depth of its bucket
 * ("32" holds depths 32 to 63), ">=64" the rest. */
static const struct { const char *key; unsigned lo, hi; } depth_buckets[] = {
	{ "1", 1, 1 }, { "2", 2, 3 }, { "4", 4, 7 }, { "8", 8, 15 },
	{ "16", 16, 31 }, { "32", 32, 63 }, { ">=64", 64, 0 },
};

int fio_infer_depth(const cJSON *job, unsigned *depth, char *why, size_t len)
{
	const cJSON *lv = cJSON_GetObjectItemCaseSensitive(job, "iodepth_level");
	size_t best = 0;
	double share = -1, total = 0;

	for (size_t i = 0; i < sizeof(depth_buckets) / sizeof(depth_buckets[0]); i++) {
		double v = count(lv, depth_buckets[i].key);
		total += v;
		if (v > share) {
			share = v;
			best = i;
		}
	}
	/* the buckets are percentages of the IOs; one of them must hold most
	 * of them for a depth to stand for the job */
	if (!cJSON_IsObject(lv) || total <= 0 || share < FIO_DEPTH_SHARE_MIN) {
		snprintf(why, len, "not recorded: no job option names iodepth and fio's "
			 "iodepth_level shows no depth most IOs were issued at");
		return -1;
	}
	*depth = depth_buckets[best].lo;
	if (depth_buckets[best].hi == depth_buckets[best].lo)
		snprintf(why, len, "%u, from fio's iodepth_level (%.1f %% of IOs at depth %u; "
			 "no job option names iodepth)", *depth, share, *depth);
	else if (depth_buckets[best].hi)
		snprintf(why, len, "%u to %u, from fio's iodepth_level (%.1f %% of IOs at "
			 "those depths; no job option names iodepth)", depth_buckets[best].lo,
			 depth_buckets[best].hi, share);
	else
		snprintf(why, len, "%u or more, from fio's iodepth_level (%.1f %% of IOs at "
			 "depth 64 or more; no job option names iodepth)", *depth, share);
	return 0;
}

int fio_infer_bs(uint64_t bytes, uint64_t ios, uint64_t *bs)
{
	if (!ios || bytes % ios || (bytes / ios) % 512 || !(bytes / ios))
		return -1;
	*bs = bytes / ios;
	return 0;
}
