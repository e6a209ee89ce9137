/*
 * titles.c - what each workload group is called (report_int.h
 * report_group_titles): "4K random read, QD32, rate 200 IOPS per job
 * (RND4K Q32T1)" for tables, "4K random reads (QD32, io_uring)" for
 * sentences.  A title names what tells its workload apart: a parameter
 * unusual among all the workloads, every parameter in which workloads
 * sharing its label differ (suite/workload.h workload_apart), an offset
 * family's offsets, the stop rule where only it separates two, and
 * whatever still separates two titles that read alike.  Every step sorts
 * (n log n in workloads): comparing every pair of workloads made a report
 * of 4,000 workloads take 20 s.
 */
#include <ctype.h>
#include <stdlib.h>
#include <string.h>

#include "report.h"
#include "report_int.h"
#include "suite/keys.h"
#include "suite/workload.h"
#include "util/units.h"

/*
 * Workload parameters as a title speaks of them.  Two cells are one
 * workload when suite/workload.h says so; the words below group its keys
 * the way a title names them.  P_EOPTS gathers every other workload key
 * (batching, io_uring, placement, rate, and any key the table gains
 * later).
 */
enum wparam { P_BS, P_QD, P_JOBS, P_RWMIX, P_ENGINE, P_DIRECT, P_FSYNC, P_DATA,
	      P_FILES, P_OFFSET, P_STOP, P_SIZE, P_EOPTS, P__N };

/* The title word of workload key k; -1: the pattern, which every title
 * names. */
static int wparam_of(int k)
{
	switch (k) {
	case K_PATTERN: return -1;
	case K_BS: return P_BS;
	case K_IODEPTH: return P_QD;
	case K_JOBS: return P_JOBS;
	case K_RWMIXREAD: return P_RWMIX;
	case K_ENGINE: return P_ENGINE;
	case K_DIRECT: return P_DIRECT;
	case K_FSYNC: case K_END_FSYNC: return P_FSYNC;
	case K_DATA: return P_DATA;
	case K_FILES: return P_FILES;
	case K_OFFSET: return P_OFFSET;
	case K_RUNTIME: case K_REQUESTS: case K_IO_SIZE: return P_STOP;
	case K_SIZE: return P_SIZE;
	default: return P_EOPTS;
	}
}

/* The workload keys of each word (suite/workload.h WORKLOAD_KEY bits). */
static uint64_t wparam_mask(int p)
{
	uint64_t m = 0;
	for (int k = 0; k < NKEYS; k++)
		if (cell_keys[k].workload && wparam_of(k) == p)
			m |= WORKLOAD_KEY(k);
	return m;
}

/* The keys a sentence about a load sweep leaves unsaid: it states its
 * target itself ("sustains 1,500 IOPS of 4K random reads at QD1 with p99
 * <= 20 ms"), so the sweep's loads and target are no words of its
 * workload there. */
#define SWEEP_SAID (WORKLOAD_KEY(K_LOAD_SWEEP) | WORKLOAD_KEY(K_QOS))

/* The P_EOPTS keys of c that differ from their defaults, as a title says
 * them ("iodepth_batch 32, fixedbufs"), and those of force at any value
 * ("rate_iops none": its label-mates differ there), but none of quiet; a
 * key that does not count for c is not said.  false (nothing added) when
 * there is none. */
static bool eopts_note(const struct cell *c, uint64_t force, uint64_t quiet, struct sbuf *b)
{
	size_t len0 = b->len;
	struct sbuf part = SBUF_INIT;
	for (int k = 0; k < NKEYS; k++) {
		if (!cell_keys[k].workload || wparam_of(k) != P_EOPTS ||
		    (quiet & WORKLOAD_KEY(k)) || !workload_key_counts(k, c))
			continue;
		sbuf_reset(&part);
		key_text(k, c, KEY_TEXT_NOTE, &part);
		if (!part.len && (force & WORKLOAD_KEY(k))) {
			sbuf_addf(&part, "%s ", cell_keys[k].name);
			workload_value(k, c, &part);
		}
		if (part.len)
			sbuf_addf(b, "%s%s", b->len > len0 ? ", " : "", sbuf_str(&part));
	}
	sbuf_release(&part);
	return b->len > len0;
}

