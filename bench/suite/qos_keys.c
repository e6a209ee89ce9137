/*
 * qos_keys.c - rate_iops, rate_process, load_sweep and qos (qos_keys.h):
 * how a suite writes them, their PARAMS JSON and their text.  Each value's
 * default is all zero bytes (no rate, linear, no sweep, no target), which
 * is what key_is_default() of a KT_CUSTOM row tests.
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "util/intern.h"
#include "util/sbuf.h"
#include "util/units.h"
#include "cell.h"
#include "qos_keys.h"
#include "ymap.h"

/* The ranges are the key table's (keys.c rows, qos_keys.h): the loader
 * below and the reader (the from_json functions) read the same ones, so
 * what validate accepts a report reads. */
/* the rows' ranges as qos_keys.h names them: this file points no
 * reference back into keys.c's table, which points into this file */
#define RATE_MAX QOS_RATE_MAX
#define SWEEP_IOPS_MAX (QOS_RATE_MAX * QOS_JOBS_MAX)
#define SWEEP_PCT_MIN ((double)QOS_SWEEP_PCT_MIN)
#define SWEEP_PCT_MAX ((double)QOS_SWEEP_PCT_MAX)
#define TARGET_MAX_NS QOS_TARGET_MAX_NS

/* ---- parsing ---- */

static const char *scalar(const yaml_node_t *n)
{
	return n->type == YAML_SCALAR_NODE ? (const char *)n->data.scalar.value : NULL;
}

/* One whole number in lo..hi at n (the key's name in the message). */
static int parse_count(const struct ykit *y, yaml_node_t *n, const char *what,
		       uint64_t lo, uint64_t hi, uint64_t *out)
{
	const char *v = scalar(n);
	if (!v || units_parse_uint(v, out) < 0) {
		ykit_err(y, n, "%s must be a whole number, not %s", what,
			 v ? v : ykit_kind(n));
		return -1;
	}
	if (*out < lo || *out > hi) {
		ykit_err(y, n, "%s %s is out of range %llu..%llu", what, v,
			 (unsigned long long)lo, (unsigned long long)hi);
		return -1;
	}
	return 0;
}

static int rate_parse(const struct ykit *y, yaml_node_t *n, void *out)
{
	struct cell_rate *r = out;
	memset(r, 0, sizeof(*r));
	if (n->type == YAML_SCALAR_NODE) {
		if (parse_count(y, n, "'rate_iops'", 1, RATE_MAX, &r->iops[0]) < 0)
			return -1;
		r->iops[1] = r->iops[0];
		return 0;
	}
	if (n->type != YAML_SEQUENCE_NODE ||
	    n->data.sequence.items.top - n->data.sequence.items.start != 2) {
		ykit_err(y, n, "'rate_iops' is IOs per second per job, or [read, write] "
			 "(e.g. rate_iops: 2000 or rate_iops: [1400, 600])");
		return -1;
	}
	for (int d = 0; d < 2; d++) {
		yaml_node_t *e = yaml_document_get_node(y->doc,
					n->data.sequence.items.start[d]);
		if (!e || parse_count(y, e, d ? "'rate_iops' write" : "'rate_iops' read",
				      0, RATE_MAX, &r->iops[d]) < 0)
			return -1;
	}
	if (!r->iops[0] && !r->iops[1]) {
		ykit_err(y, n, "'rate_iops' [0, 0] limits nothing; leave the key out");
		return -1;
	}
	r->pair = true;
	return 0;
}

static int process_parse(const struct ykit *y, yaml_node_t *n, void *out)
{
	const char *v = scalar(n);
	enum rate_process p;
	if (v && !strcmp(v, "linear"))
		p = RATE_LINEAR;
	else if (v && !strcmp(v, "poisson"))
		p = RATE_POISSON;
	else {
		ykit_err(y, n, "'rate_process' must be linear or poisson, not %s",
			 v ? v : ykit_kind(n));
		return -1;
	}
	memcpy(out, &p, sizeof(p));
	return 0;
}

/* A load in percent of the probed maximum: "20%" or 20, a plain decimal
 * in SWEEP_PCT_MIN..SWEEP_PCT_MAX (1e-300 passed before, and "0x10"). */
