/*
 * suite_check.c - the checks of resolved cells that involve several keys
 * (suite_int.h): bs against direct IO, sync engines and iodepth, keys that
 * no cell they reach can use (an engine's own options, rwmixread without a
 * mixed pattern), and cells that come out identical.
 */
#include <ctype.h>
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "engines/engine.h"
#include "stats/randdist.h"
#include "util/array.h"
#include "util/units.h"
#include "suite_int.h"

static void usage_note(struct ctx *x, int k, const struct pos *p, bool used)
{
	if (!p->line[k])
		return;
	for (size_t i = 0; i < x->nusage; i++)
		if (x->usage[i].key == k && x->usage[i].line == p->line[k] &&
		    x->usage[i].col == p->col[k]) {
			x->usage[i].used |= used;
			return;
		}
	struct usage *u = array_grow(x->usage, &x->ausage, x->nusage, sizeof(*u), 16);
	if (!u)
		return;
	x->usage = u;
	x->usage[x->nusage++] = (struct usage){ k, p->line[k], p->col[k], used };
}

/* The batching and io_uring keys of one resolved cell.  An io_uring key
 * set where no cell it reaches uses io_uring is an error (fio refuses
 * them for other engines), found through usage_note() like rwmixread. */
static void cell_check_engine_opts(struct ctx *x, const struct cell *c,
				   const struct pos *p, unsigned fl, unsigned fc)
{
#define L(k) (p->line[k] ? p->line[k] : fl)
#define C(k) (p->line[k] ? p->col[k] : fc)
	bool uring = key_applies(K_HIPRI, c);

	if (c->iodepth_batch_complete_max &&
	    c->iodepth_batch_complete_max < c->iodepth_batch_complete_min)
		err_at(x, L(K_BATCH_CMAX), C(K_BATCH_CMAX),
		       "'iodepth_batch_complete_max' %u is below 'iodepth_batch_complete_min' %u; raise it, or 0 for up to iodepth",
		       c->iodepth_batch_complete_max, c->iodepth_batch_complete_min);
	if (uring && c->hipri && !c->direct)
		err_at(x, L(K_HIPRI), C(K_HIPRI),
		       "'hipri' needs 'direct: true': polled completions exist for O_DIRECT IO only");
	/* an engine's own keys, and those that need an engine's capability */
	for (int k = 0; k < NKEYS; k++)
		if (cell_keys[k].engine || cell_keys[k].engine_flags)
			usage_note(x, k, p, key_applies(k, c) &&
				   (k != K_SQPOLL_CPU || c->sqthread_poll));
#undef L
#undef C
}

/* Why a key that no cell uses is an error (usage_note() found it unused). */
void usage_text(int k, char *buf, size_t len)
{
	const struct key *key = &cell_keys[k];

	if (k == K_RWMIXREAD)
		snprintf(buf, len, "'%s' only applies to readwrite or randrw, and no cell it reaches has one",
			 key->name);
	else if (k == K_NORANDOMMAP || k == K_RANDDIST)
		snprintf(buf, len, "'%s' only applies to random patterns (randread, randwrite, randrw), and no cell it reaches has one",
			 key->name);
	else if (k == K_SEQ_SHARED)
		snprintf(buf, len, "'%s' only applies to sequential patterns (read, write, readwrite, rewrite), and no cell it reaches has one",
			 key->name);
	else if (k == K_FSYNC || k == K_END_FSYNC || k == K_FDATASYNC ||
		 k == K_SB_FSYNC_FREQ)
		snprintf(buf, len, "'%s' only applies to writes, and no cell it reaches writes",
			 key->name);
	else if (k == K_SQPOLL_CPU)
		snprintf(buf, len, "'%s' only applies with 'sqthread_poll: true' and engine %s, and no cell it reaches has both",
			 key->name, key->engine);
	else if (k == K_RATE_PROCESS)
		snprintf(buf, len, "'%s' only applies with 'rate_iops' or 'load_sweep', and no cell it reaches has one",
			 key->name);
	else if (key->engine)
		snprintf(buf, len, "'%s' is an %s option, and no cell it reaches has 'engine: %s'",
			 key->name, key->engine, key->engine);
	else
		snprintf(buf, len, "'%s' only applies to an async engine (libaio, io_uring), and no cell it reaches uses one",
			 key->name);
}