/* The measured length of an imported cell without a stop rule, else 0. */
static double imported_stop_s(const struct report *r, size_t dev, const struct rset_cell *c)
{
	if (!r->devs[dev].imported || c->cell.runtime_ns || c->cell.requests || c->cell.io_size)
		return 0;
	return c->runtime_mean_ns > 0 ? c->runtime_mean_ns / 1e9 : 0;
}

/* Short text of a parameter for a title: "buffered", "QD64".  measured_s
 * > 0: the cell was imported without its stop rule (sysbench logs lack
 * --time), so say how long it ran rather than "one pass". */
static void param_note(const struct rset_cell *c, int p, double measured_s, struct sbuf *b)
{
	const struct cell *x = &c->cell;
	char t[32];
	switch (p) {
	case P_BS: fmt_bs(x->bs, t, sizeof(t)); sbuf_addf(b, "bs %s", t); break;
	case P_QD: sbuf_addf(b, "QD%u", x->iodepth); break;
	case P_JOBS: sbuf_addf(b, "%u job%s", x->jobs, x->jobs == 1 ? "" : "s"); break;
	case P_RWMIX: sbuf_addf(b, "%u%% reads", x->rwmixread); break;
	case P_ENGINE: sbuf_adds(b, x->engine); break;
	case P_DIRECT: sbuf_adds(b, x->direct ? "direct" : "buffered"); break;
	case P_FSYNC:
		if (x->fsync)
			sbuf_addf(b, "fsync every %u", x->fsync);
		else
			sbuf_adds(b, x->end_fsync ? "end fsync" : "no fsync");
		break;
	case P_DATA:
		/* the share is the workload: 30 % and 70 % compressible are two */
		if (x->data == DATA_COMPRESSIBLE)
			sbuf_addf(b, "%u %% compressible data", x->compress_pct);
		else
			sbuf_addf(b, "%s data", data_name(x->data));
		break;
	case P_FILES: sbuf_addf(b, "%u file%s", x->files, x->files == 1 ? "" : "s"); break;
	case P_STOP:
		if (x->runtime_ns) {
			units_format_duration(x->runtime_ns, t, sizeof(t));
			sbuf_addf(b, "%s run", t);
		}
		if (x->requests)
			sbuf_addf(b, "%s%llu requests", x->runtime_ns ? ", " : "",
				  (unsigned long long)x->requests);
		if (x->io_size) {
			fmt_bs(x->io_size, t, sizeof(t));
			sbuf_addf(b, "%s%s io", x->runtime_ns || x->requests ? ", " : "", t);
		}
		if (!x->runtime_ns && !x->requests && !x->io_size) {
			if (measured_s > 0)
				sbuf_addf(b, "stop rule not recorded, ran %.1f s", measured_s);
			else
				sbuf_adds(b, "one pass");
		}
		break;
	case P_EOPTS:
		if (!eopts_note(x, 0, 0, b))
			sbuf_adds(b, "fio's engine defaults");
		break;
	case P_SIZE:
		if (x->size_pct > 0)
			sbuf_addf(b, "size %g%%", x->size_pct);
		else if (!x->size) /* an import that could not know it */
			sbuf_adds(b, "size not recorded");
		else {
			fmt_bs(x->size, t, sizeof(t));
			sbuf_addf(b, "size %s", t);
		}
		break;
	case P_OFFSET:
		if (x->offset_pct > 0) {
			sbuf_addf(b, "offset %g%%", x->offset_pct);
		} else {
			fmt_bs(x->offset, t, sizeof(t));
			sbuf_addf(b, "offset %s", x->offset ? t : "0");
		}
		break;
	}
}

