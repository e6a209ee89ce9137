/*
 * arcscan.c - setarchive.h's scan and stream: find the result sets under
 * some directories, order them by date, and stream their records, each
 * from the archive's index where its row is current (archdb.h), else from
 * its files (archive.c).
 */
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "archdb.h"
#include "archdb_read.h"
#include "archdb_stamp.h"
#include "setarchive.h"
#include "resultset/rset.h"
#include "resultset/setwalk.h"
#include "util/array.h"
#include "util/termesc.h"

struct refs {
	struct arc_ref *v;
	size_t n, alloc;
	bool all;          /* the repository's own sets too */
	size_t hidden;     /* those left out */
	struct archdb *db; /* the index of the directory walked, or NULL */
	const char *root;  /* the real path of the directory walked */
	int rootfd;        /* it open, to stamp its sets relative to it, or -1 */
	size_t first;      /* its first set in v: filled after the walk */
	bool oom;
};

/* The date a set sorts by: started_at, else the date its name starts with. */
static char *set_date(const char *path, const char *name)
{
	char why[64];
	struct rset rs;
	rset_load_manifest(path, &rs, why, sizeof(why));
	char *out = rs.started_at ? strdup(rs.started_at) : NULL;
	rset_release(&rs);
	if (!out) {
		/* 2026-11-30T024012Z_... -> 2026-11-30T02:40:12Z */
		int y, mo, da, h, mi, s;
		char t[32];
		if (sscanf(name, "%4d-%2d-%2dT%2d%2d%2dZ", &y, &mo, &da, &h, &mi, &s) == 6)
			snprintf(t, sizeof(t), "%04d-%02d-%02dT%02d:%02d:%02dZ", y, mo, da, h, mi, s);
		else
			snprintf(t, sizeof(t), "unknown");
		out = strdup(t);
	}
	return out;
}

static void ref_release(struct arc_ref *x)
{
	free(x->real);
	free(x->path);
	free(x->name);
	free(x->date);
	free(x->rel);
}

/* x for the set at path (at rootfd/rel when rootfd >= 0: the same
 * directory, by a shorter lookup; dirs its arc_dirs_stamp when the caller
 * took it, else NULL): its date and row from db where its row is
 * current, else its date from its manifest.  0, or -1. */
static int ref_fill(const char *path, const char *rel, const char *realp, struct archdb *db,
		    int rootfd, const char *dirs, struct arc_ref *x)
{
	char real[PATH_MAX], digest[65];
	memset(x, 0, sizeof(*x));
	if (realp)
		snprintf(real, sizeof(real), "%s", realp);
	else if (!realpath(path, real))
		return -1;
	const char *base = strrchr(path, '/');
	while (base && !base[1] && base > path) {   /* trailing slash */
		const char *q = base - 1;
		while (q > path && *q != '/')
			q--;
		base = *q == '/' ? q : NULL;
	}
	x->path = strdup(path);
	x->real = strdup(real);
	x->rel = strdup(rel);
	x->name = strdup(base ? base + 1 : path);
	if (x->name)
		x->name[strcspn(x->name, "/")] = 0;
	/* the stamp before the row is looked up (archdb_stamp.c says why
	 * it sees any change made since the index read the set) */
	if (dirs)
		memcpy(x->dirs, dirs, sizeof(x->dirs));
	else if (rootfd >= 0)
		arc_dirs_stamp_at(rootfd, rel, x->dirs);
	else
		arc_dirs_stamp(path, x->dirs);
	if (db && x->rel && x->dirs[0] &&
	    (x->row = archdb_current(db, x->rel, x->dirs, &x->date, x->stamp)) > 0) {
		x->db = db;
	} else {
		arc_stamp(path, digest, x->stamp);
		x->date = x->name ? set_date(path, x->name) : NULL;
	}
	if (!x->path || !x->real || !x->name || !x->date || !x->rel) {
		ref_release(x);
		return -1;
	}
	return 0;
}

int arc_ref_make(const char *path, const char *rel, struct arc_ref *x)
{
	return ref_fill(path, rel, NULL, NULL, -1, NULL, x);
}

void arc_ref_release(struct arc_ref *x)
{
	ref_release(x);
}

/* Before refs_fill, a ref's row says what the walk knows of it: a set
 * (0), a directory that may be one (ROW_MAYBE: scan_top's), or, once its
 * stamp said so, none (ROW_NOT_SET: its directories are walked). */
#define ROW_MAYBE (-1)
#define ROW_NOT_SET (-2)

/* A set the walk found: its path and rel now (in path and rel), the rest
 * once the walk is over (refs_fill). */