static int parse_load_pct(const struct ykit *y, yaml_node_t *n, const char *what,
			  double *out)
{
	const char *v = scalar(n), *end = NULL;
	double x = -1;
	if (v && units_parse_decimal(v, &end, &x) == 0 && *end == '%')
		end++;
	if (!v || !end || *end || !(x >= SWEEP_PCT_MIN && x <= SWEEP_PCT_MAX)) {
		ykit_err(y, n, "'load_sweep' %s must be a share of the maximum in "
			 "%g%%..%g%% (e.g. 20%%), not %s", what, SWEEP_PCT_MIN, SWEEP_PCT_MAX,
			 v ? v : ykit_kind(n));
		return -1;
	}
	*out = x;
	return 0;
}

struct sweep_arg {
	struct load_sweep *s;
	bool have_pct, have_iops;
	yaml_node_t *from_n;
};

static int sweep_iops(const struct ykit *y, yaml_node_t *vn, struct load_sweep *s)
{
	size_t n = vn->type == YAML_SEQUENCE_NODE ?
		   (size_t)(vn->data.sequence.items.top - vn->data.sequence.items.start) : 0;
	if (!n || n > SWEEP_MAX_IOPS) {
		ykit_err(y, vn, "'load_sweep' iops must be a list of 1..%d offered loads "
			 "(IOPS of the cell), e.g. [1000, 2000, 4000]", SWEEP_MAX_IOPS);
		return -1;
	}
	uint64_t iops[SWEEP_MAX_IOPS];
	for (size_t i = 0; i < n; i++) {
		yaml_node_t *e = yaml_document_get_node(y->doc,
							vn->data.sequence.items.start[i]);
		if (!e || parse_count(y, e, "'load_sweep' iops", 1, SWEEP_IOPS_MAX,
				      &iops[i]) < 0)
			return -1;
	}
	if (!(s->iops = intern_mem(iops, n * sizeof(iops[0])))) {
		ykit_err(y, vn, "out of memory");
		return -1;
	}
	s->niops = (unsigned)n;
	return 0;
}

static int sweep_pair(const struct ykit *y, const char *key, yaml_node_t *kn,
		      yaml_node_t *vn, void *arg)
{
	struct sweep_arg *a = arg;
	uint64_t u;
	if (!strcmp(key, "from")) {
		a->have_pct = true;
		a->from_n = kn;
		return parse_load_pct(y, vn, "from", &a->s->from_pct);
	}
	if (!strcmp(key, "to")) {
		a->have_pct = true;
		return parse_load_pct(y, vn, "to", &a->s->to_pct);
	}
	if (!strcmp(key, "steps")) {
		a->have_pct = true;
		if (parse_count(y, vn, "'load_sweep' steps", 1, SWEEP_MAX_STEPS, &u) < 0)
			return -1;
		a->s->steps = (unsigned)u;
		return 0;
	}
	if (!strcmp(key, "iops")) {
		a->have_iops = true;
		return sweep_iops(y, vn, a->s);
	}
	ykit_err(y, kn, "unknown key '%s' in 'load_sweep'; use from, to and steps "
		 "(shares of the probed maximum) or iops (a list)", key);
	return -1;
}

static int sweep_parse(const struct ykit *y, yaml_node_t *n, void *out)
{
	struct load_sweep *s = out;
	struct sweep_arg a = { .s = s };
	memset(s, 0, sizeof(*s));
	s->from_pct = 20;
	s->to_pct = 140;
	s->steps = 7;
	if (ymap_each(y, n, "'load_sweep'", sweep_pair, &a) < 0)
		return -1;
	if (a.have_pct && a.have_iops) {
		ykit_err(y, n, "'load_sweep' takes from/to/steps or iops, not both");
		return -1;
	}
	if (a.have_iops) {
		s->from_pct = s->to_pct = 0;
		s->steps = 0;
		return 0;
	}
	if (s->from_pct > s->to_pct) {
		ykit_err(y, a.from_n ? a.from_n : n, "'load_sweep' from %g%% is above "
			 "to %g%%; the sweep goes up from 'from' to 'to'",
			 s->from_pct, s->to_pct);
		return -1;
	}
	if (s->steps < 2 && s->from_pct != s->to_pct) {
		ykit_err(y, n, "'load_sweep' with one step needs from equal to to");
		return -1;
	}
	return 0;
}