/* ---- what each title says ---- */

/* Per group: the workload key of each word, and what its label-mates
 * differ in; the modal key of each word among all groups. */
struct tctx {
	const struct report *r;
	size_t n;
	char **pkey;             /* n * P__N: group i's key of word p */
	uint64_t *apart;         /* workload_apart() of the protos */
	const char *modal[P__N]; /* one of pkey: the most common */
	size_t modal_i[P__N];    /* a group that has it */
	char **vtext;            /* n * NKEYS: group i's value of key k where
				  * it counts (workload_value), else NULL */
	const char *kmodal[NKEYS]; /* the most common of vtext for key k */
	bool qd, jobs;           /* QD or jobs differ among the groups */
};

static const char *pkey(const struct tctx *t, size_t i, int p)
{
	return t->pkey[i * P__N + (size_t)p];
}

/* A word is said where one of its keys is unusual among the workloads it
 * counts for (a suite's one psync fsync cell says "psync"; the other 40
 * do not say "libaio"; a sequential read is not unusual for lacking a
 * random map), or where the workloads sharing the label differ in it. */
static bool said(const struct tctx *t, size_t i, int p)
{
	if (t->apart[i] & wparam_mask(p))
		return true;
	for (int k = 0; k < NKEYS; k++) {
		const char *v = t->vtext[i * NKEYS + (size_t)k];
		if (v && t->kmodal[k] && (wparam_mask(p) & WORKLOAD_KEY(k)) &&
		    strcmp(v, t->kmodal[k]))
			return true;
	}
	return false;
}

struct sortkey {
	const char *a, *b;       /* compared in turn */
	size_t i;                /* the group: ties in group order */
};

static int sortkey_cmp(const void *x, const void *y)
{
	const struct sortkey *p = x, *q = y;
	int d = strcmp(p->a, q->a);
	if (!d)
		d = strcmp(p->b ? p->b : "", q->b ? q->b : "");
	return d ? d : p->i < q->i ? -1 : p->i > q->i;
}

/* The modal key of each word: the value most groups share, ties to the
 * one that comes first.  n log n per word. */
static void modal_keys(struct tctx *t, struct sortkey *sk)
{
	for (int p = 0; p < P__N; p++) {
		size_t best = 0, best_first = 0, run = 0;
		for (size_t i = 0; i < t->n; i++)
			sk[i] = (struct sortkey){ pkey(t, i, p), NULL, i };
		qsort(sk, t->n, sizeof(*sk), sortkey_cmp);
		t->modal[p] = NULL;
		for (size_t i = 0; i < t->n; i += run) {
			size_t first = sk[i].i;
			for (run = 1; i + run < t->n && !strcmp(sk[i + run].a, sk[i].a); run++)
				first = sk[i + run].i < first ? sk[i + run].i : first;
			if (run > best || (run == best && first < best_first)) {
				best = run;
				best_first = first;
				t->modal[p] = sk[i].a;
				t->modal_i[p] = first;
			}
		}
	}
}

/* The value of every workload key where it counts for a group, and the
 * most common of each (ties to the first group's).  n log n per key. */