static int refs_add(struct refs *r, const char *path, const char *rel)
{
	struct arc_ref *p = array_grow(r->v, &r->alloc, r->n, sizeof(*p), 64);
	if (!p)
		return -1;
	r->v = p;
	struct arc_ref *x = &r->v[r->n];
	memset(x, 0, sizeof(*x));
	x->path = strdup(path);
	x->rel = strdup(rel);
	if (!x->path || !x->rel) {
		ref_release(x);
		return -1;
	}
	x->order = r->n++;
	return 0;
}

static int scan_one(const char *set, const char *rel, void *arg)
{
	struct refs *r = arg;
	if (!r->all && resultset_repo_own(rel)) {
		r->hidden++;
		return 0;
	}
	return refs_add(r, set, rel) < 0 ? -ENOMEM : 0;
}

/* resultset_walk_dirs' callback: a directory directly in the root, each
 * ROW_MAYBE: whether it is a set (resultset_is_set) the fill learns from
 * its stamp, which lists and stats its manifest.json and cells/ anyway
 * (the walk's own stat of each manifest.json was 10,000 system calls in
 * a row before the fill's threads started). */
static int scan_top(const char *dir, const char *rel, void *arg)
{
	struct refs *r = arg;
	if (refs_add(r, dir, rel) < 0)
		return -ENOMEM;
	r->v[r->n - 1].row = ROW_MAYBE;
	return 0;
}

struct under {
	struct refs *r;
	const char *rel;   /* the directory walked, below the root */
};

/* scan_one of a set found in a directory that is no set: its rel below
 * the root, as resultset_walk(root, 1) gives it. */
static int scan_under(const char *set, const char *rel, void *arg)
{
	struct under *u = arg;
	char full[PATH_MAX];
	if (snprintf(full, sizeof(full), "%s/%s", u->rel, rel) >= (int)sizeof(full))
		return 0;
	return scan_one(set, full, u->r);
}

struct fill_arg {
	struct refs *r;
	size_t k, step;
};

/* Sets first + k*step + j*step (j < ARC_STAMP_BATCH, below r->n) of r,
 * each joined to the walked root's descriptor: their stamps at once
 * through q, then each filled; of a ROW_MAYBE, first whether it is a set
 * (else it is left ROW_NOT_SET, its path and rel kept). */
static void fill_batch(struct refs *r, struct arc_statq *q, size_t first, size_t step)
{
	const char *rels[ARC_STAMP_BATCH];
	char dirs[ARC_STAMP_BATCH][ARC_DIRS_STAMP_MAX];
	size_t idx[ARC_STAMP_BATCH], m = 0;
	bool joined[ARC_STAMP_BATCH], is_set[ARC_STAMP_BATCH];
	for (size_t i = first; i < r->n && m < ARC_STAMP_BATCH; i += step) {
		/* a walked set is no link: its real path is the root's and rel */
		joined[m] = r->root && r->rootfd >= 0 && strcmp(r->v[i].rel, ".");
		idx[m] = i;
		rels[m++] = r->v[i].rel;
	}
	/* the joined ones' stamps in one go (the others' one by one below) */
	const char *jrels[ARC_STAMP_BATCH] = { 0 };
	size_t nj = 0;
	for (size_t j = 0; j < m; j++)
		if (joined[j])
			jrels[nj++] = rels[j];
	arc_dirs_stamp_many(q, r->rootfd, jrels, nj, dirs, is_set);
	for (size_t j = 0, jj = 0; j < m; j++) {
		struct arc_ref *x = &r->v[idx[j]];
		char *path = x->path, *rel = x->rel, real[PATH_MAX];
		size_t order = x->order;
		const char *d = joined[j] ? dirs[jj] : NULL;
		bool set = joined[j] ? is_set[jj++] : x->row != ROW_MAYBE || resultset_is_set(path);
		if (x->row == ROW_MAYBE && !set) {
			x->row = ROW_NOT_SET;
			continue;
		}
		bool join = joined[j] &&
			    snprintf(real, sizeof(real), "%s/%s", r->root, rel) < (int)sizeof(real);
		if (ref_fill(path, rel, join ? real : NULL, r->db, join ? r->rootfd : -1,
			     join ? d : NULL, x) < 0)
			memset(x, 0, sizeof(*x));   /* gone meanwhile, or OOM */
		x->order = order;
		free(path);
		free(rel);
	}
}