static int target_pair(const struct ykit *y, const char *key, yaml_node_t *kn,
		       yaml_node_t *vn, void *arg)
{
	struct qos_target *t = arg;
	enum qos_metric m;
	const char *v = scalar(vn);
	if (qos_metric_parse(key, &m) < 0) {
		ykit_err(y, kn, "unknown target '%s' in 'qos'; use p99, p99.9, p99.99 "
			 "or mean (e.g. qos: {p99: 1ms})", key);
		return -1;
	}
	if (t->metric != QOS_NONE) {
		ykit_err(y, kn, "'qos' takes one target; '%s' is a second", key);
		return -1;
	}
	if (!v || units_parse_duration(v, &t->target_ns) < 0 || !t->target_ns ||
	    t->target_ns > TARGET_MAX_NS) {
		ykit_err(y, vn, "'qos' %s must be a latency above 0 and at most 1d "
			 "(e.g. 500us, 1ms), not %s", key, v ? v : ykit_kind(vn));
		return -1;
	}
	t->metric = m;
	return 0;
}

static int target_parse(const struct ykit *y, yaml_node_t *n, void *out)
{
	struct qos_target *t = out;
	memset(t, 0, sizeof(*t));
	if (ymap_each(y, n, "'qos'", target_pair, t) < 0)
		return -1;
	if (t->metric == QOS_NONE) {
		ykit_err(y, n, "'qos' needs a target, e.g. qos: {p99: 1ms}");
		return -1;
	}
	return 0;
}

/* ---- JSON (PARAMS) ---- */

static cJSON *rate_to_json(const void *f)
{
	const struct cell_rate *r = f;
	if (!r->pair)
		return cJSON_CreateNumber((double)r->iops[0]);
	cJSON *a = cJSON_CreateArray();
	for (int d = 0; a && d < 2; d++)
		cJSON_AddItemToArray(a, cJSON_CreateNumber((double)r->iops[d]));
	return a;
}

static bool whole(const cJSON *v, double lo, double hi)
{
	return cJSON_IsNumber(v) && v->valuedouble == floor(v->valuedouble) &&
	       v->valuedouble >= lo && v->valuedouble <= hi;
}

static int rate_from_json(const cJSON *v, void *f, char *err, size_t errlen)
{
	struct cell_rate *r = f;
	if (whole(v, 1, (double)RATE_MAX)) {
		r->iops[0] = r->iops[1] = (uint64_t)v->valuedouble;
		return 0;
	}
	if (cJSON_GetArraySize(v) == 2 && whole(cJSON_GetArrayItem(v, 0), 0, (double)RATE_MAX) &&
	    whole(cJSON_GetArrayItem(v, 1), 0, (double)RATE_MAX)) {
		r->iops[0] = (uint64_t)cJSON_GetArrayItem(v, 0)->valuedouble;
		r->iops[1] = (uint64_t)cJSON_GetArrayItem(v, 1)->valuedouble;
		r->pair = true;
		return 0;
	}
	snprintf(err, errlen, "'rate_iops' must be a whole number or [read, write]");
	return -1;
}

static cJSON *process_to_json(const void *f)
{
	enum rate_process p;
	memcpy(&p, f, sizeof(p));
	return cJSON_CreateString(p == RATE_POISSON ? "poisson" : "linear");
}

static int process_from_json(const cJSON *v, void *f, char *err, size_t errlen)
{
	enum rate_process p;
	if (cJSON_IsString(v) && !strcmp(v->valuestring, "linear"))
		p = RATE_LINEAR;
	else if (cJSON_IsString(v) && !strcmp(v->valuestring, "poisson"))
		p = RATE_POISSON;
	else {
		snprintf(err, errlen, "'rate_process' must be \"linear\" or \"poisson\"");
		return -1;
	}
	memcpy(f, &p, sizeof(p));
	return 0;
}