static int key_modals(struct tctx *t, struct sortkey *sk)
{
	for (size_t i = 0; i < t->n; i++) {
		const struct cell *c = &t->r->groups[i].proto->cell;
		for (int k = 0; k < NKEYS; k++) {
			if (!workload_key_counts(k, c))
				continue;
			struct sbuf b = SBUF_INIT;
			workload_value(k, c, &b);
			if (!(t->vtext[i * NKEYS + (size_t)k] = sbuf_detach(&b)))
				return -1;
		}
	}
	for (int k = 0; k < NKEYS; k++) {
		size_t m = 0, best = 0, run;
		for (size_t i = 0; i < t->n; i++)
			if (t->vtext[i * NKEYS + (size_t)k])
				sk[m++] = (struct sortkey){ t->vtext[i * NKEYS + (size_t)k], NULL, i };
		qsort(sk, m, sizeof(*sk), sortkey_cmp);
		size_t best_first = 0;
		for (size_t i = 0; i < m; i += run) {
			size_t first = sk[i].i;
			for (run = 1; i + run < m && !strcmp(sk[i + run].a, sk[i].a); run++)
				first = sk[i + run].i < first ? sk[i + run].i : first;
			if (run > best || (run == best && first < best_first)) {
				best = run;
				best_first = first;
				t->kmodal[k] = sk[i].a;
			}
		}
	}
	return 0;
}

static int tctx_init(struct tctx *t, const struct report *r)
{
	memset(t, 0, sizeof(*t));
	t->r = r;
	t->n = r->ngroups;
	size_t n = t->n ? t->n : 1;
	const struct cell **protos = calloc(n, sizeof(*protos));
	struct sortkey *sk = calloc(n, sizeof(*sk));
	t->pkey = calloc(n * P__N, sizeof(*t->pkey));
	t->apart = calloc(n, sizeof(*t->apart));
	t->vtext = calloc(n * NKEYS, sizeof(*t->vtext));
	int rc = protos && sk && t->pkey && t->apart && t->vtext ? 0 : -1;
	for (size_t i = 0; !rc && i < t->n; i++) {
		const struct rset_cell *c = r->groups[i].proto;
		protos[i] = &c->cell;
		t->qd |= c->cell.iodepth != r->groups[0].proto->cell.iodepth;
		t->jobs |= c->cell.jobs != r->groups[0].proto->cell.jobs;
		for (int p = 0; p < P__N && !rc; p++) {
			struct sbuf b = SBUF_INIT;
			workload_key_inferred(&c->cell, c->inferred, wparam_mask(p), &b);
			if (!(t->pkey[i * P__N + (size_t)p] = sbuf_detach(&b)))
				rc = -1;
		}
	}
	if (!rc && workload_apart(protos, t->n, WORKLOAD_ALL, t->apart) < 0)
		rc = -1;
	if (!rc)
		modal_keys(t, sk);
	if (!rc)
		rc = key_modals(t, sk);
	free(protos);
	free(sk);
	return rc;
}

static void tctx_release(struct tctx *t)
{
	for (size_t i = 0; t->pkey && i < t->n * P__N; i++)
		free(t->pkey[i]);
	free(t->pkey);
	free(t->apart);
	for (size_t i = 0; t->vtext && i < t->n * NKEYS; i++)
		free(t->vtext[i]);
	free(t->vtext);
}

/* What a title spells beyond its usual words: every parameter (all), an
 * offset family's offsets (0 % too), the stop-rule parts that alone
 * separate two workloads (the usual workload keeps its plain name). */
struct tname {
	bool all;
	bool offset, offset_pct;
	bool rt, rq, io;
};

/* The stop-rule parts of c named in n, or the whole rule when c has none
 * of them (its sibling stops by bytes, c by time: say c's time). */
static void stop_note(const struct rset_cell *c, const struct tname *n, struct sbuf *b)
{
	char s[32];
	size_t len0 = b->len;

	if (n->rt && c->cell.runtime_ns) {
		units_format_duration(c->cell.runtime_ns, s, sizeof(s));
		sbuf_addf(b, "%s run", s);
	}
	if (n->rq && c->cell.requests)
		sbuf_addf(b, "%s%llu requests", b->len > len0 ? ", " : "",
			  (unsigned long long)c->cell.requests);
	if (n->io && c->cell.io_size) {
		fmt_bs(c->cell.io_size, s, sizeof(s));
		sbuf_addf(b, "%s%s io", b->len > len0 ? ", " : "", s);
	}
	if (b->len == len0)
		param_note(c, P_STOP, 0, b);
}