/* rate_iops, load_sweep and qos with the rest of the cell. */
static void cell_check_qos(struct ctx *x, const struct cell *c, const struct pos *p,
			   unsigned fl, unsigned fc)
{
#define L(k) (p->line[k] ? p->line[k] : fl)
#define C(k) (p->line[k] ? p->col[k] : fc)
	bool rate = !key_is_default(K_RATE_IOPS, c);
	bool sweep = load_sweep_on(&c->load_sweep);

	if (c->qos.metric != QOS_NONE && !sweep)
		err_at(x, L(K_QOS), C(K_QOS), "'qos' target without a 'load_sweep': "
		       "the target is judged on the sweep's load points; add e.g. "
		       "load_sweep: {from: 20%%, to: 140%%, steps: 7}");
	if (rate && sweep)
		err_at(x, L(K_RATE_IOPS), C(K_RATE_IOPS), "'rate_iops' and 'load_sweep' "
		       "together: the sweep sets the rate of each load point; drop one");
	/* With SQPOLL a kernel thread takes requests off the ring when it
	 * polls: the job can neither hold a request until its intended start
	 * nor see when it was issued, so the schedule is not the job's. */
	if ((rate || sweep) && c->sqthread_poll && !strcmp(c->engine, "io_uring"))
		err_at(x, L(K_SQPOLL), C(K_SQPOLL), "engine 'io_uring' with "
		       "'sqthread_poll' cannot honour '%s': its kernel thread, not "
		       "the job, decides when a request starts; use sqthread_poll: "
		       "false, or engine libaio", rate ? "rate_iops" : "load_sweep");
	if (rate && c->rate.pair && !pattern_is_mixed(c->pattern) &&
	    !c->rate.iops[pattern_writes(c->pattern) ? 1 : 0])
		err_at(x, L(K_RATE_IOPS), C(K_RATE_IOPS), "'rate_iops' gives %s 0 IOPS, "
		       "and this cell only %s", pattern_writes(c->pattern) ? "writes" :
		       "reads", pattern_writes(c->pattern) ? "writes" : "reads");
	usage_note(x, K_RATE_PROCESS, p, rate || sweep);
#undef L
#undef C
}

/* zoned_abs zones against the most the cell can address: size in bytes
 * (a percentage is of a device validate does not see), of every file,
 * its active_range share.  A block device may address less (its size, one
 * "file"), and a percentage offset shortens the file: the runner checks
 * those before any IO (runner_check_zones). */
static void cell_check_zones(struct ctx *x, const struct cell *c, const struct pos *p,
			     unsigned fl, unsigned fc)
{
	struct randdist d;
	char why[240];

	if (!c->random_distribution || !c->random_distribution[0] || !pattern_is_random(c->pattern) || c->size_pct > 0 ||
	    !c->bs || randdist_parse(c->random_distribution, &d, why, sizeof(why)) < 0)
		return;
	double share = c->active_range_pct > 0 && c->active_range_pct < 100 ?
		       c->active_range_pct / 100.0 : 1.0;
	uint64_t blocks = (uint64_t)((double)c->size * share) / c->bs * (c->files ? c->files : 1);
	if (randdist_zones_fit(&d, blocks, c->bs, why, sizeof(why)) < 0)
		err_at(x, p->line[K_RANDDIST] ? p->line[K_RANDDIST] : fl,
		       p->line[K_RANDDIST] ? p->col[K_RANDDIST] : fc,
		       "%s (size x files x active_range)", why);
}

/* The model's keys against the time the cell has: one IO (its mean
 * service time, or the gap a ceiling puts between two starts, at the
 * slowest of model_noise's factors) must fit in the runtime, and in
 * MODEL_IO_MAX_NS without one.  model_bw: 1 validated, and a 4K IO then
 * took 4,096 s: the run could not end on time. */