static void *fill_worker(void *arg)
{
	struct fill_arg *f = arg;
	struct refs *r = f->r;
	struct arc_statq *q = arc_statq_new();   /* NULL: one file at a time */
	for (size_t i = r->first + f->k; i < r->n; i += f->step * ARC_STAMP_BATCH)
		fill_batch(r, q, i, f->step);
	arc_statq_free(q);
	return NULL;
}

/* Fill the sets found since r->first: stamps and rows on two threads (the
 * stat of every file of every set is most of a scan: 10,000 sets, 140,000
 * files), then drop those that went away.  0, or -ENOMEM. */
static int refs_fill(struct refs *r)
{
	struct fill_arg a[2] = { { r, 0, 2 }, { r, 1, 2 } };
	pthread_t th;
	bool two = r->n - r->first > 16 && pthread_create(&th, NULL, fill_worker, &a[1]) == 0;
	if (!two)
		a[0].step = 1;
	fill_worker(&a[0]);
	if (two)
		pthread_join(th, NULL);
	/* the sets kept, in the order found; the directories that are none
	 * walked a level down (as resultset_walk(root, 1) does), their sets
	 * filled in turn */
	size_t k = r->first, nnot = 0;
	struct arc_ref *nots = NULL;
	int e = 0;
	for (size_t i = r->first; i < r->n; i++) {
		struct arc_ref *x = &r->v[i];
		if (x->path && x->row == ROW_NOT_SET) {
			struct arc_ref *p = realloc(nots, (nnot + 1) * sizeof(*p));   /* a few */
			if (p)
				(nots = p)[nnot++] = *x;
			else
				ref_release(x), e = -ENOMEM;
		} else if (x->path) {
			r->v[k++] = *x;
		}
	}
	r->n = r->first = k;
	for (size_t j = 0; j < nnot; j++) {
		struct under u = { r, nots[j].rel };
		/* one that cannot be read is skipped, as below a walk's top */
		if (resultset_walk(nots[j].path, 0, scan_under, &u) == -ENOMEM)
			e = -ENOMEM;
		ref_release(&nots[j]);
	}
	free(nots);
	if (r->n > r->first) {
		int e2 = refs_fill(r);
		e = e ? e : e2;
	}
	return e;
}

static int real_cmp(const void *a, const void *b)
{
	const struct arc_ref *x = a, *y = b;
	int c = strcmp(x->real, y->real);
	/* of one set found twice, the first found stays */
	return c ? c : x->order < y->order ? -1 : x->order > y->order;
}

static int ref_cmp(const void *a, const void *b)
{
	const struct arc_ref *x = a, *y = b;
	int c = strcmp(x->date, y->date);
	return c ? c : strcmp(x->name, y->name);
}

/* Each set once (the same directory given twice, or through a link):
 * by real path, sorted, then the copies dropped; n log n, where comparing
 * each new set with every one before it took 0.3 s of 10,000. */
static void refs_unique(struct refs *r)
{
	size_t k = 0;
	if (r->n < 2)
		return;
	qsort(r->v, r->n, sizeof(*r->v), real_cmp);
	for (size_t i = 0; i < r->n; i++) {
		if (k && !strcmp(r->v[k - 1].real, r->v[i].real))
			ref_release(&r->v[i]);
		else
			r->v[k++] = r->v[i];
	}
	r->n = k;
}

static int indexes_add(struct arc_indexes *ix, const char *dir, struct archdb **out)
{
	char why[256];
	struct archdb *db = NULL;
	*out = NULL;
	int rc = archdb_open_read(dir, &db, why, sizeof(why));
	if (rc < 0)
		fprintf(stderr, "iomatrix: warning: %s; reading every set\n", why);
	if (rc <= 0)
		return 0;
	struct archdb **p = realloc(ix->v, (ix->n + 1) * sizeof(*p));
	if (!p) {
		archdb_close(db);
		return -1;
	}
	ix->v = p;
	ix->v[ix->n++] = db;
	*out = db;
	return 0;
}

void arc_indexes_close(struct arc_indexes *ix)
{
	for (size_t i = 0; ix && i < ix->n; i++)
		archdb_close(ix->v[i]);
	if (ix)
		free(ix->v);
}