/* A value an importer inferred, as a title says it: its why up to a
 * colon or parenthesis, without commas ("64 or more from fio's
 * iodepth_level", "not recorded"). */
static void inferred_short(const struct rset_cell *c, const char *key, struct sbuf *b)
{
	const char *why = rset_obj_str(&c->inferred_why, key);
	if (!why) {
		sbuf_adds(b, "inferred");
		return;
	}
	size_t n = strcspn(why, ":(");
	while (n && why[n - 1] == ' ')
		n--;
	for (size_t i = 0; i < n; i++)
		if (why[i] != ',')
			sbuf_addc(b, why[i]);
}

/* The title of group i without its head and label: ", QD1, 4 jobs". */
static void group_extra(const struct tctx *t, size_t i, const struct tname *n,
			uint64_t quiet, struct sbuf *extra)
{
	const struct rgroup *g = &t->r->groups[i];
	const struct rset_cell *c = g->proto;
	const struct cell *x = &c->cell;
	double ms = imported_stop_s(t->r, g->e[0].dev, c);
	bool all = n->all;

	if (c->inferred & WORKLOAD_KEY(K_IODEPTH)) {
		sbuf_adds(extra, ", QD ");
		inferred_short(c, "iodepth", extra);
	} else if (all || t->qd || t->jobs || x->iodepth > 1 || x->jobs > 1 || said(t, i, P_QD)) {
		sbuf_addf(extra, ", QD%u", x->iodepth);
	}
	if (all || t->jobs || x->jobs > 1 || said(t, i, P_JOBS))
		sbuf_addf(extra, ", %u job%s", x->jobs, x->jobs == 1 ? "" : "s");
	if (g->mixed)
		sbuf_addf(extra, ", %u%% reads", x->rwmixread);
	if (all || said(t, i, P_ENGINE))
		sbuf_addf(extra, ", %s", x->engine);
	if (all || said(t, i, P_DIRECT))
		sbuf_adds(extra, x->direct ? ", direct" : ", buffered");
	/* "no fsync" is the usual case: only say when there is one, and
	 * never on a workload that writes nothing (an fsync there syncs
	 * nothing: a read test is not "fsync every 100") */
	if (pattern_writes(x->pattern) &&
	    (x->fsync || x->end_fsync || (all && said(t, i, P_FSYNC)) ||
	     (t->apart[i] & wparam_mask(P_FSYNC)))) {
		sbuf_adds(extra, ", ");
		param_note(c, P_FSYNC, 0, extra);
	}
	if (all || said(t, i, P_DATA) || x->data != DATA_RANDOM) {
		sbuf_adds(extra, ", ");
		param_note(c, P_DATA, 0, extra);
	}
	if (all || said(t, i, P_FILES) || x->files > 1)
		sbuf_addf(extra, ", %u file%s", x->files, x->files == 1 ? "" : "s");
	if (all || said(t, i, P_SIZE)) {
		sbuf_adds(extra, ", ");
		param_note(c, P_SIZE, 0, extra);
	}
	/* batching and io_uring settings common to every cell are in the
	 * method, not each title */
	if (all || said(t, i, P_EOPTS)) {
		struct sbuf e = SBUF_INIT;
		if (eopts_note(x, t->apart[i] & wparam_mask(P_EOPTS), quiet, &e))
			sbuf_addf(extra, ", %s", sbuf_str(&e));
		sbuf_release(&e);
	}
	if (x->offset || x->offset_pct > 0) {
		sbuf_adds(extra, ", ");
		param_note(c, P_OFFSET, 0, extra);
	} else if (n->offset || (t->apart[i] & wparam_mask(P_OFFSET))) {
		sbuf_adds(extra, n->offset_pct ? ", offset 0%" : ", offset 0");
	}
	if (all || ms > 0 || (t->apart[i] & wparam_mask(P_STOP))) {
		sbuf_adds(extra, ", ");
		param_note(c, P_STOP, ms, extra);
	} else if (n->rt || n->rq || n->io) {
		sbuf_adds(extra, ", ");
		stop_note(c, n, extra);
	}
}

