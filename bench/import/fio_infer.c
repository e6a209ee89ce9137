/*
 * fio_infer.c - a fio job's direction from the sections that did IO
 * (fio_infer.h).
 */
#include "fio_infer.h"

#include <math.h>

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