int arc_scan(char **dirs, size_t ndirs, bool all, struct arc_indexes *ix, size_t *hidden,
	     struct arc_ref **out, size_t *nout, struct errlist *errs)
{
	struct refs r = { .all = all, .rootfd = -1 };
	int ret = 0;
	for (size_t i = 0; i < ndirs; i++) {
		struct stat st;
		if (stat(dirs[i], &st) < 0 || !S_ISDIR(st.st_mode)) {
			errlist_add(errs, dirs[i], 0, 0, "%s (give result sets or a directory "
				    "holding them, e.g. ./results)",
				    errno && stat(dirs[i], &st) < 0 ? strerror(errno) : "not a directory");
			ret = -1;
			continue;
		}
		int e;
		char root[PATH_MAX];
		r.db = NULL;
		r.root = realpath(dirs[i], root) ? root : NULL;
		r.rootfd = open(dirs[i], O_RDONLY | O_DIRECTORY | O_CLOEXEC);
		if (resultset_is_set(dirs[i]))
			e = refs_add(&r, dirs[i], ".");
		else if (ix && indexes_add(ix, dirs[i], &r.db) < 0)
			e = -ENOMEM;
		else
			e = resultset_walk_dirs(dirs[i], scan_top, &r);
		int ef = refs_fill(&r);
		e = e ? e : ef;
		if (r.rootfd >= 0)
			close(r.rootfd);
		r.rootfd = -1;
		if (e < 0) {
			errlist_add(errs, dirs[i], 0, 0, "cannot read: %s", strerror(-e));
			ret = -1;
		}
	}
	refs_unique(&r);
	if (r.n > 1)
		qsort(r.v, r.n, sizeof(*r.v), ref_cmp);
	*out = r.v;
	*nout = r.n;
	*hidden = r.hidden;
	return ret;
}

void arc_say_hidden(size_t hidden)
{
	if (hidden)
		fprintf(stderr, "iomatrix: %zu example and reference set%s of this repository "
			"left out (--all counts them)\n", hidden, hidden == 1 ? "" : "s");
}

void arc_refs_free(struct arc_ref *refs, size_t n)
{
	for (size_t i = 0; i < n; i++)
		ref_release(&refs[i]);
	free(refs);
}

/* ---- streaming with loader threads ---- */

/* A set's record: from its index's row while that row passes its checks,
 * else from its files. */
static int ref_load(const struct arc_ref *ref, struct arc_set *s, struct errlist *errs,
		    struct errlist *warns)
{
	int rc;
	if (ref->db && ref->row > 0) {
		int r = archdb_record(ref->db, ref->row, ref, s, &rc, errs, warns);
		if (r > 0)
			return rc;
		if (r < 0) {
			errlist_add(errs, ref->path, 0, 0, "out of memory");
			return -1;
		}
	}
	return arc_set_load(ref, s, errs, warns);
}

/* Each loader loads STREAM_BATCH sets in a row and hands them over at
 * once; STREAM_WINDOW sets are loaded ahead at most (bounds memory: two
 * batches a loader).  One hand-over a set was 35,000 futex calls in a
 * history over 10,000 sets, the consumer asleep and woken for each. */
#define STREAM_BATCH 8
#define STREAM_WINDOW (4 * STREAM_BATCH)

struct slot {
	struct arc_set s;
	struct errlist errs, warns;
	int rc;
	bool ready;
};

struct arc_stream;
struct worker_arg {
	struct arc_stream *st;
	int k;
};

struct arc_stream {
	const struct arc_ref *refs;
	struct worker_arg wa[2];
	size_t n, next;            /* next: index the consumer takes next */
	struct slot slot[STREAM_WINDOW];
	pthread_t th[2];
	int nth;
	bool stop;
	bool consumer_waits;       /* on cv for slot next */
	int loaders_wait;          /* on cv for room in the window */
	pthread_mutex_t mu;
	pthread_cond_t cv;         /* the consumer's: a batch is ready */
	pthread_cond_t room;       /* the loaders': the consumer took a batch */
};

static void *stream_worker(void *arg)
{
	struct worker_arg *wa = arg;
	struct arc_stream *st = wa->st;
	for (size_t b = (size_t)wa->k * STREAM_BATCH; b < st->n;
	     b += (size_t)st->nth * STREAM_BATCH) {
		size_t end = b + STREAM_BATCH < st->n ? b + STREAM_BATCH : st->n;
		pthread_mutex_lock(&st->mu);
		/* the slots are free once the consumer took index end - 1 - WINDOW */
		while (!st->stop && end > st->next + STREAM_WINDOW) {
			st->loaders_wait++;
			pthread_cond_wait(&st->room, &st->mu);
			st->loaders_wait--;
		}
		bool stop = st->stop;
		pthread_mutex_unlock(&st->mu);
		if (stop)
			break;
		/* the batch's slots are this loader's alone until marked ready */
		for (size_t i = b; i < end; i++) {
			struct slot *sl = &st->slot[i % STREAM_WINDOW];
			*sl = (struct slot){ .errs = ERRLIST_INIT, .warns = ERRLIST_INIT };
			sl->rc = ref_load(&st->refs[i], &sl->s, &sl->errs, &sl->warns);
		}
		pthread_mutex_lock(&st->mu);
		for (size_t i = b; i < end; i++)
			st->slot[i % STREAM_WINDOW].ready = true;
		if (st->consumer_waits)
			pthread_cond_signal(&st->cv);
		pthread_mutex_unlock(&st->mu);
	}
	return NULL;
}