/* The stop-rule parts in which c differs from o (only those where c is
 * not the usual one when usual_quiet: the usual workload keeps its plain
 * name). */
static bool stop_parts(const struct rset_cell *m, const struct rset_cell *c,
		       const struct rset_cell *o, bool usual_quiet, struct tname *n)
{
	const struct cell *x = &c->cell, *y = &o->cell;
	bool rt = x->runtime_ns != y->runtime_ns, rq = x->requests != y->requests,
	     io = x->io_size != y->io_size;

	if (usual_quiet && m) {
		rt &= x->runtime_ns != m->cell.runtime_ns;
		rq &= x->requests != m->cell.requests;
		io &= x->io_size != m->cell.io_size;
	}
	n->rt |= rt;
	n->rq |= rq;
	n->io |= io;
	return rt || rq || io;
}

/* "randread|4K": what makes two groups title siblings (one pattern and
 * one block size: their titles must tell them apart). */
static char *sibling_key(const struct rset_cell *c)
{
	char bs[32];
	fmt_bs(c->cell.bs, bs, sizeof(bs));
	return fmt_str("%s|%s", pattern_name(report_cell_pattern(c)), bs);
}

static void extras_build(const struct tctx *t, const struct tname *n, struct sbuf *ex)
{
	for (size_t i = 0; i < t->n; i++) {
		sbuf_reset(&ex[i]);
		group_extra(t, i, &n[i], 0, &ex[i]);
	}
}

/* Sort the groups by (sib[i], by[i]): sk holds them, runs of equal keys
 * are together. */
static void sort_by(size_t n, char **sib, const char *const *by, struct sortkey *sk)
{
	for (size_t i = 0; i < n; i++)
		sk[i] = (struct sortkey){ sib[i], by[i], i };
	qsort(sk, n, sizeof(*sk), sortkey_cmp);
}

static bool same_key(const struct sortkey *x, const struct sortkey *y)
{
	return !strcmp(x->a, y->a) && !strcmp(x->b ? x->b : "", y->b ? y->b : "");
}

/* The length of the run of equal keys at sk[i]. */
static size_t run_len(const struct sortkey *sk, size_t n, size_t i)
{
	size_t j = i + 1;
	while (j < n && same_key(&sk[i], &sk[j]))
		j++;
	return j - i;
}

/* Past this many groups whose titles read alike, the stop rule's words
 * are not weighed pair by pair (their square): every parameter is spelled
 * instead, and what still reads alike is told apart at the end. */
#define TITLE_PAIRS_MAX 64

/* Offset families: groups that are one workload in every word but the
 * offset name their offsets, 0 included (zone reads at 0 %, 50 % and
 * 95 %). */
static int offset_families(const struct tctx *t, struct tname *n, char **sib,
			   struct sortkey *sk)
{
	char **by = calloc(t->n ? t->n : 1, sizeof(*by));
	int rc = by ? 0 : -1;
	for (size_t i = 0; !rc && i < t->n; i++) {
		struct sbuf b = SBUF_INIT;
		for (int p = 0; p < P__N; p++)
			if (p != P_OFFSET)
				sbuf_addf(&b, "%s\x1f", pkey(t, i, p));
		if (!(by[i] = sbuf_detach(&b)))
			rc = -1;
	}
	if (!rc) {
		sort_by(t->n, sib, (const char *const *)by, sk);
		for (size_t i = 0, len; i < t->n; i += len) {
			len = run_len(sk, t->n, i);
			bool pct = false;
			for (size_t k = i; k < i + len; k++)
				pct |= t->r->groups[sk[k].i].proto->cell.offset_pct > 0;
			for (size_t k = i; len > 1 && k < i + len; k++) {
				n[sk[k].i].offset = true;
				n[sk[k].i].offset_pct = pct;
			}
		}
	}
	for (size_t i = 0; by && i < t->n; i++)
		free(by[i]);
	free(by);
	return rc;
}

