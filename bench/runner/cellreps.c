/*
 * cellreps.c - cellreps.h: the file set held between cells and one cell's
 * repetitions, for `run`'s cell loop (bench/run/run_loop.c).
 */
#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "cellreps.h"

static bool same_file_set(const struct cell *a, const struct cell *b)
{
	return !strcmp(a->device, b->device) && !strcmp(a->path, b->path) &&
	       a->files == b->files;
}

void runner_files_drop(struct runner_files *f, const struct cell *next)
{
	if (f->have && (!next || !same_file_set(f->cell, next))) {
		runner_cleanup(&f->tgt, f->cell->keep_files);
		target_release(&f->tgt);
		f->have = false;
	}
}

int runner_files_use(struct runner_files *f, const struct cell *c, struct run_ctl *ctl,
		     char *err, size_t errlen)
{
	runner_files_drop(f, c);
	struct target nt = { 0 };
	int ret = runner_prepare(c, &nt, ctl, err, errlen);
	if (f->have) {
		/* The same files: still ours to remove if they were.  A failed
		 * prepare hands back an empty target, so the files made for
		 * earlier cells are removed now. */
		if (ret < 0)
			runner_cleanup(&f->tgt, f->cell->keep_files);
		else if (f->tgt.created)
			nt.created = true;
		target_release(&f->tgt);
		f->have = false;
	}
	if (ret == 0 && f->pre_created) {
		nt.created = true; /* preconditioning made them */
		f->pre_created = false;
	}
	f->tgt = nt;
	f->have = true;
	f->cell = c;
	return ret;
}

/* Sleep up to ns, waking early when stopped. */
static void cooldown(uint64_t ns, volatile sig_atomic_t *stop)
{
	while (ns > 0 && !*stop) {
		uint64_t step = ns < 50000000ull ? ns : 50000000ull;
		struct timespec ts = { (time_t)(step / 1000000000ull),
				       (long)(step % 1000000000ull) };
		nanosleep(&ts, NULL);
		ns -= step;
	}
}

/* Room for want repetitions in r; -1 when out of memory. */
static int reps_grow(struct runner_reps *r, unsigned want)
{
	if (want <= r->alloc)
		return 0;
	struct rep_result *nr = realloc(r->reps, sizeof(*nr) * want);
	if (!nr)
		return -1;
	r->reps = nr;
	r->alloc = want;
	return 0;
}

unsigned runner_cell_reps(const struct cell *c, const struct target *t, struct run_ctl *ctl,
			  struct run_progress *ps, struct runner_reps *rr,
			  struct steady_verdict *sv, char *cerr, size_t len)
{
	unsigned want = c->steady.window ? c->steady.max : c->repeat, n = 0;
	volatile sig_atomic_t *stop = ctl->stop;
	double *vals = NULL;

	memset(sv, 0, sizeof(*sv));
	if (reps_grow(rr, want) < 0 ||
	    (c->steady.window && !(vals = calloc(want, sizeof(*vals))))) {
		snprintf(cerr, len, "out of memory");
		return 0;
	}
	for (unsigned r = 0; r < want && !*stop; r++) {
		if (r > 0)
			cooldown(c->cooldown_ns, stop);
		if (*stop)
			break;
		ps->rep = r + 1;
		memset(&rr->reps[n], 0, sizeof(rr->reps[n]));
		ctl->rep = r; /* randrepeat off: this repetition's seed */
		int ret = runner_run_rep(c, t, ctl, &rr->reps[n], cerr, len);
		run_progress_clear(ps);
		if (ret == -EINTR || *stop) {
			rep_result_release(&rr->reps[n]);
			break;
		}
		if (ret < 0) {
			rep_result_release(&rr->reps[n]);
			if (!cerr[0])
				snprintf(cerr, len, "%s", strerror(-ret));
			if (want > 1) { /* say which one */
				char tmp[PATH_MAX + 512];
				snprintf(tmp, sizeof(tmp), "%s", cerr);
				snprintf(cerr, len, "repetition %u of %u: %.*s", r + 1,
					 want, (int)len - 40, tmp);
			}
			break;
		}
		n++;
		if (vals) {
			vals[n - 1] = runner_reps_metric(&rr->reps[n - 1], 1, SS_IOPS);
			steady_judge(vals, n, &c->steady, sv);
			if (sv->steady)
				break;
		}
	}
	free(vals);
	return n;
}

double runner_reps_metric(const struct rep_result *r, unsigned n, enum ss_metric m)
{
	double sum = 0, lat = 0, latn = 0;
	for (unsigned i = 0; i < n; i++) {
		double secs = (double)r[i].runtime_ns / 1e9;
		for (int d = 0; d < DIR__COUNT; d++) {
			if (secs > 0)
				sum += m == SS_BW ? (double)r[i].dir[d].bytes / secs :
				       (double)r[i].dir[d].ios / secs;
			lat += r[i].dir[d].lat.mean * (double)r[i].dir[d].lat.n;
			latn += (double)r[i].dir[d].lat.n;
		}
	}
	if (m == SS_LAT_MEAN)
		return latn > 0 ? lat / latn : 0;
	return n ? sum / n : 0;
}