static void cell_check_model(struct ctx *x, const struct cell *c, const struct pos *p,
			     unsigned fl, unsigned fc)
{
	const struct model_params *m = &c->model;
	double f = 1 + m->noise_pct / 100, bs = (double)c->bs;
	double limit = c->runtime_ns ? (double)c->runtime_ns : (double)MODEL_IO_MAX_NS;
	struct { int k; double ns; } t[4] = {
		{ K_MODEL_LATENCY, (double)m->latency_ns * f },
		{ K_MODEL_IOPS, m->iops ? 1e9 / (double)m->iops * f : 0 },
		{ K_MODEL_BW, m->bw ? 1e9 * bs / (double)m->bw * f : 0 },
		{ K_MODEL_WRATE, m->write_rate && pattern_writes(c->pattern) ?
		  1e9 * bs / (double)m->write_rate * f : 0 },
	};
	size_t w = 0;
	for (size_t i = 1; i < 4; i++)
		if (t[i].ns > t[w].ns)
			w = i;
	if (!key_applies(K_MODEL_LATENCY, c) || t[w].ns <= limit)
		return;
	char took[32], lim[32], need[48], b[32];
	int k = t[w].k;
	if (t[w].ns < 100e9) /* "3.001 s", not "3s732us600ns" */
		snprintf(took, sizeof(took), "%.3f s", t[w].ns / 1e9);
	else
		units_format_duration((uint64_t)(t[w].ns / 1e9) * 1000000000ull, took,
				      sizeof(took));
	units_format_duration((uint64_t)limit, lim, sizeof(lim));
	suite_fmt_size(c->bs, b, sizeof(b));
	if (k == K_MODEL_LATENCY) { /* rounded down to a whole ms (us under 1 s) */
		uint64_t g = limit / f >= 1e9 ? 1000000 : 1000, v = (uint64_t)(limit / f);
		units_format_duration(v / g * g, need, sizeof(need));
	}
	else if (k == K_MODEL_IOPS)
		snprintf(need, sizeof(need), "%.0f", ceil(1e9 * f / limit));
	else
		suite_fmt_size((uint64_t)ceil(1e9 * bs * f / limit), need, sizeof(need));
	err_at(x, p->line[k] ? p->line[k] : fl, p->line[k] ? p->col[k] : fc,
	       "'%s' makes one %s IO of the model take %s%s, longer than %s%s: "
	       "it could not complete in time; %s '%s' to %s %s%s",
	       cell_keys[k].name, b, took, m->noise_pct > 0 ? " (with model_noise)" : "",
	       c->runtime_ns ? "'runtime' " : "", c->runtime_ns ? lim :
	       "60s, the longest a model IO may take without a 'runtime'",
	       k == K_MODEL_LATENCY ? "lower" : "raise", cell_keys[k].name,
	       k == K_MODEL_LATENCY ? "at most" : "at least", need,
	       c->runtime_ns ? ", or lengthen the runtime" : "");
}

/* What a repetition allocates for its IO (cell_buffer_bytes) is bounded
 * by the language, CELL_BUFFERS_MAX; the machine's memory is run's check
 * (run_check.c), as a missing device is. */
static void cell_check_buffers(struct ctx *x, const struct cell *c, const struct pos *p,
			       unsigned fl, unsigned fc)
{
	uint64_t need = cell_buffer_bytes(c);
	int k = p->line[K_BS] ? K_BS : p->line[K_IODEPTH] ? K_IODEPTH : K_JOBS;
	char a[32], b[32], m[32];

	if (need <= CELL_BUFFERS_MAX)
		return;
	suite_fmt_size(c->bs, a, sizeof(a));
	suite_fmt_size(need, b, sizeof(b));
	suite_fmt_size(CELL_BUFFERS_MAX, m, sizeof(m));
	err_at(x, p->line[k] ? p->line[k] : fl, p->line[k] ? p->col[k] : fc,
	       "jobs %u x iodepth %u x bs %s = %s of IO buffers, more than a cell may "
	       "allocate (%s); lower jobs, iodepth or bs", c->jobs, c->iodepth, a, b, m);
}

/* Checks that involve several keys of one resolved cell. */
void cell_check(struct ctx *x, const struct cell *c, const struct pos *p,
		unsigned fl, unsigned fc)
{
	char a[32], b[32];
#define L(k) (p->line[k] ? p->line[k] : fl)
#define C(k) (p->line[k] ? p->col[k] : fc)

	if (!p->line[K_PATTERN] && !x->partial)
		err_at(x, fl, fc, "no 'pattern' for this cell; set it in 'defaults', 'matrix' or the entry");
	if (c->direct && c->bs % 512)
		err_at(x, L(K_BS), C(K_BS),
		       "'bs' %llu is not a multiple of 512, which 'direct: true' needs; use a multiple of 512 or 'direct: false'",
		       (unsigned long long)c->bs);
	/* A synchronous engine does one IO at a time per job: a Q32 label on a
	 * QD1 measurement would be a wrong number in a report, so this is an
	 * error, not a warning.  Use jobs for parallel synchronous IO. */
	const struct engine *eng = engine_lookup(c->engine);
	if (eng && !(eng->flags & ENGINE_ASYNC) && c->iodepth > 1)
		err_at(x, L(K_IODEPTH), C(K_IODEPTH),
		       "'iodepth' %u with engine '%s', which is synchronous (one IO per job); use iodepth 1 and 'jobs' for parallelism, or an async engine",
		       c->iodepth, c->engine);
	if (!c->size_pct && c->size < c->bs) {
		suite_fmt_size(c->size, a, sizeof(a));
		suite_fmt_size(c->bs, b, sizeof(b));
		err_at(x, L(K_SIZE), C(K_SIZE), "'size' %s is smaller than 'bs' %s", a, b);
	}
	if (!c->size_pct && !c->offset_pct && c->offset && c->offset >= c->size) {
		suite_fmt_size(c->offset, a, sizeof(a));
		suite_fmt_size(c->size, b, sizeof(b));
		err_at(x, L(K_OFFSET), C(K_OFFSET),
		       "'offset' %s leaves nothing of 'size' %s; use a smaller offset or a percentage",
		       a, b);
	}
	if (c->io_size && c->io_size < c->bs)
		err_at(x, L(K_IO_SIZE), C(K_IO_SIZE), "'io_size' is smaller than 'bs'");
	if (c->direct && c->offset % 512)
		err_at(x, L(K_OFFSET), C(K_OFFSET),
		       "'offset' is not a multiple of 512, which 'direct: true' needs");
	cell_check_zones(x, c, p, fl, fc);
	usage_note(x, K_RWMIXREAD, p, pattern_is_mixed(c->pattern));
	usage_note(x, K_FSYNC, p, pattern_writes(c->pattern));
	usage_note(x, K_END_FSYNC, p, pattern_writes(c->pattern));
	usage_note(x, K_FDATASYNC, p, pattern_writes(c->pattern));
	usage_note(x, K_SB_FSYNC_FREQ, p, pattern_writes(c->pattern));
	usage_note(x, K_NORANDOMMAP, p, pattern_is_random(c->pattern));
	usage_note(x, K_RANDDIST, p, pattern_is_random(c->pattern));
	usage_note(x, K_SEQ_SHARED, p, !pattern_is_random(c->pattern));
	cell_check_engine_opts(x, c, p, fl, fc);
	cell_check_qos(x, c, p, fl, fc);
	cell_check_model(x, c, p, fl, fc);
	cell_check_buffers(x, c, p, fl, fc);
#undef L
#undef C
}