/* Sort the groups by their sibling key and current extra (ex). */
static void sort_by_extra(const struct tctx *t, char **sib, const struct sbuf *ex,
			  const char **by, struct sortkey *sk)
{
	for (size_t i = 0; i < t->n; i++)
		by[i] = sbuf_str(&ex[i]);
	sort_by(t->n, sib, by, sk);
}

/* Look-alikes that differ in the stop rule alone say the parts that
 * differ; the one with the usual rule keeps its plain name unless
 * neither has it. */
static void stop_rules(const struct tctx *t, struct tname *n, const struct sortkey *sk)
{
	const struct rset_cell *m = t->modal[P_STOP] ?
		t->r->groups[t->modal_i[P_STOP]].proto : NULL;
	for (size_t i = 0, len; i < t->n; i += len) {
		len = run_len(sk, t->n, i);
		if (len < 2 || len > TITLE_PAIRS_MAX)
			continue;
		for (size_t x = i; x < i + len; x++)
			for (size_t y = i; y < i + len; y++) {
				const struct rset_cell *a = t->r->groups[sk[x].i].proto;
				const struct rset_cell *b = t->r->groups[sk[y].i].proto;
				struct tname other = { 0 };
				if (x == y || stop_parts(m, a, b, true, &n[sk[x].i]))
					continue;
				/* neither has the usual stop rule: both say theirs */
				if (!stop_parts(m, b, a, true, &other))
					stop_parts(m, a, b, false, &n[sk[x].i]);
			}
	}
}

/* Choose what each title says: offsets of a family first, then the stop
 * parts that separate look-alikes, then everything where they still read
 * alike.  0, or -1 out of memory. */
static int titles_choose(const struct tctx *t, struct tname *n, struct sbuf *ex, char **sib)
{
	struct sortkey *sk = calloc(t->n ? t->n : 1, sizeof(*sk));
	const char **by = calloc(t->n ? t->n : 1, sizeof(*by));
	int rc = sk && by ? offset_families(t, n, sib, sk) : -1;

	if (!rc) {
		extras_build(t, n, ex);
		sort_by_extra(t, sib, ex, by, sk);
		stop_rules(t, n, sk);
		extras_build(t, n, ex);
		/* two workloads must never read alike: spell every parameter
		 * out where the chosen words still clash */
		sort_by_extra(t, sib, ex, by, sk);
		bool again = false;
		for (size_t i = 0, len; i < t->n; i += len) {
			len = run_len(sk, t->n, i);
			for (size_t k = i; len > 1 && k < i + len; k++)
				again = n[sk[k].i].all = true;
		}
		if (again)
			extras_build(t, n, ex);
	}
	free(sk);
	free(by);
	return rc;
}

/* Titles that still read alike (workloads that differ only where no word
 * of a title looks: a file size, a rate process) get the keys that tell
 * them apart, spelled as a suite writes them: ", size 4G".  n log n. */
static void titles_apart(struct report *r, struct sbuf *ex, char **sib, const char **by,
			 struct sortkey *sk)
{
	for (size_t i = 0; i < r->ngroups; i++)
		by[i] = sbuf_str(&ex[i]);
	sort_by(r->ngroups, sib, by, sk);
	for (size_t i = 0, len; i < r->ngroups; i += len) {
		len = run_len(sk, r->ngroups, i);
		uint64_t mask = 0;
		const struct cell *first = &r->groups[sk[i].i].proto->cell;
		for (size_t k = i + 1; k < i + len; k++)
			mask |= workload_diff(first, &r->groups[sk[k].i].proto->cell, WORKLOAD_ALL);
		for (size_t k = i; len > 1 && k < i + len; k++) {
			sbuf_adds(&ex[sk[k].i], ", ");
			workload_say(&r->groups[sk[k].i].proto->cell, mask, &ex[sk[k].i]);
		}
	}
}