static cJSON *sweep_to_json(const void *f)
{
	const struct load_sweep *s = f;
	cJSON *o = cJSON_CreateObject();
	if (!o)
		return NULL;
	if (s->niops) {
		cJSON *a = cJSON_AddArrayToObject(o, "iops");
		for (unsigned i = 0; a && i < s->niops; i++)
			cJSON_AddItemToArray(a, cJSON_CreateNumber((double)s->iops[i]));
	} else {
		cJSON_AddNumberToObject(o, "from_pct", s->from_pct);
		cJSON_AddNumberToObject(o, "to_pct", s->to_pct);
		cJSON_AddNumberToObject(o, "steps", s->steps);
	}
	return o;
}

static int sweep_from_json(const cJSON *v, void *f, char *err, size_t errlen)
{
	struct load_sweep *s = f;
	const cJSON *a = cJSON_GetObjectItemCaseSensitive(v, "iops");
	int n = cJSON_GetArraySize(a);
	if (cJSON_IsArray(a) && n >= 1 && n <= SWEEP_MAX_IOPS) {
		uint64_t iops[SWEEP_MAX_IOPS];
		for (int i = 0; i < n; i++) {
			const cJSON *e = cJSON_GetArrayItem(a, i);
			if (!whole(e, 1, (double)SWEEP_IOPS_MAX))
				goto bad;
			iops[i] = (uint64_t)e->valuedouble;
		}
		if (!(s->iops = intern_mem(iops, (size_t)n * sizeof(iops[0])))) {
			snprintf(err, errlen, "out of memory");
			return -1;
		}
		s->niops = (unsigned)n;
		return 0;
	}
	const cJSON *fr = cJSON_GetObjectItemCaseSensitive(v, "from_pct");
	const cJSON *to = cJSON_GetObjectItemCaseSensitive(v, "to_pct");
	const cJSON *st = cJSON_GetObjectItemCaseSensitive(v, "steps");
	if (!cJSON_IsNumber(fr) || !cJSON_IsNumber(to) || !whole(st, 1, SWEEP_MAX_STEPS) ||
	    !(fr->valuedouble >= SWEEP_PCT_MIN && fr->valuedouble <= to->valuedouble &&
	      to->valuedouble <= SWEEP_PCT_MAX))
		goto bad;
	s->from_pct = fr->valuedouble;
	s->to_pct = to->valuedouble;
	s->steps = (unsigned)st->valuedouble;
	return 0;
bad:
	snprintf(err, errlen, "'load_sweep' must be {from_pct, to_pct, steps} with shares in "
		 "%g..%g or {iops: [...]}", SWEEP_PCT_MIN, SWEEP_PCT_MAX);
	return -1;
}

static cJSON *target_to_json(const void *f)
{
	const struct qos_target *t = f;
	cJSON *o = cJSON_CreateObject();
	if (o) {
		cJSON_AddStringToObject(o, "metric", qos_metric_name(t->metric));
		cJSON_AddNumberToObject(o, "target_ns", (double)t->target_ns);
	}
	return o;
}

static int target_from_json(const cJSON *v, void *f, char *err, size_t errlen)
{
	struct qos_target *t = f;
	const cJSON *m = cJSON_GetObjectItemCaseSensitive(v, "metric");
	const cJSON *ns = cJSON_GetObjectItemCaseSensitive(v, "target_ns");
	if (!cJSON_IsString(m) || qos_metric_parse(m->valuestring, &t->metric) < 0 ||
	    !whole(ns, 1, (double)TARGET_MAX_NS)) {
		snprintf(err, errlen, "'qos' must be {\"metric\": \"p99\", \"target_ns\": N}, "
			 "N in 1..%llu", (unsigned long long)TARGET_MAX_NS);
		return -1;
	}
	t->target_ns = (uint64_t)ns->valuedouble;
	return 0;
}

const struct key_ops rate_iops_ops = {
	sizeof(struct cell_rate), rate_parse, rate_to_json, rate_from_json,
};
const struct key_ops rate_process_ops = {
	sizeof(enum rate_process), process_parse, process_to_json, process_from_json,
};
const struct key_ops load_sweep_ops = {
	sizeof(struct load_sweep), sweep_parse, sweep_to_json, sweep_from_json,
};
const struct key_ops qos_ops = {
	sizeof(struct qos_target), target_parse, target_to_json, target_from_json,
};