static void slots_release(struct arc_stream *st)
{
	for (int k = 0; k < STREAM_WINDOW; k++)
		if (st->slot[k].ready) {
			arc_set_release(&st->slot[k].s);
			errlist_release(&st->slot[k].errs);
			errlist_release(&st->slot[k].warns);
			st->slot[k].ready = false;
		}
}

struct arc_stream *arc_stream_start(const struct arc_ref *refs, size_t n)
{
	struct arc_stream *st = calloc(1, sizeof(*st));
	if (!st)
		return NULL;
	st->refs = refs;
	st->n = n;
	pthread_mutex_init(&st->mu, NULL);
	pthread_cond_init(&st->cv, NULL);
	pthread_cond_init(&st->room, NULL);
	/* two loaders: the machine this is measured on has two cores; more
	 * would only add memory */
	st->nth = n > 1 ? 2 : 0;
	for (int k = 0; k < st->nth; k++) {
		st->wa[k] = (struct worker_arg){ st, k };
		if (pthread_create(&st->th[k], NULL, stream_worker, &st->wa[k]) != 0) {
			/* no threads: stop what started and load in the consumer */
			pthread_mutex_lock(&st->mu);
			st->stop = true;
			pthread_cond_broadcast(&st->room);
			pthread_mutex_unlock(&st->mu);
			for (int j = 0; j < k; j++)
				pthread_join(st->th[j], NULL);
			slots_release(st);
			st->stop = false;
			st->nth = 0;
			break;
		}
	}
	return st;
}

int arc_stream_next(struct arc_stream *st, struct arc_set *s, int *rc,
		    struct errlist *errs, struct errlist *warns)
{
	if (st->next >= st->n)
		return 1;
	if (!st->nth) {
		*rc = ref_load(&st->refs[st->next++], s, errs, warns);
		return 0;
	}
	struct slot *sl = &st->slot[st->next % STREAM_WINDOW];
	pthread_mutex_lock(&st->mu);
	while (!sl->ready) {
		st->consumer_waits = true;
		pthread_cond_wait(&st->cv, &st->mu);
		st->consumer_waits = false;
	}
	pthread_mutex_unlock(&st->mu);
	/* a ready slot is the consumer's until it clears ready */
	*s = sl->s;
	*rc = sl->rc;
	for (size_t i = 0; i < sl->errs.n; i++)
		errlist_add(errs, NULL, 0, 0, "%s", sl->errs.msgs[i]);
	for (size_t i = 0; i < sl->warns.n; i++)
		errlist_add(warns, NULL, 0, 0, "%s", sl->warns.msgs[i]);
	errlist_release(&sl->errs);
	errlist_release(&sl->warns);
	pthread_mutex_lock(&st->mu);
	sl->ready = false;
	st->next++;
	/* room for a loader's next batch: wake them at a batch's end */
	if (st->loaders_wait && st->next % STREAM_BATCH == 0)
		pthread_cond_broadcast(&st->room);
	pthread_mutex_unlock(&st->mu);
	return 0;
}

void arc_stream_warn(FILE *f, struct errlist *errs, struct errlist *warns)
{
	char wb[1400];   /* a message, made inert for the terminal (termesc.h) */
	for (size_t k = 0; k < errs->n; k++)
		fprintf(f, "iomatrix: warning: skipped: %s\n", termesc(errs->msgs[k], wb, sizeof(wb)));
	for (size_t k = 0; k < warns->n; k++)
		fprintf(f, "iomatrix: warning: %s\n", termesc(warns->msgs[k], wb, sizeof(wb)));
	errlist_release(errs);
	errlist_release(warns);
}

void arc_stream_stop(struct arc_stream *st)
{
	if (!st)
		return;
	pthread_mutex_lock(&st->mu);
	st->stop = true;
	pthread_cond_broadcast(&st->room);
	pthread_mutex_unlock(&st->mu);
	for (int k = 0; k < st->nth; k++)
		pthread_join(st->th[k], NULL);
	slots_release(st);
	pthread_mutex_destroy(&st->mu);
	pthread_cond_destroy(&st->cv);
	pthread_cond_destroy(&st->room);
	free(st);
}