/* The title and the words of group g from its extra. */
/* The words of cell c in a sentence from its title's extra: "4K random
 * reads at QD32", or with more than the queue depth "4K random reads
 * (QD1, psync)": never "at QD1, psync with p99 <= 5 ms".  NULL out of
 * memory. */
static char *words_of(const struct rset_cell *c, const char *extra)
{
	struct sbuf w = SBUF_INIT;
	char bs[32];

	fmt_bs(c->cell.bs, bs, sizeof(bs));
	sbuf_addf(&w, "%s %s", bs, report_cell_words(c, true));
	if (*extra && !strncmp(extra, ", QD", 4) && isdigit((unsigned char)extra[4]) &&
	    !strchr(extra + 2, ','))
		sbuf_addf(&w, " at %s", extra + 2);
	else if (*extra)
		sbuf_addf(&w, " (%s)", extra + 2);
	return sbuf_detach(&w);
}

/* The title and the words of group g from its extra. */
static int title_set(struct rgroup *g, const char *extra)
{
	const struct rset_cell *c = g->proto;
	struct sbuf tt = SBUF_INIT;
	char bs[32];

	fmt_bs(c->cell.bs, bs, sizeof(bs));
	sbuf_addf(&tt, "%s %s%s", bs, report_cell_words(c, false), extra);
	if (c->cell.label[0])
		sbuf_addf(&tt, " (%s)", c->cell.label);
	g->title = sbuf_detach(&tt);
	g->words = words_of(c, extra);
	return g->title && g->words ? 0 : -1;
}

/* A load sweep's group: its words without the sweep (SWEEP_SAID), for
 * the sentences that state the sweep's target themselves. */
static int sweep_words_set(struct report *r, const struct tctx *t, size_t i,
			   const struct tname *n)
{
	struct rgroup *g = &r->groups[i];
	struct sbuf e = SBUF_INIT;
	if (key_is_default(K_LOAD_SWEEP, &g->proto->cell))
		return 0;
	group_extra(t, i, n, SWEEP_SAID, &e);
	g->sweep_words = e.oom ? NULL : words_of(g->proto, sbuf_str(&e));
	sbuf_release(&e);
	return g->sweep_words ? 0 : -1;
}

int report_group_titles(struct report *r)
{
	struct tctx t;
	size_t n = r->ngroups ? r->ngroups : 1;
	struct tname *names = calloc(n, sizeof(*names));
	struct sbuf *ex = calloc(n, sizeof(*ex));
	char **sib = calloc(n, sizeof(*sib));
	struct sortkey *sk = calloc(n, sizeof(*sk));
	const char **by = calloc(n, sizeof(*by));
	int rc = names && ex && sib && sk && by ? tctx_init(&t, r) : (memset(&t, 0, sizeof(t)), -1);

	for (size_t i = 0; !rc && i < r->ngroups; i++)
		if (!(sib[i] = sibling_key(r->groups[i].proto)))
			rc = -1;
	if (!rc)
		rc = titles_choose(&t, names, ex, sib);
	if (!rc)
		titles_apart(r, ex, sib, by, sk);
	for (size_t i = 0; !rc && i < r->ngroups; i++)
		rc = title_set(&r->groups[i], sbuf_str(&ex[i]));
	for (size_t i = 0; !rc && i < r->ngroups; i++)
		rc = sweep_words_set(r, &t, i, &names[i]);
	for (size_t i = 0; i < r->ngroups; i++) {
		if (ex)
			sbuf_release(&ex[i]);
		if (sib)
			free(sib[i]);
	}
	tctx_release(&t);
	free(names);
	free(ex);
	free(sib);
	free(sk);
	free(by);
	return rc;
}