/* ---- text (Method lines, title notes) ---- */

void qos_target_text(const struct qos_target *t, char *buf, size_t len)
{
	double ns = (double)t->target_ns;
	if (t->metric == QOS_NONE) {
		snprintf(buf, len, "%s", "");
		return;
	}
	if (ns >= 1e6)
		snprintf(buf, len, "%s \xe2\x89\xa4 %g ms", qos_metric_name(t->metric), ns / 1e6);
	else
		snprintf(buf, len, "%s \xe2\x89\xa4 %g \xc2\xb5s", qos_metric_name(t->metric), ns / 1e3);
}

void qos_text_rate(const struct cell *c, enum key_text how, struct sbuf *b)
{
	const struct cell_rate *r = &c->rate;
	if (!r->iops[0] && !r->iops[1]) {
		if (how == KEY_TEXT_METHOD)
			sbuf_adds(b, "none");
		return;
	}
	if (how == KEY_TEXT_NOTE)
		sbuf_adds(b, "rate ");
	if (r->pair)
		sbuf_addf(b, "%llu read + %llu write IOPS per job",
			  (unsigned long long)r->iops[0], (unsigned long long)r->iops[1]);
	else
		sbuf_addf(b, "%llu IOPS per job", (unsigned long long)r->iops[0]);
}

void qos_text_process(const struct cell *c, enum key_text how, struct sbuf *b)
{
	if (c->rate_process == RATE_POISSON)
		sbuf_adds(b, "poisson");
	else if (how == KEY_TEXT_METHOD)
		sbuf_adds(b, "linear");
}

void qos_text_sweep(const struct cell *c, enum key_text how, struct sbuf *b)
{
	const struct load_sweep *s = &c->load_sweep;
	if (!load_sweep_on(s)) {
		if (how == KEY_TEXT_METHOD)
			sbuf_adds(b, "none");
		return;
	}
	if (how == KEY_TEXT_NOTE)
		sbuf_adds(b, "load sweep ");
	if (s->niops) {
		/* "at 500, 1,800 and 4,000 IOPS" */
		sbuf_adds(b, "at ");
		for (unsigned i = 0; i < s->niops; i++) {
			if (i)
				sbuf_adds(b, i + 1 == s->niops ? " and " : ", ");
			char d[32], g[48];
			snprintf(d, sizeof(d), "%llu", (unsigned long long)s->iops[i]);
			units_group_digits(d, g, sizeof(g));
			sbuf_adds(b, g);
		}
		sbuf_adds(b, " IOPS");
	} else {
		sbuf_addf(b, "%g %% to %g %% of the maximum in %u steps", s->from_pct,
			  s->to_pct, s->steps);
	}
}

void qos_text_target(const struct cell *c, enum key_text how, struct sbuf *b)
{
	char t[64];
	qos_target_text(&c->qos, t, sizeof(t));
	if (t[0])
		sbuf_adds(b, t);
	else if (how == KEY_TEXT_METHOD)
		sbuf_adds(b, "none");
}

/* ---- fio export ---- */

void qos_fio_map(const struct cell *c, fio_map_emit emit, void *arg)
{
	const struct cell_rate *r = &c->rate;
	char b[64];
	if (!r->iops[0] && !r->iops[1])
		return;
	if (pattern_is_mixed(c->pattern) && !r->pair) {
		/* ours: the total, split by rwmixread; fio's: per direction */
		uint64_t rd = r->iops[0] * c->rwmixread / 100;
		snprintf(b, sizeof(b), "%llu,%llu", (unsigned long long)rd,
			 (unsigned long long)(r->iops[0] - rd));
	} else if (r->pair) {
		snprintf(b, sizeof(b), "%llu,%llu", (unsigned long long)r->iops[0],
			 (unsigned long long)r->iops[1]);
	} else {
		snprintf(b, sizeof(b), "%llu", (unsigned long long)r->iops[0]);
	}
	emit(arg, "rate_iops", b);
	if (c->rate_process == RATE_POISSON)
		emit(arg, "rate_process", "poisson");
}