/* Cells measured the same way: the device and every parameter from
 * `pattern` on (the label is only a name).  Fields are compared as bytes:
 * every cell starts from cell_init()'s memset, so padding is zero. */
static int cell_param_cmp(const struct cell *a, const struct cell *b)
{
	int r = strcmp(a->device, b->device);
	if (r)
		return r;
	return memcmp((const char *)a + offsetof(struct cell, pattern),
		      (const char *)b + offsetof(struct cell, pattern),
		      sizeof(struct cell) - offsetof(struct cell, pattern));
}

static const struct cell *sort_cells; /* qsort has no context argument */

static int cell_idx_cmp(const void *pa, const void *pb)
{
	size_t a = *(const size_t *)pa, b = *(const size_t *)pb;
	int r = cell_param_cmp(&sort_cells[a], &sort_cells[b]);
	return r ? r : (a < b ? -1 : a > b);
}

static int size_cmp(const void *pa, const void *pb)
{
	size_t a = *(const size_t *)pa, b = *(const size_t *)pb;
	return a < b ? -1 : a > b;
}
/* A cell that repeats another measures nothing new and shows twice in a
 * report: an error at the later one's matrix or include entry, once per
 * entry (not again for every device), in run order. */
void duplicates_check(struct ctx *x, const struct srcpos *src)
{
	size_t n = x->s->ncells, ndup = 0;
	size_t *ord = calloc(n ? n : 1, sizeof(*ord));
	size_t *dup = calloc(n ? n : 1, sizeof(*dup));   /* later cell */
	size_t *orig = calloc(n ? n : 1, sizeof(*orig)); /* cell it repeats, by index */

	if (!ord || !dup || !orig)
		goto out;
	for (size_t i = 0; i < n; i++)
		ord[i] = i;
	sort_cells = x->s->cells;
	qsort(ord, n, sizeof(*ord), cell_idx_cmp);
	sort_cells = NULL;
	for (size_t i = 1; i < n; i++) {
		size_t first = ord[i - 1];
		while (i < n && !cell_param_cmp(&x->s->cells[first], &x->s->cells[ord[i]])) {
			orig[ord[i]] = first;
			dup[ndup++] = ord[i];
			i++;
		}
	}
	qsort(dup, ndup, sizeof(*dup), size_cmp);
	for (size_t k = 0; k < ndup; k++) {
		size_t j = dup[k];
		const struct cell *c = &x->s->cells[j], *a = &x->s->cells[orig[j]];
		bool seen = false;
		for (size_t q = 0; q < k && !seen; q++)
			seen = src[dup[q]].line == src[j].line && src[dup[q]].col == src[j].col &&
			       src[orig[dup[q]]].line == src[orig[j]].line &&
			       src[orig[dup[q]]].col == src[orig[j]].col;
		if (seen)
			continue;
		err_at(x, src[j].line, src[j].col,
		       "cell %d ('%s' on '%s') repeats cell %d ('%s') with the same parameters; drop one or make them differ",
		       c->id, c->label, c->device, a->id, a->label);
	}
out:
	free(ord);
	free(dup);
	free(orig);
}
